"""Merging an overlay over its parent (`extends`, and contracts): the data, where each node
now comes from, and where the overlay put a value of another kind than the parent's.

Mappings merge key by key, null deletes, anything else replaces::

    >>> merge_overlay({"deal": {"hand_size": 10, "dealer": {"first": 0}}}, {"deal": {"hand_size": 8}})
    {'deal': {'hand_size': 8, 'dealer': {'first': 0}}}
    >>> kind_changes({"deal": {"hand_size": 10}}, {("deal",): ("base.yaml", 4, 1)}, {"deal": 8})
    {('deal',): (('base.yaml', 4, 1), 'a mapping')}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["VALUE", "kind_changes", "kind_word", "merge_locations", "merge_overlay", "without_nulls"]

PathKey = tuple[str | int, ...]
Location = tuple[str, int, int]
KindChange = tuple[Location, str]
"""Where the parent set a value the overlay replaced with one of another kind, and its kind."""
VALUE = "<value>"
"""The last step of a path whose location is where a scalar value's text starts."""


def without_nulls(data: dict[str, Any]) -> dict[str, Any]:
    """Return a mapping with null entries dropped, recursively through mappings."""
    return {
        key: without_nulls(value) if isinstance(value, dict) else value
        for key, value in data.items()
        if value is not None
    }


def merge_overlay(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """An overlay merged over a base by the rules of `extends` (used for contracts too):
    mappings recurse, null deletes, anything else replaces."""
    merged = dict(base)
    for key, value in overlay.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_overlay(merged[key], value)
        else:
            merged[key] = without_nulls(value) if isinstance(value, dict) else value
    return merged


def _replaced(base: dict[str, Any], overlay: dict[str, Any], path: PathKey) -> list[PathKey]:
    """Return the paths whose base value the overlay replaces or deletes."""
    paths: list[PathKey] = []
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            paths.extend(_replaced(base[key], value, path + (key,)))
        else:
            paths.append(path + (key,))
    return paths


def merge_locations(
    base_data: dict[str, Any], base_locations: Mapping[PathKey, Location], overlay: dict[str, Any],
    overlay_locations: Mapping[PathKey, Location], merged: dict[str, Any],
) -> dict[PathKey, Location]:
    """Return the merged locations: the overlay's win, replaced parent nodes are forgotten."""
    gone = _replaced(base_data, overlay, ())
    locations = {
        spot: where for spot, where in base_locations.items()
        if not any(spot[: len(path)] == path for path in gone)
    }
    locations.update(overlay_locations)
    return {spot: where for spot, where in locations.items() if kept(merged, spot)}


def kept(data: Any, path: PathKey) -> bool:
    """Return whether a path still leads to a value in the merged data."""
    for step in path:
        if step == VALUE:
            continue
        if isinstance(data, dict) and isinstance(step, str) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return False
    return True


def kind_word(value: Any) -> str:
    """The kind of a value in words: a mapping, a list, a string, a number, a boolean."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a string" if isinstance(value, str) else "null"


def kind_changes(
    base: dict[str, Any], base_locations: Mapping[PathKey, Location], overlay: dict[str, Any], path: PathKey = ()
) -> dict[PathKey, KindChange]:
    """The paths where the overlay puts a value of another kind than its parent had there,
    with where the parent set it and what kind it was."""
    found: dict[PathKey, KindChange] = {}
    for key, value in overlay.items():
        here = path + (key,)
        if value is None or key not in base:
            continue
        old = base[key]
        if isinstance(value, dict) and isinstance(old, dict):
            found.update(kind_changes(old, base_locations, value, here))
        elif kind_word(value) != kind_word(old) and here in base_locations:
            found[here] = (base_locations[here], kind_word(old))
    return found
