"""Cross-check a classic spec against OpenSpiel's game of the same rules over many random hands.

Run: python benchmarks/crosscheck_classics.py GAME [--games 10000] [--workers 2] [--first-seed 0]
       [--no-stick-the-dealer]
GAME is hearts, spades, oh_hell (3 players) or euchre. Plays random OpenSpiel hands (default
parameters; the spades and euchre traces steer some hands to rare bids and passes, see
tests/openspiel_*.py) and replays each in trickrules from the same deal and chance outcomes,
comparing every decision's player, kind and legal choices, and the scores at the end.
``--no-stick-the-dealer`` plays euchre with OpenSpiel's stick_the_dealer=false and our option of
that name off. Prints progress every 1000 hands, the first differences, and a final line
``N games, D differences, T s``; exits with status 1 if any hand differs, 2 if our spec does not
load.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import trickrules  # noqa: E402

PROGRESS_EVERY = 1000
CHUNK = 250
TRACES = {"hearts": "play_openspiel_game", "spades": "crosscheck_trace", "oh_hell": "play_openspiel_game", "euchre": "crosscheck_trace"}
"""The function of each game's helper module (tests/openspiel_GAME.py) that plays an OpenSpiel hand."""

Job = tuple[str, int, int, tuple[tuple[str, Any], ...]]
_games: dict[tuple[str, tuple[tuple[str, Any], ...]], trickrules.Game] = {}


def helpers(name: str) -> tuple[Callable[..., Any], Callable[..., trickrules.Game], Callable[..., list[str]]]:
    """A game's trace function, our game's loader and the replay, from tests/openspiel_GAME.py
    (and, where a game keeps its own reading of the rules apart, tests/openspiel_GAME_reading.py)."""
    modules = [importlib.import_module(f"openspiel_{name}")]
    if (ROOT / "tests" / f"openspiel_{name}_reading.py").exists():
        modules.append(importlib.import_module(f"openspiel_{name}_reading"))

    def find(attribute: str) -> Any:
        return next(getattr(m, attribute) for m in modules if hasattr(m, attribute))

    return find(TRACES[name]), find(f"load_trickrules_{name}"), find("replay_in_trickrules")


def load(name: str, params: tuple[tuple[str, Any], ...]) -> trickrules.Game:
    _, loader, _ = helpers(name)
    return loader(params=dict(params)) if params else loader()


def crosscheck(job: Job) -> tuple[int, list[str]]:
    """Cross-check `count` hands from seed `first`; return the count and the differences."""
    name, first, count, params = job
    trace, _, replay = helpers(name)
    if (name, params) not in _games:
        _games[name, params] = load(name, params)
    game = _games[name, params]
    differences = []
    for seed in range(first, first + count):
        differences += replay(trace(seed, dict(params)) if params else trace(seed), game)
    return count, differences


def results(jobs: list[Job], workers: int) -> Iterator[tuple[int, list[str]]]:
    """The jobs' results as they finish, over `workers` processes (in this one if 1)."""
    if workers <= 1:
        yield from map(crosscheck, jobs)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap_unordered(crosscheck, jobs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=list(TRACES), help="the classic to cross-check")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=10, help="differences to print in full")
    parser.add_argument("--no-stick-the-dealer", action="store_true", help="euchre only: stick_the_dealer off on both sides")
    args = parser.parse_args()
    if args.no_stick_the_dealer and args.game != "euchre":
        parser.error("--no-stick-the-dealer is for euchre")
    params: tuple[tuple[str, Any], ...] = (("stick_the_dealer", False),) if args.no_stick_the_dealer else ()
    try:
        load(args.game, params)
    except trickrules.TrickrulesError as error:
        print(f"cannot load our {args.game}: {error}", file=sys.stderr)
        return 2
    end = args.first_seed + args.games
    jobs = [(args.game, start, min(CHUNK, end - start), params) for start in range(args.first_seed, end, CHUNK)]
    began = time.perf_counter()
    done = 0
    differences: list[str] = []
    for count, found in results(jobs, args.workers):
        before, done = done, done + count
        differences += found
        if done // PROGRESS_EVERY > before // PROGRESS_EVERY:
            print(f"{done} games, {len(differences)} differences, {time.perf_counter() - began:.1f} s", flush=True)
    for line in differences[: args.show]:
        print("  " + line)
    print(f"{done} games, {len(differences)} differences, {time.perf_counter() - began:.1f} s")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
