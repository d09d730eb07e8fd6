"""Card conditions, compiled for one set of counting faces.

A condition splits into a static part, which depends on the card alone and becomes a table
by card index, and a dynamic part, which looks at the trick (the led group, the winning card)
and stays a small function. The engine checks the table first and calls the function only
for cards that pass it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import AttributeTest, CardCondition, Deck

if TYPE_CHECKING:
    from trickrules.rules.whole_trick import TrickView

TrickTest = Callable[[int, int, int], bool]
"""A dynamic test: (card, winning card, led group) -> bool."""

_STATIC_FIELDS = ("ranks", "suits", "trump", "attribute")


def is_static(condition: CardCondition) -> bool:
    """Whether `condition` depends on the card alone (not on the trick)."""
    if condition.led is not None or condition.same_suit_as_winner is not None or condition.winner is not None:
        return False
    if condition.trick is not None:
        return False
    parts = [condition.negate, *condition.all_of, *(condition.any_of or ())]
    return all(is_static(part) for part in parts if part is not None)


def _attribute_holds(test: AttributeTest, value: int) -> bool:
    if test.at_least is not None and value < test.at_least:
        return False
    if test.at_most is not None and value > test.at_most:
        return False
    return test.equals is None or value == test.equals


def card_holds(
    condition: CardCondition, card: int, deck: Deck, faces: Faces, winner: int = -1, led: int = 0,
    trick: TrickView | None = None,
) -> bool:
    """Whether `condition` holds for `card` (the plain, uncompiled reading); a `trick` part
    holds only in a complete `trick`."""
    if condition.ranks is not None and faces.rank[card] not in condition.ranks:
        return False
    if condition.suits is not None and faces.suit[card] not in condition.suits:
        return False
    if condition.trump is not None and faces.is_trump[card] != condition.trump:
        return False
    attribute = condition.attribute
    if attribute is not None and not _attribute_holds(attribute, deck.cards[card].attributes[attribute.attribute]):
        return False
    if condition.led is not None and (faces.group[card] == led) != condition.led:
        return False
    if condition.same_suit_as_winner is not None:
        if (faces.suit[card] == faces.suit[winner]) != condition.same_suit_as_winner:
            return False
    if condition.winner is not None and not card_holds(condition.winner, winner, deck, faces, winner, led):
        return False
    if condition.trick is not None and (trick is None or not trick.holds(condition.trick, card)):
        return False
    if condition.negate is not None and card_holds(condition.negate, card, deck, faces, winner, led, trick):
        return False
    if not all(card_holds(c, card, deck, faces, winner, led, trick) for c in condition.all_of):
        return False
    if condition.any_of is not None:
        return any(card_holds(c, card, deck, faces, winner, led, trick) for c in condition.any_of)
    return True


def static_table(condition: CardCondition | None, deck: Deck, faces: Faces) -> tuple[bool, ...]:
    """For every card, whether the card-only part of `condition` holds."""
    if condition is None:
        return (True,) * len(deck.cards)
    card_only = _card_only_part(condition)
    return tuple(card_holds(card_only, c, deck, faces) for c in range(len(deck.cards)))


def _card_only_part(condition: CardCondition) -> CardCondition:
    """The conjuncts of `condition` that look at the card alone."""
    if is_static(condition):
        return condition
    fields = {name: getattr(condition, name) for name in _STATIC_FIELDS}
    statics = tuple(c for c in condition.all_of if is_static(c))
    return CardCondition(**fields, all_of=statics)


def trick_test(condition: CardCondition | None, deck: Deck, faces: Faces) -> TrickTest | None:
    """The dynamic part of `condition`, or None when the static table says it all."""
    if condition is None or is_static(condition):
        return None
    if _only_same_suit(condition):
        return _same_suit_test(faces.suit, bool(condition.same_suit_as_winner))

    def test(card: int, winner: int, led: int) -> bool:
        return card_holds(condition, card, deck, faces, winner, led)

    return test


def _only_same_suit(condition: CardCondition) -> bool:
    dynamic = (condition.led, condition.winner, condition.negate, condition.any_of)
    return condition.same_suit_as_winner is not None and all(d is None for d in dynamic) and all(
        is_static(c) for c in condition.all_of
    )


def _same_suit_test(suit: Sequence[int], same: bool) -> TrickTest:
    if same:
        return lambda card, winner, led: suit[card] == suit[winner]
    return lambda card, winner, led: suit[card] != suit[winner]
