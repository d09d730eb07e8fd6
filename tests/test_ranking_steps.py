"""Ranking steps one by one, through both ways of finding a winner (the packed keys and the
ladder read step by step): attributes, conditions on the card and on the led group, orders
with a condition, and each card's place in the trick."""

from __future__ import annotations

import pytest
from helpers import BLUE, GREEN, RED, card, tiny

from trickrules.rules.faces import counting_faces
from trickrules.rules.ranking import compile_ranking, ladder_winner, order_place, trick_places
from trickrules.rules.ruleset import AttributeTest, CardCondition, RankingStep

HIGHEST = RankingStep("highest")
GEMS = RankingStep("highest", attribute=0)
FEWEST_GEMS = RankingStep("lowest", attribute=0)
LAST = RankingStep("last_played")


def winners(steps: list[RankingStep], cards: list[int], led: int, trumps: frozenset[int] = frozenset()) -> tuple[int, int]:
    deck = tiny().deck
    faces = counting_faces(deck, trumps)
    return compile_ranking(steps, deck, faces)(cards, led), ladder_winner(steps, cards, led, deck, faces)


@pytest.mark.parametrize(
    ("steps", "cards", "led", "winner"),
    [
        ([GEMS], [card(RED, 3), card(BLUE, 4), card(RED, 1)], RED, 1),
        ([FEWEST_GEMS], [card(RED, 3), card(BLUE, 4), card(RED, 1)], RED, 2),
        ([GEMS, LAST], [card(RED, 1), card(BLUE, 2), card(RED, 3)], RED, 2),
        ([GEMS, LAST], [card(RED, 1), card(BLUE, 2), card(GREEN, 1)], RED, 2),
        ([GEMS], [card(RED, 1), card(BLUE, 2), card(GREEN, 1)], RED, 0),
        ([RankingStep("prefer", "condition", CardCondition(attribute=AttributeTest(0, at_least=2))), HIGHEST],
         [card(RED, 4), card(BLUE, 3), card(GREEN, 2)], RED, 0),
        ([RankingStep("prefer", "condition", CardCondition(attribute=AttributeTest(0, equals=2))), HIGHEST],
         [card(RED, 4), card(BLUE, 3), card(GREEN, 2)], RED, 1),
        # a condition on the led group: ranked step by step
        ([RankingStep("prefer", "condition", CardCondition(led=False)), HIGHEST],
         [card(RED, 4), card(BLUE, 1), card(GREEN, 3)], RED, 2),
        ([RankingStep("prefer", "condition", CardCondition(led=True)), HIGHEST],
         [card(RED, 1), card(BLUE, 4), card(RED, 2)], RED, 2),
        ([RankingStep("order", order=((CardCondition(led=True), ((1, 2), (2, 1))), (None, ((3, 1),))))],
         [card(RED, 2), card(BLUE, 3), card(RED, 1)], RED, 2),
        ([RankingStep("order", order=((CardCondition(led=True), ((1, 2), (2, 1))), (None, ((3, 3),))))],
         [card(RED, 2), card(BLUE, 3), card(RED, 1)], RED, 1),
        ([RankingStep("order", order=((CardCondition(led=False), ((3, 1),)),)), GEMS],
         [card(RED, 4), card(BLUE, 3), card(RED, 3)], RED, 1),
        ([RankingStep("prefer", "trump"), RankingStep("prefer", "led"), HIGHEST],
         [card(RED, 2), card(BLUE, 4), card(GREEN, 1)], RED, 2),
    ],
)
def test_both_ways_find_the_winner(steps: list[RankingStep], cards: list[int], led: int, winner: int) -> None:
    assert winners(steps, cards, led, frozenset([GREEN])) == (winner, winner)


def test_order_places_count_from_1_and_unlisted_ranks_are_0() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    step = RankingStep("order", order=((CardCondition(suits=frozenset([BLUE])), ((4, 1), (1, 2))), (None, ((2, 5),))))
    assert order_place(step, card(BLUE, 1), deck, faces) == 2
    assert order_place(step, card(BLUE, 4), deck, faces) == 1
    assert order_place(step, card(BLUE, 2), deck, faces) == 0  # the blue entry holds: its places count
    assert order_place(step, card(RED, 2), deck, faces) == 5
    assert order_place(step, card(RED, 1), deck, faces) == 0
    led_only = RankingStep("order", order=((CardCondition(led=True), ((1, 3),)),))
    assert order_place(led_only, card(BLUE, 1), deck, faces, led=BLUE) == 3
    assert order_place(led_only, card(BLUE, 1), deck, faces, led=RED) == 0
    assert order_place(led_only, card(RED, 1), deck, faces) == 3  # the led group defaults to 0 (red)
    attribute_only = RankingStep("order", order=((CardCondition(attribute=AttributeTest(0, at_least=2)), ((3, 4),)),))
    assert order_place(attribute_only, card(GREEN, 3), deck, faces) == 4


def test_places_in_the_trick() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset([GREEN]))
    steps = [RankingStep("prefer", "trump"), RankingStep("prefer", "led"), HIGHEST]
    cards = [card(RED, 2), card(BLUE, 4), card(GREEN, 1), card(RED, 3)]
    assert trick_places(steps, cards, RED, deck, faces) == [3, 4, 1, 2]
    assert trick_places([GEMS, LAST], [card(RED, 1), card(BLUE, 1)], RED, deck, faces) == [2, 1]


def test_orders_by_a_card_condition_and_by_the_led_group_other_than_the_first_suit() -> None:
    static = [RankingStep("order", order=((CardCondition(suits=frozenset([BLUE])), ((1, 3),)), (None, ((4, 1), (2, 2)))))]
    assert winners(static, [card(RED, 4), card(BLUE, 1), card(GREEN, 2)], RED) == (1, 1)
    assert winners(static, [card(RED, 4), card(BLUE, 2), card(GREEN, 3)], RED) == (0, 0)
    rich = [RankingStep("order", order=((CardCondition(attribute=AttributeTest(0, at_least=2)), ((3, 1),)),
                                        (CardCondition(led=True), ((1, 2),))))]
    assert winners(rich, [card(BLUE, 1), card(RED, 3), card(GREEN, 1)], BLUE) == (0, 0)
    assert winners(rich, [card(BLUE, 2), card(RED, 3), card(GREEN, 1)], BLUE) == (1, 1)
