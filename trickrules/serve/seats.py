"""Who sits where: ``human`` or a bot (``random``, ``greedy``, ``ismcts``, ``ismcts:N``) per seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trickrules.engine.agents import make_agent

HUMAN = "human"
DEFAULT_SEATS = "human,greedy"
"""Seat 0 is the designer's; every other seat a greedy bot."""


def parse_seats(text: str | Sequence[str] | None, players: int) -> list[str]:
    """The kind of each of `players` seats from ``human,ismcts:200,greedy,random``.

    A list shorter than the table is filled with its last bot (or ``greedy`` after a
    ``human``); a single bot name fills every seat. ValueError for a name that is neither
    ``human`` nor an agent `make_agent` knows, or for more names than seats.
    """
    if text is None:
        text = DEFAULT_SEATS
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    names = [n for n in names if n]
    if not names:
        raise ValueError("no seats given (e.g. human,greedy,greedy,ismcts:200)")
    if len(names) > players:
        raise ValueError(f"{len(names)} seats given for a game of {players} players")
    for name in names:
        if name != HUMAN:
            make_agent(name)  # raises ValueError with the list of agents
    filler = names[-1] if names[-1] != HUMAN else "greedy"
    return names + [filler] * (players - len(names))


def make_bot(kind: str, seed: int, seat: int) -> Any:
    """The agent of a bot seat, seeded as `trickrules play` seeds its agents."""
    return make_agent(kind, seed * 1000 + seat)
