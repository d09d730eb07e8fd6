"""The "never fired" list of `simulate`: each rule that fired in none of the games, with the
line of the spec that states it.

A rule that never fired may be rare or may be dead; `trickrules validate` tells the dead ones
(warnings TR5xx). This list points at the rule so that a designer can read it::

    Never fired in these games (rare, or dead: 'trickrules validate' warns about rules that can never apply):
      reward 'losing 2, other colour'    specs/kingdoms.yaml:67:5
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from trickrules.errors import SpecError
from trickrules.spec.source import SpecSource, read_spec

__all__ = ["never_fired_lines", "rule_place"]

class _Rule(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def never_fired(self) -> bool: ...


def rule_place(source: SpecSource, kind: str, name: str, number: int) -> str:
    """``file:line:col`` of a rule of the spec: the `number`-th (from 0) of its kind in the
    figures, which follow the spec's order."""
    data = source.data
    path: tuple[str | int, ...]
    if kind == "reward":
        names = [reward.get("name") for reward in data.get("rewards") or ()]
        path = ("rewards", names.index(name)) if name in names else ("rewards",)
    elif kind == "round rule":
        path = ("scoring", "round", number)
    elif kind == "section":
        path = ("tableau", "score", name)
    else:
        path = ()
    file, line, column = source.locate(path)
    return f"{file}:{line}:{column}"


def never_fired_lines(spec: str, rules: Sequence[_Rule]) -> list[str]:
    """The lines listing the rules that never fired, each with its place in the spec."""
    silent = [(rule, sum(1 for other in rules[:index] if other.kind == rule.kind))
              for index, rule in enumerate(rules) if rule.never_fired and rule.kind in ("reward", "round rule", "section")]
    if not silent:
        return []
    try:
        source: SpecSource | None = read_spec(spec)
    except SpecError:
        source = None
    lines = ["", "Never fired in these games (rare, or dead: 'trickrules validate' warns about rules that can never apply):"]
    for rule, number in silent:
        where = rule_place(source, rule.kind, rule.name, number) if source is not None else spec
        label = f"{rule.kind} '{rule.name}'"
        lines.append(f"  {label:<40}{where}")
    return lines
