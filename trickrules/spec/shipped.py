"""The specs that ship with trickrules, found by name: ``load_game("kingdoms")``.

The shipped specs are the ``specs/*.yaml`` files of the source tree (with their rulebook
examples, ``*.examples.yaml``). A wheel carries them as ``trickrules/specs/`` (pyproject.toml
maps the package ``trickrules.specs`` to the folder ``specs/``); a checkout or an editable
install reads them from ``specs/`` beside the package. `resolve_spec` turns a bare name (no
folder, no ``.yaml``) into the path of the shipped spec of that name; an existing file of that
name wins, and any other text is left as the path it is.

    >>> [spec.name for spec in shipped_specs()][:2]
    ['hearts', 'kingdoms']
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from trickrules.errors import Problem, SpecError

__all__ = ["ShippedSpec", "resolve_spec", "shipped_folder", "shipped_specs"]

EXAMPLES_SUFFIX = ".examples.yaml"
_PACKAGE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class ShippedSpec:
    """One shipped spec: its name (the file name without ``.yaml``) and its path."""

    name: str
    path: Path

    @property
    def examples(self) -> Path | None:
        """Its file of rulebook examples, if it ships one."""
        path = self.path.with_name(self.name + EXAMPLES_SUFFIX)
        return path if path.is_file() else None


def shipped_folder() -> Path | None:
    """The folder of the shipped specs: inside the package (a wheel), else the checkout's."""
    for folder in (_PACKAGE / "specs", _PACKAGE.parent / "specs"):
        if folder.is_dir() and any(folder.glob("*.yaml")):
            return folder
    return None


def shipped_specs() -> list[ShippedSpec]:
    """The shipped specs, by name (rulebook examples files are not specs)."""
    folder = shipped_folder()
    if folder is None:
        return []
    paths = (p for p in folder.glob("*.yaml") if not p.name.endswith(EXAMPLES_SUFFIX))
    return sorted((ShippedSpec(p.name[: -len(".yaml")], p) for p in paths), key=lambda s: s.name)


def is_bare_name(spec: str) -> bool:
    """Whether `spec` reads as a name rather than a path: no folder, no suffix."""
    return bool(spec) and os.sep not in spec and "/" not in spec and "." not in spec


def resolve_spec(spec: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """The path to read for `spec`: a shipped spec's path for its bare name, else `spec` itself.

    A bare name that is neither a file nor a shipped spec raises `SpecError` (TR101) naming
    the shipped specs.
    """
    if not isinstance(spec, str) or not is_bare_name(spec) or os.path.exists(spec):
        return spec
    shipped = {s.name: s.path for s in shipped_specs()}
    if spec in shipped:
        return str(shipped[spec])
    names = ", ".join(shipped) or "none found"
    message = f"file not found: {spec} (no such file, and no shipped spec of that name; shipped specs: {names})"
    raise SpecError([Problem("TR101", message, spec, 1, 1, "$")])
