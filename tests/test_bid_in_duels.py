"""Bidding in duels (`bid: {bidding: precedence, speaking: duels}`, Skat's order of speaking):
the first bidder listens and the next player speaks; the speaker bids above the highest bid or
passes, the listener holds each bid or passes; the one left listens to the next player, until
everyone has spoken; the last one left declares at its bid."""

from __future__ import annotations

import copy
import pickle

import pytest

import trickrules
from helpers import events, legal_texts, say, spec_game
from trickrules.spec.dump import dump_spec
from trickrules.tools.rulebook_round import bidding_words

SPEC = """\
language: 2
id: duels
title: Duels
players: [3, 4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  generate: [{suits: all, ranks: {from: 1, to: 6}}]
deal: {hand_size: 5, first_leader: declarer}
round:
  - deal
  - bid: {values: {from: 5, to: 9}, first: left_of_dealer, bidding: precedence, precedence: first_bidder, speaking: duels}
  - play
  - score
follow: [follow_led]
ranking: [{prefer: led}, {highest: rank}]
scoring:
  round:
    - {name: made, add: "(bid if tricks >= 2 else -bid) if bid > 0 else 0"}
"""


@pytest.fixture(params=[3, 4])
def game(request: pytest.FixtureRequest) -> trickrules.Game:
    return spec_game(SPEC, players=request.param)


def test_the_second_player_speaks_first_and_the_first_listens(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)  # the dealer is seat 0: seat 1 is the first bidder
    assert state.current_player() == 2 and legal_texts(state) == ["pass", "bid 5", "bid 6", "bid 7", "bid 8", "bid 9"]
    say(state, "bid 6")
    assert state.current_player() == 1 and legal_texts(state) == ["pass", "bid 6"]  # hold or pass, never raise
    say(state, "bid 6")
    assert state.current_player() == 2 and legal_texts(state) == ["pass", "bid 7", "bid 8", "bid 9"]  # the speaker goes higher


def test_the_one_left_listens_to_the_next_player(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)
    say(state, "bid 6", "pass")  # seat 2 bid, seat 1 passed: seat 2 listens to seat 3 (or seat 0 with 3 players)
    nxt = 3 % game.num_players
    assert state.current_player() == nxt and legal_texts(state) == ["pass", "bid 7", "bid 8", "bid 9"]
    say(state, "bid 8")
    assert state.current_player() == 2 and legal_texts(state) == ["pass", "bid 8"]


def test_everyone_speaks_and_the_last_one_left_declares_at_its_bid(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)
    say(state, "bid 6", "bid 6", "pass")  # seat 1 held, seat 2 passed: seat 1 listens to the next
    for _ in range(game.num_players - 2):
        assert state.current_player() != 1 and "bid 6" not in legal_texts(state)
        say(state, "pass")
    assert state.declarer == 1 and state.phase != 6  # the bidding is over


def test_left_without_a_bid_the_first_may_still_bid_or_pass(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)
    say(state, *["pass"] * (game.num_players - 1))
    assert state.current_player() == 1 and legal_texts(state)[:2] == ["pass", "bid 5"]
    alone = state.clone()
    say(alone, "bid 5")
    assert alone.declarer == 1
    say(state, "pass")
    assert state.is_terminal() and state.returns() == [0.0] * game.num_players  # nobody bid: not played


def test_the_log_names_each_bid_and_pass_by_its_speaker(game: trickrules.Game) -> None:
    state = game.new_initial_state(0, record=True)
    say(state, "bid 6", "pass", "bid 7")
    nxt = 3 % game.num_players
    assert [(e["player"], e["bid"], e["name"]) for e in events(state, "bid")] == [(2, 6, "6"), (1, None, "pass"), (nxt, 7, "7")]
    assert game.new_initial_state(0).events is None  # nothing logged unless recording
    assert state.observation(0)["passed_bidding"] == [seat == 1 for seat in range(game.num_players)]  # seen by all


def test_a_copy_and_a_pickle_keep_the_duel(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)
    say(state, "bid 6", "pass")
    for other in (state.clone(), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert other.current_player() == state.current_player() and legal_texts(other) == legal_texts(state)
        say(other, "bid 7")
        assert other.current_player() == 2 and legal_texts(other) == ["pass", "bid 7"]
    assert legal_texts(state) == ["pass", "bid 7", "bid 8", "bid 9"]  # the copies changed nothing here


def test_random_duels_end_with_the_highest_bidder_declaring(game: trickrules.Game) -> None:
    for seed in range(60):
        state = game.new_initial_state(seed)
        made: dict[int, int] = {}
        while state.phase == 6:
            options = state.legal_actions()
            action = options[(seed * 7 + len(made)) % len(options)]
            text = state.action_to_string(action)
            if text != "pass":
                assert int(text.split()[1]) >= max(made.values(), default=0)  # never below the highest
                made[state.current_player()] = int(text.split()[1])
            state.apply_action(action)
        if made:
            assert made[state.declarer] == max(made.values())
        else:
            assert state.is_terminal()


def test_the_spec_written_back_and_the_rulebook_keep_the_duels() -> None:
    game = spec_game(SPEC, players=3)
    step = next(s for s in game.steps if s.kind == "bid")
    assert step.bidding is not None and step.bidding.speaking == "duels"
    written = next(s for s in dump_spec(game.ruleset)["round"] if isinstance(s, dict) and "bid" in s)
    assert written["bid"]["speaking"] == "duels"
    assert "two at a time" in bidding_words(step.bidding)


def test_skat_standard_speaks_in_skats_order_by_option() -> None:
    table = trickrules.load_game("skat-standard", options={"deals": 1})
    skat = trickrules.load_game("skat-standard", options={"deals": 1, "bidding_order": "skat"})
    assert table.new_initial_state(0).current_player() == 0  # forehand, round the table
    state = skat.new_initial_state(0)
    assert state.current_player() == 1  # middlehand speaks to forehand
    say(state, "bid 18")
    assert state.current_player() == 0 and legal_texts(state) == ["pass", "bid 18"]
