"""Bidding, partnerships, turned-up trumps and hand sizes by round, through the state API,
records, observations, the greedy agent and simulate."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.engine.agents import GreedyAgent, estimate_tricks
from trickrules.errors import DealError, IllegalActionError
from trickrules.tools.record import build_record, replay
from trickrules.tools.recordschema import record_problems

ROOT = Path(__file__).resolve().parent.parent
SPADES = ROOT / "specs" / "spades.yaml"
OH_HELL = ROOT / "specs" / "oh-hell.yaml"


def play_out(state: trickrules.State, pick: int = 0) -> trickrules.State:
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[pick % len(legal)])
    return state


def words(state: trickrules.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_spades_bids_have_words_and_the_partner_limit() -> None:
    game = trickrules.load_game(SPADES, options={"single_hand": True})
    state = game.new_initial_state(3)
    assert state.phase == trickrules.Phase.BID and state.current_player() == 0
    assert words(state) == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    state.apply_action(game.string_to_action("bid 10"))
    state.apply_action(game.string_to_action("bid 4"))
    assert words(state) == ["bid nil", "bid 1", "bid 2", "bid 3"]  # seat 2: partner bid 10
    with pytest.raises(IllegalActionError):
        state.apply_action(game.string_to_action("bid 4"))
    state.apply_action(game.string_to_action("bid 3"))
    assert words(state)[-1] == "bid 9"  # seat 3: partner bid 4
    assert state.observation(1)["bids"] == ["10", "4", "3", None]


def test_bid_text_round_trips_and_refuses_what_is_not_a_bid() -> None:
    game = trickrules.load_game(SPADES)
    assert game.action_to_string(game.string_to_action("bid nil")) == "bid nil"
    assert game.action_to_string(game.string_to_action("bid 13")) == "bid 13"
    for text in ("bid 0", "bid 14", "bid -1", "bid ten"):
        with pytest.raises(ValueError):
            game.string_to_action(text)


def test_partners_pool_their_points() -> None:
    game = trickrules.load_game(SPADES, options={"single_hand": True})
    for seed in range(20):
        state = play_out(game.new_initial_state(seed), pick=seed)
        result = state.round_results[-1]
        assert state.totals[0] == state.totals[2] and state.totals[1] == state.totals[3]
        by_rule = result["rules"]
        for team in ((0, 2), (1, 3)):
            assert result["points"][team[0]] == sum(sum(by_rule[p].values()) for p in team)
        assert set(state.winners()) in ({0, 2}, {1, 3}, {0, 1, 2, 3})


def test_spades_contract_scoring_by_hand() -> None:
    game = trickrules.load_game(SPADES, options={"single_hand": True})
    for seed in range(40):
        state = play_out(game.new_initial_state(seed), pick=seed * 7)
        result = state.round_results[-1]
        tricks = [m["tricks"] for m in result["measures"]]
        bids = [int(b) if b != "nil" else 0 for b in build_record_bids(game, seed, seed * 7)]
        for team in ((0, 2), (1, 3)):
            bid, taken = sum(bids[p] for p in team), sum(tricks[p] for p in team)
            expected = 10 * bid + (taken - bid) - 100 * ((taken - bid) // 10) if taken >= bid else -10 * bid
            expected += sum((100 if tricks[p] == 0 else -100) for p in team if bids[p] == 0)
            assert result["points"][team[0]] == expected, (seed, bids, tricks)


def build_record_bids(game: trickrules.Game, seed: int, pick: int) -> list[str]:
    state = play_out(game.new_initial_state(seed, record=True), pick=pick)
    return build_record(state)["rounds"][0]["bids"]


def test_records_with_bids_and_teams_replay_and_fit_the_schema() -> None:
    for path, players in ((SPADES, 4), (OH_HELL, 3)):
        game = trickrules.load_game(path, players=players, options={"single_hand": True})
        state = play_out(game.new_initial_state(5, record=True), pick=3)
        record = build_record(state)
        assert record_problems(record) == []
        assert replay(record, game).verified
        assert all(b is not None for b in record["rounds"][0]["bids"])
        assert ("teams" in record) == (path == SPADES)


def test_oh_hell_turned_up_card_is_trump_and_the_hook() -> None:
    game = trickrules.load_game(OH_HELL, players=3, options={"single_hand": True})
    hands = [["hearts-2", "hearts-3"], ["clubs-7", "diamonds-9"], ["clubs-5", "diamonds-J"]]
    state = game.new_initial_state(0, deal={"hands": hands, "dealer": 2, "turn_up": "diamonds-5"})
    assert state.trumps == frozenset([game.ruleset.deck.suits.index("diamonds")])
    assert state.observation(0)["turned_up"] == "diamonds-5"
    assert state.current_player() == 0  # left of the dealer bids first
    state.apply_action(game.string_to_action("bid 1"))
    state.apply_action(game.string_to_action("bid 0"))
    assert words(state) == ["bid 0", "bid 2"]  # the dealer may not bid 1: 1 + 0 + 1 == 2 tricks


def test_oh_hell_hand_sizes_follow_the_schedule() -> None:
    game = trickrules.load_game(OH_HELL, players=4)
    state = game.new_initial_state(1)
    sizes = []
    while not state.is_terminal():
        if len(sizes) == state.round:
            sizes.append(state.hand_size)
        state.apply_action(state.legal_actions()[0])
    assert sizes == list(range(1, 13)) + list(range(11, 0, -1))


def test_oh_hell_random_hand_size_and_dealer_are_seeded() -> None:
    game = trickrules.load_game(OH_HELL, players=3, options={"hand_size": "random", "dealer": "random", "single_hand": True})
    seen = {(s.hand_size, s.dealer) for s in (game.new_initial_state(seed) for seed in range(200))}
    assert {size for size, _ in seen} == set(range(1, 18))
    assert {dealer for _, dealer in seen} == {0, 1, 2}
    again = game.new_initial_state(7), game.new_initial_state(7)
    assert (again[0].hand_size, again[0].dealer, again[0].hands) == (again[1].hand_size, again[1].dealer, again[1].hands)


def test_bad_oh_hell_deals_are_refused() -> None:
    game = trickrules.load_game(OH_HELL, players=3, options={"single_hand": True})
    hands = [["hearts-2"], ["clubs-7"], ["clubs-5"]]
    with pytest.raises(DealError, match="in a hand"):
        game.new_initial_state(0, deal={"hands": hands, "turn_up": "clubs-7"})
    with pytest.raises(DealError, match="not one of"):
        game.new_initial_state(0, deal={"hands": hands, "dealer": 5})
    with pytest.raises(DealError, match="cards in this game"):
        game.new_initial_state(0, deal={"hands": [["hearts-2"] * 0] * 3})


def test_greedy_bids_what_its_hand_is_worth() -> None:
    game = trickrules.load_game(SPADES, options={"single_hand": True})
    strong = [f"spades-{r}" for r in ("A", "K", "Q", "J", "10")] + [f"hearts-{r}" for r in ("A", "K")] + [
        f"clubs-{r}" for r in ("A", "K", "2", "3", "4", "5")
    ]
    weak = [f"diamonds-{r}" for r in range(2, 11)] + ["hearts-2", "hearts-3", "hearts-4", "clubs-6"]
    rest = [c for c in game.card_ids if c not in strong + weak]
    state = game.new_initial_state(0, deal={"hands": [strong, rest[:13], weak, rest[13:]]})
    assert estimate_tricks(state, 0) > 6 > 1 > estimate_tricks(state, 2)
    agent = GreedyAgent(0)
    first = game.action_to_string(agent.step(state))
    assert first in {f"bid {n}" for n in range(6, 10)}, first


def test_greedy_beats_random_at_bidding_games() -> None:
    spades = trickrules.simulate(SPADES, n=40, agents=["greedy", "random", "greedy", "random"], options={"single_hand": True}, workers=1)
    teams = {tuple(t): sum(spades.seats[p].wins.successes for p in t) / spades.games for t in ((0, 2), (1, 3))}
    assert teams[(0, 2)] > 0.5 > teams[(1, 3)]
    oh_hell = trickrules.simulate(OH_HELL, n=20, players=3, agents=["greedy", "random", "random"], options={"hand_size": "random", "single_hand": True}, workers=1)
    rates = [seat.wins.rate or 0 for seat in oh_hell.seats]
    assert rates[0] > max(rates[1:])
