"""Phase: lay the cards of a won trick on the winner's tableau.

Cards of one counting suit share a section; laying a card decides the order of its whole
suit in this trick (the others go beneath it in play order), so the winner chooses only
which card of a suit lies on top and which new suit opens a section first (action
``place <card>``); every placement with one possible outcome is made at once.
This module owns the queue of cards still to lay and whose they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.rules.placement import forced_cards, section_for

from .kinds import PLACE_CARDS

if TYPE_CHECKING:
    from trickrules.engine.state import State


def new_round(state: State) -> None:
    state.place_queue = []  # the won trick's cards not laid yet
    state.place_player = 0  # whose tableau they go to


def player(state: State) -> int:
    return state.place_player


def legal(state: State) -> list[int]:
    offset = state.game.place_offset
    return [offset + c for c in state.place_queue]


def apply(state: State, action: int) -> None:
    lay(state, state.place_player, suit_group_under(state, action - state.game.place_offset))
    state.after_trick()


def start(state: State, winner: int, cards: list[int]) -> None:
    """Queue a won trick's cards for `winner`'s tableau."""
    state.place_queue = list(cards)
    state.place_player = winner


def place_forced(state: State) -> bool:
    """Lay every card whose place is forced; True if a choice remains (and waits)."""
    queue = state.place_queue
    if not queue:
        return False
    player = state.place_player
    lay(state, player, forced_cards(queue, state.tables.faces.suit, state.section_suits[player]))
    if len(queue) == 1:
        lay(state, player, queue[:])
    if not queue:
        return False
    state._phase = PLACE_CARDS
    offset = state.game.place_offset
    state._legal = [offset + c for c in queue]
    return True


def suit_group_under(state: State, card: int) -> list[int]:
    """The cards of `card`'s suit still to be laid, in play order, with `card` last (on top).

    Only a stack's top card and its set of cards ever count, so laying a card decides the
    order of its whole suit in this trick: the others go beneath it in the order played.
    """
    suit_of = state.tables.faces.suit
    suit = suit_of[card]
    return [c for c in state.place_queue if suit_of[c] == suit and c != card] + [card]


def lay(state: State, player: int, cards: list[int]) -> None:
    """Lay won cards on the player's tableau in order (the pile when no section is left)."""
    queue, suit_of = state.place_queue, state.tables.faces.suit
    row, stacks = state.section_suits[player], state.stacks[player]
    for card in cards:
        queue.remove(card)
        suit = suit_of[card]
        section = row.index(suit) if suit in row else section_for(suit, row)
        if section < 0:
            state.piles[player].append(card)
        else:
            row[section] = suit
            stacks[section].append(card)
        if state.events is not None:
            state.log("place", player=player, card=card, section=section)
