"""Placement of won cards and tokens on a tableau."""

from __future__ import annotations

from trickrules.rules.placement import NO_SECTION, NO_SUIT, forced_cards, free_token_sections, free_token_spaces, section_for

E = NO_SUIT


def test_a_suit_goes_to_its_section_else_the_next_free():
    assert section_for(3, [1, 3, E, E]) == 1
    assert section_for(4, [1, 3, E, E]) == 2
    assert section_for(4, [1, 3, 2, 0]) == NO_SECTION


def test_token_spaces():
    assert free_token_sections([0, 0, 2, 1, 0], [0, 0, 2, 3, 4]) == [3, 4]
    assert free_token_spaces([0, 0, 2, 1, 0], [0, 0, 2, 3, 4]) == 6


def test_cards_of_known_suits_alone_are_forced():
    suit = {10: 1, 11: 3, 12: 1}
    assert forced_cards([10, 11], suit, [1, 3, E]) == [10, 11]


def test_two_cards_of_one_suit_are_a_choice():
    suit = {10: 1, 11: 1, 12: 3}
    assert forced_cards([10, 11, 12], suit, [1, 3, E]) == [12]


def test_several_new_suits_are_a_choice_a_single_new_suit_is_not():
    suit = {10: 1, 11: 2, 12: 3}
    assert forced_cards([10, 11, 12], suit, [3, E, E]) == [12]
    assert forced_cards([10, 12], suit, [3, E, E]) == [10, 12]


def test_a_last_card_is_always_forced():
    assert forced_cards([7], {7: 1}, [E]) == [7]
