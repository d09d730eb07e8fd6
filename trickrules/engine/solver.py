"""A perfect-information solver for any spec: the best play to the end of the round when every
hand is known (a "double-dummy" result, in bridge's words).

    >>> import trickrules
    >>> from trickrules.engine.solver import solve
    >>> state = trickrules.load_game("euchre").new_initial_state(seed=3)
    >>> solution = solve(state)                               # doctest: +SKIP

`solve` searches every decision of the round from the state (cards, and any bid, trump choice
or discard still to come) by alpha-beta, with a transposition table at the start of each trick
and the best move of an earlier search tried first, and returns a `Solution`: the value of the
position with best play by everyone, each legal action's value, the best action, and the
principal line with each player's points of the round at its end.

**What it maximises.** The value is the *margin* of a player (by default the one to move) at
the end of the round: its round points (its side's, where partners pool them) less the mean of
its opponents' points, with the signs turned where the fewest points win. This is the margin
`trickrules.engine.ismcts` rewards. The player's side (its partners this round) maximises it
and everyone else minimises it. With two sides (bridge, euchre, skat's declarer against the
defenders) that is the game's own contest; with more sides (hearts, oh hell) it is the
*paranoid* assumption: the other players are taken to play together against the player, so the
value is what the player can guarantee whatever they do, not what they would do each for
themselves.

With `depth`, the search looks `depth` tricks ahead and values the position there by the
round scored as it stands (`round_end.score_now`, not final: a measure of held cards reads 0):
a bounded search, for positions too large to solve to the end (`trickrules.engine.pimc`).

A transposition (the same position reached by cards played in another order) is recognised at
the start of a trick by what the rest of the round can depend on: the phase, who is to play,
hands, won cards and tricks as sets, tokens, counters, trumps, contract, sides and each phase's
part. The value of a position does not depend on the order of the tricks before it: scoring
reads what was won, not when (the last trick's bonus is paid as it is won, in `bonus`).
``tests/test_solver.py`` checks the search against plain enumeration of every line, on random
end positions of every shipped spec.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.engine.phases.play import PLAY
from trickrules.engine.round_end import margins_of, opponents_of, points_since, side_of

if TYPE_CHECKING:
    from trickrules.engine.state import State

__all__ = ["Solution", "Solver", "solve"]

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True)
class Solution:
    """The result of solving a position for `player` (see the module's notes on the value)."""

    player: int
    """The player whose margin is the value; its `side` maximises it."""
    side: tuple[int, ...]
    """The seats that play to maximise the value (the player and its partners this round)."""
    value: float
    """The player's margin at the end of the round with best play by everyone."""
    values: dict[int, float]
    """Each legal action's value: the margin if it is played and best play follows."""
    best: int | None
    """The legal action of highest value for the player to move (the first of equals in
    legal order); None when the round is over at the position."""
    line: tuple[int, ...]
    """The principal line: the actions of best play from the position to the round's end
    (or to the depth searched)."""
    points: tuple[float, ...]
    """Each player's points of the round at the end of `line` (partners' pooled, as scored)."""
    nodes: int
    """The positions searched."""
    depth: int | None = None
    """The tricks looked ahead, or None: to the end of the round."""
    info: dict[str, Any] = field(default_factory=dict, compare=False)
    """Figures of the search: transposition-table entries and hits."""


class Solver:
    """Solves positions of one game, keeping what it learnt between calls (the transposition
    table) while the player and depth stay the same. Use `solve` for a single position."""

    def __init__(self, transpositions: bool = True) -> None:
        self.transpositions = transpositions
        self._table: dict[tuple[Any, ...], tuple[int, float, int | None]] = {}
        self._for: tuple[int, int | None, int, int] | None = None
        self.nodes = 0
        self.hits = 0

    def solve(self, state: State, player: int | None = None, depth: int | None = None) -> Solution:
        """Solve `state` for `player` (the player to move by default) to the end of the round,
        or `depth` tricks ahead. The state is not changed."""
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
            raise ValueError(f"a solver's depth is a number of tricks, 1 or more, not {depth!r}")
        over = _round_over(state, state.round)
        if player is None:
            player = state.current_player() if not over else 0
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.num_players:
            raise ValueError(f"player {player!r} is not a seat of this game (0 to {state.num_players - 1})")
        stop = None if depth is None else state.tricks_played + depth
        scope = (player, stop, state.round, id(state.game))
        if scope != self._for:  # values are margins for one player, to one depth, in one round
            self._table, self._for = {}, scope
        self._player, self._round, self._stop = player, state.round, stop
        self._base = list(state.totals)  # totals stay as they are until the round's end
        self._opponents = opponents_of(state)
        self._game = state.game
        self._side = frozenset(side_of(state.round_teams, player))
        self._taking = state.game.ruleset.scoring.winner == "most_points"
        start_nodes, start_hits = self.nodes, self.hits
        values: dict[int, float] = {}
        if over or (stop is not None and self._cut(state)):
            value = self._leaf(state)
        else:
            maximising = state.current_player() in self._side
            for action in state.legal_view():
                child = state.clone()
                child.apply_legal(action)
                values[action] = self._search(child, -math.inf, math.inf)
            pick = max if maximising else min
            value = pick(values.values())
        best = next((a for a, v in values.items() if v == value), None)
        line, end = self._line(state, best, value)
        return Solution(
            player, tuple(sorted(self._side)), value, values, best, tuple(line),
            tuple(float(p) for p in self._points(end)), self.nodes - start_nodes, depth,
            {"entries": len(self._table), "hits": self.hits - start_hits},
        )

    # ------------------------------------------------------------ the search

    def _search(self, state: State, alpha: float, beta: float) -> float:
        self.nodes += 1
        if _round_over(state, self._round) or (self._stop is not None and self._cut(state)):
            return self._leaf(state)
        key = None
        hint: int | None = None
        if self.transpositions and not state.trick:
            key = position_key(state)
            entry = self._table.get(key)
            if entry is not None:
                bound, stored, hint = entry
                if bound == _EXACT:
                    self.hits += 1
                    return stored
                if bound == _LOWER and stored >= beta or bound == _UPPER and stored <= alpha:
                    self.hits += 1
                    return stored
        legal = state.legal_view()
        if len(legal) == 1:
            state.apply_legal(legal[0])
            return self._search(state, alpha, beta)
        moves = self._ordered(state, legal)
        if hint is not None and hint in legal:
            moves = [hint, *(a for a in moves if a != hint)]
        maximising = state.current_player() in self._side
        low, high = alpha, beta
        best_value = -math.inf if maximising else math.inf
        best_move: int | None = None
        last = len(moves) - 1
        for index, action in enumerate(moves):
            child = state.clone() if index < last else state  # the last move takes the state itself
            child.apply_legal(action)
            value = self._search(child, low, high)
            if maximising:
                if value > best_value:
                    best_value, best_move = value, action
                low = max(low, value)
            else:
                if value < best_value:
                    best_value, best_move = value, action
                high = min(high, value)
            if low >= high:
                break
        if key is not None:
            bound = _UPPER if best_value <= alpha else _LOWER if best_value >= beta else _EXACT
            self._table[key] = (bound, best_value, best_move)
        return best_value

    def _ordered(self, state: State, legal: list[int]) -> list[int]:
        """The moves in the order tried. In play, where the most points win: a follower whose
        side (the player's side, or the rest of the table) wins the trick so far plays low
        first, any other follower its cheapest winning cards, a leader its strongest cards;
        where the fewest points win, the other way round (duck high, lead low). The order
        changes only how soon the search cuts, not its values."""
        if state._kind.phase != PLAY:
            return legal
        tables = state.tables
        faces, cards = tables.faces, state.game.num_cards
        trumps, ranks = faces.is_trump, faces.rank

        def strength(card: int) -> tuple[bool, int]:
            return (trumps[card], ranks[card]) if card < cards else (False, 0)

        trick, taking = state.trick, self._taking
        if not trick:
            return sorted(legal, key=strength, reverse=taking)
        number = state.tricks_played + 1
        last, led, size = number == state.hand_size, state.led, len(trick)
        winner = state.trick_players[tables.trick_winner(trick, led, number, last)]
        if (winner in self._side) == (state.current in self._side):  # its own side wins so far
            return sorted(legal, key=strength, reverse=not taking)
        winning = [c for c in legal if tables.trick_winner([*trick, c], led, number, last) == size]
        losing = [c for c in legal if c not in winning]
        if taking:
            return sorted(winning, key=strength) + sorted(losing, key=strength)
        return sorted(losing, key=strength, reverse=True) + sorted(winning, key=strength, reverse=True)

    def _cut(self, state: State) -> bool:
        """Whether a bounded search stops here: the tricks looked ahead are played."""
        return self._stop is not None and not state.trick and state.tricks_played >= self._stop

    def _points(self, state: State) -> list[float]:
        """Each player's points of the round at `state` (at its end, or as it stands)."""
        return points_since(state, self._base, self._round)

    def _leaf(self, state: State) -> float:
        return margins_of(self._game, self._points(state), self._opponents)[self._player]

    def _line(self, state: State, first: int | None, value: float) -> tuple[list[int], State]:
        """The principal line from `state` (best play, ties to the first legal), and its end.

        Along the line the value stays `value`: at each decision the move is the first legal
        one whose search, in a narrow window around it, comes back with it."""
        line: list[int] = []
        if first is None:
            return line, state
        state = state.clone()
        low, high = value - 1e-9 * max(1.0, abs(value)), value + 1e-9 * max(1.0, abs(value))
        action: int | None = first
        while action is not None:
            state.apply_legal(action)
            line.append(action)
            if _round_over(state, self._round) or self._cut(state):
                break
            legal = state.legal_view()
            action = legal[0]
            if len(legal) == 1:
                continue
            for candidate in legal:
                child = state.clone()
                child.apply_legal(candidate)
                if low < self._search(child, low, high) < high:
                    action = candidate
                    break
        return line, state


def solve(state: State, player: int | None = None, depth: int | None = None, transpositions: bool = True) -> Solution:
    """Solve `state` with every hand known: see `Solver.solve` and the module's notes."""
    return Solver(transpositions).solve(state, player, depth)


def position_key(state: State) -> tuple[Any, ...]:
    """What the rest of the round can depend on, at the start of a trick (see the module)."""
    s = state
    return (
        s._kind, s._step, s.current, s.leader, s.hand_size, s.tricks_played, s.trick_size,
        tuple(tuple(sorted(hand)) for hand in s.hands),
        tuple(tuple(sorted(pile)) for pile in s.piles),
        tuple(s.tricks_won), tuple(s.bonus), tuple(map(tuple, s.pool)), tuple(map(tuple, s.section_tokens)),
        repr(s.stacks), repr(s.section_suits), repr(s.counters), repr(s.parts),
        s.trumps, id(s.play_game), s.declarer, tuple(s.sitting_out), repr(s.round_teams),
        tuple(s.set_aside), tuple(s.stock), s.next_seat, s.deciders,
    )


def _round_over(state: State, round_number: int) -> bool:
    return state._kind is TERMINAL_KIND or state.round != round_number
