"""Scoring: the four section cases, measures, point rules and the game's winners."""

from __future__ import annotations

import pytest
from helpers import KINGDOMS, MEADOWS, cards, game

from trickrules.rules.ruleset import PointRule, RankKey
from trickrules.rules.scoring import PlayerRound, best_players, game_winners, round_points, score_round, section_case, section_scores


def kingdom(g, stacks, tokens):
    return PlayerRound((), 0, tuple(tuple(cards(g, *s)) for s in stacks), tuple(tokens), (0,))


@pytest.mark.parametrize(
    "stack, tokens, case, score",
    [
        (["red-3", "red-6"], 3, "cards_staffed", 6),
        (["red-3", "red-6"], 1, "cards_understaffed", -10),
        ([], 3, "empty_staffed", 3),
        ([], 2, "empty_understaffed", 0),
        (["red-6", "red-0"], 3, "cards_staffed", 0),
    ],
)
def test_the_four_section_cases_on_section_d(stack, tokens, case, score):
    g = game(KINGDOMS, 4)
    player = kingdom(g, [[], [], [], stack, []], [0, 0, 0, tokens, 0])
    rows = section_scores(g.ruleset.tableau, player, g.tables(frozenset()).faces)
    assert rows[3] == ("D", case, score)
    assert section_case(g.ruleset.tableau.sections[3], cards(g, *stack), tokens) == case


def test_a_round_of_sections_and_the_kingdom_measure():
    g = game(KINGDOMS, 2)
    players = [
        kingdom(g, [["red-5"], ["blue-7"], ["green-2"], [], []], [0, 0, 2, 3, 1]),
        kingdom(g, [[], [], [], [], []], [0, 0, 0, 0, 0]),
    ]
    score = score_round(g.ruleset, players, g.tables(frozenset()).faces)
    # A 5 + B 7 + C 2 + D empty staffed 3 + E empty understaffed 0
    assert [s for _, _, s in score.sections[0]] == [5, 7, 2, 3, 0]
    assert score.points == [[17], [0]]


def test_most_sheep_wins_the_deal_ties_by_tricks():
    g = game(MEADOWS, 4)
    names = [m.name for m in g.ruleset.scoring.measures]
    sheep, tricks = names.index("sheep"), names.index("tricks")
    rule = PointRule("award", points=1, keys=(RankKey(sheep), RankKey(tricks)))

    def measures(rows):
        table = [[0] * len(names) for _ in rows]
        for row, (s, t) in zip(table, rows):
            row[sheep], row[tricks] = s, t
        return table

    assert best_players(rule, measures([(30, 2), (40, 1), (40, 3), (10, 2)])) == [2]
    assert best_players(rule, measures([(40, 3), (40, 3), (30, 2), (10, 0)])) == [0, 1]
    assert round_points([rule], measures([(40, 3), (40, 3), (30, 2), (10, 0)])) == [[1], [1], [0], [0]]


def test_sheep_sum_over_won_cards():
    g = game(MEADOWS, 4)
    won = cards(g, "red-8", "red-7", "red-6", "lila-14/red-5", "orange-9/yellow-4", "red-1")
    players = [PlayerRound(tuple(won), 2, (), (), ())] + [PlayerRound((), 0, (), (), ())] * 3
    score = score_round(g.ruleset, players, g.tables(frozenset()).faces)
    names = [m.name for m in g.ruleset.scoring.measures]
    assert score.measures[0][names.index("sheep")] == 11 + 10 + 4 + 3 + 2


def test_game_winners_share_equal_totals():
    assert game_winners("most_points", [3, 5, 5, 1]) == [1, 2]
    assert game_winners("fewest_points", [3, 5, 5, 1]) == [3]


def test_the_shipped_deck_holds_120_sheep():
    g = game(MEADOWS, 4)
    assert sum(g.ruleset.deck.columns[0]) == 120
