"""Every shipped spec compiles to the ruleset it compiled to when last recorded: each field of
the frozen ruleset, its expressions by their text. A change of the compiler that changes a
shipped game shows here as the first field that differs.

After an intended change, regenerate with `python tests/shipped_rulesets/regenerate.py`.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from trickrules.tools.record import first_difference

# loaded under a name of its own: other folders of tests have a `regenerate` module too
_SPEC = importlib.util.spec_from_file_location("shipped_rulesets_regenerate", Path(__file__).resolve().parent / "shipped_rulesets" / "regenerate.py")
assert _SPEC is not None and _SPEC.loader is not None
_regenerate = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = _regenerate
_SPEC.loader.exec_module(_regenerate)


@pytest.mark.parametrize("spec", _regenerate.SPECS)
def test_a_shipped_spec_compiles_to_its_recorded_ruleset(spec: str) -> None:
    recorded, now = _regenerate.recorded(spec), _regenerate.compiled(spec)
    where = first_difference(recorded, now)
    assert where is None, f"{spec} compiles to another ruleset: first difference at {where}"


def test_every_shipped_spec_has_a_recording() -> None:
    recorded = {path.name.removesuffix(".json.gz") for path in _regenerate.HERE.glob("*.json.gz")}
    assert recorded == set(_regenerate.SPECS)
