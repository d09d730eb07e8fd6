"""Phase: players in turn pass or declare a contract (``contract <name>``, ``pass``).

The first to declare is the round's declarer, or, bidding by precedence, the last player
left, or (``bidding: declarer``) the winner of an earlier bid phase names the contract alone,
with no pass (`trickrules.rules.declaring` has the rules); the contract (a partial spec compiled over
the whole spec) applies to the rest of the round: its trumps, ranking, follow rules,
restrictions and scoring, and, for a contract played alone, the declarer against the rest.
When all pass, the spec's `otherwise` contract applies with no declarer, or the round is
scored unplayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, MutableSequence
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.declaring import DeclarePhase

from trickrules.engine.actions import ActionBlock, PASS_TURN, named

from . import turns
from .bid import bids as bids_by_seat
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset


DECLARE: Final = 9
"""This kind's `Phase` number."""


NOT_SPOKEN, PASSED = -2, -1
"""A seat's entry in `Declaring.bids` before it speaks, and once it passed."""


@dataclass
class Declaring:
    """The declare phase's own state: its rules, who spoke first, how many passed, kept for the
    round the contract played (-1: none), and, bidding by precedence, each seat's highest bid
    (its place in `rules.contracts`; `NOT_SPOKEN`, `PASSED`)."""

    rules: DeclarePhase
    first: int
    spoken: int = 0
    contract: int = -1
    bids: list[int] | None = None

    def __reduce__(self) -> tuple[type[Declaring], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.spoken, self.contract, self.bids))

    def copy(self) -> Declaring:
        return Declaring(self.rules, self.first, self.spoken, self.contract, None if self.bids is None else list(self.bids))

    def highest(self, players: int) -> tuple[int, int]:
        """The highest bid (its place in the contracts; -1: none) and the seat holding it (the
        one with precedence among equal bids)."""
        bids = self.bids or []
        high = max(bids, default=-1)
        if high < 0:
            return -1, -1
        rules = self.rules
        holder = min((p for p, b in enumerate(bids) if b == high), key=lambda p: (p - rules.precedence_seat) % players)
        return high, holder


def contract(state: State) -> int:
    """The index of the contract this round plays (-1: none declared)."""
    own: Declaring | None = state.parts[DECLARE]
    return own.contract if own is not None else -1


class Declare(PhaseKind):
    """Players in turn pass or declare a contract (``contract <name>``, ``pass``)."""

    def used(self, game: Game) -> bool:
        return game.declares

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        return _rulebook(step, ruleset)

    def start(self, state: State, step: RoundStep) -> bool:
        """Ask the first player."""
        rules = step.declaring
        assert rules is not None
        if rules.bidding == "declarer":  # the winner of the bidding names the contract
            if state.declarer < 0:
                return False
            state.parts[DECLARE] = Declaring(rules, state.declarer)
            enter(state, self)
            state.current = state.declarer
            return True
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        bids = [NOT_SPOKEN] * state.num_players if rules.bidding == "precedence" else None
        if bids is not None:
            for seat in state.sitting_out:
                bids[seat] = PASSED
        state.parts[DECLARE] = Declaring(rules, first, bids=bids)
        enter(state, self)
        state.current = first
        return True

    def legal(self, state: State) -> list[int]:
        own: Declaring = state.parts[DECLARE]
        rules = own.rules
        offset = state.game.contract_offset
        if rules.bidding == "declarer":
            return self.named_by_declarer(state, own)
        if own.bids is None:
            return [state.game.choose_pass_action] + [offset + c for c in _open(state, own, first_turn=True, others_passed=False)]
        return self.bids_open(state, own)

    def named_by_declarer(self, state: State, own: Declaring) -> list[int]:
        """The contracts the declarer may name: those whose condition holds (all of them when
        none does: the declarer must name one)."""
        offset = state.game.contract_offset
        open_ = _open(state, own, first_turn=True, others_passed=True) or list(own.rules.contracts)
        return [offset + c for c in open_]

    def bids_open(self, state: State, own: Declaring) -> list[int]:
        """Bidding by precedence: a pass (unless everyone else passed), and each contract open
        now that beats the highest bid, or matches it with precedence over its holder."""
        rules, bids, current, n = own.rules, own.bids or [], state.current, state.num_players
        others_passed = _others_passed(bids, current)
        legal = [] if others_passed else [state.game.choose_pass_action]
        high, holder = own.highest(n)
        offset = state.game.contract_offset
        above = [index for value, index in enumerate(rules.contracts)
                 if value > high or (value == high and rules.has_precedence(current, holder, n))]
        legal += [offset + index for index in _open(state, own, bids[current] == NOT_SPOKEN, others_passed, above)]
        return legal

    def apply(self, state: State, action: int) -> None:
        own: Declaring = state.parts[DECLARE]
        player = state.current
        if own.bids is not None:
            self.bid(state, own, player, action)
            return
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


    def bid(self, state: State, own: Declaring, player: int, action: int) -> None:
        """Bidding by precedence: a pass is final; a bid made when everyone else has passed
        is the contract."""
        bids = own.bids or []
        others_passed = _others_passed(bids, player)
        if action == state.game.choose_pass_action:
            bids[player] = PASSED
            if state.events is not None:
                state.log("declare", player=player, contract=None)
        else:
            index = action - state.game.contract_offset
            bids[player] = own.rules.contracts.index(index)
            if state.events is not None:
                state.log("declare", player=player, contract=index)
            if others_passed:
                state.declarer = player
                play_by(state, index)
                state.next_step()
                return
        seat = turns.after(state, player)
        while bids[seat] == PASSED:
            seat = turns.after(state, seat)
        state.current = seat

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        """Bidding by precedence: each bid raises the highest or matches it once, and every
        seat passes once (beyond the one turn each that `Game.info` counts)."""
        rules = step.declaring
        if rules is None or rules.bidding != "precedence":
            return 0
        return 2 * len(rules.contracts) * game.num_players

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        own: Declaring | None = state.parts[DECLARE]
        if own is not None and own.bids is not None:
            names = state.game.contract_names
            view["contract_bids"] = [None if b < 0 else names[own.rules.contracts[b]] for b in own.bids]
            view["passed"] = [b == PASSED for b in own.bids]

    def segments(self, game: Game) -> list[SegmentSpec]:
        rules = next((step.declaring for step in game.steps if step.kind == "declare"), None)
        if rules is None or rules.bidding != "precedence":
            return []
        n, count = game.num_players, len(game.contract_names)
        return [
            ("contract_bids", (n, count), 0, 1, "by seat: 1 at its highest bid in the declare phase (bidding by precedence)", _contract_bids),
            ("passed_bidding", (n,), 0, 1, "1 at each seat that passed in the declare phase (bidding by precedence)", _passed),
        ]


WHEN_NAMES: list[Callable[[State], dict[str, int]]] = []
"""Names a `when` reads from the phases before it, each phase adding its own (the take phase's
`from_hand`); the names are listed in `trickrules.rules.contexts.DECLARE`."""


def _open(state: State, own: Declaring, first_turn: bool, others_passed: bool, contracts: list[int] | None = None) -> list[int]:
    """Of `contracts` (the phase's, by default), those whose condition (`when`) holds for the
    player to speak, in order."""
    chosen = list(own.rules.contracts) if contracts is None else contracts
    conditions = dict(own.rules.allow)
    if not conditions or not any(c in conditions for c in chosen):
        return chosen
    current = state.current
    env = dict(state.env(current))
    env.update(seat=current, first_turn=int(first_turn), others_passed=int(others_passed), bid=bids_by_seat(state)[current] or 0)
    for names in WHEN_NAMES:
        env.update(names(state))
    return [c for c in chosen if c not in conditions or conditions[c](env)]


def _others_passed(bids: list[int], player: int) -> bool:
    """Bidding by precedence: whether every seat but `player` has passed."""
    return all(b == PASSED for p, b in enumerate(bids) if p != player)


def _contract_bids(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own: Declaring | None = state.parts[DECLARE]
    if own is not None and own.bids is not None:
        count = len(state.game.contract_names)
        for seat, bid in enumerate(own.bids):
            if bid >= 0:
                out[at + seat * count + own.rules.contracts[bid]] = 1.0


def _passed(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own: Declaring | None = state.parts[DECLARE]
    if own is not None and own.bids is not None:
        for seat, bid in enumerate(own.bids):
            if bid == PASSED:
                out[at + seat] = 1.0


def _rulebook(step: RoundStep, ruleset: Ruleset) -> str:
    """The rulebook's paragraph on declaring: who speaks first, how the declarer is found, and
    what happens when every player passes."""
    rules = step.declaring
    assert rules is not None
    names = ", ".join(ruleset.contracts[i].name for i in rules.contracts)
    first = {"left_of_dealer": "the player on the dealer's left", "dealer": "the dealer"}.get(rules.first, f"seat {rules.first_seat}")
    if rules.bidding == "declarer":
        lines = [f"The declarer, who won the bidding, names one of the contracts ({names}); it may not pass. "
                 "When no contract's condition holds, every contract is open."]
    elif rules.bidding == "precedence":
        lines = [f"Starting with {first} and going round in seat order, players bid contracts, listed here from the lowest: "
                 f"{names}. A pass is final. A bid must be higher than the highest bid so far, or equal to it when the "
                 f"bidder comes first from seat {rules.precedence_seat} in seat order. The last player left may not pass: "
                 "when every other player has passed, its bid is the contract and it is the declarer."]
    else:
        lines = [f"Starting with {first} and going round in seat order, each player passes or declares one of the "
                 f"contracts ({names}). The first player to declare is the declarer, and the others are not asked.",
                 "When every player passes, " + ("the round is not played and scores as a round nobody declared." if rules.otherwise < 0
                                                else f"the round is played as {ruleset.contracts[rules.otherwise].name}, with no declarer.")]
    lines += [f"{ruleset.contracts[i].name} may be declared only while `{condition.text}` holds." for i, condition in rules.allow]
    lines.append("The contract declared applies to the rest of the round (see Contracts).")
    return "## Declaring\n\n" + " ".join(lines)


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
