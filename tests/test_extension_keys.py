"""Top-level keys starting ``x-`` are ignored: a home for YAML anchors (the schema allows them,
the loader drops them before checking, merging and compiling)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from trickrules.errors import SpecError
from trickrules.spec.checks import load_spec, spec_schema, spec_warnings
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.overlay_schema import overlay_schema
from trickrules.spec.source import is_extension_key

PLAIN = """id: anchors
title: Anchors
players: [3]
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 12}}
deal:
  hand_size: 6
ranking:
  - prefer: led
  - highest: rank
rewards:
  - {name: a point a trick, to: winner, give: {points: 1}}
  - {name: a point for losing, to: losers, give: {points: 1}}
scoring:
  round:
    - add: tricks
"""

WITH_ANCHORS = """id: anchors
title: Anchors
players: [3]
x-one: &one {points: 1}
x-deck: &deck
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 12}}
x-notes: {anything: [1, two, {three: 3}], trumps: not a key here}
deck: *deck
deal:
  hand_size: 6
ranking:
  - prefer: led
  - highest: rank
rewards:
  - {name: a point a trick, to: winner, give: *one}
  - {name: a point for losing, to: losers, give: *one}
scoring:
  round:
    - add: tricks
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_key_test() -> None:
    assert is_extension_key("x-common") and is_extension_key("x-")
    assert not is_extension_key("xx") and not is_extension_key("deck") and not is_extension_key(3)


def test_x_keys_are_ignored_and_their_anchors_serve(tmp_path: Path) -> None:
    plain = load_spec(_write(tmp_path, "plain.yaml", PLAIN))
    anchored = load_spec(_write(tmp_path, "anchored.yaml", WITH_ANCHORS))
    assert not any(is_extension_key(key) for key in anchored.data)
    assert anchored.data == plain.data
    assert compile_ruleset(anchored) == compile_ruleset(plain)
    assert spec_warnings(anchored) == []  # nothing in an x- key is called unused or dead
    assert not any(path and is_extension_key(path[0]) for path in anchored.locations)


def test_x_keys_in_an_overlay_and_its_parent(tmp_path: Path) -> None:
    _write(tmp_path, "parent.yaml", WITH_ANCHORS)
    child = _write(tmp_path, "child.yaml", "extends: parent.yaml\nx-two: &two {points: 2}\nrewards:\n  - {name: two, to: winner, give: *two}\n")
    source = load_spec(child)
    assert source.data["rewards"] == [{"name": "two", "to": "winner", "give": {"points": 2}}]
    assert not any(is_extension_key(key) for key in source.data)


def test_other_unknown_top_level_keys_are_still_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        load_spec(_write(tmp_path, "bad.yaml", WITH_ANCHORS + "xdeck: 1\n"))
    assert caught.value.code == "TR201"


def test_the_schemas_allow_x_keys_for_editors() -> None:
    data = yaml.safe_load(WITH_ANCHORS)
    jsonschema.validate(data, spec_schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "xdeck": 1}, spec_schema())
    jsonschema.validate({"extends": "parent.yaml", "x-two": {"points": 2}}, overlay_schema(spec_schema()))
    assert "^x-" in spec_schema()["patternProperties"]
