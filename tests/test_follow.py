"""Follow rules: which cards may be played to a trick."""

from __future__ import annotations

import dataclasses

from helpers import KINGDOMS, MEADOWS, cards, game, ids, suits

from trickrules.rules.follow import FOLLOW_RULES, compile_follow
from trickrules.rules.ruleset import TRUMP_GROUP, FollowRule


def legal(g, trumps, hand, led_card, rules=None):
    faces = g.tables(trumps).faces
    follow = compile_follow(rules or g.ruleset.follow, faces)
    hand_cards = cards(g, *hand)
    return sorted(ids(g, follow(hand_cards, faces.group[g.card_index(led_card)])))


def test_must_follow_the_led_suit_when_able():
    g = game(KINGDOMS, 4)
    assert legal(g, frozenset(), ["red-1", "red-7", "blue-3"], "red-5") == ["red-1", "red-7"]


def test_any_card_when_void_in_the_led_suit():
    g = game(KINGDOMS, 4)
    assert legal(g, frozenset(), ["green-1", "blue-3"], "red-5") == ["blue-3", "green-1"]


def test_trumps_form_one_group_when_a_trump_is_led():
    g = game(MEADOWS, 4)
    hand = ["blue-6", "orange-9/yellow-4", "red-7"]
    assert legal(g, suits(g, "blue", "orange"), hand, "blue-1") == ["blue-6", "orange-9/yellow-4"]
    assert legal(g, suits(g, "blue", "orange", "lila"), hand, "lila-13/yellow-5") == ["blue-6", "orange-9/yellow-4"]


def test_a_two_faced_card_follows_by_its_counting_face():
    g = game(MEADOWS, 4)
    hand = ["orange-9/yellow-4", "red-2"]
    assert legal(g, suits(g, "blue"), hand, "yellow-7") == ["orange-9/yellow-4"]
    assert legal(g, suits(g, "orange"), hand, "yellow-7") == ["orange-9/yellow-4", "red-2"]


def test_trump_if_void_narrows_to_trumps_only_when_unable_to_follow():
    g = game(MEADOWS, 4)
    rules = (FollowRule("follow_led"), FollowRule("trump_if_void"))
    trumps = suits(g, "blue")
    assert legal(g, trumps, ["blue-6", "red-2", "green-8"], "yellow-7", rules) == ["blue-6"]
    assert legal(g, trumps, ["blue-6", "yellow-2"], "yellow-7", rules) == ["yellow-2"]
    assert legal(g, trumps, ["red-2", "green-8"], "yellow-7", rules) == ["green-8", "red-2"]


def test_every_follow_kind_is_a_function_of_the_faces():
    g = game(MEADOWS, 4)
    faces = g.tables(suits(g, "blue")).faces
    for kind, make in FOLLOW_RULES.items():
        narrowing = make(faces)
        assert callable(narrowing), kind
        assert narrowing([], TRUMP_GROUP) == []


def test_follow_rules_of_the_ruleset_are_data():
    g = game(KINGDOMS, 4)
    assert g.ruleset.follow == (FollowRule("follow_led"),)
    assert dataclasses.is_dataclass(g.ruleset.follow[0])
