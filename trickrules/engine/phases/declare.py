"""Phase: players in turn pass or declare a contract (``contract <name>``, ``pass``).

The first to declare is the round's declarer and the contract (a partial spec compiled over
the whole spec) applies to the rest of the round: its trumps, ranking, follow rules,
restrictions and scoring, and, for a contract played alone, the declarer against the rest.
When all pass, the spec's `otherwise` contract applies with no declarer, or the round is
scored unplayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trickrules.rules.ruleset import DeclarePhase

from . import turns
from .kinds import DECLARE

if TYPE_CHECKING:
    from trickrules.engine.state import State


@dataclass
class Declaring:
    """The declare phase's own state while it runs: its rules, who spoke first, how many passed."""

    rules: DeclarePhase
    first: int
    spoken: int = 0

    def __reduce__(self) -> tuple[type[Declaring], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.spoken))

    def copy(self) -> Declaring:
        return Declaring(self.rules, self.first, self.spoken)


def start(state: State, rules: DeclarePhase) -> None:
    """Ask the first player."""
    first = turns.first_to_act(state, rules.first, rules.first_seat)
    state.parts["declare"] = Declaring(rules, first)
    state._phase = DECLARE
    state.current = first


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    rules = state.parts["declare"].rules
    offset = state.game.contract_offset
    return [state.game.choose_pass_action] + [offset + c for c in rules.contracts]


def apply(state: State, action: int) -> None:
    own: Declaring = state.parts["declare"]
    player = state.current
    if action == state.game.choose_pass_action:
        if state.events is not None:
            state.log("declare", player=player, contract=None)
        own.spoken += 1
        state.current = turns.after(state, player)
        if own.spoken < turns.speakers(state):
            return
        del state.parts["declare"]
        rules = own.rules
        if rules.otherwise < 0:
            state.end_round()  # everyone passed: nothing is played
            return
        state.apply_contract(rules.otherwise)
        state.next_step()
        return
    contract = action - state.game.contract_offset
    del state.parts["declare"]
    if state.events is not None:
        state.log("declare", player=player, contract=contract)
    state.declarer = player
    state.apply_contract(contract)
    state.next_step()
