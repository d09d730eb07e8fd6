"""Phase: players in turn pass or declare a contract (``contract <name>``, ``pass``).

The first to declare is the round's declarer and the contract (a partial spec compiled over
the whole spec) applies to the rest of the round: its trumps, ranking, follow rules,
restrictions and scoring, and, for a contract played alone, the declarer against the rest.
When all pass, the spec's `otherwise` contract applies with no declarer, or the round is
scored unplayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.ruleset import DeclarePhase

from trickrules.engine.actions import ActionBlock, PASS_TURN, named

from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


DECLARE: Final = 9
"""This kind's `Phase` number."""


@dataclass
class Declaring:
    """The declare phase's own state: its rules, who spoke first, how many passed, and, kept
    for the round, the contract played (-1: none)."""

    rules: DeclarePhase
    first: int
    spoken: int = 0
    contract: int = -1

    def __reduce__(self) -> tuple[type[Declaring], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.spoken, self.contract))

    def copy(self) -> Declaring:
        return Declaring(self.rules, self.first, self.spoken, self.contract)


def contract(state: State) -> int:
    """The index of the contract this round plays (-1: none declared)."""
    own: Declaring | None = state.parts[DECLARE]
    return own.contract if own is not None else -1


class Declare(PhaseKind):
    """Players in turn pass or declare a contract (``contract <name>``, ``pass``)."""

    def used(self, game: Game) -> bool:
        return game.declares

    def start(self, state: State, step: RoundStep) -> bool:
        """Ask the first player."""
        rules = step.declaring
        assert rules is not None
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        state.parts[DECLARE] = Declaring(rules, first)
        enter(state, self)
        state.current = first
        return True

    def legal(self, state: State) -> list[int]:
        own: Declaring = state.parts[DECLARE]
        rules = own.rules
        offset = state.game.contract_offset
        return [state.game.choose_pass_action] + [offset + c for c in rules.contracts]

    def apply(self, state: State, action: int) -> None:
        own: Declaring = state.parts[DECLARE]
        player = state.current
        if action == state.game.choose_pass_action:
            if state.events is not None:
                state.log("declare", player=player, contract=None)
            own.spoken += 1
            state.current = turns.after(state, player)
            if own.spoken < turns.speakers(state):
                return
            rules = own.rules
            if rules.otherwise < 0:
                state.end_round()  # everyone passed: nothing is played
                return
            play_by(state, rules.otherwise)
            state.next_step()
            return
        index = action - state.game.contract_offset
        if state.events is not None:
            state.log("declare", player=player, contract=index)
        state.declarer = player
        play_by(state, index)
        state.next_step()


KIND: Final[Declare] = Declare(DECLARE, "declare", (
    PASS_TURN,
    ActionBlock(9, "contract", lambda g: len(g.contract_names) if g.declares else 0, named("contract", lambda g: g.contract_names)),
))


def play_by(state: State, index: int) -> None:
    """Play the rest of the round by contract `index`: its trumps, tables, scoring and teams."""
    own: Declaring = state.parts[DECLARE]
    own.contract = index
    state.play_game = game = state.game.contract_games[index]
    state.reset_counters("round", game)  # the contract's own counters, and its initial values
    rules = game.ruleset
    if rules.declarer_alone and state.declarer >= 0:
        rest = tuple(p for p in range(state.num_players) if p != state.declarer)
        state.round_teams = tuple(sorted([(state.declarer,), rest]))
    else:
        state.round_teams = rules.teams
    if state.events is not None:
        state.log("contract", contract=index, declarer=state.declarer)
    trumps = rules.trumps if isinstance(rules.trumps, frozenset) else state.trumps
    state.set_trumps(trumps)
    state.changed()
