"""Phase: each player bids once, in seat order (action ``bid <value>``, e.g. ``bid 3``, ``bid nil``).

The values run from the spec's lowest to its highest (an expression of the hand size, checked
at load to give at least one bid and at most `MAX_BIDS`); a value is legal while the phase's
`allow` expression holds for it, and when `allow` holds for none, every value of the range is. Bids stay readable for the
rest of the round (`bids`), by scoring expressions as `bid` and `bids`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.actions import ActionBlock, Texts
from trickrules.rules.ruleset import BidPhase

from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


BID: Final = 6
"""This kind's `Phase` number."""


@dataclass
class Bidding:
    """The bids of the round, by seat (None: not bid yet), kept for the round; while the
    phase runs, also its rules, who bid first and how many have bid."""

    rules: BidPhase
    first: int
    bids: list[int | None]
    made: int = 0

    def __reduce__(self) -> tuple[type[Bidding], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.bids, self.made))

    def copy(self) -> Bidding:
        return Bidding(self.rules, self.first, list(self.bids), self.made)


def bids(state: State) -> list[int | None]:
    """The round's bids by seat (None: not bid, or no bid phase this round)."""
    own: Bidding | None = state.parts[BID]
    return own.bids if own is not None else [None] * state.num_players


class Bid(PhaseKind):
    """Each player bids once, in seat order (action ``bid <value>``)."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin the bidding with the first bidder (a second bid phase starts from the bids
        of the first)."""
        rules = step.bidding
        assert rules is not None
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        state.parts[BID] = Bidding(rules, first, list(bids(state)))
        enter(state, self)
        state.current = first
        return True

    def legal(self, state: State) -> list[int]:
        return legal(state)

    def apply(self, state: State, action: int) -> None:
        own: Bidding = state.parts[BID]
        player = state.current
        value = action - state.game.bid_offset
        own.bids[player] = value  # read through bid_env and the scoring names, not State.env
        if state.events is not None:
            state.log("bid", player=player, bid=value, name=own.rules.name(value))
        own.made += 1
        if own.made < turns.speakers(state):
            state.current = turns.after(state, player)
            return
        state.next_step()


def _texts(game: Game) -> Texts:
    bidding = game.bidding
    assert bidding is not None  # a game without bids has no block to write
    words = {word: value for value, word in bidding.names}

    def parse(said: str, rest: str) -> int:
        if said != "bid":
            raise KeyError(said)
        value = words[rest] if rest in words else int(rest)
        if value < bidding.lowest or bidding.name(value) != rest:
            raise ValueError(rest)
        return value

    return (lambda value: f"bid {bidding.name(value)}"), parse


KIND: Final[Bid] = Bid(BID, "bid", (ActionBlock(5, "bid", lambda g: g.num_bids, _texts),))


def bid_env(state: State, player: int) -> dict[str, Any]:
    """What the bid phase's expressions read for `player`, before the candidate `bid`."""
    own: Bidding = state.parts[BID]
    bids = own.bids
    made = [b for b in bids if b is not None]
    partner = -1
    for team in state.game.ruleset.teams:
        if player in team:
            partner = next((b for p in team if p != player and (b := bids[p]) is not None), -1)
    env = dict(state.env(player))  # holds hand_size and players already
    env.update(
        bids_total=sum(made),
        bids_made=len(made),
        last=len(made) == state.num_players - 1,
        partner_bid=partner,
    )
    return env


def legal(state: State) -> list[int]:
    """The bids the current player may make."""
    own: Bidding = state.parts[BID]
    rules = own.rules
    env = bid_env(state, state.current)
    # `to` may read counters, which change: the range stays within the actions the game has
    highest = max(rules.lowest, min(int(rules.highest(env)), state.game.num_bids - 1))
    offset = state.game.bid_offset
    values = range(rules.lowest, highest + 1)
    allow = rules.allow
    if allow is None:
        return [offset + v for v in values]
    # the legal bids depend on the values the expression reads besides `bid`: kept per game
    game = state.game
    key = (rules.lowest, highest, *[env.get(name, _MISSING) for name in game.bid_reads])
    keep = rules is game.bidding
    if keep:
        try:
            known = game.bid_allowed.get(key)
        except TypeError:  # a value that cannot be a key (a list): worked out every time
            known, keep = None, False
        if known is not None:
            return list(known)
    result = []
    for value in values:
        env["bid"] = value
        if allow(env):
            result.append(offset + value)
    if not result:  # `allow` leaves no bid: every bid of the range is open (a player always has a move)
        result = [offset + v for v in values]
    if keep:
        if len(game.bid_allowed) >= _KEPT:
            game.bid_allowed.clear()
        game.bid_allowed[key] = tuple(result)
    return result


_MISSING: Final = object()
_KEPT: Final = 4096
"""At most this many sets of legal bids are kept per game (then the store starts again)."""


