"""Placement: where won cards and gained tokens go on a player's tableau.

A tableau row is a player's sections in order. Cards of one counting suit share a section;
a new suit opens the next section still without cards; with no section left, the card goes
to the player's pile. Tokens fill the free spaces of sections (a section has as many spaces
as it needs tokens).
"""

from __future__ import annotations

from collections.abc import Sequence

NO_SUIT = -1
NO_SECTION = -1


def section_for(suit: int, section_suits: Sequence[int]) -> int:
    """The section a card of `suit` goes to: the one holding the suit, else the next free one."""
    free = NO_SECTION
    for index, held in enumerate(section_suits):
        if held == suit:
            return index
        if held == NO_SUIT and free == NO_SECTION:
            free = index
    return free


def opens_section(suit: int, section_suits: Sequence[int]) -> bool:
    """Whether a card of `suit` would open a new section."""
    return suit not in section_suits and NO_SUIT in section_suits


def free_token_sections(tokens: Sequence[int], needed: Sequence[int]) -> list[int]:
    """Sections with at least one free token space."""
    return [s for s, (held, need) in enumerate(zip(tokens, needed)) if held < need]


def free_token_spaces(tokens: Sequence[int], needed: Sequence[int]) -> int:
    """Number of free token spaces on a tableau row."""
    return sum(need - held for held, need in zip(tokens, needed) if held < need)


def forced_card(remaining: Sequence[int], suit: Sequence[int], section_suits: Sequence[int]) -> int | None:
    """A card of `remaining` whose placement involves no choice, or None.

    A choice exists between cards of one suit (their order on the stack) and between cards of
    different new suits (which opens first). A card alone of its suit that does not compete
    for a new section is forced.
    """
    if len(remaining) == 1:
        return remaining[0]
    suits = [suit[c] for c in remaining]
    new_suits = {s for s in suits if opens_section(s, section_suits)}
    for card, card_suit in zip(remaining, suits):
        if suits.count(card_suit) > 1:
            continue
        if card_suit not in new_suits or len(new_suits) == 1:
            return card
    return None
