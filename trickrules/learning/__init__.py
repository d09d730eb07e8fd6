"""Learning: any spec as a training environment.

`env` makes a PettingZoo AEC environment of a spec (every seat an agent), `single_agent_env`
a Gymnasium environment of one seat (given agents play the others). Both need the ``learn``
extra (``pip install 'trickrules[learn]'``: PettingZoo, Gymnasium, NumPy), imported only when
an environment is made; the rest of trickrules never needs it. The observation tensors they
show are the engine's own (`State.observation_tensor`), and need no extra.

>>> env = trickrules.env("hearts", options={"single_hand": True}, reward="trick")
>>> env.reset(seed=1)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from trickrules.engine.game import Game, load_game
from trickrules.errors import EnvSetupError, MissingExtraError
from trickrules.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from trickrules.engine.agents import Agent
    from trickrules.learning.aec import TrickEnv
    from trickrules.learning.single import SingleAgentEnv

Spec = str | os.PathLike[str] | Ruleset | Game
"""A spec as the environments take it: a path, a shipped spec's name, a ruleset or a game."""


def as_game(spec: Spec, players: int | None = None, options: Mapping[str, Any] | None = None) -> Game:
    """The game of `spec`; `players` and `options` compile a spec (a game is already compiled)."""
    if isinstance(spec, Game):
        if players not in (None, spec.num_players) or options:
            raise EnvSetupError("a Game is compiled already: give players and options when loading it, or pass the spec")
        return spec
    return load_game(spec, players=players, options=options)


def env(
    spec: Spec,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    reward: str = "game",
    render_mode: str | None = None,
) -> TrickEnv:
    """A PettingZoo AEC environment of `spec`, agents ``player_0`` to ``player_{n-1}``.

    `reward` says when rewards are paid: ``game`` (the final totals), ``round`` (each round's
    points) or ``trick`` (after each trick, the change in what the round would score now);
    points count negative in a spec whose winner has the fewest, and partners share theirs.
    See `trickrules.learning.aec` for observations, seeding and illegal actions.
    """
    _need_extra()
    from trickrules.learning.aec import TrickEnv

    return TrickEnv(as_game(spec, players, options), reward, render_mode)


def single_agent_env(
    spec: Spec,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seat: int = 0,
    opponents: str | Agent | Sequence[str | Agent] = "random",
    reward: str = "game",
    render_mode: str | None = None,
) -> SingleAgentEnv:
    """A Gymnasium environment of seat `seat` of `spec`, `opponents` playing the other seats:
    ``random``, ``greedy`` or `Agent` objects, one for all or one per other seat in seat order.
    Rewards as in `env`; see `trickrules.learning.single`."""
    _need_extra()
    from trickrules.learning.single import SingleAgentEnv

    return SingleAgentEnv(as_game(spec, players, options), seat, opponents, reward, render_mode)


def _need_extra() -> None:
    """Raise `MissingExtraError` unless the ``learn`` extra is installed."""
    missing = []
    for module in ("numpy", "gymnasium", "pettingzoo"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise MissingExtraError(
            f"the learning environments need {', '.join(missing)}: pip install 'trickrules[learn]'"
        )


__all__ = ["Spec", "as_game", "env", "single_agent_env"]
