"""A spec as a PettingZoo AEC environment: seats take turns, each sees its observation tensor
and an action mask, rewards come from the spec's points.

Agents are ``player_0`` to ``player_{n-1}`` (seat k is ``player_k``). An agent's observation
is a dict: ``observation``, its `State.observation_tensor` as float32 (the layout is
`Game.observation_layout()`), and ``action_mask``, int8 with a 1 for each legal action
(all zeros when it is not the agent's turn). Actions are the game's action integers
(`Game.action_to_string` names them). `reset(seed=s)` deals the game with seed ``s``, as
``game.new_initial_state(s)`` does; a reset without a seed takes the next seed from a
generator seeded by the last seed given.

An illegal action raises `IllegalActionError` and changes nothing (the same agent is still to
act, no reward is paid), as the engine does; to end the game with a penalty instead, wrap the
environment in PettingZoo's ``TerminateIllegalWrapper``.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from trickrules.engine.game import Game, as_seed
from trickrules.engine.state import State
from trickrules.errors import EnvSetupError, UnknownAgentError
from trickrules.learning.rewards import Rewards

RENDER_MODES = ("ansi", "human")


def observation_space(game: Game) -> spaces.Dict:
    """The observation space of every seat: the tensor (a Box) and the action mask."""
    layout = game.observation_layout()
    low = np.array(layout.low(), dtype=np.float32)
    high = np.array(layout.high(), dtype=np.float32)
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_distinct_actions(),), dtype=np.int8),
        }
    )


def observe(state: State, seat: int, size: int) -> dict[str, np.ndarray]:
    """`seat`'s observation of `state`: its tensor and its action mask."""
    return {"observation": tensor_array(state, seat), "action_mask": action_mask(state, seat, size)}


def action_mask(state: State, seat: int, size: int) -> np.ndarray:
    """`seat`'s legal actions in `state` as a 0/1 int8 mask over the game's `size` actions (all
    zeros when another seat is to act)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.current_player() == seat:
        mask[state.legal_view()] = 1
    return mask


def tensor_array(state: State, seat: int) -> np.ndarray:
    """`seat`'s observation tensor of `state` as a new, writable float32 array: written into
    an ``array("f")`` of zeros that the NumPy array then shares, never a list converted number
    by number."""
    layout = state.game.observation_layout()
    zeros = _ZEROS.get(layout.size)
    if zeros is None:
        zeros = _ZEROS[layout.size] = bytes(4 * layout.size)
    out = array("f", zeros)
    layout.write(state, seat, out)
    return np.frombuffer(out, dtype=np.float32)


_ZEROS: dict[int, bytes] = {}
"""The bytes of a tensor of zeros, by size."""


class TrickEnv(AECEnv):  # type: ignore[misc]
    """A game of a spec as a PettingZoo AEC environment (make one with `trickrules.env`)."""

    metadata = {"name": "trickrules_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, game: Game, reward: str = "game", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EnvSetupError(f"unknown render mode {render_mode!r} (modes: {', '.join(RENDER_MODES)})")
        self.game = game
        self.render_mode = render_mode
        self.rewards_due = Rewards(game, reward)
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        self.num_actions = game.num_distinct_actions()
        shared = observation_space(game)
        self.observation_spaces = {a: shared for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.seed_source = random.Random()
        self.game_state: State | None = None
        self.agents: list[str] = []

    def _seat(self, agent: Any) -> int:
        """The seat of `agent`; `UnknownAgentError` naming it for a name this game lacks."""
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise UnknownAgentError(
                f"unknown agent {agent!r}: this game's agents are {self.possible_agents[0]} to {self.possible_agents[-1]}"
            ) from None

    def observation_space(self, agent: str) -> spaces.Space:
        """The space of `agent`'s observations (the same object on every call)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        """The space of `agent`'s actions: the game's action integers."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: with seed `seed` (an integer, numpy's too), or the next seed of the
        last one given."""
        if seed is not None:
            seed = as_seed(seed)
            self.seed_source = random.Random(seed)
        number = seed if seed is not None else self.seed_source.randrange(2**31)
        state = self.game_state = self.game.new_initial_state(number)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: state.is_terminal() for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.rewards_due.start(state)
        self.agent_selection = self._to_act(state, 0)

    def _to_act(self, state: State, after: int) -> str:
        """The agent to step next: the seat to decide, or once the game is over the next seat."""
        player = state.current_player()
        return self.possible_agents[player if player >= 0 else (after + 1) % len(self.possible_agents)]

    def _running(self) -> State:
        if self.game_state is None:
            raise EnvSetupError("the environment has no game yet: call reset() first")
        return self.game_state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """`agent`'s observation now: its tensor and its action mask."""
        return observe(self._running(), self._seat(agent), self.num_actions)

    def step(self, action: Any) -> None:
        """Take `action` for the agent selected; `IllegalActionError` (nothing changes) if illegal,
        `EnvSetupError` once every agent is done (the game is over: reset() deals a new one)."""
        self._running()
        if not self.agents:
            raise EnvSetupError("the game is over and every agent is done: call reset() to deal a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._running()
        seat = state.current_player()
        state.apply_action(action)
        self._cumulative_rewards[agent] = 0.0
        for other, reward in zip(self.possible_agents, self.rewards_due.paid(state)):
            self.rewards[other] = reward
        self._accumulate_rewards()
        if state.is_terminal():
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self._to_act(state, seat)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as text (every hand shown): returned in ``ansi`` mode, printed in ``human``."""
        if self.render_mode is None or self.game_state is None:
            return None
        text = str(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
