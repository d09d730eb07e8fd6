"""Follow rules: which cards of a hand may be played to the trick.

Each rule kind is a function that, given the counting faces, returns a *narrowing*: from the
cards still allowed, the ones the rule asks for. The rules apply in order; a narrowing that
leaves nothing changes nothing ("must ..., if able"). Leading is free.

A card matching an `exempt` rule's condition is free of every rule (Tarot's excuse): it may
be played whatever the others ask, and the others narrow the rest of the hand. Led, it sets no
led group (`NOT_LED`): the next card played that is not free does.

Some rules read the trick as it stands (`TRICK_RULES`: play a card that wins it, overtrump a
trump in it, head the best card of one's own group, play a card matching a condition that may
read the trick), and any rule may be waived while the player's partner is winning the trick
(`FollowRule.unless_partner_winning`). Rules that read the trick are compiled into
`compile_follow_in_trick`; `compile_follow` leaves them out, giving what a hand may play as
far as the led group alone tells (what the resampler infers a player's voids from).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from trickrules.rules.conditions import card_holds, static_table
from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import TRUMP_GROUP, CardCondition, Deck, FollowRule
from trickrules.rules.whole_trick import TrickView

NOT_LED: Final = -2
"""The led group of a trick led by a free card, until a card that is not free is played."""

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


class TrickNow:
    """The trick as it stands, as the rules that read it see it: its cards and players, the
    player's partners, and the ranking's winner of a list of cards."""

    __slots__ = ("cards", "players", "partners", "winner", "number", "last")

    def __init__(self, cards: Sequence[int], players: Sequence[int], partners: Sequence[int],
                 winner: Callable[[list[int]], int], number: int = 1, last: bool = False) -> None:
        self.cards, self.players, self.partners, self.winner = cards, players, partners, winner
        self.number, self.last = number, last

    def wins(self, card: int) -> bool:
        """Whether `card`, played now, would win the trick as it stands."""
        return self.winner([*self.cards, card]) == len(self.cards)

    def partner_winning(self) -> bool:
        """Whether one of the player's partners is winning the trick so far."""
        return self.players[self.winner(list(self.cards))] in self.partners


TrickNarrowing = Callable[[list[int], int, TrickNow], list[int]]
"""(cards allowed so far, led group, the trick) -> the ones this rule asks for."""


def win_if_able(faces: Faces) -> TrickNarrowing:
    """Must play a card that wins the trick as it stands, if able (head the trick)."""
    return lambda cards, led, now: [c for c in cards if now.wins(c)]


def head_if_able(faces: Faces) -> TrickNarrowing:
    """Must play a card that ranks above every card of its own group in the trick, if able:
    of the trumps when the trick holds one, else of the led group (a player who follows after
    someone trumped, or trumps first, has nothing to head). Ranks are compared, not the trick's
    winner: a card that outranks the others but loses by a ranking step still heads them."""
    group, rank = faces.group, faces.rank

    def narrowing(cards: list[int], led: int, now: TrickNow) -> list[int]:
        target = TRUMP_GROUP if any(group[c] == TRUMP_GROUP for c in now.cards) else led
        top = max(rank[c] for c in now.cards if group[c] == target)
        return [c for c in cards if group[c] == target and rank[c] > top]

    return narrowing


def play_if_able(condition: CardCondition, deck: Deck, faces: Faces) -> TrickNarrowing:
    """Must play a card matching `condition`, if able; its `trick` part reads the trick as it
    would stand with the card played (Tarok's Pagat when the trick holds Mond and Skis)."""

    def narrowing(cards: list[int], led: int, now: TrickNow) -> list[int]:
        found = []
        for card in cards:
            trick = TrickView([*now.cards, card], led, deck, faces, number=now.number, last=now.last)
            if card_holds(condition, card, deck, faces, led=led, trick=trick):
                found.append(card)
        return found

    return narrowing


def overtrump_if_able(faces: Faces) -> TrickNarrowing:
    """Playing a trump to a trick that holds a trump, must play one that beats it, if able."""
    is_trump = faces.is_trump

    def narrowing(cards: list[int], led: int, now: TrickNow) -> list[int]:
        if not any(is_trump[c] for c in now.cards):
            return cards
        trumps = [c for c in cards if is_trump[c]]
        winning = [c for c in trumps if now.wins(c)]
        if not winning or len(winning) == len(trumps):
            return cards  # no trump beats it (any trump may go), or every one does
        return [c for c in cards if not is_trump[c] or c in winning]

    return narrowing


FOLLOW_RULES: Final[dict[str, Callable[[Faces], Narrowing]]] = {
    "follow_led": follow_led,
    "trump_if_void": trump_if_void,
}
"""Every follow rule kind the language knows that reads only the led group, by its keyword."""

TRICK_RULES: Final[dict[str, Callable[[Faces], TrickNarrowing]]] = {
    "win_if_able": win_if_able,
    "overtrump_if_able": overtrump_if_able,
    "head_if_able": head_if_able,
}
"""Every follow rule kind that reads the trick as it stands, by its spec keyword (and
``play_if_able``, whose condition is its own: `rule_narrowing`)."""

CONDITION_RULES: Final = ("play_if_able",)
"""Follow rule kinds written with a card condition as their value that read the trick."""

EXEMPT: Final = "exempt"
"""The follow rule kind whose card condition names the cards free of every rule."""


def free_cards(rules: Sequence[FollowRule], deck: Deck, faces: Faces) -> frozenset[int]:
    """The cards an `exempt` rule frees from every other rule (a condition of the card alone)."""
    tables = [static_table(rule.condition, deck, faces) for rule in rules if rule.kind == EXEMPT]
    return frozenset(card for card in range(len(deck.cards)) if any(table[card] for table in tables))


def _with_free(legal: LegalCards, free: frozenset[int]) -> LegalCards:
    """`legal` for the hand's cards that are not free, and every free card besides."""

    def wrapped(hand: list[int], led: int) -> list[int]:
        bound = [c for c in hand if c not in free]
        if len(bound) == len(hand) or not bound:
            return legal(hand, led) if bound else list(hand)
        allowed = set(legal(bound, led))
        return [c for c in hand if c in free or c in allowed]

    return wrapped


def _in_trick_with_free(legal: TrickLegal, free: frozenset[int]) -> TrickLegal:
    """`legal` (reading the trick) for the hand's cards that are not free, and every free card."""

    def wrapped(hand: list[int], led: int, now: TrickNow) -> list[int]:
        bound = [c for c in hand if c not in free]
        if len(bound) == len(hand) or not bound:
            return legal(hand, led, now) if bound else list(hand)
        allowed = set(legal(bound, led, now))
        return [c for c in hand if c in free or c in allowed]

    return wrapped


def _follow_led_only(faces: Faces) -> LegalCards:
    """The most common rule set, `follow_led` alone, as one function (the hot path)."""
    group = faces.group

    def legal(hand: list[int], led: int) -> list[int]:
        return [c for c in hand if group[c] == led] or list(hand)

    return legal


def reads_trick(rule: FollowRule) -> bool:
    """Whether `rule` reads the trick as it stands (its kind, or its waiver for a partner)."""
    return rule.kind in TRICK_RULES or rule.kind in CONDITION_RULES or rule.unless_partner_winning


TrickLegal = Callable[[list[int], int, TrickNow], list[int]]
"""(hand, led group, the trick) -> the cards that may be played."""


def _ignoring_trick(plain: Narrowing) -> TrickNarrowing:
    """A rule that reads only the led group, called as one that may read the trick."""

    def narrowing(cards: list[int], led: int, now: TrickNow) -> list[int]:
        return plain(cards, led)

    return narrowing


def rule_narrowing(rule: FollowRule, deck: Deck, faces: Faces) -> TrickNarrowing:
    """The narrowing of one rule, called with the trick as it stands."""
    if rule.kind in TRICK_RULES:
        return TRICK_RULES[rule.kind](faces)
    if rule.condition is not None:
        return play_if_able(rule.condition, deck, faces)
    return _ignoring_trick(FOLLOW_RULES[rule.kind](faces))


def compile_follow_in_trick(rules: Sequence[FollowRule], faces: Faces, deck: Deck) -> TrickLegal | None:
    """The playable cards of a hand when following, by every rule, those that read the trick
    included; None when no rule reads it (`compile_follow` is then the whole story)."""
    if not any(reads_trick(rule) for rule in rules):
        return None
    free = free_cards(rules, deck, faces)
    legal = _compile_in_trick([rule for rule in rules if rule.kind != EXEMPT], faces, deck)
    return _in_trick_with_free(legal, free) if free else legal


def _compile_in_trick(rules: Sequence[FollowRule], faces: Faces, deck: Deck) -> TrickLegal:
    steps: list[tuple[TrickNarrowing, bool]] = []
    for rule in rules:
        steps.append((rule_narrowing(rule, deck, faces), rule.unless_partner_winning))

    def legal(hand: list[int], led: int, now: TrickNow) -> list[int]:
        cards = hand
        waived: bool | None = None
        for narrowing, waivable in steps:
            if waivable:
                if waived is None:
                    waived = now.partner_winning()
                if waived:
                    continue
            cards = narrowing(cards, led, now) or cards
        return list(cards)

    return legal


def compile_follow(rules: Sequence[FollowRule], faces: Faces, deck: Deck | None = None) -> LegalCards:
    """One function giving the playable cards of a hand when following, by the rules that read
    only the led group (a rule that reads the trick, or may be waived, is left out); the cards
    an `exempt` rule frees (read from `deck`) are always playable."""
    free = free_cards(rules, deck, faces) if deck is not None else frozenset()
    legal = _compile_led_only([rule for rule in rules if not reads_trick(rule) and rule.kind != EXEMPT], faces)
    return _with_free(legal, free) if free else legal


def _compile_led_only(rules: Sequence[FollowRule], faces: Faces) -> LegalCards:
    if [rule.kind for rule in rules] == ["follow_led"]:
        return _follow_led_only(faces)
    narrowings = [FOLLOW_RULES[rule.kind](faces) for rule in rules]
    if not narrowings:
        return lambda hand, led: list(hand)
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
