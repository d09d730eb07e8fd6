"""Phase: each player bids once, in seat order (action ``bid <value>``, e.g. ``bid 3``, ``bid nil``),
or, bidding by precedence, players bid up until one is left (``bid 250``, ``pass``).

The values run from the spec's lowest to its highest (an expression of the hand size, checked
at load to give at least one bid and at most `MAX_BIDS`); a value is legal while the phase's
`allow` expression holds for it, and when `allow` holds for none, every value of the range is. Bids stay readable for the
rest of the round (`bids`), by scoring expressions as `bid` and `bids`.

Bidding by precedence, players speak in turn from the first, skipping those who passed (a pass
is final). A bid must beat the highest bid, or may match it when the bidder has precedence over
its holder (the precedence seat first, then the seats after it; without one, no bid matches). The bidding ends when every
player but the holder of the highest bid has passed: the holder is the declarer, at its bid. A
player left alone without a bid may still bid (and declares) or pass; when everyone passes the
round is not played, and scores as a round nobody declared.

Speaking in duels (Skat's order), two players bid at a time: the first (who listens) and the
next (who speaks). The speaker bids above the highest bid or passes; after each bid the
listener holds it (bids the same value) or passes. The one who did not pass listens to the
next player in turn, until every player has spoken; the one left is the declarer at its bid,
or, left without a bid, may bid or pass as above.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.actions import ActionBlock, Texts
from trickrules.rules.ruleset import FIRST_BIDDER, BidPhase

from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
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
    passed: list[bool] | None = None  # bidding by precedence: the seats that passed
    duel: list[int] | None = None  # speaking in duels: the listener, the speaker, then the seats still to speak

    def __reduce__(self) -> tuple[type[Bidding], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.bids, self.made, self.passed, self.duel))

    def copy(self) -> Bidding:
        return Bidding(self.rules, self.first, list(self.bids), self.made, None if self.passed is None else list(self.passed),
                       None if self.duel is None else list(self.duel))

    def precedence(self) -> int:
        """The seat with precedence (-1: none; the rules' `FIRST_BIDDER`: the first bidder)."""
        seat = self.rules.precedence_seat
        return self.first if seat == FIRST_BIDDER else seat

    def highest(self, players: int) -> tuple[int, int]:
        """The highest bid and the seat holding it, the one with precedence among equal bids
        (-1, -1 before any bid)."""
        made = [(b, p) for p, b in enumerate(self.bids) if b is not None]
        if not made:
            return -1, -1
        high = max(b for b, _ in made)
        seat = max(self.precedence(), 0)
        holder = min((p for b, p in made if b == high), key=lambda p: (p - seat) % players)
        return high, holder


def bids(state: State) -> list[int | None]:
    """The round's bids by seat (None: not bid, or no bid phase this round)."""
    own: Bidding | None = state.parts[BID]
    return own.bids if own is not None else [None] * state.num_players


def passed(state: State) -> list[bool] | None:
    """Bidding by precedence: the seats that passed this round (None otherwise)."""
    own: Bidding | None = state.parts[BID]
    return None if own is None or own.passed is None else list(own.passed)


class Bid(PhaseKind):
    """Each player bids once, in seat order (action ``bid <value>``)."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin the bidding with the first bidder (a second bid phase starts from the bids
        of the first)."""
        rules = step.bidding
        assert rules is not None
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        by_precedence = rules.bidding == "precedence"
        start: list[int | None] = [None] * state.num_players if by_precedence else list(bids(state))
        own = state.parts[BID] = Bidding(rules, first, start, passed=[False] * state.num_players if by_precedence else None)
        enter(state, self)
        state.current = first
        if by_precedence and rules.speaking == "duels" and turns.speakers(state) > 1:
            own.duel = [turns.nth_after(state, first, k) for k in range(turns.speakers(state))]
            state.current = own.duel[1]
        return True

    def legal(self, state: State) -> list[int]:
        return legal(state)

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        """Bidding by precedence: each value of the range can be bid twice at most (to raise,
        then to match with precedence), and each seat passes once (beyond its one turn that
        `Game.info` counts)."""
        rules = step.bidding
        if rules is None or rules.bidding != "precedence":
            return 0
        return 2 * max(0, game.num_bids - rules.lowest)

    def segments(self, game: Game) -> list[SegmentSpec]:
        if not any(step.bidding is not None and step.bidding.bidding == "precedence" for step in game.steps):
            return []
        return [("bid_passed", (game.num_players,), 0, 1, "1 at each seat that passed, bidding by precedence", _passed_seats)]

    def apply(self, state: State, action: int) -> None:
        own: Bidding = state.parts[BID]
        player = state.current
        if own.duel is not None:
            in_duels(state, own, player, action)
            return
        if own.passed is not None:
            by_precedence(state, own, player, action)
            return
        value = action - state.game.bid_offset
        own.bids[player] = value  # read through bid_env and the scoring names, not State.env
        if state.events is not None:
            state.log("bid", player=player, bid=value, name=own.rules.name(value))
        own.made += 1
        if own.made < turns.speakers(state):
            state.current = turns.after(state, player)
            return
        state.next_step()


def _call(state: State, own: Bidding, player: int, action: int) -> bool:
    """Note a pass (final) or a bid, bidding by precedence; True for a pass."""
    passed = own.passed
    assert passed is not None
    if action == state.game.choose_pass_action:
        passed[player] = True
        if state.events is not None:
            state.log("bid", player=player, bid=None, name="pass")
        return True
    value = action - state.game.bid_offset
    own.bids[player] = value
    if state.events is not None:
        state.log("bid", player=player, bid=value, name=own.rules.name(value))
    return False


def in_duels(state: State, own: Bidding, player: int, action: int) -> None:
    """A pass or a bid, speaking in duels (see the module); then the other of the duel, the
    next duel, or the declarer."""
    duel = own.duel
    assert duel is not None
    listener, speaker = duel[0], duel[1]
    if not _call(state, own, player, action):
        state.current = listener if player == speaker else speaker
        return
    survivor = listener if player == speaker else speaker
    waiting = duel[2:]
    if waiting:  # the survivor listens to the next player in turn
        own.duel = [survivor, *waiting]
        state.current = waiting[0]
    elif own.bids[survivor] is not None:
        state.declarer = survivor
        state.next_step()
    else:  # left alone without a bid: it may still bid or pass, as bidding in turn (`by_precedence`)
        own.duel = None
        state.current = survivor


def by_precedence(state: State, own: Bidding, player: int, action: int) -> None:
    """A pass or a bid, bidding by precedence; then the next player, or the declarer."""
    passed = own.passed
    assert passed is not None
    _call(state, own, player, action)
    left = [p for p in range(state.num_players) if not passed[p] and p not in state.sitting_out]
    high, holder = own.highest(state.num_players)
    if not left:  # everyone passed: the round is not played
        state.end_round()
        return
    if len(left) == 1 and left[0] == holder:  # the last one left holds the highest bid
        state.declarer = holder
        state.next_step()
        return
    seat = turns.after(state, player)
    while passed[seat]:
        seat = turns.after(state, seat)
    state.current = seat


def _passed_seats(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for seat, gone in enumerate(passed(state) or ()):
        if gone:
            out[at + seat] = 1.0


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
    """The bids the current player may make (bidding by precedence: a pass, and the bids that
    beat the highest or match it with precedence over its holder)."""
    own: Bidding = state.parts[BID]
    allowed = _allowed(state, own)
    if own.passed is None:
        return allowed
    n, current, offset = state.num_players, state.current, state.game.bid_offset
    high, holder = own.highest(n)
    if own.duel is not None:  # the speaker bids higher; the listener holds
        holds = current == own.duel[0]
        return [state.game.choose_pass_action, *[a for a in allowed if (a - offset == high if holds else a - offset > high)]]
    seat = own.precedence()
    beats = [a for a in allowed if a - offset > high or (a - offset == high and seat >= 0 and (current - seat) % n <= (holder - seat) % n)]
    return [state.game.choose_pass_action, *beats]


def _allowed(state: State, own: Bidding) -> list[int]:
    """The bids of the range that `allow` lets the current player make."""
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


