"""Phase: place gained tokens on sections of the tableau.

Rewards gain tokens after a trick. A token that goes to the tableau waits in this phase's
queue until it has a section: one with a single free section is placed at once; where
several sections have room, the token's owner chooses (action ``token <section>``).
This module owns the queue and the supply of each token kind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trickrules.rules.placement import free_token_sections, free_token_spaces
from trickrules.rules.rewards import POINTS
from trickrules.rules.ruleset import UNLIMITED

from .kinds import PLACE_TOKENS

if TYPE_CHECKING:
    from trickrules.engine.state import State


def new_round(state: State) -> None:
    """Fill the supply and empty the queue of tokens waiting for a section."""
    rules = state.game.ruleset
    state.token_queue = []  # (player, token kind) pairs, in the order gained
    state.supply = [kind.supply for kind in rules.tokens]
    state.lost = [0] * len(rules.tokens)  # tokens that left the supply this round unplaced


def player(state: State) -> int:
    return state.token_queue[0][0]


def legal(state: State) -> list[int]:
    player = state.token_queue[0][0]
    offset = state.game.token_offset
    return [offset + s for s in free_token_sections(state.section_tokens[player], state.game.tokens_needed)]


def apply(state: State, action: int) -> None:
    put_token(state, action - state.game.token_offset)
    if not (state.token_queue and auto_place(state)):
        state.after_trick()


def gain(state: State, player: int, reward: int, token: int, amount: int) -> None:
    """Give `player` what reward number `reward` gains: points, or tokens from the supply."""
    if token == POINTS:
        state.bonus[player] += amount
        if state.events is not None:
            state.log("reward", player=player, reward=reward, token=None, amount=amount, taken=amount)
        return
    kind = state.game.ruleset.tokens[token]
    supply = state.supply[token]
    available = amount if supply == UNLIMITED or amount <= supply else supply
    taken = available
    if kind.to == "tableau":
        taken = min(available, _free_spaces(state, player, token))
        state.token_queue.extend([(player, token)] * taken)
        if kind.when_no_space == "lost":
            state.lost[token] += available - taken
            _take(state, token, available - taken)
    else:
        state.pool[player][token] += taken
    _take(state, token, taken)
    if state.events is not None:
        state.log("reward", player=player, reward=reward, token=token, amount=amount, taken=taken)


def _take(state: State, token: int, count: int) -> None:
    if state.supply[token] != UNLIMITED:
        state.supply[token] -= count


def _free_spaces(state: State, player: int, token: int) -> int:
    queued = state.token_queue.count((player, token)) if state.token_queue else 0
    return free_token_spaces(state.section_tokens[player], state.game.tokens_needed) - queued


def auto_place(state: State) -> bool:
    """Place queued tokens that have one possible section; True if a choice remains (and waits)."""
    needed = state.game.tokens_needed
    while state.token_queue:
        player, _ = state.token_queue[0]
        free = free_token_sections(state.section_tokens[player], needed)
        if len(free) > 1:
            offset = state.game.token_offset
            state._legal = [offset + f for f in free]
            state._phase = PLACE_TOKENS
            return True
        put_token(state, free[0])
    return False


def put_token(state: State, section: int) -> None:
    player, token = state.token_queue.pop(0)
    state.section_tokens[player][section] += 1
    if state.events is not None:
        state.log("token", player=player, token=token, section=section)
