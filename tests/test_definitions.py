"""Named sub-expressions (`define`): a defined name reads as its expression written out in
brackets, in every place an expression stands, checked with the names of the place it is used;
a definition that reads itself, or takes a name expressions already read, is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from strategies import as_yaml, scaled
from trickrules.errors import SpecError
from trickrules.spec import definitions

BASE: dict[str, Any] = {
    "language": 2, "id": "defined", "title": "Defined", "players": [4],
    "deck": {"suits": ["red", "blue"], "generate": [{"suits": "all", "ranks": {"from": 1, "to": 6}}]},
    "deal": {"hand_size": 3},
    "ranking": [{"prefer": "led"}, {"highest": "rank"}],
    "scoring": {"measures": {"reds": {"count": {"suit": "red"}}}, "round": [{"name": "x", "add": "0"}]},
}

LEAVES = st.sampled_from(["tricks", "cards", "reds", "hand_size", "players", "1", "2", "3", "7"])
OPERATORS = st.sampled_from(["+", "-", "*"])


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> Any:
    """An arithmetic expression tree: a leaf, or (operator, left, right), or a conditional."""
    if depth >= 4 or draw(st.integers(0, 3)) == 0:
        return draw(LEAVES)
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return ("if", draw(trees(depth + 1)), draw(trees(depth + 1)), draw(trees(depth + 1)))
    return (draw(OPERATORS), draw(trees(depth + 1)), draw(trees(depth + 1)))


def written_out(tree: Any) -> str:
    if isinstance(tree, str):
        return tree
    if tree[0] == "if":
        return f"({written_out(tree[1])} if {written_out(tree[2])} > 1 else {written_out(tree[3])})"
    return f"({written_out(tree[1])} {tree[0]} {written_out(tree[2])})"


def with_names(tree: Any, names: dict[str, str], chooser: st.DrawFn) -> str:
    """The tree's text with some subtrees given names (their texts in `names`)."""
    if isinstance(tree, str):
        return tree
    if tree[0] == "if":
        text = f"({with_names(tree[1], names, chooser)} if {with_names(tree[2], names, chooser)} > 1 else {with_names(tree[3], names, chooser)})"
    else:
        text = f"({with_names(tree[1], names, chooser)} {tree[0]} {with_names(tree[2], names, chooser)})"
    if chooser(st.booleans()):
        name = f"part_{len(names)}"
        names[name] = text
        return name
    return text


def returns(spec: dict[str, Any], seeds: range) -> list[list[float]]:
    game = trickrules.load_game(trickrules.load_ruleset_text(as_yaml(spec)))
    found = []
    for seed in seeds:
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[seed % len(legal)])
        found.append(list(state.returns()))
    return found


@given(tree=trees(), data=st.data())
@settings(max_examples=scaled(40), deadline=None)
def test_a_rule_with_named_parts_scores_as_the_rule_written_out(tree: Any, data: st.DataObject) -> None:
    names: dict[str, str] = {}
    text = with_names(tree, names, data.draw)
    named = {**BASE, "define": dict(reversed(list(names.items()))),
             "scoring": {**BASE["scoring"], "round": [{"name": "x", "add": text}]}}
    plain = {**BASE, "scoring": {**BASE["scoring"], "round": [{"name": "x", "add": written_out(tree)}]}}
    assert returns(named, range(3)) == returns(plain, range(3))


def _load(tmp_path: Path, extra: dict[str, Any]) -> trickrules.Game:
    spec = {**BASE, **extra}
    path = tmp_path / "spec.yaml"
    path.write_text(as_yaml(spec), encoding="utf-8")
    return trickrules.load_game(path)


def test_one_definition_serves_a_restriction_and_scoring(tmp_path: Path) -> None:
    game = _load(tmp_path, {"define": {"late": "trick >= 2"},
                            "restrictions": [{"name": "no red late", "when": "late", "forbid": {"suit": "red"}}],
                            "scoring": {**BASE["scoring"], "round": [{"name": "x", "add": "tricks * 10 if late else 0"}]}})
    assert game.ruleset.restrictions[0].when is not None and game.ruleset.restrictions[0].when.text == "(trick >= 2)"


def test_a_definition_reading_a_name_the_place_lacks_is_reported_at_the_definition(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        _load(tmp_path, {"define": {"mine": "tricks + 1"},
                         "restrictions": [{"name": "r", "when": "mine > 1", "forbid": {"suit": "red"}}]})
    text = str(caught.value)
    assert "TR141" in text and "in the definition of 'mine', read at $.restrictions[0].when" in text and "$.define.mine" in text


@pytest.mark.parametrize(("define", "code"), [
    ({"a": "b + 1", "b": "a + 1"}, "TR369"),
    ({"a": "a"}, "TR369"),
    ({"tricks": "1"}, "TR368"),
    ({"max": "1"}, "TR368"),
    ({"players": "1"}, "TR368"),
])
def test_a_definition_that_reads_itself_or_takes_a_taken_name_is_refused(tmp_path: Path, define: dict[str, str], code: str) -> None:
    with pytest.raises(SpecError) as caught:
        _load(tmp_path, {"define": define, "scoring": {**BASE["scoring"], "round": [{"name": "x", "add": "a" if "a" in define else "1"}]}})
    assert code in str(caught.value)


def test_an_expression_written_out_beyond_the_limit_is_refused(tmp_path: Path) -> None:
    """TR143 at the start of the text that reads the definitions, where it stands."""
    define = {"d0": "tricks"} | {f"d{i}": f"d{i - 1} + d{i - 1}" for i in range(1, 14)}
    with pytest.raises(SpecError) as caught:
        _load(tmp_path, {"define": define, "scoring": {**BASE["scoring"], "round": [{"name": "x", "add": "d13"}]}})
    assert [(p.code, p.line, p.column, p.path, p.message) for p in caught.value.problems] == [
        ("TR143", 19, 20, "$.scoring.round[0].add", "expression is too long: 106491 characters, at most 20000, with the definitions it reads written out")]


def _problems(tmp_path: Path, extra: dict[str, Any]) -> list[tuple[str, int, int, str, str]]:
    with pytest.raises(SpecError) as caught:
        _load(tmp_path, extra)
    return [(p.code, p.line, p.column, p.path, p.message) for p in caught.value.problems]


def test_a_defined_name_reads_as_a_number_where_it_is_read(tmp_path: Path) -> None:
    """A definition is a number: max() of it is refused in the text that reads it, not once
    written out."""
    scoring = {**BASE["scoring"], "round": [{"name": "x", "add": "max(mine)"}]}
    assert _problems(tmp_path, {"define": {"mine": "tricks"}, "scoring": scoring}) == [
        ("TR144", 19, 24, "$.scoring.round[0].add", "max() of one value needs a list, and this is a number")]


def test_a_definition_is_checked_for_lists_with_the_names_of_the_place_that_reads_it(tmp_path: Path) -> None:
    scoring = {**BASE["scoring"], "round": [{"name": "x", "add": "mine"}]}
    assert _problems(tmp_path, {"define": {"mine": "max(tricks)"}, "scoring": scoring}) == [
        ("TR144", 20, 20, "$.define.mine", "max() of one value needs a list, and this is a number (in the definition of 'mine', read at $.scoring.round[0].add)")]


def test_a_restriction_reads_the_names_of_play_as_numbers_unless_they_are_lists(tmp_path: Path) -> None:
    restriction = {"name": "r", "when": "max(trick) > 1", "forbid": {"suit": "red"}}
    assert _problems(tmp_path, {"restrictions": [restriction]}) == [
        ("TR144", 22, 13, "$.restrictions[0].when", "max() of one value needs a list, and this is a number")]


def test_written_out_keeps_names_that_only_contain_a_defined_name() -> None:
    assert definitions.expand("ab + a + b_a", {"a": "1 + 2"}) == "ab + (1 + 2) + b_a"
    assert definitions.cycle({"a": "b", "b": "c", "c": "a"}) == ["a", "b", "c", "a"]
    assert definitions.used_by("x", {"x": "y", "y": "1"}) == ["x", "y"]
