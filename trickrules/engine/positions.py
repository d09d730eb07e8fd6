"""Start a game at a position: a point in a round's play, stated as a rulebook example states it.

    >>> import trickrules
    >>> from trickrules.engine.positions import Position, start_at
    >>> game = trickrules.load_game("hearts")
    >>> state = start_at(game, Position(trick_number=2, counters={"broken": 0},
    ...                                 hands={0: ["hearts-A", "clubs-9", "spades-Q"]}))
    >>> [state.action_to_string(a) for a in state.legal_actions()]
    ['play clubs-9', 'play spades-Q']

The state is in the play phase of round `Position.round`, with the given hands (every other
hand empty), the given seat to lead trick `trick_number`, and the trumps, counters, won cards,
trick counts, token supply and tableau as given; nothing else has happened in the round (the
hands as dealt, which measures of dealt cards read, are the given hands, and so are the teams
a spec forms by the deal). From there it plays
as any state: apply the cards of a trick, ask the legal actions, read the rewards. A position
names cards by their ids (``hearts-A``) and seats by number; anything the spec does not have is
refused with a `PositionError` that names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trickrules.engine import partners
from trickrules.engine.phases import PARTS, STEPS, new_round, place_tokens, play
from trickrules.engine.phases.kinds import enter
from trickrules.errors import TrickrulesError
from trickrules.rules.placement import NO_SUIT

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State

__all__ = ["Position", "PositionError", "start_at"]


class PositionError(TrickrulesError, ValueError):
    """A position the game cannot take: a card, seat, counter, token or section it does not have."""


@dataclass(frozen=True)
class Position:
    """A point in a round's play. Every field is optional; an empty `Position()` is the first
    trick of round 1 with empty hands, seat 0 to lead."""

    round: int = 1
    """The round (from 1): its dealer and the rounds' own values are round N's; totals are 0."""
    leader: int = 0
    """The seat that leads the trick."""
    trick_number: int = 1
    """The trick about to be played (from 1): what expressions read as `trick`."""
    trumps: Sequence[str] | None = None
    """The trump suits by name (None: as the round's start sets them; [] for none)."""
    hands: Mapping[int, Sequence[str]] = field(default_factory=dict)
    """Each seat's cards by id; seats not named hold nothing."""
    counters: Mapping[str, int | Sequence[int]] = field(default_factory=dict)
    """Counter values (a list, by player or team, for a player or team counter)."""
    won: Mapping[int, Sequence[str]] = field(default_factory=dict)
    """The cards each seat has won so far this round."""
    tricks_won: Mapping[int, int] = field(default_factory=dict)
    """The tricks each seat has won so far this round."""
    supply: Mapping[str, int] = field(default_factory=dict)
    """Tokens left in the supply, by token name."""
    tableau: Mapping[int, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    """Each seat's tableau sections: ``{seat: {section: {cards: [...], tokens: N}}}``."""
    deal: Any = None
    """A given deal (as `Game.new_initial_state` takes) to start from instead of seed 0's."""


def start_at(game: Game, position: Position) -> State:
    """A recorded state (its log starting empty) at `position`; see the module's description."""
    state = new_round_state(game, position.round, position.deal)
    n = game.num_players
    state.hands = [[] for _ in range(n)]
    state.set_aside = []
    state.parts = [None] * PARTS  # nothing has happened in the round: every phase's part as a round starts
    new_round(state)
    enter(state, play.KIND)
    state._step = next(i for i, step in enumerate(game.steps) if STEPS.get(step.kind) is play.KIND)  # the round goes on after the play
    if position.trumps is not None:
        suits = game.ruleset.deck.suits
        unknown = [s for s in position.trumps if s not in suits]
        if unknown:
            raise PositionError(f"no suit {unknown[0]!r} in the deck (suits: {', '.join(suits)})")
        state.set_trumps(frozenset(suits.index(s) for s in position.trumps))
    state.leader = state.current = _seat(game, position.leader)
    number = position.trick_number
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= state.hand_size:
        raise PositionError(f"trick_number {number!r}: a trick number from 1 to {state.hand_size}")
    state.tricks_played = number - 1
    for name, value in position.counters.items():
        if name not in state.counters:
            raise PositionError(f"no counter {name!r} in the spec (counters: {', '.join(state.counters) or 'none'})")
        state.counters[name] = list(value) if isinstance(value, Sequence) else value
    for seat, cards in position.hands.items():
        state.hands[_seat(game, seat)] = sorted(_card(game, c) for c in cards)
    state.dealt = (*[tuple(hand) for hand in state.hands], ())  # as dealt: the position's hands
    if game.ruleset.partner_cards:  # teams by the deal: the holders among the position's hands
        state.round_teams = partners.teams_at_deal(state)
    tokens = [t.name for t in game.ruleset.tokens]
    for name, count in position.supply.items():
        if name not in tokens:
            raise PositionError(f"no token {name!r} in the spec (tokens: {', '.join(tokens) or 'none'})")
        place_tokens.tokens(state).supply[tokens.index(name)] = int(count)
    for seat, sections in position.tableau.items():
        _set_tableau(game, state, _seat(game, seat), sections)
    for seat, cards in position.won.items():
        state.piles[_seat(game, seat)] = [_card(game, c) for c in cards]
    for seat, count in position.tricks_won.items():
        state.tricks_won[_seat(game, seat)] = int(count)
    state.changed()
    state.events = []
    return state


def new_round_state(game: Game, number: int, deal: Any = None) -> State:
    """A new recorded game (seed 0, or the given deal) started at round `number` (from 1): the
    rounds before it are as if they had not happened (totals 0); its log starts empty."""
    rounds = game.ruleset.rounds
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= rounds:
        raise PositionError(f"round {number!r}: a round number from 1 to {rounds}")
    if deal is not None and number > 1:
        given = [deal] if isinstance(deal, dict) else deal
        if isinstance(given, list) and given:
            deal = [given[0]] * (number - 1) + given  # the given deal is round N's
    state = game.new_initial_state(0, record=True, deal=deal)
    if number > 1:
        state.round = number - 1
        state._start_round()
    state.events = []
    return state


def _seat(game: Game, seat: Any) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.num_players:
        raise PositionError(f"seat {seat!r}: a seat from 0 to {game.num_players - 1}")
    return seat


def _card(game: Game, card_id: str) -> int:
    try:
        return game.card_index(card_id)
    except KeyError:
        raise PositionError(f"no card {card_id!r} in the deck") from None


def _set_tableau(game: Game, state: State, seat: int, sections: Mapping[str, Mapping[str, Any]]) -> None:
    tableau = game.ruleset.tableau
    if tableau is None:
        raise PositionError("the spec has no tableau")
    names = [s.name for s in tableau.sections]
    faces = state.tables.faces
    for name, content in sections.items():
        if name not in names:
            raise PositionError(f"no section {name!r} in the tableau (sections: {', '.join(names)})")
        index = names.index(name)
        cards = [_card(game, c) for c in content.get("cards", [])]
        state.stacks[seat][index] = cards
        state.section_suits[seat][index] = faces.suit[cards[0]] if cards else NO_SUIT
        state.section_tokens[seat][index] = int(content.get("tokens", 0))
