"""The `trickrules` command line: play, replay, validate, check, rules, list, schema, simulate,
tournament, serve.

Exit codes: 0 success, 1 a check or replay that found a difference, 2 bad input (an invalid
spec, a missing file, a wrong option), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trickrules.version import __version__
from trickrules.errors import SpecError, TrickrulesError
from trickrules.spec.options import OptionValueError, parse_assignment
from trickrules.tools.output import InputError, add_follow_symlinks, agent_names, check_output, counted, write_output

EXIT_OK, EXIT_FAILED, EXIT_INPUT = 0, 1, 2


def _options(assignments: Sequence[str] | None) -> dict[str, str]:
    values = {}
    for text in assignments or []:
        try:
            name, value = parse_assignment(text)
        except OptionValueError as error:
            raise InputError(f"--set {error}") from None
        values[name] = value
    return values


def _agents(text: str | None, players: int, seed: int) -> list[Any]:
    from trickrules.engine.agents import make_agent

    names = agent_names(text)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise InputError(f"--agents names {len(names)} agents for {players} players")
    try:
        return [make_agent(name, seed * 1000 + seat) for seat, name in enumerate(names)]
    except ValueError as error:
        raise InputError(str(error)) from None


def _load_game(args: argparse.Namespace) -> Any:
    from trickrules.engine.game import load_game

    return load_game(args.spec, players=args.players, options=_options(args.set))


# ---------------------------------------------------------------- commands


def _read_deal(path: str) -> Any:
    """A given deal from a YAML (or JSON) file; InputError if it cannot be read."""
    import yaml

    try:
        with open(path, encoding="utf-8") as handle:
            return yaml.safe_load(handle)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise InputError(f"{path}: cannot read a deal: {str(error).splitlines()[0]}") from None


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game with agents and print it, or write its JSON record."""
    from trickrules.tools.provenance import spec_files
    from trickrules.tools.record import build_record, dumps, play_game
    from trickrules.tools.replay_cli import spec_beside
    from trickrules.tools.textlog import render_record, token_plurals
    from trickrules.tools.thinking import clear, thinking_agents

    game = _load_game(args)
    agents = _agents(args.agents, game.num_players, args.seed)
    check_output(args.json, [*spec_files(game.ruleset), *([args.deal] if args.deal else [])], "--json", args.follow_symlinks)
    deal = _read_deal(args.deal) if args.deal else None
    shown = thinking_agents(agents, sys.stderr)  # on a terminal, a line while a bot thinks, with its budget
    try:
        state = play_game(game, args.seed, shown, deal=deal)
    finally:
        clear(shown)
    record = build_record(state, [a.name for a in agents])
    if args.json:
        record["spec"]["file"] = spec_beside(record["spec"]["file"], args.json)
    if args.json:
        write_output(args.json, dumps(record), args.follow_symlinks)
        if args.json != "-":
            winners = ", ".join(f"P{p}" for p in record["winners"])
            print(f"{args.json}: {counted(len(record['actions']), 'action')}, totals {record['totals']}, winners {winners}")
    else:
        print(render_record(record, token_plurals(game.ruleset)))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    """Play a record's actions through the engine and report the first divergence.

    The spec is the one given with --spec, else the one the record names: a file in the
    record's folder (or below it) or a shipped spec by name; any other path needs --spec.
    Exit 0 when the game replays with the rules the record names ('verified'; 'same rules'
    when only the spec files' layout changed), 1 when it diverges or the rules changed.
    """
    from trickrules.tools.replay_cli import run_cli

    return run_cli(args)


def cmd_validate(args: argparse.Namespace) -> int:
    """Check spec files (and rulebook examples files) and print one summary line per file.

    Problems and warnings (rules that can never apply, TR5xx) go to standard error, each as
    FILE:LINE:COLUMN: CODE message. Exit 0 when every file is valid (warnings included),
    2 when one is not; with --strict, 1 when a valid spec has warnings.
    """
    from trickrules.tools.examples import is_examples_file

    status = EXIT_OK
    for path in args.specs:
        check = _validate_examples if is_examples_file(path) else _validate_spec
        status = max(status, check(path, args.strict))
    return status


def _problem_lines(problems: Sequence[Any]) -> int:
    """Print problems to standard error; return how many."""
    for problem in problems:
        print(problem, file=sys.stderr)
    return len(problems)


def _validate_spec(path: str, strict: bool = False) -> int:
    from trickrules.spec.checks import load_spec, option_problems, spec_warnings
    from trickrules.spec.compiler import compile_ruleset

    try:
        source = load_spec(path)
        # every problem at once: compiled for every allowed player count, with every option value
        problems = option_problems(source)  # so a spec that validates plays with any of them
        if problems:
            raise SpecError(problems)
        ruleset = compile_ruleset(source)
    except SpecError as error:
        count = _problem_lines(error.problems)
        print(f"{path}: invalid, {count} problem{'s' if count != 1 else ''}")
        return EXIT_INPUT
    warnings = _problem_lines(spec_warnings(source, ruleset))
    players = ", ".join(str(p) for p in ruleset.allowed_players)
    summary = (
        f"{ruleset.id} '{ruleset.title}', {len(ruleset.deck.cards)} cards, "
        f"{len(ruleset.deck.suits)} suits, players {players}, "
        f"{'up to ' if ruleset.until is not None else ''}{counted(ruleset.rounds, 'round')}, {counted(len(ruleset.options), 'option')}"
    )
    noted = f"; {warnings} warning{'s' if warnings != 1 else ''}: rules that can never apply" if warnings else ""
    if strict and warnings:
        print(f"{path}: not strict: {summary}{noted}")
        return EXIT_FAILED
    print(f"{path}: ok: {summary}{noted}")
    return EXIT_OK


def _validate_examples(path: str, strict: bool = False) -> int:
    """An examples file is valid when its cases read well and the spec it names loads."""
    from trickrules.spec.checks import load_spec
    from trickrules.tools.examples import examples_spec, load_examples

    try:
        cases = load_examples(path)
        spec = examples_spec(path)
    except SpecError as error:
        count = _problem_lines(error.problems)
        print(f"{path}: invalid rulebook examples, {count} problem{'s' if count != 1 else ''}")
        return EXIT_INPUT
    try:
        load_spec(spec, every_count=True)
    except SpecError as error:
        _problem_lines(error.problems)
        print(f"{path}: invalid: its spec {spec} has problems")
        return EXIT_INPUT
    print(f"{path}: ok: {len(cases)} rulebook examples for {spec} (run them with 'trickrules check')")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    """List the specs that ship with trickrules: name, players and title."""
    from trickrules.spec.loader import load_ruleset
    from trickrules.spec.shipped import shipped_folder, shipped_specs

    rows = []
    for spec in shipped_specs():
        try:
            ruleset = load_ruleset(spec.path)
        except SpecError as error:
            rows.append((spec.name, "", f"(invalid: {error.first.code} {error.first.message})"))
            continue
        allowed = sorted(ruleset.allowed_players)
        low, high = allowed[0], allowed[-1]
        if len(allowed) == high - low + 1:
            players = counted(low, "player") if low == high else f"{low} to {high} players"
        else:
            players = f"{', '.join(map(str, allowed))} players"
        rows.append((spec.name, players, ruleset.title))
    if not rows:
        print("no shipped specs found (this installation has no trickrules/specs folder)")
        return EXIT_INPUT
    name_width = max(len(row[0]) for row in rows) + 2
    players_width = max(len(row[1]) for row in rows) + 2
    for name, players, title in rows:
        print(f"{name:<{name_width}}{players:<{players_width}}{title}".rstrip())
    folder = shipped_folder()
    if folder is not None and folder.is_relative_to(Path.cwd()):
        folder = folder.relative_to(Path.cwd())  # a checkout's specs/, as the docs show it
    print(f"\nPlay one with 'trickrules play NAME'; copy one from {folder}/ to start a variant.")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of specs (or of overlays, rulebook examples files or game records)."""
    from trickrules.spec.checks import spec_schema
    from trickrules.tools.recordschema import examples_schema, record_schema

    if args.record:
        schema = record_schema()
    elif args.examples:
        schema = examples_schema()
    elif args.overlay:
        from trickrules.spec.overlay_schema import overlay_schema

        schema = overlay_schema(spec_schema())
    else:
        schema = spec_schema()
    print(json.dumps(schema, indent=2))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """Run a file of rulebook examples against a spec (by default the spec the file names)."""
    from trickrules.spec.checks import load_spec
    from trickrules.spec.shipped import resolve_spec
    from trickrules.tools.examples import examples_spec, load_examples, run_examples

    args.spec = os.fspath(resolve_spec(args.spec))  # a shipped spec's name: its file, and its examples beside it
    if args.examples is None:
        sibling = _examples_beside(args.spec)
        if sibling is not None:  # a spec with its examples file beside it: check that file
            args.examples = str(sibling)
        else:
            args.spec, args.examples = examples_spec(args.spec), args.spec
    else:
        named = _named_spec(args.examples)
        if named is not None and named.resolve() != Path(args.spec).resolve():
            print(f"note: {args.examples} names the spec {named}; checking against {args.spec}", file=sys.stderr)
    cases = load_examples(args.examples)
    load_spec(args.spec)  # a spec that cannot load is one error (exit 2), not one per case
    results = run_examples(args.spec, cases)
    failed = 0
    for result in results:
        print(result.line())
        failed += not result.passed
    print(f"{len(results) - failed} passed, {failed} failed")
    return EXIT_OK if failed == 0 else EXIT_FAILED


def _examples_beside(path: str) -> Path | None:
    """The examples file beside `path` when `path` is a spec (a mapping with a spec's keys and
    no `cases`) and `NAME.examples.yaml` exists next to it; None otherwise."""
    from trickrules.spec.source import read_document
    from trickrules.tools.examples_file import examples_file_of, looks_like_spec

    try:
        data, _ = read_document(path)
    except SpecError:
        return None
    sibling = examples_file_of(path)
    return sibling if looks_like_spec(data) and sibling.is_file() else None


def _named_spec(examples: str) -> Path | None:
    from trickrules.tools.examples import examples_spec

    try:
        return examples_spec(examples)
    except SpecError:
        return None


def cmd_rules(args: argparse.Namespace) -> int:
    """Print a spec as a Markdown rulebook."""
    from trickrules.spec.loader import load_ruleset
    from trickrules.tools.rulebook import rulebook_markdown

    ruleset = load_ruleset(args.spec, players=args.players, options=_options(args.set))
    print(rulebook_markdown(ruleset))
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play many games and report statistics."""
    from trickrules.tools.simulate_cli import run_cli

    return run_cli(args, _options(args.set))


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play duplicate, seat-rotated games between agents and rate them."""
    from trickrules.tools.tournament_cli import run_cli

    return run_cli(args, _options(args.set))


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve deals with every hand known: the best play to the end of the round."""
    from trickrules.tools.solve_cli import run_cli

    return run_cli(args, _options(args.set))


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve a page to playtest a spec in the browser (see trickrules.serve)."""
    from trickrules.serve.command import run

    return run(args, _options(args.set))


# ---------------------------------------------------------------- parser


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="the spec file (YAML), or the name of a shipped spec (see 'trickrules list')")
    parser.add_argument("--players", type=int, help="number of players (default: the largest allowed)")
    parser.add_argument(
        "--set", action="append", metavar="NAME=VALUE", help="set a spec option, e.g. --set rounds=2 (repeatable)"
    )


def version_text() -> str:
    """The version, and which engine this installation runs."""
    from trickrules.tools.compiled_engine import compiled

    return f"trickrules {__version__} ({'compiled' if compiled() else 'pure-Python'} engine)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `trickrules` command."""
    parser = argparse.ArgumentParser(
        prog="trickrules",
        description="Play trick-taking card games from rule specs written in YAML.",
        epilog="Exit codes: 0 ok, 1 a check or replay found a difference, 2 bad input. "
        "Run 'trickrules COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=version_text(),
                        help="show the version and which engine runs (compiled or pure Python), and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    play = commands.add_parser("play", help="play one game and show it trick by trick", description=cmd_play.__doc__)
    _add_game_arguments(play)
    play.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the agents (default 0)")
    play.add_argument("--agents", help="agents per seat, comma-separated: random, greedy, ismcts or ismcts:N (N search iterations a decision), pimc or pimc:N (N worlds solved a decision; default: random for all)")
    play.add_argument("--json", metavar="FILE", help="write the JSON game record to FILE ('-' for standard output)")
    play.add_argument(
        "--deal",
        metavar="FILE",
        help="play this deal instead of shuffling: a YAML or JSON file with 'hands' (one list of card ids per seat) "
        "and any chance outcome (e.g. 'pass: left'), or a list of such deals, one per round",
    )
    add_follow_symlinks(play)
    play.set_defaults(run=cmd_play)

    replay = commands.add_parser("replay", help="verify a game record", description=cmd_replay.__doc__)
    replay.add_argument("record", help="a JSON record written by 'play --json'")
    replay.add_argument(
        "--spec", metavar="SPEC",
        help="the spec to replay with, a file or a shipped spec's name (default: the one the record names, "
        "if it is a file in the record's folder or a shipped spec)",
    )
    replay.set_defaults(run=cmd_replay)

    validate = commands.add_parser("validate", help="check spec files", description=cmd_validate.__doc__)
    validate.add_argument("specs", nargs="+", metavar="SPEC", help="spec files or shipped specs' names (*.examples.yaml files are checked as rulebook examples)")
    validate.add_argument("--strict", action="store_true", help="fail (exit 1) when a spec has warnings: rules that can never apply")
    validate.set_defaults(run=cmd_validate)

    check = commands.add_parser("check", help="run rulebook examples against a spec", description=cmd_check.__doc__)
    check.add_argument("spec", help="the spec file or a shipped spec's name (its examples file NAME.examples.yaml "
                       "beside it is run), or the examples file, which names its spec")
    check.add_argument("examples", nargs="?", help="the examples file (YAML)")
    check.set_defaults(run=cmd_check)

    rules = commands.add_parser("rules", help="print a spec as a Markdown rulebook", description=cmd_rules.__doc__)
    _add_game_arguments(rules)
    rules.set_defaults(run=cmd_rules)

    listing = commands.add_parser("list", help="list the shipped specs (play one by its name)", description=cmd_list.__doc__)
    listing.set_defaults(run=cmd_list)

    schema = commands.add_parser("schema", help="print the JSON Schema of specs", description=cmd_schema.__doc__)
    which = schema.add_mutually_exclusive_group()
    which.add_argument("--overlay", action="store_true", help="print the schema of overlays (files with extends:) instead")
    which.add_argument("--examples", action="store_true", help="print the schema of rulebook examples files instead")
    which.add_argument("--record", action="store_true", help="print the schema of game records instead")
    schema.set_defaults(run=cmd_schema)

    simulate = commands.add_parser("simulate", help="play many games and report statistics", description=cmd_simulate.__doc__)
    _add_game_arguments(simulate)
    _add_simulate_arguments(simulate)
    simulate.set_defaults(run=cmd_simulate)

    from trickrules.tools.tournament_cli import DESCRIPTION, add_arguments

    tournament = commands.add_parser(
        "tournament", help="rate agents by duplicate, seat-rotated games", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    _add_game_arguments(tournament)
    add_arguments(tournament)
    tournament.set_defaults(run=cmd_tournament)

    from trickrules.tools.solve_cli import DESCRIPTION as SOLVE, add_arguments as add_solve_arguments

    solve = commands.add_parser(
        "solve", help="solve deals with every hand known (double dummy)", description=SOLVE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    _add_game_arguments(solve)
    add_solve_arguments(solve)
    solve.set_defaults(run=cmd_solve)

    from trickrules.serve.command import DESCRIPTION as SERVE, add_arguments as add_serve_arguments

    serve = commands.add_parser("serve", help="playtest a spec in the browser", description=SERVE)
    _add_game_arguments(serve)
    add_serve_arguments(serve)
    serve.set_defaults(run=cmd_serve)
    return parser


def _add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    try:
        from trickrules.tools.simulate_cli import add_arguments
    except ImportError:
        return
    add_arguments(parser)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except SpecError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return EXIT_INPUT
    except TrickrulesError as error:
        print(f"trickrules: {error}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("trickrules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
