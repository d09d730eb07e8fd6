"""Contracts as specs of their own: each contract merged over the whole spec, with the
positions of the contract's own keys, so that checks and the compiler report a problem inside
a contract at its line and column."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from trickrules.spec.merge import merge_overlay
from trickrules.spec.source import SpecSource

OWN_KEYS = ("description", "declarer")
"""Keys of a contract that describe it rather than change the rules."""


def contract_changes(overlay: dict[str, Any]) -> dict[str, Any]:
    """The part of a contract that changes the rules (its `first_leader` is the deal's)."""
    changes = {key: value for key, value in overlay.items() if key not in OWN_KEYS and key != "first_leader"}
    if "first_leader" in overlay:
        changes["deal"] = {"first_leader": overlay["first_leader"]}
    return changes


def contract_source(source: SpecSource, name: str, data: dict[str, Any] | None = None) -> SpecSource:
    """The spec as contract `name` makes it (`data`: the spec's data to merge over, default the
    source's), located where each key was written: the contract's own keys in the contract."""
    base = source.data if data is None else data
    merged = merge_overlay(base, contract_changes(base["contracts"][name]))
    prefix = ("contracts", name)
    locations = dict(source.locations)
    for path, where in source.locations.items():
        if path[:2] == prefix and len(path) > 2:
            locations[("deal", *path[2:]) if path[2] == "first_leader" else path[2:]] = where
    return replace(source, data=merged, locations=locations)


def contract_sources(source: SpecSource) -> Iterator[tuple[str, SpecSource]]:
    """Each contract of the spec as a spec of its own."""
    for name in source.data.get("contracts") or {}:
        yield name, contract_source(source, name)
