"""A status line while a bot thinks, for `trickrules play` on a terminal.

A searching agent (one with an ``iterations`` budget, such as ``ismcts:N``) can take seconds
a decision, and `play` prints the game only when it is over; on a terminal, `ThinkingAgent`
shows meanwhile which seat is thinking, with its budget, on one line of standard error that
each decision overwrites and the end of the game clears. Anywhere else (a pipe, a file, a
notebook) nothing is written and the agents are used as they are.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from trickrules.engine.agents import Agent
    from trickrules.engine.state import State

__all__ = ["ThinkingAgent", "budget_words", "clear", "thinking_agents"]

CLEAR = "\r\x1b[K"
"""Back to the start of the line and clear it (ANSI)."""


def budget_words(agent: Any) -> str | None:
    """A searching agent's budget a decision in words (``200 iterations``, ``200 iterations
    or 2 s``), or None for an agent that does not search."""
    iterations = getattr(agent, "iterations", None)
    if not isinstance(iterations, int):
        return None
    seconds = getattr(agent, "seconds", None)
    text = f"{iterations:,} iteration{'s' if iterations != 1 else ''}"
    return text + (f" or {seconds:g} s" if seconds else "") + " a decision"


class ThinkingAgent:
    """Plays as `agent` does, showing on `stream` a line while it decides."""

    def __init__(self, agent: Agent, seat: int, stream: TextIO) -> None:
        self.agent = agent
        self.name = agent.name  # records and logs name the agent itself
        self.seat = seat
        self.stream = stream
        self.decisions = 0
        self.budget = budget_words(agent) or "searching"

    def step(self, state: State) -> int:
        """The agent's action, with the status line shown while it decides."""
        self.decisions += 1
        legal = len(state.legal_actions())
        line = f"P{self.seat} ({self.name}) is thinking: decision {self.decisions}, {legal} choices, {self.budget}"
        self._write(CLEAR + line + " ...")
        start = time.perf_counter()
        try:
            return self.agent.step(state)
        finally:
            self._write(f"{CLEAR}{line}, took {time.perf_counter() - start:.1f} s")

    def done(self) -> None:
        """Clear the line (the game is over)."""
        self._write(CLEAR)

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def thinking_agents(agents: Sequence[Agent], stream: TextIO) -> list[Any]:
    """`agents` with each searching one wrapped in a `ThinkingAgent` when `stream` is a
    terminal; the agents as they are otherwise."""
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()):
        return list(agents)
    return [ThinkingAgent(a, seat, stream) if budget_words(a) is not None else a for seat, a in enumerate(agents)]


def clear(agents: Sequence[Any]) -> None:
    """Clear the status line, if a thinking agent drew one."""
    for agent in agents:
        if isinstance(agent, ThinkingAgent):
            agent.done()
            return
