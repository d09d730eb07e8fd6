"""Compile teams formed by the deal (`teams: {holders_of: CARD}`) and the reward condition on
the winner's side (`winner_is_partner`), with their checks (TR350-TR355).

Teams by the deal change every round, so what needs fixed seats (a team counter, a go_alone
phase, a dummy, contracts that set teams) cannot go with them, and cards passed before the
play would change who holds a partner card after the deal; the checks say so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trickrules.errors import Problem
from trickrules.rules.cards import COPY_MARK
from trickrules.rules.ruleset import Deck
from trickrules.spec.names import did_you_mean
from trickrules.spec.source import VALUE, SpecSource, json_path

__all__ = ["by_deal", "partner_cards", "reward_partner"]


def _fail(source: SpecSource, found: list[Problem], path: tuple, code: str, message: str) -> None:
    file, line, column = source.locate((*path, VALUE))
    found.append(Problem(code, message, file, line, column, json_path(path)))


def by_deal(data: Mapping[str, Any]) -> bool:
    """Whether the spec's teams are formed by the deal (a mapping, not a list of seats)."""
    return isinstance(data.get("teams"), dict)


def partner_cards(data: Mapping[str, Any], source: SpecSource, found: list[Problem], deck: Deck,
                  names: Mapping[str, int]) -> tuple[int, ...]:
    """The partner cards' indices, every copy of each named card, in deck order; () without
    teams by the deal. Adds a problem for a name that is no card (TR350), a card named twice
    (TR355) and what cannot go with teams that change every round (TR351, TR352)."""
    if not by_deal(data):
        return ()
    raw = data["teams"]["holders_of"]
    listed = raw if isinstance(raw, list) else [raw]
    path = ("teams", "holders_of")
    bases: list[str] = []
    for index, name in enumerate(listed):
        at = (*path, index) if isinstance(raw, list) else path
        if name not in names:
            _fail(source, found, at, "TR350", f"no card '{name}' in the deck{did_you_mean(name, list(names))}")
            continue
        base = deck.cards[names[name]].id.partition(COPY_MARK)[0]
        if base in bases:
            _fail(source, found, at, "TR355", f"holders_of names {base} twice (a card's id names every copy of it)")
        bases.append(base)
    _fixed_seats(data, source, found)
    return tuple(card.index for card in deck.cards if card.id.partition(COPY_MARK)[0] in bases)


def _fixed_seats(data: Mapping[str, Any], source: SpecSource, found: list[Problem]) -> None:
    """Problems of rules that need teams of fixed seats, or that move cards after the deal."""
    for index, step in enumerate(data.get("round") or []):
        kind = step if isinstance(step, str) else next(iter(step), "")
        if kind == "pass":
            _fail(source, found, ("round", index), "TR351",
                  "teams by the deal (holders_of) are fixed when the cards are dealt: a pass phase would move partner cards after it")
        if kind in ("go_alone",) or (kind == "auction" and isinstance(step, dict) and (step[kind] or {}).get("dummy")):
            _fail(source, found, ("round", index), "TR352", f"{kind} needs teams of fixed seats, not teams by the deal (holders_of)")
    for name, counter in (data.get("counters") or {}).items():
        if isinstance(counter, dict) and counter.get("scope") == "team":
            _fail(source, found, ("counters", name, "scope"), "TR352",
                  "a team counter needs teams of fixed seats, not teams by the deal (holders_of): use scope: player")
    for name, contract in (data.get("contracts") or {}).items():
        if isinstance(contract, dict) and ("teams" in contract or contract.get("declarer") == "alone"):
            key = "teams" if "teams" in contract else "declarer"
            _fail(source, found, ("contracts", name, key), "TR352", "a contract cannot set teams in a spec with teams by the deal (holders_of)")


def reward_partner(raw: Mapping[str, Any], index: int, data: Mapping[str, Any], source: SpecSource,
                   found: list[Problem]) -> tuple[bool | None, dict | None]:
    """A reward's `winner_is_partner` (None without it) and the rest of its `when` (None when
    nothing is left); a problem where it stands inside not, all or any (TR354), or in a spec
    without teams (TR353)."""
    when = raw.get("when") or {}
    path = ("rewards", index, "when")
    _nested(when, path, source, found, top=True)
    value = when.get("winner_is_partner")
    if value is not None and not data.get("teams"):
        _fail(source, found, (*path, "winner_is_partner"), "TR353", "winner_is_partner compares sides: the spec needs teams")
    rest = {key: part for key, part in when.items() if key != "winner_is_partner"}
    return value, rest or None


def _nested(when: Any, path: tuple, source: SpecSource, found: list[Problem], top: bool) -> None:
    if not isinstance(when, dict):
        return
    if not top and "winner_is_partner" in when:
        _fail(source, found, (*path, "winner_is_partner"), "TR354",
              "winner_is_partner stands only at the top of a reward's when, not inside not, all or any")
    for key in ("not", "all", "any"):
        inner = when.get(key)
        for i, part in enumerate(inner if isinstance(inner, list) else [inner]):
            _nested(part, (*path, key, i) if isinstance(inner, list) else (*path, key), source, found, top=False)
