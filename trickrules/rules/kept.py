"""Kept cards: cards that go back to their owner's won cards when another player wins the trick
they were played to (Tarot's excuse), with a card of the owner's given in exchange.

The engine routes them as each trick is won (`trickrules.engine.kept_cards`) and makes the
exchanges when the round's play ends: for each kept card whose trick a player of another side
won, the owner gives that player the first card it won that matches `exchange`, if any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trickrules.rules.ruleset import CardCondition


@dataclass(frozen=True)
class KeptCards:
    """The cards kept by their owner (`cards`), and the won cards given for one (`exchange`;
    None: nothing is given)."""

    cards: CardCondition
    exchange: CardCondition | None = None
