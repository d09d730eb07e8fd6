"""The PIMC agent: solves resampled worlds, plays the best card on average, leaves the other
decisions to its fallback."""

from __future__ import annotations

import pytest

import trickrules
from trickrules.engine.agents import GreedyAgent, RandomAgent, make_agent
from trickrules.engine.phases import Phase
from trickrules.engine.pimc import PIMCAgent
from trickrules.engine.positions import Position, start_at
from trickrules.engine.solver import solve
from trickrules.engine.state import State
from trickrules.tools.cli import main


class Recording:
    """A fallback that records the phases it is asked in and takes the first legal action."""

    def __init__(self) -> None:
        self.phases: list[Phase] = []

    def step(self, state: State) -> int:
        self.phases.append(state.phase)
        return state.legal_actions()[0]


def _play(state: State, agents: list) -> State:
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    return state


def test_decisions_outside_the_play_go_to_the_fallback() -> None:
    fallback = Recording()
    game = trickrules.load_game("euchre", options={"single_hand": True})
    agents = [PIMCAgent(1, worlds=2, fallback=fallback), *(RandomAgent(s) for s in (2, 3, 4))]
    _play(game.new_initial_state(5), agents)
    assert fallback.phases and Phase.PLAY not in fallback.phases


def test_the_same_seed_plays_the_same_cards() -> None:
    game = trickrules.load_game("hearts", options={"single_hand": True})

    def history(seed: int) -> list[int]:
        agents = [PIMCAgent(seed, worlds=3), *(RandomAgent(s) for s in (2, 3, 4))]
        return _play(game.new_initial_state(7), agents).history

    assert history(1) == history(1)


def test_it_ducks_under_the_queen_of_spades_whatever_the_hidden_hands() -> None:
    """Hearts, 12th trick: the queen of spades is led; its last spades are the ace and the 2.
    In every world it can deal, the ace takes 13 points and the 2 takes none."""
    game = trickrules.load_game("hearts", options={"single_hand": True})
    hands = {0: ["spades-Q", "clubs-3"], 1: ["spades-A", "spades-2"], 2: ["clubs-4", "clubs-5"], 3: ["clubs-6", "clubs-7"]}
    state = start_at(game, Position(trick_number=12, hands=hands, counters={"broken": 1}))
    state.apply_action(game.card_ids.index("spades-Q"))
    assert state.current_player() == 1 and len(state.legal_actions()) == 2
    assert state.action_to_string(PIMCAgent(3, worlds=4).step(state)) == "play spades-2"


def test_it_plays_the_solvers_best_card_when_the_hidden_hands_are_known() -> None:
    """Two cards left each, and the others' cards all of one suit the player cannot tell
    apart by rank order: every world the agent deals has the same best card as the real one."""
    game = trickrules.load_game("hearts", options={"single_hand": True})
    hands = {0: ["hearts-K", "diamonds-2"], 1: ["hearts-A", "hearts-3"], 2: ["diamonds-3", "diamonds-4"], 3: ["diamonds-5", "diamonds-6"]}
    state = start_at(game, Position(trick_number=12, hands=hands, counters={"broken": 1}))
    state.apply_action(game.card_ids.index("hearts-K"))
    best = solve(state).best
    assert best is not None and PIMCAgent(5, worlds=6).step(state) == best == game.card_ids.index("hearts-3")


@pytest.mark.parametrize(("argument", "value"), [("worlds", 0), ("worlds", 10_001), ("horizon", 0), ("endgame", -1), ("worlds", 2.0), ("horizon", True)])
def test_counts_out_of_range_are_refused(argument: str, value: object) -> None:
    with pytest.raises(ValueError, match=argument):
        PIMCAgent(**{argument: value})  # type: ignore[arg-type]


def test_make_agent_builds_pimc_with_greedy_outside_the_play() -> None:
    agent = make_agent("pimc:3", seed=4)
    assert isinstance(agent, PIMCAgent) and agent.worlds == 3 and agent.name == "pimc:3"
    assert isinstance(agent.fallback, GreedyAgent)
    assert make_agent("pimc").name == "pimc:12"


@pytest.mark.parametrize(
    ("name", "message"),
    [("pimc:0", "pimc:N takes N, the worlds solved a decision"), ("pimc:10001", "solves at most 10,000 worlds a decision; 10,001 is too many"), ("pimc:x", "whole number")],
)
def test_a_bad_number_of_worlds_is_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(name)


def test_a_tournament_seats_pimc_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "euchre", "--set", "single_hand=true", "--agents", "pimc:2,random", "-n", "2", "--workers", "1"]) == 0
    assert "pimc:2 vs random" in capsys.readouterr().out
