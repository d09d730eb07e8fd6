"""The hand-written programs of the seed games (benchmarks/handwritten_*.py), the yardsticks of
the engine's speed, play the same random games as the engine: the same actions and totals."""

from __future__ import annotations

import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import handwritten_kingdoms  # noqa: E402
import handwritten_meadows  # noqa: E402


@pytest.mark.parametrize("program", [handwritten_kingdoms, handwritten_meadows], ids=["kingdoms", "meadows"])
def test_the_hand_written_program_plays_the_engines_games(program, capsys: pytest.CaptureFixture[str]) -> None:
    assert program.check(30) == 0
    assert capsys.readouterr().err == ""


def test_a_hand_written_game_that_differs_is_told_apart(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(handwritten_meadows, "SHEEP", [0] * handwritten_meadows.CARDS)  # nobody counts sheep
    assert handwritten_meadows.check(10) > 0
    assert "differs" in capsys.readouterr().err


def test_the_shuffle_written_again_is_the_engines() -> None:
    from trickrules.engine.deals import deal_order

    assert all(handwritten_meadows.deal_order(seed, r, 45) == deal_order(seed, r, 45) for seed in range(20) for r in range(4))
