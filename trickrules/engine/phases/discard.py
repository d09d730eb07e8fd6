"""Phase: a player takes a card and discards one (action ``discard <card>``).

Reached from choosing trumps: the dealer takes the turned-up card into the hand and lays one
card away face down (it takes no part in the play; no other player sees it). The cards laid
away stay known to their owner for the round (`discarded`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from trickrules.engine.actions import ActionBlock, cards

from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.state import State


DISCARD: Final = 7
"""This kind's `Phase` number."""


@dataclass
class Discarding:
    """The discard's own state: the card taken, whether it may be the one laid away, and the
    cards laid away this round (kept for the round)."""

    taken: int
    may_discard_it: bool
    cards: list[int]

    def __reduce__(self) -> tuple[type[Discarding], tuple[int, bool, list[int]]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.taken, self.may_discard_it, self.cards))

    def copy(self) -> Discarding:
        return Discarding(self.taken, self.may_discard_it, list(self.cards))


def discarded(state: State) -> list[int]:
    """The cards laid away this round: the state's own list (`resample` deals it again), or a
    new empty one before any discard."""
    own: Discarding | None = state.parts[DISCARD]
    return own.cards if own is not None else []


def discarding(state: State) -> bool:
    """Whether the state waits for a discard."""
    return state._kind is KIND


def take_into_hand(state: State, player: int, card: int) -> None:
    """`player` takes `card` (the turned-up card) from the cards not dealt into the hand."""
    hand = state.hands[player]
    hand.append(card)
    hand.sort()
    if card in state.stock:
        state.stock.remove(card)
    if card in state.set_aside:
        state.set_aside.remove(card)
    if state.events is not None:
        state.log("take", player=player, card=card)


def start(state: State, player: int, card: int, may_discard_it: bool) -> None:
    """`player` takes `card`; then waits for the discard."""
    take_into_hand(state, player, card)
    state.parts[DISCARD] = Discarding(card, may_discard_it, discarded(state))
    enter(state, KIND)
    state.current = player


class Discard(PhaseKind):
    """The player who took a card lays one away (action ``discard <card>``)."""

    def legal(self, state: State) -> list[int]:
        own: Discarding = state.parts[DISCARD]
        offset = state.game.discard_offset
        return [offset + c for c in state.hands[state.current] if own.may_discard_it or c != own.taken]

    def apply(self, state: State, action: int) -> None:
        card = action - state.game.discard_offset
        player = state.current
        state.hands[player].remove(card)
        discarded(state).append(card)
        if state.events is not None:
            state.log("discard", player=player, card=card)
        state.next_step()


KIND: Final[Discard] = Discard(DISCARD, "", (ActionBlock(7, "discard", lambda g: g.num_cards if g.discards else 0, cards("discard")),))
