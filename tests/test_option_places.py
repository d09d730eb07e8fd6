"""Options that do something: every option type is used by a shipped or example spec, and
{option: NAME} works (and is type-checked) at the keys that take a number or a yes/no."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from trickrules.errors import SpecError
from trickrules.spec.checks import spec_schema
from trickrules.spec.loader import load_ruleset_text

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(p for pattern in ("specs/*.yaml", "examples/*.yaml") for p in ROOT.glob(pattern) if not p.name.endswith(".examples.yaml"))


def _uses(node: Any, name: str, key: str = "") -> Iterator[str]:
    """How a spec's data uses option `name`: a reference, cases, or a name in an expression."""
    if isinstance(node, dict):
        if node.get("option") == name:
            yield "cases" if "cases" in node else "reference"
        for child_key, value in node.items():
            if child_key not in ("options", "description"):
                yield from _uses(value, name, str(child_key))
    elif isinstance(node, list):
        for value in node:
            yield from _uses(value, name, key)
    elif isinstance(node, str) and key != "description" and re.search(rf"\b{re.escape(name)}\b", node):
        yield "expression"


def test_every_option_type_is_used_by_a_shipped_or_example_spec():
    types = set(spec_schema()["$defs"]["option"]["properties"]["type"]["enum"])
    used: dict[str, set[str]] = {}
    for path in SPECS:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for name, option in (data.get("options") or {}).items():
            if "type" not in option:
                continue  # an overlay changing its parent's option
            ways = set(_uses(data, name))
            assert ways, f"{path.name}: option {name} is used nowhere"
            used.setdefault(option["type"], set()).update(ways)
    assert set(used) == types
    assert "reference" in used["boolean"] and "expression" in used["boolean"]
    assert "cases" in used["choice"]


SPEC = """\
id: places
title: Option places
players: [3]
options:
  factor: {type: integer, default: 2, min: 0, max: 5}
  bonus: {type: integer, default: 7, min: 0, max: 9}
  seat: {type: integer, default: 1, min: 0, max: 2}
  step: {type: integer, default: 2, min: 1, max: 2}
  drawn: {type: boolean, default: false}
  cap: {type: integer, default: 5, min: 1, max: 9}
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 9}}
deal:
  hand_size: 6
  dealer: {first: {option: seat}, rotation: {option: step}, random: {option: drawn}}
rounds: {until: "max(totals) >= 30", at_most: {option: cap}}
ranking:
  - prefer: led
  - highest: rank
scoring:
  round:
    - {add: tricks, times: {option: factor}}
    - award: {points: {option: bonus}, to_best_by: [{most: tricks}]}
"""


def test_option_references_at_numbers_and_yes_no_keys_follow_the_options():
    default = load_ruleset_text(SPEC)
    assert (default.deal.dealer_first, default.deal.dealer_rotation, default.deal.dealer_random) == (1, 2, False)
    assert default.rounds == 5 and default.scoring.round_rules[0].times == 2 and default.scoring.round_rules[1].points == 7
    chosen = load_ruleset_text(SPEC, options={"seat": 2, "step": 1, "drawn": True, "cap": 9, "factor": 0, "bonus": 3})
    assert (chosen.deal.dealer_first, chosen.deal.dealer_rotation, chosen.deal.dealer_random) == (2, 1, True)
    assert chosen.rounds == 9 and chosen.scoring.round_rules[0].times == 0 and chosen.scoring.round_rules[1].points == 3


@pytest.mark.parametrize(
    "old, new, line, column",
    [
        ("times: {option: factor}", "times: {option: drawn}", 24, 29),
        ("random: {option: drawn}", "random: {option: cap}", 17, 70),
        ("at_most: {option: cap}", "at_most: {option: drawn}", 18, 48),
    ],
)
def test_an_option_of_the_wrong_type_is_refused_where_it_is_named(old, new, line, column):
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(SPEC.replace(old, new), "places.yaml")
    problem = raised.value.problems[0]
    assert (problem.code, problem.line, problem.column) == ("TR313", line, column), str(problem)


def test_an_undefined_option_at_a_new_place_is_refused():
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(SPEC.replace("times: {option: factor}", "times: {option: facter}"), "places.yaml")
    problem = raised.value.problems[0]
    assert problem.code == "TR304" and "did you mean 'factor'" in problem.message
