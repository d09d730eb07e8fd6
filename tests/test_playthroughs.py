"""Recorded reference games: the same seeds and agents must play the same games, line by line.

After an intended change, regenerate with `python tests/playthroughs/regenerate.py` and review
the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from helpers import load_script

_regenerate = load_script("playthroughs_regenerate", Path(__file__).resolve().parent / "playthroughs" / "regenerate.py")
GAMES, HERE, name, transcript = _regenerate.GAMES, _regenerate.HERE, _regenerate.name, _regenerate.transcript


@pytest.mark.parametrize("game", GAMES, ids=[name(*g[:3]) for g in GAMES])
def test_playthrough_is_unchanged(game):
    recorded = (HERE / name(*game[:3])).read_text(encoding="utf-8")
    played = transcript(*game)
    if played != recorded:
        diff = "".join(list(difflib.unified_diff(recorded.splitlines(True), played.splitlines(True), "recorded", "played"))[:40])
        pytest.fail(f"the game differs from its recording:\n{diff}")
