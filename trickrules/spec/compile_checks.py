"""Checks that compile a spec that loads: for every allowed player count, and with every
value of its options. Loading a game compiles a spec once, for its player count and options;
these are what `trickrules validate` (and `trickrules.spec.checks.check_spec`) add, so that a
spec that validates plays with any count and option value it allows.

Each problem is reported once, best first (by file, line and column).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from trickrules.errors import Problem, SpecError
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.options import option_defs
from trickrules.spec.source import SpecSource

__all__ = ["option_problems", "player_problems", "sorted_problems"]


def player_problems(source: SpecSource) -> list[Problem]:
    """Problems of a loaded spec that show when it is compiled (expressions, phases, seats),
    for every allowed player count with the options' defaults."""
    problems: list[Problem] = []
    for players in sorted(set(source.data["players"])):
        try:
            compile_ruleset(source, players)
        except SpecError as error:
            problems += error.problems
    return sorted_problems(problems)


def option_problems(source: SpecSource) -> list[Problem]:
    """Every problem compiling a loaded spec finds: compiled for every allowed player count
    with the options' defaults (`player_problems`), then with each other value of a choice or
    yes/no option and the bounds of an integer one (the others at their defaults), the option
    named in the message (a problem the defaults have too is reported once, without a name).
    `trickrules validate` reports them; loading a game meets those of its player count and
    options as a `SpecError`."""
    problems = player_problems(source)
    with_defaults = set(problems)
    for players in sorted(set(source.data["players"])):
        for options in list(_option_variants(source))[1:]:
            try:
                compile_ruleset(source, players, options)
            except SpecError as error:
                note = "".join(f" (with option {name} = {value})" for name, value in options.items())
                problems += [dataclasses.replace(p, message=p.message + note) for p in error.problems if p not in with_defaults]
    return sorted_problems(problems)


def _option_variants(source: SpecSource) -> Iterator[dict[str, Any]]:
    """The defaults ({}), then one other value of one option at a time."""
    yield {}
    for name, option in option_defs(source.data).items():
        if option.type == "choice":
            others: list[Any] = list(option.choices)
        elif option.type == "boolean":
            others = [True, False]
        elif option.type == "integer":
            others = [v for v in (option.minimum, option.maximum) if v is not None]
        else:
            others = []
        for value in others:
            if value != option.default:
                yield {name: value}


def sorted_problems(problems: Sequence[Problem]) -> list[Problem]:
    """Return the problems without repeats, by file, line and column (stable)."""
    return sorted(dict.fromkeys(problems), key=lambda problem: (problem.file, problem.line, problem.column))
