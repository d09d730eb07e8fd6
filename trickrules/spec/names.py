"""Words for names a spec gets wrong: the closest declared name, and lists of names.

Every "undefined ..." message of the loader ends with the closest declared name, so a typo
costs one glance::

    >>> did_you_mean("perl", ["red", "pearl", "gold"])
    "; did you mean 'pearl'?"
    >>> did_you_mean("zzz", ["red", "pearl"])
    ''
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean", "listed"]


def closest(name: object, known: Iterable[object]) -> str | None:
    """The declared name closest to `name`, or None when none is close; names differing only
    in upper and lower case come first."""
    text = str(name)
    choices = [str(choice) for choice in known]
    same = [choice for choice in choices if choice.lower() == text.lower() and choice != text]
    if same:
        return same[0]
    close = difflib.get_close_matches(text, choices, n=1, cutoff=0.6)
    if not close and len(text) <= 3:  # short names: one wrong letter is already 2/3 of them
        close = difflib.get_close_matches(text, choices, n=1, cutoff=0.5)
    return close[0] if close else None


def did_you_mean(name: object, known: Iterable[object]) -> str:
    """``; did you mean 'x'?`` for the declared name closest to `name`, else ``""``."""
    match = closest(name, known)
    return f"; did you mean '{match}'?" if match is not None else ""


def listed(names: Iterable[object]) -> str:
    """Names joined with commas, or ``none``."""
    return ", ".join(str(name) for name in names) or "none"
