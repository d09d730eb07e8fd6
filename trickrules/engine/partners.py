"""Teams found by the deal (`teams: {holders_of: ...}`): the players dealt any copy of the
partner cards against the others, and what each player knows of them.

The round's teams (`State.round_teams`) are worked out once the cards are dealt: the holders'
team first, then the others. They are hidden: a player knows its own side from its own hand
(it holds a partner card or not), and learns that another player is a holder when that player
plays a partner card. Once every partner card is in its own hand or played, it knows every
side. Nothing here reads `round_teams` to say what a player knows: the observation, the tensor
and the resampler ask `known_sides`, which reads the hands and the cards played alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trickrules.engine.state import State

__all__ = ["UNKNOWN", "dealt_hands", "holders", "known_sides", "sides", "teams_at_deal"]

UNKNOWN = -1
"""In `known_sides`: a seat whose side the player cannot tell yet."""


def played_cards(state: State) -> list[list[int]]:
    """The cards each seat played this round, finished tricks and the current one."""
    played: list[list[int]] = [[] for _ in range(state.num_players)]
    for cards, players in [*state.tricks, (state.trick, state.trick_players)]:
        for card, player in zip(cards, players):
            played[player].append(card)
    return played


def dealt_hands(state: State) -> list[list[int]]:
    """Each seat's cards as dealt: the hand it holds and the cards it played this round."""
    return [hand + played for hand, played in zip(state.hands, played_cards(state))]


def holders(state: State) -> tuple[int, ...]:
    """The seats dealt a partner card this round."""
    cards = state.play_game.ruleset.partner_cards
    return tuple(p for p, hand in enumerate(dealt_hands(state)) if any(card in cards for card in hand))


def teams_at_deal(state: State) -> tuple[tuple[int, ...], ...]:
    """The round's teams by the deal: the holders first, then the others (one team when no one,
    or everyone, holds a partner card)."""
    found = holders(state)
    others = tuple(p for p in range(state.num_players) if p not in found)
    return tuple(team for team in (found, others) if team)


def sides(state: State) -> tuple[int, ...]:
    """Each seat's team this round, by index into `round_teams` (the engine's own reading)."""
    teams = state.round_teams
    return tuple(next((i for i, team in enumerate(teams) if p in team), -1 - p) for p in range(state.num_players))


def known_sides(state: State, player: int) -> list[int]:
    """What `player` knows of each seat's side now: 0 its own side, 1 the other side, `UNKNOWN`.

    It knows its own side (whether its hand held a partner card), every seat that played a
    partner card (a holder), and every side once each partner card is in its own dealt hand or
    played: then the seats not known as holders are the others."""
    cards = state.play_game.ruleset.partner_cards
    played = played_cards(state)
    own = state.hands[player] + played[player]
    holder = any(card in cards for card in own)
    seen = {card for card in own if card in cards}
    known = [UNKNOWN] * state.num_players
    known[player] = 0
    for seat, plays in enumerate(played):
        shown = [card for card in plays if card in cards]
        if shown:
            seen.update(shown)
            known[seat] = 0 if holder else 1
    if len(seen) == len(cards):  # every partner card accounted for: the rest are the others
        for seat in range(state.num_players):
            if known[seat] == UNKNOWN:
                known[seat] = 1 if holder else 0
    return known
