"""`trickrules serve`: prints the address it serves on, serves the page, stops on Ctrl-C, and
refuses bad input with exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from serve_helpers import ROOT
from trickrules.serve.server import _is_loopback
from trickrules.tools.cli import main

pytestmark = pytest.mark.not_compiled  # the server and the page, not the engine


def test_serve_prints_its_address_serves_the_seeded_game_and_stops_on_interrupt() -> None:
    command = [sys.executable, "-m", "trickrules", "serve", "hearts", "--seed", "5", "--port", "0", "--no-open",
               "--seats", "human,random"]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith("trickrules serve: Hearts at http://127.0.0.1:"), line
        url = line.split(" at ")[1].split()[0]
        with urllib.request.urlopen(url + "api/state?seat=0", timeout=10) as answer:
            view = json.load(answer)
        assert view["seed"] == 5 and view["seats"] == ["human", "random", "random", "random"]
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert b"<title>" in answer.read()
    finally:
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=20)
    assert code == 0


@pytest.mark.parametrize(
    "arguments, words",
    [
        (["serve", "no-such-spec", "--no-open"], "TR101"),
        (["serve", "hearts", "--seats", "human,robot", "--no-open"], "unknown agent"),
        (["serve", "hearts", "--seats", "human,greedy,greedy,greedy,greedy", "--no-open"], "5 seats"),
        (["serve", "hearts", "--seed", "-1", "--no-open"], "--seed"),
        (["serve", "hearts", "--pace", "-1", "--no-open"], "--pace"),
        (["serve", "hearts", "--host", "256.0.0.1", "--port", "0", "--no-open"], "cannot listen"),
    ],
)
def test_bad_input_exits_2(arguments: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(arguments) == 2
    assert words in capsys.readouterr().err


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", os.fspath(tmp_path / "none.yaml"), "--no-open"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_only_loopback_addresses_count_as_this_machine() -> None:
    assert _is_loopback("127.0.0.1") and _is_loopback("::1") and _is_loopback("localhost")
    assert not _is_loopback("0.0.0.0") and not _is_loopback("192.168.1.2") and not _is_loopback("example.org")
