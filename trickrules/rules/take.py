"""The rules of taking the set-aside cards, as a spec writes them (`round: [..., {take: ...}]`).

The cards not dealt (the skat, the talon, the kitty) lie face down beside the hands. In a
`take` phase the declarer takes them into the hand, all of them or one of several groups the
pile is split into in dealt order, and lays away (buries) as many cards, one action each. A
buried card must not match the first of the `forbid` conditions unless every card of the hand
does; then not the next, and so on. What is buried stays
hidden from the others and counts, by `buried_count_for`, as won by the taker at the end of
the round, or for nobody; the cards of the pile not taken count for nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from trickrules.rules.ruleset import CardCondition


@dataclass(frozen=True)
class TakePhase:
    """Taking the set-aside cards and burying as many (see the module's description)."""

    groups: int = 1
    """The pile is split into this many groups of equal size, in dealt order; the taker takes
    one (1: the whole pile, taken without a choice)."""
    groups_by_contract: tuple[tuple[int, int], ...] = ()
    """(contract index, groups) where a contract splits the pile otherwise than `groups`."""
    shown: bool = False
    """The pile is turned face up for everyone when the taker chooses a group."""
    bury: int = -1
    """How many cards the taker lays away after taking (-1: as many as taken)."""
    forbid: tuple[CardCondition, ...] = ()
    """Cards that may not be buried: the first condition's, unless the hand holds nothing else;
    then the next one's, and so on."""
    buried_count_for: Literal["taker", "nobody"] = "taker"
    """Whose won cards the buried cards count among at the end of the round."""
    contracts: tuple[int, ...] = ()
    """The contracts (their indices) in which the declarer takes; () for every contract."""
    hand: bool = False
    """The declarer first chooses to pick the pile up or to play from the hand as dealt (Skat's
    hand game): the pile then stays face down, counting for the declarer where buried cards
    do."""


    def groups_in(self, contract: int) -> int:
        """How many groups the pile is split into when `contract` is played."""
        return dict(self.groups_by_contract).get(contract, self.groups)


MAX_GROUPS: Final = 12
"""The most groups a pile may be split into (the size of the ``take`` action block)."""
