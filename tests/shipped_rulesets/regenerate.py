"""Regenerate the recorded compiled rulesets of the shipped specs.

Each file holds what the compiler makes of one shipped spec (every field of the frozen
ruleset, expressions by their text, sets sorted), as gzipped JSON. Run after an intended
change of the compiler or of a spec, then review what the test reports:

    python tests/shipped_rulesets/regenerate.py

tests/test_shipped_rulesets.py compiles the specs again and names the first field that differs.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SPECS = sorted(path.name for path in (ROOT / "specs").glob("*.yaml") if not path.name.endswith(".examples.yaml"))


def plain(value: Any) -> Any:
    """`value` as JSON data: dataclasses field by field (a source file by its name), expressions
    by their text and names, sets sorted, anything else compiled (a function) by its kind only."""
    from trickrules.rules.expressions import Expression

    if isinstance(value, Expression):
        return {"expression": value.text, "names": sorted(value.names), "written": value.written}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = {field.name: plain(getattr(value, field.name)) for field in dataclasses.fields(value)}
        if found.get("source_file"):  # the file's name: the checkout may lie anywhere
            found["source_file"] = Path(found["source_file"]).name
        return found
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, set | frozenset):
        return sorted((plain(item) for item in value), key=repr)
    if isinstance(value, dict):
        return {repr(key): plain(item) for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return f"<{type(value).__name__}>"


def compiled(spec: str) -> Any:
    """The compiled ruleset of a shipped spec (at its default player count), as JSON data."""
    from trickrules.spec.loader import load_ruleset

    return plain(load_ruleset(ROOT / "specs" / spec))


def recorded(spec: str) -> Any:
    """The recorded compiled ruleset of a shipped spec."""
    with gzip.open(HERE / f"{spec}.json.gz", "rt", encoding="utf-8") as file:
        return json.load(file)


if __name__ == "__main__":
    for spec in SPECS:
        path = HERE / f"{spec}.json.gz"
        text = json.dumps(compiled(spec), indent=1, sort_keys=True)
        with gzip.GzipFile(path, "wb", mtime=0) as file:  # no time stamp: the same ruleset, the same bytes
            file.write(text.encode("utf-8"))
        print(f"wrote {path.relative_to(ROOT)}")
