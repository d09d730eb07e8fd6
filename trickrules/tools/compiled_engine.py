"""Whether the engine runs compiled, and whether the compiled modules were built from the
package's present sources (see `trickrules.tools.build_compiled`).

This module imports nothing of trickrules at its top: the build of a wheel (setup.py) reads
`MODULES`, `DIGEST_FILE` and `sources_digest` from it before the package can be imported."""

from __future__ import annotations

import hashlib
import warnings
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent

MODULES = (
    "engine/game.py",
    "engine/state.py",
    "engine/playouts.py",
    "engine/refusals.py",
    "engine/round_end.py",
    "engine/cloning.py",
    "engine/deals.py",
    "engine/tensors.py",
    # every kind of phase: the whole folder, so that a new kind is compiled with the others
    *sorted(f"engine/phases/{path.name}" for path in (PACKAGE / "engine" / "phases").glob("*.py")),
    "rules/follow.py",
    "rules/ranking.py",
    "rules/rewards.py",
    "rules/scoring.py",
    "rules/conditions.py",
    "rules/faces.py",
    "rules/placement.py",
)
"""The modules compiled, relative to the package: those a game runs through per action."""


def compiled() -> bool:
    """Whether the engine runs compiled (the state module is an extension module)."""
    from trickrules.engine import state

    return not state.__file__.endswith(".py")


DIGEST_FILE = "compiled-from.txt"
"""Written into the package by a build: the digest of the sources it compiled."""


def check_build(root: Path = PACKAGE) -> None:
    """Warn when the engine runs compiled from other sources than the package's (an engine
    module changed after the build): the old code would run. Nothing to do when not compiled."""
    if not compiled():
        return
    recorded = root / DIGEST_FILE
    built = recorded.read_text().strip() if recorded.is_file() else "unknown"
    if built != sources_digest(root):
        warnings.warn(
            "trickrules runs a compiled engine built from other sources than these: rebuild it "
            "(python -m trickrules.tools.build_compiled) or remove it (--clean)",
            RuntimeWarning,
            stacklevel=2,
        )


def sources_digest(root: Path = PACKAGE) -> str:
    """A digest of every Python source of the package: a compiled build is good for one digest."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]
