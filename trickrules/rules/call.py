"""The rules of calling a partner, as a spec writes them (`round: [..., {call: ...}]`).

After the declaring, the declarer names one card of a list (Tarok's four kings; other games
call an ace): whoever else holds it is the declarer's partner for the round, a secret until
the card is played. A declarer who holds the card, or whose card lies among the set-aside
cards, plays alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from trickrules.rules.expressions import Expression


@dataclass(frozen=True)
class CallPhase:
    """Calling a card whose holder is the declarer's hidden partner (see the module's description)."""

    cards: tuple[int, ...]
    """The cards the declarer may call, every one of them always (in deck order)."""
    contracts: tuple[int, ...] = ()
    """The contracts (their indices) in which the declarer calls; () for every contract."""
    when: Expression | None = None
    """The declarer calls only while this holds (e.g. ``players == 4``); None: always."""
