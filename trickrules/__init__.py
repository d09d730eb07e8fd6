"""trickrules: play trick-taking card games from rule specs written in YAML.

>>> import trickrules
>>> game = trickrules.load_game("specs/kingdoms.yaml", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.current_player()
1
"""

from __future__ import annotations

from trickrules.version import __version__

from trickrules.engine.agents import Agent, GreedyAgent, RandomAgent, make_agent
from trickrules.engine.ismcts import ISMCTSAgent
from trickrules.errors import IllegalActionError, Problem, SpecError, TrickrulesError
from trickrules.engine.game import Game, GameInfo, load_game
from trickrules.spec.loader import load_ruleset, load_ruleset_text
from trickrules.rules.ruleset import Ruleset
from trickrules.tools.simulate import Comparison, SimulationError, SimulationResult, compare, simulate
from trickrules.tools.tournament import TournamentResult, tournament
from trickrules.engine.state import TERMINAL_PLAYER, Phase, State
from trickrules.engine.playouts import play_games, play_out
from trickrules.learning import env, single_agent_env
from trickrules.tools.compiled_engine import check_build as _check_build

_check_build()

__all__ = [
    "Agent",
    "Comparison",
    "Game",
    "GameInfo",
    "GreedyAgent",
    "IllegalActionError",
    "ISMCTSAgent",
    "Phase",
    "Problem",
    "RandomAgent",
    "SimulationError",
    "SimulationResult",
    "Ruleset",
    "SpecError",
    "State",
    "TERMINAL_PLAYER",
    "TournamentResult",
    "TrickrulesError",
    "__version__",
    "compare",
    "env",
    "load_game",
    "load_ruleset",
    "load_ruleset_text",
    "make_agent",
    "play_games",
    "play_out",
    "simulate",
    "single_agent_env",
    "tournament",
]
