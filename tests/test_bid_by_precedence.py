"""A bid phase bidding by precedence (`bid: {bidding: precedence}`): players bid numbers in turn
until one is left, a pass is final, a bid beats the highest or matches it with precedence; the
last one holding the highest bid is the declarer at that bid and may name trumps
(`trumps: {choose: {by: declarer}}`); when everyone passes the round is not played."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from helpers import bid_lowest_while, legal_texts, say
from trickrules.errors import SpecError

SPEC = """\
language: 2
id: auction
title: Auction
players: [4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  generate: [{suits: all, ranks: {from: 1, to: 8}}]
deal: {hand_size: 8, first_leader: declarer}
teams: [[0, 2], [1, 3]]
round:
  - deal
  - bid: {values: {from: 5, to: 12}, first: left_of_dealer, bidding: precedence, precedence: {seat: 0}, allow: "bid != 11"}
  - choose_trumps
  - play
  - score
trumps: {choose: {by: declarer}}
follow: [follow_led]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
scoring:
  round:
    - {name: made, per: team, add: "(bid if tricks >= bid // 2 else -bid) if makers else 0"}
"""


@pytest.fixture()
def game(tmp_path: Path) -> trickrules.Game:
    path = tmp_path / "auction.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return trickrules.load_game(path)


def test_a_bid_beats_the_highest_or_matches_it_with_precedence(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0)
    assert state.current_player() == 1 and legal_texts(state)[:2] == ["pass", "bid 5"]
    say(state, "bid 7")  # seat 1
    assert "bid 7" not in legal_texts(state) and "bid 8" in legal_texts(state)  # seat 2 must beat it
    say(state, "bid 8", "pass")  # seats 2, 3
    assert "bid 8" in legal_texts(state) and "bid 7" not in legal_texts(state)  # seat 0 may match seat 2's 8
    assert "bid 11" not in legal_texts(state)  # allow still applies


def test_a_pass_is_final_and_the_last_holder_declares(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0)
    say(state, "bid 7", "bid 8", "pass", "bid 8")  # seat 0 matches
    assert state.current_player() == 1  # seat 3 passed: never asked again
    say(state, "pass", "pass")  # seats 1 and 2 pass: seat 0 holds 8
    assert state.declarer == 0 and state.current_player() == 0
    assert all(a.startswith("trumps ") for a in legal_texts(state))  # the declarer names trumps
    view = state.observation(1)
    assert view["passed_bidding"] == [False, True, True, True] and view["bids"][0] == "8"


def test_a_player_left_alone_may_bid_or_pass(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0)
    say(state, "pass", "pass", "pass")
    assert state.current_player() == 0 and legal_texts(state)[0] == "pass"
    say(state, "bid 5")
    assert state.declarer == 0


def test_when_everyone_passes_the_round_is_not_played(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0)
    say(state, "pass", "pass", "pass", "pass")
    assert state.is_terminal() and state.declarer == -1 and state.returns() == [0.0, 0.0, 0.0, 0.0]


def test_random_auctions_end_with_the_highest_bidder_declaring(game: trickrules.Game) -> None:
    for seed in range(40):
        state = game.new_initial_state(seed)
        made: dict[int, int] = {}
        while state.phase == 6:  # the bid phase
            action = state.legal_actions()[seed * 7 % len(state.legal_actions())]
            text = state.action_to_string(action)
            if text != "pass":
                made[state.current_player()] = int(text.split()[1])
            state.apply_action(action)
        if made:
            assert made.get(state.declarer) == max(made.values())
        else:
            assert state.is_terminal()


def test_a_precedence_seat_the_table_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("precedence: {seat: 0}", "precedence: {seat: 4}"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path)
    assert "TR321" in str(caught.value)


def test_bidding_by_precedence_round_trips(game: trickrules.Game) -> None:
    from trickrules.spec.dump import dump_yaml

    assert trickrules.load_ruleset_text(dump_yaml(game.ruleset), players=4) == game.ruleset


def test_without_a_precedence_seat_every_bid_must_beat_the_highest(tmp_path: Path) -> None:
    path = tmp_path / "strict.yaml"
    path.write_text(SPEC.replace(", precedence: {seat: 0}", ""), encoding="utf-8")
    state = trickrules.load_game(path).new_initial_state(seed=0)
    say(state, "bid 7", "bid 8", "pass")
    assert "bid 8" not in legal_texts(state) and "bid 9" in legal_texts(state)  # seat 0 may not match


def test_precedence_runs_from_its_seat_round_the_table(tmp_path: Path) -> None:
    path = tmp_path / "seat1.yaml"
    path.write_text(SPEC.replace("precedence: {seat: 0}", "precedence: {seat: 1}"), encoding="utf-8")
    state = trickrules.load_game(path).new_initial_state(seed=0)
    say(state, "bid 5", "pass", "bid 6")  # seats 1, 2, 3
    assert state.current_player() == 0 and "bid 6" not in legal_texts(state)  # seat 0 comes last from seat 1
    say(state, "bid 7")
    assert state.current_player() == 1 and "bid 7" in legal_texts(state)  # seat 1 comes first


def test_the_stated_longest_game_allows_each_value_bid_twice_beyond_one_turn_each(game: trickrules.Game) -> None:
    """`max_game_length`: the 32 cards dealt, the declarer's choice of trumps and one turn of
    bidding each, and, bidding by precedence, each value from the lowest (5) up to the top of
    the 13 bid twice at most (a raise, then a match); an in-turn bid adds nothing. The longest
    bidding stays within it."""
    assert game.num_bids == 13
    assert game.info().max_game_length == 32 + 1 + 4 + 2 * (13 - 5)
    in_turn = trickrules.load_game(trickrules.load_ruleset_text(SPEC.replace("bidding: precedence, precedence: {seat: 0}, ", "")))
    assert in_turn.info().max_game_length == 32 + 1 + 4
    state = game.new_initial_state(seed=0)
    assert bid_lowest_while(state, state.phase) <= 4 + 2 * (13 - 5)
