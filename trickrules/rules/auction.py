"""The rules of a competitive auction, as a spec writes them (`round: [..., {auction: ...}]`).

Bids come from an ordered table: every level with every strain, level first (``1C`` < ``1D``
< ... < ``1NT`` < ``2C``...). A call is a bid above the last one, a pass, a double of the
other side's last bid (once) or a redouble of one's own side's doubled bid (once). The
auction ends when every seat passes at the start (the deal is passed out: scored unplayed),
or when the others pass in a row after a bid. The last bid is the contract, doubled or not;
its strain names the trumps; the declarer is, by `declarer`, the player of the winning side
who first named the strain (bridge), or the last bidder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal


@dataclass(frozen=True)
class Strain:
    """A strain of bids: its name in a bid (``C``, ``NT``) and the trump suit it makes (-1: none)."""

    name: str
    trumps: int = -1


@dataclass(frozen=True)
class AuctionPhase:
    """A competitive auction (see the module's description)."""

    levels: tuple[int, ...]
    strains: tuple[Strain, ...]
    first: Literal["dealer", "left_of_dealer", "seat"] = "dealer"
    first_seat: int = 0
    doubling: bool = True
    declarer: Literal["first_to_name_strain", "last_bidder"] = "first_to_name_strain"
    dummy: bool = False
    """The declarer's partner lays the hand open after the opening lead, and the declarer
    plays its cards."""

    @property
    def size(self) -> int:
        """How many bids the table holds."""
        return len(self.levels) * len(self.strains)

    def level(self, bid: int) -> int:
        """The level of bid number `bid`."""
        return self.levels[bid // len(self.strains)]

    def strain(self, bid: int) -> int:
        """The strain (its index) of bid number `bid`."""
        return bid % len(self.strains)

    def name(self, bid: int) -> str:
        """A bid as a spec and a player write it: level, then strain (``3NT``)."""
        return f"{self.level(bid)}{self.strains[self.strain(bid)].name}"


NAMES: Final[dict[str, str]] = {
    "contract_level": "the level of the contract an auction ended in (0: none, the deal passed out)",
    "contract_strain": "the strain of the contract, its index in the auction's `strains` (-1: none)",
    "doubled": "1 when the contract is doubled, 2 when redoubled, else 0",
}
"""The names an auction gives scoring expressions, and what each means."""
