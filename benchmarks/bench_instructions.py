"""Instructions per random game of the compiled many-games loop, counted by valgrind's callgrind.

    python benchmarks/bench_instructions.py                       # every shipped spec
    python benchmarks/bench_instructions.py --specs euchre --games 2000

Seconds depend on what else a shared machine is doing; instruction counts do not, so two
versions of the engine can be compared in separate runs. The compiled engine is built in
``.cache/compiled`` (as ``bench_speed.py`` builds it) and each spec's games run under
``valgrind --tool=callgrind``, counting only inside the loop of `trickrules.play_games` (not
start-up, not loading the spec). Needs valgrind and mypyc.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

SPECS = ("kingdoms", "meadows", "hearts", "spades", "oh_hell", "euchre", "bridge", "skat")
LOOP = "CPyDef_playouts____play_gen_____mypyc_generator_helper__"
"""The compiled body of `play_games`'s loop: callgrind counts only inside it."""

CHILD = """
import sys
sys.path.insert(0, {benchmarks!r})
import bench_speed, trickrules
game = bench_speed.load({name!r})
for _ in trickrules.play_games(game, {games}, seed=0, agents=trickrules.RandomAgent(0), record=False):
    pass
"""


def count(tree: Path, name: str, games: int) -> float:
    """Instructions per game of `name` in the compiled copy at `tree`."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        script = CHILD.format(benchmarks=str(ROOT / "benchmarks"), name=name, games=games)
        command = ["valgrind", "--tool=callgrind", f"--toggle-collect={LOOP}", f"--callgrind-out-file={out}", sys.executable, "-c", script]
        done = subprocess.run(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"callgrind failed on {name}:\n{done.stderr[-2000:]}")
        return int(found.group(1)) / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="+", default=list(SPECS), choices=SPECS, metavar="SPEC", help=", ".join(SPECS))
    parser.add_argument("--games", type=int, default=500, help="games per spec (kingdoms: a fifth; default 500)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (it counts the instructions)")
    from trickrules.tools.build_compiled import BuildError, compiled_copy

    try:
        tree = compiled_copy(ROOT, ROOT / ".cache" / "compiled")
    except BuildError as error:
        raise SystemExit(f"the compiled engine cannot be built here: {error}")
    print("instructions per random game, compiled many-games loop")
    for name in args.specs:
        games = max(20, args.games // 5) if name == "kingdoms" else args.games
        print(f"{name:9s} {count(tree, name, games):>12,.0f}   ({games} games)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
