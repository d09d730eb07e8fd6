"""The many-games loop (`play_games`, `play_out`) gives exactly the games of the public API."""

from __future__ import annotations

import pytest

import trickrules
from trickrules.engine.agents import make_agent
from trickrules.engine.playouts import play_out, seat_agents
from trickrules.errors import IllegalActionError

from helpers import ROOT

SPECS = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
SHIPPED_GAMES = {p.stem: trickrules.load_game(p) for p in SPECS} | {
    "skat-lite": trickrules.load_game(ROOT / "examples" / "skat-lite.yaml")
}

MIXES = (("random",), ("greedy",), ("random", "greedy"))


def _through_the_api(game: trickrules.Game, seed: int, names: list[str]) -> trickrules.State:
    """A game played with the public state API only, agents seated as `simulate` seats them."""
    agents = [make_agent(name, seed * 1000 + seat) for seat, name in enumerate(names)]
    state = game.new_initial_state(seed, record=True)
    while not state.is_terminal():
        action = agents[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("mix", MIXES, ids="+".join)
@pytest.mark.parametrize("name", sorted(SHIPPED_GAMES))
def test_play_games_gives_the_games_of_the_public_api(name: str, mix: tuple[str, ...]) -> None:
    game = SHIPPED_GAMES[name]
    names = [mix[seat % len(mix)] for seat in range(game.num_players)]
    count = 1 if "greedy" in mix else 40  # greedy plays each card out in a few worlds: one game is enough
    fast = list(trickrules.play_games(game, count, seed=300, agents=names, record=True))
    assert len(fast) == count
    for offset, state in enumerate(fast):
        slow = _through_the_api(game, 300 + offset, names)
        assert state.is_terminal()
        assert state.history == slow.history
        assert state.returns() == slow.returns()
        assert state.events == slow.events


def test_play_out_continues_a_game_in_progress() -> None:
    game = SHIPPED_GAMES["hearts"]
    state = game.new_initial_state(8)
    for _ in range(20):
        state.apply_action(state.legal_actions()[-1])
    twin = state.clone()
    play_out(state, seat_agents(["random"] * 4, 8))
    slow_agents = seat_agents(["random"] * 4, 8)
    while not twin.is_terminal():
        twin.apply_action(slow_agents[twin.current_player()].step(twin))
    assert state.history == twin.history and state.returns() == twin.returns()


def test_play_games_refuses_a_wrong_number_of_agents() -> None:
    game = SHIPPED_GAMES["hearts"]
    with pytest.raises(ValueError, match="3 agents named for 4 players"):
        trickrules.play_games(game, 1, agents=["random"] * 3)
    with pytest.raises(ValueError, match="unknown agent"):
        trickrules.play_games(game, 1, agents="clever")
    for count in (-1, 2.5, "3", True):
        with pytest.raises(ValueError, match="number of games"):
            trickrules.play_games(game, count)  # refused at the call, before any game
    with pytest.raises(ValueError, match="first seed"):
        trickrules.play_games(game, 1, seed="x")
    assert list(trickrules.play_games(game, 0)) == []


def test_the_legal_view_is_the_legal_actions_and_apply_legal_takes_one() -> None:
    game = SHIPPED_GAMES["kingdoms"]
    state = game.new_initial_state(4)
    twin = state.clone()
    for step in range(60):
        view = state.legal_view()
        assert view == state.legal_actions() == twin.legal_actions()
        action = view[step % len(view)]
        state.apply_legal(action)
        twin.apply_action(action)
        assert state.history == twin.history
    with pytest.raises(IllegalActionError):
        twin.apply_action(-1)


@pytest.mark.parametrize("name", sorted(SHIPPED_GAMES))
def test_an_agent_object_plays_every_game_its_generator_running_on(name: str) -> None:
    game = SHIPPED_GAMES[name]
    fast = list(trickrules.play_games(game, 25, seed=40, agents=trickrules.RandomAgent(9)))
    agent = trickrules.RandomAgent(9)
    for offset, state in enumerate(fast):
        slow = game.new_initial_state(40 + offset)
        while not slow.is_terminal():
            slow.apply_action(agent.step(slow))
        assert state.history == slow.history and state.returns() == slow.returns()
