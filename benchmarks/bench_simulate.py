"""Games per second of `simulate` on kingdoms (4 players, random agents), 1 and 2 workers.

    python benchmarks/bench_simulate.py            # about 10 s with one worker
    python benchmarks/bench_simulate.py --games 3000

Both runs play the same seeds; the script checks that their figures are identical and
prints the speed-up of two workers over one (process start-up included).
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from trickrules.tools.simulate import simulate

KINGDOMS = Path(__file__).resolve().parent.parent / "specs" / "kingdoms.yaml"


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the worker processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def games_per_second(n: int, workers: int) -> tuple[float, float, dict[str, object]]:
    """Wall-clock rate of one `simulate` call, the CPU seconds it used, and its figures."""
    started, cpu = time.perf_counter(), _cpu_seconds()
    result = simulate(KINGDOMS, n=n, players=4, agents="random", seed=0, workers=workers)
    return n / (time.perf_counter() - started), _cpu_seconds() - cpu, result.to_json()


def calibrated_games(seconds: float) -> int:
    """Games that take about `seconds` with one worker on this machine."""
    rate, _, _ = games_per_second(200, 1)
    return max(200, int(rate * seconds) // 100 * 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="games per run (default: about 10 s with one worker)")
    parser.add_argument("--seconds", type=float, default=10.0, help="target length of the one-worker run")
    args = parser.parse_args()
    n = args.games or calibrated_games(args.seconds)
    print(f"kingdoms, 4 players, random agents, {n} games, {os.cpu_count()} CPUs")
    print(f"load average before: {os.getloadavg()[0]:.2f} (other processes on the CPUs slow the runs down)")
    one, cpu_one, figures_one = games_per_second(n, 1)
    print(f"workers=1: {one:8.1f} games/s  ({n / one:.1f} s wall, {cpu_one:.1f} s CPU)")
    two, cpu_two, figures_two = games_per_second(n, 2)
    print(f"workers=2: {two:8.1f} games/s  ({n / two:.1f} s wall, {cpu_two:.1f} s CPU)")
    print(f"speed-up:  {two / one:.2f}x wall clock; {2 * cpu_one / cpu_two:.2f}x on two idle CPUs (from CPU time)")
    print(f"identical figures: {figures_one == figures_two}")


if __name__ == "__main__":
    main()
