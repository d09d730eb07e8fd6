"""The shipped JSON Schema: valid, documented, and accepting the shipped specs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from trickrules.spec.checks import spec_schema
from trickrules.spec.source import read_spec

pytestmark = pytest.mark.not_compiled  # the JSON Schema and its checks are never compiled

ROOT = Path(__file__).parent.parent
SCHEMA_FILE = ROOT / "trickrules" / "schema" / "spec.schema.json"
SPECS = [ROOT / "specs" / f"{name}.yaml" for name in ("kingdoms", "meadows")]
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text("utf-8"))


NAMED = ("properties", "$defs", "dependentSchemas", "patternProperties")
LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
SINGLE = ("items", "additionalProperties", "propertyNames", "not", "if", "then", "else", "contains")


def _subschemas(schema: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield every schema object nested in the schema, with a pointer to it."""
    if not isinstance(schema, dict):
        return
    yield where, schema
    for keyword in NAMED:
        for name, value in schema.get(keyword, {}).items():
            yield from _subschemas(value, f"{where}/{keyword}/{name}")
    for keyword in LISTS:
        for index, value in enumerate(schema.get(keyword, [])):
            yield from _subschemas(value, f"{where}/{keyword}/{index}")
    for keyword in SINGLE:
        yield from _subschemas(schema.get(keyword), f"{where}/{keyword}")


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "https://trickrules.dev/schema/spec-1.json"
    assert SCHEMA["title"] and SCHEMA["description"]


def test_package_ships_the_same_schema() -> None:
    assert spec_schema() == SCHEMA


@pytest.mark.parametrize("path", SPECS, ids=[path.stem for path in SPECS])
def test_shipped_spec_validates(path: Path) -> None:
    errors = [error.message for error in Draft202012Validator(SCHEMA).iter_errors(read_spec(path).data)]
    assert errors == []


def test_every_property_has_a_description() -> None:
    missing = [
        f"{where}/properties/{name}"
        for where, schema in _subschemas(SCHEMA)
        for name, prop in schema.get("properties", {}).items()
        if not (isinstance(prop, dict) and prop.get("description", "").strip())
    ]
    assert missing == []


def test_every_definition_has_a_description() -> None:
    missing = [name for name, schema in SCHEMA["$defs"].items() if not schema.get("description", "").strip()]
    assert missing == []


def test_fixed_key_mappings_refuse_unknown_keys() -> None:
    loose = [
        where for where, schema in _subschemas(SCHEMA)
        if "properties" in schema and "/if" not in where and "/else" not in where
        and "/dependentSchemas" not in where and schema.get("additionalProperties") is not False
    ]
    assert loose == []


def test_examples_and_defaults_fit_their_schema() -> None:
    validator = Draft202012Validator(SCHEMA)
    for where, schema in _subschemas(SCHEMA):
        samples = list(schema.get("examples", [])) + ([schema["default"]] if "default" in schema else [])
        for sample in samples:
            assert validator.evolve(schema=schema).is_valid(sample), f"{where}: {sample!r}"


def test_option_references_are_the_only_place_for_option() -> None:
    reference = SCHEMA["$defs"]["optionReference"]
    assert reference["required"] == ["option"] and reference["additionalProperties"] is False
