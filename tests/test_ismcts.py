"""The ISMCTS agent: legal, reproducible choices at every kind of decision of every shipped spec,
a time budget kept, bad settings refused, and a clearly best card found."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import trickrules
from trickrules.engine.agents import make_agent
from trickrules.engine.ismcts import ISMCTSAgent
from trickrules.engine.phases import Phase
from trickrules.engine.playouts import play_out

from helpers import ROOT

SPECS = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
GAMES = {p.stem: trickrules.load_game(p) for p in SPECS}


def _decisions_by_phase(game: trickrules.Game, per_phase: int = 2) -> dict[Phase, list[trickrules.State]]:
    """A few states of each kind of decision random play reaches in the first rounds."""
    found: dict[Phase, list[trickrules.State]] = {}
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal() and state.round < 2:
            legal = state.legal_actions()
            if len(legal) > 1 and len(found.setdefault(state.phase, [])) < per_phase:
                found[state.phase].append(state.clone())
            state.apply_action(rng.choice(legal))
    return found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_legal_choice_at_every_kind_of_decision(name: str) -> None:
    game = GAMES[name]
    found = _decisions_by_phase(game)
    assert Phase.PLAY in found
    for phase, states in found.items():
        for state in states:
            before = str(state), list(state.history)
            action = ISMCTSAgent(seed=1, iterations=8).step(state)
            assert action in state.legal_actions(), (phase, action)
            assert (str(state), list(state.history)) == before  # the search leaves the state as it was


def test_whole_games_with_every_seat_searching() -> None:
    for name, options in (("euchre", {"single_hand": True}), ("meadows", {"rounds": 1}), ("hearts", {"single_hand": True})):
        game = trickrules.load_game(ROOT / "specs" / f"{name}.yaml", options=options)
        agents = [ISMCTSAgent(seed=k, iterations=3) for k in range(game.num_players)]
        state = play_out(game.new_initial_state(4), agents)
        assert state.is_terminal()


def test_the_same_seed_gives_the_same_action() -> None:
    state = _decisions_by_phase(GAMES["spades"])[Phase.PLAY][1]
    first = [ISMCTSAgent(seed=5, iterations=30).step(state) for _ in range(2)]
    agent = ISMCTSAgent(seed=5, iterations=30)
    assert first[0] == first[1] == agent.step(state)


def test_the_time_budget_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search stops at its deadline, read from the clock it is given (a fake one here,
    10 ms a look: no wall-clock time is asserted)."""
    from trickrules.engine import ismcts

    looks: list[float] = []

    def clock() -> float:
        looks.append(0.01 * len(looks))
        return looks[-1]

    monkeypatch.setattr(ismcts, "time", SimpleNamespace(perf_counter=clock))  # this module's clock only
    state = GAMES["hearts"].new_initial_state(2)
    agent = ISMCTSAgent(seed=0, iterations=10**9, seconds=0.25)
    assert agent.step(state) in state.legal_actions()
    assert looks[-1] >= 0.25 and len(looks) <= 0.25 / 0.01 + 2, "it searched on past its budget"


def test_make_agent_knows_ismcts_with_its_iterations() -> None:
    agent = make_agent("ismcts:40", 3)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 40 and agent.name == "ismcts:40"
    assert isinstance(make_agent("ismcts"), ISMCTSAgent)
    assert make_agent("greedy").name == "greedy"


@pytest.mark.parametrize(
    "name, message",
    [
        ("ismcts:abc", "whole number"),
        ("ismcts:0", "whole number"),
        ("ismcts:-3", "whole number"),
        ("ismcts:", "whole number"),
        ("random:5", "takes no argument"),
        ("genius", r"unknown agent 'genius' \(agents: random, greedy, ismcts, or ismcts:N"),
    ],
)
def test_bad_agent_names_are_refused_clearly(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(name)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"iterations": 0}, "1 or more"),
        ({"iterations": 2.5}, "whole number"),
        ({"seconds": 0}, "above 0"),
        ({"exploration": -1.0}, "0 or more"),
    ],
)
def test_bad_settings_are_refused_clearly(settings: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ISMCTSAgent(**settings)  # type: ignore[arg-type]


def _queen_to_drop() -> trickrules.State:
    """Hearts, last to play to a spade trick that the ace or king of spades wins, holding the
    queen of spades and another card it may play."""
    game = trickrules.load_game(ROOT / "specs" / "hearts.yaml", options={"single_hand": True})
    queen, over = game.card_index("spades-Q"), {game.card_index("spades-A"), game.card_index("spades-K")}
    for seed in range(500):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == Phase.PLAY and len(state.trick) == 3 and over & set(state.trick) and queen in legal:
                if len(legal) > 1 and game.card_ids[state.trick[0]].startswith("spades"):
                    return state
            state.apply_action(rng.choice([a for a in legal if a != queen] or legal))
    raise AssertionError("no such position in 500 deals")


def test_it_drops_the_queen_of_spades_on_a_trick_it_cannot_win() -> None:
    state = _queen_to_drop()
    assert ISMCTSAgent(seed=0, iterations=200).step(state) == state.game.card_index("spades-Q")


def test_rollouts_play_for_bids_where_the_game_has_bids() -> None:
    from trickrules.engine.rollouts import play_for_bids, play_randomly, rollout_for

    assert rollout_for(GAMES["spades"].new_initial_state(0)) is play_for_bids
    assert rollout_for(GAMES["hearts"].new_initial_state(0)) is play_randomly
    for name in ("spades", "oh-hell"):
        state = GAMES[name].new_initial_state(3)
        play_for_bids(state, 0, random.Random(3))
        assert state.round == 1 or state.is_terminal()
        assert all(b is not None for b in state.round_results[0]["measures"])


def test_the_command_line_seats_ismcts(capsys: pytest.CaptureFixture[str]) -> None:
    from trickrules.tools.cli import main

    meadows = str(ROOT / "specs" / "meadows.yaml")
    assert main(["play", meadows, "--set", "rounds=1", "--agents", "ismcts:4,random,greedy,random"]) == 0
    assert "ismcts:4" in capsys.readouterr().out
    simulate = ["simulate", meadows, "--set", "rounds=1", "-n", "2", "--workers", "1"]
    assert main([*simulate, "--agents", "ismcts:3,greedy,greedy,random"]) == 0
    assert "ismcts:3" in capsys.readouterr().out
    for bad in ("ismcts:abc", "ismcts:0"):
        assert main(["play", meadows, "--agents", bad]) == 2
        assert "ismcts:N takes N" in capsys.readouterr().err
