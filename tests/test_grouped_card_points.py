"""Card points counted in groups: a sum of card points less a share per card
(`less_per_card`), rounded half away from zero, against a count by hand."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.rules.measures import less_per_card, round_half_away
from trickrules.spec.dump import dump_yaml
from trickrules.spec.loader import load_ruleset_text

from helpers import events

GROUPED = """\
id: grouped
title: Grouped
players: [3, 4]
deck:
  suits: [taroks, hearts, diamonds, clubs, spades]
  attributes:
    points: {default: 1}
  generate:
    - {suits: [taroks], ranks: {from: 1, to: 22}, attributes: {points: {by_rank: {1: 5, 21: 5, 22: 5}, default: 1}}}
    - {suits: [hearts, diamonds, clubs, spades], ranks: {from: 1, to: 8},
       attributes: {points: {by_rank: {8: 5, 7: 4, 6: 3, 5: 2}, default: 1}}}
deal:
  hand_size: 12
trumps: [taroks]
follow: [follow_led, trump_if_void]
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures:
    card_points: {sum_attribute: points, less_per_card: {numerator: 2, denominator: 3}}
  round:
    - add: card_points
"""
"""A 54-card deck of 22 trumps and four suits of eight, its card points 106 in all (70 once
two thirds of a point per card are taken off)."""

GAME = trickrules.load_game(load_ruleset_text(GROUPED, players=4))


def _by_hand(total: int, cards: int, numerator: int, denominator: int) -> int:
    """round(total - cards * numerator / denominator), a half away from zero, by fractions."""
    exact = Fraction(total) - Fraction(cards * numerator, denominator)
    whole = int(abs(exact) + Fraction(1, 2))  # floor of |x| + 1/2
    return whole if exact >= 0 else -whole


def test_the_whole_deck_counts_seventy() -> None:
    column = GAME.ruleset.deck.columns[GAME.ruleset.deck.attributes.index("points")]
    assert len(column) == 54 and sum(column) == 106
    assert less_per_card(sum(column), 54, (2, 3)) == 70


@settings(max_examples=200, deadline=None)
@given(total=st.integers(-500, 500), cards=st.integers(0, 60), numerator=st.integers(0, 5), denominator=st.integers(1, 7))
def test_less_per_card_rounds_half_away_from_zero(total: int, cards: int, numerator: int, denominator: int) -> None:
    assert less_per_card(total, cards, (numerator, denominator)) == _by_hand(total, cards, numerator, denominator)


@pytest.mark.parametrize(("numerator", "denominator", "expected"), [(5, 2, 3), (-5, 2, -3), (3, 2, 2), (-3, 2, -2), (7, 3, 2), (-1, 3, 0)])
def test_a_half_rounds_away_from_zero(numerator: int, denominator: int, expected: int) -> None:
    assert round_half_away(numerator, denominator) == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_each_pile_counts_its_points_less_two_thirds_a_card(seed: int, players: int) -> None:
    game = trickrules.load_game(load_ruleset_text(GROUPED, players=players))
    column = game.ruleset.deck.columns[0]
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    measures = events(state, "round_end")[0]["measures"]
    for p in range(players):
        won = [c for trick in events(state, "trick") if trick["winner"] == p for c in trick["cards"]]
        assert measures[p]["card_points"] == _by_hand(sum(column[c] for c in won), len(won), 2, 3)


def test_grouped_card_points_round_trip_through_the_dump() -> None:
    assert load_ruleset_text(dump_yaml(GAME.ruleset)) == GAME.ruleset


TEAM_POINTS = GROUPED.replace("players: [3, 4]\n", "players: [4]\nteams: [[0, 2], [1, 3]]\n").replace(
    "card_points: {sum_attribute: points, less_per_card: {numerator: 2, denominator: 3}}",
    "card_points: {sum_attribute: points, less_per_card: {numerator: 2, denominator: 3}, per: team}",
)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_teams_pile_is_counted_and_rounded_once(seed: int) -> None:
    game = trickrules.load_game(load_ruleset_text(TEAM_POINTS))
    column = game.ruleset.deck.columns[0]
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    measures = events(state, "round_end")[0]["measures"]
    for first, second in ((0, 2), (1, 3)):
        won = [c for trick in events(state, "trick") if trick["winner"] in (first, second) for c in trick["cards"]]
        assert measures[first]["card_points"] == _by_hand(sum(column[c] for c in won), len(won), 2, 3)
        assert measures[second]["card_points"] == 0
