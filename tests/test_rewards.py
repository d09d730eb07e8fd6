"""Trick rewards: tokens and points for winners and for losers who played certain cards."""

from __future__ import annotations

from helpers import KINGDOMS, cards, game

from trickrules.rules.rewards import POINTS, amount_table, compile_rewards
from trickrules.rules.ruleset import Amount, CardCondition, Reward


def gains(g, trick, rewards=None):
    faces = g.tables(frozenset()).faces
    played = cards(g, *trick)
    rules = rewards or g.ruleset.rewards
    trick_rewards = compile_rewards(rules, g.ruleset.deck, faces)
    position = g.tables(frozenset()).trick_winner(played, faces.group[played[0]])
    return [(p, rules[r].name, n) for p, r, _, n in trick_rewards(played, list(range(len(played))), position, faces.group[played[0]])]


def test_winner_gains_by_the_value_of_the_winning_card():
    g = game(KINGDOMS, 4)
    for rank, expected in [(3, 2), (4, 2), (5, 2), (6, 1), (7, 1), (8, 0)]:
        found = gains(g, [f"red-{rank}", "blue-0", "green-0", "grey-0"])
        assert sum(n for p, _, n in found if p == 0) == expected, rank


def test_losing_one_gains_by_the_winning_colour():
    g = game(KINGDOMS, 4)
    assert (1, "losing 1, same colour", 1) in gains(g, ["red-8", "red-1", "blue-0", "green-0"])
    assert (1, "losing 1, other colour", 2) in gains(g, ["red-8", "blue-1", "blue-0", "green-0"])


def test_losing_two_gains_only_under_another_colour():
    g = game(KINGDOMS, 4)
    assert [x for x in gains(g, ["red-8", "red-2", "blue-0", "green-0"]) if x[0] == 1] == []
    assert (1, "losing 2, other colour", 1) in gains(g, ["red-8", "blue-2", "blue-0", "green-0"])


def test_winner_first_then_losers_in_play_order():
    g = game(KINGDOMS, 4)
    found = gains(g, ["grey-1", "red-5", "blue-2", "green-1"])
    assert [p for p, _, _ in found] == [1, 0, 2, 3]


def test_points_rewards_and_attribute_amounts():
    g = game(KINGDOMS, 4)
    rule = Reward("any card", "losers", CardCondition(ranks=frozenset([0])), None, Amount(constant=-3))
    faces = g.tables(frozenset()).faces
    trick_rewards = compile_rewards([rule], g.ruleset.deck, faces)
    played = cards(g, "red-5", "blue-0", "green-0", "grey-4")
    assert trick_rewards(played, [0, 1, 2, 3], 0, faces.group[played[0]]) == [(1, 0, POINTS, -3), (2, 0, POINTS, -3)]


def test_amount_tables_by_rank_default_and_constant():
    g = game(KINGDOMS, 4)
    faces = g.tables(frozenset()).faces
    table = amount_table(Amount(constant=9, by_rank=((1, 4),)), g.ruleset.deck, faces)
    assert table[g.card_index("red-1")] == 4 and table[g.card_index("red-2")] == 9
