"""Command-line input errors and the one way the command line writes a file.

Outputs never lose data: `check_output` refuses, before any long work starts, a path that is
one of the command's input files or that cannot be written (no such folder, a folder in the
way, no permission, a read-only file system); `write_output` writes through a temporary file
in the same folder and renames it over the target, so a failure leaves the old file whole.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from trickrules.errors import TrickrulesError

__all__ = ["InputError", "check_output", "counted", "save_figure", "write_output"]


class InputError(TrickrulesError):
    """Bad input given on the command line (not a spec problem)."""


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``1 game``, ``2 games``: a count and its word, singular or plural."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def check_output(path: str | None, inputs: Iterable[str | os.PathLike[str]] = (), option: str = "output") -> None:
    """InputError unless `path` (``-``: standard output, None: no output) can be written now
    without overwriting one of `inputs`; `option` names it in messages (e.g. ``--json``)."""
    if path is None or path == "-":
        return
    target = Path(path)
    resolved = target.resolve()
    for name in inputs:
        if Path(name).resolve() == resolved:
            raise InputError(f"{option} {path}: refusing to write over an input file of this command ({name})")
    if target.is_dir():
        raise InputError(f"cannot write {path}: it is a folder")
    folder = target.parent
    if not folder.is_dir():
        raise InputError(f"cannot write {path}: no folder {folder}")
    if target.exists() and not os.access(target, os.W_OK):
        raise InputError(f"cannot write {path}: the file is read-only")
    try:  # the only sure test (permissions, read-only file systems, root): make a file there
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".check"):
            pass
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None


def write_output(path: str, text: str) -> None:
    """Write `text` to the file `path`, or to standard output for ``-``; InputError if it fails.

    The text goes to a temporary file beside `path` that is then renamed over it: the old
    file stays whole until the new one is complete. A new file gets the usual permissions.
    """
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, _mode_for(target))
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    """The permissions of the file being replaced, or those of a new file under the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def save_figure(figure: Any, path: str) -> None:
    """Write a matplotlib figure to `path` and close it; a file that cannot be written is a
    `SimulationError` naming it."""
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    from trickrules.tools.simulate import SimulationError

    try:
        figure.savefig(path)
    except OSError as error:
        raise SimulationError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        plt.close(figure)
