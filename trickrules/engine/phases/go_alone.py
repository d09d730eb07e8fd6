"""Phase: the declarer plays alone or with the partner (action ``alone`` or ``partner``).

Alone, the declarer's partners sit out the round: they play no card, tricks have that many
cards fewer, and the lead passes over them. Skipped when no one declared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from trickrules.engine.actions import ActionBlock, words

from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


GO_ALONE: Final = 8
"""This kind's `Phase` number."""


class GoAlone(PhaseKind):
    """The declarer plays alone or with the partner (action ``alone`` or ``partner``)."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Ask the declarer; False when there is none (the phase is skipped)."""
        if state.declarer < 0:
            return False
        enter(state, self)
        state.current = state.declarer
        return True

    def legal(self, state: State) -> list[int]:
        offset = state.game.alone_offset
        return [offset, offset + 1]

    def apply(self, state: State, action: int) -> None:
        alone = action == state.game.alone_offset
        declarer = state.declarer
        if alone:
            team = next(t for t in state.game.ruleset.teams if declarer in t)
            state.sit_out([p for p in team if p != declarer])
        if state.events is not None:
            state.log("alone", player=declarer, alone=alone, sitting_out=sorted(state.sitting_out))
        state.next_step()


KIND: Final[GoAlone] = GoAlone(GO_ALONE, "go_alone", (ActionBlock(8, "alone", lambda g: 2 if g.goes_alone else 0, words("alone", "partner")),))
