"""Loader fuzzing: whatever text comes in, only `SpecError` may come out, with usable problems.

Three sources of input: random text, random YAML documents, and the shipped specs mutated
(a key deleted or renamed, a value of another type, two values swapped, the text cut short).
Each goes through `load_spec_text` and, if that accepts it, `compile_ruleset`; a ruleset that
compiles must also start a game and play it to the end.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st

from strategies import scaled, shipped_spec_paths
from trickrules.spec.checks import load_spec, load_spec_text
from trickrules.spec.compiler import compile_ruleset
from trickrules.errors import CODES, Problem, SpecError
from trickrules.engine.game import Game

SHIPPED = shipped_spec_paths()


def _standalone_text(path: Path) -> str:
    """The spec's text; for an overlay (extends), the merged spec as YAML, so no parent is needed."""
    text = path.read_text("utf-8")
    if "extends" not in yaml.safe_load(text):
        return text
    return yaml.safe_dump(load_spec(path).data, sort_keys=False)


TEXTS = {path: _standalone_text(path) for path in SHIPPED}
MAX_ACTIONS = 3000
"""A mutated spec may make a huge deck; longer games are not played (loading is the point)."""


def check_problem(problem: Problem) -> None:
    assert problem.line >= 1 and problem.column >= 1, str(problem)
    assert problem.code in CODES, str(problem)
    assert problem.path.startswith("$"), str(problem)


def load_or_spec_error(text: str, file: str = "fuzz.yaml", players: int | None = None) -> Game | None:
    """Load and compile `text`; None (with every problem checked) if it is rejected."""
    try:
        source = load_spec_text(text, file)
        allowed = source.data["players"]
        ruleset = compile_ruleset(source, players if players in allowed else None)
    except SpecError as error:
        assert error.problems
        for problem in error.problems:
            check_problem(problem)
        return None
    return Game(ruleset)


def play_through(game: Game) -> None:
    """A compiled ruleset starts a game that ends (first legal action each time)."""
    if game.info().max_game_length > MAX_ACTIONS:
        return
    state = game.new_initial_state(seed=0)
    for _ in range(game.info().max_game_length):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal(), "the game did not end within max_game_length actions"


# ---------------------------------------------------------------- random text and YAML


# Any text, control characters included (YAML refuses them: the loader reports TR105).
PRINTABLE = st.characters(blacklist_categories=("Cs",))


@settings(max_examples=scaled(150))
@given(st.text(PRINTABLE, max_size=300))
def test_random_text(text: str) -> None:
    load_or_spec_error(text)


@pytest.mark.parametrize("text", ["\x1f", "id: demo\x01\n", "id: demo\ntitle: a\x7f\n"])
def test_control_character(text: str) -> None:
    load_or_spec_error(text)


YAML_SCALARS = st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=False) | st.text(max_size=12)
KEYS = st.sampled_from(
    ["id", "title", "players", "deck", "suits", "generate", "ranks", "deal", "hand_size", "ranking",
     "scoring", "round", "add", "tokens", "tableau", "sections", "rewards", "options", "trumps", "option"]
) | st.text(max_size=8)
YAML_VALUES = st.recursive(
    YAML_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=scaled(150))
@given(st.dictionaries(KEYS, YAML_VALUES, max_size=8) | YAML_VALUES)
def test_random_yaml(document: Any) -> None:
    load_or_spec_error(yaml.safe_dump(document))


# ---------------------------------------------------------------- mutated shipped specs


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a document (the root excluded)."""
    found = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items:
        found.append(path + (key,))
        found += _paths(value, path + (key,))
    return found


def _parent(document: Any, path: tuple) -> Any:
    for key in path[:-1]:
        document = document[key]
    return document


OTHER_TYPES = st.sampled_from([None, True, 0, -1, 2.5, "", "none", "x", [], {}, [1, "a"], {"option": "rounds"}])


@st.composite
def mutated_spec(draw: st.DrawFn) -> tuple[Path, str]:
    """A shipped spec with one to three mutations, as YAML text (or its text cut short)."""
    path = draw(st.sampled_from(SHIPPED))
    if draw(st.integers(0, 4)) == 0:
        text = TEXTS[path]
        return path, text[: draw(st.integers(0, len(text)))]
    document = copy.deepcopy(yaml.safe_load(TEXTS[path]))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        if not paths:
            break
        target = draw(st.sampled_from(paths))
        parent, key = _parent(document, target), target[-1]
        operation = draw(st.sampled_from(["delete", "retype", "rename", "swap"]))
        if operation == "delete":
            del parent[key]
        elif operation == "retype":
            parent[key] = copy.deepcopy(draw(OTHER_TYPES))  # later mutations must not edit the constant
        elif operation == "rename" and isinstance(parent, dict):
            new = draw(st.sampled_from([f"{key}x", str(key)[:-1], "trumpz", "rank", "option", "players"]))
            parent[new] = parent.pop(key)
        elif operation == "swap":
            other = draw(st.sampled_from(paths))
            other_parent, other_key = _parent(document, other), other[-1]
            if other[: len(target)] != target and target[: len(other)] != other:
                parent[key], other_parent[other_key] = other_parent[other_key], parent[key]
    return path, yaml.safe_dump(document, sort_keys=False)


@settings(max_examples=scaled(250))
@given(mutated_spec(), st.integers(2, 5))
def test_mutated_shipped_specs(mutated: tuple[Path, str], players: int) -> None:
    path, text = mutated
    note(text)
    game = load_or_spec_error(text, str(path), players)
    if game is not None:
        play_through(game)


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_unmutated_shipped_specs_load(path: Path) -> None:
    game = load_or_spec_error(TEXTS[path], str(path))
    assert game is not None
    play_through(game)


def test_the_fuzz_checks_can_fail() -> None:
    with pytest.raises(AssertionError):
        check_problem(Problem("TR999", "made up", "x.yaml", 1, 1, "$"))
    with pytest.raises(AssertionError):
        check_problem(Problem("TR201", "made up", "x.yaml", 0, 1, "$"))
