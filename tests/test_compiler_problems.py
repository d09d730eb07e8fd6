"""Loading compiles a spec once, and the compiler reports every problem it finds together.

Loading a game (`load_ruleset`, `load_game`) compiles the spec for the player count asked for
(or the default) and no other; compiling it for every allowed count is what `trickrules
validate` does (`option_problems`), and `load_spec(..., every_count=True)` / `check_spec`.
The compiler collects its problems, each with its code, line and column, and raises them in
one `SpecError`; it stops early only where the rest would be meaningless (the module
docstring of `trickrules.spec.compiler` lists where).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import BASE, ROOT

import trickrules
from trickrules.errors import SpecError
from trickrules.spec import compiler
from trickrules.spec.checks import check_spec, load_spec, load_spec_text, option_problems, player_problems
from trickrules.spec.loader import load_ruleset, load_ruleset_text
from trickrules.tools.cli import main

pytestmark = pytest.mark.not_compiled  # the loader and the compiler, which are never compiled

THREE = """\
id: three
title: Three problems
players: [3, 4]
deck:
  suits: [red, blue, green]
  generate:
    - {suits: all, ranks: {from: 1, to: 8}}
deal:
  hand_size: 5
  first_leader: {holder: red-9}
ranking:
  - highest: rank
scoring:
  round:
    - add: tricks * bonus
round: [deal, {pass: {cards: 6, to: left}}, play, score]
"""
"""A spec with three independent problems that only compiling finds: a card the deck does not
have (line 10), an unknown name in an expression (line 15), more cards passed than held
(line 16)."""

THREE_FOUND = [
    ("TR315", 10, 18, "$.deal.first_leader.holder"),
    ("TR141", 15, 21, "$.scoring.round[0].add"),
    ("TR322", 16, 30, "$.round[1].pass.cards"),
]

ACROSS = BASE + "round: [deal, {pass: {cards: 1, to: across}}, play, score]\n"
"""The base spec (three or four players) passing across: no seat is across with three."""


def _found(error: SpecError) -> list[tuple[str, int, int, str]]:
    return [(p.code, p.line, p.column, p.path) for p in error.problems]


def _write(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# ---------------------------------------------------------------- every problem at once


def test_three_independent_problems_are_reported_together() -> None:
    """Each problem with its code, line and column, by place; the first one is the error's own."""
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(THREE, "three.yaml")
    error = raised.value
    assert _found(error) == THREE_FOUND
    assert (error.code, error.line, error.column) == ("TR315", 10, 18)
    assert error.message == "no card 'red-9' in the deck; did you mean 'red-8'?"
    lines = str(error).splitlines()
    assert len(lines) == 3
    assert [line.split(" ")[:2] for line in lines] == [
        ["three.yaml:10:18:", "TR315"], ["three.yaml:15:21:", "TR141"], ["three.yaml:16:30:", "TR322"]]
    assert "unknown name 'bonus'" in lines[1] and "passes 6 cards but holds 5" in lines[2]


def test_three_problems_from_a_file_and_from_load_game(tmp_path: Path) -> None:
    path = _write(tmp_path, THREE)
    for load in (load_ruleset, trickrules.load_game):
        with pytest.raises(SpecError) as raised:
            load(path)
        assert _found(raised.value) == THREE_FOUND
        assert all(problem.file == str(path) for problem in raised.value.problems)


def test_validate_prints_all_three_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, THREE)
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert [line.split(" ")[:2] for line in lines] == [[f"{path}:{line}:{column}:", code] for code, line, column, _ in THREE_FOUND]
    assert captured.out.strip() == f"{path}: invalid, 3 problems"


def test_fixing_one_problem_leaves_the_other_two() -> None:
    fixed = THREE.replace("red-9", "red-8")
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(fixed, "three.yaml")
    assert _found(raised.value) == THREE_FOUND[1:]


# ---------------------------------------------------------------- where the compiler stops


def test_a_player_count_and_options_are_all_reported_and_nothing_is_compiled() -> None:
    """TR310 and TR304 together (a spec without options places them at its top); the spec's own
    problems (TR315, ...) wait for a count it allows."""
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(THREE, "three.yaml", players=5, options={"roundz": 2, "trumpz": "red"})
    assert [(p.code, p.path, p.line) for p in raised.value.problems] == [
        ("TR304", "$.options", 1), ("TR304", "$.options", 1), ("TR310", "$.players", 3)]
    assert "unknown option 'trumpz'" in raised.value.problems[1].message


def test_a_hand_size_that_cannot_be_worked_out_stops_the_compiler() -> None:
    """An empty ramp of hand sizes: what measures against the hand sizes is not checked."""
    text = THREE.replace("hand_size: 5", "hand_size: {by_round: {from: 5, to: 'players - 1'}}")
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text, "three.yaml", players=4)
    assert _found(raised.value) == [("TR305", 9, 35, "$.deal.hand_size.by_round.to")]


def test_a_bid_range_whose_end_does_not_compile_is_not_measured() -> None:
    """TR141 in the range's `to`, and no TR331 for the 0 that stands in for it."""
    text = BASE + "round: [deal, {bid: {values: {from: 1, to: 'hand_sise'}}}, play, score]\n"
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text, "tiny.yaml")
    assert [p.code for p in raised.value.problems] == ["TR141"]
    with pytest.raises(SpecError) as raised:  # the range itself is still checked when its end compiles
        load_ruleset_text(text.replace("hand_sise", "hand_size - 5"), "tiny.yaml")
    assert [p.code for p in raised.value.problems] == ["TR331"]


def test_a_problem_every_contract_shares_is_reported_once() -> None:
    """A problem in the spec that each contract merged over it repeats: one line, not three."""
    text = BASE + """round: [deal, {declare: {contracts: [grand, solo]}}, play, score]
contracts:
  grand: {trumps: [red]}
  solo: {trumps: [blue]}
"""
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text.replace("add: tricks", "add: tricks * bonus"), "tiny.yaml")
    assert [(p.code, p.line) for p in raised.value.problems] == [("TR141", 16)]
    with pytest.raises(SpecError) as raised:  # a contract's own problem is its own
        load_ruleset_text(text.replace("solo: {trumps: [blue]}", "solo: {trumps: [blue], scoring: {round: [{add: 'tricks * bonus'}]}}"), "tiny.yaml")
    assert [(p.code, p.line) for p in raised.value.problems] == [("TR141", 20)]


def test_a_declare_phase_without_contracts_is_one_problem() -> None:
    text = BASE + "round: [deal, {declare: {contracts: [grand, solo], otherwise: grand}}, play, score]\n"
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text, "tiny.yaml")
    assert [(p.code, p.message) for p in raised.value.problems] == [("TR325", "a declare phase needs contracts")]


# ---------------------------------------------------------------- loading compiles once


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The player count of every ruleset the compiler builds (contracts' included)."""
    counts: list[int] = []
    build = compiler._Compiler.ruleset

    def counted(self: compiler._Compiler) -> trickrules.Ruleset:
        counts.append(self.players)
        return build(self)

    monkeypatch.setattr(compiler._Compiler, "ruleset", counted)
    return counts


def test_loading_oh_hell_compiles_it_once(compiles: list[int]) -> None:
    """Oh Hell allows three to seven players; loading it compiles it for the count loaded."""
    path = ROOT / "specs" / "oh-hell.yaml"
    assert trickrules.load_game(path).num_players == 7
    assert compiles == [7]
    compiles.clear()
    assert load_ruleset(path, players=4).players == 4
    assert compiles == [4]
    compiles.clear()
    load_spec(path)  # reading and checking does not compile
    assert compiles == []


def test_validating_compiles_every_allowed_count(compiles: list[int]) -> None:
    path = ROOT / "specs" / "oh-hell.yaml"
    assert player_problems(load_spec(path)) == []
    assert compiles == [3, 4, 5, 6, 7]
    compiles.clear()
    load_spec(path, every_count=True)
    assert compiles == [3, 4, 5, 6, 7]
    compiles.clear()
    assert option_problems(load_spec(path)) == []  # with every option value, too
    assert sorted(set(compiles)) == [3, 4, 5, 6, 7] and len(compiles) > 5


def test_a_spec_broken_at_one_count_loads_at_another_and_fails_at_that_one(tmp_path: Path) -> None:
    """Passing across with four players plays; with three, loading names file, line, column and code."""
    path = _write(tmp_path, ACROSS)
    assert trickrules.load_game(path, players=4).num_players == 4
    with pytest.raises(SpecError) as raised:
        trickrules.load_game(path, players=3)
    expected = (str(path), 17, 37, "TR321", "no seat is across the table with 3 players")
    first = raised.value.first
    assert (first.file, first.line, first.column, first.code, first.message) == expected
    assert str(raised.value).startswith(f"{path}:17:37: TR321 ")


def test_a_spec_broken_at_one_count_does_not_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, ACROSS)
    source = load_spec(path)  # reads and checks: compiling is left to loading and validating
    problems = [(p.code, p.line, p.column) for p in player_problems(source)]
    assert problems == [("TR321", 17, 37)]
    assert [(p.code, p.line, p.column) for p in check_spec(source)] == problems
    assert [(p.code, p.line, p.column) for p in option_problems(source)] == problems
    with pytest.raises(SpecError) as raised:
        load_spec_text(ACROSS, "across.yaml", every_count=True)
    assert [(p.code, p.line, p.column) for p in raised.value.problems] == problems
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"{path}:17:37: TR321 no seat is across the table with 3 players")
    assert captured.out.strip() == f"{path}: invalid, 1 problem"


def test_a_problem_the_defaults_have_is_not_repeated_for_each_option_value() -> None:
    """`option_problems` names an option only for a problem its value brings."""
    text = ACROSS + "options:\n  bonus: {type: integer, default: 0, min: 0, max: 3}\n"
    found = option_problems(load_spec_text(text, "across.yaml"))
    assert [(p.code, p.message) for p in found] == [("TR321", "no seat is across the table with 3 players")]
