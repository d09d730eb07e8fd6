"""Learning environment speed: steps per second of the PettingZoo environment beside the engine.

Run: python benchmarks/bench_env.py [--games N] [--repeat R] [--specs hearts spades ...]
Plays N random games per spec (one game per seed, the same seeds everywhere) four ways and
prints the best of R runs, in actions (steps) per second:

- engine: ``legal_actions`` and ``apply_action`` only, nothing observed;
- engine + tensor: as above, plus the acting seat's ``observation_tensor`` before each action
  (what a learner reads);
- AEC env: ``trickrules.env`` with ``agent_iter``/``last``/``step``, choosing from the action
  mask, ``reward="trick"``; every step observes (tensor as a NumPy array, and the mask);
- one seat: ``trickrules.single_agent_env`` for seat 0 against random agents (its steps are
  the learner's; the others' actions are counted as engine actions in the figure).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import trickrules

SPECS = {
    "hearts": {"single_hand": True},
    "spades": {"single_hand": True},
    "kingdoms": {},
    "euchre": {"single_hand": True},
}


def engine(game: trickrules.Game, seeds: range, tensor: bool) -> int:
    rng = random.Random(0)
    actions = 0
    for seed in seeds:
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if tensor:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            actions += 1
    return actions


def aec(game: trickrules.Game, seeds: range) -> int:
    env = trickrules.env(game, reward="trick")
    rng = random.Random(0)
    steps = 0
    for seed in seeds:
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps


def single(game: trickrules.Game, seeds: range) -> int:
    env = trickrules.single_agent_env(game, seat=0, opponents="random", reward="trick")
    rng = random.Random(0)
    actions = 0
    for seed in seeds:
        env.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, _, _ = env.step(int(legal[int(rng.random() * len(legal))]))
        assert env.game_state is not None
        actions += len(env.game_state.history)
    return actions


def best_rate(run: Callable[[], int], repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        count = run()
        best = max(best, count / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--specs", nargs="*", default=list(SPECS))
    args = parser.parse_args()
    print(f"{'spec':10} {'engine':>10} {'+tensor':>10} {'AEC env':>10} {'one seat':>10} {'env/engine':>11}  (actions or steps per second)")
    for name in args.specs:
        game = trickrules.load_game(name, options=SPECS.get(name, {}))
        seeds = range(args.games)
        rates: dict[str, Any] = {
            "engine": best_rate(lambda: engine(game, seeds, False), args.repeat),
            "tensor": best_rate(lambda: engine(game, seeds, True), args.repeat),
            "aec": best_rate(lambda: aec(game, seeds), args.repeat),
            "single": best_rate(lambda: single(game, seeds), args.repeat),
        }
        ratio = rates["aec"] / rates["engine"]
        print(
            f"{name:10} {rates['engine']:10,.0f} {rates['tensor']:10,.0f} {rates['aec']:10,.0f} {rates['single']:10,.0f} {ratio:10.1%}"
        )


if __name__ == "__main__":
    main()
