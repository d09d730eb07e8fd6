"""Counts and inputs out of bounds are refused at once, in one line (exit 2).

- `simulate -n` at most `MAX_GAMES`, `tournament -n` at most `MAX_DEALS`, before anything runs;
- `--agents` with an empty name (`,`, `greedy,,random`, a trailing comma);
- `replay` of a record too deep, too large, with an integer of thousands of digits, or not
  UTF-8: a clean error, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trickrules.tools import replay_cli
from trickrules.tools.cli import main
from trickrules.tools.simulate import MAX_CHUNKS, MAX_DEALS, MAX_GAMES, SimulationError, _chunks, simulate
from trickrules.tools.tournament import tournament

pytestmark = pytest.mark.not_compiled


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "Final standings" not in captured.out and "games/s" not in err
    return err


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "kingdoms", "-n", "99999999999999999999"], "the number of games is at most 1,000,000,000 a run"),
        (["simulate", "kingdoms", "-n", str(MAX_GAMES + 1), "--workers", "1"], "at most 1,000,000,000"),
        (["simulate", "kingdoms", "-n", "-5"], "at least 1"),
        (["tournament", "kingdoms", "--agents", "random,greedy", "-n", str(MAX_DEALS + 1)], "the number of deals is at most 1,000,000 a run"),
    ],
)
def test_counts_out_of_bounds_are_refused_before_playing(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert words in _one_line(capsys)


def test_the_api_has_the_same_bounds() -> None:
    with pytest.raises(SimulationError, match="at most 1,000,000,000"):
        simulate("kingdoms", 10**20)
    with pytest.raises(SimulationError, match="at most 1,000,000 a run"):
        tournament("kingdoms", ["random", "greedy"], n=MAX_DEALS + 1)


def test_the_largest_run_is_cut_into_a_bounded_number_of_chunks() -> None:
    chunks = _chunks(MAX_GAMES, 7, 2)
    assert len(chunks) <= MAX_CHUNKS
    assert sum(count for _, count in chunks) == MAX_GAMES and chunks[0][0] == 7
    assert all(first + count == after for (first, count), (after, _) in zip(chunks, chunks[1:]))
    assert {count for _, count in _chunks(10_000, 0, 2)} == {100}, "ordinary runs keep chunks of 100 games"


@pytest.mark.parametrize("agents", [",", " , ", "greedy,,random,random", "greedy,", ",greedy"])
@pytest.mark.parametrize("command", [["play", "kingdoms"], ["simulate", "kingdoms", "-n", "3"], ["tournament", "kingdoms", "-n", "2"]])
def test_an_empty_agent_name_is_refused(command: list[str], agents: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--agents", agents]) == 2
    assert f"--agents {agents!r} has an empty agent name" in _one_line(capsys)


# ---------------------------------------------------------------- records


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("record") / "game.json"
    assert main(["play", "meadows", "--seed", "2", "--json", str(path)]) == 0
    return path.read_text("utf-8")


def _replay(tmp_path: Path, content: str | bytes, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "game.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"trickrules: {path}")
    return err


@pytest.mark.parametrize("depth", [201, 5_000, 200_000])
def test_a_deeply_nested_record_is_refused(depth: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "nested more than 200 levels deep" in _replay(tmp_path, "[" * depth + "]" * depth, capsys)


@pytest.mark.parametrize("digits", [101, 4_000, 5_000, 100_000])
def test_a_record_with_a_huge_integer_is_refused(digits: int, record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record_text)
    text = record_text.replace(f'"seed": {data["seed"]}', '"seed": ' + "9" * digits, 1)
    assert f"an integer of {digits} digits (at most 100)" in _replay(tmp_path, text, capsys)


def test_a_record_too_large_or_not_text_is_refused(record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert "not UTF-8 text" in _replay(tmp_path, b'{"format": "\xff"}', capsys)
    monkeypatch.setattr(replay_cli, "MAX_RECORD_BYTES", len(record_text.encode()) - 1)
    assert "too large for a record" in _replay(tmp_path, record_text, capsys)


def test_a_record_within_the_bounds_still_replays(record_text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(record_text, "utf-8")
    assert main(["replay", str(path)]) == 0
    assert "verified" in capsys.readouterr().out
