"""Phase: a player takes a card and discards one (action ``discard <card>``).

Reached from choosing trumps: the dealer takes the turned-up card into the hand and lays one
card away face down (it takes no part in the play; no other player sees it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .kinds import DISCARD

if TYPE_CHECKING:
    from trickrules.engine.state import State


@dataclass
class Discarding:
    """The discard's own state: the card taken, and whether it may be the one laid away."""

    taken: int
    may_discard_it: bool

    def __reduce__(self) -> tuple[type[Discarding], tuple[int, bool]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.taken, self.may_discard_it))

    def copy(self) -> Discarding:
        return Discarding(self.taken, self.may_discard_it)


def start(state: State, player: int, card: int, may_discard_it: bool) -> None:
    """`player` takes `card`; then waits for the discard."""
    hand = state.hands[player]
    hand.append(card)
    hand.sort()
    if card in state.stock:
        state.stock.remove(card)
    if card in state.set_aside:
        state.set_aside.remove(card)
    state.parts["discard"] = Discarding(card, may_discard_it)
    if state.events is not None:
        state.log("take", player=player, card=card)
    state._phase = DISCARD
    state.current = player


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    own: Discarding = state.parts["discard"]
    offset = state.game.discard_offset
    return [offset + c for c in state.hands[state.current] if own.may_discard_it or c != own.taken]


def apply(state: State, action: int) -> None:
    card = action - state.game.discard_offset
    player = state.current
    state.hands[player].remove(card)
    state.discarded.append(card)
    del state.parts["discard"]
    if state.events is not None:
        state.log("discard", player=player, card=card)
    state.next_step()
