"""Oh Hell against OpenSpiel: decision by decision, our specs/oh-hell.yaml agrees with pyspiel's "oh_hell".

OpenSpiel's side is checked on its own first (our reading of its encoding, its chance nodes and
its rules, and points derived from its returns). Then random OpenSpiel hands are replayed in
trickrules, comparing every legal set and the points; ``TRICKRULES_CROSSCHECK_GAMES`` sets how
many (default 500). Last, deliberately corrupted traces show that the replay notices a difference,
both in trickrules and in a small stand-in engine written from our reading of the rules (so the
replay itself is tested even while the spec is being written).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pyspiel
import pytest
import trickrules
from openspiel_common import (
    assert_a_replay_differs,
    assert_check_notices,
    assert_replay_notices,
    broken_text,
    dropped_legal_card,
    first_corrupted,
    swapped_dealt_cards,
    with_decision,
)
from openspiel_oh_hell import OH_HELL_OPTIONS as _OPTIONS, OH_HELL_SPEC as _SPEC
from openspiel_oh_hell import (
    DEFAULT_PARAMS,
    MADE_BID_BONUS,
    OH_HELL_OPTIONS,
    RANKS,
    SUITS,
    OhHellTrace,
    bid_action,
    card_action,
    card_id,
    check_trace,
    count_points,
    expected_bids,
    expected_plays,
    games_from_env,
    hands_at,
    hooked_bid,
    load_trickrules_oh_hell,
    max_num_tricks,
    openspiel_history,
    play_openspiel_game,
    replay_in_trickrules,
    suit_of,
    trick_winner,
    tricks_of,
    tricks_won,
)

SANITY_GAMES = 400
VARIANT_GAMES = 100
SHOWN = 5


@pytest.fixture(scope="module")
def traces() -> list[OhHellTrace]:
    """OpenSpiel hands of seeds 0.. with the default parameters."""
    return [play_openspiel_game(seed) for seed in range(SANITY_GAMES)]


@pytest.fixture(scope="module")
def oh_hell() -> Any:
    """Our Oh Hell, one hand of 3 players with a random number of tricks and dealer."""
    return load_trickrules_oh_hell()


# ---------------------------------------------------------------- OpenSpiel on its own


def test_openspiel_defaults_are_the_ones_cross_checked():
    assert pyspiel.load_game("oh_hell").get_parameters() == DEFAULT_PARAMS
    assert OH_HELL_OPTIONS == {"hand_size": "random", "dealer": "random", "single_hand": True}


def test_card_ids_follow_openspiel_rank_major_cdsh_encoding():
    assert [card_id(a) for a in (0, 1, 2, 3, 4, 34, 35, 42, 49, 51)] == [
        "clubs-2",
        "diamonds-2",
        "spades-2",
        "hearts-2",
        "clubs-3",
        "spades-10",
        "hearts-10",
        "spades-Q",
        "diamonds-A",
        "hearts-A",
    ]
    assert len({card_id(a) for a in range(52)}) == 52
    assert all(card_action(card_id(a)) == a for a in range(52))
    state = pyspiel.load_game("oh_hell").new_initial_state()
    state.apply_action(1)  # one trick
    state.apply_action(0)  # dealer 0; now the deal, whose action strings are OpenSpiel's card names
    names = {"T": "10"}
    for a in range(52):  # OpenSpiel's own text, e.g. "QS", read into our id
        text = state.action_to_string(a)
        suit = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}[text[0]]
        assert card_id(a) == f"{suit}-{names.get(text[1], text[1])}"


def test_bids_are_52_plus_the_number_of_tricks():
    state = pyspiel.load_game("oh_hell").new_initial_state()
    for action in [5, 1] + list(range(16)):  # 5 tricks, dealer 1, 15 cards dealt and the turn-up
        state.apply_action(action)
    assert not state.is_chance_node() and state.current_player() == 2
    assert state.legal_actions() == [bid_action(b) for b in range(6)] == list(range(52, 58))
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["0", "1", "2", "3", "4", "5"]


def test_chance_nodes_are_tricks_dealer_deal_then_turn_up():
    players = 3
    state = pyspiel.load_game("oh_hell").new_initial_state()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(1, max_num_tricks(players) + 1)) == list(range(1, 18))
    assert [p for _, p in outcomes] == pytest.approx([1 / 17] * 17)
    state.apply_action(4)  # 4 tricks
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(2)  # dealer 2
    deal = [card_action(c) for c in ("hearts-A", "clubs-2", "spades-Q", "diamonds-10", "hearts-3", "clubs-K")]
    deal += [card_action(c) for c in ("spades-2", "spades-3", "spades-4", "spades-5", "spades-6", "spades-7")]
    for n, card in enumerate(deal):
        assert state.is_chance_node()
        remaining = [a for a, _ in state.chance_outcomes()]
        assert remaining == sorted(set(range(52)) - set(deal[:n]))
        state.apply_action(card)
    assert state.is_chance_node()  # the turn-up
    state.apply_action(card_action("diamonds-5"))
    assert not state.is_chance_node() and state.current_player() == 0  # left of dealer 2
    text = str(state)
    assert "Num Total Tricks: 4\n" in text and "Dealer: 2\n" in text and "Trump: D5\n" in text
    assert read_openspiel_hands(text, players) == [
        {"hearts-A", "diamonds-10", "spades-2", "spades-5"},
        {"clubs-2", "hearts-3", "spades-3", "spades-6"},
        {"spades-Q", "clubs-K", "spades-4", "spades-7"},
    ]


def read_openspiel_hands(text: str, players: int) -> list[set[str]]:
    """Each player's cards from OpenSpiel's state text ("Player: 0" then "    C: AK3" per suit)."""
    hands: list[set[str]] = [set() for _ in range(players)]
    player = -1
    for line in text.splitlines():
        if m := re.fullmatch(r"Player: (\d+)", line):
            player = int(m.group(1))
        elif m := re.fullmatch(r"    ([CDSH]): ([2-9TJQKA]*)", line):
            suit = SUITS["CDSH".index(m.group(1))]
            hands[player] |= {f"{suit}-{RANKS['23456789TJQKA'.index(r)]}" for r in m.group(2)}
    return hands


def openspiel_card_name(card: str) -> str:
    """OpenSpiel's name of a card in its state text, e.g. ``hearts-10`` -> ``HT``."""
    suit, _, rank = card.partition("-")
    return "CDSH"[SUITS.index(suit)] + "23456789TJQKA"[RANKS.index(rank)]


def test_traces_read_openspiel_histories_and_deals_right(traces):
    """Rebuilding the history from a trace gives OpenSpiel's, and OpenSpiel shows the same hands."""
    for trace in traces[:100]:
        assert openspiel_history(trace) == trace.history, trace.seed
        state = pyspiel.load_game("oh_hell").new_initial_state()
        for action in trace.history:
            state.apply_action(action)
        assert state.is_terminal() and state.returns() == trace.returns
        text = str(state)  # at the end OpenSpiel shows the hands as dealt
        assert read_openspiel_hands(text, 3) == [set(h) for h in trace.hands], trace.seed
        assert f"Trump: {openspiel_card_name(trace.turn_up)}\n" in text
        assert re.search(rf"Bids:\s+{' '.join(map(str, trace.bids))} \n", text), text
        assert re.search(rf"Tricks Won:\s+{' '.join(map(str, tricks_won(trace)))} \n", text), text


def test_traces_have_the_shape_of_a_hand(traces):
    tricks = Counter(t.num_tricks for t in traces)
    assert set(tricks) == set(range(1, 18)), "every number of tricks 1..17 occurs"
    assert set(Counter(t.dealer for t in traces)) == {0, 1, 2}
    for trace in traces:
        k = trace.num_tricks
        assert [d.kind for d in trace.decisions] == ["bid"] * 3 + ["play"] * (3 * k)
        assert [len(h) for h in trace.hands] == [k] * 3
        assert trace.turn_up not in {c for h in trace.hands for c in h}
        assert all(d.chosen in d.legal for d in trace.decisions)
        assert all(list(d.legal) == sorted(d.legal) for d in trace.decisions if d.kind == "play")
        assert all([int(b) for b in d.legal] == sorted(int(b) for b in d.legal) for d in trace.decisions if d.kind == "bid")


def test_traces_follow_our_reading_of_openspiel_rules(traces):
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])


def test_the_dealer_is_hooked_and_nobody_else(traces):
    hooked = 0
    for trace in traces:
        first, second, last = trace.decisions[:3]
        k = trace.num_tricks
        assert first.legal == second.legal == tuple(str(b) for b in range(k + 1))
        assert last.player == trace.dealer and first.player == (trace.dealer + 1) % 3
        bar = hooked_bid(k, [int(first.chosen), int(second.chosen)])
        if bar is not None:
            hooked += 1
            assert str(bar) not in last.legal and len(last.legal) == k
        else:
            assert len(last.legal) == k + 1
    assert hooked > SANITY_GAMES // 4, f"the hook bit in only {hooked} games"


def test_trump_beats_the_led_suit(traces):
    assert trick_winner(0, ["hearts-A", "clubs-2", "hearts-K"], trump="clubs") == 1
    assert trick_winner(1, ["hearts-3", "clubs-2", "hearts-K"], trump="spades") == 0  # seat 1 + 2
    assert trick_winner(2, ["diamonds-3", "diamonds-A", "spades-2"], trump="diamonds") == 0
    assert trick_winner(0, ["spades-3", "hearts-A", "diamonds-A"], trump="clubs") == 0
    trumped = [t for trace in traces for t in tricks_of(trace) if any(suit_of(c) == trace.trump for c in t.cards[1:])]
    assert len(trumped) > 100


def test_points_are_the_returns_tricks_plus_ten_for_an_exact_bid(traces):
    exact = 0
    for trace in traces:
        assert trace.points == trace.returns == count_points(trace)
        assert sum(tricks_won(trace)) == trace.num_tricks
        for bid, won, points in zip(trace.bids, tricks_won(trace), trace.points):
            assert points == won + (MADE_BID_BONUS if won == bid else 0)
            exact += won == bid
    assert exact > 50


@pytest.mark.parametrize(
    "params",
    [
        {"players": 4},
        {"players": 5},
        {"players": 7},
        {"num_tricks_fixed": 1},
        {"num_tricks_fixed": 17},
        {"off_bid_penalty": True},
        {"points_per_trick": 2},
        {"players": 4, "off_bid_penalty": True, "points_per_trick": 3},
    ],
    ids=lambda params: ",".join(f"{k}={v}" for k, v in params.items()),
)
def test_other_openspiel_parameters_follow_our_reading_too(params):
    traces = [play_openspiel_game(seed, params) for seed in range(VARIANT_GAMES)]
    assert all(t.params == {**DEFAULT_PARAMS, **params} for t in traces)
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])
    assert all(openspiel_history(t) == t.history for t in traces)
    players = params.get("players", 3)
    assert max(t.num_tricks for t in traces) <= max_num_tricks(players) == 51 // players
    if "num_tricks_fixed" in params:
        assert {t.num_tricks for t in traces} == {params["num_tricks_fixed"]}


def test_games_from_env(monkeypatch):
    monkeypatch.delenv("TRICKRULES_CROSSCHECK_GAMES", raising=False)
    assert games_from_env(7) == 7
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "20")
    assert games_from_env(7) == 20
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "many")
    with pytest.raises(ValueError):
        games_from_env(7)


# ---------------------------------------------------------------- a stand-in engine for the replay


class ReadingGame:
    """Our reading of OpenSpiel's Oh Hell behind trickrules' API, to test the replay on its own.

    Actions are numbered differently from both engines (cards by sorted id, bids from 100), so the
    replay can only work through action strings, as it must with trickrules.
    """

    CARDS = sorted(card_id(a) for a in range(52))
    BIDS = 100

    def new_initial_state(self, seed: int = 0, deal: Any = None) -> ReadingState:
        return ReadingState(deal["hands"], deal["dealer"], deal["turn_up"])

    def action_to_string(self, action: int) -> str:
        return f"bid {action - self.BIDS}" if action >= self.BIDS else f"play {self.CARDS[action]}"

    def string_to_action(self, text: str) -> int:
        verb, _, name = text.partition(" ")
        if verb == "bid":
            return self.BIDS + int(name)
        if verb == "play":
            return self.CARDS.index(name)
        raise ValueError(f"unknown action {text!r}")


class ReadingState:
    def __init__(self, hands: list[list[str]], dealer: int, turn_up: str) -> None:
        cards = [c for h in hands for c in h] + [turn_up]
        if len(set(cards)) != len(cards) or len({len(h) for h in hands}) != 1:
            raise ValueError("bad deal")
        self.game = ReadingGame()
        self.hands = [list(h) for h in hands]
        self.k = len(hands[0])
        self.trump = suit_of(turn_up)
        self.order = [(dealer + 1 + i) % 3 for i in range(3)]
        self.bids: list[int] = []
        """In bidding order (`order`)."""
        self.player = self.leader = self.order[0]
        self.trick: list[str] = []
        self.won = [0, 0, 0]

    def is_terminal(self) -> bool:
        return len(self.bids) == 3 and not any(self.hands)

    def current_player(self) -> int:
        return -4 if self.is_terminal() else self.player

    def legal_actions(self) -> list[int]:
        if len(self.bids) < 3:
            bids = expected_bids(self.k, self.bids, last=len(self.bids) == 2)
            return [ReadingGame.BIDS + b for b in bids]
        return sorted(ReadingGame.CARDS.index(c) for c in expected_plays(self.hands[self.player], self.trick))

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        if len(self.bids) < 3:
            self.bids.append(action - ReadingGame.BIDS)
            self.player = (self.player + 1) % 3
            return
        card = ReadingGame.CARDS[action]
        self.hands[self.player].remove(card)
        self.trick.append(card)
        if len(self.trick) < 3:
            self.player = (self.player + 1) % 3
            return
        self.player = self.leader = trick_winner(self.leader, self.trick, self.trump)
        self.won[self.player] += 1
        self.trick = []

    def returns(self) -> list[float]:
        bid = dict(zip(self.order, self.bids))
        return [float(w + (MADE_BID_BONUS if w == bid[p] else 0)) for p, w in enumerate(self.won)]


def test_the_replay_agrees_with_a_stand_in_engine_of_our_reading(traces):
    differences = [m for t in traces for m in replay_in_trickrules(t, ReadingGame())]
    assert not differences, "\n".join(differences[:SHOWN])


# ---------------------------------------------------------------- the cross-check


def test_trickrules_agrees_with_openspiel_decision_by_decision(oh_hell):
    games = games_from_env(500)
    differences = [m for seed in range(games) for m in replay_in_trickrules(play_openspiel_game(seed), oh_hell)]
    shown = "\n".join(differences[:SHOWN])
    assert not differences, f"{len(differences)} of {games} games differ; first ones:\n{shown}"


# ---------------------------------------------------------------- the cross-check catches a broken rule

Mutation = Callable[[OhHellTrace], OhHellTrace | None]


def hook_not_enforced(trace: OhHellTrace) -> OhHellTrace | None:
    """The dealer is told they may make the bids add up to the number of tricks."""
    d = trace.decisions[2]
    bar = hooked_bid(trace.num_tricks, [int(e.chosen) for e in trace.decisions[:2]])
    if bar is None:
        return None
    legal = tuple(sorted(d.legal + (str(bar),), key=int))
    return with_decision(trace, 2, dataclasses.replace(d, legal=legal))


def first_bidder_hooked(trace: OhHellTrace) -> OhHellTrace | None:
    """The first bidder may not bid all the tricks, as if the hook applied to every bidder."""
    d = trace.decisions[0]
    if d.chosen == str(trace.num_tricks):
        return None
    return with_decision(trace, 0, dataclasses.replace(d, legal=d.legal[:-1]))


def trump_suit_changed(trace: OhHellTrace) -> OhHellTrace | None:
    """Another card of another suit is turned up, and that changes who wins a trick."""
    held = {c for h in trace.hands for c in h} | {trace.turn_up}
    winners = [t.winner for t in tricks_of(trace)]
    for a in range(52):
        card = card_id(a)
        if card not in held and suit_of(card) != trace.trump:
            if [t.winner for t in tricks_of(trace, trump=suit_of(card))] != winners:
                return dataclasses.replace(trace, turn_up=card)
    return None


def dealer_moved(trace: OhHellTrace) -> OhHellTrace | None:
    """The next player deals (so another player bids and leads first)."""
    return dataclasses.replace(trace, dealer=(trace.dealer + 1) % 3)


def renege_allowed(trace: OhHellTrace) -> OhHellTrace | None:
    """A player who can follow suit is told they may play any card."""
    for i, d in enumerate(trace.decisions):
        if d.kind == "play":
            hand = hands_at(trace, i)[d.player]
            if len(hand) > len(d.legal):
                return with_decision(trace, i, dataclasses.replace(d, legal=tuple(sorted(hand))))
    return None


def moved_point(trace: OhHellTrace) -> OhHellTrace | None:
    """One point is booked to the wrong player."""
    giver = next((p for p, n in enumerate(trace.points) if n > 0), None)
    if giver is None:
        return None
    points = list(trace.points)
    points[giver] -= 1
    points[(giver + 1) % 3] += 1
    return dataclasses.replace(trace, points=points)


def missed_bonus(trace: OhHellTrace) -> OhHellTrace | None:
    """A player who took exactly their bid goes without the bonus of 10."""
    exact = [p for p, (b, w) in enumerate(zip(trace.bids, tricks_won(trace))) if b == w]
    if not exact:
        return None
    points = list(trace.points)
    points[exact[0]] -= MADE_BID_BONUS
    return dataclasses.replace(trace, points=points)


MUTATIONS: list[Mutation] = [
    hook_not_enforced,
    first_bidder_hooked,
    trump_suit_changed,
    dealer_moved,
    swapped_dealt_cards,
    dropped_legal_card,
    renege_allowed,
    moved_point,
    missed_bonus,
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_a_corrupted_trace_breaks_openspiel_rules_as_we_read_them(mutation, traces):
    original, mutated = first_corrupted(mutation, traces)
    assert_check_notices(mutation.__name__, original, mutated, check_trace)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_in_the_stand_in_engine_reports_a_corrupted_trace(mutation, traces):
    original, mutated = first_corrupted(mutation, traces)
    game = ReadingGame()
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, game))


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_reports_a_corrupted_trace(mutation, traces, oh_hell):
    original, mutated = first_corrupted(mutation, traces)
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, oh_hell))


# ---------------------------------------------------------------- a broken spec is caught


_TEXT = _SPEC.read_text(encoding="utf-8")
BROKEN_SPECS = {
    "no hook": ('allow: "not (last and bids_total + bid == hand_size)"', 'allow: "True"'),
    "exact bid worth 5": ("tricks * points_per_trick + 10 if tricks == bid", "tricks * points_per_trick + 5 if tricks == bid"),
    "no trumps": ("trumps: turned_up", "trumps: none"),
    "the dealer leads": ("  first_leader: left_of_dealer", "  first_leader: dealer"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str, traces: list[OhHellTrace]) -> None:
    text = broken_text(_TEXT, name, BROKEN_SPECS[name])
    if name == "no trumps":
        text = text.replace("  - turn_up\n", "")
    game = trickrules.load_game(trickrules.load_ruleset_text(text, players=3, options=_OPTIONS))
    assert_a_replay_differs(name, traces, lambda t: replay_in_trickrules(t, game))
