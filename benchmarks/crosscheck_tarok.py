"""Cross-check specs/tarok.yaml against OpenSpiel's tarok over many random games.

Run: python benchmarks/crosscheck_tarok.py [--games 10000] [--players 3|4] [--first-seed 0]
Plays OpenSpiel games (its deal seeded by the game's seed; bidding aimed at a contract drawn per
game, cards played in one of a few styles; see tests/openspiel_tarok.py) and replays each in
trickrules from the same hands and talon, comparing the current player and legal set at every
bid, king called, talon group, buried card and card played, and the returns. Checks each game
against our reading of OpenSpiel's rules too. Prints the games by contract (won, ended early),
how often each event came up, the decisions compared, the first differences and a final line
``N games, D differences, T s``; exits with status 1 if any game differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from openspiel_tarok import FACTS, check_trace, contracts_for, crosscheck_trace, replay_in_trickrules  # noqa: E402

SHOWN = 5
PROGRESS_EVERY = 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4, help="3 or 4 players (default 4)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args()
    start = time.perf_counter()
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    early: Counter[str] = Counter()
    facts: Counter[str] = Counter()
    decisions = 0
    differences: list[str] = []
    misread: list[str] = []
    for n, seed in enumerate(range(args.first_seed, args.first_seed + args.games), 1):
        trace = crosscheck_trace(seed, args.players)
        decisions += len(trace.decisions)
        played[trace.contract] += 1
        won[trace.contract] += "declarer won" in trace.facts
        early[trace.contract] += "ended early" in trace.facts
        facts.update(trace.facts)
        misread += [f"seed {seed}: {p}" for p in check_trace(trace)]
        differences += replay_in_trickrules(trace)
        if n % PROGRESS_EVERY == 0:
            print(f"  {n} games, {len(differences)} differences, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"{args.players} players")
    print(f"{'contract':>20s} {'games':>6s} {'won':>6s} {'early':>6s}")
    for contract in contracts_for(args.players):
        shown = "-" if contract == "klop" else str(won[contract])  # klop has no declarer to win
        print(f"{contract:>20s} {played[contract]:>6d} {shown:>6s} {early[contract]:>6d}")
    for fact in FACTS:
        if fact not in ("declarer won", "declarer lost", "ended early"):
            print(f"  {facts[fact]:>6d}  {fact}")
    print(f"{decisions} decisions compared")
    for text in misread[:SHOWN]:
        print("MISREAD", text)
    for text in differences[:SHOWN]:
        print("DIFFERENCE", text)
    print(f"{args.games} games, {len(differences)} differences, {time.perf_counter() - start:.0f} s")
    return 1 if differences or misread else 0


if __name__ == "__main__":
    sys.exit(main())
