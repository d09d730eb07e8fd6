"""Named sub-expressions (`define`): expressions a spec names once and reads anywhere.

A spec's top-level `define` maps names to expressions. Any expression of the spec may read a
defined name, and a definition may read other definitions (never itself, through any chain).
A definition is checked where it is used, with the names that place offers (a definition that
reads a measure can be used in scoring, not in a restriction), and its problems are reported
at the definition, naming the place of use. The expression that is compiled is the one written
out: every defined name replaced by its definition in brackets, so that it evaluates exactly as
the rule written by hand would.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["MAX_DEFINITIONS", "MAX_WRITTEN_OUT", "check", "cycle", "expand", "referenced", "used_by"]

MAX_DEFINITIONS = 100
"""The most names a spec may define: enough for any rulebook, few enough to read."""

MAX_WRITTEN_OUT = 20_000
"""The most characters an expression may hold with its definitions written out (each one
written by hand stays within the expressions' own limit)."""


def _names(text: str) -> list[tuple[int, int, str]] | None:
    """The names in `text`, as (start, stop, name) by character offset; None when the text does
    not split into tokens (the expression's own check reports why)."""
    flat = text.replace("\r", " ").replace("\n", " ")
    found: list[tuple[int, int, str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(flat).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    for token in tokens:
        if token.type == tokenize.NAME:
            (_, start), (_, stop) = token.start, token.end
            found.append((start, stop, token.string))
    return found


def referenced(text: Any, definitions: Mapping[str, str]) -> list[str]:
    """The defined names `text` reads directly, in the order they first appear."""
    if not isinstance(text, str) or not definitions:
        return []
    names = _names(text) or []
    seen: list[str] = []
    for _, _, name in names:
        if name in definitions and name not in seen:
            seen.append(name)
    return seen


def used_by(text: Any, definitions: Mapping[str, str]) -> list[str]:
    """Every defined name `text` reads, directly or through other definitions."""
    found: list[str] = []
    waiting = referenced(text, definitions)
    while waiting:
        name = waiting.pop(0)
        if name in found:
            continue
        found.append(name)
        waiting += [n for n in referenced(definitions[name], definitions) if n not in found]
    return found


def cycle(definitions: Mapping[str, str]) -> list[str] | None:
    """A chain of definitions that reads its own start (the names in order), or None."""
    for start in definitions:
        path = [start]
        stack = [(start, iter(referenced(definitions[start], definitions)))]
        on_path = {start}
        while stack:
            name, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                on_path.discard(name)
                path.pop()
                continue
            if child == start:
                return [*path, child]
            if child not in on_path:
                on_path.add(child)
                path.append(child)
                stack.append((child, iter(referenced(definitions[child], definitions))))
    return None


def expand(text: str, definitions: Mapping[str, str]) -> str:
    """`text` with every defined name replaced by its definition, written out, in brackets."""
    names = _names(text)
    if not names:
        return text
    flat = text.replace("\r", " ").replace("\n", " ")
    pieces: list[str] = []
    at = 0
    for start, stop, name in names:
        if name in definitions:
            pieces += [flat[at:start], "(", expand(definitions[name], definitions), ")"]
            at = stop
    pieces.append(flat[at:])
    return "".join(pieces)


def texts(raw: Mapping[str, Any] | None) -> dict[str, str]:
    """The definitions as texts (a number or true/false written as its expression)."""
    return {str(name): (value if isinstance(value, str) else repr(value)) for name, value in (raw or {}).items()}


def reserved(words: Iterable[str]) -> frozenset[str]:
    """Names a definition may not take: `words` and the expression language's own."""
    from trickrules.rules.expression_syntax import FUNCTIONS

    return frozenset([*words, *FUNCTIONS, "True", "False", "and", "or", "not", "if", "else", "in", "is"])


def check(raw: Mapping[str, Any] | None, taken: Iterable[str], fail: Callable[[tuple, str, str], None]) -> tuple[dict[str, str], set[str]]:
    """The definitions of `define` and those in a chain that reads itself; `fail(path, code,
    message)` for more than `MAX_DEFINITIONS` (TR332), a name `taken` (options, counters,
    measures, the names the engine gives, the functions: TR368) and such a chain (TR369)."""
    found = texts(raw)
    if len(found) > MAX_DEFINITIONS:
        fail(("define",), "TR332", f"{len(found)} definitions: at most {MAX_DEFINITIONS}")
        return {}, set()
    names = reserved(taken)
    for name in list(found):
        if name in names:
            fail(("define", name), "TR368", f"'{name}' is already a name expressions read (an option, counter, "
                 "measure, a name the engine gives, or a function): a definition needs a name of its own")
            del found[name]
    chain = cycle(found)
    if chain is not None:
        fail(("define", chain[0]), "TR369", f"the definition of '{chain[0]}' reads itself: {' -> '.join(chain)}")
    return found, set(chain or ())
