"""API misuse gets a clear error naming the argument: load_game's spec, players and options;
seeds (None draws a fresh one, recorded; numpy integers are integers); the PettingZoo
environment's unknown agents and steps after the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trickrules
from trickrules.errors import EnvSetupError, UnknownAgentError
from trickrules.tools.record import build_record, replay

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("players", ["4", 4.0, True, [4], np.float64(4)])
def test_players_of_the_wrong_type_name_players(players: Any) -> None:
    with pytest.raises(TypeError, match=r"^load_game: players must be a whole number of players \(an int\) or None, not "):
        trickrules.load_game("hearts", players=players)
    with pytest.raises(TypeError, match="^load_ruleset: players must be"):
        trickrules.load_ruleset("hearts", players=players)


def test_numpy_player_counts_are_counts() -> None:
    assert trickrules.load_game("kingdoms", players=np.int64(3)).num_players == 3


@pytest.mark.parametrize("options", [[1], "rounds=2", 3, [("rounds", 2)]])
def test_options_that_are_not_a_mapping_name_options(options: Any) -> None:
    with pytest.raises(TypeError, match=r"^load_game: options must be a mapping of option names to values"):
        trickrules.load_game("kingdoms", options=options)


def test_option_names_must_be_text() -> None:
    with pytest.raises(TypeError, match=r"options must be named by text, not int \(1\)"):
        trickrules.load_game("kingdoms", options={1: 2})


@pytest.mark.parametrize("spec", [None, 5, b"hearts", ["hearts"], 2.5])
def test_a_spec_that_is_no_path_names_spec(spec: Any) -> None:
    with pytest.raises(TypeError, match=r"^load_game: spec must be a spec file's path or a shipped spec's name, or a compiled Ruleset, not "):
        trickrules.load_game(spec)
    with pytest.raises(TypeError, match=r"^load_ruleset: spec must be"):
        trickrules.load_ruleset(spec)


def test_a_compiled_ruleset_with_other_players_or_options_is_refused() -> None:
    ruleset = trickrules.load_ruleset("kingdoms", players=3)
    assert trickrules.load_game(ruleset, players=3).num_players == 3
    with pytest.raises(ValueError, match="compiled for 3 players, not players=4"):
        trickrules.load_game(ruleset, players=4)
    with pytest.raises(ValueError, match="has its options already"):
        trickrules.load_game(ruleset, options={"rounds": 2})


# ---------------------------------------------------------------- seeds


def test_seed_none_draws_a_fresh_seed_that_is_kept_and_replays() -> None:
    game = trickrules.load_game("meadows")
    states = [game.new_initial_state(None, record=True) for _ in range(2)]
    assert all(isinstance(state.seed, int) for state in states)
    assert states[0].seed != states[1].seed, "two fresh seeds (63 random bits each)"
    state, rng = states[0], random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    record = build_record(state)
    assert record["seed"] == state.seed
    assert replay(record, game).verified
    again = game.new_initial_state(state.seed)
    assert again.hands == game.new_initial_state(state.seed).hands


@pytest.mark.parametrize("seed", ["5", 5.0, True, np.True_, b"5", object(), [5], np.float64(5)])
def test_seeds_that_are_not_integers_are_refused(seed: Any) -> None:
    with pytest.raises(TypeError, match=r"^seed must be an integer, or None for a fresh random one, not "):
        trickrules.load_game("hearts").new_initial_state(seed)


@pytest.mark.parametrize("seed", [np.int64(5), np.int32(5), np.uint8(5)])
def test_numpy_integer_seeds_deal_as_the_int(seed: Any) -> None:
    game = trickrules.load_game("hearts")
    state = game.new_initial_state(seed)
    assert type(state.seed) is int and state.hands == game.new_initial_state(5).hands


# ---------------------------------------------------------------- the environments


@pytest.fixture()
def env() -> Any:
    pytest.importorskip("pettingzoo")
    return trickrules.env("hearts")


@pytest.mark.parametrize("agent", ["nobody", "player_4", 0, None])
def test_an_unknown_agent_is_named(env: Any, agent: Any) -> None:
    env.reset(seed=1)
    for method in (env.observe, env.action_space, env.observation_space):
        with pytest.raises(UnknownAgentError) as caught:
            method(agent)
        assert str(caught.value) == f"unknown agent {agent!r}: this game's agents are player_0 to player_3"
        assert isinstance(caught.value, KeyError)


def test_stepping_after_the_end_says_the_game_is_over(env: Any) -> None:
    env.reset(seed=np.int64(5))
    while env.agents:
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    with pytest.raises(EnvSetupError, match="the game is over and every agent is done: call reset"):
        env.step(0)
    env.reset(seed=np.int64(5))
    assert env.agents and env.game_state.seed == 5


def test_reset_takes_numpy_seeds_and_refuses_others(env: Any) -> None:
    env.reset(seed=np.int64(7))
    first = env.game_state.hands
    env.reset(seed=7)
    assert env.game_state.hands == first
    with pytest.raises(TypeError, match="seed must be an integer"):
        env.reset(seed="7")


def test_the_single_agent_env_takes_numpy_seeds_and_says_the_game_is_over() -> None:
    pytest.importorskip("gymnasium")
    one = trickrules.single_agent_env("hearts", seat=0, opponents="greedy")
    _, info = one.reset(seed=np.int64(5))
    assert info == {"seed": 5}
    done = False
    while not done:
        _, _, done, _, _ = one.step(int(np.flatnonzero(one.action_masks())[0]))
    with pytest.raises(EnvSetupError, match="the game is over: call reset"):
        one.step(0)
