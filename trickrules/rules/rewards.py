"""Trick rewards: tokens or points for the winner, or for losers who played certain cards.

Rewards are handed out winner first, then the losers in the order they played; within a
player, in the order the spec lists them. That order decides who gets a short supply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from trickrules.rules.conditions import TrickTest, card_holds, static_table, trick_test
from trickrules.rules.faces import Faces
from trickrules.rules.ranking import trick_places
from trickrules.rules.ruleset import Amount, CardCondition, Deck, RankingStep, Reward
from trickrules.rules.whole_trick import TrickView, reads_trick

Gain = tuple[int, int, int, int]
"""(player, reward index, token index or -1 for points, amount)."""

class TrickRewards(Protocol):
    """(cards in play order, their players, winner's position, led group, the trick's number from
    1, whether it is the round's last trick, each seat's side this round) -> gains."""

    def __call__(self, cards: Sequence[int], players: Sequence[int], win_pos: int, led: int, number: int = 1,
                 last: bool = False, sides: Sequence[int] = ()) -> list[Gain]: ...

POINTS: Final = -1


@dataclass(frozen=True, slots=True)
class CompiledReward:
    """One reward for one set of counting faces: tables by card index plus a trick test."""

    index: int
    token: int
    applies: tuple[bool, ...]
    test: TrickTest | None
    amount: tuple[int, ...]
    whole: CardCondition | None = None
    """The condition, when it reads the whole trick: tested with the trick (`test` is None)."""
    partner: bool | None = None
    """`winner_is_partner`: whether the subject card's player must be on the winner's side."""


def amount_table(amount: Amount, deck: Deck, faces: Faces) -> tuple[int, ...]:
    """The amount a reward gives for each card as the subject card."""
    if amount.attribute is not None:
        return tuple(card.attributes[amount.attribute] for card in deck.cards)
    if amount.by_rank is not None:
        by_rank = dict(amount.by_rank)
        return tuple(by_rank.get(faces.rank[c], amount.constant) for c in range(len(deck.cards)))
    return (amount.constant,) * len(deck.cards)


def compile_reward(index: int, reward: Reward, deck: Deck, faces: Faces) -> CompiledReward:
    """Tables and test of one reward under `faces`."""
    amounts = amount_table(reward.amount, deck, faces)
    if reward.token is not None:  # points may be negative, a count of tokens may not
        amounts = tuple(max(0, n) for n in amounts)
    applies = static_table(reward.when, deck, faces)
    applies = tuple(a and n != 0 for a, n in zip(applies, amounts))
    token = POINTS if reward.token is None else reward.token
    partner = reward.winner_is_partner
    if reads_trick(reward.when):
        return CompiledReward(index, token, applies, None, amounts, reward.when, partner)
    return CompiledReward(index, token, applies, trick_test(reward.when, deck, faces), amounts, None, partner)


def _gains(rules: Sequence[CompiledReward], player: int, card: int, winner: int, led: int, trick: TrickView | None = None,
           partner: bool = True) -> list[Gain]:
    """The gains of `rules` for `player`, whose card is `card` (`partner`: whether it is on the
    winner's side this round)."""
    gains = []
    for rule in rules:
        if rule.applies[card] and (rule.test is None or rule.test(card, winner, led)):
            if rule.whole is not None and (trick is None or not card_holds(rule.whole, card, trick.deck, trick.faces, winner, led, trick)):
                continue
            if rule.partner is not None and rule.partner != partner:
                continue
            gains.append((player, rule.index, rule.token, rule.amount[card]))
    return gains


def compile_rewards(rewards: Sequence[Reward], deck: Deck, faces: Faces) -> TrickRewards:
    """One function giving every gain a trick brings, in hand-out order."""
    compiled = [compile_reward(i, r, deck, faces) for i, r in enumerate(rewards)]
    to_winner = [c for c, r in zip(compiled, rewards) if r.to == "winner"]
    to_losers = [c for c, r in zip(compiled, rewards) if r.to == "losers"]
    loser_cards = [any(c.applies[card] for c in to_losers) for card in range(len(deck.cards))]
    if any(c.whole is not None or c.partner is not None for c in compiled):
        return _whole_trick_rewards(to_winner, to_losers, loser_cards, deck, faces)

    def trick_rewards(cards: Sequence[int], players: Sequence[int], win_pos: int, led: int, number: int = 1,
                      last: bool = False, sides: Sequence[int] = ()) -> list[Gain]:
        winner = cards[win_pos]
        gains = _gains(to_winner, players[win_pos], winner, winner, led) if to_winner else []
        for position, card in enumerate(cards):
            if position != win_pos and loser_cards[card]:
                gains += _gains(to_losers, players[position], card, winner, led)
        return gains

    return trick_rewards


def _whole_trick_rewards(to_winner: list[CompiledReward], to_losers: list[CompiledReward], loser_cards: list[bool],
                         deck: Deck, faces: Faces) -> TrickRewards:
    """The rewards of a spec with a condition on the whole trick or on the winner's side: each
    trick gets a view, and each loser is told whether it is on the winner's side (`sides`: each
    seat's side this round; without them a player is on its own side alone)."""

    def trick_rewards(cards: Sequence[int], players: Sequence[int], win_pos: int, led: int, number: int = 1,
                      last: bool = False, sides: Sequence[int] = ()) -> list[Gain]:
        def places(cards: Sequence[int], led: int, ranking: tuple[RankingStep, ...]) -> list[int]:
            return trick_places(ranking, cards, led, deck, faces, number, last)

        winner = cards[win_pos]
        trick = TrickView(cards, led, deck, faces, win_pos, places, number, last)
        gains = _gains(to_winner, players[win_pos], winner, winner, led, trick) if to_winner else []
        side = sides[players[win_pos]] if sides else -1
        for position, card in enumerate(cards):
            if position != win_pos and loser_cards[card]:
                partner = bool(sides) and sides[players[position]] == side
                gains += _gains(to_losers, players[position], card, winner, led, trick, partner)
        return gains

    return trick_rewards
