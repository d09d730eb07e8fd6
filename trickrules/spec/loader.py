"""From a spec file to a compiled `Ruleset`: read, check, compile."""

from __future__ import annotations

import operator
import os
from collections.abc import Mapping
from typing import Any

from trickrules.spec.checks import load_spec, load_spec_text
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.shipped import resolve_spec
from trickrules.rules.ruleset import Ruleset


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} ({text if len(text) <= 40 else text[:37] + '...'})"


def checked_players(players: Any, function: str = "load_game") -> int | None:
    """`players` as an int (numpy integers too), or None; TypeError naming the argument."""
    if players is None:
        return None
    if not isinstance(players, bool):
        try:
            return operator.index(players)
        except TypeError:
            pass
    raise TypeError(f"{function}: players must be a whole number of players (an int) or None, not {_shown(players)}")


def checked_options(options: Any, function: str = "load_game") -> Mapping[str, Any] | None:
    """`options` as given when it is None or a mapping of option names; TypeError naming the
    argument otherwise (a list, a string, a name that is not text)."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TypeError(f"{function}: options must be a mapping of option names to values, e.g. {{'rounds': 2}}, not {_shown(options)}")
    for name in options:
        if not isinstance(name, str):
            raise TypeError(f"{function}: options must be named by text, not {_shown(name)}")
    return options


def checked_spec(spec: Any, function: str = "load_game", ruleset: bool = False) -> str | os.PathLike[str]:
    """`spec` when it is a path or a name (text or os.PathLike); TypeError naming it otherwise."""
    if isinstance(spec, (str, os.PathLike)):
        return spec
    also = ", or a compiled Ruleset" if ruleset else ""
    raise TypeError(f"{function}: spec must be a spec file's path or a shipped spec's name{also}, not {_shown(spec)}")


def load_ruleset(
    path: str | os.PathLike[str], players: int | None = None, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """Read, check and compile the spec at `path`; raises `SpecError` listing every problem.

    `path` may also be the bare name of a shipped spec, e.g. ``"kingdoms"``. A `path`,
    `players` or `options` of the wrong type is a `TypeError` naming the argument.
    """
    path = checked_spec(path, "load_ruleset")
    players, options = checked_players(players, "load_ruleset"), checked_options(options, "load_ruleset")
    return compile_ruleset(load_spec(resolve_spec(path)), players, options)


def load_ruleset_text(
    text: str, file: str = "<string>", players: int | None = None, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """The same as `load_ruleset`, from the text of a spec."""
    if not isinstance(text, str):
        raise TypeError(f"load_ruleset_text: text must be the text of a spec (a str), not {_shown(text)}")
    players, options = checked_players(players, "load_ruleset_text"), checked_options(options, "load_ruleset_text")
    return compile_ruleset(load_spec_text(text, file), players, options)
