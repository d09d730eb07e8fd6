"""Trick ranking: the ladder of criteria that picks a trick's winner.

The ladder's steps compare cards lexicographically: "prefer trumps, then the led group, then
the highest rank" is the same as taking the largest tuple (is trump, is led, rank). The
compiler packs every step but "prefer led" into one integer per card (`static_key`), and the
led step into a weight added when a card is in the led group; a trick's winner is then the
card with the largest key, the first (or last) played among equals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from trickrules.rules.conditions import card_holds, is_static
from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import Deck, RankingStep
from trickrules.rules.whole_trick import TrickView

class TrickWinner(Protocol):
    """(cards in play order, led group, the trick's number from 1, whether it is the round's last
    trick) -> position of the winning card (only a step's `trick` condition reads the last two)."""

    def __call__(self, cards: Sequence[int], led: int, number: int = 1, last: bool = False) -> int: ...


def order_place(step: RankingStep, card: int, deck: Deck, faces: Faces, led: int = 0) -> int:
    """A card's place in an `order` step: from 1 (lowest listed rank) up, 0 if not listed."""
    for condition, places in step.order:
        if condition is None or card_holds(condition, card, deck, faces, led=led):
            rank = faces.rank[card]
            return next((place for listed, place in places if listed == rank), 0)
    return 0


def step_is_static(step: RankingStep) -> bool:
    """Whether a step's values depend on the card alone (and the trumps), not on the trick."""
    conditions = [step.condition, *[condition for condition, _ in step.order]]
    return all(condition is None or is_static(condition) for condition in conditions)


def _step_values(step: RankingStep, deck: Deck, faces: Faces) -> list[int] | None:
    """Each card's value for one step, as non-negative integers; None for "prefer led"."""
    cards = range(len(deck.cards))
    if step.kind == "order":
        return [order_place(step, c, deck, faces) for c in cards]
    if step.kind == "prefer":
        if step.group == "led":
            return None
        if step.group == "trump":
            return [int(faces.is_trump[c]) for c in cards]
        assert step.condition is not None
        return [int(card_holds(step.condition, c, deck, faces)) for c in cards]
    if step.attribute is None:
        raw = [faces.rank[c] for c in cards]
    else:
        raw = [deck.cards[c].attributes[step.attribute] for c in cards]
    if step.kind == "lowest":
        raw = [-v for v in raw]
    low = min(raw)
    return [v - low for v in raw]


def ranking_keys(steps: Sequence[RankingStep], deck: Deck, faces: Faces) -> tuple[tuple[int, ...], int, bool]:
    """(static key per card, weight of being in the led group, whether the last played wins ties)."""
    keys = [0] * len(deck.cards)
    led_weight = 0
    last_played = False
    for step in steps:
        if step.kind in ("first_played", "last_played"):
            last_played = step.kind == "last_played"
            break
        values = _step_values(step, deck, faces)
        span = 2 if values is None else max(values) + 1
        keys = [k * span for k in keys]
        led_weight *= span
        if values is None:
            led_weight += 1
        else:
            keys = [k + v for k, v in zip(keys, values)]
    return tuple(keys), led_weight, last_played


def compile_ranking(steps: Sequence[RankingStep], deck: Deck, faces: Faces) -> TrickWinner:
    """A function giving the position of a trick's winning card."""
    if not all(step_is_static(s) for s in steps):
        # a condition that looks at the trick (e.g. `led`) cannot be packed into keys per card
        def read_winner(cards: Sequence[int], led: int, number: int = 1, last: bool = False) -> int:
            return ladder_winner(steps, cards, led, deck, faces, number, last)

        return read_winner
    keys, led_weight, last_played = ranking_keys(steps, deck, faces)
    group = faces.group

    def trick_winner(cards: Sequence[int], led: int, number: int = 1, last: bool = False) -> int:
        best, best_key = 0, -1
        for position, card in enumerate(cards):
            key = keys[card] + led_weight if group[card] == led else keys[card]
            if key > best_key or (last_played and key == best_key):
                best, best_key = position, key
        return best

    return trick_winner


def ladder_winner(steps: Sequence[RankingStep], cards: Sequence[int], led: int, deck: Deck, faces: Faces,
                  number: int = 1, last: bool = False) -> int:
    """The winner by reading the ladder step by step, narrowing the candidates (slow, for checks;
    `number` and `last`: the trick's number and whether it is the round's last, as conditions read them)."""
    candidates = list(range(len(cards)))
    trick = TrickView(cards, led, deck, faces, number=number, last=last)
    for step in steps:
        if step.kind == "first_played":
            return candidates[0]
        if step.kind == "last_played":
            return candidates[-1]
        candidates = _narrow(step, candidates, cards, led, deck, faces, trick)
    return candidates[0]


def trick_places(steps: Sequence[RankingStep], cards: Sequence[int], led: int, deck: Deck, faces: Faces,
                 number: int = 1, last: bool = False) -> list[int]:
    """Each card's place in the trick by the ranking, by position: 1 for the winner, 2 for the
    winner of the cards left without it, and so on."""
    places = [0] * len(cards)
    left = list(range(len(cards)))
    for place in range(1, len(cards) + 1):
        best = left[ladder_winner(steps, [cards[p] for p in left], led, deck, faces, number, last)]
        places[best] = place
        left.remove(best)
    return places


def _narrow(step: RankingStep, candidates: list[int], cards: Sequence[int], led: int, deck: Deck, faces: Faces,
            trick: TrickView | None = None) -> list[int]:
    card = lambda p: cards[p]  # noqa: E731
    if step.kind == "prefer":
        if step.group == "led":
            kept = [p for p in candidates if faces.group[card(p)] == led]
        elif step.group == "trump":
            kept = [p for p in candidates if faces.is_trump[card(p)]]
        else:
            assert step.condition is not None
            kept = [p for p in candidates if card_holds(step.condition, card(p), deck, faces, led=led, trick=trick)]
        return kept or candidates
    if step.kind == "order":
        places = {p: order_place(step, card(p), deck, faces, led) for p in candidates}
        return [p for p in candidates if places[p] == max(places.values())]
    attribute = step.attribute
    if attribute is None:
        value = lambda p: faces.rank[card(p)]  # noqa: E731
    else:
        value = lambda p: deck.cards[card(p)].attributes[attribute]  # noqa: E731
    best = (max if step.kind == "highest" else min)([value(p) for p in candidates])
    return [p for p in candidates if value(p) == best]
