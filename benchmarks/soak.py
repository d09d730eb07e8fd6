"""Soak run: many random games of every shipped spec and player count, checking each one.

Run: python benchmarks/soak.py [--games 100000] [--workers 2]
Games are spread evenly over every (spec, player count); each game is played to the end with
random agents and checked: no legal-action list is empty before the end, the game ends within
`GameInfo.max_game_length`, the round results add up to the totals, there is at least one winner,
and every card is in exactly one place at the end of each round. Prints counts, failures and time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

import trickrules

ROOT = Path(__file__).resolve().parent.parent


def targets() -> list[tuple[str, int]]:
    """Every shipped spec with every allowed player count."""
    found = []
    for path in sorted((ROOT / "specs").glob("*.yaml")):
        if not path.name.endswith(".examples.yaml"):
            found += [(str(path), p) for p in trickrules.load_ruleset(path).allowed_players]
    return found


def check_cards(state: trickrules.State) -> None:
    """Every card is in exactly one place."""
    places = [c for hand in state.hands for c in hand] + list(state.trick) + list(state.set_aside)
    places += [c for pile in state.piles for c in pile] + [c for row in state.stacks for s in row for c in s]
    places += list(state.place_queue)
    counts = Counter(places)
    if sorted(counts) != list(range(state.game.num_cards)) or max(counts.values()) != 1:
        raise AssertionError("cards lost or duplicated")


def soak(job: tuple[str, int, int, int]) -> tuple[str, int, int, list[str]]:
    """Play `count` games of one spec and player count from `first_seed`; return failures."""
    path, players, first_seed, count = job
    game = trickrules.load_game(path, players=players)
    limit = game.info().max_game_length
    rng = random.Random(first_seed)
    failures = []
    for seed in range(first_seed, first_seed + count):
        try:
            state = game.new_initial_state(seed)
            rounds_seen = 0
            while not state.is_terminal():
                if state.round != rounds_seen:
                    rounds_seen = state.round
                    check_cards(state)
                legal = state.legal_actions()
                assert legal, "no legal action before the end"
                state.apply_action(legal[int(rng.random() * len(legal))])
            assert len(state.history) <= limit, "longer than max_game_length"
            totals = [sum(r["points"][p] for r in state.round_results) for p in range(players)]
            assert totals == state.totals, "round results do not add up to the totals"
            assert state.winners(), "no winner"
        except Exception as error:  # a soak run reports every failure and goes on
            failures.append(f"{Path(path).name} {players}p seed {seed}: {type(error).__name__}: {error}")
    return Path(path).stem, players, count, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--chunk", type=int, default=2000)
    args = parser.parse_args()
    combos = targets()
    per_combo = args.games // len(combos)
    jobs = [
        (path, players, 10_000_000 + start, min(args.chunk, per_combo - start))
        for path, players in combos
        for start in range(0, per_combo, args.chunk)
    ]
    began = time.perf_counter()
    played: Counter[tuple[str, int]] = Counter()
    failures: list[str] = []
    with multiprocessing.Pool(args.workers) as pool:
        for done, (spec, players, count, failed) in enumerate(pool.imap_unordered(soak, jobs), 1):
            played[(spec, players)] += count
            failures += failed
            print(f"\r{done}/{len(jobs)} chunks, {sum(played.values())} games, {len(failures)} failures", end="", file=sys.stderr)
    elapsed = time.perf_counter() - began
    print(file=sys.stderr)
    for (spec, players), count in sorted(played.items()):
        print(f"{spec:9s} {players}p: {count} games")
    print(f"total {sum(played.values())} games in {elapsed:.1f} s with {args.workers} workers; {len(failures)} failures")
    for line in failures[:20]:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
