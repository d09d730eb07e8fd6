"""Spec loading speed: time to read, check and compile each shipped spec, and to find its dead
rules (the warnings `validate` prints); targets: < 50 ms for all of it, < 10 ms for the warnings.

`load_ruleset` is timed on its own too: what loading a game costs from the file to its
ruleset (read, check, compile once for the player count loaded).

These are measurements, not tests: the suite asserts no time (a busy machine is slower), so
a change that may slow loading is checked here, on a quiet machine.

Run: python benchmarks/bench_load.py [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from trickrules.spec.checks import load_spec, spec_warnings
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.loader import load_ruleset
from trickrules.engine.game import Game

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for path in sorted((ROOT / "specs").glob("*.yaml")):
        if path.name.endswith(".examples.yaml"):
            continue
        times = {"read + check": [], "compile": [], "tables": [], "warnings": []}
        loads = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            load_ruleset(path)
            loads.append(time.perf_counter() - t)
            t0 = time.perf_counter()
            source = load_spec(path)
            t1 = time.perf_counter()
            ruleset = compile_ruleset(source)
            t2 = time.perf_counter()
            Game(ruleset).new_initial_state(0)
            t3 = time.perf_counter()
            spec_warnings(source, ruleset)
            t4 = time.perf_counter()
            times["read + check"].append(t1 - t0)
            times["compile"].append(t2 - t1)
            times["tables"].append(t3 - t2)
            times["warnings"].append(t4 - t3)
        total = [sum(parts) for parts in zip(*times.values())]
        parts = ", ".join(f"{k} {statistics.median(v) * 1000:.1f} ms" for k, v in times.items())
        verdict = "meets" if statistics.median(total) < 0.05 else "ABOVE"
        checks = "meets" if statistics.median(times["warnings"]) < 0.01 else "ABOVE"
        print(
            f"{path.name:14s} median {statistics.median(total) * 1000:5.1f} ms ({parts}); {verdict} target 50 ms, "
            f"warnings {checks} target 10 ms; load_ruleset {statistics.median(loads) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
