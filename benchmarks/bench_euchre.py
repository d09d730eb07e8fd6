"""Euchre speed side by side: random full hands (games) per second in OpenSpiel and in trickrules.

Run: python benchmarks/bench_euchre.py [--games N] [--repeat R]
Both engines play one hand of partnership Euchre (up to 8 bids, the dealer's discard after an
order-up, the maker's choice to go alone, then 5 tricks of 4 or 3 cards) with random chance
outcomes (OpenSpiel) or a seeded deal (trickrules) and random legal actions, through their Python
APIs in one process. OpenSpiel is "euchre" with its default parameters (one hand per game,
stick-the-dealer, no lone defenders); trickrules is specs/euchre.yaml with ``dealer: random`` and
``single_hand: true``. Prints the best of R runs of N hands per engine, the decisions (and, for
OpenSpiel, chance actions) per hand, and trickrules' speed over OpenSpiel's. If our spec does not
load, prints only the pyspiel row and exits with status 1.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel

import trickrules

ROOT = Path(__file__).resolve().parent.parent
EUCHRE_SPEC = ROOT / "specs" / "euchre.yaml"
EUCHRE_OPTIONS = {"dealer": "random", "single_hand": True}


def pyspiel_hands(game: Any, games: int, seed: int) -> tuple[float, float, float]:
    """OpenSpiel hands per second, decisions per hand and chance actions per hand."""
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


def trickrules_hands(game: Any, games: int, seed: int) -> tuple[float, float, float]:
    """trickrules hands per second, decisions per hand and chance actions per hand (none)."""
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, tuple[Any, Callable[[Any, int, int], tuple[float, float, float]]]] = {
        "pyspiel": (pyspiel.load_game("euchre"), pyspiel_hands)
    }
    try:
        runs["trickrules"] = (trickrules.load_game(EUCHRE_SPEC, options=EUCHRE_OPTIONS), trickrules_hands)
    except trickrules.TrickrulesError as error:
        print(f"trickrules: cannot load {EUCHRE_SPEC.relative_to(ROOT)}: {error}", file=sys.stderr)
    best: dict[str, tuple[float, float, float]] = {}
    for name, (game, hands) in runs.items():
        hands(game, 50, 0)  # warm up
        results = [hands(game, args.games, 1000 * r) for r in range(args.repeat)]
        rates = [r[0] for r in results]
        best[name] = (max(rates), *results[rates.index(max(rates))][1:])
    print(f"Euchre (one hand is one game), 4 players: best of {args.repeat} x {args.games} random games")
    print(f"{'engine':10s} {'games/s':>9s} {'actions/game':>13s} {'chance/game':>12s}")
    for name, (rate, decisions, chances) in best.items():
        print(f"{name:10s} {rate:9.0f} {decisions:13.1f} {chances:12.1f}")
    if "trickrules" not in best:
        return 1
    print(f"ratio trickrules / pyspiel: {best['trickrules'][0] / best['pyspiel'][0]:.2f}x games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
