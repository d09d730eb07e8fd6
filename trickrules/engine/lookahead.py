"""What `GreedyAgent` looks ahead at: the rest of the round, scored by the spec's own rules.

`playout_values` values each candidate action in a few worlds the player cannot tell from the
real one (`trickrules.engine.resample`): in each world the action is taken, then the round is
played out quickly (`quick_action`), and the candidate gains the acting player's *margin* at
the round's end: the change of its side's total (partners pool their points) less the mean
change of its opponents' (the sides as they stood at the round's end: a called partner or a
player going alone counts), negated in a game won by the fewest points; this is the reward
`trickrules.engine.ismcts` searches for. Every candidate is tried in the same worlds, the
playout of each drawing from the same random stream, so that two candidates differ only by
what they do.

A quick playout is cheap and plain: cards are random legal cards; whoever may speak up or pass
(a bid by precedence, a contract, an auction's call) passes, so that a bid or a contract is
valued as the one the round is played at, and a pass as the round without it (the holder of
the highest bid keeping it, or nobody declaring); a bid of tricks is the hand's worth
(`rollouts.bid_for_hand`); trumps and a contract that must be named are those the hand is
strongest under (`rollouts.trumps_for_hand`, `strongest_contract`); anything else is random.
Everything is read from the engine's own notions (phases, passes, sides, totals), never from a
game's name.

Why to the round's end and not only the rest of the trick: scored when its trick is over, a
card that wins the trick looks as good now as later, so a high card is spent at once; at
Meadows (the most sheep win the deal) that lost to the former greedy, which played its lowest
card unless it could take a trick at once, 42.1% [37.4, 47.0] over 400 deals, where the round's
end wins 57.2% [50.3, 63.9]. Random play after the card costs about twice as much as finishing
the trick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from trickrules.engine.phases.auction import AUCTION
from trickrules.engine.phases.bid import BID
from trickrules.engine.phases.choose_trumps import CHOOSE_TRUMPS
from trickrules.engine.phases.declare import DECLARE
from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.engine.phases.play import PLAY
from trickrules.engine.resample import constraints, deal
from trickrules.engine.rollouts import bid_for_hand, hand_worth, trumps_for_hand
from trickrules.engine.round_end import margins_of, opponents_of, points_since

if TYPE_CHECKING:
    from trickrules.engine.state import State

CARD_WORLDS = 4
"""The worlds a card is played out in (6 played no better in tournaments of 4 against 6)."""
CHOICE_WORLDS = 16
"""The worlds a bid, a contract or another choice of the round is played out in (a choice
made once a round, whose outcome varies more than a card's)."""

Teams = Sequence[Sequence[int]]


def playout_values(state: State, candidates: list[int], rng: random.Random, worlds: int) -> dict[int, float]:
    """By candidate action (each legal in `state`): the acting player's margin at the end of
    the round, summed over `worlds` worlds, each candidate played out quickly in each."""
    me = state.current_player()
    known = constraints(state, me)
    sums = dict.fromkeys(candidates, 0.0)
    for _ in range(worlds):
        world = deal(state, known, rng)
        stream = rng.getrandbits(32)
        for action in candidates:
            trial = world.clone()
            trial.apply_legal(action)
            teams = play_out_quickly(trial, state.round, random.Random(stream))
            sums[action] += margin(trial, state, me, teams)
    return sums


def play_out_quickly(state: State, round_number: int, rng: random.Random) -> Teams:
    """Play to the end of round `round_number` by `quick_action` (or while anyone may act: a
    position started with fewer cards than the round deals ends without one); the sides of
    the round as they stood before its end (the next round's may differ)."""
    teams = state.round_teams
    draw = rng.random
    while state._kind is not TERMINAL_KIND and state.round == round_number:
        teams = state.round_teams
        legal = state.legal_view()
        if not legal:
            break
        if state._kind.phase == PLAY or len(legal) == 1:
            state.apply_legal(legal[int(draw() * len(legal))])
        else:
            state.apply_legal(quick_action(state, legal, rng))
    return teams


def quick_action(state: State, legal: list[int], rng: random.Random) -> int:
    """A playout's action: a pass where one may speak up or pass; a bid of the hand's worth
    where each bids once; the trumps or the contract the hand is strongest under; else a
    random legal action (every card of the play)."""
    phase = state._kind.phase
    if phase != PLAY:
        game = state.game
        if phase in (BID, DECLARE) and game.turn_passes and game.choose_pass_action in legal:
            return game.choose_pass_action
        if phase == AUCTION:
            return legal[0]  # a pass
        if phase == BID:
            return bid_for_hand(state, legal)
        if phase == CHOOSE_TRUMPS:
            return trumps_for_hand(state, legal)
        if phase == DECLARE:
            return strongest_contract(state, legal)
    return legal[int(rng.random() * len(legal))]


def strongest_contract(state: State, legal: list[int]) -> int:
    """The contract under whose trumps and ranking the hand is worth the most tricks
    (`rollouts.hand_worth`; the first of equals)."""
    player = state.current_player()

    def worth(action: int) -> float:
        trial = state.clone()
        trial.apply_legal(action)
        return hand_worth(trial.hands[player], trial.tables.faces, trial.game.num_cards, trial.num_players)

    values = {a: worth(a) for a in legal}
    return max(legal, key=values.__getitem__)


def margin(trial: State, start: State, player: int, teams: Teams) -> float:
    """`player`'s margin in `trial` since `start` (`round_end.margins_of`, the sides those of
    `teams`): its points of the round of `start` less the mean of the players outside its side,
    negated where the fewest points win. The points are the change of the totals once that
    round is over, else the round's points so far (`round_end.score_now`, not final)."""
    gains = points_since(trial, start.totals, start.round)
    opponents = opponents_of(trial, teams)
    return margins_of(trial.game, gains, opponents)[player]
