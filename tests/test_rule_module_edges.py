"""Edges of the rule modules that the first mutation tests left open: the expression reader's
bracket count, white space and invalid text, which operands of '*' may be lists, and more."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from helpers import GEMS_DECK
from helpers import SCHEMA_TINY as TINY, problems

from trickrules.errors import SpecError
from trickrules.rules.cards import card_names, numbered_id
from trickrules.rules.conditions import card_holds, trick_test
from trickrules.rules.expressions import ExpressionError, ExpressionValueError, compile_expression
from trickrules.rules.faces import counting_faces
from trickrules.rules.rewards import compile_rewards
from trickrules.rules.ruleset import AttributeTest, CardCondition, Ruleset
from trickrules.rules.whole_trick import TrickView
from trickrules.spec.checks import load_spec_text
from trickrules.spec.loader import load_ruleset_text


def refusal(text: str, names: tuple[str, ...] = ()) -> tuple[str, int, str]:
    """(code, column, message) of the ExpressionError compiling `text` raises."""
    with pytest.raises(ExpressionError) as raised:
        compile_expression(text, names)
    return raised.value.code, raised.value.column, raised.value.message


# --- expressions: reading the text -------------------------------------------------------------


def test_only_spaces_tabs_form_feeds_and_newlines_lead_an_expression() -> None:
    """A vertical tab is no white space an expression may start with: TR140 at column 0."""
    code, column, message = refusal("\v1")
    assert (code, column) == ("TR140", 0)
    assert message.startswith("syntax error: invalid non-printable character U+000B")


def test_a_name_of_capital_xs_is_read_as_a_name() -> None:
    """'X' is neither white space nor a bracket: X + 1 reads X."""
    expression = compile_expression("X + 1", ["X"])
    assert expression.names == frozenset({"X"})
    assert expression({"X": 4}) == 5
    assert compile_expression("X" * 101, ["X" * 101])({"X" * 101: 3}) == 3


def test_brackets_nested_past_the_limit_fail_at_the_first_bracket_too_many() -> None:
    """101 brackets open at once fail at the 101st, even with names between them."""
    text = "(X*" * 101 + "1" + ")" * 101
    assert refusal(text, ("X",)) == ("TR143", 300, "expression is nested too deeply: more than 100 levels")


def test_closed_brackets_no_longer_count_towards_the_depth() -> None:
    """After '(1)' closes, 100 more nested brackets are still within the limit."""
    text = "(1) + " + "(" * 100 + "1" + ")" * 100
    assert compile_expression(text, [])({}) == 2


def test_one_closing_bracket_lowers_the_depth_by_one() -> None:
    """100 open, one closed, two more opened: the second of them is the 101st level."""
    text = "(" * 100 + "1)" + "+((1))" + ")" * 99
    assert refusal(text) == ("TR143", 104, "expression is nested too deeply: more than 100 levels")


def test_a_character_that_is_not_valid_text_is_named_at_its_column() -> None:
    """A lone surrogate after leading white space: TR140 at its column in the text."""
    assert refusal("  1+\ud800") == ("TR140", 4, "expression holds a character that is not valid text")


def test_the_generated_code_is_labelled_with_the_first_sixty_characters() -> None:
    """Tracebacks through an expression name it by its first 60 characters."""
    text = "a + " * 20 + "a"
    expression = compile_expression(text, ["a"])
    assert expression.function.__code__.co_filename == f"<expression {text[:60]!r}>"


# --- expressions: what may be a list -----------------------------------------------------------


def test_a_conditional_that_may_give_a_list_is_made_a_number_before_multiplying() -> None:
    """(xs if flag else 1) * 2 refuses a list rather than repeating it."""
    expression = compile_expression("(xs if flag else 1) * 2", ["xs", "flag"])
    env: dict[str, Any] = {"xs": [1, 2], "flag": True}
    with pytest.raises(ExpressionValueError):
        expression(env)
    assert expression({"xs": [1, 2], "flag": False}) == 2


# --- conditions: every part of a combined condition sees the same card, trick and winner ------

RULES = """
id: tiny-rewards
title: Tiny rewards
players: [3]
""" + GEMS_DECK + """  rank_names: {4: K}
deal:
  hand_size: 4
ranking:
  - prefer: led
  - highest: rank
rewards:
  - {name: high, to: winner, when: {trick: "rank >= 3"}, give: {points: 1}}
  - name: full
    to: winner
    when: {all: [{trick: "cards == 3"}]}
    give: {points: 1}
  - name: rich
    to: losers
    when: {led: true, same_suit_as_winner: true, attribute: {name: gems, at_least: 2}, trick: "cards == 3"}
    give: {points: 2}
  - {name: gemmy, to: losers, when: {led: true, attribute: {name: gems, at_least: 2}}, give: {points: 3}}
scoring:
  round:
    - add: tricks
"""
RED, BLUE = 0, 1


@lru_cache(maxsize=None)
def rules() -> Ruleset:
    return load_ruleset_text(RULES)


def card(suit: int, rank: int) -> int:
    """Index of a card of the tiny deck (four ranks 1..4 per suit, suits in order)."""
    return 4 * suit + rank - 1


def trick_view(cards: list[int], led: int, winner_position: int) -> TrickView:
    deck = rules().deck
    return TrickView(cards, led, deck, counting_faces(deck, frozenset()), winner_position)


def test_a_trick_part_holds_only_in_a_complete_trick_that_says_so() -> None:
    """{trick: rank >= 3}: true for the red 3 of the trick, false for its red 1, false with no trick."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    high = rules().rewards[0].when
    assert high is not None
    view = trick_view([card(RED, 1), card(RED, 3), card(BLUE, 4)], RED, 1)
    assert card_holds(high, card(RED, 3), deck, faces, card(RED, 3), RED, view)
    assert not card_holds(high, card(RED, 1), deck, faces, card(RED, 3), RED, view)
    assert not card_holds(high, card(RED, 3), deck, faces, card(RED, 3), RED, None)


def test_not_all_and_any_pass_card_deck_faces_winner_led_and_trick_to_their_part() -> None:
    """A part asking about rank, gems, led, winner's suit and the trick holds for the red 3 alike in each."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    high = rules().rewards[0].when
    assert high is not None and high.trick is not None
    part = CardCondition(
        ranks=frozenset([3, 4]), attribute=AttributeTest(0, at_least=2), led=True, same_suit_as_winner=True,
        trick=high.trick,
    )
    view = trick_view([card(RED, 1), card(RED, 3), card(RED, 4)], RED, 2)
    red3, winner = card(RED, 3), card(RED, 4)
    assert card_holds(part, red3, deck, faces, winner, RED, view)
    assert not card_holds(CardCondition(negate=part), red3, deck, faces, winner, RED, view)
    assert card_holds(CardCondition(all_of=(part,)), red3, deck, faces, winner, RED, view)
    assert card_holds(CardCondition(any_of=(part,)), red3, deck, faces, winner, RED, view)
    assert card_holds(CardCondition(negate=part), card(RED, 1), deck, faces, winner, RED, view)
    assert not card_holds(CardCondition(all_of=(part,)), card(RED, 1), deck, faces, winner, RED, view)
    assert not card_holds(CardCondition(any_of=(part,)), card(RED, 1), deck, faces, winner, RED, view)


def test_a_winner_part_is_asked_with_the_winner_as_its_own_winner() -> None:
    """winner: {same_suit_as_winner: true} always holds: the winner is of its own suit."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    condition = CardCondition(winner=CardCondition(same_suit_as_winner=True))
    assert card_holds(condition, card(BLUE, 1), deck, faces, card(RED, 4), RED)


def test_a_trick_test_reads_attributes_from_the_deck() -> None:
    """The dynamic test of {led: true, gems >= 2} holds for the red 3 led, not the red 1."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    test = trick_test(CardCondition(led=True, attribute=AttributeTest(0, at_least=2)), deck, faces)
    assert test is not None
    assert test(card(RED, 3), -1, RED)
    assert not test(card(RED, 1), -1, RED)


# --- rewards reading the whole trick ------------------------------------------------------------


def test_rewards_with_trick_parts_read_the_whole_trick() -> None:
    """Red 1, red 3, red 4 (wins): high and full for the winner; rich and gemmy (gems 2, red led) for the 3."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    rewards = compile_rewards(rules().rewards, deck, faces)
    gains = rewards([card(RED, 1), card(RED, 3), card(RED, 4)], [0, 1, 2], 2, RED)
    assert gains == [(2, 0, -1, 1), (2, 1, -1, 1), (1, 2, -1, 2), (1, 3, -1, 3)]


def test_a_loser_reward_checks_the_led_group_and_the_winners_suit() -> None:
    """Blue led: the red 3 no longer follows the led group, so rich and gemmy give nothing."""
    deck = rules().deck
    faces = counting_faces(deck, frozenset())
    rewards = compile_rewards(rules().rewards, deck, faces)
    gains = rewards([card(BLUE, 1), card(RED, 3), card(BLUE, 4)], [0, 1, 2], 2, BLUE)
    assert gains == [(2, 0, -1, 1), (2, 1, -1, 1)]


PLAIN_REWARDS = RULES[: RULES.index("rewards:")] + """rewards:
  - {name: suited, to: winner, when: {same_suit_as_winner: true}, give: {points: 1}}
  - {name: gemmy, to: losers, when: {led: true, attribute: {name: gems, at_least: 2}}, give: {points: 3}}
scoring:
  round:
    - add: tricks
"""


def test_rewards_without_trick_parts_see_the_winner_and_the_led_group() -> None:
    """Red 1, red 3, red 4 (wins): suited for the winner, gemmy for the red 3 (red led, gems 2)."""
    ruleset = load_ruleset_text(PLAIN_REWARDS)
    deck = ruleset.deck
    rewards = compile_rewards(ruleset.rewards, deck, counting_faces(deck, frozenset()))
    assert rewards([card(RED, 1), card(RED, 3), card(RED, 4)], [0, 1, 2], 2, RED) == [(2, 0, -1, 1), (1, 1, -1, 3)]
    assert rewards([card(BLUE, 1), card(RED, 3), card(BLUE, 4)], [0, 1, 2], 2, BLUE) == [(2, 0, -1, 1)]

# --- card names -------------------------------------------------------------------------------


def test_a_plain_card_with_a_rank_name_is_also_named_by_its_rank_number() -> None:
    """red-K, with no copy mark, is also red-4."""
    deck = rules().deck
    king = deck.cards[card(RED, 4)]
    assert king.id == "red-K"
    assert numbered_id(king, deck) == "red-4"
    assert card_names(deck)["red-4"] == card(RED, 4)


# --- spec checks ----------------------------------------------------------------------------------

TWO_CONTRACTS = "\n" + TINY + """contracts:
  first:
    trumps: [blu]
  second:
    trumps: [red]
"""


def test_a_problem_in_the_first_contract_is_kept_when_a_later_one_has_none() -> None:
    """The first contract's undefined suit is reported though the second contract is fine."""
    with pytest.raises(SpecError) as raised:
        load_spec_text(TWO_CONTRACTS, "p.yaml")
    assert [(p.code, p.message, p.line, p.column, p.path) for p in raised.value.problems] == [
        ("TR301", "undefined suit 'blu'; did you mean 'blue'? (deck.suits has red, blue, green)", 19, 14,
         "$.trumps[0]"),
    ]

WHEN_NO_SPACE_WITHOUT_TO = "\n" + TINY + """tokens:
  gem: {when_no_space: lost}
"""


def test_a_dependent_key_without_its_partner_is_named_in_the_schema_words() -> None:
    """when_no_space without 'to': the dependent schema has no description, so the schema's own words."""
    with pytest.raises(SpecError) as raised:
        load_spec_text(WHEN_NO_SPACE_WITHOUT_TO, "g.yaml")
    assert [(p.code, p.message, p.line, p.column, p.path) for p in raised.value.problems] == [
        ("TR204", "'to' is a required property", 18, 3, "$.tokens.gem"),
    ]


WITH_REWARD = TINY.replace(
    "      ranks: {from: 1, to: 4}\n",
    "      ranks: {from: 1, to: 4}\nrewards:\n  - {name: r, to: winner, when: {rank: RANK}, give: {points: 1}}\n",
)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("suits: all", "suits: 3",
         ("TR203", 7, 7, "$.deck.generate[0].suits", "'suits' should be 'all' or a list, not an integer (3)")),
        ("suits: all", "suits: some",
         ("TR204", 7, 7, "$.deck.generate[0].suits", "'suits': expected 'all', not 'some'")),
        ("  hand_size: 4\n", "  hand_size: 4\n  first_leader: 5\n",
         ("TR203", 11, 3, "$.deal.first_leader",
          "'first_leader' should be 'left_of_dealer', 'dealer', 'left_of_declarer' or 'declarer' or a mapping, not an integer (5)")),
        ("scoring:\n", "scoring:\n  measures:\n    m: {sum_attribute: gems, tokens: gem}\n",
         ("TR204", 15, 5, "$.scoring.measures.m",
          "has 'sum_attribute' and 'tokens'; give only one of 'sum_attribute', 'count', 'tableau', 'tokens', 'run' or 'meld'")),
    ],
)
def test_alternatives_are_explained_by_the_kinds_they_accept(old: str, new: str, expected: tuple[str, int, int, str, str]) -> None:
    """A constant, an enum, or two alternatives at once: each is named in words, at its node."""
    assert problems(TINY.replace(old, new)) == [expected]


def test_a_value_that_fits_no_nested_alternative_lists_every_kind() -> None:
    """rank: true fits neither a rank (integer or string) nor a list of them."""
    assert problems(WITH_REWARD.replace("RANK", "true")) == [
        ("TR203", 10, 34, "$.rewards[0].when.rank",
         "'rank' should be an integer or a string or a list, not a boolean (True)"),
    ]


def test_a_value_that_fits_a_nested_alternative_is_explained_by_it() -> None:
    """rank: '' is a string, so it is meant as a rank name, and an empty one is refused."""
    assert problems(WITH_REWARD.replace("RANK", '""')) == [
        ("TR204", 10, 34, "$.rewards[0].when.rank", "'rank': must not be empty"),
    ]
