"""Rulebook examples as tests: every case of every examples file is its own test.

Examples files are `specs/*.examples.yaml`, and `examples/**/*.examples.yaml` and
`docs/examples/**/*.examples.yaml` when those folders exist. Each file names its spec with
the top-level `spec:` key, relative to the file. The command line `trickrules check` is
tested on the shipped kingdoms examples and on files with deliberately wrong expectations;
the runner's keys for a given deal and the actions from its start are tested on hearts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from trickrules.tools.cli import main
from trickrules.tools.examples import Case, load_examples, run_examples

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ("specs/*.examples.yaml", "examples/**/*.examples.yaml", "docs/examples/**/*.examples.yaml")


def _example_files() -> list[Path]:
    files: set[Path] = set()
    for pattern in PATTERNS:
        files.update(ROOT.glob(pattern))
    return sorted(files)


def _spec_of(path: Path) -> Path:
    """The spec an examples file names with its top-level `spec:` key, relative to the file."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("spec"), str):
        raise ValueError(f"{path}: needs a top-level 'spec:' naming its spec file")
    return path.parent / data["spec"]


def _params() -> list[Any]:
    """One parameter per case; a file that cannot be read becomes one failing parameter."""
    params = []
    for path in _example_files():
        rel = path.relative_to(ROOT).as_posix()
        try:
            spec = _spec_of(path)
            cases = load_examples(path)
        except Exception as error:  # reported by the test, not at collection
            params.append(pytest.param(path, None, None, f"{type(error).__name__}: {error}", id=f"{rel}: unreadable"))
            continue
        for case in cases:
            params.append(pytest.param(path, spec, case, None, id=case.name))
    return params


PARAMS = _params()


def test_examples_files_found() -> None:
    names = {p.name for p in _example_files()}
    assert {"kingdoms.examples.yaml", "meadows.examples.yaml", "hearts.examples.yaml"} <= names
    assert len(PARAMS) >= 2 * len(names)


@pytest.mark.parametrize(("path", "spec", "case", "problem"), PARAMS)
def test_example(path: Path, spec: Path | None, case: Case | None, problem: str | None) -> None:
    assert problem is None, problem
    assert spec is not None and case is not None
    assert spec.is_file(), f"{path}: spec {spec} not found"
    (result,) = run_examples(spec, [case])
    assert result.passed, result.line()


# ---------------------------------------------------------------- the command line


def test_cli_check_kingdoms(capsys: pytest.CaptureFixture[str]) -> None:
    spec = ROOT / "specs" / "kingdoms.yaml"
    examples = ROOT / "specs" / "kingdoms.examples.yaml"
    cases = load_examples(examples)
    code = main(["check", str(spec), str(examples)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0, "\n".join(lines)
    assert len(lines) == len(cases) + 1
    for line, case in zip(lines, cases):
        assert line == f"PASS  {case.name}"
    assert lines[-1] == f"{len(cases)} passed, 0 failed"


WRONG = """\
spec: {spec}
cases:
  - name: "right: red 5 led, two 8s, the first played wins"
    trick: [red-5, blue-5, green-8, yellow-8]
    expect: {{winner: green-8, winner_seat: 2}}
  - name: "wrong on purpose: a winning 3 gains 2 peasants, not 5"
    trick: [grey-3, grey-0, red-0, blue-0]
    expect:
      winner: grey-3
      rewards: [{{seat: 0, token: peasant, amount: 5}}]
"""


def test_cli_check_wrong_expectation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = ROOT / "specs" / "kingdoms.yaml"
    examples = tmp_path / "wrong.examples.yaml"
    examples.write_text(WRONG.format(spec=spec.as_posix()), encoding="utf-8")
    code = main(["check", str(spec), str(examples)])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert code == 1, out
    assert len(lines) == 3, out
    assert lines[0].startswith("PASS  right:")
    assert lines[1].startswith("FAIL  wrong on purpose:")
    expected = "[{'seat': 0, 'token': 'peasant', 'amount': 5}]"
    actual = "[{'seat': 0, 'token': 'peasant', 'amount': 2}]"
    assert f"expected {expected}, got {actual}" in lines[1]
    assert lines[2] == "1 passed, 1 failed"


# ---------------------------------------------------------------- given deals and actions (hearts)

HEARTS = ROOT / "specs" / "hearts.yaml"
SUITS_DEAL = {
    "hands": [[f"{suit}-{rank}" for rank in [*map(str, range(2, 11)), "J", "Q", "K", "A"]]
              for suit in ("clubs", "diamonds", "hearts", "spades")],
    "pass": "none",
}  # fmt: skip


def _run_hearts(data: dict[str, Any]) -> Any:
    (result,) = run_examples(HEARTS, [Case("case", data)])
    return result


def test_hearts_wrong_expectations_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong expectation of each new kind fails, and says what happened instead."""
    wrong = {
        "legal": ({"trick_number": 2, "hand": ["hearts-A", "clubs-9"]}, ["hearts-A", "clubs-9"], "got ['clubs-9']"),
        "counters": ({"trick_number": 2, "trick": ["spades-2", "spades-Q", "spades-3", "spades-4"]},
                     {"broken": 0}, "got {'broken': 1}"),
        "current_player": ({"deal": SUITS_DEAL, "actions": ["play clubs-2"]}, 2, "got 1"),
        "phase": ({"deal": {**SUITS_DEAL, "pass": "left"}}, "play", "got 'pass'"),
        "hands": ({"deal": {**SUITS_DEAL, "pass": "left"}, "actions": ["pass clubs-2"]},
                  {1: ["clubs-2"]}, "hand of seat 1: expected ['clubs-2']"),
        "terminal": ({"deal": SUITS_DEAL, "actions": ["play clubs-2"]}, True, "got False"),
    }  # fmt: skip
    for key, (situation, expected, message) in wrong.items():
        result = _run_hearts({**situation, "expect": {key: expected}})
        assert not result.passed and result.error is None, (key, result.line())
        assert message in result.line(), (key, result.line())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"deal": SUITS_DEAL, "trick": ["clubs-2"]}, "'deal' cannot be combined with trick"),
        ({"actions": ["play clubs-2"], "hand": ["clubs-2"]}, "'actions' needs a given 'deal'"),
        ({"deal": SUITS_DEAL, "actions": ["play clubs-3"]}, "action 1 (play clubs-3) is not legal now for seat 0; legal: play clubs-2"),
        ({"deal": SUITS_DEAL, "actions": ["hop"]}, "action 1: not an action of this game"),
        ({"deal": {"hands": [["clubs-2"]]}}, "DealError"),
        ({"trick_number": 14, "hand": ["clubs-2"]}, "trick_number 14"),
        ({"round": 0, "hand": ["clubs-2"]}, "round 0"),
        ({"counters": {"brokn": 1}, "hand": ["clubs-2"]}, "no counter 'brokn'"),
        ({"trick": ["clubs-2"], "expect": {"winner": "clubs-2"}}, "only after a complete 'trick'"),
        ({"expect": {"legal": ["clubs-2"]}}, "'legal' needs a 'hand'"),
        ({"deal": SUITS_DEAL, "expect": {"round_points": [0, 0, 0, 0]}}, "no round has ended"),
        ({"deals": [{"won": {0: ["spades-Q"] + [f"hearts-{r}" for r in [*map(str, range(2, 11)), "J", "Q", "K"]]}}] * 5},
         "deal 5: the game is already over after 4 deal(s)"),
    ],
)  # fmt: skip
def test_cases_that_cannot_be_set_up(data: dict[str, Any], message: str) -> None:
    result = _run_hearts({"expect": {"terminal": False}, **data})
    assert result.error is not None and message in result.error, result.line()


def test_actions_play_a_whole_hand() -> None:
    """52 plays from a given deal finish the hand; the round's score is the engine's own."""
    ranks = [*map(str, range(2, 11)), "J", "Q", "K", "A"]
    actions = [[f"play {suit}-{rank}" for suit in ("clubs", "diamonds", "hearts", "spades")] for rank in ranks]
    expect = {"round_points": [0, 26, 26, 26], "measures": {0: {"penalty": 26}}, "terminal": True, "winners": [0]}
    result = _run_hearts({"options": {"single_hand": True}, "deal": SUITS_DEAL, "actions": actions, "expect": expect})
    assert result.passed, result.line()
