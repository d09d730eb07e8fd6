"""The wording of every problem the broken specs raise, pinned in tests/broken/messages.txt.

test_loader checks each broken spec's first code and position; this test checks every
problem's whole text, so a changed hint, a lost suggestion ("did you mean ...?") or a wrong
path in a message fails here. After changing a message on purpose, regenerate the file with
``python tests/test_messages.py`` and read its diff.
"""

from __future__ import annotations

import pytest
import sys
from pathlib import Path

from trickrules.errors import Problem, SpecError
from trickrules.spec.checks import load_spec, spec_warnings

pytestmark = pytest.mark.not_compiled  # problems come from the loader and the checks, which are never compiled

TESTS = Path(__file__).parent
BROKEN = sorted((TESTS / "broken").glob("*.yaml"))
MESSAGES = TESTS / "broken" / "messages.txt"


def _problems(path: Path) -> list[Problem]:
    try:
        source = load_spec(path, every_count=True)  # compiled for every allowed player count
    except SpecError as error:
        return list(error.problems)
    return spec_warnings(source)


def render() -> str:
    """Every broken spec's problems, one block per file, paths relative to the repository."""
    blocks = []
    for path in BROKEN:
        lines = [f"== {path.name}"]
        for problem in _problems(path):
            kind = "warning: " if problem.is_warning else ""
            lines.append(
                f"{Path(problem.file).name}:{problem.line}:{problem.column}: {problem.code} {kind}"
                f"{problem.message} (at {problem.path})".replace(str(TESTS), "tests")
            )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def test_messages_are_as_pinned() -> None:
    expected = MESSAGES.read_text("utf-8").split("\n\n")
    actual = render().split("\n\n")
    assert len(actual) == len(expected), "a broken spec was added or removed: regenerate messages.txt"
    for got, want in zip(actual, expected):
        assert got == want


if __name__ == "__main__":
    MESSAGES.write_text(render(), "utf-8")
    print(f"wrote {MESSAGES} ({len(BROKEN)} specs)", file=sys.stderr)
