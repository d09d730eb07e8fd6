"""The measures that read a holding (`trickrules.rules.measures.Holding`), taken at scoring.

The cards a holding reads are a player's won cards, its hand as dealt (`State.dealt`, kept
from the deal on) or the hand it played the round with (its cards at scoring and those it
played to tricks); with `per: team`, the cards of the player's whole team (a comparison of
melds, `Meld.best`, reads each hand apart and gives the team its best key); with `set_aside`,
the cards dealt to no one among the declarer's. A run without a list of cards orders the
cards its condition matches by the round's ranking, highest first, under the trumps at scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from trickrules.engine.phases import call
from trickrules.rules.conditions import card_holds
from trickrules.rules.measures import Measure, holding_value, meld_count
from trickrules.rules.ranking import ranking_keys

if TYPE_CHECKING:
    from trickrules.engine.state import State
    from trickrules.rules.faces import Faces
    from trickrules.rules.ruleset import CardCondition, Deck


def reads_holdings(measures: Sequence[Measure]) -> bool:
    """Whether any of `measures` reads a holding (and so is taken by `fill_holdings`)."""
    return any(m.holding is not None for m in measures)


def fill_holdings(state: State, measures: list[list[int]], won: Sequence[Sequence[int]], final: bool = True) -> None:
    """Put each holding measure's value in `measures` (by player, by measure), `won` being each
    player's won cards as scoring counts them. Unless `final` (the round scored before its end,
    as a learning environment's early reward does), a measure of dealt or held cards reads 0:
    no player learns another's hand from it."""
    rules = state.play_game.ruleset
    read: dict[tuple[str, str, bool], list[list[int] | None]] = {}  # the cards each way of reading reads
    for index, measure in enumerate(rules.scoring.measures):
        holding = measure.holding
        if holding is None:
            continue
        if not final and holding.of != "won":
            for row in measures:
                row[index] = 0
            continue
        faces = state.tables.faces
        deck = rules.deck
        matching = holding.matching
        matches: Callable[[int], bool]
        if measure.kind == "called":  # the card called this round, if any
            matches = frozenset([call.called_card(state)]).__contains__
        elif matching is None:
            matches = _anything
        else:
            matches = _matching_cards(matching, deck, faces).__contains__
        order: Sequence[int] = ()
        if measure.kind == "run":
            order = holding.order if holding.order is not None else _ranked(state, measure)
        attribute = None if measure.attribute is None else deck.columns[measure.attribute]
        best = holding.meld is not None and bool(holding.meld.best)  # each hand compared apart, a team by its best
        reads = (holding.of, "player" if best else holding.per, holding.set_aside)
        if reads not in read:
            read[reads] = _cards_by_player(state, measure, won, reads[1])
        for player, cards in enumerate(read[reads]):
            if cards is None:
                measures[player][index] = 0
            elif holding.meld is not None:
                measures[player][index] = meld_count(holding.meld, cards, faces.suit, faces.rank, state.trumps, len(deck.suits))
            else:
                measures[player][index] = holding_value(measure, cards, matches, order, attribute)
        if best and holding.per == "team":
            for player in range(len(measures)):
                side = _side(state.round_teams, player)
                measures[player][index] = max(measures[seat][index] for seat in side) if side[0] == player else 0


def _anything(card: int) -> bool:
    return True


_MATCHING: dict[tuple[int, int], tuple[CardCondition, Faces, frozenset[int]]] = {}
"""The cards a measure's condition matches, by the condition and the counting faces (kept
with them, so that an id is never read for another object)."""


def _matching_cards(condition: CardCondition, deck: Deck, faces: Faces) -> frozenset[int]:
    """The cards of `deck` that `condition` (which reads the card alone) matches under `faces`."""
    key = (id(condition), id(faces))
    known = _MATCHING.get(key)
    if known is not None and known[0] is condition and known[1] is faces:
        return known[2]
    if len(_MATCHING) > 512:
        _MATCHING.clear()
    found = frozenset(card for card in range(len(deck.cards)) if card_holds(condition, card, deck, faces))
    _MATCHING[key] = (condition, faces, found)
    return found


def _cards_by_player(state: State, measure: Measure, won: Sequence[Sequence[int]], per: str) -> list[list[int] | None]:
    """The cards the measure reads for each player, or `per` team (None: a team's seat after its first)."""
    holding = measure.holding
    assert holding is not None
    n = state.num_players
    own = [_own_cards(state, holding.of, won, p) for p in range(n)]
    sides: list[tuple[int, ...]] = [(p,) for p in range(n)]
    if per == "team":
        sides = [_side(state.round_teams, p) for p in range(n)]
    result: list[list[int] | None] = []
    for player in range(n):
        side = sides[player]
        if side[0] != player:
            result.append(None)
            continue
        cards = [card for seat in side for card in own[seat]]
        if holding.set_aside and state.declarer in side:
            cards += state.dealt[n] if len(state.dealt) > n else ()
        result.append(cards)
    return result


def _own_cards(state: State, of: str, won: Sequence[Sequence[int]], player: int) -> Sequence[int]:
    if of == "won":
        return won[player]
    if of == "dealt":
        return state.dealt[player] if player < len(state.dealt) else ()
    if of == "last_trick":  # for its winner, who leads next (`State.leader`): the last cards it took
        if state.tables.kept and state.tricks and state.leader == player:  # not a kept card gone back, nor an exchange
            return [card for card in state.tricks[-1][0] if card in state.piles[player]]
        return state.piles[player][-state.trick_size:] if state.tricks and state.leader == player else ()
    if of == "left":
        return state.stock if player == state.declarer else ()
    played = [card for cards, who in [*state.tricks, (state.trick, state.trick_players)] for card, p in zip(cards, who) if p == player]
    return [*state.hands[player], *played]


def _side(teams: Sequence[Sequence[int]], player: int) -> tuple[int, ...]:
    """`player`'s team, its first seat first (`player` alone outside every team)."""
    return next((tuple(team) for team in teams if player in team), (player,))


def _ranked(state: State, measure: Measure) -> list[int]:
    """The cards a run's condition matches, highest first by the round's ranking (card
    order among equals)."""
    holding = measure.holding
    assert holding is not None and holding.matching is not None
    rules = state.play_game.ruleset
    faces = state.tables.faces
    keys, _, _ = ranking_keys(rules.ranking, rules.deck, faces)
    cards = [c for c in range(len(rules.deck.cards)) if card_holds(holding.matching, c, rules.deck, faces)]
    return sorted(cards, key=lambda card: (-keys[card], card))
