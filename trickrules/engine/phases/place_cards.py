"""Phase: lay the cards of a won trick on the winner's tableau.

Cards of one counting suit share a section; laying a card decides the order of its whole
suit in this trick (the others go beneath it in play order), so the winner chooses only
which card of a suit lies on top and which new suit opens a section first (action
``place <card>``); every placement with one possible outcome is made at once.
This module owns the queue of cards still to lay and whose they are (`Placing`, for the round).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.placement import forced_cards, section_for

from trickrules.engine.actions import ActionBlock, cards

from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State


PLACE_CARDS: Final = 3
"""This kind's `Phase` number."""


@dataclass
class Placing:
    """The won trick's cards not laid yet, and whose tableau they go to."""

    queue: list[int]
    player: int = 0

    def __reduce__(self) -> tuple[type[Placing], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.queue, self.player))

    def copy(self) -> Placing:
        return Placing(list(self.queue), self.player)


def placing(state: State) -> Placing:
    """The round's `Placing` (an empty one in a game whose won cards go to the pile)."""
    own: Placing | None = state.parts[PLACE_CARDS]
    return own if own is not None else Placing([])


def waiting(state: State) -> bool:
    """Whether won cards wait to be laid (never in a game whose won cards go to the pile)."""
    if state.game.won_to_pile:
        return False
    own: Placing = state.parts[PLACE_CARDS]  # typed: read natively, not as any object
    return len(own.queue) > 0


class PlaceCards(PhaseKind):
    """Lay a won trick's cards on the winner's tableau (action ``place <card>``)."""

    def used(self, game: Game) -> bool:
        return game.ruleset.won_cards == "tableau"

    def new_round(self, state: State) -> None:
        if not state.game.won_to_pile:
            state.parts[PLACE_CARDS] = Placing([])

    def player(self, state: State) -> int:
        return placing(state).player

    def legal(self, state: State) -> list[int]:
        offset = state.game.place_offset
        return [offset + c for c in placing(state).queue]

    def apply(self, state: State, action: int) -> None:
        own = placing(state)
        lay(state, own, suit_group_under(state, own, action - state.game.place_offset))
        state.after_trick()


KIND: Final[PlaceCards] = PlaceCards(PLACE_CARDS, "", (ActionBlock(1, "place", lambda g: g.num_cards, cards("place")),))


def start(state: State, winner: int, cards: list[int]) -> None:
    """Queue a won trick's cards for `winner`'s tableau (in the round's own `Placing`)."""
    own: Placing = state.parts[PLACE_CARDS]
    own.queue = list(cards)
    own.player = winner


def place_forced(state: State) -> bool:
    """Lay every card whose place is forced; True if a choice remains (and waits)."""
    own = placing(state)
    queue = own.queue
    if not queue:
        return False
    lay(state, own, forced_cards(queue, state.tables.faces.suit, state.section_suits[own.player]))
    if not queue:  # never one card left: forced_cards lays a lone card, and leaves none or two or more
        return False
    offset = state.game.place_offset
    enter(state, KIND, [offset + c for c in queue])
    return True


def suit_group_under(state: State, own: Placing, card: int) -> list[int]:
    """The cards of `card`'s suit still to be laid, in play order, with `card` last (on top).

    Only a stack's top card and its set of cards ever count, so laying a card decides the
    order of its whole suit in this trick: the others go beneath it in the order played.
    """
    suit_of = state.tables.faces.suit
    suit = suit_of[card]
    return [c for c in own.queue if suit_of[c] == suit and c != card] + [card]


def lay(state: State, own: Placing, cards: list[int]) -> None:
    """Lay won cards on their winner's tableau in order (the pile when no section is left)."""
    player, queue, suit_of = own.player, own.queue, state.tables.faces.suit
    row, stacks = state.section_suits[player], state.stacks[player]
    for card in cards:
        queue.remove(card)
        suit = suit_of[card]
        section = row.index(suit) if suit in row else section_for(suit, row)
        if section < 0:
            state.piles[player].append(card)
        else:
            row[section] = suit
            stacks[section].append(card)
        if state.events is not None:
            state.log("place", player=player, card=card, section=section)
