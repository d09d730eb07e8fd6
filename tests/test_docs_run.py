"""Every command and Python example in the README and the docs runs as written.

The extractor reads each fenced block of README.md and docs/**/*.md:

- ```sh, ```bash, ```shell and ```console blocks: each command line that calls the command line
  tool (``trickrules ...``, ``python -m trickrules ...``; after ``$ `` in a console block, with
  ``\\`` continuations joined) runs through bash with the venv's ``bin`` first on ``PATH``;
  other lines (``pip install``, benchmarks, ``ray start``) are not run;
- ```python blocks: each is saved as a script and run with the venv's Python (so a block that
  starts processes must guard its work with ``if __name__ == "__main__":``); a
  ``--8<-- "FILE"`` line is replaced by the file, as the site's snippets do.

Each page runs in a fresh folder holding copies of ``specs/``, ``examples/`` and
``docs/examples/`` (the paths the pages use, as from a checkout), its shell commands in page
order, so a command may read a file an earlier one wrote. Every command must exit 0 within the
timeout.

A block that cannot run here (it needs a cluster, or minutes) carries a mark on the line
before its fence, with the reason: ``<!-- not-run: needs a Ray cluster -->``. The test checks
each mark has a reason and stands before a block.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.not_compiled  # the docs' commands, run once (not again against the compiled engine)

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent
"""The venv's scripts folder: ``trickrules`` and ``python`` there are the ones under test."""

SHELL = {"sh", "bash", "shell", "console"}
TIMEOUT = 240.0
"""Seconds (wall clock, on a busy machine) a command may take; over it, it fails and is killed
with its processes: a hang, not a slow command, is what it catches."""
BUDGET = 180.0
"""CPU seconds every runnable block together may take (the commands and their worker
processes; counted in CPU time so that a busy machine does not fail it): the docs keep their
game counts small. Two shared cores under other work still inflate CPU time: the pages that
took under 150 s alone took 154 s beside other runs, hence the margin."""

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<lang>[A-Za-z]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.MULTILINE | re.DOTALL
)
NOT_RUN = re.compile(r"^[ \t]*<!--\s*not-run:(?P<reason>.*?)-->[ \t]*$", re.MULTILINE)
"""A not-run mark: a line of its own (a mention in a sentence is none)."""
CLI = re.compile(r"^(?:trickrules|python3? -m trickrules)(?:\s|$)")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page."""

    page: Path
    line: int  # of the opening fence, from 1
    lang: str
    body: str
    not_run: str | None  # the reason of its not-run mark, if it has one

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT).as_posix()}:{self.line}"

    def commands(self) -> list[str]:
        """The command lines of a shell block that call trickrules."""
        lines = self.body.splitlines()
        if self.lang == "console":
            lines = [line[2:] for line in _joined(lines) if line.startswith("$ ")]
        else:
            lines = _joined(lines)
        return [line.strip() for line in lines if CLI.match(line.strip())]

    def script(self) -> str:
        """A python block's text, with each ``--8<-- "FILE"`` line replaced by the file."""
        return re.sub(
            r'^--8<-- "([^"]+)"$', lambda m: (ROOT / m[1]).read_text("utf-8"), self.body, flags=re.MULTILINE
        )


def _joined(lines: list[str]) -> list[str]:
    """Lines with ``\\`` continuations joined and indentation removed."""
    out: list[str] = []
    pending = ""
    for line in lines:
        text = line.strip()
        if text.endswith("\\"):
            pending += text[:-1].rstrip() + " "
            continue
        out.append(pending + text)
        pending = ""
    return out + ([pending] if pending else [])


def blocks(page: Path) -> list[Block]:
    """The shell and python blocks of a page, with their not-run marks."""
    text = page.read_text("utf-8")
    found = []
    for match in FENCE.finditer(text):
        lang = match["lang"].lower()
        if lang not in SHELL | {"python"}:
            continue
        before = [line for line in text[: match.start()].splitlines() if line.strip()]
        mark = NOT_RUN.match(before[-1]) if before else None
        body = "\n".join(line.removeprefix(match["indent"]) for line in match["body"].splitlines())
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(page, line, lang, body, mark["reason"].strip() if mark else None))
    return found


ALL = [block for page in PAGES for block in blocks(page)]


def _checkout(folder: Path) -> None:
    """The files the pages use, copied as from a checkout."""
    for name in ("specs", "examples"):
        shutil.copytree(ROOT / name, folder / name)
    shutil.copytree(ROOT / "docs" / "examples", folder / "docs" / "examples")


def _cpu() -> float:
    """CPU seconds of the finished child processes so far (theirs and their own children's)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _run(argv: list[str], folder: Path) -> tuple[int, str, float]:
    """Run `argv` in `folder` in its own process group; kill the group after the timeout.
    Returns the exit code (-1 on a timeout), the output and the CPU seconds it took."""
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}
    env.pop("PYTHONPATH", None)
    start = _cpu()
    process = subprocess.Popen(
        argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        text=True, start_new_session=True,
    )  # fmt: skip
    try:
        output, _ = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return -1, f"timed out after {TIMEOUT:.0f} s\n" + output[-2000:], _cpu() - start
    return process.returncode, output, _cpu() - start


RUNNABLE_PAGES = sorted({b.page for b in ALL if b.not_run is None and (b.lang == "python" or b.commands())})
_TIMES: dict[str, float] = {}


def test_the_extractor_finds_the_blocks() -> None:
    """The pages hold commands and Python blocks, and the known ones are found."""
    commands = [c for b in ALL for c in b.commands()]
    assert len(commands) > 40 and sum(b.lang == "python" for b in ALL) > 10
    assert "trickrules simulate euchre --agents ismcts:100,greedy --games 20" not in commands
    assert any(c.startswith("trickrules tournament spades --set single_hand=true") for c in commands)
    assert any(b.page.name == "tournaments.md" and b.lang == "python" for b in ALL)


def test_the_extractor_reads_commands_scripts_and_marks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Text.\n\n```console\n$ trickrules play hearts \\\n    --seed 2\noutput line\n$ pip install x\n```\n\n"
        "<!-- not-run: needs a cluster -->\n```sh\ntrickrules simulate kingdoms --backend ray\n```\n\n"
        "<!-- not-run: -->\n```python\nprint(1)\n```\n\n"
        "!!! note\n    ```bash\n    python -m trickrules list  # a comment\n    ```\n",
        encoding="utf-8",
    )
    console, cluster, script, indented = blocks(page)
    assert console.commands() == ["trickrules play hearts --seed 2"] and console.not_run is None
    assert cluster.not_run == "needs a cluster" and cluster.commands() == ["trickrules simulate kingdoms --backend ray"]
    assert script.lang == "python" and script.not_run == ""  # a mark without a reason: refused below
    assert indented.commands() == ["python -m trickrules list  # a comment"]


def test_every_not_run_mark_gives_a_reason_and_stands_before_a_block() -> None:
    for page in PAGES:
        text = page.read_text("utf-8")
        marks = [(text.count("\n", 0, m.start()) + 1, m["reason"].strip()) for m in NOT_RUN.finditer(text)]
        where = page.relative_to(ROOT).as_posix()
        assert all(reason for _, reason in marks), f"{where}: a not-run mark without a reason"
        assert len(marks) == sum(b.not_run is not None for b in ALL if b.page == page), f"{where}: a not-run mark before no block"
        for block in (b for b in ALL if b.page == page and b.not_run is not None):
            assert block.lang == "python" or block.commands(), f"{block.where}: a not-run mark on a block with nothing to run"


@pytest.mark.parametrize("page", RUNNABLE_PAGES, ids=[p.relative_to(ROOT).as_posix() for p in RUNNABLE_PAGES])
def test_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    _checkout(tmp_path)
    spent = 0.0
    failures = []
    for block in (b for b in ALL if b.page == page and b.not_run is None):
        if block.lang == "python":
            script = tmp_path / f"block_{block.line}.py"
            script.write_text(block.script(), encoding="utf-8")
            runs = [("python " + script.name, [str(BIN / "python"), script.name])]
        else:
            runs = [(command, ["bash", "-c", command]) for command in block.commands()]
        for shown, argv in runs:
            code, output, seconds = _run(argv, tmp_path)
            spent += seconds
            if code != 0:
                failures.append(f"{block.where}: `{shown}` exited {code}:\n{output[-1500:]}")
    _TIMES[page.relative_to(ROOT).as_posix()] = spent
    assert not failures, "\n\n".join(failures)


def test_the_runnable_blocks_stay_quick() -> None:
    """Run after the pages (file order): their total CPU time stays within the budget."""
    if len(_TIMES) < len(RUNNABLE_PAGES):
        pytest.skip("only some pages ran")
    assert sum(_TIMES.values()) < BUDGET, sorted(_TIMES.items(), key=lambda item: -item[1])[:5]
