"""Cross-check specs/euchre.yaml against OpenSpiel's "euchre" over many random hands.

Run: python benchmarks/crosscheck_euchre.py [--games 10000] [--workers 2] [--first-seed 0] [--no-stick-the-dealer]
Plays OpenSpiel hands of seeds first-seed.. with random chance outcomes (dealer, deal, up card)
and random decisions (default OpenSpiel parameters, or ``stick_the_dealer=false``; in hands with
seed % 4 == 1 bidders pass with chance 0.8 when they may, and with seed % 4 == 3 always, so that
the second round and the stuck dealer come up) and replays each in trickrules, comparing every
decision's player, kind (bid, discard, alone or play) and legal names, and the points at the end
through the zero-sum relation (see tests/openspiel_euchre.py). Prints progress every 1000 games,
the first differences, and a final line ``N games, D differences, T s``; exits with status 1 if
any hand differs, 2 if our spec does not load.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import trickrules  # noqa: E402
from openspiel_euchre import crosscheck_trace, load_trickrules_euchre, replay_in_trickrules  # noqa: E402

PROGRESS_EVERY = 1000
CHUNK = 250

_games: dict[bool, trickrules.Game] = {}


def crosscheck(job: tuple[int, int, bool]) -> tuple[int, list[str]]:
    """Cross-check `count` hands from seed `first` (with stick-the-dealer or not); return the count and the differences."""
    first, count, stick = job
    params: dict[str, Any] = {"stick_the_dealer": stick}
    if stick not in _games:
        _games[stick] = load_trickrules_euchre(params=params)
    differences = []
    for seed in range(first, first + count):
        differences += replay_in_trickrules(crosscheck_trace(seed, params), _games[stick])
    return count, differences


def results(jobs: list[tuple[int, int, bool]], workers: int) -> Iterator[tuple[int, list[str]]]:
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
    parser.add_argument(
        "--no-stick-the-dealer",
        action="store_true",
        help="OpenSpiel's stick_the_dealer=false and our option stick_the_dealer: false",
    )
    args = parser.parse_args()
    stick = not args.no_stick_the_dealer
    try:
        load_trickrules_euchre(params={"stick_the_dealer": stick})
    except trickrules.TrickrulesError as error:
        print(f"cannot load our Euchre: {error}", file=sys.stderr)
        return 2
    end = args.first_seed + args.games
    jobs = [(start, min(CHUNK, end - start), stick) for start in range(args.first_seed, end, CHUNK)]
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
