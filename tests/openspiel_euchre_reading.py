"""Our own reading of OpenSpiel's Euchre rules, and the replay of its traces in trickrules.

tests/openspiel_euchre.py reads OpenSpiel's encoding and plays its traces; here the rules are
read again independently of both engines (`HandReading`, `check_trace`: the bowers, following,
bidding, the discard, going alone, the scores), and `replay_in_trickrules` plugs Euchre into the
harness of openspiel_common (`plug`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from openspiel_common import Plug, replay
from openspiel_euchre import (
    ALONE,
    DEFAULT_PARAMS,
    EUCHRE_OPTIONS,
    EUCHRE_SPEC,
    EuchreTrace,
    HAND_SIZE,
    KIND_OF_VERB,
    Kind,
    NO_STICK_OPTIONS,
    NUM_CARDS,
    NUM_PLAYERS,
    NUM_TRICKS,
    PARTNER,
    PASS,
    RANKS,
    SAME_COLOUR,
    SUITS,
    TRUMP_RANKS,
    Trick,
    action_text,
    card_id,
    discard,
    makers_score,
    openspiel_returns,
    partner,
    rank_name,
    standard_points,
    suit_of,
    trumps,
)

if TYPE_CHECKING:
    import trickrules


# ---------------------------------------------------------------- our own reading of the rules


def left_bower(trump: str) -> str:
    """The jack of the other suit of the trump suit's colour."""
    return f"{SAME_COLOUR[trump]}-J"


def right_bower(trump: str) -> str:
    return f"{trump}-J"


def effective_suit(card: str, trump: str, *, left_bower_is_trump: bool = True) -> str:
    """The suit a card counts as: the trump suit for the left bower (unless told otherwise), else its own."""
    if left_bower_is_trump and card == left_bower(trump):
        return trump
    return suit_of(card)


def power(card: str, trump: str) -> int:
    """How high a card ranks within the suit it counts as: right bower 7, left bower 6, A..9 of trumps 5..1
    (no jack among them), other suits A K Q J 10 9 as 5..0."""
    if card == right_bower(trump):
        return 7
    if card == left_bower(trump):
        return 6
    if suit_of(card) == trump:
        return 1 + TRUMP_RANKS.index(rank_name(card))
    return RANKS.index(rank_name(card))


def trick_winner(players: Sequence[int], cards: Sequence[str], trump: str) -> int:
    """Who wins a trick: the highest trump (bowers first), else the highest card of the led suit."""
    led = effective_suit(cards[0], trump)
    suits = [effective_suit(c, trump) for c in cards]
    best_suit = trump if trump in suits else led
    best = max((i for i, s in enumerate(suits) if s == best_suit), key=lambda i: power(cards[i], trump))
    return players[best]


def expected_plays(hand: Sequence[str], trick: Sequence[str], trump: str, *, left_bower_is_trump: bool = True) -> list[str]:
    """The cards allowed from `hand` with `trick` on the table: follow the led suit if able
    (the left bower counting as a trump), else any card."""
    if trick:
        led = effective_suit(trick[0], trump, left_bower_is_trump=left_bower_is_trump)
        follow = [c for c in hand if effective_suit(c, trump, left_bower_is_trump=left_bower_is_trump) == led]
        if follow:
            return follow
    return list(hand)


def expected_bids(passes: int, up_suit: str, *, stick_the_dealer: bool = True) -> tuple[str, ...]:
    """The bids open after `passes` passes: pass or order up in round 1; pass or another suit in
    round 2, where a stuck dealer (the eighth bidder, with stick-the-dealer) may not pass."""
    if passes < NUM_PLAYERS:
        names = [PASS, trumps(up_suit)]
    else:
        names = [trumps(s) for s in SUITS if s != up_suit]
        if not (stick_the_dealer and passes == 2 * NUM_PLAYERS - 1):
            names.append(PASS)
    return tuple(sorted(names))


class HandReading:
    """One hand of Euchre by our reading of OpenSpiel's rules, decision by decision.

    `legal` gives the current player's kind of decision and the legal names (sorted, in the
    trace's words); `apply` takes one of them. `check_trace` walks a trace through it, and the
    tests put it behind trickrules' API as a stand-in engine for the replay.
    """

    def __init__(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        turn_up: str,
        *,
        stick_the_dealer: bool = True,
        allow_lone_defender: bool = False,
    ) -> None:
        self.dealer = dealer
        self.hands = [list(h) for h in hands]
        self.turn_up = turn_up
        self.up_suit = suit_of(turn_up)
        self.stick_the_dealer = stick_the_dealer
        self.allow_lone_defender = allow_lone_defender
        self.phase: Kind | Literal["over"] = "bid"
        self.player = (dealer + 1) % NUM_PLAYERS
        self.passes = 0
        self.declarer: int | None = None
        self.trump: str | None = None
        self.alone = False
        self.lone_defender: int | None = None
        self.sitting_out: set[int] = set()
        self.defenders_to_decide: list[int] = []
        self.trick_players: list[int] = []
        self.trick_cards: list[str] = []
        self.tricks: list[Trick] = []

    # -- queries

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal(self) -> tuple[Kind, tuple[str, ...]]:
        if self.phase == "over":
            raise ValueError("the hand is over")
        if self.phase == "bid":
            return "bid", expected_bids(self.passes, self.up_suit, stick_the_dealer=self.stick_the_dealer)
        if self.phase == "discard":
            return "discard", tuple(sorted(discard(c) for c in self.hands[self.player] if c != self.turn_up))
        if self.phase == "alone":
            return "alone", (ALONE, PARTNER)
        assert self.trump is not None
        return "play", tuple(sorted(expected_plays(self.hands[self.player], self.trick_cards, self.trump)))

    def makers_tricks(self) -> int:
        assert self.declarer is not None
        return sum(t.winner in (self.declarer, partner(self.declarer)) for t in self.tricks)

    def returns(self) -> list[int]:
        """OpenSpiel's returns at the end: 0 for all if everyone passed, else the makers' score (`makers_score`)
        for the makers and its negative for the defenders."""
        if not self.is_over():
            raise ValueError("the hand is not over")
        if self.declarer is None:
            return [0] * NUM_PLAYERS
        score = makers_score(self.makers_tricks(), alone=self.alone, lone_defender=self.lone_defender is not None)
        makers = (self.declarer, partner(self.declarer))
        return [score if p in makers else -score for p in range(NUM_PLAYERS)]

    def points(self) -> list[int]:
        """Our standard points at the end: only the scoring side scores."""
        return standard_points(self.returns())

    # -- moves

    def _next_active(self, player: int) -> int:
        while player in self.sitting_out:
            player = (player + 1) % NUM_PLAYERS
        return player

    def _start_play(self) -> None:
        self.phase = "play"
        self.player = self._next_active((self.dealer + 1) % NUM_PLAYERS)

    def apply(self, name: str) -> None:
        kind, legal = self.legal()
        if name not in legal:
            raise ValueError(f"{name!r} is not among {list(legal)}")
        if kind == "bid":
            if name == PASS:
                self.passes += 1
                if self.passes == 2 * NUM_PLAYERS:
                    self.phase = "over"
                else:
                    self.player = (self.player + 1) % NUM_PLAYERS
                return
            self.declarer, self.trump = self.player, name.partition(" ")[2]
            if self.passes < NUM_PLAYERS:
                self.hands[self.dealer].append(self.turn_up)
                self.phase, self.player = "discard", self.dealer
            else:
                self.phase = "alone"
            return
        if kind == "discard":
            self.hands[self.player].remove(name.partition(" ")[2])
            self.phase, self.player = "alone", self.declarer  # type: ignore[assignment]
            return
        if kind == "alone":
            if self.player == self.declarer:
                self.alone = name == ALONE
                if self.alone:
                    self.sitting_out.add(partner(self.player))
                if self.allow_lone_defender:
                    defenders = [p for p in range(NUM_PLAYERS) if p not in (self.declarer, partner(self.declarer))]
                    self.defenders_to_decide = sorted(defenders, key=lambda p: (p - self.dealer - 1) % NUM_PLAYERS)
                    self.player = self.defenders_to_decide.pop(0)
                else:
                    self._start_play()
                return
            if name == ALONE:
                self.lone_defender = self.player
                self.sitting_out.add(partner(self.player))
                self._start_play()
            elif self.defenders_to_decide:
                self.player = self.defenders_to_decide.pop(0)
            else:
                self._start_play()
            return
        assert self.trump is not None
        self.hands[self.player].remove(name)
        self.trick_players.append(self.player)
        self.trick_cards.append(name)
        if len(self.trick_cards) < NUM_PLAYERS - len(self.sitting_out):
            self.player = self._next_active((self.player + 1) % NUM_PLAYERS)
            return
        winner = trick_winner(self.trick_players, self.trick_cards, self.trump)
        self.tricks.append(Trick(tuple(self.trick_players), tuple(self.trick_cards), winner))
        self.trick_players, self.trick_cards = [], []
        if len(self.tricks) == NUM_TRICKS:
            self.phase = "over"
        else:
            self.player = winner


def reading_of(trace: EuchreTrace) -> HandReading:
    """A `HandReading` of the trace's deal, with the trace's OpenSpiel parameters."""
    return HandReading(
        trace.dealer,
        trace.hands,
        trace.turn_up,
        stick_the_dealer=bool(trace.params.get("stick_the_dealer", True)),
        allow_lone_defender=bool(trace.params.get("allow_lone_defender", False)),
    )


def replayed(trace: EuchreTrace) -> HandReading:
    """The trace's hand played to its end by our reading (raises ValueError on an illegal choice)."""
    reading = reading_of(trace)
    for d in trace.decisions:
        reading.apply(d.chosen)
    return reading


def tricks_of(trace: EuchreTrace) -> list[Trick]:
    """The tricks of a trace, with winners by our reading of the rules."""
    return replayed(trace).tricks


def tricks_taken(trace: EuchreTrace) -> list[int]:
    """How many tricks each player took."""
    taken = [0] * NUM_PLAYERS
    for trick in tricks_of(trace):
        taken[trick.winner] += 1
    return taken


def reading_at(trace: EuchreTrace, index: int) -> HandReading:
    """Our reading of the hand just before decision `index` (hands, the trick on the table, who sits out)."""
    reading = reading_of(trace)
    for d in trace.decisions[:index]:
        reading.apply(d.chosen)
    return reading


def hands_at(trace: EuchreTrace, index: int) -> list[list[str]]:
    """The hands just before decision `index` (the dealer's includes the up card once ordered up)."""
    return reading_at(trace, index).hands


def check_trace(trace: EuchreTrace) -> list[str]:
    """Where a trace departs from the rules as we read them (empty if nowhere).

    Checks the deal (a dealer seat; four hands of five distinct cards and a distinct up card),
    then walks the decisions through `HandReading`: who decides, the kind of decision, the legal
    set and that the choice is in it; then that the hand is over exactly when the decisions run
    out, and that OpenSpiel's returns are the ones we count (zero-sum, makers' score).
    """
    where = f"seed {trace.seed}"
    if not 0 <= trace.dealer < NUM_PLAYERS:
        return [f"{where}: dealer {trace.dealer} is no seat"]
    dealt = [c for h in trace.hands for c in h] + [trace.turn_up]
    deck = {card_id(a) for a in range(NUM_CARDS)}
    if len(trace.hands) != NUM_PLAYERS or any(len(h) != HAND_SIZE for h in trace.hands):
        return [f"{where}: the deal is not four hands of five cards: {trace.hands}"]
    if len(set(dealt)) != len(dealt) or not set(dealt) <= deck:
        return [f"{where}: the deal and up card are not 21 distinct cards of the deck: {trace.hands} + {trace.turn_up}"]
    reading = reading_of(trace)
    for i, d in enumerate(trace.decisions):
        if reading.is_over():
            return [f"{where}, decision {i}: the hand is already over"]
        kind, legal = reading.legal()
        if (d.player, d.kind, d.legal) != (reading.player, kind, legal) or d.chosen not in d.legal:
            return [
                f"{where}, decision {i}: {d.kind} by {d.player} from {list(d.legal)} choosing {d.chosen!r}; "
                f"expected {kind} by player {reading.player} from {list(legal)}"
            ]
        reading.apply(d.chosen)
    if not reading.is_over():
        return [f"{where}: the decisions end after {len(trace.decisions)} but the hand is not over"]
    counted = reading.returns()
    if trace.returns != counted:
        return [
            f"{where}: OpenSpiel's returns {trace.returns} but counted {counted} "
            f"(declarer {reading.declarer}, alone {reading.alone}, makers' tricks "
            f"{reading.makers_tricks() if reading.declarer is not None else None})"
        ]
    return []


# ---------------------------------------------------------------- trickrules side


def trickrules_options(params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Options of specs/euchre.yaml for OpenSpiel's parameters `params` (over its defaults)."""
    full = {**DEFAULT_PARAMS, **(params or {})}
    if full["allow_lone_defender"]:
        raise ValueError("our Euchre has no lone defenders: cannot replay allow_lone_defender=true")
    return dict(EUCHRE_OPTIONS) if full["stick_the_dealer"] else dict(NO_STICK_OPTIONS)


def load_trickrules_euchre(
    spec: str | os.PathLike[str] = EUCHRE_SPEC, params: dict[str, Any] | None = None
) -> trickrules.Game:
    """Our Euchre for one hand with a random dealer, as OpenSpiel plays it with `params`."""
    import trickrules

    return trickrules.load_game(spec, options=trickrules_options(params))


def deal_of(trace: EuchreTrace) -> dict[str, Any]:
    """The trace's chance outcomes as a trickrules deal."""
    return {"hands": [list(h) for h in trace.hands], "dealer": trace.dealer, "turn_up": trace.turn_up}


def decision_names(texts: Sequence[str]) -> tuple[set[str], tuple[str, ...]]:
    """The kinds and the sorted decision names of trickrules action strings.

    ``play hearts-10`` is the name ``hearts-10`` of kind ``play``; every other string is its own
    name (``pass``, ``trumps hearts``, ``discard clubs-9``, ``alone``); an unknown verb is the
    kind ``?verb``.
    """
    kinds, names = set(), []
    for text in texts:
        verb, _, rest = text.partition(" ")
        kind = KIND_OF_VERB.get(verb, f"?{verb}")
        kinds.add(kind)
        names.append(rest.strip() if kind == "play" else text.strip())
    return kinds, tuple(sorted(names))


def _so_far(trace: EuchreTrace, index: int) -> str:
    """The bidding and the other non-play decisions before decision `index`, briefly."""
    steps = [f"{d.player}:{d.chosen}" for d in trace.decisions[:index] if d.kind != "play"]
    plays = sum(d.kind == "play" for d in trace.decisions[:index])
    return ", ".join(steps) + (f", {plays} cards played" if plays else "")


def describe(trace: EuchreTrace) -> str:
    """The seed and deal of a trace, for messages."""
    parts = [f"dealer {trace.dealer}", f"up card {trace.turn_up}"]
    if trace.pass_rate is not None:
        parts.append(f"pass rate {trace.pass_rate}")
    if not trace.params.get("stick_the_dealer", True):
        parts.append("no stick-the-dealer")
    return f"seed {trace.seed} ({', '.join(parts)})"


def _so_far_words(trace: EuchreTrace, index: int) -> str:
    return f"; so far {_so_far(trace, index) or 'nothing'}"


def _points_differ(trace: EuchreTrace, points: list[int]) -> str | None:
    """Trickrules' points ``P`` must satisfy the zero-sum relation ``P[p] - P[p + 1] ==
    returns[p]`` for every player and give nothing to the side that did not score (so
    ``P == standard_points(returns)``)."""
    relation = openspiel_returns(points)
    if relation == trace.returns and points == trace.points:
        return None
    try:
        taken: list[int] | None = tricks_taken(trace) if trace.trump else None
    except ValueError:  # a trace that breaks our reading of the rules
        taken = None
    return (
        f"points differ: openspiel returns {trace.returns} (standard points {trace.points}); "
        f"trickrules points {points} (as zero-sum returns {relation}); declarer {trace.declarer}, "
        f"trumps {trace.trump}, alone {trace.alone}, tricks taken {taken}"
    )


@lru_cache(maxsize=None)
def plug() -> Plug:
    """Euchre in the replay harness: decisions named by `decision_names`, OpenSpiel's choice
    played as `action_text`, the decisions so far in every message, the points compared with
    OpenSpiel's zero-sum returns (trickrules is imported on the first replay)."""
    from trickrules import TrickrulesError

    return Plug(
        where=describe,
        deal=deal_of,
        points_differ=_points_differ,
        names=decision_names,
        action=action_text,
        shown=repr,
        so_far=_so_far_words,
        refusals=(ValueError, KeyError, TrickrulesError),
        deal_refusals=(ValueError, TrickrulesError),
    )


def replay_in_trickrules(trace: EuchreTrace, game: trickrules.Game | Any) -> list[str]:
    """Replay `trace` in a trickrules game and describe the first place the engines disagree.

    `game` is a `trickrules.Game` loaded with `trickrules_options` of the trace's parameters, or
    anything with the same API (the tests use a stand-in). Deals ``trace.hands`` with
    ``trace.dealer`` and ``trace.turn_up``, then for each decision compares the current player,
    the kind of decision and the sorted legal names (`decision_names`) and applies OpenSpiel's
    choice (`action_text`); at the end compares terminality and the points (`_points_differ`).
    Stops at the first difference (`openspiel_common.replay` with `plug()`).
    """
    return replay(trace, game, plug())
