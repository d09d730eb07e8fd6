"""Follow rules: which cards of a hand may be played to the trick.

Each rule kind is a function that, given the counting faces, returns a *narrowing*: from the
cards still allowed, the ones the rule asks for. The rules apply in order; a narrowing that
leaves nothing changes nothing ("must ..., if able"). Leading is free.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import FollowRule

Narrowing = Callable[[list[int], int], list[int]]
"""(cards allowed so far, led group) -> the ones this rule asks for."""

LegalCards = Callable[[list[int], int], list[int]]
"""(hand, led group) -> the cards that may be played."""


def follow_led(faces: Faces) -> Narrowing:
    """Must play a card of the led group (the led suit, or any trump when a trump was led)."""
    group = faces.group
    return lambda cards, led: [c for c in cards if group[c] == led]


def trump_if_void(faces: Faces) -> Narrowing:
    """Unable to follow, must play a trump."""
    is_trump = faces.is_trump
    return lambda cards, led: [c for c in cards if is_trump[c]]


FOLLOW_RULES: Final[dict[str, Callable[[Faces], Narrowing]]] = {
    "follow_led": follow_led,
    "trump_if_void": trump_if_void,
}
"""Every follow rule kind the language knows, by its spec keyword."""


def _follow_led_only(faces: Faces) -> LegalCards:
    """The most common rule set, `follow_led` alone, as one function (the hot path)."""
    group = faces.group

    def legal(hand: list[int], led: int) -> list[int]:
        return [c for c in hand if group[c] == led] or list(hand)

    return legal


def compile_follow(rules: Sequence[FollowRule], faces: Faces) -> LegalCards:
    """One function giving the playable cards of a hand when following."""
    if [rule.kind for rule in rules] == ["follow_led"]:
        return _follow_led_only(faces)
    narrowings = [FOLLOW_RULES[rule.kind](faces) for rule in rules]
    if len(narrowings) == 1:
        only = narrowings[0]

        def legal_single(hand: list[int], led: int) -> list[int]:
            return only(hand, led) or list(hand)

        return legal_single

    def legal(hand: list[int], led: int) -> list[int]:
        cards = hand
        for narrowing in narrowings:
            cards = narrowing(cards, led) or cards
        return list(cards)

    return legal
