"""Cross-check specs/skat.yaml against OpenSpiel's skat over many random deals.

Run: python benchmarks/crosscheck_skat.py [--games 10000] [--first-seed 0]
Plays OpenSpiel deals (bids drawn uniformly on even seeds and by a policy that passes more
often on odd seeds; see tests/openspiel_skat.py) and replays each in trickrules from the same
hands, comparing the current player and legal set at every bid, buried card and card played,
and the returns (OpenSpiel's times 240). Prints the deals by game, won and lost, the deals all
passed, the first differences and a final line ``N games, D differences, T s``; exits with
status 1 if any deal differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from openspiel_skat import GAMES, crosscheck_trace, replay_in_trickrules  # noqa: E402

SHOWN = 5
PROGRESS_EVERY = 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="deals to play (default 10000)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first deal (default 0)")
    args = parser.parse_args()
    start = time.perf_counter()
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    passed = decisions = 0
    differences: list[str] = []
    for n, seed in enumerate(range(args.first_seed, args.first_seed + args.games), 1):
        trace = crosscheck_trace(seed)
        decisions += len(trace.decisions)
        game = trace.game
        if game is None:
            passed += 1
        else:
            soloist = next(d.player for d in trace.decisions if d.kind == "declare" and d.chosen != "pass")
            played[game] += 1
            won[game] += trace.returns[soloist] > 0
        differences += replay_in_trickrules(trace)
        if n % PROGRESS_EVERY == 0:
            print(f"  {n} deals, {len(differences)} differences, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"{'game':>9s} {'deals':>6s} {'won':>6s}")
    for game in GAMES:
        print(f"{game:>9s} {played[game]:>6d} {won[game]:>6d}")
    print(f"all passed {passed}; {decisions} decisions compared")
    for text in differences[:SHOWN]:
        print("DIFFERENCE", text)
    print(f"{args.games} games, {len(differences)} differences, {time.perf_counter() - start:.0f} s")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
