"""Phase: play the round's tricks, one card per action (``play <card>``).

The leader plays any card; the others play what the follow rules allow. When the trick is
full it is resolved: the ranking names the winner, rewards are gained, and the won cards go
to the winner's pile or wait to be laid on the tableau. Playing a card itself is inlined in
`State.apply_action` (it is the most frequent action of all); this module holds the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import place_cards, place_tokens
from .kinds import PLAY

if TYPE_CHECKING:
    from trickrules.engine.state import State


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    hand = state.hands[state.current]
    return list(hand) if not state.trick else state.tables.legal_follow(hand, state.led)


def apply(state: State, action: int) -> None:
    raise AssertionError("playing a card is inlined in State.apply_action")


def resolve_trick(state: State) -> None:
    """Find the trick's winner, gain its rewards, and send the won cards on their way."""
    tables, cards, players = state.tables, state.trick, state.trick_players
    position = tables.trick_winner(cards, state.led)
    winner = players[position]
    state.tricks_won[winner] += 1
    state.tricks_played += 1
    if state.events is not None:
        state.log("trick", leader=players[0], cards=list(cards), players=list(players), winner=winner)
    if tables.trick_rewards is not None:
        for gain in tables.trick_rewards(cards, players, position, state.led):
            place_tokens.gain(state, *gain)
    if state.game.won_to_pile:
        state.piles[winner].extend(cards)
    else:
        place_cards.start(state, winner, cards)
    state.leader = winner
    state.trick = []
    state.trick_players = []
    after_trick(state)


def after_trick(state: State) -> None:
    """Make the forced placements, then wait for the next decision or end the round."""
    if state.token_queue and place_tokens.auto_place(state):
        return
    if state.place_queue and place_cards.place_forced(state):
        return
    if state.tricks_played == state.hand_size:
        state.end_round()
        return
    state._phase = PLAY
    state.current = state.leader

