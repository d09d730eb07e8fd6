"""The rules of a declare phase, as a spec writes them (`round: [..., {declare: ...}]`).

Players in turn, from `first`, pass or declare one of `contracts` (action ``contract <name>``).
By `bidding`:

- ``first``: the first to declare is the declarer and the contract applies to the round; if all
  pass, `otherwise` applies (a contract's index), or the round is scored unplayed (-1).
- ``precedence``: the contracts are listed lowest first and players bid them until one is
  left. A pass is final (a player who passed is not asked again); a bid must be higher than
  the highest bid so far, or equal to it when the bidder has precedence over its holder (the
  seats have precedence in seat order from `precedence_seat`). The last player left may not
  pass: when everyone else has passed, its bid is the contract and it is the declarer.
- ``declarer``: the declarer an earlier bid phase found (the winner of the bidding) names one
  of the contracts, with no pass; `first` is not read. The phase is skipped when no one won the
  bidding. When no contract's condition holds, every contract is open.

A contract listed in `allow` is open only while its expression holds (names: `contexts.DECLARE`:
the seat speaking, its first turn, whether everyone else passed, and the play names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from trickrules.rules.expressions import Expression


@dataclass(frozen=True)
class DeclarePhase:
    """A declare phase's rules (see the module's description)."""

    contracts: tuple[int, ...]
    first: Literal["left_of_dealer", "dealer", "seat"] = "left_of_dealer"
    first_seat: int = 0
    otherwise: int = -1
    bidding: Literal["first", "precedence", "declarer"] = "first"
    precedence_seat: int = 0
    allow: tuple[tuple[int, Expression], ...] = ()
    """(contract index, condition) for each contract open only while its condition holds."""

    def has_precedence(self, seat: int, over: int, players: int) -> bool:
        """Whether `seat` may match a bid of `over` (it comes first from `precedence_seat`)."""
        return (seat - self.precedence_seat) % players <= (over - self.precedence_seat) % players
