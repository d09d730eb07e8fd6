"""Reading a rulebook examples file through the same guarded loader as specs.

An examples file is read like a spec (`trickrules.spec.source.read_document`): a size and a
nesting limit, no YAML tags, no duplicate keys, and every problem a `Problem` with a code,
a line and a column. Then its shape is checked: a mapping of `spec` and `cases`, each case a
mapping with known situation keys and an `expect` mapping of known keys. Unknown keys are
refused where they are written, with the closest known key::

    cases.examples.yaml:7:5: TR201 unknown key 'tricks', did you mean 'trick'? (at $.cases[0].tricks)

The keys themselves are the runner's (`trickrules.tools.examples`), passed in.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trickrules.errors import Problem, SpecError
from trickrules.spec.merge import kind_word
from trickrules.spec.names import did_you_mean
from trickrules.spec.source import json_path, read_document

__all__ = ["SPEC_MARKS", "TOP_KEYS", "ExamplesFile", "examples_file_of", "looks_like_spec", "read_examples_file"]

TOP_KEYS = ("spec", "cases")
"""The keys an examples file may have at its top level."""

SPEC_MARKS = frozenset({"deck", "deal"})
"""Top-level keys every spec has and no examples file may: a file with them and no `cases` is a
spec given where an examples file belongs."""


def looks_like_spec(data: object) -> bool:
    """Whether `data` (a file's top level) is a spec: a mapping with `SPEC_MARKS` and no `cases`."""
    return isinstance(data, dict) and "cases" not in data and SPEC_MARKS <= data.keys()


def examples_file_of(spec: str | os.PathLike[str]) -> Path:
    """Where a spec's examples file lives by convention: `NAME.examples.yaml` beside `NAME.yaml`."""
    path = Path(spec)
    return path.with_name(f"{path.stem}.examples{path.suffix or '.yaml'}")


PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class ExamplesFile:
    """An examples file's data, checked for shape, and where each node is."""

    file: str
    data: dict[str, Any]
    locations: Mapping[PathKey, tuple[str, int, int]]

    @property
    def cases(self) -> list[dict[str, Any]]:
        """The cases, in order."""
        cases: list[dict[str, Any]] = self.data["cases"]
        return cases

    def line(self, index: int) -> int:
        """The line where case number `index` (from 0) starts."""
        return self.locations.get(("cases", index), (self.file, 0, 0))[1]

    def spec(self) -> Path:
        """The spec the file names with its top-level `spec` key: a path relative to the file,
        inside its folder, or a shipped spec's name (TR202 when it names none, TR204 for an
        absolute path or one leading out of the file's folder, which is never read)."""
        from trickrules.spec.shipped import is_bare_name, shipped_specs

        if "spec" not in self.data:
            raise SpecError([_problem(self, "TR202", "missing required key 'spec': the spec these examples are for", ())])
        named = self.data["spec"]
        folder = Path(self.file).parent
        if isinstance(named, str) and is_bare_name(named) and not (folder / named).exists():
            shipped = {spec.name: spec.path for spec in shipped_specs()}
            if named in shipped:
                return shipped[named]
        root = os.path.realpath(folder)
        if os.path.isabs(named) or os.path.commonpath([os.path.realpath(folder / named), root]) != root:
            message = (
                f"'spec': {named} is outside the folder of this examples file; name a spec in that folder "
                "(or below it), or a shipped spec by its name"
            )
            raise SpecError([_problem(self, "TR204", message, ("spec",))])
        return folder / named


def _problem(examples: ExamplesFile, code: str, message: str, path: PathKey) -> Problem:
    file, line, column = _locate(examples.locations, examples.file, path)
    return Problem(code, message, file, line, column, json_path(path))


def _locate(locations: Mapping[PathKey, tuple[str, int, int]], file: str, path: PathKey) -> tuple[str, int, int]:
    key = tuple(path)
    while key and key not in locations:
        key = key[:-1]
    return locations.get(key, (file, 1, 1))


def read_examples_file(
    path: str | os.PathLike[str], situation_keys: Collection[str], expect_keys: Collection[str]
) -> ExamplesFile:
    """Read and check an examples file; raise SpecError listing every problem found."""
    name = os.fspath(path)
    try:
        data, locations = read_document(name)
    except SpecError as error:
        if error.code == "TR110" and "empty" in error.message:
            raise SpecError([Problem("TR110", "file is empty; an examples file is a mapping with 'spec' and 'cases'",
                                     error.file, error.line, error.column, error.path)]) from None
        raise
    examples = ExamplesFile(name, data, locations)
    problems = _shape(examples, situation_keys, expect_keys)
    if problems:
        raise SpecError(problems)
    return examples


def _unknown(examples: ExamplesFile, mapping: dict[str, Any], known: Collection[str], path: PathKey) -> list[Problem]:
    """TR201 for each key of `mapping` not in `known`, at the key, with the closest known key."""
    problems = []
    for key in mapping:
        if key not in known:
            hint = did_you_mean(key, sorted(known)).replace(";", ",", 1)
            allowed = "" if hint else f"; allowed: {', '.join(sorted(known))}"
            problems.append(_problem(examples, "TR201", f"unknown key '{key}'{hint}{allowed}", path + (key,)))
    return problems


def _wrong_type(examples: ExamplesFile, what: str, expected: str, value: Any, path: PathKey) -> Problem:
    return _problem(examples, "TR203", f"{what} should be {expected}, not {kind_word(value)}", path)


def _shape(examples: ExamplesFile, situation_keys: Collection[str], expect_keys: Collection[str]) -> list[Problem]:
    """Every problem with the file's shape: top-level keys, cases, their keys and expectations."""
    data = examples.data
    if looks_like_spec(data):
        return [_problem(examples, "TR202", "this is a spec, not an examples file: give the examples file "
                         f"(e.g. {examples_file_of(examples.file)}), or both: trickrules check SPEC EXAMPLES", ())]
    problems = _unknown(examples, data, TOP_KEYS, ())
    if "spec" in data and not isinstance(data["spec"], str):
        problems.append(_wrong_type(examples, "'spec'", "the path of a spec file", data["spec"], ("spec",)))
    if "cases" not in data:
        problems.append(_problem(examples, "TR202", "missing required key 'cases': the list of examples", ()))
        return problems
    if not isinstance(data["cases"], list):
        problems.append(_wrong_type(examples, "'cases'", "a list", data["cases"], ("cases",)))
        return problems
    for index, case in enumerate(data["cases"]):
        path: PathKey = ("cases", index)
        if not isinstance(case, dict):
            problems.append(_wrong_type(examples, f"case {index + 1}", "a mapping", case, path))
            continue
        problems += _unknown(examples, case, situation_keys, path)
        if "expect" not in case:
            problems.append(_problem(examples, "TR202", f"case {index + 1} needs 'expect': what must hold", path))
        elif not isinstance(case["expect"], dict):
            problems.append(_wrong_type(examples, "'expect'", "a mapping", case["expect"], path + ("expect",)))
        else:
            problems += _unknown(examples, case["expect"], expect_keys, path + ("expect",))
    return problems
