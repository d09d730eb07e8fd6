"""The JSON Schemas of game records and of rulebook examples files, shipped with the package."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    """The record schema (draft 2020-12)."""
    text = resources.files("trickrules").joinpath("schema/record.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def examples_schema() -> dict[str, Any]:
    """The schema of rulebook examples files (draft 2020-12), as editors read it."""
    text = resources.files("trickrules").joinpath("schema/examples.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def record_problems(record: Any) -> list[str]:
    """What is wrong with `record` against the schema, one line each (empty when valid)."""
    validator = Draft202012Validator(record_schema())
    problems = []
    for error in sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path)):
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        problems.append(f"{where}: {error.message}")
    return problems
