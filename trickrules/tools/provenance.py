"""Where a record's rules came from, and what changed since: the `spec` entry of a record.

A record names its spec by id and file and keeps three digests (SHA-256, hex):

- ``digest``: the bytes of the spec file and its parents, as before;
- ``rules``: the compiled rules (every compared field of the `Ruleset`, expressions by their
  text), so that edits that change no rule (comments, spacing, key order, quoting) still
  replay as the same rules;
- ``files``: each file of the overlay chain (the spec first, then what it extends) with the
  digest of its YAML data, so that a real change is named with the file it is in.

    >>> from trickrules import load_ruleset
    >>> len(rules_digest(load_ruleset("specs/kingdoms.yaml", players=3)))
    64
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import yaml

from trickrules.rules.ruleset import Ruleset
from trickrules.spec.shipped import shipped_specs

__all__ = ["file_digests", "rules_changes", "rules_digest", "spec_entry", "spec_file_label", "spec_files"]


def _canonical(value: Any) -> Any:
    """`value` as JSON data that two equal rulesets share, whatever order their sets list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def _sha256(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rules_digest(ruleset: Ruleset) -> str:
    """SHA-256 of the compiled rules: equal for equal rulesets, whatever the spec's layout."""
    return _sha256(_canonical(ruleset))


def spec_files(ruleset: Ruleset) -> tuple[str, ...]:
    """The files of the spec's overlay chain, the spec first; empty for a spec given as text."""
    main = ruleset.source_file
    if not main or not Path(main).is_file():
        return ()
    from trickrules.spec.source import read_spec

    try:
        return read_spec(main).files
    except Exception:  # the file went away or broke since it was loaded: no files to name
        return ()


def file_digests(ruleset: Ruleset) -> list[dict[str, str]]:
    """Each file of the spec's overlay chain (names relative to the spec's folder) with the
    digest of its YAML data; empty for a spec given as text."""
    files = spec_files(ruleset)
    if not files:
        return []
    folder = Path(ruleset.source_file).resolve().parent
    entries = []
    for file in files:
        try:
            data = yaml.safe_load(Path(file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        name = os.path.relpath(Path(file).resolve(), folder)
        entries.append({"file": Path(name).as_posix(), "digest": _sha256(data)})
    return entries


def spec_file_label(ruleset: Ruleset) -> str:
    """The spec's file as a record names it: a shipped spec by its bare name, by whichever
    path it was loaded (a record then replays with whatever installation has that spec)."""
    file = ruleset.source_file
    if file and os.path.isfile(file):
        real = os.path.realpath(file)
        for shipped in shipped_specs():
            if os.path.realpath(shipped.path) == real:
                return shipped.name
    return file


def spec_entry(ruleset: Ruleset) -> dict[str, Any]:
    """The `spec` entry of a record of a game of `ruleset`."""
    return {
        "id": ruleset.id,
        "title": ruleset.title,
        "version": ruleset.version,
        "file": spec_file_label(ruleset),
        "digest": ruleset.source_digest,
        "rules": rules_digest(ruleset),
        "files": file_digests(ruleset),
    }


def rules_changes(recorded: dict[str, Any], ruleset: Ruleset, spec: str) -> str | None:
    """Why the rules of `ruleset` (loaded from `spec`) differ from a record's, or None if
    they do not. The files of the overlay chain whose data changed are named."""
    if "rules" not in recorded:  # a record from before rule digests: the file's bytes tell
        if recorded.get("digest") in (None, ruleset.source_digest):
            return None
        return f"{spec} has changed since the record was written (its file digest differs)"
    if recorded["rules"] == rules_digest(ruleset):
        return None
    before = {entry["file"]: entry["digest"] for entry in recorded.get("files", [])}
    now = {entry["file"]: entry["digest"] for entry in file_digests(ruleset)}
    folder = os.path.dirname(spec)
    changed = [os.path.normpath(os.path.join(folder, f)) for f in now if f in before and before[f] != now[f]]
    added = [os.path.normpath(os.path.join(folder, f)) for f in now if f not in before]
    gone = [f for f in before if f not in now]
    parts = []
    if changed:
        parts.append(f"the change is in {', '.join(changed)}")
    if added and before:
        parts.append(f"the chain now also reads {', '.join(added)}")
    if gone and now:
        parts.append(f"the chain no longer reads {', '.join(gone)}")
    where = "; ".join(parts) if parts else "no file of the spec changed (another trickrules version?)"
    return f"the rules of {spec} differ from the record's: {where}"
