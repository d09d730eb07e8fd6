"""Every shipped spec compiles to the ruleset it compiled to when last recorded: each field of
the frozen ruleset, its expressions by their text. A change of the compiler that changes a
shipped game shows here as the first field that differs.

After an intended change, regenerate with `python tests/shipped_rulesets/regenerate.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import load_script
from trickrules.tools.record import first_difference

_regenerate = load_script("shipped_rulesets_regenerate", Path(__file__).resolve().parent / "shipped_rulesets" / "regenerate.py")


@pytest.mark.parametrize("spec", _regenerate.SPECS)
def test_a_shipped_spec_compiles_to_its_recorded_ruleset(spec: str) -> None:
    recorded, now = _regenerate.recorded(spec), _regenerate.compiled(spec)
    where = first_difference(recorded, now)
    assert where is None, f"{spec} compiles to another ruleset: first difference at {where}"


def test_every_shipped_spec_has_a_recording() -> None:
    recorded = {path.name.removesuffix(".json.gz") for path in _regenerate.HERE.glob("*.json.gz")}
    assert recorded == set(_regenerate.SPECS)
