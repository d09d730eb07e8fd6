"""Regenerate the recorded reference games (playthroughs) of every shipped spec.

Run after an intended change of behaviour, then review the diff:

    python tests/playthroughs/regenerate.py && git diff tests/playthroughs

tests/test_playthroughs.py plays the same games and fails on any difference.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

GAMES = [
    ("specs/kingdoms.yaml", 4, 1, "greedy,random,random,random", ()),
    ("specs/kingdoms.yaml", 2, 7, "random", ()),
    ("specs/meadows.yaml", 4, 3, "greedy,random,greedy,random", ()),
    ("specs/meadows.yaml", 3, 5, "random", ("trumps=",)),
    ("examples/plain-whist.yaml", 4, 2, "random", ()),
    ("specs/hearts.yaml", 4, 1, "greedy,random,random,random", ("single_hand=true",)),
    ("specs/spades.yaml", 4, 2, "greedy,random,greedy,random", ("single_hand=true",)),
    ("specs/oh-hell.yaml", 4, 3, "random", ("single_hand=true",)),
    ("specs/euchre.yaml", 4, 4, "greedy,random,greedy,random", ("single_hand=true",)),
    ("specs/bridge.yaml", 4, 3, "random", ()),
]


def name(spec: str, players: int, seed: int) -> str:
    """File name of one recorded game."""
    return f"{Path(spec).stem}-{players}p-seed{seed}.txt"


def transcript(spec: str, players: int, seed: int, agents: str, settings: tuple[str, ...]) -> str:
    """The game log `trickrules play` prints for one game."""
    import contextlib
    import io
    import os

    from trickrules.tools.cli import main

    args = ["play", spec, "--players", str(players), "--seed", str(seed), "--agents", agents]
    for setting in settings:
        args += ["--set", setting]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            assert main(args) == 0
    finally:
        os.chdir(cwd)
    return out.getvalue()


if __name__ == "__main__":
    for game in GAMES:
        path = HERE / name(*game[:3])
        path.write_text(transcript(*game), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
