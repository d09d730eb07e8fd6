"""One seat of a spec as a Gymnasium environment: the learner plays one seat, given agents play
the others.

`reset` deals a game and lets the other seats play until the learner's first decision;
`step(action)` takes the learner's action, then the others' until its next decision or the
game's end. The reward of a step is what the learner's seat was paid over all those actions
(see `trickrules.learning.rewards`). Observations are those of the AEC environment: a dict
of the learner's tensor and its action mask; `action_masks()` gives the mask too (the name
maskable policies look for).

The other seats are agents: ``random`` or ``greedy`` (new in every game, seeded as
`simulate` seeds them: seat k of the game with seed s gets ``s * 1000 + k``), or `Agent`
objects, which play on from game to game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from trickrules.engine.agents import AGENT_NAMES, Agent, make_agent
from trickrules.engine.game import Game, as_seed
from trickrules.engine.state import State
from trickrules.errors import EnvSetupError
from trickrules.learning.aec import RENDER_MODES, action_mask, observation_space, observe
from trickrules.learning.rewards import Rewards

Opponent = str | Agent


class SingleAgentEnv(gymnasium.Env):  # type: ignore[misc]
    """A game of a spec as seen from one seat (make one with `trickrules.single_agent_env`)."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        game: Game,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        reward: str = "game",
        render_mode: str | None = None,
    ) -> None:
        n = game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise EnvSetupError(f"no seat {seat!r} in this game (seats are 0 to {n - 1})")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EnvSetupError(f"unknown render mode {render_mode!r} (modes: {', '.join(RENDER_MODES)})")
        self.game, self.seat, self.render_mode = game, seat, render_mode
        self.opponents = _seated(opponents, seat, n)
        self.rewards_due = Rewards(game, reward)
        self.num_actions = game.num_distinct_actions()
        self.observation_space = observation_space(game)
        self.action_space = spaces.Discrete(self.num_actions)
        self.seed_source = random.Random()
        self.game_state: State | None = None
        self.agents: list[Agent | None] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game (seed `seed`, or the next seed of the last one given) and play the
        other seats up to the learner's first decision."""
        if seed is not None:
            seed = as_seed(seed)  # numpy integers too
        super().reset(seed=seed)
        if seed is not None:
            self.seed_source = random.Random(seed)
        for _ in range(100):  # a game over before the learner decides anything is dealt again
            number = seed if seed is not None else self.seed_source.randrange(2**31)
            seed = None
            state = self.game_state = self.game.new_initial_state(number)
            self.agents = [make_agent(a, number * 1000 + k) if isinstance(a, str) else a for k, a in enumerate(self.opponents)]
            self.rewards_due.start(state)
            self._others_play(state)
            if not state.is_terminal():
                return self._observation(state), {"seed": number}
        raise EnvSetupError("the learner's seat never gets to decide: 100 games in a row ended first")

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Take the learner's `action` (`IllegalActionError` if illegal: nothing changes), then
        the other seats' actions up to the learner's next decision or the game's end."""
        state = self.game_state
        if state is None:
            raise EnvSetupError("no game in progress: call reset() first")
        if state.is_terminal():
            raise EnvSetupError("the game is over: call reset() to deal a new game")
        state.apply_action(action)
        reward = self.rewards_due.paid(state)[self.seat] + self._others_play(state)
        if self.render_mode == "human":
            print(state)
        return self._observation(state), reward, state.is_terminal(), False, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as a 0/1 mask over the game's actions."""
        if self.game_state is None:
            raise EnvSetupError("no game in progress: call reset() first")
        return action_mask(self.game_state, self.seat, self.num_actions)

    def render(self) -> str | None:
        """The game as text (every hand shown): returned in ``ansi`` mode, printed in ``human``."""
        if self.render_mode is None or self.game_state is None:
            return None
        if self.render_mode == "human":
            print(self.game_state)
            return None
        return str(self.game_state)

    def _others_play(self, state: State) -> float:
        """Let the other seats act until the learner's turn; the learner's reward meanwhile."""
        total = 0.0
        while not state.is_terminal() and state.current_player() != self.seat:
            agent = self.agents[state.current_player()]
            assert agent is not None
            state.apply_action(agent.step(state))
            total += self.rewards_due.paid(state)[self.seat]
        return total

    def _observation(self, state: State) -> dict[str, np.ndarray]:
        return observe(state, self.seat, self.num_actions)


def _seated(opponents: Opponent | Sequence[Opponent], seat: int, n: int) -> list[Opponent | None]:
    """One opponent per seat (None at the learner's): one for all, or one for each other seat."""
    given: list[Opponent] = [opponents] if isinstance(opponents, str) or not isinstance(opponents, Sequence) else list(opponents)
    if len(given) == 1:
        given *= n - 1
    if len(given) != n - 1:
        raise EnvSetupError(f"{len(given)} opponents for the {n - 1} other seats: give one, or one per other seat")
    for opponent in given:
        if isinstance(opponent, str):
            try:
                make_agent(opponent)
            except ValueError:
                raise EnvSetupError(f"unknown agent {opponent!r} (agents: {AGENT_NAMES}, or an Agent object)") from None
        if not isinstance(opponent, (str, Agent)):
            raise EnvSetupError(f"not an agent: {opponent!r} (an agent has a name and a step(state) method)")
    seated: list[Opponent | None] = list(given)
    seated.insert(seat, None)
    return seated
