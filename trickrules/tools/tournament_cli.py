"""``trickrules tournament``: its arguments, input checks, the text table, JSON and plot output."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from trickrules.engine.game import load_game
from trickrules.tools.output import add_follow_symlinks, agent_names, check_output, counted, save_figure, write_output
from trickrules.tools.provenance import spec_files
from trickrules.tools.report import ProgressBar
from trickrules.tools.simulate import SimulationError, check_run
from trickrules.tools.simulate_cli import add_backend_arguments, check_plot_format, check_workers, ray_timeout_of, require_matplotlib, where, workers_of
from trickrules.tools.tournament import TournamentResult, tournament

DESCRIPTION = """\
Play a tournament between agents: duplicate, seat-rotated games of one spec.

Duplicate: each deal (seed SEED .. SEED + N - 1) is played once per entrant, and
every one of these games gets the same cards (a deal depends on the seed alone).
Seat rotation: the seats form places, one per team (partners are the same
entrant) and one per seat outside a team. The m entrants stand on a circle; in
rotation r, place k gets entrant (k + r) mod m of the circle, so over a deal's
rotations every entrant sits in every seat once (2 entrants, 4 seats: ABAB,
BABA; 3 entrants: ABCA, BCAB, CABC). With more entrants than places, each game
seats a window of the circle. With three or more entrants the circle is drawn
from each deal's seed, so that who plays after whom favours no one. The agent
in seat k of the game with seed s is seeded s * 1000 + k, whoever sits there.

The figures: each entrant's win rate (a shared win is split among the winning
seats), its mean final total per seat, its head-to-head score against each
other entrant (games where its mean total was better, by the spec's winner
rule; ties count half) and an Elo rating (a Bradley-Terry fit of the
head-to-head games, mean 1500, one virtual draw per pair). The games of a deal
are correlated, so 95% intervals are taken over deals: Wilson intervals (deals
as trials, conservative) for rates, normal intervals for mean totals. The
figures are the same for any --workers and on either --backend.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``trickrules tournament`` (the spec, --players and --set come first)."""
    parser.add_argument("--agents", required=True, help="the entrants, comma-separated, two or more: random, greedy, ismcts or ismcts:N (N search iterations a decision), pimc or pimc:N (N worlds solved a decision; a name given twice is two entrants)")
    parser.add_argument("-n", "--deals", type=int, default=100, help="number of deals; each is played once per entrant (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first deal; deal i has seed SEED + i (default 0)")
    parser.add_argument("--workers", type=int, help="processes to play in (default: the number of CPUs; at most that many unless --force-workers); with --backend ray: Ray tasks at a time (default: the cluster's CPUs)")
    parser.add_argument("--force-workers", action="store_true", help="allow more --workers than this machine has CPUs")
    parser.add_argument("--json", metavar="FILE", help="write every figure as JSON to FILE ('-': standard output)")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the win rates with their 95%% intervals (needs matplotlib; the suffix gives the format: png, pdf, svg, ...)")
    add_follow_symlinks(parser)
    add_backend_arguments(parser)


def run_cli(args: argparse.Namespace, options: dict[str, str]) -> int:
    """Run ``trickrules tournament``: print the table (and write JSON, a plot); the exit code."""
    agents = agent_names(args.agents)
    if len(agents) < 2:
        raise SimulationError(f"--agents names {counted(len(agents), 'entrant')}: a tournament needs two or more, e.g. --agents greedy,random")
    check_run(args.deals, None, args.backend, None, "deals")  # a count out of bounds, before anything else
    check_workers(args)
    if args.plot:
        check_plot_format(args.plot)
    game = load_game(args.spec, players=args.players, options=options)
    inputs = list(spec_files(game.ruleset))
    check_output(args.json, inputs, "--json", args.follow_symlinks)
    check_output(args.plot, inputs, "--plot", args.follow_symlinks)
    if args.json and args.plot and Path(args.json).resolve() == Path(args.plot).resolve():
        raise SimulationError(f"--json and --plot both name {args.plot}: give each its own file")
    workers = workers_of(args)
    progress = ProgressBar(Path(args.spec).stem, sys.stderr) if sys.stderr.isatty() else None
    result = tournament(args.spec, agents, args.deals, args.seed, args.players, options, workers, args.backend, progress, args.address, ray_timeout_of(args))
    games = result.deals * result.rotations
    rate = games / result.elapsed if result.elapsed else 0.0
    print(f"{result.spec}: {counted(result.deals, 'deal')}, {counted(games, 'game')} in {result.elapsed:.1f}s ({rate:.0f} games/s, {where(workers, args.backend)})", file=sys.stderr)
    if args.json:
        write_output(args.json, json.dumps({"format": "trickrules-tournament", "result": result.to_json()}, indent=1) + "\n", args.follow_symlinks)
    if args.json != "-":
        print(render_tournament(result))
    if args.plot:
        plot_win_rates(args.plot, result, args.follow_symlinks)
    return 0


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _ci(interval: tuple[float, float] | None) -> str:
    return "-" if interval is None else f"[{_percent(interval[0])}, {_percent(interval[1])}]"


def render_tournament(result: TournamentResult) -> str:
    """The figures as plain-text tables."""
    options = ", ".join(f"{k}={v}" for k, v in result.options.items()) or "none"
    rotations = " | ".join(",".join(seats) for seats in result.first_seatings)
    more = " (first deal; the circle is drawn per deal)" if result.rotations > 2 else ""
    better = "higher" if result.better == "most_points" else "lower"
    lines = [
        f"{result.title} ({result.spec}): {counted(result.players, 'player')}, {counted(result.deals, 'deal')} "
        f"(seeds {result.seed}..{result.seed + result.deals - 1}) x {counted(result.rotations, 'rotation')} = "
        f"{counted(result.deals * result.rotations, 'game')}, options: {options}",
        f"Seats by rotation{more}: {rotations}",
        f"The same cards in every rotation of a deal; {better} totals are better ({result.better}); "
        "95% intervals over deals.",
        "",
        f"{'entrant':<16}{'games':>7}{'win rate':>10}  {'95% CI':<17}{'mean total':>11}  {'95% CI':<19}{'Elo':>6}",
    ]
    for e in sorted(result.entrants, key=lambda e: -e.elo):
        total = e.mean_total
        ci = f"[{total.low:.2f}, {total.high:.2f}]"
        lines.append(
            f"{e.label:<16}{e.games:>7}{_percent(e.win_rate.rate):>10}  {_ci(e.win_rate.interval()):<17}"
            f"{total.mean:>11.2f}  {ci:<19}{e.elo:>6.0f}"
        )
    lines += ["", f"{'head to head':<32}{'games':>7}  {'W-T-L':<13}{'score':>7}  95% CI"]
    for pair in result.pairs:
        wtl = f"{pair.a_wins}-{pair.ties}-{pair.b_wins}"
        lines.append(f"{pair.a + ' vs ' + pair.b:<32}{pair.games:>7}  {wtl:<13}{_percent(pair.score.rate):>7}  {_ci(pair.score.interval())}")
    lines += [
        "",
        "win rate: the entrant's share of its games' wins (a shared win is split among the winning seats).",
        "score: the first entrant's wins + ties/2 over the games both played (better mean total per seat).",
        "Elo: a Bradley-Terry fit of those head-to-head games, mean 1500 (400 points: odds of 10 to 1).",
    ]
    return "\n".join(lines)


def plot_win_rates(path: str, result: TournamentResult, follow_symlinks: bool = False) -> None:
    """Draw each entrant's win rate with its 95% interval as a bar chart to `path`."""
    require_matplotlib()
    import matplotlib  # type: ignore[import-not-found, unused-ignore]

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    entrants = result.entrants
    rates = [e.win_rate.rate or 0.0 for e in entrants]
    intervals = [e.win_rate.interval() or (rate, rate) for e, rate in zip(entrants, rates)]
    errors = [[rate - low for rate, (low, _) in zip(rates, intervals)], [high - rate for rate, (_, high) in zip(rates, intervals)]]
    figure, axis = plt.subplots(figsize=(max(4.0, 1.2 * len(entrants) + 2), 4))
    axis.bar(range(len(entrants)), rates, yerr=errors, capsize=6, color="C0", alpha=0.8)
    axis.axhline(1 / min(len(entrants), len(result.places)), color="grey", linestyle="--", linewidth=1, label="equal strength")
    axis.set_xticks(range(len(entrants)), [f"{e.label}\nElo {e.elo:.0f}" for e in entrants])
    axis.set_ylabel("win rate (95% CI over deals)")
    axis.set_ylim(0, 1)
    axis.set_title(f"{result.title}: {result.deals} deals x {result.rotations} rotations")
    axis.legend(fontsize="small")
    figure.tight_layout()
    save_figure(figure, path, follow_symlinks)
