"""Check a spec against the JSON Schema and the cross-references the schema cannot see.

    >>> try:
    ...     load_spec_text("id: demo\\n", "demo.yaml")
    ... except SpecError as error:
    ...     print(error.problems[0])
    demo.yaml:1:1: TR202 missing required key 'title' (at $)

Every problem is reported, best first, each at the line and column of the YAML node it is
about. Schema problems come first; the checks of meaning (undefined suits, options, ...)
run once the schema passes, so they can trust the shape of the data.

Loading (`load_spec`) stops short of compiling: the loader compiles a spec once, for the
player count it is loaded for, and that compile reports its own problems. What a spec must
also do to validate, compile for every allowed player count with every option value, is
checked by `option_problems` (what `trickrules validate` reports) and by `check_spec`.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import os
import pathlib
from importlib import resources
from typing import Any, Callable, Iterator, Sequence

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

from trickrules.errors import Problem, SpecError
from trickrules.rules.ruleset import Ruleset
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.compile_checks import option_problems, player_problems, sorted_problems
from trickrules.spec.contracts import contract_sources
from trickrules.spec.dead_rules import dead_rule_warnings
from trickrules.spec.limits import limit_problems
from trickrules.spec.ranges import range_problems
from trickrules.spec.meaning import Meaning, NodePath, is_integer, kind_of, subject
from trickrules.spec.source import SpecSource, json_path, read_spec, read_spec_text

__all__ = ["check_spec", "load_spec", "load_spec_text", "option_problems", "player_problems", "spec_schema", "spec_warnings"]

SchemaError = Any
"""A jsonschema ValidationError. Its fields (schema, validator_value, ...) hold plain JSON
values here; the library's type stubs widen them with an `Unset` marker, so they are read
as untyped values."""

_NAME_HINT = "use lower-case letters, digits and '_', starting with a letter"


# --- the schema -------------------------------------------------------------------


@functools.cache
def _schema_text() -> str:
    """Return the shipped schema file's text."""
    try:
        schema_file = resources.files("trickrules").joinpath("schema", "spec.schema.json")
    except NotADirectoryError:
        # Python 3.11 cannot read resources of an editable namespace package.
        return (pathlib.Path(__file__).parent / "schema" / "spec.schema.json").read_text("utf-8")
    return schema_file.read_text("utf-8")


def spec_schema() -> dict[str, Any]:
    """Return the shipped JSON Schema of specs (a fresh copy of the cached one)."""
    return copy.deepcopy(_parsed_schema())


@functools.cache
def _parsed_schema() -> dict[str, Any]:
    """Return the parsed schema, shared: never hand it out to callers."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema


_SpecValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer),
)


@functools.cache
def _validator() -> Any:
    """Return the schema validator, built once."""
    return _SpecValidator(_parsed_schema())


# --- loading ----------------------------------------------------------------------


def load_spec(path: str | os.PathLike[str], *, every_count: bool = False) -> SpecSource:
    """Read and check a spec file (or a shipped spec, by its name); raise SpecError listing
    every problem found. The spec is not compiled here (see the module's docstring), unless
    `every_count`: then it is, as `check_spec` does, for every allowed player count."""
    from trickrules.spec.shipped import resolve_spec

    return _checked(read_spec(resolve_spec(path)), every_count)


def load_spec_text(text: str, file: str = "<string>", *, every_count: bool = False) -> SpecSource:
    """Read and check a spec given as text; raise SpecError listing every problem found
    (`every_count` as for `load_spec`)."""
    return _checked(read_spec_text(text, file), every_count)


def _checked(source: SpecSource, every_count: bool) -> SpecSource:
    """Return the source if it has no problems, else raise SpecError."""
    problems = check_spec(source) if every_count else _source_problems(source)
    if problems:
        raise SpecError(problems)
    return source


def check_spec(source: SpecSource) -> list[Problem]:
    """Return every problem of a spec, best first: schema problems, then meaning, then what
    compiling it for every allowed player count (options at their defaults) finds."""
    problems = _source_problems(source)
    if not problems:
        problems = player_problems(source)
    return problems


def _source_problems(source: SpecSource) -> list[Problem]:
    """The problems of a spec that show without compiling it: schema, meaning (of the spec
    and of each contract merged over it), ranges and limits, each stage once the one before
    it passes."""
    problems = _schema_problems(source)
    if not problems:
        problems = Meaning(source).problems()
    if not problems:  # each contract merged over the spec must make sense too
        for _, contract in contract_sources(source):
            problems += Meaning(contract).problems()
    if not problems:
        problems = range_problems(source) + limit_problems(source)
    return sorted_problems(problems)


def spec_warnings(source: SpecSource, ruleset: Ruleset | None = None) -> list[Problem]:
    """The warnings of a spec that loads (TR5xx): rules it states that can never apply, such
    as a reward no card can trigger. `ruleset` is the spec compiled with its defaults."""
    return dead_rule_warnings(source, ruleset if ruleset is not None else compile_ruleset(source))


# --- schema errors to problems ----------------------------------------------------


def _schema_problems(source: SpecSource) -> list[Problem]:
    """Return one problem per schema error, each at the YAML node it is about; the value of
    each case of ``{option: NAME, cases: ...}`` is checked as if it stood in its place."""
    report = _Reporter(source)
    for error in _validator().iter_errors(source.data):
        report.explain(error)
    if report.problems:
        return report.problems
    for path, place, case, value in _cases(source.data, (), ()):
        for error in _validator().iter_errors(_with_case(source.data, path, value)):
            if tuple(error.absolute_path)[: len(place)] == place:
                report.moved = (place, (*path, "cases", case))
                report.explain(error)
                report.moved = None
    return report.problems


def _is_cases(node: Any) -> bool:
    return isinstance(node, dict) and set(node) == {"option", "cases"} and isinstance(node["cases"], dict)


def _cases(node: Any, path: NodePath, place: NodePath) -> Iterator[tuple[NodePath, NodePath, str, Any]]:
    """(where, where it stands, case, value) for every case of every ``{option: NAME, cases: ...}``,
    nested ones too; where a node stands is its path once each enclosing case is put in its
    option's place."""
    if _is_cases(node):
        for case, value in node["cases"].items():
            yield path, place, case, value
            yield from _cases(value, (*path, "cases", case), place)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _cases(value, (*path, key), (*place, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _cases(value, (*path, index), (*place, index))


def _with_case(node: Any, path: NodePath, value: Any) -> Any:
    """A copy of `node` with the node at `path` replaced by `value`, each enclosing case put in
    its option's place (the copy shares what it does not change)."""
    if not path:
        return value
    if _is_cases(node) and path[0] == "cases":
        return _with_case(node["cases"][path[1]], path[2:], value)
    if isinstance(node, dict):
        return {**node, path[0]: _with_case(node[path[0]], path[1:], value)}
    copy = list(node)
    copy[path[0]] = _with_case(node[path[0]], path[1:], value)  # type: ignore[index]
    return copy


class _Reporter:
    """Turns jsonschema errors into problems with codes, short messages and places."""

    def __init__(self, source: SpecSource) -> None:
        """Start with no problems."""
        self.source = source
        self.problems: list[Problem] = []
        self.moved: tuple[NodePath, NodePath] | None = None  # (where a case stands, where it is)

    def add(self, code: str, message: str, path: NodePath) -> None:
        """Record a problem at the node of a path; a wrong type that an overlay brought names
        the parent's line."""
        file, line, column = self.source.locate(path)
        if code == "TR203":
            message += _overlay_note(self.source, path)
        self.problems.append(Problem(code, message, file, line, column, json_path(path)))

    def explain(self, error: SchemaError) -> None:
        """Record the problem(s) one schema error stands for."""
        path = tuple(error.absolute_path)
        if self.moved is not None:  # the error is in a copy with a case put in its option's place
            place, case = self.moved
            path = (*case, *path[len(place):])
        if "propertyNames" in error.absolute_schema_path:
            self.add("TR204", _bad_name(error), path + (error.instance,))
        elif "dependentSchemas" in error.absolute_schema_path:
            self.add("TR204", error.schema.get("description", error.message), path)
        elif error.validator in ("anyOf", "oneOf"):
            self.alternatives(error, path)
        else:
            _EXPLAIN.get(str(error.validator), _explain_value)(self, error, path)

    def alternatives(self, error: SchemaError, path: NodePath) -> None:
        """Explain an anyOf/oneOf failure by the alternative the value was meant to be."""
        branches = [_resolve(branch) for branch in error.validator_value]
        fitting = [index for index, branch in enumerate(branches) if _fits(branch, error.instance)]
        if not fitting:
            expected = _or_list([_expected(branch) for branch in branches])
            self.add("TR203", f"{subject(path)} should be {expected}, not {kind_of(error.instance)}", path)
            return
        chosen = _chosen_branch(branches, fitting, error.instance)
        if isinstance(error.instance, dict) and self.unknown_keys(branches, fitting, error.instance, path):
            return
        if chosen is None and all(set(branches[index]) == {"required"} for index in fitting):
            if not isinstance(error.instance, dict):  # its type is the problem, reported on its own
                return
            keys = [branch["required"][0] for branch in branches]
            names = _or_list([f"'{key}'" for key in keys])
            given = [key for key in keys if key in error.instance]
            if len(given) > 1:  # oneOf: more than one alternative holds
                self.add("TR204", f"has {' and '.join(map(repr, given))}; give only one of {names}", path)
            else:
                self.add("TR202", f"missing required key: {names}", path)
            return
        if chosen is not None:
            for sub in error.context:
                if sub.relative_schema_path[0] == chosen:
                    self.explain(sub)
            return
        best = best_match(error.context)
        if best is None:
            self.add("TR204", error.message, path)
        else:
            self.explain(best)

    def unknown_keys(self, branches: list[dict[str, Any]], fitting: list[int], instance: dict[str, Any],
                     path: NodePath) -> bool:
        """Report keys no alternative knows; return whether there were any."""
        shapes = [branches[index] for index in fitting if "properties" in branches[index]]
        if not shapes or any(shape.get("additionalProperties", True) is not False for shape in shapes):
            return False
        allowed = sorted({key for shape in shapes for key in shape["properties"]})
        unknown = [key for key in instance if key not in allowed]
        for key in unknown:
            self.add("TR201", _unknown_key(key, allowed), path + (key,))
        return bool(unknown)


def _overlay_note(source: SpecSource, path: NodePath) -> str:
    """"; the overlay replaces a mapping set at FILE:LINE:COL" when an overlay put a value of
    another kind than its parent's at `path` (or above it), else ""."""
    for end in range(len(path), 0, -1):
        change = source.kind_changes.get(tuple(path[:end]))
        if change is not None:
            (file, line, column), kind = change
            return f"; the overlay replaces {kind} that its parent sets at {file}:{line}:{column}"
    return ""


def _explain_additional(report: _Reporter, error: SchemaError, path: NodePath) -> None:
    """Report every unknown key of a mapping, each at the key."""
    allowed = sorted(error.schema.get("properties", {}))
    for key in error.instance:
        if key not in allowed:
            report.add("TR201", _unknown_key(key, allowed), path + (key,))


def _explain_required(report: _Reporter, error: SchemaError, path: NodePath) -> None:
    """Report every missing required key, at the mapping that lacks it."""
    for key in error.validator_value:
        if key not in error.instance:
            report.add("TR202", f"missing required key '{key}'", path)


def _explain_type(report: _Reporter, error: SchemaError, path: NodePath) -> None:
    """Report a value of the wrong type."""
    expected = _expected(error.schema)
    report.add("TR203", f"{subject(path)} should be {expected}, not {kind_of(error.instance)}", path)


def _explain_value(report: _Reporter, error: SchemaError, path: NodePath) -> None:
    """Report an invalid value, in words that name the key and the value."""
    words = _VALUE_MESSAGES.get(str(error.validator))
    message = words(error) if words else error.message
    report.add("TR204", f"{subject(path)}: {message}", path)


def _explain_unique(report: _Reporter, error: SchemaError, path: NodePath) -> None:
    """Report the first repeated item of a list, at the repeat."""
    seen: list[Any] = []
    for index, item in enumerate(error.instance):
        if item in seen:
            report.add("TR204", f"{subject(path)}: {item!r} appears more than once", path + (index,))
            return
        seen.append(item)


_EXPLAIN: dict[str, Callable[[_Reporter, SchemaError, NodePath], None]] = {
    "additionalProperties": _explain_additional,
    "required": _explain_required,
    "type": _explain_type,
    "uniqueItems": _explain_unique,
}


def _one_key(error: SchemaError) -> str:
    """Explain a size limit on a mapping."""
    low, high = error.schema.get("minProperties", 0), error.schema.get("maxProperties")
    if high == 0:
        return "takes no parameters; use an empty mapping {}"
    if low == high == 1:
        return f"must have exactly one key, not {len(error.instance)}"
    return "must not be an empty mapping"


_VALUE_MESSAGES: dict[str, Callable[[SchemaError], str]] = {
    "enum": lambda e: f"{e.instance!r} is not allowed; expected {_or_list([repr(v) for v in e.validator_value])}"
    + _close_hint(e.instance, e.validator_value),
    "const": lambda e: f"expected {e.validator_value!r}, not {e.instance!r}",
    "minimum": lambda e: f"{e.instance} is too small; the minimum is {e.validator_value}",
    "maximum": lambda e: f"{e.instance} is too large; the maximum is {e.validator_value}",
    "minItems": lambda e: "must not be an empty list" if e.validator_value == 1
    else f"needs at least {e.validator_value} items",
    "minLength": lambda e: "must not be empty",
    "minProperties": _one_key,
    "maxProperties": _one_key,
    "pattern": lambda e: f"{e.instance!r} is not allowed: {pattern_words(str(e.validator_value))}",
    "not": lambda e: e.schema.get("description", "not allowed here"),
}


def _bad_name(error: SchemaError) -> str:
    """Explain a mapping key that is not a valid name or number."""
    if error.validator == "pattern" and "0-9]+" in str(error.validator_value):
        return f"key {error.instance!r} must be a whole number"
    if error.validator == "pattern":
        return f"invalid name {error.instance!r}: {pattern_words(str(error.validator_value))}"
    return f"invalid name {error.instance!r}: {_NAME_HINT}"


_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": _NAME_HINT,
    "^[a-z][a-z0-9_-]*$": "use lower-case letters, digits, '_' and '-', starting with a letter",
    "^[A-Za-z0-9][A-Za-z0-9_/-]*(#[0-9]+)?$": "use letters, digits, '_', '/' and '-', starting with a letter or digit "
    "(and #N at the end for a copy)",
    "^-?[0-9]+$": "write a whole number",
    "^[0-9]+$": "write a whole number, 0 or more",
    "^[A-Za-z][A-Za-z0-9_]*$": "use letters, digits and '_', starting with a letter (as a strain's name in a bid: C, NT)",
}


def pattern_words(pattern: str) -> str:
    """A schema pattern in words: designers never see a regular expression."""
    return _PATTERN_WORDS.get(pattern, "it is not written in the form this key takes (see the spec reference)")


def _unknown_key(key: str, allowed: Sequence[str]) -> str:
    """Say a key is unknown, with the closest allowed key if there is one."""
    close = difflib.get_close_matches(key, allowed, n=1)
    if close:
        return f"unknown key '{key}', did you mean '{close[0]}'?"
    return f"unknown key '{key}'; allowed: {', '.join(allowed)}"


def _close_hint(value: object, choices: Sequence[object]) -> str:
    """Return ", did you mean 'x'?" for a near miss among text choices, else ""."""
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [str(choice) for choice in choices], n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


_TYPE_WORDS = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean",
               "array": "a list", "object": "a mapping", "null": "null"}


def _expected(schema: dict[str, Any]) -> str:
    """Describe what a schema accepts, in words."""
    schema = _resolve(schema)
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema:
        return _or_list([repr(value) for value in schema["enum"]])
    types = schema.get("type", [])
    if not types and "anyOf" in schema:
        return _or_list([_expected(branch) for branch in schema["anyOf"]])
    return _or_list([_TYPE_WORDS[name] for name in ([types] if isinstance(types, str) else types)])


def _or_list(words: Sequence[str]) -> str:
    """Join words as 'a, b or c', without repeats."""
    unique = list(dict.fromkeys(word for word in words if word))
    if not unique:
        return "something else"
    return unique[0] if len(unique) == 1 else f"{', '.join(unique[:-1])} or {unique[-1]}"


def _resolve(schema: Any) -> dict[str, Any]:
    """Follow a local $ref (keeping sibling keywords); the schema's refs are all local."""
    if not isinstance(schema, dict):
        return {}
    if "$ref" not in schema:
        return schema
    target: Any = _parsed_schema()
    for step in schema["$ref"].removeprefix("#/").split("/"):
        target = target[step]
    siblings = {key: value for key, value in schema.items() if key != "$ref"}
    return {**_resolve(target), **siblings}


_PYTHON_TYPES: dict[str, Callable[[object], bool]] = {
    "integer": lambda value: is_integer(None, value),
    "number": lambda value: isinstance(value, (int, float)) and not isinstance(value, bool),
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "array": lambda value: isinstance(value, list),
    "object": lambda value: isinstance(value, dict),
    "null": lambda value: value is None,
}


def _fits(schema: dict[str, Any], value: object) -> bool:
    """Return whether a value has a type the schema could accept."""
    if "type" in schema:
        types = schema["type"]
        return any(_PYTHON_TYPES[name](value) for name in ([types] if isinstance(types, str) else types))
    if "const" in schema:
        return type(schema["const"]) is type(value)
    if "enum" in schema:
        return any(type(choice) is type(value) for choice in schema["enum"])
    if "anyOf" in schema:
        return any(_fits(_resolve(branch), value) for branch in schema["anyOf"])
    return True


def _chosen_branch(branches: list[dict[str, Any]], fitting: list[int], value: object) -> int | None:
    """Return the one alternative the value was clearly meant to be, if there is one."""
    if len(fitting) == 1:
        return fitting[0]
    if not isinstance(value, dict):
        return None
    scores = {index: len(set(branches[index].get("required", ())) & set(value)) for index in fitting}
    best = max(scores.values())
    winners = [index for index, score in scores.items() if score == best]
    return winners[0] if best > 0 and len(winners) == 1 else None
