"""The `trickrules` command line: play, replay, validate, check, rules, schema, simulate.

Exit codes: 0 success, 1 a check or replay that found a difference, 2 bad input (an invalid
spec, a missing file, a wrong option), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from trickrules.version import __version__
from trickrules.errors import SpecError, TrickrulesError
from trickrules.spec.options import OptionValueError, parse_assignment
from trickrules.tools.output import InputError, write_output

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

    names = [n.strip() for n in (text or "random").split(",") if n.strip()] or ["random"]
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
    from trickrules.tools.record import build_record, dumps, play_game
    from trickrules.tools.textlog import render_record

    game = _load_game(args)
    agents = _agents(args.agents, game.num_players, args.seed)
    state = play_game(game, args.seed, agents, deal=_read_deal(args.deal) if args.deal else None)
    record = build_record(state, [a.name for a in agents])
    if args.json:
        write_output(args.json, dumps(record))
        if args.json != "-":
            winners = ", ".join(f"P{p}" for p in record["winners"])
            print(f"{args.json}: {len(record['actions'])} actions, totals {record['totals']}, winners {winners}")
    else:
        print(render_record(record))
    return EXIT_OK


def _read_json(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot read: {error}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    """Play a record's actions through the engine and report the first divergence."""
    from trickrules.engine.game import load_game
    from trickrules.tools.record import replay
    from trickrules.tools.recordschema import record_problems

    record = _read_json(args.record)
    problems = record_problems(record)
    if problems:
        raise InputError(f"{args.record}: not a trickrules record: " + "; ".join(problems[:3]))
    spec = args.spec or record["spec"]["file"]
    if not args.spec and not Path(spec).is_absolute() and not Path(spec).exists():
        spec = str(Path(args.record).parent / spec)
    game = load_game(spec, players=record["players"], options=record["options"])
    if game.ruleset.source_digest != record["spec"]["digest"]:
        print(f"note: {spec} has changed since the record was written (digest differs)", file=sys.stderr)
    result = replay(record, game)
    print(f"{args.record}: {result.message}")
    return EXIT_OK if result.verified else EXIT_FAILED


def cmd_validate(args: argparse.Namespace) -> int:
    """Check spec files (and rulebook examples files) and print one summary line per file."""
    from trickrules.tools.examples import is_examples_file

    status = EXIT_OK
    for path in args.specs:
        check = _validate_examples if is_examples_file(path) else _validate_spec
        if not check(path):
            status = EXIT_INPUT
    return status


def _validate_spec(path: str) -> bool:
    from trickrules.spec.checks import load_spec
    from trickrules.spec.compiler import compile_ruleset

    try:
        ruleset = compile_ruleset(load_spec(path))
    except SpecError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        count = len(error.problems)
        print(f"{path}: invalid, {count} problem{'s' if count != 1 else ''}")
        return False
    players = ", ".join(str(p) for p in ruleset.allowed_players)
    print(
        f"{path}: ok: {ruleset.id} '{ruleset.title}', {len(ruleset.deck.cards)} cards, "
        f"{len(ruleset.deck.suits)} suits, players {players}, {ruleset.rounds} rounds, "
        f"{len(ruleset.options)} options"
    )
    return True


def _validate_examples(path: str) -> bool:
    """An examples file is valid when its cases read well and the spec it names loads."""
    from trickrules.spec.checks import load_spec
    from trickrules.tools.examples import ExampleError, examples_spec, load_examples

    try:
        cases = load_examples(path)
        spec = examples_spec(path)
        load_spec(spec)
    except ExampleError as error:
        print(f"trickrules: {error}", file=sys.stderr)
        print(f"{path}: invalid rulebook examples")
        return False
    except SpecError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{path}: invalid: its spec {spec} has problems")
        return False
    print(f"{path}: ok: {len(cases)} rulebook examples for {spec} (run them with 'trickrules check')")
    return True


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of specs (or of game records)."""
    if args.record:
        from trickrules.tools.recordschema import record_schema

        schema = record_schema()
    else:
        from trickrules.spec.checks import spec_schema

        schema = spec_schema()
    print(json.dumps(schema, indent=2))
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    """Run a file of rulebook examples against a spec (by default the spec the file names)."""
    from trickrules.tools.examples import examples_spec, load_examples, run_examples

    if args.examples is None:
        args.spec, args.examples = examples_spec(args.spec), args.spec
    else:
        named = _named_spec(args.examples)
        if named is not None and named.resolve() != Path(args.spec).resolve():
            print(f"note: {args.examples} names the spec {named}; checking against {args.spec}", file=sys.stderr)
    cases = load_examples(args.examples)
    results = run_examples(args.spec, cases)
    failed = 0
    for result in results:
        print(result.line())
        failed += not result.passed
    print(f"{len(results) - failed} passed, {failed} failed")
    return EXIT_OK if failed == 0 else EXIT_FAILED


def _named_spec(examples: str) -> Path | None:
    from trickrules.tools.examples import ExampleError, examples_spec

    try:
        return examples_spec(examples)
    except ExampleError:
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


# ---------------------------------------------------------------- parser


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", help="the spec file (YAML)")
    parser.add_argument("--players", type=int, help="number of players (default: the largest allowed)")
    parser.add_argument(
        "--set", action="append", metavar="NAME=VALUE", help="set a spec option, e.g. --set rounds=2 (repeatable)"
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `trickrules` command."""
    parser = argparse.ArgumentParser(
        prog="trickrules",
        description="Play trick-taking card games from rule specs written in YAML.",
        epilog="Exit codes: 0 ok, 1 a check or replay found a difference, 2 bad input. "
        "Run 'trickrules COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"trickrules {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    play = commands.add_parser("play", help="play one game and show it trick by trick", description=cmd_play.__doc__)
    _add_game_arguments(play)
    play.add_argument("--seed", type=int, default=0, help="seed of the shuffles and the agents (default 0)")
    play.add_argument("--agents", help="agents per seat, comma-separated: random, greedy (default: random for all)")
    play.add_argument("--json", metavar="FILE", help="write the JSON game record to FILE ('-' for standard output)")
    play.add_argument(
        "--deal",
        metavar="FILE",
        help="play this deal instead of shuffling: a YAML or JSON file with 'hands' (one list of card ids per seat) "
        "and any chance outcome (e.g. 'pass: left'), or a list of such deals, one per round",
    )
    play.set_defaults(run=cmd_play)

    replay = commands.add_parser("replay", help="verify a game record", description=cmd_replay.__doc__)
    replay.add_argument("record", help="a JSON record written by 'play --json'")
    replay.add_argument("--spec", help="the spec to replay with (default: the file named in the record)")
    replay.set_defaults(run=cmd_replay)

    validate = commands.add_parser("validate", help="check spec files", description=cmd_validate.__doc__)
    validate.add_argument("specs", nargs="+", metavar="SPEC", help="spec files (*.examples.yaml files are checked as rulebook examples)")
    validate.set_defaults(run=cmd_validate)

    check = commands.add_parser("check", help="run rulebook examples against a spec", description=cmd_check.__doc__)
    check.add_argument("spec", help="the spec file (or the examples file, which names its spec)")
    check.add_argument("examples", nargs="?", help="the examples file (YAML)")
    check.set_defaults(run=cmd_check)

    rules = commands.add_parser("rules", help="print a spec as a Markdown rulebook", description=cmd_rules.__doc__)
    _add_game_arguments(rules)
    rules.set_defaults(run=cmd_rules)

    schema = commands.add_parser("schema", help="print the JSON Schema of specs", description=cmd_schema.__doc__)
    schema.add_argument("--record", action="store_true", help="print the schema of game records instead")
    schema.set_defaults(run=cmd_schema)

    simulate = commands.add_parser("simulate", help="play many games and report statistics", description=cmd_simulate.__doc__)
    _add_game_arguments(simulate)
    _add_simulate_arguments(simulate)
    simulate.set_defaults(run=cmd_simulate)
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
