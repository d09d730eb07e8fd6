"""`State.clone` copies each field by its shape (trickrules.engine.cloning): the copy equals
the one made field by field by name, shares no list or mapping with the original, and plays
on exactly as the original does."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import SPECS

import trickrules
from trickrules.engine import cloning
from trickrules.engine.state import _FIELDS, State

NAMES = sorted(p.stem for p in SPECS.glob("*.yaml") if not p.stem.endswith(".examples"))


def _mid_game(name: str, seed: int, record: bool = False) -> State:
    game = trickrules.load_game(SPECS / f"{name}.yaml")
    state = game.new_initial_state(seed, record=record)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 80)):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal))
    state.round_results  # fills the finished rounds' mappings
    state.legal_actions()  # keeps the legal actions
    return state


def _mutable_parts(value: Any, found: list[int]) -> list[int]:
    if isinstance(value, (list, dict)):
        found.append(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _mutable_parts(item, found)
    elif isinstance(value, tuple):
        for item in value:
            _mutable_parts(item, found)
    return found


def _by_name(state: State) -> State:
    empty = State(state.game, state.seed, False, _empty=True)
    cloning.fill_by_name(state, empty, _FIELDS)
    return empty


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_clone_equals_the_copy_by_name_and_shares_nothing_changed_in_place(name: str, seed: int) -> None:
    state = _mid_game(name, seed, record=seed == 3)
    clone, reference = state.clone(), _by_name(state)
    for field in _FIELDS:
        assert getattr(clone, field) == getattr(reference, field), field
    # every list and mapping the original changes in place is the clone's own
    changed_in_place = set()
    for field in _FIELDS:
        if field in ("events", "_round_dicts") and getattr(state, field) is not None:  # they grow; an entry never changes
            changed_in_place.add(id(getattr(state, field)))
        elif field not in ("_round_scores", "tricks", "token_queue"):  # tuples in them are never changed
            changed_in_place.update(_mutable_parts(getattr(state, field), []))
    for field in _FIELDS:
        shared = changed_in_place & set(_mutable_parts(getattr(clone, field), []))
        assert not shared, field


@pytest.mark.parametrize("name", NAMES)
def test_a_clone_plays_on_as_the_original(name: str) -> None:
    state = _mid_game(name, 5)
    clone = state.clone()
    rng = random.Random(9)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        clone.apply_action(action)
    assert clone.is_terminal() and clone.returns() == state.returns() and clone.history == state.history


@pytest.mark.parametrize("name", NAMES)
def test_a_clone_at_any_decision_equals_the_original_field_by_field_and_stays_apart(name: str) -> None:
    """At each of the first 150 decisions of a game: every field of a clone equals the
    original's (each phase's own part too); the original's next action leaves the clone as it
    was; and the clone, given that action, asks what the original asks."""
    game = trickrules.load_game(SPECS / f"{name}.yaml")
    state = game.new_initial_state(11)
    rng = random.Random(11)
    for _ in range(150):
        if state.is_terminal():
            break
        clone, witness = state.clone(), state.clone()
        for field in _FIELDS:
            assert getattr(clone, field) == getattr(state, field), field
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        for field in _FIELDS:
            assert getattr(clone, field) == getattr(witness, field), f"{field} changed with the original"
        clone.apply_action(action)
        assert (clone.current_player(), clone.legal_actions()) == (state.current_player(), state.legal_actions())


def test_a_state_missing_a_field_is_copied_by_name() -> None:
    state = _mid_game("hearts", 4)
    partial = State(state.game, state.seed, False, _empty=True)
    for field in _FIELDS:
        if field not in ("game", "seed", "turned_up"):
            setattr(partial, field, getattr(state, field))
    clone = partial.clone()
    assert not hasattr(clone, "turned_up")
    assert clone.hands == state.hands and clone.hands is not state.hands


@pytest.mark.parametrize("name", NAMES)
def test_a_logged_event_never_changes_as_play_goes_on(name: str) -> None:
    """Clones share the logged events (copying the whole log made each copy cost as much as the
    game so far), which holds only because no event changes once logged."""
    game = trickrules.load_game(SPECS / f"{name}.yaml")
    state = game.new_initial_state(7, record=True)
    rng = random.Random(7)
    as_logged: list[Any] = []  # each event copied the moment it was logged
    for _ in range(300):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.events is not None
        as_logged.extend(cloning.deep(event) for event in state.events[len(as_logged):])
    assert as_logged and state.events == as_logged
