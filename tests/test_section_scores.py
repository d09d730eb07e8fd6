"""Tableau sections at their edges: staffed at exactly the tokens needed, each way a section
scores, and a player's won cards from pile and stacks."""

from __future__ import annotations

import pytest
from helpers import BLUE, RED, card, tiny

from trickrules.rules.faces import counting_faces
from trickrules.rules.ruleset import Section, SectionValue
from trickrules.rules.scoring import PlayerRound, section_case, section_value

SECTION = Section("C", 2, 7)


@pytest.mark.parametrize(
    ("stack", "tokens", "case"),
    [
        ([1], 2, "cards_staffed"),
        ([1], 3, "cards_staffed"),
        ([1], 1, "cards_understaffed"),
        ([], 2, "empty_staffed"),
        ([], 1, "empty_understaffed"),
    ],
)
def test_staffed_from_exactly_the_tokens_needed(stack: list[int], tokens: int, case: str) -> None:
    assert section_case(SECTION, stack, tokens) == case


@pytest.mark.parametrize(
    ("kind", "number", "stack", "tokens", "value"),
    [
        ("top_rank", 0, [card(RED, 1), card(BLUE, 3)], 0, 3),
        ("top_rank", 0, [], 0, 0),
        ("sum_ranks", 0, [card(RED, 1), card(BLUE, 3)], 0, 4),
        ("card_count", 0, [card(RED, 1), card(BLUE, 3)], 0, 2),
        ("value", 0, [], 0, 7),
        ("per_missing_token", -5, [], 0, -10),
        ("per_missing_token", -5, [], 1, -5),
        ("per_missing_token", -5, [], 3, 0),
        ("constant", 4, [card(RED, 2)], 0, 4),
    ],
)
def test_each_way_a_section_scores(kind: str, number: int, stack: list[int], tokens: int, value: int) -> None:
    faces = counting_faces(tiny().deck, frozenset())
    assert section_value(SectionValue(kind, number), SECTION, stack, tokens, faces) == value  # type: ignore[arg-type]


def test_won_cards_are_the_pile_and_the_stacks() -> None:
    assert PlayerRound((1, 2), 1, (), (), ()).won_cards() == (1, 2)
    assert PlayerRound((1,), 1, ((3, 4), (), (5,)), (0, 0, 0), ()).won_cards() == (1, 3, 4, 5)


# ---------------------------------------------------------------- point rules


def test_best_players_by_keys_in_order() -> None:
    from trickrules.rules.ruleset import PointRule, RankKey
    from trickrules.rules.scoring import best_players

    measures = [[5, 1], [5, 2], [3, 0], [5, 1]]
    assert best_players(PointRule("award", keys=(RankKey(0),)), measures) == [0, 1, 3]
    assert best_players(PointRule("award", keys=(RankKey(0), RankKey(1))), measures) == [1]
    assert best_players(PointRule("award", keys=(RankKey(0), RankKey(1, most=False))), measures) == [0, 3]
    assert best_players(PointRule("award", keys=(RankKey(1, most=False),)), measures) == [2]


def test_round_points_by_kind() -> None:
    from trickrules.rules.expressions import compile_expression
    from trickrules.rules.ruleset import PointRule, RankKey
    from trickrules.rules.scoring import round_points

    names = ("tricks", "gems")
    measures = [[2, 7], [1, 9], [0, 9]]
    rules = [
        PointRule("add", measure=1, times=3),
        PointRule("award", points=4, keys=(RankKey(1),)),
        PointRule("expression", expression=compile_expression("tricks * 10 + max(all_gems) - bid", (*names, "all_tricks", "all_gems", "bid"))),
        PointRule("expression", per="team", expression=compile_expression("gems + bid", (*names, "all_tricks", "all_gems", "bid"))),
    ]
    envs = [{"bid": 1}, {"bid": 2}, {"bid": 4}]
    points = round_points(rules, measures, names, envs, teams=((0, 2), (1,)))
    assert points == [[21, 0, 28, 16 + 5], [27, 4, 17, 9 + 2], [27, 4, 5, 0]]


def test_game_winners_share_a_tie() -> None:
    from trickrules.rules.scoring import game_winners

    assert game_winners("most_points", [3, 5, 5]) == [1, 2]
    assert game_winners("fewest_points", [3, 5, 3]) == [0, 2]


def test_rule_labels() -> None:
    from trickrules.rules.ruleset import Measure, PointRule, RankKey
    from trickrules.rules.scoring import describe_rule

    measures = [Measure("tricks", "tricks"), Measure("gems", "sum_attribute", attribute=0)]
    assert describe_rule(PointRule("add", measure=1), measures) == "gems"
    assert describe_rule(PointRule("add", measure=1, times=2), measures) == "gems x 2"
    assert describe_rule(PointRule("add", measure=1, name="own"), measures) == "own"
    assert describe_rule(PointRule("award", keys=(RankKey(0), RankKey(1, most=False))), measures) == (
        "best by most tricks, then fewest gems"
    )
