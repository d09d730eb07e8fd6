"""Cross-check specs/bridge.yaml against OpenSpiel's bridge over many random deals.

Run: python benchmarks/crosscheck_bridge.py [--games 10000] [--first-seed 0]
Plays OpenSpiel deals (``use_double_dummy_result=false``; calls drawn uniformly on even seeds
and by a policy that passes more often and bids low on odd seeds; vulnerability cycling through
none, dealer's side, other side, both; see tests/openspiel_bridge.py) and replays each in
trickrules from the same hands, comparing the current player and legal set at every call and
card, and the returns. Prints the deals by contract level and doubling, the passed-out deals,
the contracts made, the first differences and a final line ``N games, D differences, T s``;
exits with status 1 if any deal differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from openspiel_bridge import crosscheck_trace, replay_in_trickrules  # noqa: E402

SHOWN = 5
PROGRESS_EVERY = 1000
DOUBLING = ("undoubled", "doubled", "redoubled")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="deals to play (default 10000)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first deal (default 0)")
    args = parser.parse_args()
    start = time.perf_counter()
    by_contract: Counter[tuple[int, int]] = Counter()
    made: Counter[tuple[int, int]] = Counter()
    passed_out = decisions = 0
    differences: list[str] = []
    for n, seed in enumerate(range(args.first_seed, args.first_seed + args.games), 1):
        trace = crosscheck_trace(seed)
        decisions += len(trace.decisions)
        contract = trace.contract
        if contract is None:
            passed_out += 1
        else:
            by_contract[contract.level, contract.doubled] += 1
            made[contract.level, contract.doubled] += trace.made
        differences += replay_in_trickrules(trace)
        if n % PROGRESS_EVERY == 0:
            print(f"  {n} deals, {len(differences)} differences, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"{'level':>5s} " + " ".join(f"{word:>16s}" for word in DOUBLING) + f" {'all':>12s}")
    print(f"{'':5s} " + " ".join(f"{'deals (made)':>16s}" for _ in DOUBLING))
    for level in range(1, 8):
        cells = [f"{by_contract[level, d]:>8d} ({made[level, d]:>5d})" for d in range(3)]
        total = sum(by_contract[level, d] for d in range(3))
        wins = sum(made[level, d] for d in range(3))
        print(f"{level:>5d} " + " ".join(f"{c:>16s}" for c in cells) + f" {total:>5d} ({wins:>4d})")
    contracts = sum(by_contract.values())
    print(f"contracts {contracts}, made {sum(made.values())}, passed out {passed_out}; "
          f"{decisions} decisions compared")
    for text in differences[:SHOWN]:
        print("DIFFERENCE", text)
    print(f"{args.games} games, {len(differences)} differences, {time.perf_counter() - start:.0f} s")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
