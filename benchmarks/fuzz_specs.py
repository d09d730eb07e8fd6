"""Explore "a spec that validates plays" with fresh randomness: draw N specs from the shipped
JSON Schema (tests/specgen.py), and for each, either a refusal with coded, placed problems or
20 random games played to their end. Anything else is a crash: its spec and traceback are
written to the output folder, to become a regression example.

    python benchmarks/fuzz_specs.py 10000                 # fresh randomness
    python benchmarks/fuzz_specs.py 10000 --seed 1        # a reproducible run
    python benchmarks/fuzz_specs.py 500 --out /tmp/crashes

Prints the outcome counts, the problem codes of the refusals, and the crashes by kind.
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from specgen import play_or_refuse, spec_strategy  # noqa: E402

from trickrules.errors import SpecError  # noqa: E402
from trickrules.spec.checks import load_spec_text  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", type=int, help="how many specs to draw")
    parser.add_argument("--seed", type=int, default=None, help="a seed for a reproducible run (default: fresh randomness)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-crashes"), help="where crashing specs are written")
    parser.add_argument("--memory", type=int, default=4, help="GiB this process may use: more is a crash (MemoryError)")
    args = parser.parse_args(argv)
    limit = args.memory * 2**30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if args.specs < 1:
        parser.error("specs must be at least 1")
    outcomes: collections.Counter[str] = collections.Counter()
    codes: collections.Counter[str] = collections.Counter()
    crashes: collections.Counter[str] = collections.Counter()
    started = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)

    @settings(max_examples=args.specs, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(spec_strategy())
    def explore(case: tuple[str, int]) -> None:
        text, players = case
        (args.out / "current.yaml").write_text(f"# players: {players}\n{text}", "utf-8")  # the spec under way
        try:
            outcome = play_or_refuse(text, players)
        except (Exception, MemoryError, RecursionError) as error:  # noqa: BLE001 - every crash is kept
            outcome = "crash"
            kind = f"{type(error).__name__}: {str(error)[:100]}"
            crashes[kind] += 1
            number = sum(crashes.values())
            (args.out / f"crash-{number:05d}.yaml").write_text(
                f"# players: {players}\n# " + traceback.format_exc().replace("\n", "\n# ") + "\n" + text, "utf-8"
            )
        if outcome == "refused":
            try:
                load_spec_text(text, "generated.yaml", every_count=True)  # compiled for every count: the compiler's codes too
            except SpecError as error:
                codes[error.problems[0].code] += 1
        outcomes[outcome] += 1
        done = sum(outcomes.values())
        if done % 500 == 0:
            print(f"  {done:,} specs, {time.perf_counter() - started:.0f} s: {dict(outcomes)}", file=sys.stderr, flush=True)

    if args.seed is not None:
        explore = seed(args.seed)(explore)
    explore()
    total = sum(outcomes.values())
    print(f"{total:,} specs in {time.perf_counter() - started:.0f} s: "
          f"{outcomes['refused']:,} refused, {outcomes['played']:,} played 20 games each, {outcomes['crash']:,} crashed")
    print("first problem of the refused specs (refused at the schema and meaning checks; the rest at compiling):")
    for code, count in codes.most_common(12):
        print(f"  {code}: {count:,}")
    for kind, count in crashes.most_common():
        print(f"  crash x{count}: {kind}")
    return 1 if outcomes["crash"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
