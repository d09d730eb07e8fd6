"""Command-line input errors and the one way the command line writes a file.

Outputs never lose data and never replace what is not a regular file:

- `check_output` refuses, before any long work starts, a path that is one of the command's
  input files, that cannot be written (no such folder, no permission, a read-only file
  system), or that exists and is not a regular file: a folder, a device (``/dev/null``
  included), a FIFO, a socket, or a symbolic link. A symbolic link is followed only when the
  user asks (``--follow-symlinks``): then the file it points to is replaced (it must be a
  regular file or not exist yet) and the link stays.
- `write_output` and `save_figure` write whole or not at all: through a temporary file in
  the same folder that is then renamed over the target (``os.replace``), so a failure leaves
  the old file whole; they check the target's kind again just before the rename.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from trickrules.errors import TrickrulesError

__all__ = ["InputError", "add_follow_symlinks", "agent_names", "check_output", "counted", "output_target", "save_figure", "write_output"]


class InputError(TrickrulesError):
    """Bad input given on the command line (not a spec problem)."""


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``1 game``, ``2 games``: a count and its word, singular or plural."""
    return f"{count} {word if count == 1 else plural or word + 's'}"


def agent_names(text: str | None, default: str = "random") -> list[str]:
    """The agent names of an ``--agents`` value, comma-separated (None: `default`);
    InputError for an empty name (``,``, ``greedy,,random``, a trailing comma)."""
    if text is None:
        return [default]
    names = [name.strip() for name in text.split(",")]
    if "" in names:
        raise InputError(
            f"--agents {text!r} has an empty agent name: name an agent between every two commas "
            "(random, greedy, ismcts or ismcts:N, pimc or pimc:N), e.g. --agents greedy,random"
        )
    return names


def add_follow_symlinks(parser: argparse.ArgumentParser) -> None:
    """The ``--follow-symlinks`` option of commands that write files."""
    parser.add_argument(
        "--follow-symlinks", action="store_true",
        help="let an output path (--json, --plot) be a symbolic link: the regular file it points to is replaced "
        "and the link kept (by default a link is refused, as are folders, devices and FIFOs)",
    )  # fmt: skip


_KINDS = (
    (stat.S_ISDIR, "it is a folder"),
    (stat.S_ISCHR, "it is a character device"),
    (stat.S_ISBLK, "it is a block device"),
    (stat.S_ISFIFO, "it is a FIFO (a named pipe)"),
    (stat.S_ISSOCK, "it is a socket"),
)


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode is no output: its kind; None for a regular file."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return None if stat.S_ISREG(mode) else "it is not a regular file"


def output_target(path: str, follow_symlinks: bool = False) -> Path:
    """The file to replace for the output `path`: `path` itself, or with `follow_symlinks`
    the file a symbolic link points to. InputError when what is there is not a regular file
    (only regular files are replaced; a new file may be made)."""
    target = Path(path)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return target
    except OSError:  # e.g. a file where a folder should be: check_output says why
        return target
    if stat.S_ISLNK(mode):
        if not follow_symlinks:
            raise InputError(
                f"cannot write {path}: it is a symbolic link (to {os.readlink(target)}); "
                "give the file itself, or --follow-symlinks to replace the file it points to"
            )
        target = Path(os.path.realpath(target))
        try:
            mode = os.stat(target).st_mode
        except FileNotFoundError:
            return target  # a link to a file yet to be made
        except OSError as error:  # a loop of links, a file where a folder should be
            raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    reason = _not_regular(mode)
    if reason is not None:
        shown = path if str(target) == path else f"{path} (-> {target})"
        raise InputError(f"cannot write {shown}: {reason}; outputs only replace regular files")
    return target


def check_output(
    path: str | None,
    inputs: Iterable[str | os.PathLike[str]] = (),
    option: str = "output",
    follow_symlinks: bool = False,
) -> None:
    """InputError unless `path` (``-``: standard output, None: no output) can be written now
    without overwriting one of `inputs` or anything but a regular file; `option` names it in
    messages (e.g. ``--json``)."""
    if path is None or path == "-":
        return
    target = output_target(path, follow_symlinks)
    resolved = os.path.realpath(path)
    for name in inputs:
        if os.path.realpath(name) == resolved:
            raise InputError(f"{option} {path}: refusing to write over an input file of this command ({name})")
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


def _replace(path: str, write: Callable[[IO[bytes]], object], follow_symlinks: bool) -> None:
    """Write a new file through `write` into a temporary file beside the target, then rename
    it over the target; InputError (and no file left behind) if any step fails."""
    target = output_target(path, follow_symlinks)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.chmod(temporary, _mode_for(target))
        output_target(path, follow_symlinks)  # again: something may have taken its place meanwhile
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_output(path: str, text: str, follow_symlinks: bool = False) -> None:
    """Write `text` to the file `path`, or to standard output for ``-``; InputError if it fails.

    The text goes to a temporary file beside `path` that is then renamed over it: the old
    file stays whole until the new one is complete. A new file gets the usual permissions,
    a replaced one keeps its own. What is not a regular file is never replaced.
    """
    if path == "-":
        sys.stdout.write(text)
        return
    _replace(path, lambda stream: stream.write(text.encode("utf-8")), follow_symlinks)


def _mode_for(target: Path) -> int:
    """The permissions of the file being replaced, or those of a new file under the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def save_figure(figure: Any, path: str, follow_symlinks: bool = False) -> None:
    """Write a matplotlib figure to `path`, whole or not at all, and close it; the format is
    the path's suffix. A file that cannot be written is an InputError naming it."""
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]

    try:
        _replace(path, lambda stream: figure.savefig(stream, format=Path(path).suffix.lstrip(".").lower()), follow_symlinks)
    finally:
        plt.close(figure)
