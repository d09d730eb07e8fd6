"""The perfect-information solver: its values equal plain enumeration of every line, on end
positions of every shipped spec; its best action, line and points agree with its value."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases import Phase
from trickrules.engine.solver import Solver, solve
from trickrules.engine.state import State
from trickrules.spec.shipped import shipped_specs

SPECS = [s.name for s in shipped_specs()]


@cache
def _game(name: str) -> Game:
    return trickrules.load_game(name)


def end_position(name: str, seed: int, tricks_left: int, into_trick: int = 0) -> State | None:
    """A random game of `name` played at random until `tricks_left` tricks remain in a round
    (and `into_trick` cards of the next trick are down); None if no round gets there. Before
    play, three decisions in four take the first legal action (a pass, where there is one):
    random bids mostly reach the highest contract, which often ends the play early."""
    game = _game(name)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        left = state.hand_size - state.tricks_played
        if state.phase == Phase.PLAY and left <= tricks_left and (len(state.trick) >= into_trick or left < tricks_left):
            if left == tricks_left:
                return state
            round_number = state.round  # too late in this round: try the next one
            while not state.is_terminal() and state.round == round_number:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            continue
        legal = state.legal_actions()
        first = state.phase != Phase.PLAY and rng.random() < 0.75
        state.apply_action(legal[0] if first else legal[int(rng.random() * len(legal))])
    return None


def margin(game: Game, gains: list[float], player: int, side: tuple[int, ...]) -> float:
    """The player's margin, written out: its round points less the mean of its opponents'
    (signs turned where the fewest points win)."""
    if game.ruleset.scoring.winner != "most_points":
        gains = [-g for g in gains]
    rivals = [q for q in range(len(gains)) if q not in side]
    return gains[player] - (sum(gains[q] for q in rivals) / len(rivals) if rivals else 0.0)


def enumerated(state: State, player: int, side: tuple[int, ...], base: list[int], round_number: int) -> float:
    """The value of `state` by trying every line to the round's end: no cuts, no table."""
    if state.is_terminal() or state.round != round_number:
        return margin(state.game, [a - b for a, b in zip(state.totals, base)], player, side)
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(enumerated(child, player, side, base, round_number))
    return max(values) if state.current_player() in side else min(values)


def check_against_enumeration(state: State) -> None:
    player = state.current_player()
    solution = solve(state)
    base = list(state.totals)
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values[action] = enumerated(child, player, solution.side, base, state.round)
    assert solution.values == pytest.approx(values)
    assert solution.value == pytest.approx(max(values.values()) if player in solution.side else min(values.values()))
    assert solution.best is not None and solution.values[solution.best] == solution.value
    end = state.clone()
    for action in solution.line:
        end.apply_action(action)
    assert end.is_terminal() or end.round == state.round + 1  # the line plays the round out
    assert list(solution.points) == [a - b for a, b in zip(end.totals, base)]
    assert margin(state.game, list(solution.points), player, solution.side) == pytest.approx(solution.value)


LEFT = {"kingdoms": 2}
"""Tricks left in the positions enumerated: fewer where every trick adds placement decisions."""


@pytest.mark.parametrize("name", SPECS)
def test_solver_values_equal_enumeration_with_three_tricks_left(name: str) -> None:
    found = 0
    for seed in range(40):
        state = end_position(name, seed, LEFT.get(name, 3))
        if state is not None:
            check_against_enumeration(state)
            found += 1
        if found == 2:
            break
    assert found == 2, f"{name}: no round reached its last three tricks in 40 random games"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SPECS), st.integers(0, 10_000), st.integers(1, 3), st.integers(0, 3))
def test_solver_values_equal_enumeration_in_random_end_positions(name: str, seed: int, left: int, into: int) -> None:
    left = min(left, LEFT.get(name, 3))
    state = end_position(name, seed, left, into_trick=min(into, _game(name).num_players - 1))
    if state is not None:
        check_against_enumeration(state)


@pytest.mark.parametrize("name", ["euchre", "hearts", "tarok"])
def test_solving_without_transpositions_gives_the_same_values(name: str) -> None:
    state = next(s for seed in range(40) if (s := end_position(name, seed, 4)) is not None)
    with_table, without = solve(state), solve(state, transpositions=False)
    assert with_table.values == without.values
    assert with_table.nodes <= without.nodes


def test_a_bounded_search_as_deep_as_the_round_is_the_full_search() -> None:
    state = next(s for seed in range(40) if (s := end_position("spades", seed, 3)) is not None)
    assert solve(state, depth=3).values == solve(state).values
    shallow = solve(state, depth=1)
    assert shallow.depth == 1 and len(shallow.line) == state.num_players - len(state.trick)


def test_the_value_is_the_margin_of_the_player_asked_for() -> None:
    state = next(s for seed in range(40) if (s := end_position("hearts", seed, 3)) is not None)
    mover = state.current_player()
    other = (mover + 1) % state.num_players
    assert solve(state, player=other).player == other
    assert solve(state, player=other).side == (other,)
    assert solve(state).side == (mover,)


def test_a_solver_reused_keeps_its_table_and_its_answers() -> None:
    state = next(s for seed in range(40) if (s := end_position("euchre", seed, 4)) is not None)
    solver = Solver()
    first = solver.solve(state)
    again = solver.solve(state)
    assert again.values == first.values and again.nodes < first.nodes


def test_solving_leaves_the_state_as_it_was() -> None:
    state = next(s for seed in range(40) if (s := end_position("bridge", seed, 3)) is not None)
    before = (state.history[:], [h[:] for h in state.hands], state.current_player())
    solve(state)
    assert (state.history, state.hands, state.current_player()) == before


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_a_depth_that_is_not_a_number_of_tricks_is_refused(bad: object) -> None:
    state = _game("euchre").new_initial_state(1)
    with pytest.raises(ValueError, match="depth"):
        solve(state, depth=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [4, -1, 1.0, True])
def test_a_player_that_is_not_a_seat_is_refused(bad: object) -> None:
    state = _game("euchre").new_initial_state(1)
    with pytest.raises(ValueError, match="seat"):
        solve(state, player=bad)  # type: ignore[arg-type]
