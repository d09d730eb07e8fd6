"""Train a policy for one seat of a spec, then measure it against random players.

Run from the repository's folder:  python examples/train_policy.py [episodes] [games]

The policy is linear: a score for every action, the observation tensor times a weight row,
turned into probabilities over the legal actions (softmax). REINFORCE trains it: after each
game (an episode) every decision's probability moves up or down by how much better the rest of
the game paid than usual. The learner plays seat 0 of Plain Whist (one hand: 13 tricks, the
dealer chooses trumps) against three random players, paid a point per trick as it is won.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

import trickrules

SPEC = Path(__file__).resolve().parent / "plain-whist.yaml"
OPTIONS = {"hands": 1}


class LinearPolicy:
    """Action probabilities from a linear score of the observation tensor."""

    def __init__(self, game: trickrules.Game, learning_rate: float = 0.02) -> None:
        layout = game.observation_layout()
        high = np.array(layout.high(), dtype=np.float32)
        self.scale = np.where(np.isfinite(high) & (high > 1), high, 1.0).astype(np.float32)  # counts to 0..1
        self.weights = np.zeros((game.num_distinct_actions(), layout.size + 1), dtype=np.float32)
        self.learning_rate = learning_rate

    def features(self, tensor: Any) -> np.ndarray:
        """The tensor scaled to about 0..1, with a constant 1 (each action's bias)."""
        return np.append(np.asarray(tensor, dtype=np.float32) / self.scale, 1.0)

    def probabilities(self, features: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """A probability for each action, 0 for the illegal ones."""
        scores = self.weights @ features
        scores = np.where(mask > 0, scores, -np.inf)
        scores -= scores.max()
        weights = np.exp(scores)
        return weights / weights.sum()

    def learn(self, features: np.ndarray, probabilities: np.ndarray, action: int, advantage: float) -> None:
        """One REINFORCE step: the log-probability of `action` up by `advantage`."""
        direction = -probabilities
        direction[action] += 1.0
        self.weights += self.learning_rate * advantage * np.outer(direction, features)


class PolicyAgent:
    """A trained policy as a trickrules `Agent`: it takes its most probable legal action."""

    name = "linear"

    def __init__(self, policy: LinearPolicy) -> None:
        self.policy = policy

    def step(self, state: trickrules.State) -> int:
        features = self.policy.features(state.observation_tensor(state.current_player()))
        mask = np.zeros(len(self.policy.weights), dtype=np.int8)
        mask[state.legal_actions()] = 1
        return int(np.argmax(self.policy.probabilities(features, mask)))


def train(episodes: int, seed: int = 0) -> LinearPolicy:
    """A policy for seat 0, trained over `episodes` games against random players."""
    env = trickrules.single_agent_env(SPEC, options=OPTIONS, seat=0, opponents="random", reward="trick")
    policy = LinearPolicy(env.game)
    rng = np.random.default_rng(seed)
    baseline = 0.0  # the running mean of what a game pays from a decision on
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        decisions, rewards, done = [], [], False
        while not done:
            features = policy.features(observation["observation"])
            probabilities = policy.probabilities(features, observation["action_mask"])
            action = int(rng.choice(len(probabilities), p=probabilities))
            observation, reward, done, _, _ = env.step(action)
            decisions.append((features, probabilities, action))
            rewards.append(reward)
        to_come = np.cumsum(rewards[::-1])[::-1]  # what the game paid from each decision on
        for (features, probabilities, action), paid in zip(decisions, to_come):
            policy.learn(features, probabilities, action, paid - baseline)
            baseline += 0.01 * (paid - baseline)
    return policy


def evaluate(policy: LinearPolicy, games: int, seed: int = 10**6) -> dict[str, float]:
    """Seat 0's mean points over `games` new games: the policy, then a random player, each
    against three random players (`play_games` seats and seeds them as `simulate` does)."""
    game = trickrules.load_game(SPEC, options=OPTIONS)
    seats: list[str | trickrules.Agent] = [PolicyAgent(policy), "random", "random", "random"]
    trained = [state.returns()[0] for state in trickrules.play_games(game, games, seed, agents=seats)]
    random_seat = [state.returns()[0] for state in trickrules.play_games(game, games, seed, agents="random")]
    return {"policy": float(np.mean(trained)), "random": float(np.mean(random_seat))}


def main(episodes: int = 3000, games: int = 2000) -> dict[str, float]:
    policy = train(episodes)
    result = evaluate(policy, games)
    print(f"Plain Whist, seat 0 against three random players, {games} games after {episodes} training games:")
    print(f"  tricks per hand: trained policy {result['policy']:.2f}, random player {result['random']:.2f}")
    return result


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
