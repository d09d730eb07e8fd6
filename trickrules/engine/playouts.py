"""Many games at once: a tight loop of legal actions and agents' choices, for simulations and
search.

`play_out` plays a state to its end with one agent per seat. A `RandomAgent`'s choice is made
here, from the state's own list of legal actions, with the agent's generator drawn exactly as
`RandomAgent.step` draws it; the action is then applied unchecked (`State.apply_legal`). Any
other agent is asked through the public API. The games are therefore the same as those of the
public-API loop (``legal_actions``, ``step``, ``apply_action``) for the same seeds, only faster;
``tests/test_playouts.py`` checks it for every shipped spec.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from trickrules.engine.agents import Agent, RandomAgent, make_agent
from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.engine.phases.play import PLAY

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State


def play_out(state: State, agents: Sequence[Agent], widths: list[int] | None = None) -> State:
    """Play `state` to the end, `agents[p]` choosing for seat `p`; returns the state.

    With a list `widths`, each decision appends its number of legal actions and where it was
    made, packed by `width` (read by `trickrules.tools.balance`)."""
    draws: list[Callable[[], float] | None] = [
        agent.rng.random if type(agent) is RandomAgent else None for agent in agents
    ]
    while state._kind is not TERMINAL_KIND:
        player = state.current_player()
        draw = draws[player]
        if widths is not None:
            widths.append(width(state))
        if draw is None:
            state.apply_action(agents[player].step(state))
        else:
            legal = state.legal_view()
            state.apply_legal(legal[int(draw() * len(legal))])
    return state


def width(state: State) -> int:
    """A decision's number of legal actions and place, packed: ``options * 512 + trick * 2 +
    follows``, where trick is the card play's trick number (0 for a decision that plays no
    card) and follows is 1 when a card is already in the trick."""
    options = len(state.legal_view())
    if state._kind.phase != PLAY:
        return options * 512
    return options * 512 + (state.tricks_played + 1) * 2 + (1 if state.trick else 0)


def unpack_width(packed: int) -> tuple[int, int, bool]:
    """(legal actions, trick number or 0, whether it follows) of a packed `width`."""
    return packed >> 9, (packed & 511) >> 1, bool(packed & 1)


def seat_agents(seats: Sequence[str | Agent], seed: int) -> list[Agent]:
    """The agents of the game with `seed` as `simulate` seats them: an agent named is new, its
    generator seeded with ``seed * 1000 + k`` for seat k; an agent object is itself."""
    return [make_agent(a, seed * 1000 + k) if isinstance(a, str) else a for k, a in enumerate(seats)]


def play_games(
    game: Game,
    n: Any,
    seed: Any = 0,
    agents: str | Agent | Sequence[str | Agent] = "random",
    record: bool = False,
    widths: list[list[int]] | None = None,
) -> Iterator[State]:
    """Play `n` games with seeds ``seed .. seed + n - 1`` and yield each finished state.

    `n` and `seed` are whole numbers (anything else is a ValueError, raised at the call, as
    are unknown agents). `agents` gives the agent of every seat, or one per seat. An agent named (``random``,
    ``greedy``) is new in every game, seeded as `simulate` seeds it (seat k of the game with
    seed s: ``s * 1000 + k``); an agent given as an object plays every game it is seated in,
    its generator running on from game to game. `record` keeps each game's event log. With a
    list `widths`, each game appends the list of its decisions' widths (see `play_out`). Every
    game is the one the public API gives for the same seed and agents.

    >>> game = trickrules.load_game("specs/hearts.yaml", options={"single_hand": True})
    >>> totals = [state.returns() for state in trickrules.play_games(game, 1000)]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"the number of games is a whole number, 0 or more, not {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"the first seed is a whole number, not {seed!r}")
    seats: list[str | Agent] = [agents] if isinstance(agents, str) or not isinstance(agents, Sequence) else list(agents)
    if len(seats) == 1:
        seats *= game.num_players
    if len(seats) != game.num_players:
        raise ValueError(f"{len(seats)} agents named for {game.num_players} players: name one, or one per seat")
    for name in seats:
        if isinstance(name, str):
            make_agent(name)  # an unknown name fails before the first game
    return _play(game, n, seed, seats, record, widths)


def _play(game: Game, n: int, seed: int, seats: list[str | Agent], record: bool, widths: list[list[int]] | None) -> Iterator[State]:
    named = any(isinstance(name, str) for name in seats)
    fixed = [name for name in seats if not isinstance(name, str)]
    players: list[Agent] = fixed if not named else []
    for number in range(seed, seed + n):
        if named:
            players = seat_agents(seats, number)
        counted: list[int] | None = None
        if widths is not None:
            counted = []
            widths.append(counted)
        yield play_out(game.new_initial_state(number, record=record), players, counted)
