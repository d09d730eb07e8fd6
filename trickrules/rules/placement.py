"""Placement: where won cards and gained tokens go on a player's tableau.

A tableau row is a player's sections in order. Cards of one counting suit share a section;
a new suit opens the next section still without cards; with no section left, the card goes
to the player's pile. Tokens fill the free spaces of sections (a section has as many spaces
as it needs tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

NO_SUIT: Final = -1
NO_SECTION: Final = -1


def section_for(suit: int, section_suits: list[int]) -> int:
    """The section a card of `suit` goes to: the one holding the suit, else the next free one."""
    if suit in section_suits:
        return section_suits.index(suit)
    return section_suits.index(NO_SUIT) if NO_SUIT in section_suits else NO_SECTION


def free_token_sections(tokens: Sequence[int], needed: Sequence[int]) -> list[int]:
    """Sections with at least one free token space."""
    return [s for s, (held, need) in enumerate(zip(tokens, needed)) if held < need]


def free_token_spaces(tokens: Sequence[int], needed: Sequence[int]) -> int:
    """Number of free token spaces on a tableau row (a section never holds more than it needs)."""
    return sum(needed) - sum(tokens)


def forced_cards(remaining: Sequence[int], suit: Sequence[int], section_suits: list[int]) -> list[int]:
    """The cards of `remaining` whose placement involves no choice, in play order.

    A choice exists between cards of one suit (which lies on top) and between cards of
    different new suits (which opens a section first). A card alone of its suit that does not
    compete for a new section is forced, and so is every card bound for the pile (no section
    left for its suit) and every card when only one remains. Placing forced cards never turns
    another card into a choice, except by leaving a single card: callers ask again after each
    decision.
    """
    if len(remaining) == 1:
        return list(remaining)
    suits = [suit[c] for c in remaining]
    if NO_SUIT in section_suits:
        new = {s for s in suits if s not in section_suits}
        if len(new) > 1:
            return [c for c, s in zip(remaining, suits) if s not in new and suits.count(s) == 1]
        return [c for c, s in zip(remaining, suits) if suits.count(s) == 1]
    return [c for c, s in zip(remaining, suits) if suits.count(s) == 1 or s not in section_suits]
