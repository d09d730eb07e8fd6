"""How a search plays on to the end of a round: the rollout policy of `ISMCTSAgent`.

In most games a rollout plays uniformly random legal actions. In a game with bids, random
play takes tricks by chance and makes a search bid what random players would take, far below
what a hand is worth; there a rollout plays for the bids instead (`play_for_bids`): a player
bids what its hand is worth (`estimate_tricks`, as `GreedyAgent` bids), and plays to take tricks
while its side has fewer than it bid (cheapest winning card; on lead its best card) and to lose
them after, or when it bid nothing (highest card that loses; on lead its lowest). One action in
`RANDOM_SHARE` is random all the same, so that rollouts still vary. Everything is read from
the engine's own notions (bids, sides, the trick ranking), never from a game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from trickrules.engine.phases import bid
from trickrules.engine.phases.bid import BID
from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.engine.phases.play import PLAY
from trickrules.engine.round_end import side_of

if TYPE_CHECKING:
    from trickrules.engine.state import State
    from trickrules.rules.faces import Faces

RANDOM_SHARE = 0.2
"""The share of a bid-playing rollout's actions that are uniformly random."""

Rollout = Callable[["State", int, random.Random], None]
"""Plays a state on to the end of round `round_number` (or of the game)."""


def rollout_for(state: State) -> Rollout:
    """The rollout for the game of `state`: playing for bids where the game has them."""
    return play_for_bids if state.game.bidding is not None else play_randomly


def play_randomly(state: State, round_number: int, rng: random.Random) -> None:
    """Random legal actions to the end of the round, as `play_out` plays a random agent."""
    draw = rng.random
    while state._kind is not TERMINAL_KIND and state.round == round_number:
        legal = state.legal_view()
        state.apply_legal(legal[int(draw() * len(legal))])


def play_for_bids(state: State, round_number: int, rng: random.Random) -> None:
    """To the end of the round: bid a hand's worth, then play to take the tricks bid."""
    draw = rng.random
    while state._kind is not TERMINAL_KIND and state.round == round_number:
        legal = state.legal_view()
        phase = state._kind.phase
        if len(legal) == 1 or draw() < RANDOM_SHARE or phase not in (PLAY, BID):
            action = legal[int(draw() * len(legal))]
        elif phase == BID:
            action = bid_for_hand(state, legal)
        else:
            action = _card_for_bid(state, legal)
        state.apply_legal(action)


def bid_for_hand(state: State, legal: list[int]) -> int:
    """The legal bid nearest the tricks the current player's hand is worth (lower on a tie)."""
    wanted = round(estimate_tricks(state, state.current_player()))
    offset = state.game.bid_offset
    return min(legal, key=lambda a: (abs(a - offset - wanted), a))


def _card_for_bid(state: State, legal: list[int]) -> int:
    """The card for the player's bid: take tricks while its side needs them, else shed them."""
    player, tables = state.current, state.tables
    faces = tables.faces
    power = {c: (faces.is_trump[c], faces.rank[c]) for c in legal}
    side = side_of(state.round_teams, player)
    bids = bid.bids(state)
    wants = bids[player] != 0 and sum(state.tricks_won[p] for p in side) < sum(b or 0 for b in (bids[p] for p in side))
    trick = state.trick
    if not trick:
        return max(legal, key=power.__getitem__) if wants else min(legal, key=power.__getitem__)
    led, size = state.led, len(trick)
    number = state.tricks_played + 1  # what a ranking step's trick condition reads
    last = number == state.hand_size
    winning = [c for c in legal if tables.trick_winner([*trick, c], led, number, last) == size]
    if wants:
        holder = state.trick_players[tables.trick_winner(trick, led, number, last)]
        if holder in side and bids[holder] != 0:
            return min(legal, key=power.__getitem__)  # a partner has it: waste nothing
        return min(winning or legal, key=power.__getitem__)
    losing = [c for c in legal if c not in winning]
    return max(losing, key=power.__getitem__) if losing else min(legal, key=power.__getitem__)


def estimate_tricks(state: State, player: int) -> float:
    """The tricks a hand is likely to take: trumps and high cards count, by their rank.

    A card's worth grows with its rank's place among the deck's ranks (0 for the lowest, 1 for
    the highest): a plain card counts the place to the 8th power (an ace 1, a king of thirteen
    ranks about a half, the rest little), a trump 0.35 plus 0.65 times its place squared (every
    trump may take a trick). The sum is scaled so that all hands together are expected to take
    every trick: a hand of average cards is worth its share, the hand size over the players.
    """
    return hand_worth(state.hands[player], state.tables.faces, state.game.num_cards, state.num_players)


def hand_worth(hand: list[int], faces: Faces, num_cards: int, players: int) -> float:
    """The tricks `hand` is likely to take under the trumps of `faces` (see `estimate_tricks`)."""
    ranks = sorted({faces.rank[c] for c in range(num_cards)})
    low, high = ranks[0], ranks[-1]
    span = max(1, high - low)

    def value(card: int) -> float:
        place = (faces.rank[card] - low) / span
        return 0.35 + 0.65 * place**2 if faces.is_trump[card] else place**8

    average = sum(value(c) for c in range(num_cards)) / num_cards
    total = sum(value(card) for card in hand)
    return total / (players * average) if average > 0 else total


def trumps_for_hand(state: State, legal: list[int]) -> int:
    """The suit under which the hand as it is now is worth the most tricks (`hand_worth`), if
    it is worth at least its share of them (its cards over the players); else a pass, where
    passing is allowed."""
    game, player = state.game, state.current_player()
    hand = state.hands[player]
    passing = game.choose_pass_action
    worth = {a: hand_worth(hand, game.tables(frozenset([a - game.trump_offset])).faces, game.num_cards, state.num_players)
             for a in legal if a != passing}
    best = max(worth, key=lambda a: (worth[a], -a)) if worth else passing
    if passing in legal and (not worth or worth[best] < len(hand) / state.num_players):
        return passing
    return best
