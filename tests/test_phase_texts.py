"""What each kind of phase says of itself, recorded: its rulebook paragraph, its figures and
their counts, its events' words in the log, its part of an observation and of the observation
tensor, and the game's text, for seeded random games of the specs that use those kinds.

After an intended change, regenerate with `python tests/phase_texts/regenerate.py` and review
the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from helpers import load_script

_regenerate = load_script("phase_texts_regenerate", Path(__file__).resolve().parent / "phase_texts" / "regenerate.py")
GAMES, HERE, transcript = _regenerate.GAMES, _regenerate.HERE, _regenerate.transcript


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_phase_kinds_say_what_they_said(game):
    recorded = (HERE / game.name).read_text(encoding="utf-8")
    said = transcript(game)
    if said != recorded:
        diff = "".join(list(difflib.unified_diff(recorded.splitlines(True), said.splitlines(True), "recorded", "said"))[:40])
        pytest.fail(f"the phase kinds' texts differ from the recording:\n{diff}")


def test_recordings_cover_every_kind_that_speaks():
    """Each kind that writes its own rulebook paragraph, log words or tensor segments is heard
    in some recording, so that none of them goes unchecked."""
    from trickrules.engine.game import load_game
    from trickrules.engine.phases import showing

    texts = "".join(path.read_text(encoding="utf-8") for path in HERE.glob("*.txt"))
    unheard = [kind for kind in showing("rulebook") if f"rulebook, step {kind.step}:" not in texts]
    assert not unheard, f"no recording has the rulebook paragraph of {unheard}"
    unworded = [event for kind in showing("words") for event in kind.events if f"log {event}:" not in texts]
    assert not unworded, f"no recording has the words of {unworded}"
    games = [load_game(HERE.parent.parent / recorded.spec, recorded.players) for recorded in GAMES]
    unshown = [kind for kind in showing("segments") if not any(kind.segments(game) for game in games)]
    assert not unshown, f"no recorded game has the tensor segments of {unshown}"
