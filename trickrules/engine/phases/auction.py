"""Phase: a competitive auction (``bid 1C`` .. ``bid 7NT``, ``pass``, ``double``, ``redouble``).

Seats call in turn from the first caller (`trickrules.rules.auction` has the rules). When the
auction ends in a contract, the declarer and the trumps of its strain are set for the round,
and, with a dummy, the declarer's partner's hand is played by the declarer; when every seat
passes, the round is scored unplayed. The calls and the contract stay readable for the round
(`Calling`), by scoring expressions as `contract_level`, `contract_strain` and `doubled`.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.actions import ActionBlock, Texts
from trickrules.rules.auction import AuctionPhase

from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset

AUCTION: Final = 10
"""This kind's `Phase` number."""

PASS, DOUBLE, REDOUBLE = -1, -2, -3
"""Calls that are not bids, as `Calling.calls` holds them (a bid is its number in the table)."""
WORDS: Final = ("pass", "double", "redouble")


@dataclass
class Calling:
    """The auction's own state, kept for the round: its rules, every call in order (by seat
    from `first`), the highest bid (-1: none yet), who made it, its doubling (0, 1, 2), the
    passes in a row, who first named each strain for each seat's side, and whether it is over."""

    rules: AuctionPhase
    first: int
    calls: list[int]
    named: list[list[int]]
    bid: int = -1
    bidder: int = -1
    doubled: int = 0
    passes: int = 0
    over: bool = False

    def __reduce__(self) -> tuple[type[Calling], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.first, self.calls, self.named, self.bid, self.bidder, self.doubled, self.passes, self.over))

    def copy(self) -> Calling:
        return Calling(self.rules, self.first, list(self.calls), [list(row) for row in self.named], self.bid,
                       self.bidder, self.doubled, self.passes, self.over)


def calling(state: State) -> Calling | None:
    """The round's auction, if it has one."""
    own: Calling | None = state.parts[AUCTION]
    return own


def passing_and_lowest_bid(state: State, legal: list[int]) -> tuple[int, int | None]:
    """Of the legal calls: the pass, and the lowest bid (None when no bid is open). The calls
    are numbered pass, double, redouble (`WORDS`), then the bids from the lowest."""
    offset = state.game.action_start["call"]
    return offset, min((a for a in legal if a >= offset + len(WORDS)), default=None)


def _side(state: State, player: int) -> tuple[int, ...]:
    return next((team for team in state.round_teams if player in team), (player,))


def _rules(game: Game) -> AuctionPhase | None:
    return next((step.rules for step in game.steps if step.kind == "auction"), None)


class Auction(PhaseKind):
    """A competitive auction."""

    def start(self, state: State, step: RoundStep) -> bool:
        rules: AuctionPhase = step.rules
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        named = [[-1] * len(rules.strains) for _ in range(state.num_players)]
        state.parts[AUCTION] = Calling(rules, first, [], named)
        enter(state, self)
        state.current = first
        return True

    def legal(self, state: State) -> list[int]:
        own: Calling = state.parts[AUCTION]
        offset = state.game.action_start["call"]
        legal = [offset]  # pass
        if own.rules.doubling and own.bid >= 0:
            ours = own.bidder in _side(state, state.current)
            if own.doubled == 0 and not ours:
                legal.append(offset + 1)
            elif own.doubled == 1 and ours:
                legal.append(offset + 2)
        legal.extend(range(offset + 3 + own.bid + 1, offset + 3 + own.rules.size))
        return legal

    def apply(self, state: State, action: int) -> None:
        own: Calling = state.parts[AUCTION]
        player = state.current
        index = action - state.game.action_start["call"]
        call = (PASS, DOUBLE, REDOUBLE)[index] if index < 3 else index - 3
        own.calls.append(call)
        if state.events is not None:
            state.log("call", player=player, call=WORDS[index] if index < 3 else own.rules.name(call))
        if call == PASS:
            own.passes += 1
            if own.passes == turns.speakers(state) - (own.bid >= 0):
                self.finish(state, own)
                return
        elif call == DOUBLE or call == REDOUBLE:
            own.doubled, own.passes = (1 if call == DOUBLE else 2), 0
        else:
            own.bid, own.bidder, own.doubled, own.passes = call, player, 0, 0
            strain = own.rules.strain(call)
            side = _side(state, player)
            if all(own.named[p][strain] < 0 for p in side):
                own.named[player][strain] = player
        state.current = turns.after(state, player)

    def finish(self, state: State, own: Calling) -> None:
        """The auction is over: play the contract, or score the deal passed out."""
        own.over = True
        rules = own.rules
        if own.bid < 0:
            if state.events is not None:
                state.log("auction_end", contract=None, declarer=-1, doubled=0, dummy=-1)
            state.end_round()
            return
        strain = rules.strain(own.bid)
        if rules.declarer == "last_bidder":
            declarer = own.bidder
        else:
            declarer = next(own.named[p][strain] for p in _side(state, own.bidder) if own.named[p][strain] >= 0)
        state.declarer = declarer
        dummy = next((p for p in _side(state, declarer) if p != declarer), -1) if rules.dummy else -1
        if state.events is not None:
            state.log("auction_end", contract=rules.name(own.bid), declarer=declarer, doubled=own.doubled, dummy=dummy)
        trumps = rules.strains[strain].trumps
        state.set_trumps(frozenset([trumps]) if trumps >= 0 else frozenset())
        if dummy >= 0:
            state.decide_for(dummy, declarer)
        state.next_step()

    def used(self, game: Game) -> bool:
        return _rules(game) is not None

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        """The longest auction: passes before the first bid, then every bid followed by passes
        short of ending it, a double, more passes, a redouble and more passes; then the last
        pass (bridge: 3 + 35 x 9 + 1 = 319)."""
        rules: AuctionPhase = step.rules
        n = game.num_players
        per_bid = 3 * (n - 1) if rules.doubling else n - 1
        return (n - 1) + rules.size * per_bid + 1

    # ------------------------------------------------------------ what the rest shows of it

    def names(self, state: State) -> dict[str, Any]:
        own = calling(state)
        if own is None or own.bid < 0:
            return {"contract_level": 0, "contract_strain": -1, "doubled": 0}
        return {"contract_level": own.rules.level(own.bid), "contract_strain": own.rules.strain(own.bid), "doubled": own.doubled}

    def segments(self, game: Game) -> list[SegmentSpec]:
        rules = _rules(game)
        if rules is None:
            return []
        n, size = game.num_players, rules.size
        found: list[SegmentSpec] = [
            ("bids_called", (n, size), 0, 1, "by seat: 1 at each bid it called this round", _bids_called),
            ("doubling", (3,), 0, 1, "1 at the last bid's doubling: none, doubled, redoubled (none before a bid)", _doubling),
            ("contract_bid", (size,), 0, 1, "1 at the contract's bid, once the auction is over", _contract_bid),
            ("auction_declarer", (n,), 0, 1, "1 at the declarer, once the auction is over", _declarer),
        ]
        return found

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        rules = _rules(game)
        assert rules is not None
        names = ["passed out", *[f"level {level}" for level in rules.levels], "doubled", "redoubled"]
        return [("auction", name, measure) for name in names for measure in ("fired", "made")]

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        """Contracts by level, doubling and passed-out deals; a contract is made when the
        declarer's points for the round are above 0."""
        kind = event["type"]
        if kind == "auction_end":
            if event["contract"] is None:
                values["auction", "passed out", "fired"] += 1
                return
            names = [f"level {_level_of(event['contract'])}"] + ([("doubled", "redoubled")[event["doubled"] - 1]] if event["doubled"] else [])
            for name in names:
                values["auction", name, "fired"] += 1
            memory["auction"] = (names, event["declarer"])
        elif kind == "round_end" and "auction" in memory:
            names, declarer = memory.pop("auction")
            for name in names:
                values["auction", name, "made"] += event["points"][declarer] > 0

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        own = calling(state)
        if own is None:
            return
        view["calls"] = [_call_text(own.rules, call) for call in own.calls]
        if own.over and own.bid >= 0:
            view["contract"] = own.rules.name(own.bid) + ("X" * own.doubled)

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        if event["type"] == "call":
            entry.setdefault("calls", []).append({"player": event["player"], "call": event["call"]})
        elif event["contract"] is not None:  # passed out: no contract, no declarer
            entry["contract"] = event["contract"] + "X" * event["doubled"]
            entry["declarer"] = event["declarer"]
            if event["dummy"] >= 0:
                entry["dummy"] = event["dummy"]

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        if "calls" not in entry:
            return []
        lines = ["Auction: " + ", ".join(f"P{c['player']} {c['call']}" for c in entry["calls"])]
        if "dummy" in entry:
            lines.append(f"Dummy: P{entry['dummy']}, laid open after the opening lead and played by the declarer")
        return lines

    def words(self, event: dict[str, Any], game: Game) -> str:
        if event["type"] == "call":
            return f"P{event['player']} calls {event['call']}"
        if event["contract"] is None:
            return "All pass: the deal is passed out"
        dummy = f", dummy P{event['dummy']}" if event["dummy"] >= 0 else ""
        return f"Contract {event['contract']}{'X' * event['doubled']}, declarer P{event['declarer']}{dummy}"

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        rules: AuctionPhase = step.rules
        first = {"dealer": "the dealer", "left_of_dealer": "the player left of the dealer"}.get(rules.first, f"seat {rules.first_seat}")
        lowest, highest = rules.name(0), rules.name(rules.size - 1)
        text = [
            "## Auction", "",
            f"Starting with {first}, players call in turn: pass, or a bid higher than the last one, from {lowest} "
            f"to {highest} (a higher level, or the same level in a higher strain: "
            f"{', '.join(s.name for s in rules.strains)}).",
        ]
        if rules.doubling:
            text.append("A player may double the other side's last bid if no one has doubled it, and redouble "
                        "a double of the own side's bid; a new bid cancels both.")
        text.append("If everyone passes at the start, the deal is passed out and scored unplayed. After a bid, "
                    "the auction ends when the others pass in turn; the last bid is the contract and its strain the trumps.")
        who = "the last bidder" if rules.declarer == "last_bidder" else "the player of that side who first named the contract's strain"
        text.append(f"The declarer is {who}.")
        if rules.dummy:
            text.append("After the opening lead the declarer's partner lays the hand open on the table, and the "
                        "declarer plays its cards as well as their own.")
        return "\n".join(text[:3]) + "\n" + " ".join(text[3:])


def _bids_called(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = calling(state)
    if own is not None:
        size, seat = own.rules.size, own.first
        for call in own.calls:
            if call >= 0:
                out[at + seat * size + call] = 1.0
            seat = turns.after(state, seat)


def _doubling(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = calling(state)
    if own is not None and own.bid >= 0:
        out[at + own.doubled] = 1.0


def _contract_bid(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = calling(state)
    if own is not None and own.over and own.bid >= 0:
        out[at + own.bid] = 1.0


def _declarer(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = calling(state)
    if own is not None and own.over and state.declarer >= 0:
        out[at + state.declarer] = 1.0


def _level_of(bid: str) -> str:
    """The level of a bid as written (``3NT``: 3)."""
    return bid[: len(bid) - len(bid.lstrip("0123456789"))]


def _call_text(rules: AuctionPhase, call: int) -> str:
    return WORDS[-call - 1] if call < 0 else rules.name(call)


def _texts(game: Game) -> Texts:
    rules = _rules(game)
    assert rules is not None  # a game without an auction has no block to write
    names = {rules.name(bid): bid for bid in range(rules.size)}

    def parse(said: str, rest: str) -> int:
        if said == "bid":
            return 3 + names[rest]
        if rest:
            raise ValueError(rest)
        return WORDS.index(said)

    return (lambda index: WORDS[index] if index < 3 else f"bid {rules.name(index - 3)}"), parse


def _size(game: Game) -> int:
    rules = _rules(game)
    return 3 + rules.size if rules is not None else 0


KIND: Final[Auction] = Auction(AUCTION, "auction", (ActionBlock(10, "call", _size, _texts),), events=("call", "auction_end"))
