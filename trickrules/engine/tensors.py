"""Observation tensors: what a player sees, as a flat list of numbers laid out from the spec.

A game's `ObservationLayout` (`Game.observation_layout()`, computed once) is a sequence of
named segments, each a block of the tensor with a shape, bounds and a meaning; a segment is
there only when the spec has what it shows (bids in a game with a bid phase, tokens in a game
with tokens, ...). Seats are absolute (seat 0 is seat 0 for every player; the ``seat``
segment says whose view it is); a card is its index in the deck (`Game.card_ids`).

The tensor never shows a card another player holds or laid away unseen: a player sees its own
hand, the cards it passed and received, its own discards, and what lies on the table (the
current trick, the round's tricks by seat, won cards, tableaux, tokens, bids, counters and
scores). ``tests/test_tensors.py`` deals other hands differently and checks that nothing
changes.

>>> game = trickrules.load_game("hearts")
>>> layout = game.observation_layout()
>>> layout.segment("hand").shape
(52,)
>>> len(game.new_initial_state(seed=1).observation_tensor(0)) == layout.size
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trickrules.engine import partners, views
from trickrules.engine.round_end import side_of
from trickrules.engine.phases import ALL_KINDS, KINDS, Phase, bid, call, declare, pass_cards, place_cards, place_tokens, turn_up

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State

INF = math.inf

Writer = Callable[["State", int, MutableSequence[float], int], None]
"""Writes one segment of `player`'s tensor into `out` from position `at`."""


@dataclass(frozen=True)
class Segment:
    """One named block of the observation tensor: where it starts, its shape and bounds."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str

    @property
    def size(self) -> int:
        """How many numbers the segment holds."""
        return math.prod(self.shape)

    @property
    def stop(self) -> int:
        """The position after the segment's last number."""
        return self.start + self.size

    @property
    def slice(self) -> slice:
        """The segment's numbers in a tensor: ``tensor[segment.slice]``."""
        return slice(self.start, self.stop)


class ObservationLayout:
    """The segments of a game's observation tensor, in order, and how to fill them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        segments: list[Segment] = []
        writers: list[tuple[int, Writer]] = []
        at = 0
        for name, shape, low, high, meaning, writer in _segments(game):
            segment = Segment(name, at, shape, low, high, meaning)
            segments.append(segment)
            writers.append((at, writer))
            at = segment.stop
        self.segments: tuple[Segment, ...] = tuple(segments)
        self.size = at
        self._writers = tuple(writers)
        self._by_name = {s.name: s for s in segments}

    def __repr__(self) -> str:
        return f"<ObservationLayout {self.game.ruleset.id} size={self.size} segments={len(self.segments)}>"

    def segment(self, name: str) -> Segment:
        """The segment called `name` (KeyError naming the game's segments if there is none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no segment {name!r} in this game's observation (segments: {', '.join(self._by_name)})") from None

    def low(self) -> list[float]:
        """The least value of every position of the tensor."""
        return [s.low for s in self.segments for _ in range(s.size)]

    def high(self) -> list[float]:
        """The greatest value of every position of the tensor."""
        return [s.high for s in self.segments for _ in range(s.size)]

    def tensor(self, state: State, player: int) -> list[float]:
        """`player`'s observation tensor of `state` (see `State.observation_tensor`)."""
        out = [0.0] * self.size
        self.write(state, player, out)
        return out

    def write(self, state: State, player: int, out: MutableSequence[float]) -> None:
        """Write `player`'s observation tensor of `state` into `out`, which holds `size` zeros
        (a list, or an ``array("f")`` a NumPy array can share without a copy)."""
        for at, write in self._writers:
            write(state, player, out, at)

    def split(self, tensor: Sequence[float]) -> dict[str, list[float]]:
        """A tensor cut into its segments, by name (flat lists)."""
        return {s.name: list(tensor[s.slice]) for s in self.segments}

    def describe(self) -> str:
        """The layout as a Markdown table: segment, positions, shape, bounds, meaning."""
        rows = ["| segment | positions | shape | bounds | meaning |", "|---|---|---|---|---|"]
        for s in self.segments:
            shape = " x ".join(map(str, s.shape))
            rows.append(f"| `{s.name}` | {s.start}-{s.stop - 1} | {shape} | {_bound(s.low)} to {_bound(s.high)} | {s.meaning} |")
        return "\n".join(rows)


def _bound(value: float) -> str:
    return "-inf" if value == -INF else "inf" if value == INF else str(int(value))


# ---------------------------------------------------------------- the segments of a game


SegmentSpec = tuple[str, tuple[int, ...], float, float, str, Writer]
"""One segment of the layout to make: name, shape, lowest and highest value, meaning, writer."""


def _segments(game: Game) -> list[SegmentSpec]:
    """The segments the game's spec calls for, in tensor order."""
    rules = game.ruleset
    n, cards, suits = game.num_players, game.num_cards, len(rules.deck.suits)
    phases = _phases(game)
    found: list[SegmentSpec] = [
        ("seat", (n,), 0, 1, "1 at the seat whose view this is", _seat),
        ("to_move", (n,), 0, 1, "1 at the seat to decide now (none once the game is over)", _to_move),
        ("phase", (len(phases),), 0, 1, "1 at the phase: " + ", ".join(p.name.lower() for p in phases), _phase_writer(phases)),
        ("round", (1,), 0, rules.rounds, "the number of rounds finished", _round),
        ("dealer", (n,), 0, 1, "1 at the round's dealer", _dealer),
        ("hand", (cards,), 0, 1, "1 for each card in the player's own hand", _hand),
        ("hand_sizes", (n,), 0, cards, "how many cards each seat holds", _hand_sizes),
        ("trick", (n, cards), 0, 1, "by seat: 1 at the card it played to the current trick", _trick),
        ("trick_leader", (n,), 0, 1, "1 at the seat that led the current trick (none before the lead)", _trick_leader),
        ("played", (n, cards), 0, 1, "by seat: 1 for each card it played this round", _played),
        ("won", (n, cards), 0, 1, "by seat: 1 for each card it won this round (pile, tableau, or waiting to be laid)", _won),
        ("tricks_won", (n,), 0, cards, "tricks each seat won this round", _tricks_won),
        ("trumps", (suits,), 0, 1, "1 for each trump suit", _trumps),
        ("totals", (n,), -INF, INF, "each seat's total points from finished rounds", _totals),
    ]
    if rules.rewards:
        found.append(("reward_points", (n,), -INF, INF, "points of rewards each seat gained this round", _bonus))
    if any(step.kind == "turn_up" for step in game.steps):
        found.append(("turned_up", (cards,), 0, 1, "1 at the card turned up this round", _turned_up))
    if game.passes:
        found += [
            ("pass_to", (n,), 0, 1, "1 at the seat offset cards pass to this round (0: to oneself, no pass)", _pass_to),
            ("passed", (cards,), 0, 1, "1 for each card the player passed this round", _passed),
            ("received", (cards,), 0, 1, "1 for each card passed to the player this round, once arrived", _received),
        ]
    if game.discards:
        found.append(("discarded", (cards,), 0, 1, "1 for each card the player discarded this round", _discarded))
    found += _language2_segments(game)
    found += _token_segments(game)
    for kind in ALL_KINDS:  # the kinds that show their own segments, after all the others
        found += kind.segments(game)
    return found


def _language2_segments(game: Game) -> list[SegmentSpec]:
    rules, n = game.ruleset, game.num_players
    found: list[SegmentSpec] = []
    if game.bidding is not None:
        found.append(("bids", (n, game.num_bids), 0, 1, "by seat: 1 at its bid this round (none before it bids)", _bids))
    if game.chooses_in_rounds or game.declares:
        found.append(("declarer", (n,), 0, 1, "1 at the round's declarer (none yet)", _declarer))
    if game.declares:
        count = len(game.contract_names)
        found.append(("contract", (count,), 0, 1, "1 at the contract declared: " + ", ".join(game.contract_names), _contract))
    if game.goes_alone:
        found.append(("sitting_out", (n,), 0, 1, "1 at each seat sitting out this round", _sitting_out))
    dummy = any(step.kind == "auction" and step.rules.dummy for step in game.steps)  # a dummy's hand, laid open
    if dummy or any(g.ruleset.open_hand for g in (game, *game.contract_games)):
        found.append(("exposed", (n, game.num_cards), 0, 1, "by seat: its hand, once laid open on the table", _exposed))
    if rules.teams or game.declares:
        found.append(("side", (n,), 0, 1, "1 at each seat on the player's side this round (itself included)", _side))
    if rules.partner_cards:
        found.append(("known_sides", (2, n), 0, 1, "teams by the deal, as far as the player can tell: row 0 the seats known on its side (itself included), row 1 those known on the other", _known_sides))
    for counter in rules.counters:
        size = {"table": 1, "player": n, "team": len(rules.teams)}[counter.scope]
        found.append((f"counter:{counter.name}", (size,), -INF, INF, f"counter {counter.name} ({counter.scope})", _counter(counter.name)))
    return found


def _token_segments(game: Game) -> list[SegmentSpec]:
    rules, n, cards = game.ruleset, game.num_players, game.num_cards
    kinds = len(rules.tokens)
    found: list[SegmentSpec] = []
    if kinds:
        found += [
            ("tokens", (n, kinds), 0, INF, "by seat: tokens of each kind it holds", _tokens),
            ("supply", (kinds,), -1, INF, "tokens of each kind left in the supply (-1: unlimited)", _supply),
        ]
        if any(kind.to == "tableau" for kind in rules.tokens):
            found.append(("tokens_waiting", (n, kinds), 0, INF, "by seat: tokens gained, waiting for a section", _tokens_waiting))
    if rules.tableau is not None:
        sections = game.num_sections
        found += [
            ("tableau_tokens", (n, sections), 0, INF, "by seat: tokens on each section of its tableau", _tableau_tokens),
            ("tableau_cards", (n, cards), 0, sections, "by seat: the section (1 to S) each card lies on in its tableau (0: none)", _tableau_cards),
            ("tableau_tops", (n, cards), 0, 1, "by seat: 1 for each card on top of a section", _tableau_tops),
        ]
    if rules.won_cards == "tableau":
        found.append(("to_place", (cards,), 0, 1, "1 for each card of the won trick still to be laid", _to_place))
    return found


def _phases(game: Game) -> tuple[Phase, ...]:
    """The phases a game of this spec can wait in."""
    return tuple(Phase(kind.phase) for kind in KINDS if kind.used(game))


# ---------------------------------------------------------------- writers, one per segment


def _one_hot(out: MutableSequence[float], at: int, index: int) -> None:
    if index >= 0:
        out[at + index] = 1.0


def _bits(out: MutableSequence[float], at: int, cards: Sequence[int]) -> None:
    for card in cards:
        out[at + card] = 1.0


def _seat(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    out[at + player] = 1.0


def _to_move(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _one_hot(out, at, state.current_player())


def _phase_writer(phases: tuple[Phase, ...]) -> Writer:
    place = {int(phase): i for i, phase in enumerate(phases)}

    def write(state: State, player: int, out: MutableSequence[float], at: int) -> None:
        out[at + place[int(state.phase)]] = 1.0

    return write


def _round(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    out[at] = float(state.round)


def _dealer(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _one_hot(out, at, getattr(state, "dealer", -1))


def _hand(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, state.hands[player])


def _hand_sizes(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for seat, hand in enumerate(state.hands):
        out[at + seat] = float(len(hand))


def _trick(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    cards = state.game.num_cards
    for card, seat in zip(state.trick, state.trick_players):
        out[at + seat * cards + card] = 1.0


def _trick_leader(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    if state.trick_players:
        out[at + state.trick_players[0]] = 1.0


def _played(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    """Each seat's cards played this round (`views.played_by_seat`), written trick by trick."""
    cards = state.game.num_cards
    for played, players in [*state.tricks, (state.trick, state.trick_players)]:
        for card, seat in zip(played, players):
            out[at + seat * cards + card] = 1.0


def _won(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    cards = state.game.num_cards
    for seat in range(state.num_players):
        _bits(out, at + seat * cards, state.piles[seat])
        for stack in state.stacks[seat]:
            _bits(out, at + seat * cards, stack)
    placing = place_cards.placing(state)
    if placing.queue:
        _bits(out, at + placing.player * cards, placing.queue)


def _tricks_won(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for seat, won in enumerate(state.tricks_won):
        out[at + seat] = float(won)


def _trumps(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, sorted(state.trumps))


def _totals(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for seat, total in enumerate(state.totals):
        out[at + seat] = float(total)


def _bonus(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for seat, points in enumerate(state.bonus):
        out[at + seat] = float(points)


def _turned_up(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _one_hot(out, at, turn_up.card(state))


def _pass_to(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    passes = pass_cards.every_pass(state)
    if passes:
        out[at + passes[-1].offset] = 1.0


def _passed(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, views.passed_cards(state, player))


def _received(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, views.received_cards(state, player))


def _discarded(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, views.own_discards(state, player))


def _bids(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    size = state.game.num_bids
    for seat, made in enumerate(bid.bids(state)):
        if made is not None:
            out[at + seat * size + made] = 1.0


def _declarer(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _one_hot(out, at, state.declarer)


def _contract(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _one_hot(out, at, declare.contract(state))


def _sitting_out(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, state.sitting_out)


def _side(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    if call.calling(state) is not None:  # a called partner: the seats the player knows on its side
        _bits(out, at, [seat for seat, side in enumerate(call.known_sides(state, player)) if side == 0])
        return
    _bits(out, at, side_of(state.round_teams, player))


def _known_sides(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    n = state.num_players
    for seat, side in enumerate(partners.known_sides(state, player)):
        if side != partners.UNKNOWN:
            out[at + side * n + seat] = 1.0


def _counter(name: str) -> Writer:
    def write(state: State, player: int, out: MutableSequence[float], at: int) -> None:
        value = state.counters[name]
        for i, v in enumerate(value if isinstance(value, list) else [value]):
            out[at + i] = float(v)

    return write


def _tokens(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    kinds = len(state.game.ruleset.tokens)
    for seat, pool in enumerate(state.pool):
        for kind, count in enumerate(pool):
            out[at + seat * kinds + kind] = float(count)


def _supply(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    for kind, count in enumerate(place_tokens.tokens(state).supply):
        out[at + kind] = float(count)


def _tokens_waiting(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    kinds = len(state.game.ruleset.tokens)
    for seat, kind in place_tokens.tokens(state).queue:
        out[at + seat * kinds + kind] += 1.0


def _tableau_tokens(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    sections = state.game.num_sections
    for seat, row in enumerate(state.section_tokens):
        for section, count in enumerate(row):
            out[at + seat * sections + section] = float(count)


def _tableau_cards(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    cards = state.game.num_cards
    for seat, stacks in enumerate(state.stacks):
        for section, stack in enumerate(stacks):
            for card in stack:
                out[at + seat * cards + card] = float(section + 1)


def _tableau_tops(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    cards = state.game.num_cards
    for seat, stacks in enumerate(state.stacks):
        _bits(out, at + seat * cards, [stack[-1] for stack in stacks if stack])


def _to_place(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    _bits(out, at, place_cards.placing(state).queue)


def _exposed(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    cards = state.game.num_cards
    for seat in state.exposed():
        for card in state.hands[seat]:
            out[at + seat * cards + card] = 1.0
