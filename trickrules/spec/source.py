"""Read a spec file into plain data, keeping where every node was written.

The YAML is composed with PyYAML's safe loader and converted node by node here, so
that nothing but plain data is ever built (no Python objects from tags), alias bombs
are stopped by a node budget, and every value keeps its file, line and column.

Locations: for a mapping entry the location recorded under the entry's path is that
of its KEY (so "unknown key" and "invalid value" both point at the line that names
the key); for a list item it is the item's own first character. The root path ``()``
is ``file:1:1``. Lines and columns are 1-based.

    >>> source = read_spec_text("id: x\\ndeck:\\n  suits: [red, blue]\\n", "demo.yaml")
    >>> source.locate(("deck", "suits", 1))
    ('demo.yaml', 3, 16)
    >>> json_path(("deck", "suits", 1))
    '$.deck.suits[1]'
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from trickrules.errors import Problem, SpecError
from trickrules.spec.merge import VALUE, KindChange, kind_changes, merge_locations, merge_overlay

__all__ = ["SpecSource", "json_path", "merge_overlay", "read_document", "read_spec", "read_spec_text"]

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_NODES = 100_000
MAX_DEPTH = 64
MAX_SHOWN_STEPS = 8

PathKey = tuple[str | int, ...]
Location = tuple[str, int, int]

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null", "value")}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _SpecLoader(yaml.SafeLoader):
    """The safe loader without implicit timestamps: a plain `2013-01-01` stays text."""


_SpecLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != f"{_TAG}timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

# Only its scalar methods are used, on nodes already checked to carry a core tag.
_SCALARS = SafeConstructor()


@dataclass(frozen=True)
class SpecSource:
    """A spec's merged data, where each node came from, and the files it was read from."""

    file: str
    data: dict[str, Any]
    locations: Mapping[PathKey, Location]
    files: tuple[str, ...]
    digest: str
    kind_changes: Mapping[PathKey, KindChange] = field(default_factory=dict)
    """Paths where an overlay put a value of another kind than its parent had: where the
    parent set it, and its kind (for messages that name the parent's line)."""

    def locate(self, path: Sequence[str | int]) -> Location:
        """Return the location of the longest known prefix of `path` (root: file:1:1)."""
        key = tuple(path)
        while key:
            if key in self.locations:
                return self.locations[key]
            key = key[:-1]
        return self.locations.get((), (self.file, 1, 1))


def json_path(path: Sequence[str | int]) -> str:
    """Return a JSON path such as ``$.deck.suits[2]`` for a path tuple."""
    parts = ["$"]
    for step in path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _IDENTIFIER.match(step):
            parts.append(f".{step}")
        else:
            quoted = step.replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"['{quoted}']")
    return "".join(parts)


def read_spec(path: str | os.PathLike[str]) -> SpecSource:
    """Read a spec file and the chain of files it extends; raise SpecError if unreadable.

    Only the file and its YAML are checked here, not the schema.
    """
    name = os.fspath(path)
    raw = _read_bytes(name)
    return _build(name, raw, Path(name).resolve().parent)


def read_spec_text(text: str, file: str = "<string>") -> SpecSource:
    """Read a spec from a string; `extends` is relative to the working folder."""
    raw = text.encode("utf-8")
    if len(raw) > MAX_FILE_BYTES:
        raise SpecError([_problem("TR103", _too_large(len(raw)), file)])
    return _build(file, raw, Path.cwd())


def read_document(path: str | os.PathLike[str]) -> tuple[dict[str, Any], Mapping[PathKey, Location]]:
    """Read one YAML file through the same guards as a spec (size, depth, tags, duplicate
    keys), without `extends`: its data, and where each node is. Raises SpecError (TR1xx)."""
    name = os.fspath(path)
    document = _read_document(name, _read_bytes(name))
    return document.data, MappingProxyType(document.locations)


# --- one file ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Document:
    """One file's bytes, data and node locations, as converted."""

    file: str
    raw: bytes
    data: dict[str, Any]
    locations: dict[PathKey, Location]


def _problem(code: str, message: str, file: str, line: int = 1, column: int = 1,
             path: Sequence[str | int] = ()) -> Problem:
    """Return a problem, located at file:1:1 unless told otherwise."""
    return Problem(code, message, file, line, column, json_path(path))


def _too_large(size: int) -> str:
    """Return the message for a file over the size limit."""
    return f"file is too large ({size} bytes; the limit is {MAX_FILE_BYTES} bytes)"


def _identity(name: str) -> str:
    """Return a key naming one file on disk, for cycle detection."""
    return os.path.realpath(name)


def _read_bytes(name: str) -> bytes:
    """Return a spec file's bytes after checking it exists, is a file and is not too big."""
    try:
        status = os.stat(name)
    except FileNotFoundError:
        raise SpecError([_problem("TR101", f"file not found: {name}", name)]) from None
    except OSError as error:
        raise SpecError([_problem("TR101", f"cannot read {name}: {error.strerror}", name)]) from None
    if not os.path.isfile(name):
        raise SpecError([_problem("TR102", f"not a regular file: {name}", name)])
    if status.st_size > MAX_FILE_BYTES:
        raise SpecError([_problem("TR103", _too_large(status.st_size), name)])
    try:
        with open(name, "rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise SpecError([_problem("TR102", f"cannot read {name}: {error.strerror}", name)]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise SpecError([_problem("TR103", _too_large(len(raw)), name)])
    return raw


def _decode(raw: bytes, file: str) -> str:
    """Return the text of a file, or raise TR104 for NUL bytes or invalid UTF-8."""
    if b"\x00" in raw:
        line, column = _line_column(raw, raw.index(b"\x00"))
        raise SpecError([_problem("TR104", "file holds NUL bytes: binary, not text", file, line, column)])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line, column = _line_column(raw, error.start)
        message = f"file is not UTF-8 text (byte 0x{raw[error.start]:02x})"
        raise SpecError([_problem("TR104", message, file, line, column)]) from None


def _line_column(raw: bytes, offset: int) -> tuple[int, int]:
    """Return the 1-based line and column of a byte offset."""
    line = raw.count(b"\n", 0, offset) + 1
    return line, offset - (raw.rfind(b"\n", 0, offset) + 1) + 1


def _text_position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset in `text`."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _compose(text: str, file: str) -> Node | None:
    """Return the single YAML document's root node; raise TR105, TR107 or TR111."""
    try:
        loader = _SpecLoader(text)
    except yaml.reader.ReaderError as error:
        line, column = _text_position(text, error.position)
        character = chr(error.character) if isinstance(error.character, int) else error.character
        message = f"character {character!r} is not allowed in YAML"
        raise SpecError([_problem("TR105", f"YAML syntax error: {message}", file, line, column)]) from None
    try:
        root = _first_node(loader, file)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(part for part in (error.context, error.problem) if part)
        raise SpecError([_problem("TR105", f"YAML syntax error: {message}", file, line, column)]) from None
    except yaml.YAMLError as error:
        raise SpecError([_problem("TR105", f"YAML syntax error: {error}", file)]) from None
    except RecursionError:
        raise SpecError([_problem("TR107", "document is nested too deeply", file)]) from None
    finally:
        loader.dispose()
    return root


def _first_node(loader: _SpecLoader, file: str) -> Node | None:
    """Compose the first document and make sure no second one follows."""
    loader.get_event()  # the stream start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    root = loader.compose_document()
    if not loader.check_event(yaml.StreamEndEvent):
        mark = loader.peek_event().start_mark
        message = "several YAML documents in one file; a spec is one document"
        raise SpecError([_problem("TR111", message, file, mark.line + 1, mark.column + 1)])
    return root


class _Converter:
    """Turns composed YAML nodes into plain data, recording each node's location."""

    def __init__(self, file: str) -> None:
        """Start with an empty node budget and no problems."""
        self.file = file
        self.nodes = 0
        self.problems: list[Problem] = []
        self.locations: dict[PathKey, Location] = {}

    def value_location(self, node: Node, path: PathKey) -> None:
        """Record where a plain or quoted scalar's text starts (after an opening quote)."""
        if isinstance(node, ScalarNode) and node.style in (None, "", '"', "'"):
            line, column = self.where(node)
            self.locations[path + (VALUE,)] = (self.file, line, column + (1 if node.style in ('"', "'") else 0))

    def where(self, node: Node) -> tuple[int, int]:
        """Return the 1-based line and column where a node starts."""
        return node.start_mark.line + 1, node.start_mark.column + 1

    def report(self, code: str, message: str, node: Node, path: PathKey) -> None:
        """Record a problem at a node."""
        self.problems.append(_problem(code, message, self.file, *self.where(node), path))

    def convert(self, node: Node, path: PathKey, depth: int = 0) -> Any:
        """Return the plain value of a node; raise TR107 past the node or depth budget."""
        self.nodes += 1
        if self.nodes > MAX_NODES or depth > MAX_DEPTH:
            if self.nodes > MAX_NODES:
                message = f"document is too large: more than {MAX_NODES} nodes, counting repeats through aliases"
            else:
                message = f"document is nested more than {MAX_DEPTH} levels deep (through aliases too)"
            line, column = self.where(node)
            shown = path[:MAX_SHOWN_STEPS]
            raise SpecError([*self.problems, _problem("TR107", message, self.file, line, column, shown)])
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            return self.sequence(node, path, depth)
        assert isinstance(node, ScalarNode)
        return self.scalar(node, path)

    def sequence(self, node: SequenceNode, path: PathKey, depth: int) -> list[Any] | None:
        """Return a list, recording each item's location."""
        if node.tag != f"{_TAG}seq":
            return self.unsupported(node, path)
        items = []
        for index, item in enumerate(node.value):
            self.locations.setdefault(path + (index,), (self.file, *self.where(item)))
            self.value_location(item, path + (index,))
            items.append(self.convert(item, path + (index,), depth + 1))
        return items

    def mapping(self, node: MappingNode, path: PathKey, depth: int) -> dict[str, Any] | None:
        """Return a dict with string keys, recording each entry's key location."""
        if node.tag != f"{_TAG}map":
            return self.unsupported(node, path)
        entries: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key is None:
                continue
            if key in entries:
                self.report("TR108", f"duplicate key '{key}'", key_node, path + (key,))
                continue
            self.locations[path + (key,)] = (self.file, *self.where(key_node))
            self.value_location(value_node, path + (key,))
            entries[key] = self.convert(value_node, path + (key,), depth + 1)
        return entries

    def key(self, node: Node, path: PathKey) -> str | None:
        """Return a mapping key as text (integers become text), or None after a problem."""
        self.nodes += 1
        if isinstance(node, ScalarNode) and node.tag == f"{_TAG}str":
            return str(node.value)
        if isinstance(node, ScalarNode) and node.tag == f"{_TAG}int":
            return str(_SCALARS.construct_yaml_int(node))
        if isinstance(node, ScalarNode) and node.tag == f"{_TAG}merge":
            self.report("TR106", "YAML merge keys (<<) are not supported; use extends", node, path)
            return None
        if isinstance(node, ScalarNode) and node.tag not in _SCALAR_TAGS:
            return self.unsupported(node, path)
        if isinstance(node, ScalarNode):
            kind = node.tag[len(_TAG):] if node.tag.startswith(_TAG) else node.tag
            message = f"mapping key {node.value!r} is read as {kind}, not a string or integer; quote it"
        else:
            message = f"a {getattr(node, 'id', 'node')} cannot be a mapping key; use a string or integer"
        self.report("TR109", message, node, path)
        return None

    def scalar(self, node: ScalarNode, path: PathKey) -> Any:
        """Return the value of a scalar with a core tag."""
        kind = node.tag[len(_TAG):] if node.tag.startswith(_TAG) else None
        if kind in ("str", "value"):
            return str(node.value)
        if kind == "int":
            return _SCALARS.construct_yaml_int(node)
        if kind == "float":
            return _SCALARS.construct_yaml_float(node)
        if kind == "bool":
            return _SCALARS.construct_yaml_bool(node)
        if kind == "null":
            return None
        return self.unsupported(node, path)

    def unsupported(self, node: Node, path: PathKey) -> Any:
        """Report a node whose tag is not a core YAML tag; it becomes null."""
        self.report("TR106", f"unsupported YAML tag {node.tag}", node, path)
        return None


def _read_document(file: str, raw: bytes) -> _Document:
    """Decode, compose and convert one file; raise SpecError with its problems."""
    root = _compose(_decode(raw, file), file)
    if root is None:
        raise SpecError([_problem("TR110", "file is empty; a spec is a mapping", file)])
    converter = _Converter(file)
    converter.locations[()] = (file, 1, 1)
    data = converter.convert(root, ())
    if converter.problems:
        raise SpecError(converter.problems)
    if not isinstance(data, dict):
        line, column = converter.where(root)
        message = f"the top level must be a mapping, not {_kind(data)}"
        raise SpecError([_problem("TR110", message, file, line, column)])
    return _Document(file, raw, data, converter.locations)


def _kind(value: Any) -> str:
    """Return a plain-English name of a value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "a mapping"


# --- extension keys ---------------------------------------------------------------


def is_extension_key(key: Any) -> bool:
    """Whether a top-level key is an extension key (``x-`` and anything): trickrules ignores
    it, so a spec can hold YAML anchors there (``x-common: &common ...``) and alias them where
    they are needed, as Docker Compose files do. The anchors are resolved when the file is read;
    the key itself is dropped before the spec is checked, merged or compiled."""
    return isinstance(key, str) and key.startswith("x-")


# --- extends ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Chain:
    """A merged document and the files it came from, this one first."""

    data: dict[str, Any]
    locations: dict[PathKey, Location]
    files: tuple[str, ...]
    raws: tuple[bytes, ...]
    changes: dict[PathKey, KindChange] | None = None


def _build(file: str, raw: bytes, folder: Path) -> SpecSource:
    """Return the SpecSource of a file's bytes, merged over its parents."""
    chain = _resolve(_read_document(file, raw), folder, (), os.path.realpath(folder))
    digest = hashlib.sha256()
    for part in chain.raws:
        digest.update(part)
    return SpecSource(
        file=file,
        data=chain.data,
        locations=MappingProxyType(chain.locations),
        files=chain.files,
        digest=digest.hexdigest(),
        kind_changes=MappingProxyType(chain.changes or {}),
    )


def _resolve(document: _Document, folder: Path, seen: tuple[str, ...], root: str) -> _Chain:
    """Merge a document over the chain of parents it extends; `seen` are its descendants,
    `root` the folder its parents must lie in. Top-level keys starting ``x-`` are left out
    (see `is_extension_key`)."""
    data = {key: value for key, value in document.data.items() if not is_extension_key(key)}
    own = document.locations
    if len(data) != len(document.data):
        own = {path: spot for path, spot in own.items() if not (path and is_extension_key(path[0]))}
    if "extends" not in data:
        return _Chain(data, dict(own), (document.file,), (document.raw,))
    target = data.pop("extends")
    where = own[("extends",)]
    locations = {path: spot for path, spot in own.items() if path[:1] != ("extends",)}
    parent_name, parent_root = _parent_name(target, folder, root, where)
    if _identity(parent_name) in seen + (_identity(document.file),):
        message = f"extends cycle: '{target}' leads back to a spec already in the chain"
        raise SpecError([Problem("TR401", message, *where, "$.extends")])
    parent = _read_parent(parent_name, where, seen + (_identity(document.file),), parent_root)
    merged = merge_overlay(parent.data, data)
    changes = {**(parent.changes or {}), **kind_changes(parent.data, parent.locations, data)}
    locations = merge_locations(parent.data, parent.locations, data, locations, merged)
    return _Chain(merged, locations, (document.file, *parent.files), (document.raw, *parent.raws), changes)


def _parent_name(target: Any, folder: Path, root: str, where: Location) -> tuple[str, str]:
    """The parent's path and the folder its own parents must lie in; TR203 if not text,
    TR403 for a path that leaves `root`.

    A path is relative to the child's folder and must stay inside `root`, the folder of the
    spec that was loaded (or of the shipped specs, for a shipped parent); a bare name (no
    folder, no suffix) with no file of that name there is a shipped spec.
    """
    from trickrules.spec.shipped import is_bare_name, shipped_folder, shipped_specs

    if not isinstance(target, str) or not target.strip():
        shown = "an empty string" if isinstance(target, str) else _kind(target)
        message = f"extends must be the path of a parent spec, not {shown}"
        raise SpecError([Problem("TR203", message, *where, "$.extends")])
    name = os.fspath(folder / target)
    if is_bare_name(target) and not os.path.exists(name):
        shipped = {spec.name: spec.path for spec in shipped_specs()}
        if target in shipped:
            return os.fspath(shipped[target]), os.path.realpath(shipped_folder() or shipped[target].parent)
    if os.path.isabs(target):
        message = (
            f"extends '{target}' is an absolute path: a parent is a shipped spec's name or a path relative "
            "to this file, inside the folder of the spec being loaded"
        )
        raise SpecError([Problem("TR403", message, *where, "$.extends")])
    real = os.path.realpath(name)
    if os.path.commonpath([real, root]) != root:
        message = (
            f"extends '{target}' leads outside the folder of the spec being loaded: a parent is a shipped "
            "spec's name or a file in that folder or below it (copy the parent there)"
        )
        raise SpecError([Problem("TR403", message, *where, "$.extends")])
    return name, root


def _read_parent(name: str, where: Location, seen: tuple[str, ...], root: str) -> _Chain:
    """Read a parent spec and its own parents; TR402 if it is missing."""
    try:
        raw = _read_bytes(name)
    except SpecError as error:
        if error.code not in ("TR101", "TR102"):
            raise
        message = f"extends parent missing: {error.message}"
        raise SpecError([Problem("TR402", message, *where, "$.extends")]) from None
    document = _read_document(name, raw)
    return _resolve(document, Path(name).resolve().parent, seen, root)
