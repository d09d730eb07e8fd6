"""Engine speed: random full games per second per shipped spec, and the cost of the state API.

Run: python benchmarks/bench_engine.py [--games N] [--repeat R]
Prints, per spec, the best of R runs of N games (one process, random agents), and the mean time
of one `legal_actions()` and one `apply_action()` call measured over whole games.
Targets on a 2-core machine: kingdoms (4 players, 4 rounds) >= 1,000 games/s;
meadows (4 players, a match of 4 deals) >= 2,500 matches/s.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import trickrules

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"kingdoms": 1000, "meadows": 2500}


def games_per_second(game: trickrules.Game, games: int, seed: int) -> float:
    """Random games per second: the loop every agent-based run goes through."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for n in range(games):
        state = game.new_initial_state(seed + n)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    return games / (time.perf_counter() - start)


def api_costs(game: trickrules.Game, games: int) -> tuple[float, float, float]:
    """Mean microseconds of legal_actions and apply_action, and actions per game."""
    rng = random.Random(1)
    legal_time = apply_time = 0.0
    actions = 0
    clock = time.perf_counter
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            state.apply_action(legal[int(rng.random() * len(legal))])
            t2 = clock()
            legal_time += t1 - t0
            apply_time += t2 - t1
            actions += 1
    return legal_time / actions * 1e6, apply_time / actions * 1e6, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for spec in ("kingdoms", "meadows"):
        game = trickrules.load_game(ROOT / "specs" / f"{spec}.yaml", players=4)
        games_per_second(game, 50, 0)  # warm the per-trumps tables
        rates = [games_per_second(game, args.games, 1000 * r) for r in range(args.repeat)]
        legal_us, apply_us, per_game = api_costs(game, max(50, args.games // 10))
        best = max(rates)
        verdict = "meets" if best >= TARGETS[spec] else "BELOW"
        print(
            f"{spec:9s} 4 players: {best:7.0f} games/s (best of {args.repeat} x {args.games}; runs: "
            f"{', '.join(f'{r:.0f}' for r in rates)}) {verdict} target {TARGETS[spec]}; "
            f"{per_game:.0f} actions/game, legal_actions {legal_us:.2f} us, apply_action {apply_us:.2f} us"
        )


if __name__ == "__main__":
    main()
