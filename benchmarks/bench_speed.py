"""Speed of every shipped spec, pure-Python and compiled, public API and many-games loop, and
OpenSpiel's classics through pyspiel: side by side in one run.

    python benchmarks/bench_speed.py                 # about two minutes
    python benchmarks/bench_speed.py --games 500 --repeat 2 --specs hearts kingdoms

Each engine runs in a child process, one after the other, on the same seeds:
- ``pure``: the pure-Python modules of this checkout (the reference);
- ``compiled``: the same sources compiled with mypyc in ``.cache/compiled`` (built on first use,
  as ``tests/test_compiled.py`` builds it; left out where mypyc or a C compiler is missing).
Two ways of playing, both random agents, one process:
- ``api``: ``legal_actions()`` and ``apply_action()`` per decision, as any program plays;
- ``loop``: `trickrules.play_games` with one `RandomAgent` (the same games, see
  ``tests/test_playouts.py``), the loop `simulate` runs.
kingdoms and meadows play with 4 players and their default options (a game of 4 rounds, a match
of 4 deals); hearts, spades, oh_hell and euchre play one hand with the options that make them
OpenSpiel's game (``benchmarks/bench_classics.py``), against pyspiel with its default parameters
(oh_hell with 3 players), whose chance outcomes (the deal) are drawn through its API. pyspiel
runs in each engine's process, its runs taking turns with trickrules' runs of the same spec, and
each engine's ratio is against its own pyspiel runs: a slow spell of a shared machine slows both.
kingdoms and meadows also run a hand-written pure-Python program of the same random games
(``handwritten_kingdoms.py``, ``handwritten_meadows.py``, checked to play the same games), taking
turns in each engine's process as pyspiel does: the engine's slowdown against code written for
one game.
Also: clones per second, and a clone-then-playout loop as a search bot runs it.
Prints the best of R runs of N games per figure, and trickrules over pyspiel.

``--before PATH`` measures another checkout too (an earlier commit: ``git worktree add PATH
COMMIT``), its engines taking turns with this one's in the same run: ``before pure`` from its
sources, ``before compiled`` from its ``.cache/compiled/tree`` when built there (running its own
``benchmarks/bench_instructions.py`` or ``bench_speed.py`` once builds it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

SPECS = ("kingdoms", "meadows", "hearts", "spades", "oh_hell", "euchre", "bridge", "skat")
CLASSIC_NAMES = ("hearts", "spades", "oh_hell", "euchre", "bridge", "skat")
HANDWRITTEN = {"kingdoms": "handwritten_kingdoms", "meadows": "handwritten_meadows"}
"""The hand-written program of each seed game (in benchmarks/), the yardstick of its speed."""


def load(name: str) -> Any:
    import trickrules
    from bench_classics import CLASSICS

    root = Path(trickrules.__file__).resolve().parent.parent
    if name in CLASSICS:
        classic = CLASSICS[name]
        return trickrules.load_game(root / "specs" / classic.spec, players=classic.players, options=classic.options)
    return trickrules.load_game(root / "specs" / f"{name}.yaml", players=4)


def api_rate(game: Any, games: int, seed: int) -> float:
    import random

    rng = random.Random(seed)
    start = time.perf_counter()
    for number in range(seed, seed + games):
        state = game.new_initial_state(number)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    return games / (time.perf_counter() - start)


def loop_rate(game: Any, games: int, seed: int) -> float:
    import trickrules

    start = time.perf_counter()
    for _ in trickrules.play_games(game, games, seed=seed, agents=trickrules.RandomAgent(seed)):
        pass
    return games / (time.perf_counter() - start)


def clone_rates(game: Any, games: int, seed: int) -> tuple[float, float]:
    """Clones per second of states met in random games, and clone-then-playout per second."""
    import trickrules

    states = []
    for state in trickrules.play_games(game, max(4, games // 50), seed=seed, agents=trickrules.RandomAgent(seed), record=False):
        states.append(state)
    # states in progress: replay each finished game's first half
    middles = []
    for state in states:
        middle = game.new_initial_state(state.seed)
        for action in state.history[: len(state.history) // 2]:
            middle.apply_action(action)
        middles.append(middle)
    count = max(1000, games * 5)
    start = time.perf_counter()
    for n in range(count):
        middles[n % len(middles)].clone()
    clones = count / (time.perf_counter() - start)
    agent = [trickrules.RandomAgent(seed)]
    start = time.perf_counter()
    for n in range(games):
        trickrules.play_out(middles[n % len(middles)].clone(), agent * game.num_players)
    return clones, games / (time.perf_counter() - start)


def child(games: int, repeat: int, specs: list[str]) -> None:
    """Measure in this process and print one JSON line. The runs of one spec take turns (API,
    loop, pyspiel, again), so that a slow spell of a shared machine slows all three alike."""
    from trickrules.tools.build_compiled import compiled

    spiel = pyspiel_games(specs)
    figures: dict[str, Any] = {"compiled": compiled()}
    for name in specs:
        game = load(name)
        count = max(50, games // 4) if name == "kingdoms" else games
        api_rate(game, 20, 0)  # warm the per-trumps tables
        rates: dict[str, list[float]] = {"api": [], "loop": [], "pyspiel": [], "by hand": []}
        by_hand = HANDWRITTEN.get(name)
        for r in range(repeat):
            rates["api"].append(api_rate(game, count, 1000 * r))
            rates["loop"].append(loop_rate(game, count, 1000 * r))
            if name in spiel:
                rates["pyspiel"].append(spiel[name](count, 1000 * r))
            if by_hand is not None:
                rates["by hand"].append(__import__(by_hand).rate(count, 1000 * r))
        clones, playouts = clone_rates(game, count, 7)
        figures[name] = {way: max(values) for way, values in rates.items() if values}
        figures[name] |= {"clones": clones, "playouts": playouts}
    print(json.dumps(figures))


def pyspiel_games(specs: list[str]) -> dict[str, Any]:
    """For each classic among `specs`, a function (games, seed) -> pyspiel's games per second."""
    try:
        import pyspiel
    except ImportError:
        print("pyspiel is not installed (the test extra brings open-spiel): no OpenSpiel figures", file=sys.stderr)
        return {}
    from bench_classics import CLASSICS, pyspiel_hands

    found = {}
    for name in specs:
        if name in CLASSIC_NAMES:
            game = pyspiel.load_game(name, CLASSICS[name].parameters)
            pyspiel_hands(game, 20, 0)
            found[name] = lambda count, seed, game=game: pyspiel_hands(game, count, seed)[0]
    return found


def run_child(root: Path, games: int, repeat: int, specs: list[str]) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_speed.py"), "--child", "--games", str(games), "--repeat", str(repeat), "--specs", *specs]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the benchmark failed in {root}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def engines() -> dict[str, Path]:
    """The engines to measure: pure-Python (this checkout) and compiled (a built copy)."""
    from trickrules.tools.build_compiled import BuildError, built_files, compiled_copy

    if built_files():
        raise SystemExit("this checkout runs compiled: python -m trickrules.tools.build_compiled --clean, then run again")
    found = {"pure": ROOT}
    try:
        import mypyc  # noqa: F401

        print("building the compiled engine in .cache/compiled (once per source version)...", file=sys.stderr, flush=True)
        found["compiled"] = compiled_copy(ROOT, ROOT / ".cache" / "compiled")
    except ImportError:
        print("mypyc is not installed (pip install -e '.[compiled]'): pure-Python figures only", file=sys.stderr)
    except BuildError as error:
        print(f"the compiled engine cannot be built here ({error}): pure-Python figures only", file=sys.stderr)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (kingdoms: a quarter; default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best counts (default 3)")
    parser.add_argument("--specs", nargs="+", default=list(SPECS), choices=SPECS, metavar="SPEC", help=", ".join(SPECS))
    parser.add_argument("--before", type=Path, metavar="PATH", help="another checkout to measure in the same run (an earlier commit)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.games, args.repeat, args.specs)
        return 0
    load_before = os.getloadavg()[0]
    measured = engines()
    if args.before is not None:
        before = args.before.resolve()
        if not (before / "trickrules").is_dir():
            raise SystemExit(f"--before {before}: not a trickrules checkout")
        measured = {"before pure": before, **measured}
        if (before / ".cache" / "compiled" / "tree" / "trickrules").is_dir():
            measured = {**measured, "before compiled": before / ".cache" / "compiled" / "tree"}
    results = {label: run_child(root, args.games, args.repeat, args.specs) for label, root in measured.items()}
    print(f"random games per second, best of {args.repeat} x {args.games} (kingdoms x {max(50, args.games // 4)}); "
          f"load average before: {load_before:.2f}")
    print("pyspiel runs in each engine's process, taking turns with trickrules' runs of the same spec")
    columns = [(label, way) for label in results for way in ("api", "loop", "pyspiel", "by hand")]
    print(f"{'spec':9s}" + "".join(f"{label + ' ' + way:>17s}" for label, way in columns))
    for name in args.specs:
        cells = [results[label][name].get(way) for label, way in columns]
        print(f"{name:9s}" + "".join(f"{cell:17.0f}" if cell is not None else f"{'':>17s}" for cell in cells))
    classics = [name for name in args.specs if all("pyspiel" in results[label][name] for label in results)]
    if classics:
        print("\ntrickrules over pyspiel (games/s), each engine against the pyspiel runs of its own process")
        ratios = [(label, way) for label in results for way in ("api", "loop")]
        print(f"{'spec':9s}" + "".join(f"{label + ' ' + way:>15s}" for label, way in ratios))
        for name in classics:
            print(f"{name:9s}" + "".join(
                f"{results[label][name][way] / results[label][name]['pyspiel']:14.2f}x" for label, way in ratios
            ))
    seeds = [name for name in args.specs if all("by hand" in results[label][name] for label in results)]
    if seeds:
        print("\nthe hand-written program over trickrules (games/s): how many times slower the engine plays")
        ways = [(label, way) for label in results for way in ("api", "loop")]
        print(f"{'spec':9s}" + "".join(f"{label + ' ' + way:>15s}" for label, way in ways))
        for name in seeds:
            print(f"{name:9s}" + "".join(f"{results[label][name]['by hand'] / results[label][name][way]:14.2f}x" for label, way in ways))
    print("\nclones per second, and clone-then-random-playout per second (from the middle of a game)")
    print(f"{'spec':9s}" + "".join(f"{label + ' clones':>17s}{label + ' playouts':>17s}" for label in results))
    for name in args.specs:
        print(f"{name:9s}" + "".join(f"{results[label][name]['clones']:17.0f}{results[label][name]['playouts']:17.0f}" for label in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
