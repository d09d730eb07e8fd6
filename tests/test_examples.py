"""Rulebook examples as tests: every case of every examples file is its own test.

Examples files are `specs/*.examples.yaml`, and `examples/**/*.examples.yaml` and
`docs/examples/**/*.examples.yaml` when those folders exist. Each file names its spec with
the top-level `spec:` key, relative to the file. The command line `trickrules check` is
tested on the shipped kingdoms examples and on a file with a deliberately wrong expectation.
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
    assert {"kingdoms.examples.yaml", "meadows.examples.yaml"} <= names
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
