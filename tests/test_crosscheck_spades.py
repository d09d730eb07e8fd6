"""Spades against OpenSpiel: decision by decision, our specs/spades.yaml agrees with pyspiel's "spades".

OpenSpiel's side is checked on its own first (our reading of its encoding, bidding, play and
scoring, hand scores and returns). Then OpenSpiel hands are replayed in trickrules, comparing
every legal set and the hand scores; ``TRICKRULES_CROSSCHECK_GAMES`` sets how many (default 500;
every fourth hand bids low so that bag penalties and double Nils come up). Last, deliberately
corrupted traces show that the replay notices a difference.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

import pyspiel
import pytest
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
from openspiel_spades import SPADES_OPTIONS as _OPTIONS, SPADES_SPEC as _SPEC
from openspiel_spades import (
    DEFAULT_PARAMS,
    LOW_BID_CAP,
    NIL,
    SpadesTrace,
    bid_name,
    bid_value,
    card_action,
    card_id,
    check_trace,
    count_scores,
    crosscheck_trace,
    games_from_env,
    hands_at,
    lead_indices,
    load_trickrules_spades,
    nil_bonuses,
    openspiel_game,
    overtricks,
    partner,
    play_openspiel_game,
    replay_in_trickrules,
    suit_of,
    tricks_of,
    tricks_taken,
    with_win_or_loss_bonus,
)

import trickrules

SANITY_GAMES = 400
VARIANT_GAMES = 200
SHOWN = 5

SUIT_LETTERS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

ALL_SPADES_DEAL = [
    [f"spades-{r}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")],
    [card_id(a) for a in range(0, 13)],  # the clubs
    [card_id(a) for a in range(13, 26)],  # the diamonds
    [card_id(a) for a in range(26, 39)],  # the hearts
]
"""Player 0 holds every spade: they lead spades (a hand of only spades) and take all 13 tricks."""

CRAFTED_HANDS = {
    # bids by player: hand scores. Player 0 takes all 13 tricks.
    "nil made, 12 bags": ((1, 3, 0, 0), [22, 70, 22, 70]),  # 10 + 12 - 100 + 100 | -30 + 100
    "double nil, one failed": ((0, 5, 0, 5), [-87, -100, -87, -100]),  # -100 + 100 + 13 - 100 | -100
    "partner of a 13 bids nil": ((13, 0, 0, 0), [230, 200, 230, 200]),  # 130 + 100 | 100 + 100
    "9 bags cost nothing": ((4, 0, 0, 0), [149, 200, 149, 200]),  # 40 + 9 + 100 | 100 + 100
    "10 bags cost 100": ((3, 0, 0, 0), [40, 200, 40, 200]),  # 30 + 10 - 100 + 100 | 100 + 100
}
"""Bids for `ALL_SPADES_DEAL` and the hand scores they give, by our reading of the rules."""


@pytest.fixture(scope="module")
def traces() -> list[SpadesTrace]:
    """The cross-check's OpenSpiel hands of seeds 0.. (default parameters; every fourth bids low)."""
    return [crosscheck_trace(seed) for seed in range(SANITY_GAMES)]


@pytest.fixture(scope="module")
def spades() -> trickrules.Game:
    """Our Spades, one hand with spades never broken."""
    return load_trickrules_spades()


def crafted(bids: tuple[int, ...]) -> SpadesTrace:
    return play_openspiel_game(0, deal=ALL_SPADES_DEAL, bids=bids)


# ---------------------------------------------------------------- OpenSpiel on its own


def test_openspiel_defaults_are_the_ones_cross_checked():
    game = pyspiel.load_game("spades")
    game.new_initial_state()  # the defaults show up once a state has read them
    assert game.get_parameters() == DEFAULT_PARAMS


def test_card_and_bid_names_follow_openspiel_suit_major_encoding():
    assert [card_id(a) for a in (0, 1, 8, 12, 13, 26, 34, 39, 49, 51)] == [
        "clubs-2",
        "clubs-3",
        "clubs-10",
        "clubs-A",
        "diamonds-2",
        "hearts-2",
        "hearts-10",
        "spades-2",
        "spades-Q",
        "spades-A",
    ]
    assert len({card_id(a) for a in range(52)}) == 52
    assert all(card_action(card_id(a)) == a for a in range(52))
    state = pyspiel.load_game("spades").new_initial_state()
    for a in range(52):  # OpenSpiel's own text, e.g. "SQ", read into our id
        text = state.action_to_string(a)
        rank = "10" if text[1] == "T" else text[1]
        assert card_id(a) == f"{SUIT_LETTERS[text[0]]}-{rank}"
    assert [state.action_to_string(52 + b) for b in range(14)] == ["Nil"] + [str(b) for b in range(1, 14)]
    assert [bid_name(b) for b in range(14)] == [NIL] + [str(b) for b in range(1, 14)]
    assert all(bid_value(bid_name(b)) == b for b in range(14))


def test_the_kth_card_dealt_goes_to_player_k_mod_4():
    game = openspiel_game()
    for seed in range(20):
        trace = play_openspiel_game(seed)
        state = game.new_initial_state()
        for k in range(52):
            state.apply_action(card_action(trace.hands[k % 4][k // 4]))
        assert state.current_player() == 0
        for player, hand in enumerate(trace.hands):
            seen = []
            for line in state.observation_string(player).splitlines()[:4]:  # "S AK7", "H none", ...
                letter, _, ranks = line.partition(" ")
                if ranks != "none":
                    seen += [f"{SUIT_LETTERS[letter]}-{'10' if r == 'T' else r}" for r in ranks]
            assert sorted(seen) == sorted(hand)


def test_traces_have_the_shape_of_a_hand(traces):
    for trace in traces:
        assert [(d.kind, d.player) for d in trace.decisions[:4]] == [("bid", p) for p in range(4)]
        assert [d.kind for d in trace.decisions[4:]] == ["play"] * 52
        assert trace.decisions[4].player == 0
        assert sorted(len(h) for h in trace.hands) == [13] * 4
        assert all(d.chosen in d.legal and list(d.legal) == sorted(d.legal) for d in trace.decisions)
        assert trace.params == DEFAULT_PARAMS


def test_traces_follow_our_reading_of_openspiel_rules(traces):
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])


def test_a_partner_who_bid_b_leaves_bids_up_to_13_minus_b(traces):
    limits = Counter()
    for trace in traces:
        for d in trace.decisions[:4]:
            legal = sorted(bid_value(b) for b in d.legal)
            if d.player < 2:
                assert legal == list(range(14))
            else:
                partner_bid = trace.bids[partner(d.player)]
                assert legal == list(range(14 - partner_bid))
                limits["nil partner" if partner_bid == 0 else "limited"] += 1
    assert limits["nil partner"] and limits["limited"]
    after_13 = crafted((13, 0, 0, 0))
    assert after_13.decisions[2].legal == (NIL,)


def test_spades_are_never_broken(traces):
    """A leader holding spades and another suit may not lead a spade, even after spades were played."""
    after_spades = only_spades = 0
    for trace in traces:
        for i in lead_indices(trace):
            d = trace.decisions[i]
            hand = hands_at(trace, i)[d.player]
            spades = [c for c in hand if suit_of(c) == "spades"]
            if spades and len(spades) < len(hand):
                assert not [c for c in d.legal if suit_of(c) == "spades"]
                played = [e.chosen for e in trace.decisions[4:i]]
                after_spades += any(suit_of(c) == "spades" for c in played)
            elif spades:
                assert sorted(d.legal) == sorted(hand)
                only_spades += 1
    assert after_spades > 100 and only_spades > 0


def test_the_highest_spade_wins_else_the_highest_of_the_led_suit(traces):
    trumped = 0
    for trace in traces:
        for trick in tricks_of(trace):
            led = suit_of(trick.cards[0])
            suits = [suit_of(c) for c in trick.cards]
            winner_card = trick.cards[(trick.winner - trick.leader) % 4]
            assert suit_of(winner_card) == ("spades" if "spades" in suits else led)
            trumped += led != "spades" and "spades" in suits
        leaders = [t.leader for t in tricks_of(trace)]
        assert leaders == [0] + [t.winner for t in tricks_of(trace)[:-1]]
    assert trumped > 0


def test_hand_scores_with_nils_and_bags(traces):
    seen = Counter()
    for trace in traces:
        assert trace.points == count_scores(trace)
        assert [int(r) for r in trace.returns] == trace.points  # no bonus is reachable with the defaults
        assert trace.points[0] == trace.points[2] and trace.points[1] == trace.points[3]
        assert -290 <= min(trace.points) and max(trace.points) <= 230
        taken, bids = tricks_taken(trace), trace.bids
        assert sum(taken) == 13
        for side in (0, 1):
            made = taken[side] + taken[side + 2] >= bids[side] + bids[side + 2]
            seen["made" if made else "missed"] += 1
            if bids[side] == bids[side + 2] == 0:
                seen["double nil"] += 1
        seen["nil made"] += sum(b > 0 for b in nil_bonuses(trace))
        seen["nil failed"] += sum(b < 0 for b in nil_bonuses(trace))
        seen["bags"] += sum(o > 0 for o in overtricks(trace))
        seen["bag penalty"] += sum(o >= 10 for o in overtricks(trace))
    wanted = {"made", "missed", "double nil", "nil made", "nil failed", "bags", "bag penalty"}
    assert wanted <= {k for k, n in seen.items() if n}, seen


@pytest.mark.parametrize("name", sorted(CRAFTED_HANDS))
def test_crafted_hands_score_as_we_read_the_rules(name):
    bids, points = CRAFTED_HANDS[name]
    trace = crafted(bids)
    assert tricks_taken(trace) == [13, 0, 0, 0]
    assert trace.bids == list(bids)
    assert trace.points == points == count_scores(trace)
    assert check_trace(trace) == []


@pytest.mark.parametrize(
    "params",
    [
        {"win_threshold": 50},
        {"mercy_threshold": -50},
        {"use_mercy_rule": False, "mercy_threshold": -50},
        {"mercy_threshold": 0, "win_threshold": 60, "win_or_loss_bonus": 37},
        {"win_threshold": -100, "mercy_threshold": 100},
    ],
    ids=lambda params: ",".join(f"{k}={v}" for k, v in params.items()),
)
def test_returns_add_the_win_or_loss_bonus_to_the_hand_score(params):
    traces = [play_openspiel_game(seed, params) for seed in range(VARIANT_GAMES)]
    assert all(t.params == {**DEFAULT_PARAMS, **params} for t in traces)
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])
    bonuses = Counter(int(r) - p for t in traces for r, p in zip(t.returns, t.points))
    assert set(bonuses) - {0}, "no bonus or penalty applied: the formula went unchecked"


def test_the_bonus_formula():
    params = dict(DEFAULT_PARAMS)
    assert with_win_or_loss_bonus([230, -290, 230, -290], params) == [230, -290, 230, -290]
    params.update(win_threshold=50, mercy_threshold=-50)
    assert with_win_or_loss_bonus([60, -60, 60, -60], params) == [260, -260, 260, -260]
    assert with_win_or_loss_bonus([60, 60, 60, 60], params) == [60, 60, 60, 60]  # no one beats the other
    params.update(mercy_threshold=0, use_mercy_rule=True)
    assert with_win_or_loss_bonus([10, -60, 10, -60], params) == [10, -60, 10, -60]  # threshold 0: no mercy


def test_games_from_env(monkeypatch):
    monkeypatch.delenv("TRICKRULES_CROSSCHECK_GAMES", raising=False)
    assert games_from_env(7) == 7
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "20")
    assert games_from_env(7) == 20
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "many")
    with pytest.raises(ValueError):
        games_from_env(7)


def test_crosscheck_traces_bid_low_every_fourth_hand():
    assert [crosscheck_trace(seed).bid_cap for seed in range(8)] == [None, None, None, LOW_BID_CAP] * 2
    low = crosscheck_trace(3)
    assert max(low.bids) <= LOW_BID_CAP
    assert len(low.decisions[0].legal) == 14  # the cap chooses; the legal sets are OpenSpiel's


# ---------------------------------------------------------------- the cross-check


def test_trickrules_agrees_with_openspiel_decision_by_decision(spades):
    games = games_from_env(500)
    differences = [m for seed in range(games) for m in replay_in_trickrules(crosscheck_trace(seed), spades)]
    shown = "\n".join(differences[:SHOWN])
    assert not differences, f"{len(differences)} of {games} games differ; first ones:\n{shown}"


@pytest.mark.parametrize("name", sorted(CRAFTED_HANDS))
def test_trickrules_scores_the_crafted_hands_like_openspiel(name, spades):
    assert replay_in_trickrules(crafted(CRAFTED_HANDS[name][0]), spades) == []


# ---------------------------------------------------------------- the cross-check catches a broken rule

Mutation = Callable[[SpadesTrace], SpadesTrace | None]


def partner_limit_not_enforced(trace: SpadesTrace) -> SpadesTrace | None:
    """A bidder whose partner bid more than Nil is offered every bid up to 13."""
    for i, d in enumerate(trace.decisions[:4]):
        if d.player >= 2 and trace.bids[partner(d.player)] > 0:
            every = tuple(sorted(bid_name(b) for b in range(14)))
            return with_decision(trace, i, dataclasses.replace(d, legal=every))
    return None


def spade_led_from_a_mixed_hand(trace: SpadesTrace) -> SpadesTrace | None:
    """A leader holding spades and another suit is told a spade could be led."""
    for i in lead_indices(trace):
        d = trace.decisions[i]
        hand = hands_at(trace, i)[d.player]
        spades = [c for c in hand if suit_of(c) == "spades"]
        if spades and len(spades) < len(hand):
            return with_decision(trace, i, dataclasses.replace(d, legal=tuple(sorted(d.legal + (spades[0],)))))
    return None


def nil_bonus_dropped(trace: SpadesTrace) -> SpadesTrace | None:
    """A Nil bid's +100 or -100 is left out of its partnership's score."""
    nils = nil_bonuses(trace)
    nil = next((p for p in range(4) if nils[p]), None)
    if nil is None:
        return None
    points = [p - nils[nil] if q % 2 == nil % 2 else p for q, p in enumerate(trace.points)]
    return dataclasses.replace(trace, points=points)


def bag_penalty_dropped(trace: SpadesTrace) -> SpadesTrace | None:
    """Ten overtricks cost nothing."""
    side = next((s for s, o in enumerate(overtricks(trace)) if o >= 10), None)
    if side is None:
        return None
    return dataclasses.replace(trace, points=[p + 100 if q % 2 == side else p for q, p in enumerate(trace.points)])


def moved_point(trace: SpadesTrace) -> SpadesTrace | None:
    """One point of player 0's score is booked to player 1."""
    points = list(trace.points)
    points[0] -= 1
    points[1] += 1
    return dataclasses.replace(trace, points=points)


MUTATIONS: list[Mutation] = [
    partner_limit_not_enforced,
    spade_led_from_a_mixed_hand,
    nil_bonus_dropped,
    bag_penalty_dropped,
    moved_point,
    swapped_dealt_cards,
    dropped_legal_card,
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_a_corrupted_trace_breaks_openspiel_rules_as_we_read_them(mutation, traces):
    original, mutated = first_corrupted(mutation, traces)
    assert_check_notices(mutation.__name__, original, mutated, check_trace)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_reports_a_corrupted_trace(mutation, traces, spades):
    original, mutated = first_corrupted(mutation, traces)
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, spades))


# ---------------------------------------------------------------- a broken spec is caught


_TEXT = _SPEC.read_text(encoding="utf-8")
BROKEN_SPECS = {
    "no partner limit": ('allow: "partner_bid < 0 or bid <= 13 - partner_bid"', 'allow: "True"'),
    "spades broken as in standard play": ('        never: "True"', "        never: not broken"),
    "no nil bonus": ('add: "(100 if tricks == 0 else -100) if bid == 0 else 0"', 'add: "0"'),
    "missed contract costs 5 a trick": ("else -10 * bid\"", "else -5 * bid\""),
}


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str, traces: list[SpadesTrace]) -> None:
    broken = trickrules.load_ruleset_text(broken_text(_TEXT, name, BROKEN_SPECS[name]), options=_OPTIONS)
    game = trickrules.load_game(broken)
    assert_a_replay_differs(name, traces, lambda t: replay_in_trickrules(t, game))
