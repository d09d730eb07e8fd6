"""Random specs driven by the shipped JSON Schema, for the property "a spec that validates plays".

A spec is a shipped spec or example with a few of its nodes replaced, or added, by values drawn
from the schema at that place: the schema's own examples, the spec's own names (suits,
attributes, options, counters, measures, tokens, contracts), expressions built from those
names, small and huge integers. Most such specs are refused at load; the rest must play.

`spec_strategy()` is a hypothesis strategy of (spec text, player count); `play_or_refuse` is
the property: either loading raises a `SpecError` whose every problem has a code and a
position, or `GAMES` random games play to their end within `MAX_ACTIONS` decisions each.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

import trickrules
from trickrules.errors import SpecError
from trickrules.spec.checks import load_spec_text, option_problems, spec_warnings
from trickrules.spec.compiler import compile_ruleset

ROOT = Path(__file__).resolve().parent.parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "trickrules" / "schema" / "spec.schema.json").read_text("utf-8"))
BASES: tuple[tuple[str, dict[str, Any]], ...] = tuple(
    (path.name, yaml.safe_load(path.read_text("utf-8")))
    for folder in ("specs", "examples")
    for path in sorted((ROOT / folder).glob("*.yaml"))
    if not path.name.endswith(".examples.yaml") and "extends" not in path.read_text("utf-8")
)
GAMES = 20
MAX_ACTIONS = 200_000  # per game: far above any spec the generator makes (1,000 rounds of 200 cards)

Draw = Callable[[st.SearchStrategy[Any]], Any]


def vocabulary(data: dict[str, Any]) -> dict[str, list[Any]]:
    """The names a spec declares, and expressions over them, to draw strings from."""
    names: list[str] = []
    deck = data.get("deck") or {}
    names += [s for s in deck.get("suits") or () if isinstance(s, str)]
    for key in ("options", "counters", "tokens", "contracts"):
        names += list(data.get(key) or {})
    names += list(deck.get("attributes") or {})
    names += list((data.get("scoring") or {}).get("measures") or {})
    names += ["tricks", "penalty", "x", "left", "winner", "all", "none", "rotate", "random", "dealer"]
    numbers = [n for n in names if n.isidentifier()] + ["tricks", "bid", "hand_size", "players", "round", "trick"]
    expressions = ["True", "False", "0", "1", "-3", "totals", "sum(totals)", "max(totals) >= 100", "bids",
                   "totals[0] * totals[0] + 2", "bid * 10", "hand_size - 1", "hand_size * 1000000000",
                   "len(totals)", "tricks if tricks >= bid else -bid", "1 // 0", "not", "count(bids)"]
    expressions += [f"{a} + 1" for a in numbers[:8]] + [f"{a} > 2" for a in numbers[:8]] + numbers[:12]
    return {"names": names or ["x"], "expressions": expressions}


class SchemaValues:
    """Draws a value for a place in the spec from the schema of that place."""

    def __init__(self, draw: Draw, vocab: dict[str, list[Any]]) -> None:
        self.draw = draw
        self.vocab = vocab

    def pick(self, options: list[Any] | tuple[Any, ...]) -> Any:
        return self.draw(st.sampled_from(list(options)))

    @staticmethod
    def resolve(schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            target = SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[-1]]
            schema = {**{k: v for k, v in schema.items() if k != "$ref"}, **target}
        return schema

    def value(self, schema: dict[str, Any], depth: int = 0) -> Any:
        schema = self.resolve(schema)
        if schema.get("examples") and self.draw(st.integers(0, 3)) == 0:
            return self.pick(schema["examples"])
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return self.pick(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                branch = self.pick(schema[key])
                rest = {k: v for k, v in schema.items() if k not in (key, "examples")}
                return self.value({**rest, **branch}, depth)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = self.pick(kind)
        if kind is None:
            kind = "object" if "properties" in schema else "array" if "items" in schema else self.pick(["string", "integer"])
        if depth > 6 and kind in ("object", "array"):
            kind = self.pick(["integer", "string"])  # keep it small: a wrong type is a fine spec too
        return getattr(self, "make_" + kind, self.make_string)(schema, depth)

    def make_object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        properties = schema.get("properties") or {}
        required = [k for k in schema.get("required", ()) if k in properties]
        optional = [k for k in properties if k not in required]
        chosen = required + [k for k in optional if self.draw(st.integers(0, 3)) == 0]
        result = {key: self.value(properties[key], depth + 1) for key in chosen}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for _ in range(self.draw(st.integers(0, 2))):
                name = str(self.pick(self.vocab["names"] + ["0", "1", "13"]))
                result[name] = self.value(extra, depth + 1)
        return result

    def make_array(self, schema: dict[str, Any], depth: int) -> list[Any]:
        low = schema.get("minItems", 0)
        items = schema.get("items") or {}
        return [self.value(items, depth + 1) for _ in range(self.draw(st.integers(low, low + 3)))]

    def make_integer(self, schema: dict[str, Any], depth: int) -> int:
        low, high = schema.get("minimum"), schema.get("maximum")
        choices = [0, 1, 2, 3, 4, 5, 13, -1, 52, 1000, 1_000_000_000, 10**12]
        choices += [v for v in (low, high) if v is not None]
        value = int(self.pick(choices))
        if self.draw(st.integers(0, 4)):  # mostly within the schema's range
            value = max(low, value) if low is not None else value
            value = min(high, value) if high is not None else value
        return value

    def make_number(self, schema: dict[str, Any], depth: int) -> int:
        return self.make_integer(schema, depth)

    def make_boolean(self, schema: dict[str, Any], depth: int) -> bool:
        return bool(self.draw(st.booleans()))

    def make_string(self, schema: dict[str, Any], depth: int) -> str:
        pool = self.vocab["expressions"] if schema.get("minLength") == 1 and "pattern" not in schema else self.vocab["names"]
        return str(self.pick(pool + ["", "x y"]))

    def make_null(self, schema: dict[str, Any], depth: int) -> None:
        return None


def matching_branch(schema: dict[str, Any], value: Any) -> dict[str, Any]:
    """The schema of `value` at this place: a reference resolved, the alternative that fits."""
    schema = SchemaValues.resolve(schema)
    for key in ("anyOf", "oneOf"):
        for branch in schema.get(key, ()):
            branch = SchemaValues.resolve(branch)
            kind = branch.get("type")
            if (kind == "object" and isinstance(value, dict)) or (kind == "array" and isinstance(value, list)):
                return branch
    return schema


def mutate(values: SchemaValues, schema: dict[str, Any], node: Any, depth: int = 0) -> Any:
    """`node` with one place inside it replaced or added: descend along existing keys and
    items, or replace here."""
    schema = matching_branch(schema, node)
    descend = values.draw(st.integers(0, 2)) > 0 and depth < 8
    if descend and isinstance(node, dict) and node:
        key = values.pick(sorted(node, key=str))
        properties = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        child = properties.get(key, extra if isinstance(extra, dict) else {})
        if child:
            return {**node, key: mutate(values, child, node[key], depth + 1)}
    if descend and isinstance(node, list) and node and isinstance(schema.get("items"), dict):
        index = values.draw(st.integers(0, len(node) - 1))
        copy = list(node)
        copy[index] = mutate(values, schema["items"], node[index], depth + 1)
        return copy
    if isinstance(node, dict) and values.draw(st.booleans()) and schema.get("properties"):
        key = values.pick(sorted(schema["properties"]))  # add (or replace) one key
        return {**node, key: values.value(schema["properties"][key], depth + 1)}
    return values.value(schema, depth)


@st.composite
def spec_strategy(draw: Draw) -> tuple[str, int]:
    """A spec's text (a shipped one with 1 to 3 places changed) and a player count to load it for."""
    _, base = draw(st.sampled_from(BASES))
    values = SchemaValues(draw, vocabulary(base))
    data = base
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(values, SCHEMA, data)
    players = data.get("players") if isinstance(data, dict) else None
    counts = [p for p in players if isinstance(p, int)] if isinstance(players, list) else []
    count = draw(st.sampled_from(counts)) if counts else 4
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True), count


def play_or_refuse(text: str, players: int) -> str:
    """The property: "refused" (a SpecError, every problem with a code and a position) or
    "played" (`GAMES` random games to their end); any other exception propagates."""
    try:
        source = load_spec_text(text, "generated.yaml")
        ruleset = compile_ruleset(source, players)
        if option_problems(source):
            raise SpecError(option_problems(source))
        spec_warnings(source)
    except SpecError as error:
        assert error.problems, "a SpecError without problems"
        for problem in error.problems:
            assert problem.code[:2] == "TR" and problem.code[2:].isdigit(), problem
            assert problem.line >= 1 and problem.column >= 1 and problem.file, problem
        return "refused"
    game = trickrules.load_game(ruleset)
    for seed in range(GAMES):
        state = game.new_initial_state(seed, record=seed == 0)
        chooser = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            assert legal, f"no legal action for player {state.current_player()}"
            assert state.current_player() not in state.sitting_out, "a seat sitting out is asked to decide"
            action = chooser.choice(legal)
            game.action_to_string(action)
            state.apply_action(action)
        else:
            raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} decisions")
        state.returns()
        if seed == 0:
            json.dumps(state.round_results)
            str(state)
    return "played"
