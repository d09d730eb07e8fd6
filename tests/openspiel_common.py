"""What the OpenSpiel cross-checks share: how many games to play, one replay harness that
plays an OpenSpiel trace again in trickrules decision by decision, how two legal sets are told
apart in a difference message, and how a corrupted trace must be noticed. Imports neither
trickrules nor pyspiel: each game's module (tests/openspiel_<game>.py) plays OpenSpiel and
plugs its game into `replay`.

The plug-in shape. A game's module gives:

- a trace of one OpenSpiel game: ``seed``, ``points`` (or whatever its `Plug.points_differ`
  reads) and ``decisions``, each with ``player``, ``kind`` (the verb of trickrules' action
  strings: ``pass``, ``bid``, ``play`` ...), ``legal`` (the names OpenSpiel allows, ordered as
  `Plug.names` orders trickrules') and ``chosen`` (the name OpenSpiel picked);
- a `Plug`: how a trace is named in messages (`where`), the deal trickrules is given (`deal`),
  how trickrules' action strings become a kind and names (`names`: verb and object by default)
  and a name an action string again (`action`), what a decision's message adds (`so_far`), the
  errors that count as a refusal (`refusals`, `deal_refusals`), and how the final scores are
  compared (`points_differ`: a message when they differ, None when they agree).

`replay(trace, game, plug)` deals the trace's hands, then for each decision compares the current
player, the kind of decision and the legal names, and applies OpenSpiel's choice; at the end it
compares terminality and the scores. It returns messages (empty when the engines agree) and
stops at the first difference, naming the seed, the decision's index, the player and both legal
sets. A game whose decisions need more (a dummy played by the declarer, calls of an auction)
gives it through the same parts: the names of its action strings and the action of a name
(tests/openspiel_bridge.py does, for its calls and cards; skat and tarok will plug in the same way).

A game's module also takes from here: `Decision` and `Trick`, `full_parameters` and
`loaded_game` (OpenSpiel's game with parameters over its defaults, loaded once per set).

A game's tests (tests/test_crosscheck_<game>.py) check OpenSpiel's side on its own (the game's
``check_trace``: our reading of its rules), replay `games_from_env` traces with `replay`, show
that each corruption of a trace (`first_corrupted`; `with_decision`, `swapped_dealt_cards`,
`dropped_legal_card` and the game's own) is noticed by ``check_trace`` and by the replay
(`assert_check_notices`, `assert_replay_notices`), and that the spec with a rule broken
(`broken_text`) differs from OpenSpiel in some replay (`assert_a_replay_differs`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
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


def full_parameters(name: str, defaults: dict[str, Any], params: dict[str, Any] | None) -> dict[str, Any]:
    """`params` over OpenSpiel's `defaults` of game `name`; a parameter not among them is a ValueError."""
    full = {**defaults, **(params or {})}
    unknown = set(full) - set(defaults)
    if unknown:
        raise ValueError(f"unknown OpenSpiel {name} parameters: {sorted(unknown)}")
    return full


@lru_cache(maxsize=None)
def _loaded(load: Callable[[str, dict[str, Any]], Any], name: str, items: tuple[tuple[str, Any], ...]) -> Any:
    return load(name, dict(items))


def loaded_game(load: Callable[[str, dict[str, Any]], Any], name: str, full: dict[str, Any]) -> Any:
    """``load(name, full)`` (``pyspiel.load_game``), once per parameter set."""
    return _loaded(load, name, tuple(sorted(full.items())))


@dataclass(frozen=True)
class Decision:
    """One non-chance decision: who made it, what kind, the legal choices (sorted names) and the one chosen."""

    player: int
    kind: str
    legal: tuple[str, ...]
    """OpenSpiel's legal choices as names, ordered as the game's `Plug.names` orders trickrules'."""
    chosen: str


@dataclass(frozen=True)
class Trick:
    """One trick of a trace: the leader, the cards in playing order, the winner."""

    leader: int
    cards: tuple[str, ...]
    winner: int


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


# ---------------------------------------------------------------- the replay harness

Names = Callable[[Sequence[str]], "tuple[set[str], tuple[str, ...]]"]


def _action(kind: str, name: str) -> str:
    return f"{kind} {name}"


def _nothing(trace: Any, index: int) -> str:
    return ""


@dataclass(frozen=True)
class Plug:
    """How one game plugs into `replay` (the module docstring says what each part is for)."""

    where: Callable[[Any], str]
    """The trace's seed and deal, for messages."""
    deal: Callable[[Any], dict[str, Any]]
    """The trace's chance outcomes as a trickrules deal (``new_initial_state(deal=...)``)."""
    points_differ: Callable[[Any, list[int]], "str | None"]
    """(trace, trickrules' returns as whole numbers) -> what differs, or None."""
    names: Names = split_actions
    """Trickrules' action strings -> their kinds and their names, ordered as the trace's legal sets."""
    sets: Callable[[tuple[str, ...], tuple[str, ...]], str] = legal_sets_text
    """Both legal sets in a message (ours, theirs)."""
    action: Callable[[str, str], str] = _action
    """(kind, name) -> the trickrules action string that plays it."""
    shown: Callable[[str], str] = str
    """How a refused action string is shown."""
    so_far: Callable[[Any, int], str] = _nothing
    """(trace, index) -> what a decision's message adds after its player (e.g. the bids so far)."""
    refusals: tuple[type[BaseException], ...] = (ValueError,)
    """Errors of ``apply_action`` that mean trickrules refused OpenSpiel's choice."""
    deal_refusals: tuple[type[BaseException], ...] = ()
    """Errors of ``new_initial_state`` that mean trickrules refused the deal (others propagate)."""


def replay(trace: Any, game: Any, plug: Plug) -> list[str]:
    """Replay `trace` in `game` (a trickrules Game, or anything with its API) and describe the
    first place the engines disagree; empty when they agree everywhere."""
    where, deal = plug.where(trace), plug.deal(trace)
    try:
        state = game.new_initial_state(seed=0, deal=deal)
    except plug.deal_refusals as error:
        return [f"{where}: trickrules refused the deal {deal}: {error}"]
    for i, d in enumerate(trace.decisions):
        at = f"{where}, decision {i} ({d.kind} by player {d.player}{plug.so_far(trace, i)})"
        if state.is_terminal():
            return [f"{at}: trickrules' game is already over"]
        player = state.current_player()
        if player != d.player:
            return [f"{at}: trickrules' current player is {player}; openspiel legal {list(d.legal)}"]
        kinds, ours = plug.names([state.action_to_string(a) for a in state.legal_actions()])
        if kinds != {d.kind}:
            return [f"{at}: trickrules offers {sorted(kinds)} actions; {plug.sets(ours, d.legal)}"]
        if ours != d.legal:
            return [f"{at}: {plug.sets(ours, d.legal)}"]
        text = plug.action(d.kind, d.chosen)
        try:
            state.apply_action(game.string_to_action(text))
        except plug.refusals as error:
            return [f"{at}: trickrules refused {plug.shown(text)}: {error}"]
    if not state.is_terminal():
        kinds, ours = plug.names([state.action_to_string(a) for a in state.legal_actions()])
        return [
            f"{where}: openspiel's hand is over after {len(trace.decisions)} decisions; trickrules waits "
            f"for player {state.current_player()} ({sorted(kinds)} {list(ours)})"
        ]
    differ = plug.points_differ(trace, [int(x) for x in state.returns()])
    return [f"{where}: {differ}"] if differ is not None else []


# ---------------------------------------------------------------- corrupting a trace (the tests' mutations)


def with_decision(trace: Trace, index: int, decision: Any) -> Trace:
    """A copy of `trace` (a dataclass with ``decisions``) whose decision `index` is `decision`."""
    decisions = list(trace.decisions)  # type: ignore[attr-defined]
    decisions[index] = decision
    return dataclasses.replace(trace, decisions=decisions)  # type: ignore[type-var]


def swapped_dealt_cards(trace: Trace) -> Trace | None:
    """Players 0 and 1 swap one dealt card."""
    hands = [list(h) for h in trace.hands]  # type: ignore[attr-defined]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return dataclasses.replace(trace, hands=hands)  # type: ignore[type-var]


def dropped_legal_card(trace: Trace) -> Trace | None:
    """A play decision with a choice loses one legal card it did not choose."""
    for i, d in enumerate(trace.decisions):  # type: ignore[attr-defined]
        if d.kind == "play" and len(d.legal) > 1:
            dropped = next(c for c in d.legal if c != d.chosen)
            legal = tuple(c for c in d.legal if c != dropped)
            return with_decision(trace, i, dataclasses.replace(d, legal=legal))
    return None


# ---------------------------------------------------------------- a broken rule is caught


def broken_text(text: str, name: str, change: tuple[str, str]) -> str:
    """A spec's `text` with the rule `name` broken: `change` is (the words as shipped, the broken words)."""
    old, new = change
    assert old in text, name
    return text.replace(old, new)


def assert_a_replay_differs(name: str, traces: Sequence[Any], replay: Callable[[Any], list[str]]) -> None:
    """`replay` (in a game with the broken rule `name`) finds a difference in at least one of `traces`."""
    assert any(replay(t) for t in traces), f"{name}: no difference in {len(traces)} games"
