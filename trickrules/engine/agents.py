"""Agents: anything that picks an action for the current player.

`RandomAgent` picks uniformly; `GreedyAgent` works for any spec: it prefers the action that
gains the most points and tokens at once, and otherwise plays its lowest card.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from trickrules.engine.state import State


@runtime_checkable
class Agent(Protocol):
    """Picks one of `state.legal_actions()` for `state.current_player()`."""

    name: str

    def step(self, state: State) -> int:
        """The action to take in `state`."""
        ...


class RandomAgent:
    """Uniformly random legal actions from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """A uniformly random legal action."""
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


class GreedyAgent:
    """Takes the action with the best immediate gain for itself; otherwise plays low.

    The gain of an action is the change, for the acting player, in tricks won, tokens held
    and points of rewards, measured by trying the action on a copy of the state until the
    next decision of another player. Ties go to the lowest-ranked card.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """The action with the best immediate gain, lowest card first among equals."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = state.current_player()
        before = _standing(state, player)
        faces = state.tables.faces
        num_cards = state.game.num_cards

        def score(action: int) -> tuple[float, float]:
            trial = state.clone()
            trial.apply_action(action)
            gain = _standing(trial, player) - before
            rank = faces.rank[action] if action < num_cards else 0
            return gain, -rank

        return max(legal, key=score)


def _standing(state: State, player: int) -> float:
    """Tokens, tricks and points a player holds now (a rough value of the position)."""
    tokens = sum(state.pool[player]) + sum(state.section_tokens[player])
    return tokens + 0.5 * state.tricks_won[player] + state.bonus[player] + state.totals[player]


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}
"""Agent classes by the name used on the command line."""


def make_agent(name: str, seed: int = 0) -> Agent:
    """A new agent of the kind `name` (``random`` or ``greedy``)."""
    try:
        return AGENTS[name](seed)  # type: ignore[return-value]
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})") from None
