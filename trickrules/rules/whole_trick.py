"""Conditions on the whole trick: the names a `trick` expression reads, and their values.

A reward's or a ranking step's condition may hold ``trick: "<expression>"``, read once the
trick is complete. Besides the options, the expression reads (suit and attribute names are the
spec's own):

- ``cards``: how many cards the trick holds; ``ranks``: their ranks, in play order;
- ``<suit>_played``: how many cards of that suit (counting suit) it holds, e.g.
  ``hearts_played``; ``trumps_played`` and ``led_played``: how many trumps, how many cards of
  the led group;
- ``<attribute>``: the attribute's values over the trick's cards, in play order, e.g.
  ``sum(points) >= 10``;
- ``rank`` and ``position``: the card's own rank, and when it was played (1 for the lead);
- ``trick_number``: the trick's number in the round, from 1; ``last_trick``: true for the
  round's last trick (the one that empties the hands);
- in rewards only: ``place`` (the card's place in the trick by the ranking: 1 for the winning
  card, 2 for the second best, ...), ``winner_rank`` and ``winner_position``.

Specs whose conditions hold no `trick` never build these names: their conditions stay tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import TRUMP_GROUP, CardCondition, Deck, RankingStep, TrickCondition

__all__ = ["RANKING_NAMES", "REWARD_NAMES", "TrickView", "reads_trick", "trick_lists", "trick_names"]

RANKING_NAMES = ("cards", "ranks", "rank", "position", "trumps_played", "led_played", "trick_number", "last_trick")
"""The names of every trick condition, besides suits, attributes and options."""
REWARD_NAMES = ("place", "winner_rank", "winner_position")
"""The names only a reward's trick condition reads: they need the winner, or the ranking."""

Places = Callable[[Sequence[int], int, tuple[RankingStep, ...]], list[int]]
"""(cards in play order, led group, ranking) -> each card's place in the trick, by position."""


def trick_names(deck: Deck, rewards: bool) -> tuple[str, ...]:
    """Every name a trick condition may read (options aside), in a reward or in a ranking step."""
    suits = tuple(f"{suit}_played" for suit in deck.suits)
    return (*RANKING_NAMES, *(REWARD_NAMES if rewards else ()), *suits, *deck.attributes)


def trick_lists(deck: Deck) -> tuple[str, ...]:
    """The names of `trick_names` that hold lists: `ranks` and each attribute's values."""
    return ("ranks", *deck.attributes)


def reads_trick(condition: CardCondition | None) -> bool:
    """Whether `condition`, or a condition inside it, has a `trick` part."""
    if condition is None:
        return False
    parts = [condition.negate, *condition.all_of, *(condition.any_of or ())]
    return condition.trick is not None or any(reads_trick(part) for part in parts if part is not None)


class TrickView:
    """One complete trick as its trick conditions read it; names are worked out on first use."""

    __slots__ = ("cards", "led", "deck", "faces", "winner_position", "places_of", "number", "last", "_shared", "_places")

    def __init__(self, cards: Sequence[int], led: int, deck: Deck, faces: Faces, winner_position: int = -1,
                 places_of: Places | None = None, number: int = 1, last: bool = False) -> None:
        self.number = number
        self.last = last
        self.cards = cards
        self.led = led
        self.deck = deck
        self.faces = faces
        self.winner_position = winner_position
        self.places_of = places_of
        self._shared: dict[str, Any] | None = None
        self._places: dict[tuple[RankingStep, ...], list[int]] = {}

    def shared(self) -> dict[str, Any]:
        """The names every card of the trick reads alike."""
        if self._shared is None:
            faces, cards = self.faces, self.cards
            names: dict[str, Any] = {"cards": len(cards), "ranks": [faces.rank[c] for c in cards]}
            names["trick_number"] = self.number
            names["last_trick"] = self.last
            for index, suit in enumerate(self.deck.suits):
                names[f"{suit}_played"] = sum(1 for c in cards if faces.suit[c] == index)
            names["trumps_played"] = sum(1 for c in cards if faces.group[c] == TRUMP_GROUP)
            names["led_played"] = sum(1 for c in cards if faces.group[c] == self.led)
            for index, attribute in enumerate(self.deck.attributes):
                names[attribute] = [self.deck.cards[c].attributes[index] for c in cards]
            if self.winner_position >= 0:
                names["winner_position"] = self.winner_position + 1
                names["winner_rank"] = faces.rank[cards[self.winner_position]]
            self._shared = names
        return self._shared

    def holds(self, condition: TrickCondition, card: int) -> bool:
        """Whether the trick condition holds for `card`, one of the trick's cards."""
        position = list(self.cards).index(card)
        names = {**dict(condition.constants), **self.shared(), "rank": self.faces.rank[card], "position": position + 1}
        if "place" in condition.expression.names and self.places_of is not None:
            ranking = condition.ranking
            if ranking not in self._places:
                self._places[ranking] = self.places_of(self.cards, self.led, ranking)
            names["place"] = self._places[ranking][position]
        return bool(condition.expression(names))
