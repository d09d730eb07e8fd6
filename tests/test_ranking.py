"""Trick ranking: the ladder of criteria and its compiled form."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers import KINGDOMS, MEADOWS, cards, game, suits

from trickrules.rules.ranking import compile_ranking, ladder_winner, ranking_keys
from trickrules.rules.ruleset import CardCondition, RankingStep


def winner(g, trumps, trick, steps=None):
    faces = g.tables(trumps).faces
    played = cards(g, *trick)
    trick_winner = compile_ranking(steps or g.ruleset.ranking, g.ruleset.deck, faces)
    return trick[trick_winner(played, faces.group[played[0]])]


@pytest.mark.parametrize(
    "trick, expected",
    [
        (["red-5", "blue-5", "green-8", "yellow-8"], "green-8"),
        (["green-6", "red-6", "yellow-2", "blue-0"], "green-6"),
        (["red-3", "red-6", "blue-6", "grey-1"], "red-6"),
        (["blue-0", "red-0", "green-0"], "blue-0"),
        (["red-0", "blue-0", "green-1"], "green-1"),
    ],
)
def test_highest_rank_of_any_suit_then_led_then_first(trick, expected):
    assert winner(game(KINGDOMS, 4), frozenset(), trick) == expected


def test_trump_beats_a_larger_card_of_the_led_suit():
    g = game(MEADOWS, 4)
    assert winner(g, suits(g, "blue"), ["yellow-8", "blue-1", "yellow-7", "red-8"]) == "blue-1"


def test_equal_trump_meadows_go_to_the_first_played():
    g = game(MEADOWS, 4)
    assert winner(g, suits(g, "red", "blue"), ["green-1", "blue-8", "red-8", "blue-7"]) == "blue-8"


def test_last_played_and_lowest_steps():
    g = game(KINGDOMS, 4)
    steps = (RankingStep("lowest"), RankingStep("last_played"))
    assert winner(g, frozenset(), ["red-2", "blue-1", "green-1", "grey-5"], steps) == "green-1"


def test_prefer_a_card_condition():
    g = game(KINGDOMS, 4)
    red = g.ruleset.deck.suits.index("red")
    steps = (RankingStep("prefer", group="condition", condition=CardCondition(suits=frozenset([red]))), RankingStep("highest"))
    assert winner(g, frozenset(), ["blue-8", "red-1", "green-7", "red-0"], steps) == "red-1"


def test_the_packed_keys_agree_with_reading_the_ladder_step_by_step():
    rng = random.Random(5)
    g = game(MEADOWS, 4)
    ladders = [
        g.ruleset.ranking,
        (RankingStep("highest"), RankingStep("prefer", group="led")),
        (RankingStep("prefer", group="led"), RankingStep("lowest"), RankingStep("last_played")),
    ]
    for trump_names, steps in itertools.product([(), ("blue",), ("orange", "lila", "blue")], ladders):
        trumps = suits(g, *trump_names)
        faces = g.tables(trumps).faces
        compiled = compile_ranking(steps, g.ruleset.deck, faces)
        for _ in range(300):
            trick = rng.sample(range(g.num_cards), 4)
            led = faces.group[trick[0]]
            assert compiled(trick, led) == ladder_winner(steps, trick, led, g.ruleset.deck, faces)


def test_keys_pack_the_led_step_as_a_weight():
    g = game(KINGDOMS, 4)
    keys, led_weight, last = ranking_keys(g.ruleset.ranking, g.ruleset.deck, g.tables(frozenset()).faces)
    assert led_weight == 1 and not last
    assert keys[g.card_index("red-8")] > keys[g.card_index("red-7")] + led_weight
