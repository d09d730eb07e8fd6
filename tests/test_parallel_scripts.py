"""Parallel runs from scripts, and Ray addresses that do not answer.

- A script that calls `simulate`/`tournament` with workers above 1 without a main guard gets
  one clear error (its worker processes import it again and would start the run again);
  never a loop of worker processes started again and again.
- `--ray-timeout` bounds how long a Ray address may keep silent; a refused address is an
  error at once; without Ray installed the message says how to install it.
"""

from __future__ import annotations

import math
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import ROOT

from trickrules.tools import backends
from trickrules.tools.cli import main

pytestmark = pytest.mark.not_compiled

HANG_GUARD = 300  # seconds: a respawn loop never ends; a test that hangs this long has failed

CALLS = {
    "simulate": 'trickrules.simulate("kingdoms", 8, players=2, workers=2).games',
    "tournament": 'trickrules.tournament("kingdoms", ["random", "greedy"], n=2, players=2, workers=2).deals',
}


def _run_script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent(body), "utf-8")
    return subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=HANG_GUARD,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_script_without_a_main_guard_gets_one_clear_error(call: str, tmp_path: Path) -> None:
    result = _run_script(tmp_path, f"import trickrules\nprint('played', {CALLS[call]})\n")
    assert result.returncode == 1
    assert "if __name__ == \"__main__\":" in result.stderr and "SimulationError" in result.stderr
    assert "freeze_support" not in result.stderr and "bootstrapping phase" not in result.stderr
    assert result.stderr.count("Traceback") == 1, result.stderr  # the caller's, not one per worker
    assert "played" not in result.stdout


@pytest.mark.parametrize("call", sorted(CALLS))
def test_the_same_script_with_the_guard_plays(call: str, tmp_path: Path) -> None:
    result = _run_script(tmp_path, f"import trickrules\nif __name__ == '__main__':\n    print('played', {CALLS[call]})\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "played" and "Traceback" not in result.stderr


def test_a_worker_importing_the_script_stops_at_once_and_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing

    monkeypatch.setattr(multiprocessing.current_process(), "_inheriting", True, raising=False)
    with pytest.raises(SystemExit) as stopped:
        with backends.open_backend("local", 2):
            pass
    assert stopped.value.code == backends._MAIN_GUARD_EXIT
    with backends.open_backend("local", 1) as runner:  # one worker plays here: nothing to start
        assert runner.parallelism == 1


# ---------------------------------------------------------------- ray


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ray_installed() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("command", [["simulate", "kingdoms", "-n", "4"], ["tournament", "kingdoms", "-n", "2", "--agents", "random,greedy"]])
def test_an_address_that_refuses_is_a_clean_error_at_once(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    address = f"127.0.0.1:{_closed_port()}"
    assert main([*command, "--backend", "ray", "--address", address, "--ray-timeout", "5"]) == 2
    err = _one_line(capsys)
    if _ray_installed():
        assert err.startswith(f"trickrules: cannot reach the Ray cluster at {address}: ") and "check the address" in err
    else:
        assert "needs Ray: pip install 'trickrules[ray]'" in err


def test_without_ray_the_message_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails, as when it is not installed
    assert main(["simulate", "kingdoms", "-n", "4", "--backend", "ray", "--address", "127.0.0.1:1", "--ray-timeout", "3"]) == 2
    assert _one_line(capsys) == "trickrules: the ray backend needs Ray: pip install 'trickrules[ray]'"


@pytest.mark.parametrize(
    "options, words",
    [
        (["--ray-timeout", "0", "--backend", "ray", "--address", "127.0.0.1:1"], "above 0, not 0.0"),
        (["--ray-timeout", "-1", "--backend", "ray", "--address", "127.0.0.1:1"], "above 0, not -1.0"),
        (["--ray-timeout", "nan", "--backend", "ray", "--address", "127.0.0.1:1"], "above 0, not nan"),
        (["--ray-timeout", "inf", "--backend", "ray", "--address", "127.0.0.1:1"], "above 0, not inf"),
        (["--ray-timeout", "5"], "--ray-timeout is for connecting to a Ray cluster"),
        (["--ray-timeout", "5", "--backend", "ray"], "--ray-timeout is for connecting to a Ray cluster"),
    ],
)
def test_ray_timeout_is_checked_before_anything_runs(options: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "kingdoms", "-n", "4", *options]) == 2
    assert words in _one_line(capsys)


def test_the_api_checks_the_timeout_too() -> None:
    from trickrules.tools.simulate import SimulationError, simulate

    for bad in (0, -2.5, math.nan, "20", True):
        with pytest.raises(SimulationError, match="Ray timeout"):
            simulate("kingdoms", 2, players=2, backend="ray", address="127.0.0.1:1", ray_timeout=bad)  # type: ignore[arg-type]
    assert backends.DEFAULT_RAY_TIMEOUT <= 30


def test_an_address_that_keeps_silent_times_out(tmp_path: Path) -> None:
    """Something listens at the address but never answers as Ray would: --ray-timeout ends
    the wait (in a process of its own: a Ray connection half made stays in its process)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections are accepted by the system, and never answered
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        result = subprocess.run(
            [sys.executable, "-m", "trickrules", "simulate", "kingdoms", "-n", "4", "--backend", "ray", "--address", address, "--ray-timeout", "2"],
            cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD,
        )  # fmt: skip
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("trickrules:")]
    assert len(lines) == 1 and "Traceback" not in result.stderr
    if _ray_installed():
        assert lines[0] == f"trickrules: cannot reach the Ray cluster at {address}: no answer within 2 s (--ray-timeout); check the address"
    else:
        assert "needs Ray" in lines[0]


@pytest.mark.parametrize(
    ("codes", "finished", "script", "guard"),
    [
        ([backends._MAIN_GUARD_EXIT, -15], 0, True, True),  # the guard's exit seen
        ([-15, -15], 0, True, True),  # the pool stopped the others before they reached the guard
        ([None, 0], 0, True, True),
        ([-15, -9], 0, True, False),  # one killed: not the guard
        ([-15, -15], 3, True, False),  # chunks finished: the script did start the run once
        ([-15, -15], 0, False, False),  # no script to import again
    ],
)
def test_a_broken_pool_names_the_main_guard_only_when_nothing_else_explains_it(
    codes: list[int | None], finished: int, script: bool, guard: bool
) -> None:
    message = backends._broken_message(codes, finished, script)
    assert (message == backends.MAIN_GUARD_HINT) is guard
    if not guard:
        assert "stopped unexpectedly" in message
