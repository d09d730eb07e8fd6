"""Limits on what a spec may ask for: rounds, cards, hand sizes, tokens, bids and values.

Without them, ``rounds: 1000000000`` validates and `play` then grows past a gigabyte with no
output. A spec (or an option value given at load time) over a limit is refused with TR332 and a
message that names the limit. The limits are far above any real card game; the table on the
"What the language cannot say yet" page is generated from `LIMITS`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from trickrules.errors import Problem, SpecError
from trickrules.rules.ruleset import UNLIMITED, Ruleset
from trickrules.rules.scoring import MAX_POINTS
from trickrules.spec.source import SpecSource, json_path

__all__ = [
    "LIMITS", "MAX_BIDS", "MAX_CARDS", "MAX_HAND_SIZE", "MAX_POINTS", "MAX_RANKS", "MAX_ROUNDS", "MAX_TOKENS", "check_ruleset_limits",
    "limit_problems", "limits_table", "ruleset_limit_problems",
]  # fmt: skip

MAX_ROUNDS = 1000
MAX_CARDS = 1000
MAX_HAND_SIZE = 200
MAX_TOKENS = 10_000
MAX_BIDS = 1000
MAX_RANKS = 1000
"""The most ranks one generator of the deck may make (TR204)."""

LIMITS: dict[str, tuple[int, str]] = {
    "rounds": (MAX_ROUNDS, "rounds in a game: `rounds`, an option for it, or `at_most` with `until`"),
    "cards": (MAX_CARDS, "cards in the deck"),
    "hand size": (MAX_HAND_SIZE, "cards in a hand, for every player count, round and option value"),
    "tokens": (MAX_TOKENS, "tokens of one kind in the supply, given by one reward, or needed by one section"),
    "bids": (MAX_BIDS, "values a bid phase offers (`values` from `from` to `to`), at every hand size"),
    "values": (MAX_POINTS, "the size of a counter's `initial`, `set` or `add` (either sign)"),
}
"""Each limit: its value and what it counts, in words (for the docs)."""

NodePath = tuple[str | int, ...]


def limits_table() -> str:
    """Every limit a spec meets, as a Markdown table (generated into the docs): what a spec may
    ask for (TR332), and the reader's and the expressions' limits (TR103, TR107, TR143)."""
    from trickrules.rules import expressions
    from trickrules.spec import definitions, source

    rows = [(f"{limit:,}", what, "[TR332](errors.md#tr332)") for limit, what in LIMITS.values()]
    rows += [
        (f"±{MAX_POINTS:,}", "points of a round, totals and counters while a game plays: a value beyond is held at the bound", "(none: held)"),
        (f"{source.MAX_FILE_BYTES:,} bytes", "the size of a spec or examples file", "[TR103](errors.md#tr103)"),
        (f"{source.MAX_NODES:,}", "values in a file, counting what aliases repeat", "[TR107](errors.md#tr107)"),
        (f"{source.MAX_DEPTH}", "levels of nesting in a file", "[TR107](errors.md#tr107)"),
        (f"{MAX_RANKS:,}", "ranks one generator makes", "[TR204](errors.md#tr204)"),
        (f"{expressions.MAX_LENGTH:,}", "characters in an expression", "[TR143](errors.md#tr143)"),
        (f"{expressions.MAX_DEPTH}", "levels of nesting in an expression", "[TR143](errors.md#tr143)"),
        (f"{definitions.MAX_DEFINITIONS}", "named sub-expressions (`define`)", "[TR332](errors.md#tr332)"),
        (f"{definitions.MAX_WRITTEN_OUT:,}", "characters in an expression with the definitions it reads written out", "[TR143](errors.md#tr143)"),
    ]
    lines = ["| Limit | What it counts | Code |", "|---:|---|---|"]
    lines += [f"| {limit} | {what} | {code} |" for limit, what, code in rows]
    return "\n".join(lines)


def _over(value: Any, limit: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > limit


def _message(what: str, value: int, limit: int, unit: str) -> str:
    return f"{what} {value} {unit}: over the limit of {limit} {unit}"


def limit_problems(source: SpecSource) -> list[Problem]:
    """Every value of a checked spec over a limit (options by their default and their max)."""
    found: list[Problem] = []
    for value, path, limit, what, unit in _places(source.data):
        if _over(value, limit):
            file, line, column = source.locate(path)
            found.append(Problem("TR332", _message(what, value, limit, unit), file, line, column, json_path(path)))
    return found


def _places(data: dict[str, Any]) -> Iterator[tuple[Any, NodePath, int, str, str]]:
    """(value, where, limit, what it is, unit) for every limited value of the spec."""
    options = data.get("options") or {}
    yield _deck_size(data["deck"]), ("deck",), MAX_CARDS, "a deck of", "cards"
    rounds = data.get("rounds")
    if isinstance(rounds, dict) and "at_most" in rounds:
        yield from _values(rounds["at_most"], ("rounds", "at_most"), options, MAX_ROUNDS, "at_most asks for", "rounds")
    yield from _values(rounds, ("rounds",), options, MAX_ROUNDS, "a game of", "rounds")
    yield from _values(data["deal"]["hand_size"], ("deal", "hand_size"), options, MAX_HAND_SIZE, "a hand of", "cards")
    for name, token in (data.get("tokens") or {}).items():
        yield from _values(token.get("supply"), ("tokens", name, "supply"), options, MAX_TOKENS, "a supply of", "tokens")
    for index, reward in enumerate(data.get("rewards") or ()):
        if "token" in reward["give"]:
            amount: NodePath = ("rewards", index, "give", "amount")
            yield from _values(reward["give"]["amount"], amount, options, MAX_TOKENS, "a reward of", "tokens")
    for name, counter in (data.get("counters") or {}).items():
        for key in ("initial",):
            if isinstance(counter, dict) and isinstance(counter.get(key), int):
                yield abs(counter[key]), ("counters", name, key), MAX_POINTS, f"counter '{name}' {key} of", "points"
        on_play = (counter or {}).get("on_play") if isinstance(counter, dict) else None
        for key in ("set", "add"):
            if isinstance(on_play, dict) and isinstance(on_play.get(key), int):
                yield abs(on_play[key]), ("counters", name, "on_play", key), MAX_POINTS, f"counter '{name}' {key} of", "points"
    for index, section in enumerate((data.get("tableau") or {}).get("sections") or ()):
        needed: NodePath = ("tableau", "sections", index, "tokens_needed")
        yield section.get("tokens_needed"), needed, MAX_TOKENS, "a section needing", "tokens"


def _values(value: Any, path: NodePath, options: dict[str, Any], limit: int, what: str,
            unit: str) -> Iterator[tuple[Any, NodePath, int, str, str]]:
    """The numbers a value stands for: itself, a table's entries, an option's default and max."""
    if isinstance(value, int):
        yield value, path, limit, what, unit
    elif isinstance(value, dict) and set(value) == {"option"} and value["option"] in options:
        option = options[value["option"]]
        if option.get("type") == "integer":
            yield option.get("default"), ("options", value["option"], "default"), limit, what, unit
            yield option.get("max"), ("options", value["option"], "max"), limit, f"option '{value['option']}' allows", unit
    elif isinstance(value, dict) and isinstance(value.get("cases"), dict):
        for case, part in value["cases"].items():
            yield from _values(part, path + ("cases", case), options, limit, what, unit)
    elif isinstance(value, dict):
        for key in ("by_players", "by_rank", "by_round", "chance"):
            table = value.get(key)
            entries = table.items() if isinstance(table, dict) else enumerate(table) if isinstance(table, list) else ()
            for entry, number in entries:
                yield number, path + (key, entry), limit, what, unit
        if "default" in value:
            yield value["default"], path + ("default",), limit, what, unit


def _deck_size(deck: dict[str, Any]) -> int:
    """The number of cards in the deck (generator ranges counted, not made)."""
    suits = len(deck["suits"])
    size = sum(card.get("copies", 1) for card in deck.get("cards") or ())
    for generator in deck.get("generate") or ():
        count = suits if generator["suits"] == "all" else len(generator["suits"])
        ranks = generator["ranks"]
        made = len(ranks) if isinstance(ranks, list) else max(0, ranks["to"] - ranks["from"] + 1)
        size += count * made * generator.get("copies", 1)
    return size


def ruleset_limit_problems(source: SpecSource, ruleset: Ruleset) -> list[Problem]:
    """TR332 for each limit a compiled ruleset (option values given at load time included)
    asks more than."""
    found: list[tuple[NodePath, str]] = []
    if ruleset.rounds > MAX_ROUNDS:
        found.append((("rounds",), _message("a game of", ruleset.rounds, MAX_ROUNDS, "rounds")))
    if ruleset.deal.hand_size > MAX_HAND_SIZE:
        found.append((("deal", "hand_size"), _message("a hand of", ruleset.deal.hand_size, MAX_HAND_SIZE, "cards")))
    for kind in ruleset.tokens:
        if kind.supply != UNLIMITED and kind.supply > MAX_TOKENS:
            found.append((("tokens", kind.name, "supply"), _message("a supply of", kind.supply, MAX_TOKENS, "tokens")))
    for index, reward in enumerate(ruleset.rewards):
        if reward.token is not None and reward.amount.constant > MAX_TOKENS:
            found.append((("rewards", index, "give", "amount"), _message("a reward of", reward.amount.constant, MAX_TOKENS, "tokens")))
    problems = []
    for path, message in found:
        file, line, column = source.locate(path)
        problems.append(Problem("TR332", message, file, line, column, json_path(path)))
    return problems


def check_ruleset_limits(source: SpecSource, ruleset: Ruleset) -> None:
    """Raise TR332 when a compiled ruleset asks for more than a limit allows
    (`ruleset_limit_problems`)."""
    problems = ruleset_limit_problems(source, ruleset)
    if problems:
        raise SpecError(problems)
