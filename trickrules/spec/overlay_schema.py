"""The JSON Schema of overlays (files with `extends:`), made from the schema of specs.

An overlay is merged over its parent: mappings merge key by key, null deletes a key, anything
else replaces (`trickrules.spec.merge`). So wherever a mapping sits inside a mapping, an
overlay may give any part of it: no key is required there, and any key may be null. Lists are
replaced whole, so a list's items keep every rule of the spec schema. The overlay schema is
the spec schema with that applied: the same keys and the same descriptions, nothing required
but `extends`. Every definition a mapping can reach gets a twin ``<name>InOverlay``.

The shipped file `trickrules/schema/overlay.schema.json` is this function's output
(``trickrules schema --overlay``); a test checks that it is up to date.
"""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["OVERLAY_ID", "overlay_schema"]

OVERLAY_ID = "https://trickrules.dev/schema/overlay-1.json"
TWIN = "InOverlay"
_NULL = {"type": "null", "description": "null deletes the value the parent spec gives here."}


def overlay_schema(spec: dict[str, Any]) -> dict[str, Any]:
    """The schema of overlays, made from the schema of specs `spec` (left unchanged)."""
    maker = _Partial(copy.deepcopy(spec["$defs"]))
    root = maker.partial({key: value for key, value in spec.items() if key != "$defs"})
    root["$id"] = OVERLAY_ID
    root["title"] = "trickrules overlay: a spec that extends another"
    root["description"] = (
        "An overlay names its parent spec with extends and gives only what differs: mappings merge key by key "
        "with the parent's, null deletes a key, anything else replaces. Every key is optional; the merged spec "
        "must be a whole spec. " + str(spec.get("description", ""))
    )
    root["required"] = ["extends"]
    root["$defs"] = {**maker.defs, **maker.twins}
    return root


class _Partial:
    """Makes the partial form of schemas, and of the definitions they reach, once each."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.twins: dict[str, Any] = {}

    def partial(self, node: Any) -> Any:
        """The schema of a value that may merge over the parent's value at the same place."""
        if not isinstance(node, dict):
            return node
        node = dict(node)
        if "$ref" in node:
            name = str(node["$ref"]).removeprefix("#/$defs/")
            if name in self.defs and self.is_mapping(self.defs[name]):
                self.twin(name)
                node["$ref"] = f"#/$defs/{name}{TWIN}"
            return node
        node.pop("required", None)
        if "properties" in node:
            node["properties"] = {key: _nullable(self.partial(value)) for key, value in node["properties"].items()}
        if isinstance(node.get("additionalProperties"), dict):
            node["additionalProperties"] = _nullable(self.partial(node["additionalProperties"]))
        for key in ("anyOf", "oneOf", "allOf"):
            if key in node:
                branches = [self.partial(branch) for branch in node[key]]
                if key == "oneOf" and all(set(branch) <= {"description"} for branch in branches):
                    del node[key]  # alternatives told apart by required keys only: any part fits
                else:
                    node[key] = branches
        for key in ("then", "else"):
            if key in node:
                node[key] = self.partial(node[key])
        if isinstance(node.get("dependentSchemas"), dict):
            node["dependentSchemas"] = {key: self.partial(value) for key, value in node["dependentSchemas"].items()}
        return node

    def twin(self, name: str) -> None:
        """Make the partial twin of definition `name`, unless made or being made."""
        key = f"{name}{TWIN}"
        if key in self.twins:
            return
        self.twins[key] = {}  # a placeholder while the definition refers to itself
        self.twins[key] = self.partial(self.defs[name])

    def is_mapping(self, node: Any, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a schema may take a mapping with keys of its own (one that can merge)."""
        if not isinstance(node, dict):
            return False
        if "$ref" in node:  # a definition, or a key of the root (the same in both schemas)
            name = str(node["$ref"]).removeprefix("#/$defs/")
            return name in self.defs and name not in seen and self.is_mapping(self.defs[name], seen | {name})
        if "properties" in node or isinstance(node.get("additionalProperties"), dict):
            return True
        return any(self.is_mapping(branch, seen) for key in ("anyOf", "oneOf", "allOf") for branch in node.get(key, ()))


def _nullable(schema: Any) -> dict[str, Any]:
    """A key's schema that also takes null (delete the parent's value), its description kept."""
    wrapped: dict[str, Any] = {"anyOf": [schema, _NULL]}
    if isinstance(schema, dict) and "description" in schema:
        wrapped = {"description": schema["description"], **wrapped}
    return wrapped
