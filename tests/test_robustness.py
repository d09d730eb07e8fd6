"""A command line that never loses data, and states that travel between processes.

- Outputs: never over an input, checked before playing, written through a temporary file.
- `--workers` bounded by the CPUs unless forced; counted words ("1 game").
- States pickle into a process pool and play on there as here.

(The engine's refusals, pickles and copies are in test_refusals.py.)
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import pickle
import re
from pathlib import Path

import pytest
from helpers import ROOT, finish, played

import trickrules
from trickrules import IllegalActionError, State
from trickrules.tools import output, record, simulate_cli
from trickrules.tools.cli import main
from trickrules.tools.simulate import available_cpus


# ---------------------------------------------------------------- processes


def _finish_elsewhere(state: State) -> str:
    return finish(state, 2)


def test_states_go_through_a_process_pool() -> None:
    states = [played(trickrules.load_game(name), 8, 31) for name in ("kingdoms", "hearts")]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        remote = list(pool.map(_finish_elsewhere, states))
    assert remote == [finish(state, 2) for state in states]


# ---------------------------------------------------------------- outputs


def test_play_refuses_to_write_its_json_over_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "kingdoms.yaml"
    spec.write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    original = spec.read_bytes()
    assert main(["play", str(spec), "--json", str(spec)]) == 2
    assert "refusing to write over an input file" in capsys.readouterr().err
    assert spec.read_bytes() == original


def test_play_refuses_to_write_over_a_parent_spec_or_the_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parent = tmp_path / "kingdoms.yaml"
    parent.write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    overlay = tmp_path / "short.yaml"
    overlay.write_text("extends: kingdoms.yaml\nrounds: 1\n", encoding="utf-8")
    deal = tmp_path / "deal.yaml"
    state = trickrules.load_game(overlay, players=2).new_initial_state(3)
    deal.write_text(f"hands: {[[state.game.card_ids[c] for c in hand] for hand in state.hands]}\n", encoding="utf-8")
    files = {path: path.read_bytes() for path in (parent, overlay, deal)}
    assert main(["play", str(overlay), "--players", "2", "--json", str(tmp_path / "." / "kingdoms.yaml")]) == 2
    assert main(["play", str(overlay), "--players", "2", "--deal", str(deal), "--json", str(deal)]) == 2
    assert capsys.readouterr().err.count("refusing to write over an input file") == 2
    assert {path: path.read_bytes() for path in files} == files
    assert main(["play", str(overlay), "--players", "2", "--deal", str(deal), "--json", str(tmp_path / "game.json")]) == 0


def _unwritable_folder(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root writes anywhere but /proc)."""
    if os.geteuid() == 0:
        return Path("/proc")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


@pytest.fixture()
def no_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing fails the test: what must be refused before playing is (no clock needed)."""

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("it played before checking its input")

    monkeypatch.setattr(record, "play_game", played)
    monkeypatch.setattr(simulate_cli, "simulate", played)


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_unwritable_output_is_refused_before_playing(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_playing: None) -> None:
    many = ["-n", "100000000", "--workers", "1"] if command == "simulate" else []
    targets = [_unwritable_folder(tmp_path) / "out.json", tmp_path / "no-such-folder" / "out.json", tmp_path]
    (tmp_path / "a-file").write_text("x")
    targets.append(tmp_path / "a-file" / "out.json")
    for target in targets:
        assert main([command, "kingdoms", *many, "--json", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"cannot write {target}" in err and "Traceback" not in err


def test_a_plot_format_matplotlib_cannot_write_is_refused_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str], no_playing: None) -> None:
    for name in ("scores.txt", "scores"):
        assert main(["simulate", "kingdoms", "-n", "100000000", "--workers", "1", "--plot", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert "matplotlib cannot write" in err and "png" in err
    assert not list(tmp_path.iterdir())


def test_outputs_are_written_through_a_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.json"
    target.write_text("the old record\n")
    target.chmod(0o640)
    output.write_output(str(target), "the new record\n")
    assert target.read_text() == "the new record\n" and target.stat().st_mode & 0o777 == 0o640

    def broken_rename(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", broken_rename)
    with pytest.raises(output.InputError, match="No space left"):
        output.write_output(str(target), "a third record\n")
    assert target.read_text() == "the new record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"], "a temporary file was left behind"


# ---------------------------------------------------------------- workers and words


def test_workers_above_the_cpu_count_are_refused_unless_forced(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    too_many = available_cpus() + 1
    with monkeypatch.context() as patched:
        patched.setattr(simulate_cli, "simulate", lambda *a, **k: pytest.fail("it played before checking --workers"))
        assert main(["simulate", "kingdoms", "-n", "100000000", "--workers", str(too_many)]) == 2
    err = capsys.readouterr().err
    assert f"--workers {too_many} is more than this machine's" in err and "--force-workers" in err
    assert main(["simulate", "kingdoms", "-n", "2", "--players", "2", "--workers", str(too_many), "--force-workers"]) == 0
    assert f"{too_many} workers" in capsys.readouterr().err


def test_messages_count_one_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kingdoms", "-n", "1", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "1 game in" in captured.err and "1 worker)" in captured.err
    assert ", 1 game," in captured.out and not re.search(r"(?<![\d.])1 games", captured.out + captured.err)
    assert output.counted(1, "round") == "1 round" and output.counted(2, "round") == "2 rounds"
