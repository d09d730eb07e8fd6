"""The learning environments: PettingZoo's API test on every shipped spec and on generated
specs, rewards that add up to the final totals, refused actions, seeding, and the one-seat
Gymnasium environment."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

import trickrules
from strategies import as_yaml, scaled, shipped_spec_paths, spec_data
from trickrules.errors import EnvSetupError, IllegalActionError, MissingExtraError
from trickrules.learning.aec import TrickEnv

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [path for path in shipped_spec_paths() if path.parent.name == "specs"] + [ROOT / "examples" / "skat-lite.yaml"]
SCHEDULES = ("game", "round", "trick")
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",  # the observation is a dict of the tensor and the action mask
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",  # seats whose game is over
}


def one_game(path: Path) -> dict[str, Any]:
    """Options that make a shipped spec's game one deal, where it has them."""
    options = dict(trickrules.load_ruleset(path).options)
    return {"single_hand": True} if "single_hand" in options else {}


def checked_api_test(env: TrickEnv, cycles: int) -> None:
    """PettingZoo's api_test, with no warning but those a dict observation always gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=cycles)
    unexpected = {str(w.message) for w in caught} - EXPECTED_WARNINGS
    assert not unexpected, unexpected


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_api_test_passes_on_every_shipped_spec(path: Path) -> None:
    for players in trickrules.load_ruleset(path).allowed_players[:2]:
        for reward in SCHEDULES:
            checked_api_test(trickrules.env(path, players=players, options=one_game(path), reward=reward), 400)


@settings(max_examples=scaled(12))
@given(spec=spec_data(), data=st.data())
def test_api_test_passes_on_generated_specs(spec: dict[str, Any], data: st.DataObject) -> None:
    note(f"spec:\n{as_yaml(spec)}")
    players = data.draw(st.sampled_from(spec["players"]), label="players")
    reward = data.draw(st.sampled_from(SCHEDULES), label="reward")
    ruleset = trickrules.load_ruleset_text(yaml.safe_dump(spec), players=players)
    checked_api_test(trickrules.env(ruleset, reward=reward), 200)


# ---------------------------------------------------------------- rewards


def play_env(env: TrickEnv, seed: int) -> dict[str, float]:
    """Play a game with random legal actions; each agent's rewards, summed."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    summed = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        summed[agent] += reward
        env.step(None if terminated else rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
    return summed


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_rewards_add_up_to_the_final_totals(path: Path) -> None:
    """Every schedule pays each seat its final total (turned against a fewest-points winner);
    ``trick`` and ``round`` pay along the way, and partners are paid alike."""
    ruleset = trickrules.load_ruleset(path, options=one_game(path))
    sign = 1 if ruleset.scoring.winner == "most_points" else -1
    for seed in range(3):
        histories = []
        for reward in SCHEDULES:
            env = trickrules.env(ruleset, reward=reward)
            summed = play_env(env, seed)
            state = env.game_state
            assert state is not None and state.is_terminal()
            assert [summed[a] for a in env.possible_agents] == pytest.approx([sign * t for t in state.returns()])
            for team in ruleset.teams:
                assert len({summed[f"player_{p}"] for p in team}) == 1
            histories.append(state.history)
        assert histories[0] == histories[1] == histories[2], "the schedule changes the rewards only, not the game"


def test_trick_rewards_come_after_tricks() -> None:
    """Hearts: a trick that takes a heart costs its winner at once under ``trick``; under
    ``game`` nothing is paid before the end."""
    for reward, early in (("trick", True), ("game", False)):
        env = trickrules.env("hearts", options={"single_hand": True}, reward=reward)
        env.reset(seed=4)
        rng = random.Random(4)
        paid_mid_game = False
        while env.game_state is not None and not env.game_state.is_terminal():
            agent = env.agent_selection
            env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
            if not env.game_state.is_terminal() and any(env.rewards.values()):
                paid_mid_game = True
                assert all(r <= 0 for r in env.rewards.values()), "hearts only costs"
        assert paid_mid_game == early


def test_bad_reward_and_spec_arguments() -> None:
    with pytest.raises(EnvSetupError, match="unknown reward schedule 'points'"):
        trickrules.env("hearts", reward="points")
    game = trickrules.load_game("kingdoms", players=3)
    assert trickrules.env(game).possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(EnvSetupError, match="compiled already"):
        trickrules.env(game, players=4)
    with pytest.raises(EnvSetupError, match="unknown render mode"):
        trickrules.env(game, render_mode="rgb_array")
    with pytest.raises(trickrules.SpecError, match="no shipped spec"):
        trickrules.env("no-such-game")
    env = trickrules.env(trickrules.load_ruleset(ROOT / "specs" / "meadows.yaml", players=3))
    with pytest.raises(EnvSetupError, match="reset"):
        env.observe("player_0")


# ---------------------------------------------------------------- actions, spaces, seeds


def test_refused_action_changes_nothing() -> None:
    env = trickrules.env("spades", reward="trick")
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    state = env.game_state
    assert state is not None
    before = (state.history[:], env.agent_selection, dict(env.rewards), dict(env._cumulative_rewards), state.observation_tensor(0))
    mask = env.observe(env.agent_selection)["action_mask"]
    for bad in (int(np.flatnonzero(mask == 0)[0]), -1, env.action_space(env.agent_selection).n, None, 1.5, "3"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
        after = (state.history, env.agent_selection, env.rewards, env._cumulative_rewards, state.observation_tensor(0))
        assert after == before
    env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are actions
    assert len(state.history) == len(before[0]) + 1


def test_spaces_masks_and_observations() -> None:
    env = trickrules.env("euchre", options={"single_hand": True})
    game = env.game
    env.reset(seed=8)
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space["observation"].shape == (game.observation_tensor_size(),)
        assert space["action_mask"].dtype == np.int8 and env.action_space(agent).n == game.num_distinct_actions()
    state = env.game_state
    assert state is not None
    seat = state.current_player()
    for p, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)
        assert seen["observation"].tolist() == pytest.approx(state.observation_tensor(p))
        legal = np.flatnonzero(seen["action_mask"]).tolist()
        assert legal == (sorted(state.legal_actions()) if p == seat else [])
    assert env.agent_selection == f"player_{seat}"


def test_reset_seeds_the_game_as_the_engine_does() -> None:
    env = trickrules.env("oh-hell", players=4)
    env.reset(seed=11)
    state = env.game_state
    assert state is not None
    expected = env.game.new_initial_state(11)
    assert state.hands == expected.hands and state.seed == 11
    other = trickrules.env("oh-hell", players=4)
    other.reset(seed=11)
    env.reset()
    other.reset()
    assert env.game_state is not None and other.game_state is not None
    assert env.game_state.seed == other.game_state.seed != 11, "an unseeded reset takes the next seed of the last one"
    env.reset(seed=11)
    assert env.game_state.hands == expected.hands


def test_render_modes() -> None:
    env = trickrules.env("meadows", players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "player 2: hand [" in text
    assert trickrules.env("meadows", players=3).render() is None
    env.close()


def test_the_extra_is_imported_only_for_an_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    run = subprocess.run(
        [sys.executable, "-c", "import sys, trickrules; trickrules.load_game('hearts').new_initial_state(1).observation_tensor(0);"
         "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules))"],
        capture_output=True, text=True, check=True,
    )
    assert run.stdout.strip() == "[]"
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    with pytest.raises(MissingExtraError, match=r"pettingzoo: pip install 'trickrules\[learn\]'"):
        trickrules.env("hearts")
    with pytest.raises(ImportError):
        trickrules.single_agent_env("hearts")


# ---------------------------------------------------------------- one seat, Gymnasium


def test_single_agent_env_plays_the_other_seats() -> None:
    env = trickrules.single_agent_env("spades", options={"single_hand": True}, seat=1, opponents="greedy", reward="round")
    observation, info = env.reset(seed=5)
    assert env.observation_space.contains(observation) and info == {"seed": 5}
    state = env.game_state
    assert state is not None and state.current_player() == 1
    assert observation["action_mask"].tolist() == env.action_masks().tolist()
    assert np.flatnonzero(env.action_masks()).tolist() == state.legal_actions()
    total, terminated, steps = 0.0, False, 0
    while not terminated:
        action = int(np.flatnonzero(env.action_masks())[0])
        observation, reward, terminated, truncated, _ = env.step(action)
        assert not truncated
        total += reward
        steps += 1
        assert terminated or state.current_player() == 1
        assert env.observation_space.contains(observation)
    assert total == state.returns()[1] and steps == 1 + 13  # a bid, then thirteen cards


def test_single_agent_env_opponents_and_seeds() -> None:
    """Named opponents are seeded per game as `simulate` seeds them, so a seed gives the same
    game; Agent objects play on; bad seats and opponents are refused."""
    games = []
    for _ in range(2):
        env = trickrules.single_agent_env("kingdoms", players=3, opponents=["random", "greedy"], reward="trick")
        env.reset(seed=9)
        terminated = False
        while not terminated:
            _, _, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        assert env.game_state is not None
        games.append(env.game_state.history)
    assert games[0] == games[1]
    agent = trickrules.RandomAgent(3)
    env = trickrules.single_agent_env("hearts", options={"single_hand": True}, seat=2, opponents=agent)
    env.reset(seed=1)
    drawn = agent.rng.random()
    env.reset(seed=1)
    assert agent.rng.random() != drawn, "an Agent object plays on from game to game"
    with pytest.raises(IllegalActionError):
        env.step(-1)
    for bad in ({"seat": 4}, {"seat": True}, {"opponents": "clever"}, {"opponents": ["random"] * 2}, {"opponents": [3, 4, 5]}):
        with pytest.raises(EnvSetupError):
            trickrules.single_agent_env("hearts", **bad)
    with pytest.raises(EnvSetupError, match="reset"):
        trickrules.single_agent_env("hearts").step(0)


def test_the_howto_snippet_runs() -> None:
    """The first Python block of the how-to plays a game through the environment."""
    page = (ROOT / "docs" / "howto" / "learning.md").read_text("utf-8")
    code = page.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, Any] = {}
    exec(compile(code, "learning.md", "exec"), scope)
    env = scope["env"]
    assert not env.agents and env.game_state.is_terminal()


def test_an_observation_is_the_tensor_as_a_writable_float32_array_of_its_own() -> None:
    env = trickrules.env(ROOT / "specs" / "hearts.yaml", options={"single_hand": True})
    env.reset(seed=3)
    state = env.game_state
    assert state is not None
    first = env.observe("player_0")["observation"]
    assert first.dtype == np.float32 and first.flags.writeable
    assert first.tolist() == [float(np.float32(v)) for v in state.observation_tensor(0)]
    first[:] = -1.0  # a learner may scale its copy in place
    assert env.observe("player_0")["observation"].tolist() == [float(np.float32(v)) for v in state.observation_tensor(0)]
