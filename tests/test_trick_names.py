"""The names a whole-trick condition reads, each by value: cards, ranks, suits played, trumps
and led cards played, attributes, the card's own rank and position, the winner's position and
rank, and the card's place by a ranking."""

from __future__ import annotations

from helpers import BLUE, GREEN, RED, card, tiny

from trickrules.rules.expressions import compile_expression
from trickrules.rules.faces import counting_faces
from trickrules.rules.ruleset import TRUMP_GROUP, TrickCondition
from trickrules.rules.whole_trick import TrickView, trick_names

TRICK = [card(RED, 2), card(GREEN, 1), card(RED, 4)]  # red led, green trumps


def view(winner_position: int = -1, places_of=None) -> TrickView:  # type: ignore[no-untyped-def]
    deck = tiny().deck
    return TrickView(TRICK, RED, deck, counting_faces(deck, frozenset([GREEN])), winner_position, places_of)


def test_the_shared_names_by_value() -> None:
    assert view().shared() == {
        "cards": 3,
        "ranks": [2, 1, 4],
        "red_played": 2,
        "blue_played": 0,
        "green_played": 1,
        "trumps_played": 1,
        "led_played": 2,
        "gems": [1, 1, 5],
        "trick_number": 1,
        "last_trick": False,
    }


def test_the_trick_number_and_last_trick_are_the_view_own() -> None:
    deck = tiny().deck
    faces = counting_faces(deck, frozenset([GREEN]))
    shared = TrickView(TRICK, RED, deck, faces, number=7, last=True).shared()
    assert shared["trick_number"] == 7 and shared["last_trick"] is True
    names = trick_names(deck, rewards=False)
    last = TrickCondition(compile_expression("last_trick and trick_number == 7", names))
    assert TrickView(TRICK, RED, deck, faces, number=7, last=True).holds(last, card(RED, 2))
    assert not TrickView(TRICK, RED, deck, faces, number=7, last=False).holds(last, card(RED, 2))


def test_the_winner_names_count_from_1() -> None:
    shared = view(winner_position=0).shared()
    assert shared["winner_position"] == 1 and shared["winner_rank"] == 2
    shared = view(winner_position=2).shared()
    assert shared["winner_position"] == 3 and shared["winner_rank"] == 4
    assert "winner_position" not in view().shared()


def holds(text: str, c: int, **kwargs) -> bool:  # type: ignore[no-untyped-def]
    names = trick_names(tiny().deck, rewards=True)
    return view(**kwargs).holds(TrickCondition(compile_expression(text, names)), c)


def test_rank_and_position_are_the_card_own() -> None:
    assert holds("rank == 1 and position == 2", card(GREEN, 1))
    assert holds("rank == 2 and position == 1", card(RED, 2))
    assert not holds("position == 1", card(RED, 4))
    assert holds("position == cards", card(RED, 4))


def test_place_comes_from_the_ranking_only_when_read() -> None:
    calls = []

    def places_of(cards, led, ranking):  # type: ignore[no-untyped-def]
        calls.append(led)
        return [3, 1, 2]

    assert holds("place == 1", card(GREEN, 1), places_of=places_of)
    assert holds("place == 3", card(RED, 2), places_of=places_of)
    assert holds("rank == 4", card(RED, 4), places_of=places_of)
    assert calls == [RED, RED]  # not for a condition without `place`


def test_constants_are_read() -> None:
    names = (*trick_names(tiny().deck, rewards=False), "limit")
    condition = TrickCondition(compile_expression("sum(gems) >= limit", names), constants=(("limit", 7),))
    assert view().holds(condition, card(RED, 2))
    condition = TrickCondition(compile_expression("sum(gems) >= limit", names), constants=(("limit", 8),))
    assert not view().holds(condition, card(RED, 2))


def test_a_trump_is_in_the_trump_group() -> None:
    faces = counting_faces(tiny().deck, frozenset([GREEN, BLUE]))
    assert faces.group[card(GREEN, 1)] == TRUMP_GROUP == faces.group[card(BLUE, 3)]
