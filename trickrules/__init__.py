"""trickrules: play trick-taking card games from rule specs written in YAML.

>>> import trickrules
>>> game = trickrules.load_game("specs/kingdoms.yaml", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player()
1
"""

from __future__ import annotations

__version__ = "0.1.0"

from .agents import Agent, GreedyAgent, RandomAgent, make_agent
from .errors import IllegalActionError, Problem, SpecError, TrickrulesError
from .game import Game, GameInfo, load_game
from .loader import load_ruleset, load_ruleset_text
from .ruleset import Ruleset
from .simulate import Comparison, SimulationError, SimulationResult, compare, simulate
from .state import TERMINAL_PLAYER, Phase, State

__all__ = [
    "Agent",
    "Comparison",
    "Game",
    "GameInfo",
    "GreedyAgent",
    "IllegalActionError",
    "Phase",
    "Problem",
    "RandomAgent",
    "SimulationError",
    "SimulationResult",
    "Ruleset",
    "SpecError",
    "State",
    "TERMINAL_PLAYER",
    "TrickrulesError",
    "__version__",
    "compare",
    "load_game",
    "load_ruleset",
    "load_ruleset_text",
    "make_agent",
    "simulate",
]
