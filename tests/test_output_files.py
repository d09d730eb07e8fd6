"""Outputs never replace what is not a regular file, and are written whole or not at all.

`--json` and `--plot` of play, simulate and tournament refuse, before playing, a folder, a
device (``/dev/null`` too), a FIFO and a symbolic link (unless ``--follow-symlinks``: then the
regular file the link points to is replaced and the link kept). Every output goes through a
temporary file in the same folder renamed over the target, plots included.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from trickrules.tools import output
from trickrules.tools.cli import main

pytestmark = pytest.mark.not_compiled

PLAY = ["play", "kingdoms", "--players", "2", "--seed", "1"]
SIMULATE = ["simulate", "kingdoms", "--players", "2", "-n", "2", "--workers", "1"]
TOURNAMENT = ["tournament", "kingdoms", "--players", "2", "-n", "1", "--workers", "1", "--agents", "random,greedy"]
COMMANDS = {"play": PLAY, "simulate": SIMULATE, "tournament": TOURNAMENT}


def _refused(args: list[str], capsys: pytest.CaptureFixture[str], words: str) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and words in err and "Traceback" not in err, err
    assert "Final standings" not in captured.out, "it played before refusing"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_fifo_is_refused_and_stays_a_fifo(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    _refused([*COMMANDS[command], "--json", str(fifo)], capsys, "it is a FIFO")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_dev_null_is_refused_as_a_character_device(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    _refused([*COMMANDS[command], "--json", "/dev/null"], capsys, "cannot write /dev/null: it is a character device")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _refused([*PLAY, "--json", str(tmp_path)], capsys, "it is a folder")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_symbolic_link_is_refused_unless_followed(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "real.json"
    real.write_text("keep me\n")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real.name)
    _refused([*COMMANDS[command], "--json", str(link)], capsys, "it is a symbolic link")
    assert link.is_symlink() and real.read_text() == "keep me\n"

    assert main([*COMMANDS[command], "--json", str(link), "--follow-symlinks"]) == 0
    capsys.readouterr()
    assert link.is_symlink() and os.readlink(link) == real.name, "the link was replaced"
    assert real.read_text().startswith("{") and real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_a_followed_link_must_still_end_at_a_regular_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    to_fifo = tmp_path / "to-pipe"
    to_fifo.symlink_to(fifo)
    to_null = tmp_path / "to-null"
    to_null.symlink_to("/dev/null")
    _refused([*PLAY, "--json", str(to_fifo), "--follow-symlinks"], capsys, "it is a FIFO")
    _refused([*PLAY, "--json", str(to_null), "--follow-symlinks"], capsys, "it is a character device")
    loop = tmp_path / "loop"
    loop.symlink_to(loop.name)
    _refused([*PLAY, "--json", str(loop), "--follow-symlinks"], capsys, f"cannot write {loop}")
    assert loop.is_symlink()
    dangling = tmp_path / "later"
    dangling.symlink_to("new.json")  # a link to a file yet to be made: made through the link
    assert main([*PLAY, "--json", str(dangling), "--follow-symlinks"]) == 0
    assert dangling.is_symlink() and (tmp_path / "new.json").read_text().startswith("{")


def test_plots_refuse_fifos_and_links_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    link = tmp_path / "link.png"
    link.symlink_to("real.png")
    _refused([*SIMULATE, "--plot", str(fifo)], capsys, "it is a FIFO")
    _refused([*TOURNAMENT, "--plot", str(link)], capsys, "it is a symbolic link")
    assert not (tmp_path / "real.png").exists()


def test_a_plot_is_written_whole_or_not_at_all(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "scores.png"
    assert main([*SIMULATE, "--plot", str(plot)]) == 0
    first = plot.read_bytes()
    assert first.startswith(b"\x89PNG")

    def broken_rename(source: str, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", broken_rename)
    capsys.readouterr()
    assert main([*SIMULATE, "--seed", "5", "--plot", str(plot)]) == 2  # fails after playing, at the rename
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == f"trickrules: cannot write {plot}: No space left on device" and "Traceback" not in err
    assert plot.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.png"], "a temporary file was left behind"


def test_what_took_the_outputs_place_during_the_run_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    output.check_output(str(target))
    os.mkfifo(target)  # made while the games were playing
    with pytest.raises(output.InputError, match="it is a FIFO"):
        output.write_output(str(target), "{}\n")
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
