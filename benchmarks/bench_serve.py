"""Server time of `trickrules serve`: the time per decision of a game played through the HTTP
API (a human seat answering as soon as asked, bots at no pace), and the slowest answer to a
state request while an ISMCTS seat thinks. The issue's targets: under a second per decision,
and answers while a bot thinks.

    python benchmarks/bench_serve.py [--decisions 200] [--ismcts 1500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from serve_helpers import served  # noqa: E402


def per_decision(decisions: int) -> tuple[int, float]:
    with served(ROOT / "specs" / "hearts.yaml", seats="human,greedy", seed=21, pace=0) as (_, client):
        start = time.perf_counter()
        view = client.state(0)
        while view["turn"] < decisions and not view["terminal"]:
            if view["decisions"]:
                client.post("/api/action", {"seat": 0, "action": view["decisions"][0]["action"]})
            view = client.state(0, since=view["version"])
        return view["turn"], time.perf_counter() - start


def while_thinking(iterations: int) -> tuple[int, float]:
    with served(ROOT / "specs" / "hearts.yaml", seats=f"ismcts:{iterations},random", seed=1, pace=0) as (_, client):
        start, slowest, answers = time.perf_counter(), 0.0, 0
        while time.perf_counter() - start < 3:
            asked = time.perf_counter()
            if client.state(1)["thinking"] == 0:
                answers += 1
                slowest = max(slowest, time.perf_counter() - asked)
            time.sleep(0.02)
        return answers, slowest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--ismcts", type=int, default=1500)
    args = parser.parse_args()
    made, seconds = per_decision(args.decisions)
    print(f"hearts through the API: {made} decisions in {seconds:.2f} s, {1000 * seconds / max(made, 1):.1f} ms a decision")
    answers, slowest = while_thinking(args.ismcts)
    print(f"while ismcts:{args.ismcts} thinks: {answers} state answers in 3 s, the slowest {1000 * slowest:.0f} ms")


if __name__ == "__main__":
    main()
