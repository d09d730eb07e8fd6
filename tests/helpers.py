"""Shared helpers of the engine tests."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import trickrules
from trickrules.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
KINGDOMS = SPECS / "kingdoms.yaml"
MEADOWS = SPECS / "meadows.yaml"


@lru_cache(maxsize=None)
def game(path: Path, players: int | None = None, **options: object) -> Game:
    """A cached game of a shipped spec."""
    return trickrules.load_game(path, players=players, options=options or None)


def ids(g: Game, cards: list[int]) -> list[str]:
    """Card ids of card indices."""
    return [g.card_ids[c] for c in cards]


def cards(g: Game, *names: str) -> list[int]:
    """Card indices of card ids."""
    return [g.card_index(n) for n in names]


def suits(g: Game, *names: str) -> frozenset[int]:
    """Suit indices of suit names, as a trump set."""
    return frozenset(g.ruleset.deck.suits.index(n) for n in names)
