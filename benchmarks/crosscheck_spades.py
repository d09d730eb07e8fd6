"""Cross-check specs/spades.yaml against OpenSpiel's "spades" over many random hands.

Run: python benchmarks/crosscheck_spades.py [--games 10000] [--workers 2] [--first-seed 0]
Plays OpenSpiel hands of seeds first-seed.. with random chance outcomes and random decisions
(default OpenSpiel parameters; every fourth hand, seed % 4 == 3, bids at most 1 so that bag
penalties and double Nils come up) and replays each in trickrules, comparing every decision's
player, kind and legal bids or cards, and each player's hand score at the end (see
tests/openspiel_spades.py). Prints progress every 1000 games, the first differences, and a final
line ``N games, D differences, T s``; exits with status 1 if any hand differs, 2 if our spec does
not load.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import trickrules  # noqa: E402
from openspiel_spades import crosscheck_trace, load_trickrules_spades, replay_in_trickrules  # noqa: E402

PROGRESS_EVERY = 1000
CHUNK = 250

_game: trickrules.Game | None = None


def crosscheck(job: tuple[int, int]) -> tuple[int, list[str]]:
    """Cross-check `count` hands from seed `first`; return the count and the differences."""
    global _game
    if _game is None:
        _game = load_trickrules_spades()
    first, count = job
    differences = []
    for seed in range(first, first + count):
        differences += replay_in_trickrules(crosscheck_trace(seed), _game)
    return count, differences


def results(jobs: list[tuple[int, int]], workers: int) -> Iterator[tuple[int, list[str]]]:
    """The jobs' results as they finish, over `workers` processes (in this one if 1)."""
    if workers <= 1:
        yield from map(crosscheck, jobs)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap_unordered(crosscheck, jobs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=10, help="differences to print in full")
    args = parser.parse_args()
    try:
        load_trickrules_spades()
    except trickrules.TrickrulesError as error:
        print(f"cannot load our Spades: {error}", file=sys.stderr)
        return 2
    end = args.first_seed + args.games
    jobs = [(start, min(CHUNK, end - start)) for start in range(args.first_seed, end, CHUNK)]
    began = time.perf_counter()
    done = 0
    differences: list[str] = []
    for count, found in results(jobs, args.workers):
        before, done = done, done + count
        differences += found
        if done // PROGRESS_EVERY > before // PROGRESS_EVERY:
            elapsed = time.perf_counter() - began
            print(f"{done} games, {len(differences)} differences, {elapsed:.1f} s", flush=True)
    elapsed = time.perf_counter() - began
    for line in differences[: args.show]:
        print("  " + line)
    print(f"{done} games, {len(differences)} differences, {elapsed:.1f} s")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
