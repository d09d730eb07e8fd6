"""Scoring, rewards and card names at their edges: every measure kind and section score of a
constructed end of round on a small tableau game, gains whose conditions read the led group or
the winner, and faces written with rank numbers."""

from __future__ import annotations

from functools import lru_cache

import pytest
from helpers import GEMS_DECK

from trickrules.rules.cards import face_text
from trickrules.rules.expressions import compile_expression
from trickrules.rules.faces import Faces, counting_faces
from trickrules.rules.rewards import POINTS, compile_rewards
from trickrules.rules.ruleset import (
    Amount,
    AttributeTest,
    CardCondition,
    Deck,
    PointRule,
    RankKey,
    Reward,
    Ruleset,
    Section,
    SectionValue,
    TrickCondition,
)
from trickrules.rules.scoring import (
    PlayerRound,
    describe_rule,
    held,
    expression_envs_of,
    measure_value,
    score_round,
    section_value,
)
from trickrules.rules.whole_trick import trick_names
from trickrules.spec.loader import load_ruleset_text

TABLEAU = """id: tab
title: Tab
players: [2]
""" + GEMS_DECK + """  rank_names: {4: K}
deal:
  hand_size: 4
ranking:
  - highest: rank
tokens:
  coin: {supply: 20, to: tableau}
  star: {supply: 20, to: player}
rewards:
  - name: big
    to: winner
    when: {rank: 4}
    give: {token: star, amount: 1}
  - name: small
    to: winner
    when: {rank: 1}
    give: {token: coin, amount: 1}
won_cards: tableau
tableau:
  token: coin
  sections:
    - {name: A, tokens_needed: 0, value: 2}
    - {name: B, tokens_needed: 2, value: 7}
  stack_by: suit
  open: next_free
  score:
    cards_staffed: sum_ranks
    cards_understaffed: card_count
    empty_staffed: value
    empty_understaffed: {per_missing_token: -3}
scoring:
  measures:
    kingdom: {tableau: score}
    coins: {tokens: coin}
    stars: {tokens: star}
    gems: {sum_attribute: gems}
  round:
    - add: kingdom
    - add: coins
    - add: stars
    - add: gems
    - add: tricks
    - add: cards
"""
RED, BLUE, GREEN = 0, 1, 2


@lru_cache(maxsize=None)
def ruleset() -> Ruleset:
    """The tableau game, compiled for two players."""
    return load_ruleset_text(TABLEAU)


def faces() -> Faces:
    """The counting faces of the tableau game's deck, without trumps."""
    return counting_faces(ruleset().deck, frozenset())


def card(suit: int, rank: int) -> int:
    """Index of a card (four ranks 1..4 per suit, suits in order); gems 1, 1, 2, 5 by rank."""
    return 4 * suit + rank - 1


# Seat 0: a green 1 in the pile; section A holds red 4 over red 2 with one coin (staffed:
# sum of ranks 6); section B is empty with one coin of two (understaffed: -3 per missing).
# Coins: 4 in the pool + 2 placed; stars: 3. Gems: 1 + 5 + 1 = 7.
SEAT0 = PlayerRound((card(GREEN, 1),), 2, ((card(RED, 4), card(RED, 2)), ()), (1, 1), (4, 3))
# Seat 1: section A empty, needing none (staffed: its value 2); section B holds blue 3 and
# blue 1 with one coin of two (understaffed: 2 cards). Coins: 0 + 1; stars 0. Gems: 2 + 1.
SEAT1 = PlayerRound((), 1, ((), (card(BLUE, 3), card(BLUE, 1))), (0, 1), (0, 0))


def test_the_tableau_game_has_its_measures_in_order() -> None:
    """Tricks and cards come first, then the spec's measures."""
    assert [(m.name, m.kind) for m in ruleset().scoring.measures] == [
        ("tricks", "tricks"), ("cards", "cards"), ("kingdom", "tableau"), ("coins", "tokens"), ("stars", "tokens"),
        ("gems", "sum_attribute")]


def test_a_constructed_round_scores_every_section_measure_and_rule() -> None:
    """Sections by case, every measure kind, and one add rule per measure."""
    result = score_round(ruleset(), [SEAT0, SEAT1], faces())
    assert result.sections == [
        [("A", "cards_staffed", 6), ("B", "empty_understaffed", -3)],
        [("A", "empty_staffed", 2), ("B", "cards_understaffed", 2)],
    ]
    assert result.measures == [[2, 3, 3, 6, 3, 7], [1, 2, 4, 1, 0, 3]]
    assert result.points == [[3, 6, 3, 7, 2, 3], [4, 1, 0, 3, 1, 2]]


@pytest.mark.parametrize(
    ("index", "seat0", "seat1"),
    [(0, 2, 1), (1, 3, 2), (2, 3, 4), (3, 6, 1), (4, 3, 0), (5, 7, 3)],
    ids=["tricks", "cards", "kingdom", "coins", "stars", "gems"],
)
def test_each_measure_on_its_own(index: int, seat0: int, seat1: int) -> None:
    """measure_value without a summed tableau score works each measure out itself."""
    measure = ruleset().scoring.measures[index]
    assert [measure_value(measure, ruleset(), seat, faces()) for seat in (SEAT0, SEAT1)] == [seat0, seat1]


def test_a_summed_tableau_score_is_taken_as_given() -> None:
    """The tableau measure uses the score already summed rather than summing again."""
    kingdom = ruleset().scoring.measures[2]
    assert measure_value(kingdom, ruleset(), SEAT0, faces(), 99) == 99
    assert measure_value(kingdom, ruleset(), SEAT0, faces(), 0) == 0


def test_tokens_not_of_the_tableau_kind_ignore_the_sections() -> None:
    """Stars are only the pool's, even with coins in the sections."""
    stars = ruleset().scoring.measures[4]
    assert measure_value(stars, ruleset(), PlayerRound((), 0, ((), ()), (2, 2), (0, 0)), faces()) == 0
    coins = ruleset().scoring.measures[3]
    assert measure_value(coins, ruleset(), PlayerRound((), 0, ((), ()), (2, 2), (0, 0)), faces()) == 4


# --- section values ---------------------------------------------------------------------------

SECTION = Section("S", 2, 7)


@pytest.mark.parametrize(
    ("kind", "number", "stack", "tokens", "value"),
    [
        ("top_rank", 9, [card(RED, 1), card(BLUE, 3)], 2, 3),
        ("top_rank", 9, [], 2, 0),
        ("sum_ranks", 9, [card(RED, 1), card(BLUE, 3)], 2, 4),
        ("sum_ranks", 9, [], 2, 0),
        ("card_count", 9, [card(RED, 1), card(BLUE, 3), card(GREEN, 4)], 2, 3),
        ("card_count", 9, [], 2, 0),
        ("value", 9, [], 2, 7),
        ("per_missing_token", -5, [], 0, -10),
        ("per_missing_token", -5, [], 2, 0),
        ("per_missing_token", -5, [], 4, 0),
        ("constant", 9, [card(RED, 2)], 0, 9),
    ],
)
def test_each_way_a_section_scores(kind: str, number: int, stack: list[int], tokens: int, value: int) -> None:
    """Every section value kind, with an empty stack and with tokens to spare."""
    score = section_value(SectionValue(kind, number), SECTION, stack, tokens, faces())  # type: ignore[arg-type]
    assert score == value


# --- labels of point rules -------------------------------------------------------------------


def test_describe_rule_labels_each_kind() -> None:
    """A rule's name wins; otherwise an expression's text, a measure and its factor, or the keys."""
    measures = ruleset().scoring.measures
    expression = compile_expression("tricks * 2", ("tricks",))
    assert describe_rule(PointRule("expression", expression=expression, name="double"), measures) == "double"
    assert describe_rule(PointRule("expression", expression=expression), measures) == "tricks * 2"
    assert describe_rule(PointRule("expression"), measures) == ""
    assert describe_rule(PointRule("add", measure=5, name="jewels"), measures) == "jewels"
    assert describe_rule(PointRule("add", measure=5), measures) == "gems"
    assert describe_rule(PointRule("add", measure=0, times=-2), measures) == "tricks x -2"
    award = PointRule("award", points=3, keys=(RankKey(5), RankKey(0, most=False)))
    assert describe_rule(award, measures) == "best by most gems, then fewest tricks"


# --- names for expression rules ---------------------------------------------------------------


def test_expression_names_are_made_fresh_without_envs() -> None:
    """Without envs each player gets new names: own measures and everyone's."""
    names = ("zq_alpha", "zq_beta")
    assert expression_envs_of(names, [[1, 2], [3, 4]], None) == [
        {"zq_alpha": 1, "zq_beta": 2, "all_zq_alpha": (1, 3), "all_zq_beta": (2, 4)},
        {"zq_alpha": 3, "zq_beta": 4, "all_zq_alpha": (1, 3), "all_zq_beta": (2, 4)},
    ]


def test_expression_names_fill_the_given_envs_in_place() -> None:
    """Given envs keep their own values and gain the measures."""
    envs: list[dict[str, object]] = [{"bid": 2}, {"bid": 0}]
    result = expression_envs_of(("zq_gamma",), [[5], [6]], envs)
    assert result[0] is envs[0] and result[1] is envs[1]
    assert envs == [{"bid": 2, "zq_gamma": 5, "all_zq_gamma": (5, 6)}, {"bid": 0, "zq_gamma": 6, "all_zq_gamma": (5, 6)}]


# --- rewards reading the led group and the winner ---------------------------------------------

PLAYERS = [2, 0, 1]  # the seats that played the trick's cards, in play order


def deck() -> Deck:
    """The tableau game's deck."""
    return ruleset().deck


def gains(rewards: list[Reward], cards: list[int], win_pos: int, led: int) -> list[tuple[int, int, int, int]]:
    """Every gain the rewards give for one trick."""
    return compile_rewards(rewards, deck(), faces())(cards, PLAYERS, win_pos, led)


def test_a_loser_reward_for_following_the_led_suit() -> None:
    """A led condition reads the trick's led group, for losers."""
    follow = Reward("follow", "losers", CardCondition(led=True), None, Amount(constant=1))
    trick = [card(BLUE, 1), card(BLUE, 4), card(RED, 2)]
    assert gains([follow], trick, 1, BLUE) == [(2, 0, POINTS, 1)]
    assert gains([follow], trick, 1, RED) == [(1, 0, POINTS, 1)]


def test_a_winner_reward_for_winning_off_suit() -> None:
    """A led condition on the winner's reward reads the led group too."""
    off = Reward("off", "winner", CardCondition(led=False), 0, Amount(constant=2))
    assert gains([off], [card(BLUE, 1), card(RED, 4)], 1, BLUE) == [(0, 0, 0, 2)]
    assert gains([off], [card(BLUE, 1), card(BLUE, 4)], 1, BLUE) == []


def _whole(text: str) -> TrickCondition:
    """A trick condition of a reward over the tableau deck's names."""
    return TrickCondition(compile_expression(text, trick_names(deck(), rewards=True)))


def test_whole_trick_losers_read_the_led_group_and_attributes() -> None:
    """In a spec with a whole-trick reward, a loser's led, attribute and suit tests still hold."""
    condition = CardCondition(
        led=True, attribute=AttributeTest(0, at_least=2), suits=frozenset([BLUE]), trick=_whole("cards == 3"))
    reward = Reward("whole", "losers", condition, None, Amount(constant=4))
    trick = [card(BLUE, 1), card(BLUE, 4), card(BLUE, 3)]
    assert gains([reward], trick, 1, BLUE) == [(1, 0, POINTS, 4)]
    assert gains([reward], trick, 1, RED) == []
    assert gains([reward], [card(BLUE, 1), card(BLUE, 4), card(BLUE, 2)], 1, BLUE) == []


def test_whole_trick_winner_reads_the_led_group_and_itself() -> None:
    """In a spec with a whole-trick reward, the winner's led and same-suit tests see the winner."""
    condition = CardCondition(led=True, same_suit_as_winner=True, trick=_whole("position == 2"))
    reward = Reward("whole", "winner", condition, 0, Amount(constant=1))
    assert gains([reward], [card(RED, 1), card(RED, 4)], 1, RED) == [(0, 0, 0, 1)]
    assert gains([reward], [card(BLUE, 1), card(RED, 4)], 1, BLUE) == []


def test_whole_trick_winner_condition_names_the_winning_card() -> None:
    """A winner condition inside a whole-trick reward asks about the trick's winning card."""
    condition = CardCondition(winner=CardCondition(ranks=frozenset([4])), trick=_whole("cards == 2"))
    reward = Reward("whole", "losers", condition, None, Amount(constant=1))
    assert gains([reward], [card(RED, 1), card(RED, 4)], 1, RED) == [(2, 0, POINTS, 1)]
    assert gains([reward], [card(RED, 1), card(RED, 3)], 1, RED) == []


def test_a_plain_loser_reward_beside_a_whole_trick_one_reads_the_led_group() -> None:
    """A reward without a trick part, in a spec with one, still reads the led group and the winner."""
    whole = Reward("whole", "winner", CardCondition(trick=_whole("cards == 9")), None, Amount(constant=1))
    follow = Reward("follow", "losers", CardCondition(led=True), None, Amount(constant=1))
    same = Reward("same", "winner", CardCondition(same_suit_as_winner=True, led=False), 0, Amount(constant=3))
    trick = [card(BLUE, 1), card(RED, 4), card(BLUE, 2)]
    assert gains([whole, follow, same], trick, 1, BLUE) == [(0, 2, 0, 3), (2, 1, POINTS, 1), (1, 1, POINTS, 1)]


# --- faces written with numbers ---------------------------------------------------------------


def test_face_text_names_a_numbered_rank() -> None:
    """A rank number with a name prints the name; one without stays a number."""
    assert face_text(deck(), " red 4 ") == "red K"
    assert face_text(deck(), "red 3") == "red 3"
    assert face_text(deck(), "red -3") == "red -3"


def test_face_text_keeps_a_rank_that_is_no_number() -> None:
    """A rank written as a name, even one ending in digits, is kept as written."""
    assert face_text(deck(), " red K ") == "red K"
    assert face_text(deck(), "red X2") == "red X2"


def test_points_are_held_within_the_most_points_either_way() -> None:
    from trickrules.rules.scoring import MAX_POINTS

    assert [held(v) for v in (0, 7, -7, MAX_POINTS, -MAX_POINTS)] == [0, 7, -7, MAX_POINTS, -MAX_POINTS]
    assert [held(MAX_POINTS + 1), held(10 * MAX_POINTS), held(-MAX_POINTS - 1), held(-10 * MAX_POINTS)] == [MAX_POINTS, MAX_POINTS, -MAX_POINTS, -MAX_POINTS]
