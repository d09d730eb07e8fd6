"""Classic games side by side: random one-hand games per second in OpenSpiel and in trickrules.

Run: python benchmarks/bench_classics.py [GAME ...] [--games N] [--repeat R]
GAME is hearts, spades, oh_hell, euchre, bridge, skat, tarok (four players) or tarok3 (three)
(default: all eight). For each, both engines
play one hand with random chance outcomes (OpenSpiel) or a seeded deal (trickrules) and random
legal actions, through their Python APIs in one process: OpenSpiel's game with its default
parameters (oh_hell with 3 players; bridge played out card by card, use_double_dummy_result=
false), and our spec with the options that make it play the same game (a random pass direction,
number of tricks or dealer, one hand). Prints the best of R runs of N
hands per engine, the decisions (and, for OpenSpiel, chance actions) per hand, and trickrules'
speed over OpenSpiel's. A spec that does not load prints only the pyspiel row (exit status 1).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

import trickrules

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Classic:
    """One classic: OpenSpiel's game and our spec set up to play it."""

    title: str
    spec: str
    options: dict[str, Any]
    players: int | None = None
    parameters: dict[str, Any] = field(default_factory=dict)
    game: str = ""  # OpenSpiel's name of the game, where it is not the classic's


CLASSICS = {
    "hearts": Classic("Hearts", "hearts.yaml", {"pass_direction": "random", "single_hand": True}),
    "spades": Classic("Spades", "spades.yaml", {"spades_broken": "never", "single_hand": True}),
    "oh_hell": Classic("Oh Hell", "oh-hell.yaml", {"hand_size": "random", "dealer": "random", "single_hand": True}, 3, {"players": 3}),
    "euchre": Classic("Euchre", "euchre.yaml", {"dealer": "random", "single_hand": True}),
    "bridge": Classic("Bridge", "bridge.yaml", {}, parameters={"use_double_dummy_result": False}),
    "skat": Classic("Skat", "skat.yaml", {}, 3),
    "tarok": Classic("Tarok", "tarok.yaml", {"openspiel_bonuses": True}, 4, {"players": 4}),
    "tarok3": Classic("Tarok", "tarok.yaml", {"openspiel_bonuses": True}, 3, {"players": 3}, game="tarok"),
}

Result = tuple[float, float, float]
"""Hands per second, decisions per hand, chance actions per hand."""


def pyspiel_hands(game: Any, games: int, seed: int) -> Result:
    rng = random.Random(seed)
    decisions = chances = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                chances += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                decisions += 1
    return games / (time.perf_counter() - start), decisions / games, chances / games


def trickrules_hands(game: Any, games: int, seed: int) -> Result:
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for n in range(games):
        state = game.new_initial_state(seed=seed + n)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            decisions += 1
    return games / (time.perf_counter() - start), decisions / games, 0.0


def bench(name: str, classic: Classic, games: int, repeat: int) -> bool:
    """Print one classic's table; False when our spec does not load."""
    runs: dict[str, tuple[Any, Callable[[Any, int, int], Result]]] = {
        "pyspiel": (pyspiel.load_game(classic.game or name, classic.parameters), pyspiel_hands)
    }
    try:
        ours = trickrules.load_game(ROOT / "specs" / classic.spec, players=classic.players, options=classic.options)
        runs["trickrules"] = (ours, trickrules_hands)
    except trickrules.TrickrulesError as error:
        print(f"trickrules: cannot load specs/{classic.spec}: {error}", file=sys.stderr)
    best: dict[str, Result] = {}
    for engine, (game, hands) in runs.items():
        hands(game, 50, 0)  # warm up
        results = [hands(game, games, 1000 * r) for r in range(repeat)]
        best[engine] = max(results)
    players = classic.players or 4
    print(f"{classic.title} (one hand is one game), {players} players: best of {repeat} x {games} random games")
    print(f"{'engine':10s} {'games/s':>9s} {'actions/game':>13s} {'chance/game':>12s}")
    for engine, (rate, decisions, chances) in best.items():
        print(f"{engine:10s} {rate:9.0f} {decisions:13.1f} {chances:12.1f}")
    if "trickrules" not in best:
        return False
    print(f"ratio trickrules / pyspiel: {best['trickrules'][0] / best['pyspiel'][0]:.2f}x games/s\n")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", choices=[[], *CLASSICS], help=", ".join(CLASSICS))
    parser.add_argument("--games", type=int, default=2000, help="hands per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per engine; the best counts (default 3)")
    args = parser.parse_args()
    names = args.games_to_run or list(CLASSICS)
    ok = [bench(name, CLASSICS[name], args.games, args.repeat) for name in names]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
