"""An independent reading of the rules for the invariant checkers (tests/invariants.py): the
counting face of every card, the card conditions, the ranking ladder, the follow rules and the
rewards of a trick, worked out from the ruleset's words without the engine's compiled tables."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from trickrules.rules.ruleset import (
    TRUMP_GROUP,
    Amount,
    CardCondition,
    DealCondition,
    Deck,
    Face,
    RankingStep,
    Ruleset,
)

NO_LED = -2
"""The led group of a trick not led yet: no card is in it (-1 is the trump group)."""


# ================================================================ an independent reading of the rules


@dataclasses.dataclass(frozen=True)
class Faces:
    """The counting face of every card under one set of trumps, worked out here."""

    suit: tuple[int, ...]
    rank: tuple[int, ...]
    index: tuple[int, ...]
    trumps: frozenset[int]

    def is_trump(self, card: int) -> bool:
        return self.suit[card] in self.trumps

    def group(self, card: int) -> int:
        return TRUMP_GROUP if self.is_trump(card) else self.suit[card]


def deal_holds(condition: DealCondition, face: Face, trumps: frozenset[int]) -> bool:
    """Whether a face's `when` holds in a deal with `trumps`."""
    checks = []
    if condition.trump is not None:
        checks.append((face.suit in trumps) == condition.trump)
    if condition.trumps_include is not None:
        checks.append(condition.trumps_include in trumps)
    if condition.no_trumps is not None:
        checks.append((len(trumps) == 0) == condition.no_trumps)
    if condition.negate is not None:
        checks.append(not deal_holds(condition.negate, face, trumps))
    checks += [deal_holds(part, face, trumps) for part in condition.all_of]
    if condition.any_of is not None:
        checks.append(any(deal_holds(part, face, trumps) for part in condition.any_of))
    return all(checks)


def faces_for(deck: Deck, trumps: frozenset[int]) -> Faces:
    """Each card counts as its first face whose `when` holds, else as its last face."""
    chosen = []
    for card in deck.cards:
        fits = [i for i, f in enumerate(card.faces) if f.when is None or deal_holds(f.when, f, trumps)]
        chosen.append(fits[0] if fits else len(card.faces) - 1)
    faces = [card.faces[i] for card, i in zip(deck.cards, chosen)]
    return Faces(tuple(f.suit for f in faces), tuple(f.rank for f in faces), tuple(chosen), trumps)


def whole_trick_names(cond: CardCondition, card: int, trick: tuple[Sequence[int], int], faces: Faces, deck: Deck,
                      led: int) -> dict[str, Any]:
    """The names a `trick` condition reads, worked out from the trick's cards (and the position
    of its winner, -1 while ranking): counts, lists, the card's own rank, position and place."""
    assert cond.trick is not None
    cards, win = trick
    names: dict[str, Any] = dict(cond.trick.constants)
    names.update(cards=len(cards), ranks=[faces.rank[c] for c in cards], rank=faces.rank[card])
    for index, suit in enumerate(deck.suits):
        names[f"{suit}_played"] = sum(faces.suit[c] == index for c in cards)
    names["trumps_played"] = sum(faces.is_trump(c) for c in cards)
    names["led_played"] = sum(faces.group(c) == led for c in cards)
    for index, attribute in enumerate(deck.attributes):
        names[attribute] = [deck.cards[c].attributes[index] for c in cards]
    position = list(cards).index(card)
    names["position"] = position + 1
    if win >= 0:
        names.update(winner_rank=faces.rank[cards[win]], winner_position=win + 1)
        left, places = list(range(len(cards))), {}
        for place in range(1, len(cards) + 1):  # the best of the cards left, again and again
            best = left[ladder_winner(cond.trick.ranking, [cards[p] for p in left], faces, deck, led)]
            places[best] = place
            left.remove(best)
        names["place"] = places[position]
    return names


def card_matches(cond: CardCondition, card: int, faces: Faces, deck: Deck, led: int, winner: int = -1,
                 trick: tuple[Sequence[int], int] | None = None) -> bool:
    """Whether a card condition holds for `card` in a trick led in group `led`; `trick` (its
    cards, and its winner's position or -1) for a condition on the whole trick."""
    checks = []
    if cond.trick is not None:
        checks.append(trick is not None and bool(cond.trick.expression(whole_trick_names(cond, card, trick, faces, deck, led))))
    if cond.ranks is not None:
        checks.append(faces.rank[card] in cond.ranks)
    if cond.suits is not None:
        checks.append(faces.suit[card] in cond.suits)
    if cond.trump is not None:
        checks.append(faces.is_trump(card) == cond.trump)
    if cond.led is not None:
        checks.append((faces.group(card) == led) == cond.led)
    if cond.attribute is not None:
        test, value = cond.attribute, deck.cards[card].attributes[cond.attribute.attribute]
        checks.append(test.at_least is None or value >= test.at_least)
        checks.append(test.at_most is None or value <= test.at_most)
        checks.append(test.equals is None or value == test.equals)
    if cond.same_suit_as_winner is not None:
        checks.append((faces.suit[card] == faces.suit[winner]) == cond.same_suit_as_winner)
    if cond.winner is not None:
        checks.append(card_matches(cond.winner, winner, faces, deck, led, winner))
    if cond.negate is not None:
        checks.append(not card_matches(cond.negate, card, faces, deck, led, winner, trick))
    checks += [card_matches(part, card, faces, deck, led, winner, trick) for part in cond.all_of]
    if cond.any_of is not None:
        checks.append(any(card_matches(part, card, faces, deck, led, winner, trick) for part in cond.any_of))
    return all(checks)


def ladder_winner(steps: Sequence[RankingStep], cards: Sequence[int], faces: Faces, deck: Deck, led: int | None = None) -> int:
    """Position of the winning card: filter the candidates step by step, first played last."""
    led = faces.group(cards[0]) if led is None else led
    candidates = list(range(len(cards)))
    for step in steps:
        if step.kind == "first_played":
            return candidates[0]
        if step.kind == "last_played":
            return candidates[-1]
        if step.kind == "prefer":
            if step.group == "trump":
                kept = [p for p in candidates if faces.is_trump(cards[p])]
            elif step.group == "led":
                kept = [p for p in candidates if faces.group(cards[p]) == led]
            else:
                assert step.condition is not None
                kept = [p for p in candidates if card_matches(step.condition, cards[p], faces, deck, led, trick=(cards, -1))]
            candidates = kept or candidates
            continue
        if step.kind == "order":  # the first case whose condition holds lists the card's rank, lowest first
            def place(position: int) -> int:
                card = cards[position]
                for condition, places in step.order:
                    if condition is None or card_matches(condition, card, faces, deck, led):
                        return dict(places).get(faces.rank[card], 0)
                return 0

            top = max(map(place, candidates))
            candidates = [p for p in candidates if place(p) == top]
            continue

        def value(position: int) -> int:
            card = cards[position]
            return faces.rank[card] if step.attribute is None else deck.cards[card].attributes[step.attribute]

        best = max(map(value, candidates)) if step.kind == "highest" else min(map(value, candidates))
        candidates = [p for p in candidates if value(p) == best]
    return candidates[0]


def free_cards(rules: Ruleset, faces: Faces) -> frozenset[int]:
    """The cards an `exempt` follow rule frees from the others, read from its condition."""
    conditions = [rule.condition for rule in rules.follow if rule.kind == "exempt" and rule.condition is not None]
    if not conditions:
        return frozenset()
    return frozenset(c for c in range(len(rules.deck.cards)) if any(card_matches(x, c, faces, rules.deck, NO_LED) for x in conditions))


def led_of(trick: Sequence[int], free: frozenset[int], faces: Faces) -> int:
    """A trick's led group: its first card's that is not free (NO_LED while there is none)."""
    return next((faces.group(card) for card in trick if card not in free), NO_LED)


def allowed_cards(rules: Ruleset, hand: Sequence[int], trick: Sequence[int], faces: Faces,
                  trick_players: Sequence[int] = (), partners: Sequence[int] = ()) -> list[int]:
    """The cards the follow rules allow, read from the rules' words, each rule in turn (a rule
    that would leave nothing changes nothing; a waivable rule is skipped while one of
    `partners` wins the trick so far, as `ladder_winner` reads it); a free card is always
    allowed, and a trick with no card that is not free is followed as if led."""
    free = free_cards(rules, faces)
    led = led_of(trick, free, faces)
    bound = [card for card in hand if card not in free]
    if led == NO_LED or not bound:
        return sorted(hand)

    def wins(card: int) -> bool:
        return ladder_winner(rules.ranking, [*trick, card], faces, rules.deck, led) == len(trick)

    partner_winning = bool(trick_players) and trick_players[ladder_winner(rules.ranking, list(trick), faces, rules.deck, led)] in partners
    cards = bound
    for rule in rules.follow:
        if rule.unless_partner_winning and partner_winning or rule.kind == "exempt":
            continue
        if rule.kind == "follow_led":
            narrowed = [c for c in cards if faces.group(c) == led]
        elif rule.kind == "trump_if_void":
            narrowed = [c for c in cards if faces.is_trump(c)]
        elif rule.kind == "win_if_able":
            narrowed = [c for c in cards if wins(c)]
        elif rule.kind == "head_if_able":  # above the best trump in the trick, else the best led card
            target = [c for c in trick if faces.is_trump(c)] or [c for c in trick if faces.group(c) == led]
            top = max(faces.rank[c] for c in target)
            narrowed = [c for c in cards if faces.group(c) == faces.group(target[0]) and faces.rank[c] > top]
        elif rule.kind == "play_if_able":
            assert rule.condition is not None
            narrowed = [c for c in cards if card_matches(rule.condition, c, faces, deck=rules.deck, led=led, trick=([*trick, c], -1))]
        else:
            assert rule.kind == "overtrump_if_able", rule.kind
            trumps = [c for c in cards if faces.is_trump(c)]
            beating = [c for c in trumps if wins(c)]
            if any(faces.is_trump(c) for c in trick) and beating and len(beating) < len(trumps):
                narrowed = [c for c in cards if not faces.is_trump(c) or c in beating]
            else:
                narrowed = cards
        cards = narrowed or cards
    return sorted(cards + [card for card in hand if card in free])


def reward_amount(amount: Amount, card: int, faces: Faces, deck: Deck) -> int:
    if amount.attribute is not None:
        return deck.cards[card].attributes[amount.attribute]
    if amount.by_rank is not None:
        return dict(amount.by_rank).get(faces.rank[card], amount.constant)
    return amount.constant


def trick_gains(rules: Ruleset, cards: Sequence[int], players: Sequence[int], win: int, faces: Faces) -> list[tuple]:
    """(player, reward, token or None, amount) of a trick: winner first, then losers in play order."""
    deck, led, winner = rules.deck, led_of(cards, free_cards(rules, faces), faces), cards[win]
    subjects = [(win, "winner")] + [(p, "losers") for p in range(len(cards)) if p != win]
    gains = []
    for position, to in subjects:
        for index, reward in enumerate(rules.rewards):
            card = cards[position]
            if reward.to != to or (reward.when and not card_matches(reward.when, card, faces, deck, led, winner, (cards, win))):
                continue
            amount = reward_amount(reward.amount, card, faces, deck)
            if reward.token is not None:
                amount = max(0, amount)  # a negative count of tokens gives nothing
            if amount:  # nothing to give is not a gain
                gains.append((players[position], index, reward.token, amount))
    return gains
