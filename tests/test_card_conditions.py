"""Card and deal conditions part by part: every field, every combinator and the split into a
static table and a trick test, on a twelve-card deck small enough to check by hand."""

from __future__ import annotations

from functools import lru_cache

import pytest
from helpers import GEMS_DECK, RED, BLUE, GREEN, tiny, card

from trickrules.rules.conditions import card_holds, is_static, static_table, trick_test
from trickrules.rules.faces import counting_face, counting_faces, deal_condition_holds
from trickrules.rules.ruleset import AttributeTest, CardCondition, DealCondition, Face, Ruleset
from trickrules.spec.loader import load_ruleset_text







def holds(condition: CardCondition, c: int, winner: int = -1, led: int = 0, trumps: frozenset[int] = frozenset()) -> bool:
    deck = tiny().deck
    return card_holds(condition, c, deck, counting_faces(deck, trumps), winner, led)


def test_the_tiny_deck_has_its_attribute_values() -> None:
    assert [c.attributes[0] for c in tiny().deck.cards[:4]] == [1, 1, 2, 5]


def test_ranks_and_suits_each_narrow() -> None:
    assert holds(CardCondition(ranks=frozenset([2])), card(BLUE, 2))
    assert not holds(CardCondition(ranks=frozenset([2])), card(BLUE, 3))
    assert holds(CardCondition(suits=frozenset([BLUE])), card(BLUE, 3))
    assert not holds(CardCondition(suits=frozenset([BLUE])), card(RED, 3))


def test_trump_true_and_false() -> None:
    trumps = frozenset([GREEN])
    assert holds(CardCondition(trump=True), card(GREEN, 1), trumps=trumps)
    assert not holds(CardCondition(trump=True), card(RED, 1), trumps=trumps)
    assert holds(CardCondition(trump=False), card(RED, 1), trumps=trumps)
    assert not holds(CardCondition(trump=False), card(GREEN, 1), trumps=trumps)


@pytest.mark.parametrize(
    ("test", "gems_that_hold"),
    [
        (AttributeTest(0, at_least=2), [2, 5]),
        (AttributeTest(0, at_most=2), [1, 1, 2]),
        (AttributeTest(0, equals=2), [2]),
        (AttributeTest(0, at_least=2, at_most=2), [2]),
        (AttributeTest(0), [1, 1, 2, 5]),
    ],
)
def test_attribute_bounds_include_their_edge(test: AttributeTest, gems_that_hold: list[int]) -> None:
    held = [c.attributes[0] for i, c in enumerate(tiny().deck.cards[:4]) if holds(CardCondition(attribute=test), i)]
    assert held == gems_that_hold


def test_led_compares_the_card_group_with_the_led_group() -> None:
    assert holds(CardCondition(led=True), card(BLUE, 1), led=BLUE)
    assert not holds(CardCondition(led=True), card(RED, 1), led=BLUE)
    assert holds(CardCondition(led=False), card(RED, 1), led=BLUE)
    assert not holds(CardCondition(led=False), card(BLUE, 1), led=BLUE)


def test_same_suit_as_winner_both_ways() -> None:
    winner = card(RED, 4)
    assert holds(CardCondition(same_suit_as_winner=True), card(RED, 1), winner)
    assert not holds(CardCondition(same_suit_as_winner=True), card(BLUE, 1), winner)
    assert holds(CardCondition(same_suit_as_winner=False), card(BLUE, 1), winner)
    assert not holds(CardCondition(same_suit_as_winner=False), card(RED, 1), winner)


def test_winner_asks_about_the_winning_card_not_the_card() -> None:
    high_winner = CardCondition(winner=CardCondition(ranks=frozenset([4])))
    assert holds(high_winner, card(BLUE, 1), winner=card(RED, 4))
    assert not holds(high_winner, card(BLUE, 4), winner=card(RED, 3))


def test_not_all_and_any_combine() -> None:
    two = CardCondition(ranks=frozenset([2]))
    red = CardCondition(suits=frozenset([RED]))
    assert holds(CardCondition(negate=two), card(RED, 1))
    assert not holds(CardCondition(negate=two), card(RED, 2))
    both = CardCondition(all_of=(two, red))
    assert [c for c in range(12) if holds(both, c)] == [card(RED, 2)]
    either = CardCondition(any_of=(two, red))
    assert [c for c in range(12) if holds(either, c)] == [0, 1, 2, 3, card(BLUE, 2), card(GREEN, 2)]
    assert not holds(CardCondition(any_of=()), card(RED, 1))  # none of nothing holds
    assert holds(CardCondition(all_of=()), card(RED, 1))
    # a field and a combinator must both hold
    assert not holds(CardCondition(suits=frozenset([BLUE]), any_of=(two,)), card(RED, 2))
    assert not holds(CardCondition(suits=frozenset([BLUE]), all_of=(two,)), card(BLUE, 3))
    assert holds(CardCondition(suits=frozenset([BLUE]), all_of=(two,)), card(BLUE, 2))


def test_combinators_pass_the_trick_on_to_their_parts() -> None:
    led_part = CardCondition(led=True)
    winner_part = CardCondition(same_suit_as_winner=True)
    for combined in (CardCondition(all_of=(led_part,)), CardCondition(any_of=(led_part,))):
        assert holds(combined, card(BLUE, 1), led=BLUE)
        assert not holds(combined, card(BLUE, 1), led=RED)
    assert holds(CardCondition(negate=led_part), card(BLUE, 1), led=RED)
    assert not holds(CardCondition(negate=led_part), card(BLUE, 1), led=BLUE)
    assert holds(CardCondition(all_of=(winner_part,)), card(BLUE, 1), winner=card(BLUE, 4))
    assert not holds(CardCondition(any_of=(winner_part,)), card(BLUE, 1), winner=card(RED, 4))
    assert holds(CardCondition(winner=CardCondition(led=True)), card(RED, 1), winner=card(BLUE, 4), led=BLUE)
    assert not holds(CardCondition(winner=CardCondition(led=True)), card(RED, 1), winner=card(BLUE, 4), led=RED)


def test_what_is_static() -> None:
    assert is_static(CardCondition(ranks=frozenset([1]), suits=frozenset([RED]), trump=True))
    assert is_static(CardCondition(attribute=AttributeTest(0, at_least=1)))
    for dynamic in (
        CardCondition(led=True),
        CardCondition(same_suit_as_winner=False),
        CardCondition(winner=CardCondition()),
        CardCondition(negate=CardCondition(led=False)),
        CardCondition(all_of=(CardCondition(), CardCondition(led=True))),
        CardCondition(any_of=(CardCondition(), CardCondition(led=True))),
    ):
        assert not is_static(dynamic), dynamic
    assert is_static(CardCondition(negate=CardCondition(), all_of=(CardCondition(),), any_of=(CardCondition(),)))


def test_the_static_table_keeps_the_card_only_conjuncts() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    assert static_table(None, deck, faces) == (True,) * 12
    mixed = CardCondition(
        suits=frozenset([RED]), led=True, all_of=(CardCondition(ranks=frozenset([1, 2])), CardCondition(led=False))
    )
    assert [c for c, ok in enumerate(static_table(mixed, deck, faces)) if ok] == [card(RED, 1), card(RED, 2)]
    plain = CardCondition(ranks=frozenset([3]))
    assert [c for c, ok in enumerate(static_table(plain, deck, faces)) if ok] == [2, 6, 10]


def test_the_trick_test_reads_the_trick() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    assert trick_test(None, deck, faces) is None
    assert trick_test(CardCondition(ranks=frozenset([1])), deck, faces) is None
    same = trick_test(CardCondition(same_suit_as_winner=True), deck, faces)
    other = trick_test(CardCondition(same_suit_as_winner=False), deck, faces)
    assert same is not None and other is not None
    assert same(card(RED, 1), card(RED, 4), BLUE) and not same(card(BLUE, 1), card(RED, 4), BLUE)
    assert other(card(BLUE, 1), card(RED, 4), BLUE) and not other(card(RED, 1), card(RED, 4), BLUE)
    # with a static conjunct it is still the same-suit shortcut; the static part is the table's
    narrowed = trick_test(
        CardCondition(same_suit_as_winner=True, all_of=(CardCondition(ranks=frozenset([1])),)), deck, faces
    )
    assert narrowed is not None and narrowed(card(RED, 2), card(RED, 4), RED)
    led = trick_test(CardCondition(led=True), deck, faces)
    assert led is not None and led(card(BLUE, 1), -1, BLUE) and not led(card(BLUE, 1), -1, RED)
    both = trick_test(CardCondition(same_suit_as_winner=True, led=False), deck, faces)
    assert both is not None
    assert both(card(RED, 1), card(RED, 4), BLUE)
    assert not both(card(RED, 1), card(RED, 4), RED)  # the led part is not dropped
    assert not both(card(GREEN, 1), card(RED, 4), BLUE)


# ---------------------------------------------------------------- deal conditions and faces


def deal_holds(condition: DealCondition, suit: int, trumps: set[int]) -> bool:
    return deal_condition_holds(condition, Face(suit, 1), frozenset(trumps))


def test_deal_condition_fields() -> None:
    assert deal_holds(DealCondition(trump=True), RED, {RED})
    assert not deal_holds(DealCondition(trump=True), RED, {BLUE})
    assert deal_holds(DealCondition(trump=False), RED, {BLUE})
    assert not deal_holds(DealCondition(trump=False), RED, {RED})
    assert deal_holds(DealCondition(trumps_include=BLUE), RED, {BLUE})
    assert not deal_holds(DealCondition(trumps_include=BLUE), RED, {RED})
    assert deal_holds(DealCondition(no_trumps=True), RED, set())
    assert not deal_holds(DealCondition(no_trumps=True), RED, {GREEN})
    assert deal_holds(DealCondition(no_trumps=False), RED, {GREEN})
    assert not deal_holds(DealCondition(no_trumps=False), RED, set())


def test_deal_condition_combinators() -> None:
    trump = DealCondition(trump=True)
    blue = DealCondition(trumps_include=BLUE)
    assert deal_holds(DealCondition(negate=trump), RED, {BLUE})
    assert not deal_holds(DealCondition(negate=trump), RED, {RED})
    assert deal_holds(DealCondition(all_of=(trump, blue)), RED, {RED, BLUE})
    assert not deal_holds(DealCondition(all_of=(trump, blue)), RED, {RED})
    assert not deal_holds(DealCondition(all_of=(trump, blue)), RED, {BLUE})
    assert deal_holds(DealCondition(any_of=(trump, blue)), RED, {BLUE})
    assert deal_holds(DealCondition(any_of=(trump, blue)), RED, {RED})
    assert not deal_holds(DealCondition(any_of=(trump, blue)), RED, {GREEN})
    assert not deal_holds(DealCondition(trump=True, any_of=(blue,)), RED, {BLUE})


def test_the_counting_face_is_the_first_that_holds_else_the_last() -> None:
    faces = (
        Face(RED, 9, DealCondition(trumps_include=RED)),
        Face(BLUE, 8, DealCondition(trumps_include=BLUE)),
        Face(GREEN, 1, DealCondition(trumps_include=GREEN)),
    )
    assert counting_face(faces, frozenset([RED, BLUE])) == 0
    assert counting_face(faces, frozenset([BLUE])) == 1
    assert counting_face(faces, frozenset()) == 2  # none holds: the last
    assert counting_face((Face(RED, 1), Face(BLUE, 1)), frozenset()) == 0  # no `when`: it counts


def test_counting_faces_give_trump_group_and_flags() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset([BLUE]))
    assert faces.trumps == frozenset([BLUE])
    assert faces.suit[card(BLUE, 2)] == BLUE and faces.rank[card(BLUE, 2)] == 2
    assert faces.is_trump[card(BLUE, 2)] and not faces.is_trump[card(RED, 2)]
    assert faces.group[card(RED, 2)] == RED and faces.group[card(BLUE, 2)] != BLUE
    assert faces.group[card(BLUE, 1)] == faces.group[card(BLUE, 4)]
    assert faces.face == (0,) * 12


# ---------------------------------------------------------------- card names


def test_face_text_with_a_suit_of_two_words_and_a_negative_rank() -> None:
    from trickrules.rules.cards import face_text, rank_numbers
    from trickrules.rules.ruleset import Deck

    deck = Deck(("big red", "blue"), (), (), ((-1, "Joker"), (12, "Q"), (13, "Q")))
    assert face_text(deck, " big red 12 ") == "big red Q"
    assert face_text(deck, "blue -1") == "blue Joker"
    assert face_text(deck, "blue 7") == "blue 7"
    assert face_text(deck, "blue 1-") == "blue 1-"
    assert face_text(deck, " blue Q ") == "blue Q"
    assert rank_numbers(deck, "Q") == frozenset([12, 13])
    assert rank_numbers(deck, 5) == frozenset([5])
    assert rank_numbers(deck, "K") == frozenset()


# ---------------------------------------------------------------- follow rules


@pytest.mark.parametrize(
    ("kinds", "hand", "led", "legal"),
    [
        (["follow_led"], [card(RED, 1), card(BLUE, 1), card(GREEN, 1)], BLUE, [card(BLUE, 1)]),
        (["follow_led"], [card(RED, 1), card(GREEN, 1)], BLUE, [card(RED, 1), card(GREEN, 1)]),
        (["trump_if_void"], [card(RED, 1), card(GREEN, 1), card(GREEN, 2)], BLUE, [card(GREEN, 1), card(GREEN, 2)]),
        (["trump_if_void"], [card(RED, 1), card(BLUE, 2)], BLUE, [card(RED, 1), card(BLUE, 2)]),
        (["follow_led", "trump_if_void"], [card(RED, 1), card(GREEN, 1), card(BLUE, 3)], BLUE, [card(BLUE, 3)]),
        (["follow_led", "trump_if_void"], [card(RED, 1), card(GREEN, 1), card(GREEN, 4)], BLUE, [card(GREEN, 1), card(GREEN, 4)]),
        (["follow_led", "trump_if_void"], [card(RED, 1), card(RED, 2)], BLUE, [card(RED, 1), card(RED, 2)]),
        ([], [card(RED, 1), card(BLUE, 2)], BLUE, [card(RED, 1), card(BLUE, 2)]),
    ],
)
def test_follow_rules(kinds: list[str], hand: list[int], led: int, legal: list[int]) -> None:
    from trickrules.rules.follow import compile_follow
    from trickrules.rules.ruleset import FollowRule

    faces = counting_faces(tiny().deck, frozenset([GREEN]))
    found = compile_follow([FollowRule(k) for k in kinds], faces)(list(hand), led)  # type: ignore[arg-type]
    assert found == legal


def test_combinators_pass_the_deck_the_winner_and_the_trick_on() -> None:
    from trickrules.rules.expressions import compile_expression
    from trickrules.rules.ruleset import TrickCondition
    from trickrules.rules.whole_trick import TrickView, trick_names

    rich = CardCondition(attribute=AttributeTest(0, at_least=5))
    for combined in (CardCondition(all_of=(rich,)), CardCondition(any_of=(rich,)), CardCondition(winner=rich)):
        assert holds(combined, card(RED, 4), winner=card(RED, 4))
        assert not holds(combined, card(RED, 1), winner=card(RED, 1))
    assert holds(CardCondition(negate=rich), card(RED, 1)) and not holds(CardCondition(negate=rich), card(RED, 4))
    same = CardCondition(same_suit_as_winner=True)
    assert holds(CardCondition(negate=same), card(BLUE, 1), winner=card(RED, 4))
    assert not holds(CardCondition(negate=same), card(RED, 1), winner=card(RED, 4))
    deck = tiny().deck
    faces = counting_faces(deck, frozenset())
    trick = TrickView([card(RED, 1), card(BLUE, 2)], RED, deck, faces)
    two = CardCondition(trick=TrickCondition(compile_expression("cards == 2", trick_names(deck, rewards=False))))
    for combined, expected in ((CardCondition(all_of=(two,)), True), (CardCondition(any_of=(two,)), True),
                               (CardCondition(negate=two), False)):
        assert card_holds(combined, card(RED, 1), deck, faces, trick=trick) is expected
    assert card_holds(CardCondition(led=True), card(RED, 1), deck, faces)  # led defaults to group 0


def test_numbered_ids_of_two_faced_copied_cards_with_a_hyphenated_suit() -> None:
    from trickrules.rules.cards import numbered_id
    from trickrules.rules.ruleset import Card, Deck, Face

    deck = Deck(("dark-red", "blue"), (), (), ((12, "Q"), (13, "K")))
    two_faced = Card(0, "dark-red-Q/blue-K#2", (Face(0, 12), Face(1, 13)), ())
    assert numbered_id(two_faced, deck) == "dark-red-12/blue-13#2"
    unmatched = Card(1, "blue-Q", (Face(1, 13),), ())
    assert numbered_id(unmatched, deck) == "blue-Q"  # names no face of the card: kept
    other_suit = Card(2, "blue-K", (Face(0, 13),), ())
    assert numbered_id(other_suit, deck) == "blue-K"
