"""The how-to's training example runs (a tiny budget) and its policy plays legal actions."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import trickrules

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_policy.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_main_trains_and_measures(example: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    result = example.main(episodes=20, games=30)
    assert set(result) == {"policy", "random"}
    assert all(0 <= value <= 13 for value in result.values())
    assert "tricks per hand: trained policy" in capsys.readouterr().out


def test_training_moves_the_weights_and_the_agent_plays_legally(example: ModuleType) -> None:
    policy = example.train(episodes=5, seed=3)
    assert np.abs(policy.weights).sum() > 0
    agent = example.PolicyAgent(policy)
    assert isinstance(agent, trickrules.Agent)
    game = trickrules.load_game(example.SPEC, options=example.OPTIONS)
    state = game.new_initial_state(2)
    others = random.Random(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = agent.step(state) if state.current_player() == 0 else others.choice(legal)
        assert action in legal
        state.apply_action(action)
