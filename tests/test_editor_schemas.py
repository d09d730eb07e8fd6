"""The JSON Schemas an editor reads: every shipped spec, overlay and examples file names its
schema in its first line and passes it under a standard validator (as an editor checks it),
the overlay schema is the one made from the spec schema, and the examples schema knows
exactly the keys the examples runner knows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from trickrules.spec.checks import spec_schema
from trickrules.spec.overlay_schema import overlay_schema
from trickrules.tools.examples import EXPECT_KEYS, SITUATION_KEYS
from trickrules.tools.recordschema import examples_schema

pytestmark = pytest.mark.not_compiled  # the editor schemas are never compiled

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "trickrules" / "schema"
PATTERNS = ("specs/*.yaml", "examples/*.yaml", "docs/examples/tutorial/*.yaml", "docs/examples/howto/*.yaml")
FILES = sorted({path for pattern in PATTERNS for path in ROOT.glob(pattern)})
PREFIX = "# yaml-language-server: $schema="


def editor_data(path: Path) -> Any:
    """A YAML file's data as an editor's validator sees it: JSON, so mapping keys are text."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8"))))


def schema_kind(path: Path) -> str:
    if path.name.endswith(".examples.yaml"):
        return "examples"
    return "overlay" if "extends" in editor_data(path) else "spec"


def validator(kind: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_every_kind_of_file_is_shipped():
    kinds = {schema_kind(path) for path in FILES}
    assert kinds == {"spec", "overlay", "examples"}
    assert len(FILES) >= 25


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shipped_file_names_its_schema_and_passes_it(path: Path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(PREFIX), f"{path.name}: the first line should name its schema"
    named = (path.parent / first.removeprefix(PREFIX)).resolve()
    kind = schema_kind(path)
    assert named == (SCHEMAS / f"{kind}.schema.json").resolve()
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(kind).iter_errors(editor_data(path))]
    assert errors == []


def test_the_overlay_schema_is_made_from_the_spec_schema():
    shipped = (SCHEMAS / "overlay.schema.json").read_text(encoding="utf-8")
    assert shipped == json.dumps(overlay_schema(spec_schema()), indent=2) + "\n", (
        "regenerate it: trickrules schema --overlay > trickrules/schema/overlay.schema.json"
    )


def test_an_overlay_passes_only_the_overlay_schema_and_wrong_types_still_fail():
    overlay = editor_data(ROOT / "examples" / "meadows-no-trumps.yaml")
    spec_errors = [e.message for e in validator("spec").iter_errors(overlay)]
    assert "'deck' is a required property" in spec_errors  # the false error editors showed
    overlays = validator("overlay")
    assert list(overlays.iter_errors(overlay)) == []
    assert list(overlays.iter_errors({"extends": "a.yaml", "deal": {"hand_size": 8}, "title": None})) == []
    wrong = [
        {"deal": {"hand_size": 8}},  # extends is required
        {"extends": "a.yaml", "deal": {"hand_size": "ten"}},
        {"extends": "a.yaml", "trumpz": ["red"]},
        {"extends": "a.yaml", "rewards": [{"name": "r"}]},  # a list replaces: its items are whole
        {"extends": "a.yaml", "ranking": [{"order": []}]},
    ]
    for data in wrong:
        assert list(overlays.iter_errors(data)), data


def test_the_overlay_schema_keeps_every_key_and_description():
    spec, overlay = spec_schema(), overlay_schema(spec_schema())
    assert set(overlay["properties"]) == set(spec["properties"])
    for key, value in spec["properties"].items():
        assert overlay["properties"][key]["description"] == value["description"]
    deal = overlay["$defs"]["dealInOverlay"]
    assert "required" not in deal and set(deal["properties"]) == set(spec["$defs"]["deal"]["properties"])


def test_the_examples_schema_has_exactly_the_runners_keys():
    schema = examples_schema()
    assert set(schema["$defs"]["case"]["properties"]) == SITUATION_KEYS
    assert set(schema["$defs"]["expect"]["properties"]) == EXPECT_KEYS
    for part in ("case", "expect"):
        for key, value in schema["$defs"][part]["properties"].items():
            assert value.get("description"), f"{part}.{key} has no description"


def test_the_examples_schema_catches_a_misspelt_key():
    examples = validator("examples")
    case: dict[str, Any] = {"trick": ["red-1"], "expect": {"winer": "red-1"}}
    messages = [e.message for e in examples.iter_errors({"spec": "a.yaml", "cases": [case]})]
    assert any("'winer' was unexpected" in m for m in messages)
