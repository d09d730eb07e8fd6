"""The kinds of phase a game can wait in, as a public enum and as plain integers, and the
seat a phase starts with."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """What the game waits for."""

    CHOOSE_TRUMPS = 0
    PLAY = 1
    PLACE_TOKENS = 2
    PLACE_CARDS = 3
    TERMINAL = 4
    PASS = 5
    BID = 6
    DISCARD = 7
    GO_ALONE = 8
    DECLARE = 9


# Plain integers on the hot path: comparing them is cheaper than comparing enum members.
CHOOSE_TRUMPS, PLAY, PLACE_TOKENS, PLACE_CARDS, TERMINAL, PASS, BID, DISCARD, GO_ALONE, DECLARE = (int(p) for p in Phase)


def starting_seat(first: str, seat: int, dealer: int, players: int) -> int:
    """The seat a phase starts with: the ``dealer``, the player after the dealer
    (``left_of_dealer``), or a fixed ``seat``."""
    if first == "seat":
        return seat
    return (dealer + (0 if first == "dealer" else 1)) % players
