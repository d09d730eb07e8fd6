"""Phase: the declarer plays alone or with the partner (action ``alone`` or ``partner``).

Alone, the declarer's partners sit out the round: they play no card, tricks have that many
cards fewer, and the lead passes over them. Skipped when no one declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .kinds import GO_ALONE

if TYPE_CHECKING:
    from trickrules.engine.state import State


def start(state: State) -> bool:
    """Ask the declarer; False when there is none (the phase is skipped)."""
    if state.declarer < 0:
        return False
    state._phase = GO_ALONE
    state.current = state.declarer
    return True


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    offset = state.game.alone_offset
    return [offset, offset + 1]


def apply(state: State, action: int) -> None:
    alone = action == state.game.alone_offset
    declarer = state.declarer
    if alone:
        team = next(t for t in state.game.ruleset.teams if declarer in t)
        state.sit_out([p for p in team if p != declarer])
    if state.events is not None:
        state.log("alone", player=declarer, alone=alone, sitting_out=sorted(state.sitting_out))
    state.next_step()
