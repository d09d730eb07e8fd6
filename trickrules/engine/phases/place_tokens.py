"""Phase: place gained tokens on sections of the tableau.

Rewards gain tokens after a trick. A token that goes to the tableau waits in this phase's
queue until it has a section: one with a single free section is placed at once; where
several sections have room, the token's owner chooses (action ``token <section>``).
This module owns the queue and the supply of each token kind (`Tokens`, for the round).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.placement import free_token_sections, free_token_spaces
from trickrules.rules.rewards import POINTS
from trickrules.rules.ruleset import UNLIMITED

from trickrules.engine.actions import ActionBlock, named

from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State


PLACE_TOKENS: Final = 2
"""This kind's `Phase` number."""


@dataclass
class Tokens:
    """The round's tokens off the tableau: those gained and waiting for a section, as
    (player, token kind) pairs in the order gained; the supply of each kind; and by kind the
    tokens that left the supply this round unplaced (no space)."""

    queue: list[tuple[int, int]]
    supply: list[int]
    lost: list[int]

    def __reduce__(self) -> tuple[type[Tokens], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.queue, self.supply, self.lost))

    def copy(self) -> Tokens:
        return Tokens(list(self.queue), list(self.supply), list(self.lost))


def tokens(state: State) -> Tokens:
    """The round's `Tokens` (empty ones in a game without tokens)."""
    own: Tokens | None = state.parts[PLACE_TOKENS]
    return own if own is not None else Tokens([], [], [])


def waiting(state: State) -> bool:
    """Whether gained tokens wait for a section (never in a game without tokens)."""
    if not state.game.has_tokens:
        return False
    own: Tokens = state.parts[PLACE_TOKENS]  # typed: read natively, not as any object
    return len(own.queue) > 0


class PlaceTokens(PhaseKind):
    """Place gained tokens on sections (action ``token <section>``)."""

    def used(self, game: Game) -> bool:
        return any(kind.to == "tableau" for kind in game.ruleset.tokens)

    def new_round(self, state: State) -> None:
        """Fill the supply and empty the queue of tokens waiting for a section."""
        rules = state.game.ruleset
        if rules.tokens:
            state.parts[PLACE_TOKENS] = Tokens([], [kind.supply for kind in rules.tokens], [0] * len(rules.tokens))

    def player(self, state: State) -> int:
        return tokens(state).queue[0][0]

    def legal(self, state: State) -> list[int]:
        player = tokens(state).queue[0][0]
        offset = state.game.token_offset
        return [offset + s for s in free_token_sections(state.section_tokens[player], state.game.tokens_needed)]

    def apply(self, state: State, action: int) -> None:
        put_token(state, action - state.game.token_offset)
        if not (waiting(state) and auto_place(state)):
            state.after_trick()


def _sections(game: Game) -> tuple[str, ...]:
    tableau = game.ruleset.tableau
    return tuple(s.name for s in tableau.sections) if tableau is not None else ()


KIND: Final[PlaceTokens] = PlaceTokens(PLACE_TOKENS, "", (ActionBlock(2, "token", lambda g: g.num_sections, named("token", _sections)),))


def gain(state: State, player: int, reward: int, token: int, amount: int) -> None:
    """Give `player` what reward number `reward` gains: points, or tokens from the supply."""
    if token == POINTS:
        state.bonus[player] += amount
        if state.events is not None:
            state.log("reward", player=player, reward=reward, token=None, amount=amount, taken=amount)
        return
    kind = state.game.ruleset.tokens[token]
    own = tokens(state)
    supply = own.supply[token]
    available = amount if supply == UNLIMITED or amount <= supply else supply
    taken = available
    if kind.to == "tableau":
        taken = min(available, _free_spaces(state, player, token))
        own.queue.extend([(player, token)] * taken)
        if kind.when_no_space == "lost":
            own.lost[token] += available - taken
            _take(state, token, available - taken)
    else:
        state.pool[player][token] += taken
    _take(state, token, taken)
    if state.events is not None:
        state.log("reward", player=player, reward=reward, token=token, amount=amount, taken=taken)


def _take(state: State, token: int, count: int) -> None:
    supply = tokens(state).supply
    if supply[token] != UNLIMITED:
        supply[token] -= count


def _free_spaces(state: State, player: int, token: int) -> int:
    queue = tokens(state).queue
    queued = queue.count((player, token)) if queue else 0
    return free_token_spaces(state.section_tokens[player], state.game.tokens_needed) - queued


def auto_place(state: State) -> bool:
    """Place queued tokens that have one possible section; True if a choice remains (and waits)."""
    needed = state.game.tokens_needed
    queue = tokens(state).queue
    while queue:
        player, _ = queue[0]
        free = free_token_sections(state.section_tokens[player], needed)
        if len(free) > 1:
            offset = state.game.token_offset
            enter(state, KIND, [offset + f for f in free])
            return True
        put_token(state, free[0])
    return False


def put_token(state: State, section: int) -> None:
    player, token = tokens(state).queue.pop(0)
    state.section_tokens[player][section] += 1
    if state.events is not None:
        state.log("token", player=player, token=token, section=section)
