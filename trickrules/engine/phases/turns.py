"""One turn order for every phase: who starts, who follows, how many speak, where passes go.

A phase starts with the seat the spec names (`first`: the dealer, the seat left of the dealer,
a fixed seat), or, when that seat sits out the round, the next seat that takes part. Each turn
goes to the next seat taking part (`State.next_seat`, which skips the seats sitting out), and a
phase in which everyone speaks once is over after `speakers` turns. A seat that sits out is
never asked to decide anything, in any phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trickrules.engine.state import State


def starting_seat(first: str, seat: int, dealer: int, players: int) -> int:
    """The seat a phase starts with at a full table: the ``dealer``, the player after the
    dealer (``left_of_dealer``), or a fixed ``seat``."""
    if first == "seat":
        return seat
    return (dealer + (0 if first == "dealer" else 1)) % players


def first_to_act(state: State, first: str, seat: int = 0) -> int:
    """The seat a phase starts with this round: as `starting_seat`, moved on past a seat that
    sits out."""
    start = starting_seat(first, seat, state.dealer, state.num_players)
    return state.next_seat[start] if start in state.sitting_out else start


def after(state: State, player: int) -> int:
    """The seat whose turn follows `player`'s."""
    return state.next_seat[player]


def speakers(state: State) -> int:
    """How many seats take part in the round: the turns of a phase where each speaks once."""
    return state.num_players - len(state.sitting_out)


def nth_after(state: State, first: int, turns: int) -> int:
    """The seat `turns` turns after `first`."""
    seat = first
    for _ in range(turns % speakers(state)):
        seat = state.next_seat[seat]
    return seat


def receivers(state: State, offset: int) -> list[int]:
    """Where each seat's passed cards go: `offset` seats on among the seats taking part (a seat
    sitting out receives nothing, and gives nothing)."""
    return [p if p in state.sitting_out else nth_after(state, p, offset) for p in range(state.num_players)]
