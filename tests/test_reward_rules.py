"""Trick rewards on a twelve-card deck: who gains (the winner at any position, losers by their
own card or the winner's), how much (constant, by rank, by attribute; tokens never negative,
points may be), and rewards whose condition reads the whole trick."""

from __future__ import annotations

from helpers import BLUE, GREEN, RED, card, tiny

from trickrules.rules.expressions import compile_expression
from trickrules.rules.faces import counting_faces
from trickrules.rules.ranking import trick_places
from trickrules.rules.rewards import POINTS, amount_table, compile_reward, compile_rewards
from trickrules.rules.ruleset import Amount, AttributeTest, CardCondition, RankingStep, Reward, TrickCondition
from trickrules.rules.whole_trick import trick_names

TOKEN = 0
PLAYERS = [2, 0, 1]  # the seats that played the trick's cards, in play order


def gains(rewards: list[Reward], cards: list[int], win_pos: int, led: int = RED) -> list[tuple[int, int, int, int]]:
    deck = tiny().deck
    return compile_rewards(rewards, deck, counting_faces(deck, frozenset()))(cards, PLAYERS, win_pos, led)


def test_the_winner_gains_at_any_position() -> None:
    reward = Reward("win", "winner", None, TOKEN, Amount(constant=2))
    trick = [card(RED, 1), card(RED, 4), card(BLUE, 2)]
    assert gains([reward], trick, 1) == [(0, 0, TOKEN, 2)]
    assert gains([reward], trick, 0) == [(2, 0, TOKEN, 2)]


def test_losers_gain_by_their_own_card_and_not_the_winner() -> None:
    reward = Reward("low", "losers", CardCondition(ranks=frozenset([1])), None, Amount(constant=-3))
    trick = [card(RED, 1), card(RED, 4), card(BLUE, 1)]
    assert gains([reward], trick, 1) == [(2, 0, POINTS, -3), (1, 0, POINTS, -3)]
    assert gains([reward], [card(RED, 1), card(RED, 4), card(BLUE, 2)], 0) == []  # the winner is no loser


def test_losers_gain_by_the_winner_suit() -> None:
    reward = Reward("same", "losers", CardCondition(same_suit_as_winner=True), TOKEN, Amount(constant=1))
    trick = [card(RED, 1), card(RED, 4), card(BLUE, 1)]
    assert gains([reward], trick, 1) == [(2, 0, TOKEN, 1)]


def test_amounts_by_rank_and_by_attribute() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    assert amount_table(Amount(constant=7, by_rank=((4, 1),)), deck, faces)[:4] == (7, 7, 7, 1)
    assert amount_table(Amount(attribute=0), deck, faces)[:4] == (1, 1, 2, 5)
    assert amount_table(Amount(constant=-2), deck, faces)[:2] == (-2, -2)


def test_tokens_are_never_negative_and_a_zero_amount_gives_nothing() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    tokens = compile_reward(0, Reward("t", "winner", None, TOKEN, Amount(constant=-2, by_rank=((4, 1),))), deck, faces)
    assert tokens.amount[:4] == (0, 0, 0, 1) and tokens.applies[:4] == (False, False, False, True)
    points = compile_reward(0, Reward("p", "winner", None, None, Amount(constant=-2)), deck, faces)
    assert points.amount[0] == -2 and points.applies[0] and points.token == POINTS
    dynamic = compile_reward(3, Reward("d", "losers", CardCondition(led=True), TOKEN, Amount(constant=1)), deck, faces)
    assert dynamic.index == 3 and dynamic.test is not None and dynamic.whole is None


def test_rewards_in_order_winner_first() -> None:
    win = Reward("win", "winner", CardCondition(attribute=AttributeTest(0, at_least=5)), TOKEN, Amount(constant=1))
    lose = Reward("lose", "losers", None, None, Amount(attribute=0))
    trick = [card(RED, 3), card(RED, 4), card(BLUE, 1)]
    assert gains([lose, win], trick, 1) == [(0, 1, TOKEN, 1), (2, 0, POINTS, 2), (1, 0, POINTS, 1)]


def test_whole_trick_rewards() -> None:
    names = trick_names(tiny().deck, rewards=True)
    ranking = (RankingStep("prefer", "led"), RankingStep("highest"))
    second = Reward("second", "losers", CardCondition(trick=TrickCondition(compile_expression("place == 2", names), ranking)),
                    TOKEN, Amount(constant=1))
    big = Reward("big", "winner", CardCondition(trick=TrickCondition(compile_expression("sum(gems) >= 8", names))),
                 None, Amount(constant=5))
    led_last = Reward("last", "losers", CardCondition(trick=TrickCondition(compile_expression("winner_position == 2 and position == 3", names))),
                      None, Amount(constant=1))
    trick = [card(RED, 2), card(RED, 4), card(BLUE, 1)]  # 7 gems
    assert gains([second, big, led_last], trick, 1) == [(2, 0, TOKEN, 1), (1, 2, POINTS, 1)]
    trick = [card(RED, 3), card(RED, 4), card(BLUE, 1)]  # 8 gems
    assert gains([second, big, led_last], trick, 1) == [(0, 1, POINTS, 5), (2, 0, TOKEN, 1), (1, 2, POINTS, 1)]
    deck = tiny().deck
    assert trick_places(list(ranking), trick, RED, deck, counting_faces(deck, frozenset())) == [2, 1, 3]
    assert gains([second, big, led_last], trick, 0) == [(2, 1, POINTS, 5)]  # the second place is the winner


def test_whole_trick_losers_with_a_card_condition() -> None:
    names = trick_names(tiny().deck, rewards=True)
    reward = Reward("green loser", "losers",
                    CardCondition(suits=frozenset([GREEN]), trick=TrickCondition(compile_expression("cards == 3", names))),
                    TOKEN, Amount(constant=2))
    assert gains([reward], [card(RED, 3), card(GREEN, 1), card(BLUE, 4)], 0) == [(0, 0, TOKEN, 2)]
    assert gains([reward], [card(RED, 3), card(GREEN, 1), card(BLUE, 4)], 1) == []


def test_whole_trick_rewards_read_the_winner_and_the_led_group() -> None:
    names = trick_names(tiny().deck, rewards=True)
    three = TrickCondition(compile_expression("cards == 3", names))
    same = Reward("same", "losers", CardCondition(same_suit_as_winner=True, trick=three), TOKEN, Amount(constant=1))
    led = Reward("led", "winner", CardCondition(led=True, trick=three), None, Amount(constant=4))
    trick = [card(BLUE, 3), card(RED, 4), card(RED, 1)]
    assert gains([same, led], trick, 1, led=BLUE) == [(1, 0, TOKEN, 1)]
    assert gains([same, led], trick, 1, led=RED) == [(0, 1, POINTS, 4), (1, 0, TOKEN, 1)]
