"""What the compiler makes of a bid step: each key's default and its given value, the range's
end as an expression of the hand size, and the problems of a range with no bid or too many."""

from __future__ import annotations

import pytest

from helpers import BASE, compiled, first_problem, round_with
from trickrules.errors import SpecError
from trickrules.rules.ruleset import FIRST_BIDDER, BidPhase
from trickrules.spec.limits import MAX_BIDS
from trickrules.spec.loader import load_ruleset_text


def bid_rules(phase: str, players: int = 4) -> BidPhase:
    """The bid phase of the base spec with `phase` (one flow-style line) as its round's step."""
    ruleset = compiled(round_with(phase), players=players)
    [step] = [step for step in ruleset.round if step.kind == "bid"]
    assert step.bidding is not None
    return step.bidding


def test_a_bare_bid_step_runs_from_zero_to_the_hand_size_once_round_from_the_dealers_left() -> None:
    rules = bid_rules("bid: {}")
    assert (rules.lowest, rules.allow, rules.names) == (0, None, ())
    assert (rules.first, rules.first_seat, rules.bidding, rules.precedence_seat, rules.speaking) == ("left_of_dealer", 0, "once", -1, "in_turn")
    assert rules.highest({"hand_size": 5, "players": 4}) == 5
    assert rules.highest({"hand_size": 3, "players": 4}) == 3


def test_every_key_of_a_bid_step_is_kept() -> None:
    rules = bid_rules("bid: {values: {from: 2, to: hand_size + players}, names: {3: three, 2: two}, first: {seat: 3},"
                      " bidding: precedence, precedence: {seat: 1}, speaking: duels, allow: bid != 4}")
    assert (rules.lowest, rules.names) == (2, ((2, "two"), (3, "three")))
    assert rules.highest({"hand_size": 5, "players": 4}) == 9
    assert (rules.first, rules.first_seat, rules.bidding, rules.precedence_seat, rules.speaking) == ("seat", 3, "precedence", 1, "duels")
    assert rules.allow is not None
    assert rules.allow({"bid": 4, "hand_size": 5, "players": 4}) is False
    assert rules.allow({"bid": 3, "hand_size": 5, "players": 4}) is True
    assert (rules.name(3), rules.name(5)) == ("three", "5")


def test_the_first_bidder_may_hold_precedence() -> None:
    assert bid_rules("bid: {bidding: precedence, precedence: first_bidder}").precedence_seat == FIRST_BIDDER


def test_a_precedence_seat_the_table_lacks_is_refused() -> None:
    problem = first_problem(round_with("bid: {bidding: precedence, precedence: {seat: 3}}"), players=3)
    assert (problem.code, problem.message) == ("TR321", "seat 3 does not exist with 3 players")


@pytest.mark.parametrize(("values", "message"), [
    ("{from: 6}", "the bids run from 6 to 5 with a hand of 5: no bid at all"),
    ("{from: 0, to: hand_size * 200}", "the bids run from 0 to 1000 with a hand of 5: 1001 bids, over the limit of 1000 bids"),
    ("{from: 2, to: hand_size * 201}", "the bids run from 2 to 1005 with a hand of 5: 1004 bids, over the limit of 1000 bids"),
])
def test_a_bid_range_must_offer_some_bids_and_not_too_many(values: str, message: str) -> None:
    problem = first_problem(round_with(f"bid: {{values: {values}}}"))
    assert problem.code == ("TR331" if "no bid" in message else "TR332")
    assert problem.message.startswith(message)


@pytest.mark.parametrize(("counter", "values", "message"), [
    ("{initial: 3}", "{from: 4, to: cap}", "the bids run from 4 to 3 with a hand of 5: no bid at all"),
    ("{scope: table}", "{from: 1, to: cap}", "the bids run from 1 to 0 with a hand of 5: no bid at all"),
])
def test_a_bid_range_is_checked_with_each_counter_at_its_initial_value(counter: str, values: str, message: str) -> None:
    """A range's end may read a counter: it is checked with the counter's `initial` (0 when
    not given)."""
    problem = first_problem(f"counters:\n  cap: {counter}\n" + round_with(f"bid: {{values: {values}}}"))
    assert (problem.code, problem.message) == ("TR331", message)


def test_a_range_reading_a_counter_that_offers_one_bid_is_allowed() -> None:
    ruleset = compiled("counters:\n  cap: {initial: 3}\n" + round_with("bid: {values: {from: 3, to: cap}}"))
    [step] = [step for step in ruleset.round if step.kind == "bid"]
    assert step.bidding is not None and step.bidding.highest({"cap": 3, "hand_size": 5, "players": 4}) == 3


def test_a_range_of_one_bid_or_of_the_most_bids_is_allowed() -> None:
    rules = bid_rules("bid: {values: {from: 5}}")
    assert (rules.lowest, rules.highest({"hand_size": 5, "players": 4})) == (5, 5)
    rules = bid_rules("bid: {values: {from: 1, to: hand_size * 200}}")
    assert rules.highest({"hand_size": 5, "players": 4}) - rules.lowest + 1 == MAX_BIDS


def test_speaking_in_duels_needs_bidding_by_precedence() -> None:
    problem = first_problem(round_with("bid: {speaking: duels}"))
    assert problem.code == "TR376" and "bidding: precedence" in problem.message


def test_a_bid_range_is_checked_at_every_hand_size_the_rounds_deal() -> None:
    """Hands of 5, then 2: bids from 3 offer none with a hand of 2."""
    text = BASE.replace("hand_size: 5", "hand_size: {by_round: [5, 2]}") + round_with("bid: {values: {from: 3}}")
    with pytest.raises(SpecError) as caught:
        load_ruleset_text(text, players=3)
    assert [(p.code, p.path, p.message) for p in caught.value.problems] == [
        ("TR331", "$.round[1].bid.values", "the bids run from 3 to 2 with a hand of 2: no bid at all")]
