"""Euchre against OpenSpiel: decision by decision, our specs/euchre.yaml agrees with pyspiel's "euchre".

OpenSpiel's side is checked on its own first: our reading of its encoding and chance nodes, and of
its rules (bidding rounds and stick-the-dealer, the dealer's discard, going alone, following with
the left bower, trick winners with the bowers, the lead past a sitting-out partner, scores and
zero-sum returns), over a few hundred random hands, crafted hands and the other parameter values.
Then OpenSpiel hands are replayed in trickrules, comparing every legal set and the points (through
the zero-sum relation ``returns[p] == ours[p] - ours[p + 1]``); ``TRICKRULES_CROSSCHECK_GAMES``
sets how many (default 500; every other hand passes more, so the second round and the stuck
dealer come up). Then deliberately corrupted traces show that the replay notices a difference,
both in trickrules and in a small stand-in engine written from our reading of the rules (so the
replay itself is tested on its own), and last, specs/euchre.yaml with one rule broken at a time
fails the cross-check.
"""

from __future__ import annotations

import dataclasses
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
    first_corrupted,
    with_decision,
)
from openspiel_euchre import (
    ALONE,
    DEFAULT_PARAMS,
    EUCHRE_OPTIONS,
    EUCHRE_SPEC,
    HESITANT_PASS_RATE,
    NO_STICK_OPTIONS,
    NUM_CARDS,
    PARTNER,
    PASS,
    PASS_RATES,
    SUITS,
    EuchreTrace,
    action_name,
    card_action,
    card_id,
    crosscheck_trace,
    discard,
    games_from_env,
    makers_score,
    name_action,
    openspiel_history,
    openspiel_returns,
    partner,
    play_openspiel_game,
    standard_points,
    suit_of,
    trumps,
)
from openspiel_euchre_reading import (
    HandReading,
    check_trace,
    decision_names,
    effective_suit,
    expected_bids,
    expected_plays,
    hands_at,
    left_bower,
    load_trickrules_euchre,
    reading_at,
    replay_in_trickrules,
    right_bower,
    trick_winner,
    tricks_of,
    tricks_taken,
    trickrules_options,
)

SANITY_GAMES = 400
VARIANT_GAMES = 300
SHOWN = 5

SUIT_LETTERS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
NO_STICK = {"stick_the_dealer": False}
LONE_DEFENDER = {"allow_lone_defender": True}

MARCH_DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["clubs-9", "clubs-10", "clubs-J", "clubs-Q", "clubs-K"],
        ["hearts-J", "diamonds-J", "hearts-A", "hearts-K", "hearts-Q"],
        ["spades-9", "spades-10", "spades-J", "spades-Q", "spades-K"],
        ["diamonds-9", "diamonds-10", "diamonds-Q", "diamonds-K", "diamonds-A"],
    ],
    "turn_up": "hearts-9",
}
"""Player 1, first to bid, holds the five highest hearts trumps (both bowers, A K Q) and leads."""

SKIP_DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["clubs-9", "clubs-10", "clubs-J", "clubs-Q", "clubs-K"],
        ["spades-9", "spades-10", "spades-J", "spades-Q", "spades-K"],
        ["diamonds-9", "diamonds-10", "diamonds-Q", "diamonds-K", "diamonds-A"],
        ["hearts-J", "diamonds-J", "hearts-A", "hearts-K", "hearts-Q"],
    ],
    "turn_up": "hearts-9",
}
"""Player 3 holds the five highest hearts trumps; alone, their partner (player 1, left of the dealer) sits out."""

EUCHRE_DEAL: dict[str, Any] = {
    "dealer": 0,
    "hands": [
        ["hearts-J", "diamonds-J", "hearts-A", "hearts-K", "hearts-10"],
        ["clubs-9", "clubs-10", "spades-9", "spades-10", "diamonds-9"],
        ["clubs-J", "clubs-Q", "clubs-K", "clubs-A", "spades-J"],
        ["spades-Q", "spades-K", "spades-A", "diamonds-10", "diamonds-Q"],
    ],
    "turn_up": "hearts-9",
}
"""Player 1 orders up hearts holding none; the dealer, with the up card and without hearts-10, holds only trumps."""

CRAFTED_HANDS: dict[str, tuple[dict[str, Any], dict[str, Any], list[str], list[int]]] = {
    # name: deal, OpenSpiel parameters, the first decisions, OpenSpiel's returns
    "lone march": (MARCH_DEAL, {}, [trumps("hearts"), discard("clubs-9"), ALONE], [-4, 4, -4, 4]),
    "march with partner": (MARCH_DEAL, {}, [trumps("hearts"), discard("clubs-9"), PARTNER], [-2, 2, -2, 2]),
    "lone march led past the partner": (
        SKIP_DEAL,
        {},
        [PASS, PASS, trumps("hearts"), discard("clubs-9"), ALONE],
        [-4, 4, -4, 4],
    ),
    "lone maker euchred": (EUCHRE_DEAL, {}, [trumps("hearts"), discard("hearts-10"), ALONE], [2, -2, 2, -2]),
    "lone defender euchres": (
        EUCHRE_DEAL,
        LONE_DEFENDER,
        [trumps("hearts"), discard("hearts-10"), ALONE, PARTNER, ALONE],
        [4, -4, 4, -4],
    ),
    "thrown in": (MARCH_DEAL, NO_STICK, [PASS] * 8, [0, 0, 0, 0]),
}
"""Hands whose returns follow from the deal and the first decisions, by our reading of the rules."""
REPLAYABLE_CRAFTED = sorted(name for name, (_, params, _, _) in CRAFTED_HANDS.items() if "allow_lone_defender" not in params)


def crafted(name: str, seed: int = 0) -> EuchreTrace:
    deal, params, script, _ = CRAFTED_HANDS[name]
    return play_openspiel_game(seed, params, deal=deal, script=script)


@pytest.fixture(scope="module")
def traces() -> list[EuchreTrace]:
    """The cross-check's OpenSpiel hands of seeds 0.. (default parameters; odd seeds pass more)."""
    return [crosscheck_trace(seed) for seed in range(SANITY_GAMES)]


@pytest.fixture(scope="module")
def no_stick_traces() -> list[EuchreTrace]:
    return [crosscheck_trace(seed, NO_STICK) for seed in range(VARIANT_GAMES)]


@pytest.fixture(scope="module")
def lone_defender_traces() -> list[EuchreTrace]:
    return [crosscheck_trace(seed, LONE_DEFENDER) for seed in range(VARIANT_GAMES)]


@pytest.fixture(scope="module")
def euchre() -> Any:
    """Our Euchre, one hand with a random dealer and stick-the-dealer."""
    return load_trickrules_euchre()


@pytest.fixture(scope="module")
def euchre_no_stick() -> Any:
    """Our Euchre without stick-the-dealer."""
    return load_trickrules_euchre(params=NO_STICK)


def bid_indices(trace: EuchreTrace) -> list[int]:
    return [i for i, d in enumerate(trace.decisions) if d.kind == "bid"]


def play_indices(trace: EuchreTrace) -> list[int]:
    return [i for i, d in enumerate(trace.decisions) if d.kind == "play"]


# ---------------------------------------------------------------- OpenSpiel on its own


def test_openspiel_defaults_are_the_ones_cross_checked():
    game = pyspiel.load_game("euchre")
    game.new_initial_state()
    assert game.get_parameters() == DEFAULT_PARAMS == {"allow_lone_defender": False, "stick_the_dealer": True}
    assert EUCHRE_OPTIONS == {"dealer": "random", "single_hand": True}
    assert NO_STICK_OPTIONS == {"dealer": "random", "single_hand": True, "stick_the_dealer": False}
    assert trickrules_options() == EUCHRE_OPTIONS and trickrules_options(NO_STICK) == NO_STICK_OPTIONS
    with pytest.raises(ValueError, match="lone defenders"):
        trickrules_options(LONE_DEFENDER)
    assert game.num_distinct_actions() == 31 and game.num_players() == 4
    assert (game.min_utility(), game.max_utility()) == (-4, 4)


def test_card_ids_follow_openspiel_rank_major_cdhs_encoding():
    assert [card_id(a) for a in (0, 1, 2, 3, 4, 8, 10, 11, 19, 23)] == [
        "clubs-9",
        "diamonds-9",
        "hearts-9",
        "spades-9",
        "clubs-10",
        "clubs-J",
        "hearts-J",
        "spades-J",
        "spades-K",
        "spades-A",
    ]
    assert len({card_id(a) for a in range(NUM_CARDS)}) == NUM_CARDS
    assert all(card_action(card_id(a)) == a for a in range(NUM_CARDS))
    state = pyspiel.load_game("euchre").new_initial_state()
    assert [state.action_to_string(a) for a in range(4)] == ["N", "E", "S", "W"]  # the dealer
    state.apply_action(0)
    for a in range(NUM_CARDS):  # OpenSpiel's own text, e.g. "HJ", read into our id
        text = state.action_to_string(a)
        assert text == pyspiel.euchre.card_string(a)
        assert card_id(a) == f"{SUIT_LETTERS[text[0]]}-{'10' if text[1] == 'T' else text[1]}"
    assert [state.action_to_string(a) for a in range(24, 31)] == [
        "Pass",
        "Clubs",
        "Diamonds",
        "Hearts",
        "Spades",
        "Alone",
        "Partner",
    ]


def test_our_names_of_openspiel_actions():
    names = [action_name(a)[1] for a in range(24, 31)]
    assert names == [PASS, "trumps clubs", "trumps diamonds", "trumps hearts", "trumps spades", ALONE, PARTNER]
    assert [action_name(a)[0] for a in range(24, 31)] == ["bid"] * 5 + ["alone"] * 2
    assert action_name(10) == ("play", "hearts-J")
    assert action_name(10, discarding=True) == ("discard", "discard hearts-J")
    for a in range(31):
        assert name_action(action_name(a)[1]) == a
        assert name_action(action_name(a, discarding=True)[1]) == a
    assert [trumps(s) for s in SUITS] == [f"trumps {s}" for s in ("clubs", "diamonds", "hearts", "spades")]


def test_chance_nodes_are_dealer_then_deal_from_the_dealer_then_up_card():
    state = pyspiel.load_game("euchre").new_initial_state()
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    state.apply_action(2)  # dealer: South
    deal = [card_action(c) for c in ("spades-A", "clubs-9", "hearts-J", "diamonds-Q")]
    deal += [a for a in range(NUM_CARDS) if a not in deal][:16]
    for n, card in enumerate(deal):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == sorted(set(range(NUM_CARDS)) - set(deal[:n]))
        assert [p for _, p in outcomes] == pytest.approx([1 / (NUM_CARDS - n)] * (NUM_CARDS - n))
        state.apply_action(card)
    holders = state.card_holder()
    assert [holders[card] for card in deal] == [(2 + k) % 4 for k in range(20)]  # the dealer gets the first card
    up = next(a for a in range(NUM_CARDS) if a not in deal)
    assert state.is_chance_node()
    state.apply_action(up)
    assert not state.is_chance_node() and state.current_player() == 3  # left of the dealer bids first
    assert state.upcard() == up and state.dealer() == 2
    assert state.legal_actions() == [24, 25 + up % 4]  # pass or order up the up card's suit


def test_traces_read_openspiel_histories_and_tricks_right(traces):
    """Rebuilding the history gives OpenSpiel's, and OpenSpiel's own trick winners, declarer and bowers agree."""
    phases = {"BIDDING": "bid", "DISCARD": "discard", "GO_ALONE": "alone", "PLAY": "play"}
    for trace in traces[:150]:
        assert openspiel_history(trace) == trace.history, trace.seed
        state = pyspiel.load_game("euchre").new_initial_state()
        kinds = []
        for action in trace.history:
            if not state.is_chance_node():
                kinds.append(phases[state.current_phase().name])
            state.apply_action(action)
        assert kinds == [d.kind for d in trace.decisions], trace.seed
        assert state.is_terminal() and [int(r) for r in state.returns()] == trace.returns
        assert state.dealer() == trace.dealer and card_id(state.upcard()) == trace.turn_up
        assert state.declarer() == trace.declarer
        assert SUITS[state.trump_suit()] == trace.trump
        assert card_id(state.right_bower()) == right_bower(trace.trump)
        assert card_id(state.left_bower()) == left_bower(trace.trump)
        assert state.declarer_go_alone() == trace.alone
        assert state.active_players() == [p not in trace.sitting_out for p in range(4)]
        if trace.ordered_up:
            chosen = next(d.chosen for d in trace.decisions if d.kind == "discard")
            assert discard(card_id(state.discard())) == chosen
        ours = tricks_of(trace)
        theirs = state.tricks()
        assert [t.leader for t in ours] == [t.leader() for t in theirs]
        assert [list(map(card_action, t.cards)) for t in ours] == [t.cards() for t in theirs]
        assert [t.winner for t in ours] == [t.winner() for t in theirs], trace.seed


def test_traces_have_the_shape_of_a_hand(traces):
    for trace in traces:
        kinds = [d.kind for d in trace.decisions]
        bids = len(bid_indices(trace))
        assert 1 <= bids <= 8 and kinds[:bids] == ["bid"] * bids
        rest = ["discard"] if bids <= 4 else []
        rest += ["alone"] + ["play"] * (15 if trace.alone else 20)
        assert kinds[bids:] == rest, trace.seed
        assert [len(h) for h in trace.hands] == [5] * 4
        assert trace.turn_up not in {c for h in trace.hands for c in h}
        assert all(d.chosen in d.legal and list(d.legal) == sorted(d.legal) for d in trace.decisions)
        assert trace.params == DEFAULT_PARAMS
        assert sum(trace.returns) == 0


def test_traces_follow_our_reading_of_openspiel_rules(traces):
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])


def test_bidding_rounds_from_the_left_of_the_dealer_and_the_stuck_dealer(traces):
    seen = Counter()
    for trace in traces:
        up = trace.up_suit
        for n, i in enumerate(bid_indices(trace)):
            d = trace.decisions[i]
            assert d.player == (trace.dealer + 1 + n) % 4
            if n < 4:
                assert d.legal == (PASS, trumps(up))
            else:
                others = tuple(sorted(trumps(s) for s in SUITS if s != up))
                assert trumps(up) not in d.legal
                assert d.legal == (others if n == 7 else tuple(sorted((PASS,) + others)))
            if d.chosen != PASS:
                seen["dealer picks up" if n == 3 else "ordered up" if n < 4 else "stuck dealer" if n == 7 else "named"] += 1
    assert {"dealer picks up", "ordered up", "named", "stuck dealer"} <= set(seen), seen
    assert expected_bids(7, "hearts") == ("trumps clubs", "trumps diamonds", "trumps spades")
    assert expected_bids(7, "hearts", stick_the_dealer=False)[0] == PASS


def test_the_dealer_discards_one_of_their_own_cards_after_an_order_up(traces):
    seen = Counter()
    for trace in traces:
        discards = [i for i, d in enumerate(trace.decisions) if d.kind == "discard"]
        if not trace.ordered_up:
            assert not discards
            continue
        (i,) = discards
        d = trace.decisions[i]
        assert i == len(bid_indices(trace)) and d.player == trace.dealer
        assert d.legal == tuple(sorted(discard(c) for c in trace.hands[trace.dealer]))
        assert discard(trace.turn_up) not in d.legal
        assert trace.turn_up in hands_at(trace, i)[trace.dealer]
        seen["discard"] += 1
        if trace.alone and trace.declarer == partner(trace.dealer):
            seen["the dealer discards, then sits out"] += 1
            assert trace.dealer not in {e.player for e in trace.decisions if e.kind == "play"}
    assert seen["discard"] > 100 and seen["the dealer discards, then sits out"] > 0, seen


def test_the_declarer_decides_alone_after_the_discard(traces):
    for trace in traces:
        (i,) = [i for i, d in enumerate(trace.decisions) if d.kind == "alone"]
        d = trace.decisions[i]
        assert d.player == trace.declarer and d.legal == (ALONE, PARTNER)
        assert trace.decisions[i - 1].kind == ("discard" if trace.ordered_up else "bid")
    assert Counter(t.alone for t in traces).keys() == {True, False}


def test_the_left_bower_follows_trumps_and_not_its_printed_suit(traces):
    seen = Counter()
    for trace in traces:
        trump = trace.trump
        bower = left_bower(trump)
        for i in play_indices(trace):
            d = trace.decisions[i]
            reading = reading_at(trace, i)
            hand, trick = reading.hands[d.player], reading.trick_cards
            if bower not in hand or not trick:
                continue
            led = effective_suit(trick[0], trump)
            if led == trump:
                assert bower in d.legal
                seen["follows a trump lead"] += 1
                if not [c for c in hand if suit_of(c) == trump]:
                    seen["the only trump held"] += 1
            elif led == suit_of(bower):
                same_printed = [c for c in hand if suit_of(c) == led and c != bower]
                if same_printed:
                    assert bower not in d.legal and sorted(same_printed) == sorted(d.legal)
                    seen["not its printed suit"] += 1
                else:
                    assert sorted(d.legal) == sorted(hand)  # void in the led suit: any card
                    seen["void"] += 1
        for i in play_indices(trace):
            if trace.decisions[i].chosen == bower and not reading_at(trace, i).trick_cards:
                seen["led"] += 1  # a left bower led is a trump lead
    assert all(seen[k] > 0 for k in ("follows a trump lead", "the only trump held", "not its printed suit", "void", "led")), seen


def test_bowers_and_trumps_win_tricks():
    assert trick_winner([0, 1, 2, 3], ["hearts-A", "diamonds-J", "hearts-K", "clubs-A"], "hearts") == 1
    assert trick_winner([2, 3, 0, 1], ["diamonds-J", "hearts-J", "hearts-A", "hearts-9"], "hearts") == 3
    assert trick_winner([1, 2, 3], ["diamonds-A", "diamonds-J", "diamonds-K"], "hearts") == 2  # the left bower trumps
    assert trick_winner([1, 2, 3], ["diamonds-J", "diamonds-A", "clubs-9"], "hearts") == 1  # led left bower is a trump
    assert trick_winner([0, 1, 2, 3], ["clubs-J", "clubs-9", "clubs-A", "spades-J"], "hearts") == 2  # plain jacks
    assert trick_winner([0, 1, 2, 3], ["clubs-K", "spades-J", "clubs-A", "hearts-9"], "clubs") == 1
    assert trick_winner([3, 0, 1, 2], ["spades-10", "spades-9", "hearts-A", "diamonds-9"], "diamonds") == 2
    assert expected_plays(["diamonds-J", "diamonds-A", "clubs-9"], ["diamonds-9"], "hearts") == ["diamonds-A"]
    assert expected_plays(["diamonds-J", "clubs-9"], ["hearts-9"], "hearts") == ["diamonds-J"]
    assert expected_plays(["diamonds-J", "clubs-9"], ["diamonds-9"], "hearts") == ["diamonds-J", "clubs-9"]


def test_trick_winners_by_the_bowers_in_openspiel_hands(traces):
    seen = Counter()
    for trace in traces:
        trump = trace.trump
        for trick in tricks_of(trace):
            winning = trick.cards[trick.players.index(trick.winner)]
            suits = [effective_suit(c, trump) for c in trick.cards]
            assert effective_suit(winning, trump) == (trump if trump in suits else suits[0])
            if winning == left_bower(trump) and f"{trump}-A" in trick.cards:
                seen["left bower beats the ace"] += 1
            if winning == right_bower(trump) and left_bower(trump) in trick.cards:
                seen["right bower beats the left"] += 1
            if trump in suits[1:] and suits[0] != trump:
                seen["trumped"] += 1
        leaders = [t.leader for t in tricks_of(trace)]
        assert leaders[1:] == [t.winner for t in tricks_of(trace)[:-1]]
    assert all(seen[k] > 0 for k in ("left bower beats the ace", "right bower beats the left", "trumped")), seen


def test_a_lone_makers_partner_sits_out_and_the_lead_skips_them(traces):
    seen = Counter()
    for trace in traces:
        plays = [trace.decisions[i] for i in play_indices(trace)]
        first_leader = plays[0].player
        if not trace.alone:
            assert first_leader == (trace.dealer + 1) % 4
            assert all(len(t.players) == 4 for t in tricks_of(trace))
            continue
        sitter = partner(trace.declarer)
        assert trace.sitting_out == {sitter}
        assert sitter not in {d.player for d in plays} and len(plays) == 15
        assert all(len(t.players) == 3 for t in tricks_of(trace))
        if sitter == (trace.dealer + 1) % 4:
            assert first_leader == (trace.dealer + 2) % 4
            seen["lead skips the partner"] += 1
        else:
            assert first_leader == (trace.dealer + 1) % 4
            seen["lead left of the dealer"] += 1
    assert seen["lead skips the partner"] > 0 and seen["lead left of the dealer"] > 0, seen


def test_returns_are_the_makers_score_zero_sum(traces):
    seen = Counter()
    for trace in traces:
        makers = trace.makers
        assert makers is not None  # stick-the-dealer: someone always names trumps
        taken = tricks_taken(trace)
        won = taken[makers[0]] + taken[makers[1]]
        score = makers_score(won, alone=trace.alone, lone_defender=False)
        assert trace.returns == [score if p in makers else -score for p in range(4)]
        assert trace.returns[0] == trace.returns[2] == -trace.returns[1] == -trace.returns[3]
        outcome = "euchred" if won < 3 else "made" if won < 5 else "march"
        seen[("alone " if trace.alone else "") + outcome] += 1
    wanted = {"euchred", "made", "march", "alone euchred", "alone made", "alone march"}
    assert wanted <= set(seen), seen
    assert [makers_score(n, alone=False, lone_defender=False) for n in range(6)] == [-2, -2, -2, 1, 1, 2]
    assert [makers_score(n, alone=True, lone_defender=False) for n in range(6)] == [-2, -2, -2, 1, 1, 4]
    assert [makers_score(n, alone=True, lone_defender=True) for n in range(6)] == [-4, -4, -4, 1, 1, 4]


def test_standard_points_and_openspiel_returns_meet_through_the_zero_sum_relation(traces):
    assert standard_points([1, -1, 1, -1]) == [1, 0, 1, 0]
    assert standard_points([-2, 2, -2, 2]) == [0, 2, 0, 2]  # euchred makers 1 and 3: the defenders score 2
    assert standard_points([-4, 4, -4, 4]) == [0, 4, 0, 4]
    assert standard_points([0, 0, 0, 0]) == [0, 0, 0, 0]
    assert openspiel_returns([0, 2, 0, 2]) == [-2, 2, -2, 2]
    assert openspiel_returns([5, 4, 5, 4]) == [1, -1, 1, -1]  # the relation alone does not fix the points
    for trace in traces:
        assert openspiel_returns(trace.points) == trace.returns
        assert min(trace.points) == 0 and trace.points[0] == trace.points[2] and trace.points[1] == trace.points[3]


@pytest.mark.parametrize("name", sorted(CRAFTED_HANDS))
def test_crafted_hands_score_as_we_read_the_rules(name):
    deal, params, script, returns = CRAFTED_HANDS[name]
    for seed in range(5):  # the rest of the play is random: every seed scores alike
        trace = crafted(name, seed)
        assert trace.returns == returns
        assert check_trace(trace) == []
        assert trace.hands == deal["hands"] and trace.dealer == deal["dealer"] and trace.turn_up == deal["turn_up"]
        assert [d.chosen for d in trace.decisions[: len(script)]] == script
    if name == "lone march led past the partner":
        assert trace.decisions[len(script)].player == 2  # player 1, left of the dealer, sits out
    if name == "lone defender euchres":
        assert [d.player for d in trace.decisions if d.kind == "alone"] == [1, 2, 0]
        assert trace.sitting_out == {3, 2} and all(len(t.players) == 2 for t in tricks_of(trace))


def test_scripted_decisions_must_be_legal():
    with pytest.raises(ValueError, match="not among"):
        play_openspiel_game(0, deal=MARCH_DEAL, script=[trumps("clubs")])
    with pytest.raises(ValueError, match="not among"):
        play_openspiel_game(0, deal=MARCH_DEAL, script=[trumps("hearts"), discard("hearts-9")])


def test_without_stick_the_dealer_eight_passes_throw_the_hand_in(no_stick_traces):
    problems = [p for t in no_stick_traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])
    thrown_in = [t for t in no_stick_traces if t.trump is None]
    assert thrown_in and all(t.returns == [0, 0, 0, 0] and t.points == [0, 0, 0, 0] for t in thrown_in)
    assert all([d.chosen for d in t.decisions] == [PASS] * 8 for t in thrown_in)
    eighth = [t.decisions[7] for t in no_stick_traces if len(bid_indices(t)) == 8]
    assert eighth and all(PASS in d.legal and len(d.legal) == 4 for d in eighth)
    assert any(t.trump is not None and len(bid_indices(t)) == 8 for t in no_stick_traces)  # the dealer named one


def test_lone_defenders_decide_after_the_declarer(lone_defender_traces):
    problems = [p for t in lone_defender_traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])
    seen = Counter()
    for trace in lone_defender_traces:
        alone = [d for d in trace.decisions if d.kind == "alone"]
        defenders = sorted({0, 1, 2, 3} - set(trace.makers), key=lambda p: (p - trace.dealer - 1) % 4)
        assert alone[0].player == trace.declarer
        assert [d.player for d in alone[1:]] == defenders[: len(alone) - 1]
        assert len(alone) == 3 or alone[1].chosen == ALONE
        if trace.lone_defender is not None:
            seen["lone defender"] += 1
            assert partner(trace.lone_defender) in trace.sitting_out
            if trace.returns[trace.declarer] < 0:
                assert trace.returns[trace.declarer] == -4
                seen["lone defender euchres"] += 1
            if trace.alone:
                seen["both alone"] += 1
    assert seen["lone defender"] and seen["lone defender euchres"] and seen["both alone"], seen


def test_games_from_env(monkeypatch):
    monkeypatch.delenv("TRICKRULES_CROSSCHECK_GAMES", raising=False)
    assert games_from_env(7) == 7
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "20")
    assert games_from_env(7) == 20
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "many")
    with pytest.raises(ValueError):
        games_from_env(7)


def test_crosscheck_traces_pass_more_in_every_other_hand():
    assert [crosscheck_trace(seed).pass_rate for seed in range(8)] == [None, HESITANT_PASS_RATE, None, 1.0] * 2
    assert PASS_RATES == {1: HESITANT_PASS_RATE, 3: 1.0}
    stuck = crosscheck_trace(3)
    assert [d.chosen for d in stuck.decisions[:7]] == [PASS] * 7 and stuck.declarer == stuck.dealer
    assert len(stuck.decisions[0].legal) == 2  # the pass rate chooses; the legal sets are OpenSpiel's


# ---------------------------------------------------------------- a stand-in engine for the replay


class ReadingGame:
    """Our reading of OpenSpiel's Euchre (`HandReading`) behind trickrules' API, to test the replay on its own.

    Actions are numbered differently from both engines (every action string, sorted backwards), so
    the replay can only work through action strings, as it must with trickrules. ``returns()``
    gives our standard points, or OpenSpiel's zero-sum returns with ``zero_sum`` (which the replay
    must report), or the points plus ``bonus`` for everyone (the zero-sum relation still holds,
    but the side that did not score gets points: the replay must report that too).
    """

    TEXTS = sorted(
        [PASS, ALONE, PARTNER]
        + [trumps(s) for s in SUITS]
        + [f"{verb} {card_id(a)}" for verb in ("discard", "play") for a in range(NUM_CARDS)],
        reverse=True,
    )

    def __init__(self, *, stick_the_dealer: bool = True, zero_sum: bool = False, bonus: int = 0) -> None:
        self.stick_the_dealer = stick_the_dealer
        self.zero_sum = zero_sum
        self.bonus = bonus

    def new_initial_state(self, seed: int = 0, deal: Any = None) -> ReadingState:
        return ReadingState(self, deal)

    def action_to_string(self, action: int) -> str:
        return self.TEXTS[action]

    def string_to_action(self, text: str) -> int:
        if text not in self.TEXTS:
            raise ValueError(f"unknown action {text!r}")
        return self.TEXTS.index(text)


class ReadingState:
    def __init__(self, game: ReadingGame, deal: dict[str, Any]) -> None:
        cards = [c for h in deal["hands"] for c in h] + [deal["turn_up"]]
        if len(set(cards)) != len(cards) or [len(h) for h in deal["hands"]] != [5] * 4:
            raise ValueError("bad deal")
        self.game = game
        self.reading = HandReading(deal["dealer"], deal["hands"], deal["turn_up"], stick_the_dealer=game.stick_the_dealer)

    def is_terminal(self) -> bool:
        return self.reading.is_over()

    def current_player(self) -> int:
        return -4 if self.is_terminal() else self.reading.player

    def legal_actions(self) -> list[int]:
        kind, names = self.reading.legal()
        if kind == "play":
            names = tuple(f"play {n}" for n in names)
        return sorted(self.game.string_to_action(n) for n in names)

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action}")
        self.reading.apply(self.action_to_string(action).removeprefix("play "))

    def returns(self) -> list[float]:
        if self.game.zero_sum:
            return [float(r) for r in self.reading.returns()]
        return [float(p + self.game.bonus) for p in self.reading.points()]


def test_the_replay_agrees_with_a_stand_in_engine_of_our_reading(traces, no_stick_traces):
    differences = [m for t in traces for m in replay_in_trickrules(t, ReadingGame())]
    differences += [m for t in no_stick_traces for m in replay_in_trickrules(t, ReadingGame(stick_the_dealer=False))]
    for name in REPLAYABLE_CRAFTED:
        game = ReadingGame(stick_the_dealer=CRAFTED_HANDS[name][1].get("stick_the_dealer", True))
        differences += replay_in_trickrules(crafted(name), game)
    assert not differences, "\n".join(differences[:SHOWN])


def test_the_replay_reads_action_strings_into_decision_names():
    kinds, names = decision_names(["trumps spades", "pass", "trumps clubs"])
    assert kinds == {"bid"} and names == ("pass", "trumps clubs", "trumps spades")
    assert decision_names(["play hearts-10", "play clubs-9"]) == ({"play"}, ("clubs-9", "hearts-10"))
    assert decision_names(["partner", "alone"]) == ({"alone"}, ("alone", "partner"))
    assert decision_names(["discard spades-A"]) == ({"discard"}, ("discard spades-A",))
    assert decision_names(["bid 7"])[0] == {"?bid"}


def test_the_replay_checks_the_standard_points_not_only_the_returns(traces):
    """A stand-in returning OpenSpiel's zero-sum returns, or giving both sides points, is reported."""
    trace = traces[0]
    for game in (ReadingGame(zero_sum=True), ReadingGame(bonus=1)):
        differences = replay_in_trickrules(trace, game)
        assert len(differences) == 1 and "points differ" in differences[0], differences


def test_the_stuck_dealer_differs_between_the_variants(traces):
    stuck = next(t for t in traces if len(bid_indices(t)) == 8)
    differences = replay_in_trickrules(stuck, ReadingGame(stick_the_dealer=False))
    assert len(differences) == 1 and "decision 7" in differences[0] and "only trickrules: ['pass']" in differences[0]


# ---------------------------------------------------------------- the cross-check


def test_trickrules_agrees_with_openspiel_decision_by_decision(euchre):
    games = games_from_env(500)
    differences = [m for seed in range(games) for m in replay_in_trickrules(crosscheck_trace(seed), euchre)]
    shown = "\n".join(differences[:SHOWN])
    assert not differences, f"{len(differences)} of {games} games differ; first ones:\n{shown}"


def test_trickrules_without_stick_the_dealer_agrees_with_openspiel(euchre_no_stick):
    games = max(1, games_from_env(500) // 4)
    traces = [crosscheck_trace(seed, NO_STICK) for seed in range(games)]
    differences = [m for t in traces for m in replay_in_trickrules(t, euchre_no_stick)]
    shown = "\n".join(differences[:SHOWN])
    assert not differences, f"{len(differences)} of {games} games differ; first ones:\n{shown}"


@pytest.mark.parametrize("name", REPLAYABLE_CRAFTED)
def test_trickrules_scores_the_crafted_hands_like_openspiel(name, euchre, euchre_no_stick):
    game = euchre_no_stick if CRAFTED_HANDS[name][1] == NO_STICK else euchre
    assert replay_in_trickrules(crafted(name), game) == []


# ---------------------------------------------------------------- the cross-check catches a broken rule

Mutation = Callable[[EuchreTrace], EuchreTrace | None]


def _with_legal(trace: EuchreTrace, index: int, legal: list[str] | tuple[str, ...], **changes: Any) -> EuchreTrace:
    d = trace.decisions[index]
    return with_decision(trace, index, dataclasses.replace(d, legal=tuple(sorted(legal)), **changes))


def left_bower_not_trump(trace: EuchreTrace) -> EuchreTrace | None:
    """A play's legal cards as if the left bower belonged to its printed suit."""
    if trace.trump is None:
        return None
    for i in play_indices(trace):
        reading = reading_at(trace, i)
        d = trace.decisions[i]
        naive = expected_plays(reading.hands[d.player], reading.trick_cards, trace.trump, left_bower_is_trump=False)
        if tuple(sorted(naive)) != d.legal:
            return _with_legal(trace, i, naive)
    return None


def stick_the_dealer_not_enforced(trace: EuchreTrace) -> EuchreTrace | None:
    """The stuck dealer is offered a pass."""
    if len(bid_indices(trace)) < 8:
        return None
    return _with_legal(trace, 7, trace.decisions[7].legal + (PASS,))


def up_suit_named_in_round_2(trace: EuchreTrace) -> EuchreTrace | None:
    """A second-round bidder may name the up card's suit again."""
    i = next((i for i in bid_indices(trace) if i >= 4), None)
    if i is None:
        return None
    return _with_legal(trace, i, trace.decisions[i].legal + (trumps(trace.up_suit),))


def up_card_discard_allowed(trace: EuchreTrace) -> EuchreTrace | None:
    """The dealer may discard the up card they just took, and does."""
    i = next((i for i, d in enumerate(trace.decisions) if d.kind == "discard"), None)
    if i is None:
        return None
    up = discard(trace.turn_up)
    return _with_legal(trace, i, trace.decisions[i].legal + (up,), chosen=up)


def discard_refused(trace: EuchreTrace) -> EuchreTrace | None:
    """The dealer may not discard one of the cards they were dealt."""
    i = next((i for i, d in enumerate(trace.decisions) if d.kind == "discard"), None)
    if i is None:
        return None
    d = trace.decisions[i]
    return _with_legal(trace, i, [c for c in d.legal if c != next(c for c in d.legal if c != d.chosen)])


def lead_not_skipping_the_partner(trace: EuchreTrace) -> EuchreTrace | None:
    """The lone maker's partner, left of the dealer, leads the first trick instead of sitting out."""
    if trace.declarer is None or not trace.alone or partner(trace.declarer) != (trace.dealer + 1) % 4:
        return None
    i = play_indices(trace)[0]
    return with_decision(trace, i, dataclasses.replace(trace.decisions[i], player=(trace.dealer + 1) % 4))


def alone_not_offered(trace: EuchreTrace) -> EuchreTrace | None:
    """The declarer is not offered to go alone."""
    i = next(i for i, d in enumerate(trace.decisions) if d.kind == "alone")
    if trace.decisions[i].chosen == ALONE:
        return None
    return _with_legal(trace, i, (PARTNER,))


def moved_point(trace: EuchreTrace) -> EuchreTrace | None:
    """One point of player 0's return is booked to player 1."""
    returns = list(trace.returns)
    returns[0] -= 1
    returns[1] += 1
    return dataclasses.replace(trace, returns=returns)


def euchre_worth_one(trace: EuchreTrace) -> EuchreTrace | None:
    """Euchred makers lose 1, not 2."""
    if trace.declarer is None or trace.returns[trace.declarer] != -2:
        return None
    return dataclasses.replace(trace, returns=[r // 2 for r in trace.returns])


def lone_march_worth_two(trace: EuchreTrace) -> EuchreTrace | None:
    """A lone maker who takes all five tricks scores 2, not 4."""
    if trace.declarer is None or not trace.alone or trace.returns[trace.declarer] != 4:
        return None
    return dataclasses.replace(trace, returns=[r // 2 for r in trace.returns])


def dealer_moved(trace: EuchreTrace) -> EuchreTrace | None:
    """The next player deals (so another player bids and leads first)."""
    return dataclasses.replace(trace, dealer=(trace.dealer + 1) % 4)


def swapped_dealt_cards(trace: EuchreTrace) -> EuchreTrace | None:
    """Players 0 and 1, who both play, swap one dealt card."""
    if {0, 1} & trace.sitting_out:
        return None
    hands = [list(h) for h in trace.hands]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return dataclasses.replace(trace, hands=hands)


def dropped_legal_card(trace: EuchreTrace) -> EuchreTrace | None:
    """A play decision with a choice loses one legal card it did not choose."""
    for i in play_indices(trace):
        d = trace.decisions[i]
        if len(d.legal) > 1:
            dropped = next(c for c in d.legal if c != d.chosen)
            return _with_legal(trace, i, [c for c in d.legal if c != dropped])
    return None


MUTATIONS: list[Mutation] = [
    left_bower_not_trump,
    stick_the_dealer_not_enforced,
    up_suit_named_in_round_2,
    up_card_discard_allowed,
    discard_refused,
    lead_not_skipping_the_partner,
    alone_not_offered,
    moved_point,
    euchre_worth_one,
    lone_march_worth_two,
    dealer_moved,
    swapped_dealt_cards,
    dropped_legal_card,
]


def corrupted(mutation: Mutation, traces: list[EuchreTrace]) -> tuple[EuchreTrace, EuchreTrace]:
    """The first trace `mutation` applies to (the crafted hands of the defaults after the random ones), and its corrupted copy."""
    pool = traces + [crafted(n) for n in REPLAYABLE_CRAFTED if not CRAFTED_HANDS[n][1]]
    return first_corrupted(mutation, pool)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_a_corrupted_trace_breaks_openspiel_rules_as_we_read_them(mutation, traces):
    original, mutated = corrupted(mutation, traces)
    assert_check_notices(mutation.__name__, original, mutated, check_trace)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_in_the_stand_in_engine_reports_a_corrupted_trace(mutation, traces):
    original, mutated = corrupted(mutation, traces)
    game = ReadingGame()
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, game))


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_reports_a_corrupted_trace(mutation, traces, euchre):
    original, mutated = corrupted(mutation, traces)
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, euchre))


# ---------------------------------------------------------------- a broken spec is caught


_TEXT = EUCHRE_SPEC.read_text(encoding="utf-8") if EUCHRE_SPEC.exists() else ""
BROKEN_SPECS = {
    "the up card may be discarded": ("may_discard_turned_up: false", "may_discard_turned_up: true"),
    "no stick the dealer": ("dealer_must_choose: {option: stick_the_dealer}", "dealer_must_choose: false"),
    "diamonds-J no left bower": ("{suit: hearts, rank: 15, when: {trumps_include: hearts}}, ", ""),
    "lone march worth 2": ("(4 if alone else 2) if tricks == 5", "2 if tricks == 5"),
    "euchre worth 1": ("2 if declarer >= 0 and tricks >= 3", "1 if declarer >= 0 and tricks >= 3"),
    "the dealer leads": ("  first_leader: left_of_dealer", "  first_leader: dealer"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str, traces: list[EuchreTrace]) -> None:
    broken = trickrules.load_ruleset_text(broken_text(_TEXT, name, BROKEN_SPECS[name]), options=EUCHRE_OPTIONS)
    game = trickrules.load_game(broken)
    pool = traces + [crafted(n) for n in REPLAYABLE_CRAFTED if not CRAFTED_HANDS[n][1]]
    assert_a_replay_differs(name, pool, lambda t: replay_in_trickrules(t, game))
