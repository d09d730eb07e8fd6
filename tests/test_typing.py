"""The package type-checks with mypy (the house style: type hints everywhere, mypy clean)."""

from __future__ import annotations

import pytest
from helpers import ROOT
from mypy import api

pytestmark = pytest.mark.not_compiled  # mypy reads the sources, the same with or without the compiled build


def test_the_package_is_mypy_clean():
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", "/dev/null", str(ROOT / "trickrules")])
    assert status == 0, out + err
