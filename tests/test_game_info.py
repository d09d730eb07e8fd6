"""The sizes a program reads from `Game.info()` before it plays (OpenSpiel's game info:
players, distinct actions, the longest game), recorded for every shipped spec and example at
its default player count. The longest game counts every decision each kind of phase can ask
for (`PhaseKind.most_decisions`); a change that moves one of these numbers shows here.
Bridge's 371 is OpenSpiel's own (test_crosscheck_bridge.py)."""

from __future__ import annotations

import pytest

import trickrules
from helpers import ROOT

INFO = [
    ("specs/belote.yaml", 4, 69, 4100, 100),
    ("specs/bridge.yaml", 4, 146, 371, 1),
    ("specs/doppelkopf.yaml", 4, 100, 192, 4),
    ("specs/euchre.yaml", 4, 79, 6200, 200),
    ("specs/hearts.yaml", 4, 160, 12800, 200),
    ("specs/kingdoms.yaml", 4, 100, 464, 4),
    ("specs/meadows.yaml", 4, 70, 128, 4),
    ("specs/oh-hell.yaml", 7, 116, 11200, 200),
    ("specs/pinochle.yaml", 4, 1092, 76750, 50),
    ("specs/skat-standard.yaml", 3, 381, 1602, 3),
    ("specs/skat.yaml", 3, 108, 36, 1),
    ("specs/spades.yaml", 4, 122, 11200, 200),
    ("specs/tarok.yaml", 4, 240, 156, 1),
    ("specs/tarot.yaml", 4, 250, 380, 4),
    ("examples/hearts-cardstock.yaml", 4, 108, 52, 1),
    ("examples/hearts-lite.yaml", 4, 108, 208, 4),
    ("examples/kingdoms-zeros-give-peasants.yaml", 4, 100, 464, 4),
    ("examples/meadows-no-trumps.yaml", 4, 70, 128, 4),
    ("examples/plain-whist.yaml", 4, 108, 212, 4),
    ("examples/runner-up.yaml", 4, 108, 52, 1),
    ("examples/skat-lite.yaml", 3, 76, 99, 3),
]
"""(spec file, players, distinct actions, longest game, rounds)."""


@pytest.mark.parametrize(("path", "players", "actions", "longest", "rounds"), INFO, ids=[row[0] for row in INFO])
def test_a_shipped_game_states_its_recorded_sizes(path: str, players: int, actions: int, longest: int, rounds: int) -> None:
    info = trickrules.load_game(ROOT / path).info()
    assert (info.num_players, info.num_distinct_actions, info.max_game_length, info.num_rounds) == (
        players, actions, longest, rounds)


def test_every_shipped_spec_and_example_is_recorded() -> None:
    files = {str(p.relative_to(ROOT)) for folder in ("specs", "examples") for p in (ROOT / folder).glob("*.yaml")
             if not p.name.endswith(".examples.yaml")}
    assert {row[0] for row in INFO} == files
