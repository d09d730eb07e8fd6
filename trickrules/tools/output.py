"""Command-line input errors and the one way the command line writes a file."""

from __future__ import annotations

import sys
from pathlib import Path

from trickrules.errors import TrickrulesError


class InputError(TrickrulesError):
    """Bad input given on the command line (not a spec problem)."""


def write_output(path: str, text: str) -> None:
    """Write `text` to the file `path`, or to standard output for ``-``; InputError if it fails."""
    if path == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
