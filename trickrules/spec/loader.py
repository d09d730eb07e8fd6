"""From a spec file to a compiled `Ruleset`: read, check, compile."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from trickrules.spec.checks import load_spec, load_spec_text
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.shipped import resolve_spec
from trickrules.rules.ruleset import Ruleset


def load_ruleset(
    path: str | os.PathLike[str], players: int | None = None, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """Read, check and compile the spec at `path`; raises `SpecError` listing every problem.

    `path` may also be the bare name of a shipped spec, e.g. ``"kingdoms"``.
    """
    return compile_ruleset(load_spec(resolve_spec(path)), players, options)


def load_ruleset_text(
    text: str, file: str = "<string>", players: int | None = None, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """The same as `load_ruleset`, from the text of a spec."""
    return compile_ruleset(load_spec_text(text, file), players, options)
