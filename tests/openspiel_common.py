"""What the OpenSpiel cross-checks share: how many games to play, how two legal sets are told
apart in a difference message, and how a corrupted trace must be noticed. Imports neither
trickrules nor pyspiel."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

GAMES_ENV = "TRICKRULES_CROSSCHECK_GAMES"
"""Environment variable with the number of games a cross-check test replays."""

Order = Callable[[Iterable[str]], tuple[str, ...]]


def _sorted(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names))


def games_from_env(default: int) -> int:
    """The number of cross-check games: ``$TRICKRULES_CROSSCHECK_GAMES``, else `default`."""
    text = os.environ.get(GAMES_ENV, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{GAMES_ENV} must be a whole number, not {text!r}") from None
    if value < 0:
        raise ValueError(f"{GAMES_ENV} must not be negative, not {value}")
    return value


def split_actions(texts: Iterable[str], order: Order = _sorted) -> tuple[set[str], tuple[str, ...]]:
    """The verbs and the ordered names of action strings such as ``play hearts-10``, ``bid nil``."""
    verbs, names = set(), []
    for text in texts:
        verb, _, name = text.partition(" ")
        verbs.add(verb)
        names.append(name.strip())
    return verbs, order(names)


def legal_sets_text(ours: tuple[str, ...], theirs: tuple[str, ...], order: Order = _sorted) -> str:
    """Both legal sets, and what only one engine allows."""
    only_openspiel = list(order(set(theirs) - set(ours)))
    only_trickrules = list(order(set(ours) - set(theirs)))
    return (
        f"openspiel legal {list(theirs)}; trickrules legal {list(ours)} "
        f"(only openspiel: {only_openspiel}; only trickrules: {only_trickrules})"
    )


Trace = TypeVar("Trace")


def first_corrupted(mutation: Callable[[Trace], Trace | None], traces: Sequence[Trace]) -> tuple[Trace, Trace]:
    """The first trace `mutation` applies to, and its corrupted copy."""
    return next((t, m) for t in traces if (m := mutation(t)) is not None)


def assert_check_notices(name: str, original: Any, mutated: Any, check: Callable[[Any], list[str]]) -> None:
    """`check` (our reading of OpenSpiel's rules) passes the original trace and not its corruption."""
    assert check(original) == []
    assert check(mutated), f"{name} (seed {original.seed}) went unnoticed by check_trace"


def assert_replay_notices(name: str, original: Any, mutated: Any, replay: Callable[[Any], list[str]]) -> None:
    """`replay` finds no difference in the original trace and exactly one, naming its seed, in the corruption."""
    assert replay(original) == []
    differences = replay(mutated)
    assert differences, f"{name} (seed {original.seed}) went unnoticed"
    assert len(differences) == 1 and f"seed {original.seed}" in differences[0]
