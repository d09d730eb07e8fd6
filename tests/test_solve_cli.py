"""``trickrules solve``: one deal in full, a par table, JSON, and clear refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import trickrules
from trickrules.engine.solver import solve
from trickrules.tools.cli import main
from trickrules.tools.solve_cli import position


def test_solving_one_deal_shows_each_action_the_best_and_the_par_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "euchre", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    state = position(trickrules.load_game("euchre"), 3, None, "greedy")
    assert state is not None
    solution = solve(state)
    assert "Solved to the end of the round (5 tricks)" in out
    best = state.action_to_string(solution.best)  # type: ignore[arg-type]
    assert f"  {best}" in out and out.count("  best") == 1
    assert all(state.action_to_string(a) in out for a in state.legal_actions())
    assert "Par line: " + ", ".join(state.action_to_string(a) for a in solution.line) in out


def test_many_deals_make_a_par_table_with_one_line_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "euchre", "-n", "3", "--seed", "10", "--agent", "random"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Euchre: par results of 3 deals")
    assert [line.split()[0] for line in out[2:5]] == ["10", "11", "12"]
    assert out[5].startswith("mean value")


def test_the_json_holds_every_action_value_and_the_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "hearts", "--tricks", "3", "-n", "2", "--json", "-"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["format"] == "trickrules-solutions" and len(document["solutions"]) == 2
    for entry in document["solutions"]:
        assert entry["tricks_left"] == 3
        assert entry["values"][entry["best"]] == entry["value"]
        assert len(entry["points"]) == 4 and entry["side"] == [entry["player"]]


def test_a_bounded_search_says_how_far_it_looked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "spades", "--depth", "1", "--seed", "4"]) == 0
    assert "Solved 1 trick ahead" in capsys.readouterr().out


def test_a_deal_with_no_play_is_named_not_solved(capsys: pytest.CaptureFixture[str]) -> None:
    seed = next(s for s in range(50) if position(trickrules.load_game("bridge"), s, 4, "greedy") is None)
    assert main(["solve", "bridge", "--tricks", "4", "--seed", str(seed)]) == 0
    assert capsys.readouterr().out.strip() == f"No play to solve (the round ended before it) in 1 deal: seeds {seed}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tricks", "14"], "--tricks 14: a round of Contract Bridge has 13 tricks at most"),
        (["--tricks", "0"], "--tricks 0: give a whole number, 1 or more"),
        (["--depth", "-2"], "--depth -2: give a whole number, 1 or more"),
        (["-n", "0"], "--deals 0: give a whole number, 1 or more"),
        (["--player", "4"], "--player 4: the seats are 0 to 3"),
        (["--agent", "wizard"], "--agent: unknown agent 'wizard'"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "bridge", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_the_howto_snippet_solves_the_deal_the_command_shows(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).parent.parent / "docs" / "howto" / "solving.md").read_text("utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, Any] = {}
    exec(compile(code, "solving.md", "exec"), scope)
    printed = capsys.readouterr().out.splitlines()
    solution, state = scope["solution"], scope["state"]
    assert printed[0] == f"{solution.value} {state.action_to_string(solution.best)}"
    assert len(printed) == 1 + len(state.legal_actions())
