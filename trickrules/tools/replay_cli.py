"""``trickrules replay``: which spec a record may name, and what "verified" means.

A record names its spec relative to its own folder (``play --json`` writes it so) or by a
shipped spec's name; `record_spec` reads nothing else, so a record from elsewhere cannot make
replay open, and print pieces of, another file. An absolute path or one leading out of the
record's folder needs the user to pass the spec (``--spec``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from trickrules.tools.output import InputError

EXIT_OK, EXIT_FAILED = 0, 1


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The largest record `replay` reads (a record of 1,000 rounds of Hearts is about 13 MB)."""

MAX_RECORD_DEPTH = 200
"""The deepest nesting of lists and mappings `replay` reads (records nest about 8 deep)."""

MAX_DIGITS = 100
"""The most digits of an integer in a record (its totals are bounded far below)."""


class _TooLong(ValueError):
    """An integer in the JSON text with more than `MAX_DIGITS` digits."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def read_json(path: str) -> Any:
    """The JSON document of a record file; InputError (one line, showing nothing of the file
    but where) when it cannot be read, is too large or too deep, or holds an integer of more
    than `MAX_DIGITS` digits."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise InputError(f"{path}: too large for a record (more than {MAX_RECORD_BYTES // (1024 * 1024)} MiB)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start + 1})") from None
    try:
        document = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as error:
        raise InputError(f"{path}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None
    except _TooLong as error:
        raise InputError(f"{path}: not a trickrules record: an integer of {len(str(error).lstrip('-'))} digits (at most {MAX_DIGITS})") from None
    except RecursionError:
        raise InputError(f"{path}: not a trickrules record: nested more than {MAX_RECORD_DEPTH} levels deep") from None
    if _depth(document) > MAX_RECORD_DEPTH:
        raise InputError(f"{path}: not a trickrules record: nested more than {MAX_RECORD_DEPTH} levels deep")
    return document


def _depth(document: Any) -> int:
    """How deep lists and mappings nest in `document` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        if level > MAX_RECORD_DEPTH:
            return level
        stack.extend((child, level + 1) for child in children)
    return deepest


def spec_beside(spec: str, record_file: str) -> str:
    """How a record written to `record_file` names its spec: a shipped spec by its name, any
    other file by its path relative to the record's folder (the working folder for ``-``)."""
    from trickrules.spec.shipped import is_bare_name

    if not spec or (is_bare_name(spec) and not os.path.exists(spec)):
        return spec
    folder = os.path.abspath(os.path.dirname(record_file) if record_file != "-" else os.curdir)
    return Path(os.path.relpath(os.path.abspath(spec), folder)).as_posix()


def record_spec(record_file: str, named: str) -> str:
    """The spec a record names, read only where a record may point: a file in the record's
    folder (or below it), or a shipped spec by its name. InputError for an absolute path or
    one leading out of the record's folder: the user must pass such a spec with --spec."""
    from trickrules.spec.shipped import is_bare_name, shipped_specs

    folder = os.path.dirname(record_file) or os.curdir
    if os.path.isabs(named) or Path(named).drive:
        raise InputError(
            f"{record_file} names its spec by an absolute path ({named}); replay reads only a spec in the "
            f"record's folder or a shipped spec: to replay with that file, pass it: --spec {named}"
        )
    candidate = os.path.join(folder, named)
    root = os.path.realpath(folder)
    if os.path.commonpath([os.path.realpath(candidate), root]) != root:
        raise InputError(
            f"{record_file} names its spec {named}, outside the record's folder; replay reads only a spec in "
            "the record's folder or a shipped spec: to replay with that file, pass it with --spec FILE"
        )
    if os.path.isfile(candidate):
        return candidate
    if is_bare_name(named):
        shipped = {spec.name: str(spec.path) for spec in shipped_specs()}
        if named in shipped:
            return shipped[named]
    raise InputError(
        f"{record_file} names the spec {named}, which is neither a file in the record's folder nor a shipped "
        "spec: pass the spec with --spec FILE"
    )


def run_cli(args: argparse.Namespace) -> int:
    """Play a record's actions through the engine and report the first divergence.

    The spec is the one given with --spec, else the one the record names: a file in the
    record's folder (or below it) or a shipped spec by name; any other path needs --spec.
    Exit 0 when the game replays with the rules the record names ('verified'; 'same rules'
    when only the spec files' layout changed), 1 when it diverges or the rules changed.
    """
    from trickrules.engine.game import load_game
    from trickrules.tools.provenance import rules_changes
    from trickrules.tools.record import replay
    from trickrules.tools.recordschema import record_problems

    record = read_json(args.record)
    problems = record_problems(record)
    if problems:
        raise InputError(f"{args.record}: not a trickrules record: " + "; ".join(problems[:3]))
    spec = args.spec or record_spec(args.record, record["spec"]["file"])
    _check_spec_id(args.record, record["spec"], spec)
    game = load_game(spec, players=record["players"], options=record["options"])
    change = rules_changes(record["spec"], game.ruleset, spec)
    if change is not None:
        print(f"note: {change}", file=sys.stderr)
    result = replay(record, game)
    if not result.verified:
        print(f"{args.record}: {result.message}")
        return EXIT_FAILED
    if change is not None:
        print(f"{args.record}: not verified: the actions replay, but the rules are not the record's (see the note above)")
        return EXIT_FAILED
    if record["spec"]["digest"] != game.ruleset.source_digest:
        done = result.message.removeprefix("verified: ")
        print(
            f"{args.record}: same rules, not the same files: {done}; the spec's files differ from the record's "
            "digest by edits that change no rule (comments, spacing, key order)"
        )
        return EXIT_OK
    print(f"{args.record}: {result.message}")
    return EXIT_OK


def _check_spec_id(record_file: str, recorded: dict[str, Any], spec: str) -> None:
    """InputError when `spec` is another spec than the record's (by id), before any replay."""
    from trickrules.spec.checks import load_spec
    from trickrules.spec.shipped import resolve_spec

    found = load_spec(resolve_spec(spec)).data.get("id")
    if found != recorded["id"]:
        raise InputError(
            f"{record_file} is a record of the spec '{recorded['id']}' ({recorded['title']}), "
            f"but {spec} is the spec '{found}': replay it with the spec the record names (--spec FILE)"
        )
