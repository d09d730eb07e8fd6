"""``trickrules simulate``: its arguments, input checks, progress, JSON and plot output."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from trickrules.engine.game import load_game
from trickrules.tools.stats import (
    Comparison,
)

from trickrules.tools.output import add_follow_symlinks, agent_names, check_output, counted, save_figure, write_output
from trickrules.tools.provenance import spec_files
from trickrules.tools.report import ProgressBar, render_comparison, render_report
from trickrules.tools.backends import BACKENDS, DEFAULT_RAY_TIMEOUT, check_ray_timeout
from trickrules.tools.simulate import Progress, SimulationError, SimulationResult, available_cpus, check_run, compare, simulate

# ---------------------------------------------------------------- the command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``trickrules simulate`` (the spec, --players and --set come first)."""
    parser.add_argument("-n", "--games", type=int, default=1000, help="number of games (default 1000)")
    parser.add_argument("--agents", help="agents, comma-separated: one for every seat or one per seat: random, greedy, ismcts or ismcts:N (N search iterations a decision), pimc or pimc:N (N worlds solved a decision; default: random)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game; game i has seed SEED + i (default 0)")
    parser.add_argument("--workers", type=int, help="processes to play in (default: the number of CPUs; at most that many unless --force-workers); with --backend ray: Ray tasks at a time (default: the cluster's CPUs)")
    parser.add_argument("--force-workers", action="store_true", help="allow more --workers than this machine has CPUs")
    parser.add_argument("--json", metavar="FILE", help="write the figures (and the comparison) as JSON to FILE ('-': standard output)")
    parser.add_argument("--compare", metavar="SPEC", help="play the same seeds, players, options and agents with another spec (or an overlay) and test the differences")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the score distribution of each seat (needs matplotlib; the suffix gives the format: png, pdf, svg, ...)")
    add_follow_symlinks(parser)
    add_backend_arguments(parser)


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """--backend and --address, shared by simulate and tournament."""
    parser.add_argument(
        "--backend", choices=BACKENDS, default="local",
        help="where to play: local (--workers processes on this machine) or ray (Ray tasks on a Ray cluster; "
        "needs pip install 'trickrules[ray]'); both give the same figures for the same seeds (default local)",
    )
    parser.add_argument(
        "--address", metavar="ADDR",
        help="with --backend ray: the cluster to connect to, e.g. HEAD:6379 ('auto': the one RAY_ADDRESS names or "
        "that runs on this machine); without it a Ray instance is started on this machine for the run",
    )
    parser.add_argument(
        "--ray-timeout", type=float, metavar="SECONDS",
        help=f"with --address: how long the cluster has to answer before the run stops with an error "
        f"(default {DEFAULT_RAY_TIMEOUT:g})",
    )


def workers_of(args: argparse.Namespace) -> int | None:
    """The --workers to use: as given, else every CPU here (local) or of the cluster (ray: None)."""
    if args.workers is not None:
        return int(args.workers)
    return available_cpus() if args.backend == "local" else None


def ray_timeout_of(args: argparse.Namespace) -> float:
    """The --ray-timeout to use: as given, else the default."""
    return DEFAULT_RAY_TIMEOUT if args.ray_timeout is None else float(args.ray_timeout)


def check_workers(args: argparse.Namespace) -> None:
    """SimulationError for more local --workers than CPUs (without --force-workers), or
    an --address without --backend ray."""
    if args.address is not None and args.backend != "ray":
        raise SimulationError("--address is for --backend ray only")
    if args.ray_timeout is not None:
        if args.address is None:
            raise SimulationError("--ray-timeout is for connecting to a Ray cluster: give it with --backend ray --address ADDR")
        check_ray_timeout(args.ray_timeout, SimulationError)
    if args.backend == "local" and args.workers is not None and args.workers > available_cpus() and not args.force_workers:
        cpus = counted(available_cpus(), "CPU")
        raise SimulationError(
            f"--workers {args.workers} is more than this machine's {cpus}: use --workers {available_cpus()} "
            "or fewer (more only slows the run), or add --force-workers"
        )


def run_cli(args: argparse.Namespace, options: dict[str, str]) -> int:
    """Run ``trickrules simulate``: print the report (or comparison); returns the exit code."""
    _check_cli_input(args, options)
    agents = tuple(agent_names(args.agents))
    workers = workers_of(args)

    def run(spec: str, players: int | None) -> SimulationResult:
        result = simulate(spec, args.games, players, agents, args.seed, options, workers, _progress(spec), args.backend, args.address, ray_timeout_of(args))
        _timing(result, workers, args.backend)
        return result

    result = run(args.spec, args.players)
    other = comparison = None
    if args.compare:
        other = run(args.compare, result.players)
        comparison = compare(result, other)
    if args.json:
        _write_json(args.json, result, other, comparison, args.follow_symlinks)
    if args.json != "-":
        print(render_report(result) if comparison is None or other is None else render_comparison(comparison, result, other))
    if args.plot:
        plot_scores(args.plot, result, other, args.follow_symlinks)
    return 0


def _check_cli_input(args: argparse.Namespace, options: dict[str, str]) -> None:
    """Fail before playing: too many workers, a missing extra or unknown plot format, an
    output that cannot be written or would overwrite an input, a bad second spec."""
    check_run(args.games, None, args.backend, None)  # a count out of bounds, before anything else
    agent_names(args.agents)
    check_workers(args)
    if args.plot:
        check_plot_format(args.plot)
    game = load_game(args.spec, players=args.players, options=options)
    inputs = list(spec_files(game.ruleset))
    if args.compare:
        inputs += spec_files(load_game(args.compare, players=game.num_players, options=options).ruleset)
    check_output(args.json, inputs, "--json", args.follow_symlinks)
    check_output(args.plot, inputs, "--plot", args.follow_symlinks)
    if args.json and args.plot and Path(args.json).resolve() == Path(args.plot).resolve():
        raise SimulationError(f"--json and --plot both name {args.plot}: give each its own file")


def check_plot_format(path: str) -> None:
    """SimulationError unless matplotlib is there and can write the format `path` names."""
    require_matplotlib()
    from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]

    formats = sorted(Figure().canvas.get_supported_filetypes())
    suffix = Path(path).suffix.lower().lstrip(".")
    if path == "-" or suffix not in formats:
        shown = f"the format {suffix!r}" if suffix else "a file name without a format suffix"
        raise SimulationError(f"--plot {path}: matplotlib cannot write {shown}; use one of: {', '.join(formats)}")


def _progress(spec: str) -> Progress | None:
    return ProgressBar(Path(spec).stem, sys.stderr) if sys.stderr.isatty() else None


def where(workers: int | None, backend: str) -> str:
    """``2 workers``, ``ray, 4 workers``, ``ray``: where a run played, for its timing line."""
    parts = ([backend] if backend != "local" else []) + ([counted(workers, "worker")] if workers is not None else [])
    return ", ".join(parts)


def _timing(result: SimulationResult, workers: int | None, backend: str) -> None:
    rate = result.games / result.elapsed if result.elapsed else 0.0
    print(f"{result.spec}: {counted(result.games, 'game')} in {result.elapsed:.1f}s ({rate:.0f} games/s, {where(workers, backend)})", file=sys.stderr)


def _write_json(path: str, result: SimulationResult, other: SimulationResult | None, comparison: Comparison | None, follow_symlinks: bool = False) -> None:
    document: dict[str, Any] = {"format": "trickrules-simulation", "result": result.to_json()}
    if other is not None and comparison is not None:
        document.update(other=other.to_json(), comparison=comparison.to_json())

    write_output(path, json.dumps(document, indent=1) + "\n", follow_symlinks)


def require_matplotlib() -> None:
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore] # noqa: F401
    except ImportError:
        raise SimulationError("--plot needs matplotlib: pip install trickrules[plot]") from None


def plot_scores(path: str, result: SimulationResult, other: SimulationResult | None = None, follow_symlinks: bool = False) -> None:
    """Draw each seat's distribution of final scores, and the choices by trick (the branching
    factor of leads and follows), of both results when comparing, to `path`."""
    require_matplotlib()
    import matplotlib  # type: ignore[import-not-found, unused-ignore]

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    runs = [result] + ([other] if other is not None else [])
    low = int(min(seat.scores.minimum for run in runs for seat in run.seats))
    high = int(max(seat.scores.maximum for run in runs for seat in run.seats))
    width = max(1, math.ceil((high - low + 1) / 40))  # about 40 bins, whole points wide
    edges = [low - 0.5 + width * i for i in range((high - low) // width + 2)]
    rows = len(result.seats) + 1
    figure, axes = plt.subplots(rows, 1, figsize=(8, 2.2 * rows), squeeze=False)
    for seat, axis in zip(result.seats, axes[:, 0]):
        axis.sharex(axes[0, 0])
        for run, colour in zip(runs, ("C0", "C1")):
            if seat.seat >= len(run.seats):
                continue
            figures = run.seats[seat.seat]
            counts = figures.score_counts
            shares = [count / run.games for count in counts.values()]
            axis.hist(list(counts), bins=edges, weights=shares, alpha=0.55, color=colour, label=f"{run.spec_id} ({run.spec})")
            axis.axvline(figures.scores.mean, color=colour, linestyle="--", linewidth=1)
        axis.set_ylabel(f"P{seat.seat} share")
    axes[0, 0].set_title(f"Final scores per seat, {result.games} games (dashed: mean)")
    axes[0, 0].legend(fontsize="small")
    axes[-2, 0].set_xlabel("final score")
    _plot_choices(axes[-1, 0], runs)
    figure.tight_layout()
    save_figure(figure, path, follow_symlinks)


def _plot_choices(axis: Any, runs: list[SimulationResult]) -> None:
    """The mean number of legal cards by trick, leading (solid) and following (dashed)."""
    for run, colour in zip(runs, ("C0", "C1")):
        for place, style in ((1, "-"), (2, "--")):
            points = [(row[0], row[place]) for row in run.by_trick if row[place] is not None]
            axis.plot([t for t, _ in points], [c for _, c in points], style, marker="o", color=colour, label=f"{run.spec_id}: {('lead', 'follow')[place - 1]}")
    axis.set_title("Choices by trick (legal cards a play)")
    axis.set_xlabel("trick")
    axis.set_ylabel("choices")
    axis.legend(fontsize="small")
