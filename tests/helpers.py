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

GEMS_DECK = """deck:
  suits: [red, blue, green]
  attributes:
    gems: {default: 1}
  generate:
    - suits: all
      ranks: {from: 1, to: 4}
      attributes:
        gems: {by_rank: {4: 5, 3: 2}}
"""
"""The deck of the small test specs: three suits of ranks 1 to 4 (card index 4 * suit + rank - 1),
each card with `gems` (5 for a 4, 2 for a 3, else 1)."""


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
