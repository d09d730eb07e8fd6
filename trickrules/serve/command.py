"""`trickrules serve SPEC`: its arguments, and serving until interrupted."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from typing import Any

DESCRIPTION = """Serve a page to playtest a spec in the browser: your hand against bots, the legal
cards and why the others are not, every decision the spec asks, the score sheet, the log with
undo and replay, and the game again after each save of the spec file (or its problems, with
line and column). The page's address is printed; the seed is in it (?seed=S), so a deal can
be shared. Binds 127.0.0.1 unless --host says otherwise."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `serve` besides the spec, --players and --set."""
    parser.add_argument(
        "--seats",
        default="human,greedy",
        help="who sits where, comma-separated: human, random, greedy, ismcts or ismcts:N, pimc or pimc:N; a shorter list is "
        "filled with its last bot (default: human,greedy: you in seat 0, greedy bots elsewhere)",
    )
    parser.add_argument("--seed", type=int, help="the seed of the first deal (default: a random one)")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--pace", type=float, default=0.6, help="seconds each bot move waits (default 0.6; the page changes it)")
    parser.add_argument("--no-open", action="store_true", help="print the address only; do not open a browser")


def run(args: argparse.Namespace, options: Mapping[str, Any]) -> int:
    """Serve the page until interrupted; 0 on Ctrl-C, 2 for bad input."""
    from trickrules.serve.session import MAX_PACE, Session
    from trickrules.serve.server import _is_loopback, make_server
    from trickrules.spec.shipped import resolve_spec
    from trickrules.tools.output import InputError

    path = os.fspath(resolve_spec(args.spec))  # a bare name that is no shipped spec: SpecError (TR101)
    if not os.path.isfile(path):
        raise InputError(f"{args.spec}: no such file")
    if args.seed is not None and args.seed < 0:
        raise InputError("--seed must be 0 or more")
    if not 0 <= args.pace <= MAX_PACE:
        raise InputError(f"--pace must be from 0 to {MAX_PACE:g} seconds")
    try:
        session = Session(args.spec, players=args.players, options=options, seats=args.seats, seed=args.seed, pace=args.pace)
    except ValueError as error:
        raise InputError(f"--seats: {error}") from None
    try:
        server = make_server(session, args.host, args.port)
    except OSError as error:
        raise InputError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}") from None
    if not _is_loopback(args.host):
        print(f"warning: serving on {args.host}: anyone who can reach it can see and play this game", file=sys.stderr)
    title = session.game.ruleset.title if session.game is not None else args.spec
    problems = f" ({len(session.errors)} problem(s) in the spec: see the page)" if session.errors else ""
    print(f"trickrules serve: {title} at {server.url}{problems}", flush=True)
    print("Edit and save the spec to play the new rules; Ctrl-C stops.", flush=True)
    session.start()
    if not args.no_open:
        _open_browser(server.url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        session.stop()
    return 0


def _open_browser(url: str) -> None:
    try:
        import webbrowser

        webbrowser.open(url, new=2)
    except Exception:  # no browser here: the printed address is enough
        pass
