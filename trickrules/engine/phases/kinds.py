"""The kinds of phase a game can wait in, as a public enum and as plain integers."""

from __future__ import annotations

from enum import IntEnum
from typing import Final


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


# Plain integers on the hot path: comparing them is cheaper than comparing enum members (and
# a compiled engine builds `Final` ones into its code). tests/test_state.py checks they match.
CHOOSE_TRUMPS: Final = 0
PLAY: Final = 1
PLACE_TOKENS: Final = 2
PLACE_CARDS: Final = 3
TERMINAL: Final = 4
PASS: Final = 5
BID: Final = 6
DISCARD: Final = 7
GO_ALONE: Final = 8
DECLARE: Final = 9
