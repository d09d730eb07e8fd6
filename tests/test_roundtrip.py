"""load -> dump -> load is the identity on compiled rulesets (`trickrules.spec.dump`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st

import trickrules
from strategies import as_yaml, scaled, shipped_spec_paths, spec_data
from trickrules.spec.dump import dump_spec, dump_yaml
from trickrules.rules.ruleset import Ruleset

pytestmark = pytest.mark.not_compiled  # dump and compile of rulesets: the spec modules are never compiled

COUNTS = [(path, n) for path in shipped_spec_paths() for n in trickrules.load_ruleset(path).allowed_players]


def assert_round_trip(ruleset: Ruleset) -> None:
    """The dump loads back to an equal ruleset, and dumping that gives the same data."""
    text = dump_yaml(ruleset)
    again = trickrules.load_ruleset_text(text, players=ruleset.players)
    assert again == ruleset, f"the dump loads to another ruleset:\n{text}"
    assert dump_spec(again) == dump_spec(ruleset)
    assert yaml.safe_load(text) == dump_spec(ruleset)


@pytest.mark.parametrize(("path", "players"), COUNTS, ids=[f"{p.stem}-{n}" for p, n in COUNTS])
def test_shipped_specs_round_trip(path: Path, players: int) -> None:
    assert_round_trip(trickrules.load_ruleset(path, players=players))


def test_options_survive_the_round_trip() -> None:
    meadows = Path(__file__).resolve().parent.parent / "specs" / "meadows.yaml"
    for trumps in ([], ["red"], ["blue", "lila"]):
        ruleset = trickrules.load_ruleset(meadows, players=3, options={"trumps": trumps, "rounds": 2})
        assert_round_trip(ruleset)
        assert trickrules.load_ruleset_text(dump_yaml(ruleset), players=3).option("trumps") == tuple(trumps)


def test_a_changed_ruleset_does_not_round_trip_to_the_original() -> None:
    kingdoms = trickrules.load_ruleset(Path(__file__).resolve().parent.parent / "specs" / "kingdoms.yaml")
    meadows = trickrules.load_ruleset(Path(__file__).resolve().parent.parent / "specs" / "meadows.yaml")
    assert trickrules.load_ruleset_text(dump_yaml(kingdoms), players=4) != meadows


@settings(max_examples=scaled(150))
@given(spec=spec_data(), data=st.data())
def test_generated_specs_round_trip(spec: dict[str, Any], data: st.DataObject) -> None:
    note(f"spec:\n{as_yaml(spec)}")
    players = data.draw(st.sampled_from(spec["players"]), label="players")
    ruleset = trickrules.load_ruleset_text(yaml.safe_dump(spec), players=players)
    assert_round_trip(ruleset)
