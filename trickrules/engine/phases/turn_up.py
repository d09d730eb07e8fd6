"""Phase: turn up the next card of the deck after the deal; its suit is trump.

No decision is made here: the card is the first one not dealt (or the one a given deal
names); with no card left there are no trumps. The card stays out of play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.rules.ruleset import TurnedUp

if TYPE_CHECKING:
    from trickrules.engine.state import State


def start(state: State) -> None:
    """Turn the card up and make its suit the trump suit."""
    game = state.game
    given = state.given.outcome("turn_up") if state.given is not None else None
    card = game.card_index(given) if given is not None else (state.stock[0] if state.stock else -1)
    state.turned_up = card
    if state.events is not None:
        state.log("turn_up", card=card)
    if not isinstance(game.ruleset.trumps, TurnedUp):
        return  # the card is only shown (e.g. proposed for trumps to a choosing phase)
    if card < 0:
        state.set_trumps(frozenset())
        return
    state.set_trumps(frozenset([game.tables(frozenset()).faces.suit[card]]))
