"""Phase: a player names the trump suit for the round (action ``trumps <suit>``).

Who chooses (the dealer or the player to the dealer's left) and among which suits come from
the spec's `trumps: {choose: ...}`; play starts once the suit is named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.rules.ruleset import TrumpChoice

from .kinds import CHOOSE_TRUMPS

if TYPE_CHECKING:
    from trickrules.engine.state import State


def start(state: State, choice: TrumpChoice) -> None:
    """Wait for the chooser, with no trumps set until then."""
    state.set_trumps(frozenset(), log=False)
    state._phase = CHOOSE_TRUMPS
    offset = 0 if choice.by == "dealer" else 1
    state.current = (state.dealer + offset) % state.num_players


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    choice = state.game.ruleset.trumps
    assert isinstance(choice, TrumpChoice)
    offset = state.game.trump_offset
    return [offset + s for s in choice.candidates]


def apply(state: State, action: int) -> None:
    state.set_trumps(frozenset([action - state.game.trump_offset]))
    state.next_step()
