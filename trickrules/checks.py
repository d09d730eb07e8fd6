"""Check a spec against the JSON Schema and the cross-references the schema cannot see.

    >>> try:
    ...     load_spec_text("id: demo\\n", "demo.yaml")
    ... except SpecError as error:
    ...     print(error.problems[0])
    demo.yaml:1:1: TR202 missing required key 'title' (at $)

Every problem is reported, best first, each at the line and column of the YAML node it is
about. Schema problems come first; the checks of meaning (undefined suits, options, ...)
run once the schema passes, so they can trust the shape of the data.
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
from jsonschema.exceptions import ValidationError, best_match

from trickrules.errors import Problem, SpecError
from trickrules.source import SpecSource, json_path, read_spec, read_spec_text

__all__ = ["check_spec", "load_spec", "load_spec_text", "spec_schema"]

NodePath = tuple[str | int, ...]
BUILTIN_MEASURES = {"tricks": {"count": "tricks"}, "cards": {"count": "cards"}}
MAX_RANKS = 1000
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


def _is_integer(checker: object, instance: object) -> bool:
    """YAML tells 1 from 1.0, so unlike JSON Schema a float is never an integer."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_SpecValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)


@functools.cache
def _validator() -> Any:
    """Return the schema validator, built once."""
    return _SpecValidator(_parsed_schema())


# --- loading ----------------------------------------------------------------------


def load_spec(path: str | os.PathLike[str]) -> SpecSource:
    """Read and check a spec file; raise SpecError listing every problem found."""
    return _checked(read_spec(path))


def load_spec_text(text: str, file: str = "<string>") -> SpecSource:
    """Read and check a spec given as text; raise SpecError listing every problem found."""
    return _checked(read_spec_text(text, file))


def _checked(source: SpecSource) -> SpecSource:
    """Return the source if it has no problems, else raise SpecError."""
    problems = check_spec(source)
    if problems:
        raise SpecError(problems)
    return source


def check_spec(source: SpecSource) -> list[Problem]:
    """Return every problem of a spec, best first: schema problems, then meaning."""
    problems = _schema_problems(source)
    if not problems:
        problems = _Meaning(source).problems()
    return sorted(_unique(problems), key=lambda problem: (problem.file, problem.line, problem.column))


def _unique(problems: Sequence[Problem]) -> list[Problem]:
    """Return the problems without repeats, in order."""
    return list(dict.fromkeys(problems))


# --- schema errors to problems ----------------------------------------------------


def _schema_problems(source: SpecSource) -> list[Problem]:
    """Return one problem per schema error, each at the YAML node it is about."""
    report = _Reporter(source)
    for error in _validator().iter_errors(source.data):
        report.explain(error)
    return report.problems


class _Reporter:
    """Turns jsonschema errors into problems with codes, short messages and places."""

    def __init__(self, source: SpecSource) -> None:
        """Start with no problems."""
        self.source = source
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, path: NodePath) -> None:
        """Record a problem at the node of a path."""
        file, line, column = self.source.locate(path)
        self.problems.append(Problem(code, message, file, line, column, json_path(path)))

    def explain(self, error: ValidationError) -> None:
        """Record the problem(s) one schema error stands for."""
        path = tuple(error.absolute_path)
        if "propertyNames" in error.absolute_schema_path:
            self.add("TR204", _bad_name(error), path + (error.instance,))
        elif "dependentSchemas" in error.absolute_schema_path:
            self.add("TR204", error.schema.get("description", error.message), path)
        elif error.validator in ("anyOf", "oneOf"):
            self.alternatives(error, path)
        else:
            _EXPLAIN.get(str(error.validator), _explain_value)(self, error, path)

    def alternatives(self, error: ValidationError, path: NodePath) -> None:
        """Explain an anyOf/oneOf failure by the alternative the value was meant to be."""
        branches = [_resolve(branch) for branch in error.validator_value]
        fitting = [index for index, branch in enumerate(branches) if _fits(branch, error.instance)]
        if not fitting:
            expected = _or_list([_expected(branch) for branch in branches])
            self.add("TR203", f"{_subject(path)} should be {expected}, not {_kind(error.instance)}", path)
            return
        chosen = _chosen_branch(branches, fitting, error.instance)
        if isinstance(error.instance, dict) and self.unknown_keys(branches, fitting, error.instance, path):
            return
        if chosen is None and all(set(branches[index]) == {"required"} for index in fitting):
            names = _or_list([f"'{branch['required'][0]}'" for branch in branches])
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


def _explain_additional(report: _Reporter, error: ValidationError, path: NodePath) -> None:
    """Report every unknown key of a mapping, each at the key."""
    allowed = sorted(error.schema.get("properties", {}))
    for key in error.instance:
        if key not in allowed:
            report.add("TR201", _unknown_key(key, allowed), path + (key,))


def _explain_required(report: _Reporter, error: ValidationError, path: NodePath) -> None:
    """Report every missing required key, at the mapping that lacks it."""
    for key in error.validator_value:
        if key not in error.instance:
            report.add("TR202", f"missing required key '{key}'", path)


def _explain_type(report: _Reporter, error: ValidationError, path: NodePath) -> None:
    """Report a value of the wrong type."""
    expected = _expected(error.schema)
    report.add("TR203", f"{_subject(path)} should be {expected}, not {_kind(error.instance)}", path)


def _explain_value(report: _Reporter, error: ValidationError, path: NodePath) -> None:
    """Report an invalid value, in words that name the key and the value."""
    words = _VALUE_MESSAGES.get(str(error.validator))
    message = words(error) if words else error.message
    report.add("TR204", f"{_subject(path)}: {message}", path)


def _explain_unique(report: _Reporter, error: ValidationError, path: NodePath) -> None:
    """Report the first repeated item of a list, at the repeat."""
    seen: list[Any] = []
    for index, item in enumerate(error.instance):
        if item in seen:
            report.add("TR204", f"{_subject(path)}: {item!r} appears more than once", path + (index,))
            return
        seen.append(item)


_EXPLAIN: dict[str, Callable[[_Reporter, ValidationError, NodePath], None]] = {
    "additionalProperties": _explain_additional,
    "required": _explain_required,
    "type": _explain_type,
    "uniqueItems": _explain_unique,
}


def _one_key(error: ValidationError) -> str:
    """Explain a size limit on a mapping."""
    low, high = error.schema.get("minProperties", 0), error.schema.get("maxProperties")
    if high == 0:
        return "takes no parameters; use an empty mapping {}"
    if low == high == 1:
        return f"must have exactly one key, not {len(error.instance)}"
    return "must not be an empty mapping"


_VALUE_MESSAGES: dict[str, Callable[[ValidationError], str]] = {
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
    "pattern": lambda e: f"{e.instance!r} does not match {e.validator_value}",
    "not": lambda e: e.schema.get("description", "not allowed here"),
}


def _bad_name(error: ValidationError) -> str:
    """Explain a mapping key that is not a valid name or number."""
    if error.validator == "pattern" and "0-9]+" in str(error.validator_value):
        return f"key {error.instance!r} must be a whole number"
    return f"invalid name {error.instance!r}: {_NAME_HINT}"


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


def _subject(path: NodePath) -> str:
    """Name the value at a path in a message: its key, or its index in a list."""
    if not path:
        return "the spec"
    last = path[-1]
    if isinstance(last, int):
        return f"item {last} of {_subject(path[:-1])}"
    return f"'{last}'"


def _kind(value: object) -> str:
    """Return the plain-English type of a value, with the value when short."""
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a mapping"}
    name = names.get(type(value), type(value).__name__)
    shown = repr(value)
    return f"{name} ({shown})" if isinstance(value, (bool, int, float, str)) and len(shown) <= 30 else name


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
    "integer": lambda value: _is_integer(None, value),
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


# --- meaning ----------------------------------------------------------------------


def _walk_condition(condition: Any, path: NodePath) -> Iterator[tuple[dict[str, Any], NodePath]]:
    """Yield a condition and every condition nested in it (not, all, any, winner)."""
    if not isinstance(condition, dict):
        return
    yield condition, path
    for key in ("not", "winner"):
        yield from _walk_condition(condition.get(key), path + (key,))
    for key in ("all", "any"):
        for index, part in enumerate(condition.get(key) or ()):
            yield from _walk_condition(part, path + (key, index))


def _as_list(value: Any) -> list[Any]:
    """Return a value as a list (a single value becomes a one-item list)."""
    return value if isinstance(value, list) else [value]


def _option_name(value: Any) -> str | None:
    """Return the option an {option: NAME} reference names, or None for other values."""
    if isinstance(value, dict) and set(value) == {"option"} and isinstance(value["option"], str):
        return value["option"]
    return None


class _Meaning:
    """The checks of meaning, run on data that already fits the schema."""

    def __init__(self, source: SpecSource) -> None:
        """Gather the names the spec declares."""
        self.source = source
        self.data = source.data
        self.found: list[Problem] = []
        deck = self.data["deck"]
        self.suits: list[str] = deck["suits"]
        self.attributes = set(deck.get("attributes", {}))
        self.options: dict[str, Any] = self.data.get("options", {})
        self.tokens: dict[str, Any] = self.data.get("tokens", {})
        self.measures = set(BUILTIN_MEASURES) | set(self.data["scoring"].get("measures", {}))

    def problems(self) -> list[Problem]:
        """Run every check; return the problems found."""
        for check in _CHECKS:
            check(self)
        return self.found

    def add(self, code: str, message: str, path: NodePath) -> None:
        """Record a problem at the node of a path."""
        file, line, column = self.source.locate(path)
        self.found.append(Problem(code, message, file, line, column, json_path(path)))

    def suit(self, name: Any, path: NodePath) -> None:
        """Report a suit name that deck.suits does not declare."""
        if name not in self.suits:
            self.add("TR301", f"undefined suit '{name}'; deck.suits has {', '.join(self.suits)}", path)

    def attribute(self, name: Any, path: NodePath) -> None:
        """Report an attribute name that deck.attributes does not declare."""
        if name not in self.attributes:
            declared = ", ".join(sorted(self.attributes)) or "none"
            self.add("TR302", f"undefined attribute '{name}'; deck.attributes has {declared}", path)

    def token(self, name: Any, path: NodePath) -> None:
        """Report a token kind that tokens does not declare."""
        if name not in self.tokens:
            declared = ", ".join(sorted(self.tokens)) or "none"
            self.add("TR308", f"undefined token kind '{name}'; tokens has {declared}", path)

    def measure(self, name: Any, path: NodePath) -> None:
        """Report a measure that is neither built in nor declared."""
        if name not in self.measures:
            self.add("TR309", f"undefined measure '{name}'; known: {', '.join(sorted(self.measures))}", path)

    def player_counts(self) -> list[int]:
        """Return the allowed player counts."""
        return sorted(self.data["players"])

    def conditions(self) -> Iterator[tuple[dict[str, Any], NodePath]]:
        """Yield every card condition in rewards and ranking, nested ones included."""
        for index, reward in enumerate(self.data.get("rewards", ())):
            yield from _walk_condition(reward.get("when"), ("rewards", index, "when"))
        for index, step in enumerate(self.data["ranking"]):
            if isinstance(step, dict):
                yield from _walk_condition(step.get("prefer"), ("ranking", index, "prefer"))


def _check_names(spec: _Meaning) -> None:
    """Suits, section names and reward names are each unique; built-in measures stay."""
    _unique_names(spec, spec.suits, ("deck", "suits"), "suit")
    sections = spec.data.get("tableau", {}).get("sections", [])
    _unique_names(spec, [section["name"] for section in sections], ("tableau", "sections"), "section", "name")
    rewards = [reward["name"] for reward in spec.data.get("rewards", [])]
    _unique_names(spec, rewards, ("rewards",), "reward name", "name")
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if name in BUILTIN_MEASURES and measure != BUILTIN_MEASURES[name]:
            message = f"duplicate name: '{name}' is a built-in measure and may not be redeclared"
            spec.add("TR311", message, ("scoring", "measures", name))


def _unique_names(spec: _Meaning, names: list[str], path: NodePath, what: str, key: str | None = None) -> None:
    """Report each repeated name at its repeat."""
    for index, name in enumerate(names):
        if name in names[:index]:
            where = path + (index, key) if key else path + (index,)
            spec.add("TR311", f"duplicate {what} '{name}'", where)


def _check_options(spec: _Meaning) -> None:
    """Every option's default fits its type, within its min and max."""
    for name, option in spec.options.items():
        path = ("options", name)
        low, high = option.get("min"), option.get("max")
        if low is not None and high is not None and low > high:
            spec.add("TR204", f"option '{name}': min {low} is greater than max {high}", path + ("min",))
        _OPTION_DEFAULTS[option["type"]](spec, option, path + ("default",))


def _integer_default(spec: _Meaning, option: dict[str, Any], path: NodePath) -> None:
    """An integer option's default is an integer between min and max."""
    value = option["default"]
    if not _is_integer(None, value):
        spec.add("TR307", f"default should be an integer, not {_kind(value)}", path)
    elif not option.get("min", value) <= value <= option.get("max", value):
        low, high = option.get("min", "..."), option.get("max", "...")
        spec.add("TR307", f"default {value} is outside the range {low} to {high}", path)


def _boolean_default(spec: _Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A boolean option's default is true or false."""
    if not isinstance(option["default"], bool):
        spec.add("TR307", f"default should be true or false, not {_kind(option['default'])}", path)


def _choice_default(spec: _Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A choice option's default is one of its choices."""
    if option["default"] not in option.get("choices", []):
        spec.add("TR307", f"default {option['default']!r} is not one of the choices", path)


def _suits_default(spec: _Meaning, option: dict[str, Any], path: NodePath) -> None:
    """A suits option's default is a list of unique declared suits."""
    value = option["default"]
    if not isinstance(value, list) or not all(isinstance(suit, str) for suit in value):
        spec.add("TR307", f"default should be a list of suit names, not {_kind(value)}", path)
        return
    for index, suit in enumerate(value):
        if suit in value[:index]:
            spec.add("TR307", f"suit '{suit}' appears more than once in the default", path + (index,))
        spec.suit(suit, path + (index,))


_OPTION_DEFAULTS: dict[str, Callable[[_Meaning, dict[str, Any], NodePath], None]] = {
    "integer": _integer_default,
    "boolean": _boolean_default,
    "choice": _choice_default,
    "suits": _suits_default,
}


def _check_suits(spec: _Meaning) -> None:
    """Every suit named in the deck, conditions and trumps is declared."""
    deck = spec.data["deck"]
    for index, generator in enumerate(deck.get("generate", ())):
        if generator["suits"] != "all":
            for number, suit in enumerate(generator["suits"]):
                spec.suit(suit, ("deck", "generate", index, "suits", number))
    for index, card in enumerate(deck.get("cards", ())):
        for number, face in enumerate(card["faces"]):
            where = ("deck", "cards", index, "faces", number)
            spec.suit(face["suit"], where + ("suit",))
            for condition, path in _walk_condition(face.get("when"), where + ("when",)):
                if "trumps_include" in condition:
                    spec.suit(condition["trumps_include"], path + ("trumps_include",))
    for condition, path in spec.conditions():
        if "suit" in condition:
            for number, suit in enumerate(_as_list(condition["suit"])):
                spec.suit(suit, path + ("suit", number) if isinstance(condition["suit"], list) else path + ("suit",))
    _check_trump_suits(spec, spec.data.get("trumps", "none"))


def _check_trump_suits(spec: _Meaning, trumps: Any) -> None:
    """The trump suits, listed or to choose from, are declared."""
    if isinstance(trumps, list):
        for index, suit in enumerate(trumps):
            spec.suit(suit, ("trumps", index))
    elif isinstance(trumps, dict) and "choose" in trumps:
        for index, suit in enumerate(trumps["choose"]["from"]):
            spec.suit(suit, ("trumps", "choose", "from", index))


def _check_attributes(spec: _Meaning) -> None:
    """Every attribute named on cards, in conditions, amounts, ranking and measures is declared."""
    deck = spec.data["deck"]
    for kind in ("generate", "cards"):
        for index, entry in enumerate(deck.get(kind, ())):
            for name in entry.get("attributes", {}):
                spec.attribute(name, ("deck", kind, index, "attributes", name))
    for condition, path in spec.conditions():
        if "attribute" in condition:
            spec.attribute(condition["attribute"]["name"], path + ("attribute", "name"))
    for index, reward in enumerate(spec.data.get("rewards", ())):
        for key, amount in reward["give"].items():
            if isinstance(amount, dict) and "attribute" in amount:
                spec.attribute(amount["attribute"], ("rewards", index, "give", key, "attribute"))
    for index, step in enumerate(spec.data["ranking"]):
        for key in ("highest", "lowest"):
            if isinstance(step, dict) and isinstance(step.get(key), dict):
                spec.attribute(step[key]["attribute"], ("ranking", index, key, "attribute"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "sum_attribute" in measure:
            spec.attribute(measure["sum_attribute"], ("scoring", "measures", name, "sum_attribute"))


def _option_places(spec: _Meaning) -> Iterator[tuple[Any, NodePath, str]]:
    """Yield each value that may be an option reference, its path and the option type it needs."""
    yield spec.data["deal"]["hand_size"], ("deal", "hand_size"), "integer"
    yield spec.data.get("rounds"), ("rounds",), "integer"
    yield spec.data.get("trumps"), ("trumps",), "suits"
    for name, token in spec.tokens.items():
        yield token.get("supply"), ("tokens", name, "supply"), "integer"
    for index, reward in enumerate(spec.data.get("rewards", ())):
        for key, amount in reward["give"].items():
            yield amount, ("rewards", index, "give", key), "integer"


def _check_option_references(spec: _Meaning) -> None:
    """Every {option: NAME} names a declared option of the type its place needs."""
    for value, path, needed in _option_places(spec):
        name = _option_name(value)
        if name is None:
            continue
        if name not in spec.options:
            declared = ", ".join(sorted(spec.options)) or "none"
            spec.add("TR304", f"undefined option '{name}'; options has {declared}", path + ("option",))
        elif spec.options[name]["type"] != needed:
            kind = spec.options[name]["type"]
            message = f"option '{name}' is of type {kind}, but {_subject(path)} needs an option of type {needed}"
            spec.add("TR313", message, path + ("option",))


def _check_tokens(spec: _Meaning) -> None:
    """Every token kind named in rewards, the tableau and measures is declared."""
    for index, reward in enumerate(spec.data.get("rewards", ())):
        if "token" in reward["give"]:
            spec.token(reward["give"]["token"], ("rewards", index, "give", "token"))
    if "token" in spec.data.get("tableau", {}):
        spec.token(spec.data["tableau"]["token"], ("tableau", "token"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "tokens" in measure:
            spec.token(measure["tokens"], ("scoring", "measures", name, "tokens"))


def _check_measures(spec: _Meaning) -> None:
    """Every measure the round scoring names is built in or declared."""
    for index, rule in enumerate(spec.data["scoring"]["round"]):
        if "add" in rule:
            spec.measure(rule["add"], ("scoring", "round", index, "add"))
        for number, best in enumerate(rule.get("award", {}).get("to_best_by", ())):
            for key, name in best.items():
                spec.measure(name, ("scoring", "round", index, "award", "to_best_by", number, key))


def _check_tableau(spec: _Meaning) -> None:
    """Whatever goes to the tableau has one to go to, with spaces for its tokens."""
    tableau = spec.data.get("tableau")
    users: list[tuple[NodePath, str]] = []
    if spec.data.get("won_cards") == "tableau":
        users.append((("won_cards",), "won_cards: tableau"))
    for name, token in spec.tokens.items():
        if token.get("to") == "tableau":
            users.append((("tokens", name, "to"), f"token kind '{name}' goes to the tableau"))
            staff = (tableau or {}).get("token")
            if tableau is not None and staff != name:
                staffed = f"names '{staff}'" if staff else "names no token"
                message = f"token kind '{name}' goes to the tableau, but tableau.token {staffed}"
                spec.add("TR312", message, ("tokens", name, "to"))
    for name, measure in spec.data["scoring"].get("measures", {}).items():
        if "tableau" in measure:
            users.append((("scoring", "measures", name), f"measure '{name}' scores the tableau"))
    if tableau is None:
        for path, what in users:
            spec.add("TR312", f"tableau required: {what}, but the spec has no tableau", path)


def _deck_size(deck: dict[str, Any]) -> int:
    """Return the number of cards in the deck."""
    suit_count = len(deck["suits"])
    size = len(deck.get("cards", ()))
    for generator in deck.get("generate", ()):
        suits = suit_count if generator["suits"] == "all" else len(generator["suits"])
        size += suits * _rank_count(generator["ranks"])
    return size


def _rank_count(ranks: Any) -> int:
    """Return the number of ranks a generator makes."""
    if isinstance(ranks, list):
        return len(ranks)
    return max(0, ranks["to"] - ranks["from"] + 1)


def _check_deck_size(spec: _Meaning) -> None:
    """The deck holds a full hand for every player, at every allowed player count."""
    hand_size = spec.data["deal"]["hand_size"]
    size = _deck_size(spec.data["deck"])
    _check_by_players(spec, hand_size, ("deal", "hand_size"), "hand size")
    for players in spec.player_counts():
        hand, path = _hand_size(spec, hand_size, players)
        if hand is not None and hand * players > size:
            message = f"deck too small: {players} players x {hand} cards = {hand * players}, but the deck has {size}"
            spec.add("TR305", message, path)


def _hand_size(spec: _Meaning, hand_size: Any, players: int) -> tuple[int | None, NodePath]:
    """Return the hand size for a player count (options at their default) and where it is set."""
    if _is_integer(None, hand_size):
        return hand_size, ("deal", "hand_size")
    name = _option_name(hand_size)
    if name is not None:
        default = spec.options.get(name, {}).get("default")
        return (default if _is_integer(None, default) else None), ("deal", "hand_size")
    counts = hand_size["by_players"]
    path = ("deal", "hand_size", "by_players", str(players))
    return counts.get(str(players)), path


def _check_by_players(spec: _Meaning, value: Any, path: NodePath, what: str) -> None:
    """A {by_players: ...} value gives a number for every allowed player count."""
    if not isinstance(value, dict) or "by_players" not in value:
        return
    counts = {int(key) for key in value["by_players"]}
    for players in spec.player_counts():
        if players not in counts:
            message = f"no {what} for {players} players, which players allows"
            spec.add("TR314", message, path + ("by_players",))


def _check_supplies(spec: _Meaning) -> None:
    """Every by_players supply covers every allowed player count."""
    for name, token in spec.tokens.items():
        _check_by_players(spec, token.get("supply"), ("tokens", name, "supply"), f"'{name}' supply")


def _check_card_ids(spec: _Meaning) -> None:
    """Card ids, generated and explicit, are unique; rank ranges stay reasonable."""
    deck = spec.data["deck"]
    made: dict[str, NodePath] = {}
    for index, generator in enumerate(deck.get("generate", ())):
        path = ("deck", "generate", index)
        if _rank_count(generator["ranks"]) > MAX_RANKS:
            spec.add("TR204", f"the rank range makes more than {MAX_RANKS} ranks", path + ("ranks",))
            continue
        _claim(spec, made, _generated_ids(generator, deck["suits"]), path)
    for index, card in enumerate(deck.get("cards", ())):
        card_id = card.get("id") or "/".join(f"{face['suit']}-{face['rank']}" for face in card["faces"])
        path = ("deck", "cards", index, "id") if "id" in card else ("deck", "cards", index)
        _claim(spec, made, [card_id], path)


def _generated_ids(generator: dict[str, Any], deck_suits: list[str]) -> list[str]:
    """Return the ids a generator makes, <suit>-<rank>."""
    suits = deck_suits if generator["suits"] == "all" else generator["suits"]
    ranks = generator["ranks"]
    numbers = ranks if isinstance(ranks, list) else range(ranks["from"], ranks["to"] + 1)
    return [f"{suit}-{rank}" for suit in suits for rank in numbers]


def _claim(spec: _Meaning, made: dict[str, NodePath], card_ids: list[str], path: NodePath) -> None:
    """Record card ids as made at a path; report the ones already made, once per path."""
    repeats = [card_id for card_id in card_ids if card_id in made]
    if repeats:
        first = json_path(made[repeats[0]])
        more = f" and {len(repeats) - 1} more" if len(repeats) > 1 else ""
        spec.add("TR306", f"duplicate card id '{repeats[0]}'{more}, first made at {first}", path)
    for card_id in card_ids:
        made.setdefault(card_id, path)


_CHECKS: tuple[Callable[[_Meaning], None], ...] = (
    _check_names,
    _check_options,
    _check_suits,
    _check_attributes,
    _check_option_references,
    _check_tokens,
    _check_measures,
    _check_tableau,
    _check_deck_size,
    _check_supplies,
    _check_card_ids,
)
