"""A state that never corrupts: refused actions change nothing, copies are independent.

- Actions of every type at random points of random games of every shipped spec: a refused one
  leaves the state equal to before, byte for byte in its record; numpy integers are accepted.
- Games and states pickle, copy and deep-copy to independent states.
- Out-of-range players and actions, and `winners()` before the end, raise clear errors.
- `IllegalActionError` says in two lines what was refused and why.

(The command line's refusals, and states sent through a process pool, are in test_robustness.py.)
"""

from __future__ import annotations

import copy
import enum
import math
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import finish, played
from strategies import scaled

import trickrules
from trickrules import IllegalActionError, State
from trickrules.errors import GameNotOverError, OutOfRangeError
from trickrules.spec.shipped import shipped_specs
from trickrules.tools.record import build_record, dumps

try:  # numpy is no dependency: its scalars are tested when it is installed (it is, with open-spiel)
    import numpy
except ImportError:  # pragma: no cover - the int subclass and __index__ objects below stand in
    numpy = None

SHIPPED = [spec.name for spec in shipped_specs()]


class Seat(enum.IntEnum):
    """An int subclass, as an agent library might return."""

    ZERO = 0


class Indexable:
    """Not an int, but stands for one through __index__ (as numpy integers do)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Indexable({self.value})"


class BadIndex:
    """An object whose __index__ fails with an unusual error: refused all the same."""

    def __index__(self) -> int:
        raise RuntimeError("no index today")


def _game(name: str) -> trickrules.Game:
    return trickrules.load_game(name)


GAMES = {name: _game(name) for name in SHIPPED}


def fingerprint(state: State) -> tuple[Any, ...]:
    """Everything a refused action must leave as it was: the record's bytes, the full text."""
    return (dumps(build_record(state)), str(state), list(state.history), state.legal_actions(), state.returns())


def foreign_actions(legal: list[int], size: int) -> st.SearchStrategy[Any]:
    """Actions of every type: legal and illegal ints, out of range, floats, bools, text, None, numpy."""
    illegal = [a for a in range(size) if a not in legal] or [size]
    choices: list[st.SearchStrategy[Any]] = [
        st.sampled_from(legal),
        st.sampled_from(illegal),
        st.integers(min_value=-(10**30), max_value=-1),
        st.integers(min_value=size, max_value=10**30),
        st.sampled_from(legal).map(float),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.sampled_from(legal).map(str),
        st.text(max_size=8),
        st.none(),
        st.sampled_from(legal).map(Indexable),
        st.sampled_from(illegal).map(Indexable),
        st.just(BadIndex()),
        st.just(Seat.ZERO),
        st.sampled_from([[legal[0]], (legal[0],), {legal[0]}, b"1", 1j]),
    ]
    if numpy is not None:
        np = numpy
        choices += [
            st.sampled_from(legal).map(np.int64),
            st.sampled_from(legal).map(np.int16),
            st.sampled_from(illegal).map(np.int32),
            st.sampled_from(legal).map(np.float64),
            st.sampled_from(legal).map(np.float32),
            st.sampled_from([np.True_, np.False_]),
            st.sampled_from(legal).map(lambda a: np.array(a)),
            st.sampled_from(legal).map(lambda a: np.array([a])),
        ]
    return st.one_of(choices)


def accepted(action: Any, legal: list[int]) -> bool:
    """Whether `action` must be taken: an integer (not a bool) whose value is legal."""
    if isinstance(action, bool) or (numpy is not None and isinstance(action, numpy.bool_)):
        return False
    try:
        value = action.__index__()
    except Exception:
        return False
    return value in legal


@settings(max_examples=scaled(60))
@given(name=st.sampled_from(SHIPPED), seed=st.integers(0, 10**6), points=st.lists(st.integers(0, 900), min_size=1, max_size=6), data=st.data())
def test_actions_of_every_type_are_taken_or_refused_without_a_trace(name: str, seed: int, points: list[int], data: st.DataObject) -> None:
    game = GAMES[name]
    size = game.num_distinct_actions()
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    step = 0
    for point in sorted(set(points)):
        while step < point and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
        legal = state.legal_actions()
        action = data.draw(foreign_actions(legal, size) if legal else st.one_of(st.integers(-3, size + 3), st.floats(), st.none()))
        before = fingerprint(state)
        if accepted(action, legal):
            state.apply_action(action)
            step += 1
            assert type(state.history[-1]) is int and state.history[-1] == action.__index__()
            continue
        with pytest.raises(IllegalActionError) as refused:
            state.apply_action(action)
        assert fingerprint(state) == before, f"refusing {action!r} changed the state"
        assert len(str(refused.value).splitlines()) <= 2
    while not state.is_terminal():  # and the game still plays to its end
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.winners()


def test_numpy_integers_are_accepted_and_numpy_floats_refused() -> None:
    assert numpy is not None, "numpy comes with open-spiel, a test dependency"
    state = GAMES["kingdoms"].new_initial_state(3)
    legal = state.legal_actions()
    for bad in (numpy.float64(legal[0]), numpy.float32(legal[0]), numpy.True_, float(legal[0])):
        with pytest.raises(IllegalActionError, match="not an action"):
            state.apply_action(bad)
    state.apply_action(numpy.int64(legal[0]))
    assert state.history == [legal[0]] and type(state.history[0]) is int


# ---------------------------------------------------------------- pickles and copies


def _played(name: str, seed: int, steps: int) -> State:
    return played(GAMES[name], seed, steps)


def _finish(state: State, seed: int) -> str:
    return finish(state, seed)


@pytest.mark.parametrize("name", SHIPPED)
def test_games_and_states_pickle_to_equal_behaviour(name: str) -> None:
    game = pickle.loads(pickle.dumps(GAMES[name]))
    assert game.ruleset == GAMES[name].ruleset
    assert dumps(build_record(game.new_initial_state(5, record=True))) == dumps(build_record(GAMES[name].new_initial_state(5, record=True)))
    for steps in (0, 1, 17, 60, 10_000):
        state = _played(name, 11, steps)
        twin = pickle.loads(pickle.dumps(state))
        assert fingerprint(twin) == fingerprint(state)
        assert _finish(twin, steps) == _finish(state, steps)


@pytest.mark.parametrize("name", SHIPPED)
def test_copy_and_deepcopy_give_independent_states(name: str) -> None:
    state = _played(name, 4, 23)
    before = fingerprint(state)
    for twin in (copy.copy(state), copy.deepcopy(state), state.clone()):
        _finish(twin, 9)
        assert fingerprint(state) == before, "acting on a copy changed the original"
    assert _finish(copy.copy(state), 9) == _finish(copy.deepcopy(state), 9) == _finish(state, 9)


# ---------------------------------------------------------------- ranges and results


@pytest.mark.parametrize("player", [4, -1, 99, "0", None, 1.0, True])
def test_observation_of_a_player_the_game_does_not_seat_is_refused(player: Any) -> None:
    state = GAMES["hearts"].new_initial_state(1)
    with pytest.raises(OutOfRangeError, match=r"no player .* \(players are 0 to 3\)"):
        state.observation(player)
    assert state.observation(3)["player"] == 3


@pytest.mark.parametrize("action", [-1, -100, 10**9, 2.5, None, "play red-5", False])
def test_text_of_an_action_the_game_does_not_have_is_refused(action: Any) -> None:
    game = GAMES["kingdoms"]
    state = game.new_initial_state(1)
    with pytest.raises(OutOfRangeError, match="no action"):
        state.action_to_string(action)
    if isinstance(action, int) and not isinstance(action, bool):
        with pytest.raises(OutOfRangeError):
            game.action_to_string(action)
    assert state.action_to_string(numpy.int64(0) if numpy is not None else Indexable(0)).startswith("play ")


def test_winners_before_the_end_say_the_game_is_not_over() -> None:
    state = _played("kingdoms", 2, 10)
    with pytest.raises(GameNotOverError, match="not over.*returns"):
        state.winners()
    assert build_record(state)["winners"] == []
    _finish(state, 1)
    assert state.winners()


def test_an_illegal_action_error_says_what_and_why_in_two_lines_and_keeps_the_state() -> None:
    state = _played("hearts", 6, 9)
    other = next(c for p, hand in enumerate(state.hands) if p != state.current_player() for c in hand)
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(other)
    lines = str(caught.value).splitlines()
    assert len(lines) == 2, lines
    assert f"illegal action {other}" in lines[0] and "not allowed now" in lines[0] and "player" in lines[0]
    assert "legal action" in lines[1] and state.action_to_string(state.legal_actions()[0]) in lines[1]
    assert caught.value.state_text == str(state)
    assert caught.value.legal_actions == tuple(state.legal_actions())
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value) and again.state_text == caught.value.state_text
    done = _played("meadows", 1, 10_000)
    with pytest.raises(IllegalActionError, match="the game is over"):
        done.apply_action(0)


def test_nan_and_infinity_are_refused_too() -> None:
    state = GAMES["spades"].new_initial_state(2)
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)  # type: ignore[arg-type]
    assert state.history == []
