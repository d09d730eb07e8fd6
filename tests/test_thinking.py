"""`play` shows on a terminal that a bot is thinking, with its budget; agent budgets are bounded."""

from __future__ import annotations

import io
import re

import pytest

import trickrules
from trickrules.engine.agents import make_agent
from trickrules.engine.ismcts import MAX_ITERATIONS, MAX_SECONDS, ISMCTSAgent
from trickrules.tools.cli import main
from trickrules.tools.thinking import CLEAR, ThinkingAgent, budget_words, thinking_agents


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_budget_words() -> None:
    assert budget_words(ISMCTSAgent(iterations=200)) == "200 iterations a decision"
    assert budget_words(ISMCTSAgent(iterations=1, seconds=2.5)) == "1 iteration or 2.5 s a decision"
    assert budget_words(make_agent("greedy")) is None


def test_only_searching_agents_on_a_terminal_are_wrapped() -> None:
    agents = [make_agent("ismcts:20", 1), make_agent("random", 2)]
    assert thinking_agents(agents, io.StringIO()) == agents  # not a terminal: as they are
    wrapped = thinking_agents(agents, Terminal())
    assert isinstance(wrapped[0], ThinkingAgent) and wrapped[1] is agents[1]
    assert wrapped[0].name == "ismcts:20" and isinstance(wrapped[0], trickrules.Agent)


def test_the_line_names_the_seat_the_agent_and_its_budget_and_plays_the_same() -> None:
    game = trickrules.load_game("hearts", options={"single_hand": True})
    terminal = Terminal()
    plain = trickrules.play_out(game.new_initial_state(3), [make_agent("ismcts:10", s) for s in range(4)])
    shown = thinking_agents([make_agent("ismcts:10", s) for s in range(4)], terminal)
    state = trickrules.play_out(game.new_initial_state(3), shown)
    assert state.history == plain.history  # the wrapper changes no decision
    text = terminal.getvalue()
    assert "P0 (ismcts:10) is thinking: decision 1, " in text and "10 iterations a decision ..." in text
    assert re.search(r"P3 \(ismcts:10\) is thinking: decision \d+, \d+ choices, 10 iterations a decision, took \d+\.\d s", text)
    assert text.count(CLEAR) >= 8


def test_play_on_a_terminal_shows_the_line_and_clears_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["play", "hearts", "--set", "single_hand=true", "--agents", "ismcts:5,random,random,random"]) == 0
    text = terminal.getvalue()
    assert "P0 (ismcts:5) is thinking: decision 1" in text and "5 iterations a decision" in text
    assert text.endswith(CLEAR)  # the line is gone when the game is printed
    assert "P1 (random)" not in text  # only searching agents show a line
    assert "P0 (ismcts:5)" in capsys.readouterr().out


def test_play_off_a_terminal_writes_nothing_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "hearts", "--set", "single_hand=true", "--agents", "ismcts:5,random,random,random"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("name", [f"ismcts:{MAX_ITERATIONS + 1}", "ismcts:100000000", "ismcts:" + "9" * 40])
def test_an_agent_budget_over_the_bound_is_refused_with_the_bound(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=r"at most 100,000 iterations a decision"):
        make_agent(name)
    assert main(["play", "hearts", "--agents", name]) == 2
    err = capsys.readouterr().err
    assert "at most 100,000 iterations a decision" in err and "Traceback" not in err
    assert main(["simulate", "hearts", "-n", "1", "--agents", name]) == 2
    assert "at most 100,000" in capsys.readouterr().err


def test_the_bound_itself_is_allowed_and_python_budgets_are_bounded() -> None:
    assert make_agent(f"ismcts:{MAX_ITERATIONS}").iterations == MAX_ITERATIONS  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="at most 100,000 a decision"):
        ISMCTSAgent(iterations=MAX_ITERATIONS + 1)
    assert ISMCTSAgent(iterations=10**9, seconds=1.0).iterations == 10**9  # the time bounds the search
    with pytest.raises(ValueError, match="at most 3,600"):
        ISMCTSAgent(seconds=MAX_SECONDS + 1)
    assert ISMCTSAgent(seconds=MAX_SECONDS).seconds == MAX_SECONDS
