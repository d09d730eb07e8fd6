"""``trickrules solve``: solve deals with every hand known, one in full or many as a par table."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from trickrules.engine.agents import make_agent
from trickrules.engine.game import Game, load_game
from trickrules.engine.phases import Phase
from trickrules.engine.solver import Solution, Solver
from trickrules.engine.state import State
from trickrules.tools.output import InputError, add_follow_symlinks, check_output, counted, write_output
from trickrules.tools.provenance import spec_files
from trickrules.tools.report import ProgressBar

DESCRIPTION = """\
Solve deals with every hand known (a double-dummy result): the best play of
everyone to the end of the round, found by searching every line.

The deal with seed SEED is dealt, and the decisions before the play (bids,
trumps, passes, discards) are made by the --agent (greedy by default), as are
the tricks before the last --tricks K. From there the solver searches every
decision to the end of the round (or --depth D tricks ahead, valuing the round
as it stands there) and prints the value of the position, each legal action's
value, the best action, the par line and each player's points at its end.

The value is a player's margin: its round points (its side's, where partners
pool them) less the mean of its opponents' points, turned round where the
fewest points win. The player (the one to move, or --player) and its partners
maximise it, everyone else minimises it: with two sides that is the game
itself; with more it is what the player can guarantee against all the others.

With -n N, the deals SEED .. SEED + N - 1 are solved and shown as a par table.
A search grows fast with the tricks left: five tricks of four players take
about a second, seven of bridge take minutes.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``trickrules solve`` (the spec, --players and --set come first)."""
    parser.add_argument("--seed", type=int, default=0, help="the deal's seed (default 0)")
    parser.add_argument("-n", "--deals", type=int, default=1, help="solve N deals, seeds SEED .. SEED + N - 1, as a par table (default 1)")
    parser.add_argument("--tricks", type=int, metavar="K", help="solve the last K tricks of the round (default: all of them)")
    parser.add_argument("--depth", type=int, metavar="D", help="look D tricks ahead only, and value the round as it stands there")
    parser.add_argument("--player", type=int, help="the seat whose margin is the value (default: the player to move)")
    parser.add_argument("--agent", default="greedy", help="who makes the decisions before the position solved (default greedy): random, greedy or ismcts[:N]")
    parser.add_argument("--json", metavar="FILE", help="write the solutions as JSON to FILE ('-': standard output)")
    add_follow_symlinks(parser)


@dataclass(frozen=True)
class Solved:
    """One deal solved: its seed, the position, the solution and the seconds it took."""

    seed: int
    state: State
    solution: Solution
    seconds: float


def position(game: Game, seed: int, tricks: int | None, agent: str) -> State | None:
    """The deal `seed` played by `agent` up to the start of the play, or to the start of the
    last `tricks` tricks; None when the round ends before (a deal passed out)."""
    state = game.new_initial_state(seed)
    players = [make_agent(agent, seed * 1000 + seat) for seat in range(game.num_players)]
    while not state.is_terminal() and state.round == 0:
        if state.phase == Phase.PLAY and not state.trick:
            if tricks is None or state.hand_size - state.tricks_played <= tricks:
                return state
        state.apply_action(players[state.current_player()].step(state))
    return None


def run_cli(args: argparse.Namespace, options: dict[str, str]) -> int:
    """Run ``trickrules solve``: print the solution or the par table (and write JSON); the exit code."""
    _check(args)
    game = load_game(args.spec, players=args.players, options=options)
    if args.tricks is not None and args.tricks > game.ruleset.deal.hand_size:
        raise InputError(f"--tricks {args.tricks}: a round of {game.ruleset.title} has {counted(game.ruleset.deal.hand_size, 'trick')} at most")
    if args.player is not None and args.player >= game.num_players:
        raise InputError(f"--player {args.player}: the seats are 0 to {game.num_players - 1}")
    check_output(args.json, list(spec_files(game.ruleset)), "--json", args.follow_symlinks)
    progress = ProgressBar("solve", sys.stderr) if sys.stderr.isatty() and args.deals > 1 else None
    solved: list[Solved] = []
    skipped: list[int] = []
    for number, seed in enumerate(range(args.seed, args.seed + args.deals)):
        state = position(game, seed, args.tricks, args.agent)
        if state is None:
            skipped.append(seed)
        else:
            start = time.perf_counter()
            solution = Solver().solve(state, args.player, args.depth)
            solved.append(Solved(seed, state, solution, time.perf_counter() - start))
        if progress is not None:
            progress(number + 1, args.deals)
    if args.json:
        document = {"format": "trickrules-solutions", "spec": game.ruleset.title, "solutions": [_json(s) for s in solved], "passed_out": skipped}
        write_output(args.json, json.dumps(document, indent=1) + "\n", args.follow_symlinks)
    if args.json != "-":
        if solved and args.deals == 1:
            print(render_one(solved[0]))
            print(f"solved in {solved[0].seconds:.2f}s", file=sys.stderr)
        elif solved:
            print(render_table(game, solved))
        if skipped:
            print(f"No play to solve (the round ended before it) in {counted(len(skipped), 'deal')}: seeds {', '.join(map(str, skipped))}")
    return 0


def _check(args: argparse.Namespace) -> None:
    for option, value, least in (("--deals", args.deals, 1), ("--tricks", args.tricks, 1), ("--depth", args.depth, 1), ("--player", args.player, 0)):
        if value is not None and value < least:
            raise InputError(f"{option} {value}: give a whole number, {least} or more")
    try:
        make_agent(args.agent)
    except ValueError as error:
        raise InputError(f"--agent: {error}") from None


def _value(value: float) -> str:
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value else "0"


def _actions(state: State, actions: tuple[int, ...] | list[int]) -> list[str]:
    return [state.action_to_string(a) for a in actions]


def _side(solution: Solution) -> str:
    others = [p for p in solution.side if p != solution.player]
    partners = f" and {'partner' if len(others) == 1 else 'partners'} {', '.join(map(str, others))}" if others else ""
    return f"player {solution.player}{partners}"


def render_one(solved: Solved) -> str:
    """One deal's solution in full: the position, every action's value, the par line."""
    state, solution = solved.state, solved.solution
    left = state.hand_size - state.tricks_played
    reach = f"{counted(solution.depth, 'trick')} ahead" if solution.depth else f"to the end of the round ({counted(left, 'trick')})"
    lines = [
        f"{state.game.ruleset.title}, seed {solved.seed}:",
        str(state),
        "",
        f"Solved {reach} for {_side(solution)}: {solution.nodes:,} positions.",
        f"Value: {_value(solution.value)} (player {solution.player}'s margin: its side's round points less its opponents' mean)",
    ]
    width = max(len(text) for text in _actions(state, list(solution.values)))
    for action, value in sorted(solution.values.items(), key=lambda item: (-item[1] if state.current_player() in solution.side else item[1], item[0])):
        mark = "  best" if action == solution.best else ""
        lines.append(f"  {state.action_to_string(action):<{width}}  {_value(value):>8}{mark}")
    lines.append(f"Par line: {', '.join(_actions(state, solution.line))}")
    lines.append("Points of the round at its end: " + ", ".join(f"player {p}: {_value(v)}" for p, v in enumerate(solution.points)))
    return "\n".join(lines)


def render_table(game: Game, solved: list[Solved]) -> str:
    """Many deals' par results, one line each, with their mean."""
    lines = [f"{game.ruleset.title}: par results of {counted(len(solved), 'deal')} (value: the margin of the player to move's side)"]
    header = f"{'seed':>6}  {'to move':>7}  {'value':>8}  {'best':<20}  {'points':<28}  {'positions':>10}  {'seconds':>7}"
    lines.append(header)
    for s in solved:
        best = s.state.action_to_string(s.solution.best) if s.solution.best is not None else "-"
        points = " ".join(_value(p) for p in s.solution.points)
        lines.append(f"{s.seed:>6}  {s.solution.player:>7}  {_value(s.solution.value):>8}  {best:<20}  {points:<28}  {s.solution.nodes:>10,}  {s.seconds:>7.2f}")
    if solved:
        mean = sum(s.solution.value for s in solved) / len(solved)
        seconds = sum(s.seconds for s in solved)
        lines.append(f"mean value {_value(mean)}; {seconds:.1f}s in all, {seconds / len(solved):.2f}s a deal")
    return "\n".join(lines)


def _json(solved: Solved) -> dict[str, Any]:
    state, solution = solved.state, solved.solution
    return {
        "seed": solved.seed,
        "tricks_left": state.hand_size - state.tricks_played,
        "player": solution.player,
        "side": list(solution.side),
        "value": solution.value,
        "best": None if solution.best is None else state.action_to_string(solution.best),
        "values": {state.action_to_string(a): v for a, v in solution.values.items()},
        "line": _actions(state, solution.line),
        "points": list(solution.points),
        "depth": solution.depth,
        "positions": solution.nodes,
        "seconds": round(solved.seconds, 4),
    }
