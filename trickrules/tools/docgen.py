"""The generated parts of the documentation: spec reference, rulebooks and command output.

Pages under ``docs/`` hold one-line markers, each filled with text made from the code: a marker
alone when the site is built (the mkdocs hook ``docs/hooks/generate.py``), a marker followed
by a region in the page itself (`trickrules.tools.docregions`), so that a reader on a code host
sees the text too.

The markers:

``<!-- generate: spec-reference -->``
    the reference of every spec key, from the JSON Schema's descriptions and examples;
``<!-- generate: rulebook SPEC [--players N] [--set NAME=VALUE] -->``
    the Markdown rulebook that ``trickrules rules`` prints;
``<!-- generate: command ARGS -->``
    a console block with ``trickrules ARGS`` and what it prints (stdout and stderr);
``<!-- generate: command-head N ARGS -->``
    the same, cut after N lines of output;
``<!-- generate: record-fields -->``
    a table of every field of a game record, from the record JSON Schema;
``<!-- generate: limits -->``
    a table of the limits a spec meets, from `trickrules.spec.limits`.

``python -m trickrules.tools.docgen PAGE`` prints a page expanded; ``--write`` fills the
regions of every page again, ``--check`` lists the stale ones (exit 1).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from trickrules.tools import docregions
from trickrules.tools.docregions import REGION, outside_regions, refill, regions

__all__ = ["MARKER", "REGION", "command_block", "expand", "refresh", "regions", "rulebook", "spec_reference", "stale_pages"]

MARKER = re.compile(r"^(?P<indent>[ \t]*)<!-- generate: (?P<kind>[a-z-]+)(?: (?P<args>.*?))? -->[ \t]*$", re.MULTILINE)
"""A generation marker: a whole line ``<!-- generate: KIND ARGS -->``, maybe indented.

An indented marker (inside an admonition, a list) gets its text indented the same way."""

ROOT = Path(__file__).resolve().parent.parent.parent
"""The project folder (where ``specs/`` and ``docs/`` are)."""


def _generate(match: re.Match[str], root: Path) -> str:
    """The text a marker names, each line indented as the marker is."""
    kind, args = match["kind"], shlex.split(match["args"] or "")
    if kind not in GENERATORS:
        raise ValueError(f"unknown generation marker {kind!r} (known: {', '.join(GENERATORS)})")
    text = GENERATORS[kind](args, root)
    return "\n".join(match["indent"] + line if line else line for line in text.splitlines())


def expand(markdown: str, root: Path = ROOT) -> str:
    """Replace every marker of `markdown` that stands alone by its generated text (paths
    relative to `root`); a region filled in the repository stays as it is."""
    return outside_regions(markdown, lambda text: MARKER.sub(lambda m: _generate(m, root), text), lambda m: m[0])


def refresh(markdown: str, root: Path = ROOT) -> str:
    """Fill every region of `markdown` (see `trickrules.tools.docregions`) again from the code;
    markers alone stay as they are."""
    return refill(markdown, lambda match: _generate(match, root))


def stale_pages(root: Path = ROOT) -> list[Path]:
    """The pages with a region that differs from what the code gives now."""
    return docregions.stale_pages(root, lambda text: refresh(text, root))


# ---------------------------------------------------------------- command output


def run_cli(args: Sequence[str], root: Path = ROOT) -> tuple[int, str]:
    """Run ``trickrules ARGS`` in-process from `root`; return the exit code and its output."""
    from trickrules.tools.cli import main

    buffer = io.StringIO()
    width = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps help to the terminal: keep pages stable
    try:
        with contextlib.chdir(root), contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            try:
                code = main(list(args))
            except SystemExit as stop:  # --help and usage errors end in SystemExit
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        if width is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = width
    text = buffer.getvalue().replace(str(root.resolve()) + "/", "")
    return code, text


def command_block(args: Sequence[str], root: Path = ROOT) -> str:
    """A console block showing ``trickrules ARGS`` and its output."""
    _, text = run_cli(args, root)
    return "```console\n$ trickrules " + shlex.join(args) + "\n" + text.rstrip() + "\n```"


def command_head(args: Sequence[str], root: Path = ROOT) -> str:
    """Like `command_block`, showing only the first ``args[0]`` lines of the output."""
    count, rest = int(args[0]), list(args[1:])
    _, text = run_cli(rest, root)
    lines = text.rstrip().splitlines()
    shown = lines[:count] + (["..."] if len(lines) > count else [])
    return "```console\n$ trickrules " + shlex.join(rest) + "\n" + "\n".join(shown) + "\n```"


def rulebook(args: Sequence[str], root: Path = ROOT) -> str:
    """The rulebook ``trickrules rules ARGS`` prints (raw Markdown)."""
    code, text = run_cli(["rules", *args], root)
    if code != 0:
        raise ValueError(f"trickrules rules {shlex.join(args)} failed: {text.strip()}")
    return text.rstrip()


# ---------------------------------------------------------------- the spec reference

def example_specs(root: Path = ROOT) -> list[str]:
    """Specs the reference takes an example from when the schema gives none, in this order:
    the shipped specs, shortest file first (the plainest example of a key), then the tutorial's files."""
    shipped = sorted((p for p in (root / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml")), key=lambda p: (p.stat().st_size, p.name))
    tutorial = sorted((root / "docs" / "examples" / "tutorial").glob("step*.yaml"), reverse=True)
    return [str(p.relative_to(root)) for p in shipped + tutorial if not p.name.endswith(".examples.yaml")]

GUIDES: dict[str, list[tuple[str, str]]] = {
    "extends": [("How to write an overlay", "../howto/overlay.md")],
    "options": [("How to use trumps as an option", "../howto/trumps-option.md")],
    "trumps": [("How to use trumps as an option", "../howto/trumps-option.md"), ("Tutorial, step 2", "../tutorial.md#step-2-trumps")],
    "rewards": [("How to reward the losers of a trick", "../howto/reward-losers.md"), ("Tutorial, step 3", "../tutorial.md#step-3-a-reward")],
    "tokens": [("How to use a tableau", "../howto/tableau.md"), ("Tutorial, step 3", "../tutorial.md#step-3-a-reward")],
    "won_cards": [("How to use a tableau", "../howto/tableau.md")],
    "tableau": [("How to use a tableau", "../howto/tableau.md")],
    "deck": [("Tutorial, step 1", "../tutorial.md#step-1-deck-deal-and-ranking"), ("Tutorial, step 4", "../tutorial.md#step-4-an-overlay-that-scores-crowns")],
    "ranking": [("Tutorial, step 1", "../tutorial.md#step-1-deck-deal-and-ranking")],
    "scoring": [("Tutorial, step 4", "../tutorial.md#step-4-an-overlay-that-scores-crowns")],
}
"""Hand-picked guide pages for a top-level key, shown under "See also"."""


def load_schema() -> dict[str, Any]:
    """The spec JSON Schema shipped with the package."""
    from trickrules.spec.checks import spec_schema

    return spec_schema()


def words(name: str) -> str:
    """A $defs name in words: ``cardCondition`` -> ``card condition``."""
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name).lower()


def flow(value: Any) -> str:
    """A value as YAML flow text, the way specs write it: ``{by_rank: {3: 2}}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(str(k))}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, str):
        return _scalar(value)
    return json.dumps(value)


def _scalar(text: str) -> str:
    import yaml

    plain = re.fullmatch(r"[A-Za-z0-9_./-][A-Za-z0-9_ ./-]*", text) and not text.endswith(" ")
    return text if plain and yaml.safe_load(text) == text else json.dumps(text)


def block(value: Any) -> str:
    """A value as YAML the way a spec writes it: flow style inside, block style for long mappings."""
    import yaml

    text = flow(value)
    if len(text) <= 72 or not isinstance(value, dict):
        return text
    dumped = yaml.safe_dump(_int_keys(value), default_flow_style=None, sort_keys=False, width=88)
    return "\n" + "\n".join("  " + line for line in dumped.rstrip().splitlines())


def _int_keys(value: Any) -> Any:
    """Integer-like mapping keys as integers, so that YAML prints ``3:`` and not ``'3':``."""
    if isinstance(value, dict):
        return {int(k) if isinstance(k, str) and re.fullmatch(r"-?[0-9]+", k) else k: _int_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_int_keys(v) for v in value]
    return value


class _Reference:
    """Writes the reference: one section per key, then one per shared form."""

    def __init__(self, schema: dict[str, Any], root: Path) -> None:
        self.schema = schema
        self.defs: dict[str, Any] = schema.get("$defs", {})
        self.root = root
        self.anchors: dict[str, str] = {}  # $defs name -> anchor of the section that explains it
        for key, prop in schema["properties"].items():
            if "$ref" in prop and self.def_name(prop) == key:  # a key that is its form (deck); not one that uses a shared form (play_ends_when: expression)
                self.anchors[self.def_name(prop)] = key
        for name in self.defs:
            self.anchors.setdefault(name, "form-" + words(name).replace(" ", "-"))
        self.spec_data = [self.load(path) for path in example_specs(root)]

    def load(self, path: str) -> dict[str, Any]:
        from trickrules.spec.checks import load_spec

        file = self.root / path
        return {"__file__": path, **load_spec(file).data} if file.is_file() else {}

    @staticmethod
    def def_name(schema: dict[str, Any]) -> str:
        return str(schema["$ref"]).rsplit("/", 1)[-1]

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        """A schema with its $ref followed (its own keys win)."""
        if "$ref" not in schema:
            return schema
        target = self.resolve(self.defs[self.def_name(schema)])
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}

    # ------------------------------------------------------------ types in words

    def link(self, name: str) -> str:
        return f"[{words(name)}](#{self.anchors[name]})"

    def type_text(self, schema: dict[str, Any]) -> str:
        """What a value may be, in words, with links to the forms it uses."""
        if "$ref" in schema:
            return self.link(self.def_name(schema))
        if "const" in schema:
            return f"`{flow(schema['const'])}`"
        if "enum" in schema:
            return "one of " + ", ".join(f"`{flow(v)}`" for v in schema["enum"])
        if "anyOf" in schema:
            return " or ".join(self.type_text(branch) for branch in schema["anyOf"])
        kind = schema.get("type")
        if kind == "array":
            least = f" (at least {schema['minItems']})" if schema.get("minItems") else ""
            unique = ", each once" if schema.get("uniqueItems") else ""
            return f"list of {self.type_text(schema.get('items', {}))}{least}{unique}"
        if kind == "object":
            return self.object_text(schema)
        return self.scalar_text(schema)

    def object_text(self, schema: dict[str, Any]) -> str:
        values = schema.get("additionalProperties")
        if isinstance(values, dict):
            names = schema.get("propertyNames", {})
            key = self.type_text(names) if names else "name"
            return f"mapping of {key} to {self.type_text(values)}"
        return "mapping (keys below)" if schema.get("properties") else "mapping"

    def scalar_text(self, schema: dict[str, Any]) -> str:
        kind = schema.get("type")
        if kind is None:
            return "any value"
        text = {"integer": "integer", "string": "string", "boolean": "`true` or `false`", "number": "number", "null": "nothing (`null`)"}[kind]
        if "minimum" in schema and "maximum" in schema:
            text += f" from {schema['minimum']} to {schema['maximum']}"
        elif "minimum" in schema:
            text += f", at least {schema['minimum']}"
        if "pattern" in schema:
            text += f" matching `{schema['pattern']}`"
        return text

    def forms_used(self, schema: dict[str, Any]) -> Iterator[str]:
        """The $defs a schema refers to, directly or in its branches and items."""
        if "$ref" in schema:
            yield self.def_name(schema)
            return
        for branch in schema.get("anyOf", []):
            yield from self.forms_used(branch)
        for part in ("items", "additionalProperties", "propertyNames"):
            if isinstance(schema.get(part), dict):
                yield from self.forms_used(schema[part])

    # ------------------------------------------------------------ examples

    def example(self, path: Sequence[str], schema: dict[str, Any]) -> tuple[str, str]:
        """(YAML text, where it comes from) of an example for the key at `path`."""
        examples = schema.get("examples") or self.resolve(schema).get("examples")
        if examples:
            return "\n# or\n".join(self.nest(path, value) for value in examples[:2]), ""
        for data in self.spec_data:
            found = self.find(data, path)
            if found is not None:
                return self.nest(path, found), data["__file__"]
        for word in ("default", "const"):
            if word in schema:
                return self.nest(path, schema[word]), ""
        return "", ""

    @staticmethod
    def find(data: dict[str, Any], path: Sequence[str]) -> Any:
        node: Any = data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    @staticmethod
    def nest(path: Sequence[str], value: Any) -> str:
        lines = [f"{'  ' * depth}{key}:" for depth, key in enumerate(path[:-1])]
        indent = "  " * (len(path) - 1)
        text = block(value).replace("\n", "\n" + indent)
        lines.append(f"{indent}{path[-1]}:{'' if text.startswith(chr(10)) else ' '}{text}")
        return "\n".join(lines)

    # ------------------------------------------------------------ sections

    def facts(self, schema: dict[str, Any], required: bool) -> list[str]:
        lines = ["| | |", "|---|---|", f"| Type | {self.type_text(schema)} |", f"| Required | {'yes' if required else 'no'} |"]
        default = schema.get("default", self.resolve(schema).get("default"))
        if default is not None:
            lines.append(f"| Default | `{flow(default)}` |")
        return lines

    def key_section(self, path: Sequence[str], schema: dict[str, Any], required: bool, level: int) -> list[str]:
        """One key: heading, description, facts, example, see also."""
        anchor = "-".join(path)
        description = schema.get("description") or self.resolve(schema).get("description", "")
        lines = [f"{'#' * level} `{'.'.join(path)}` {{ #{anchor} }}", "", description, ""]
        lines += self.facts(schema, required)
        example, source = self.example(path, schema)
        if example:
            note = f" (from `{source}`)" if source else ""
            lines += ["", f"Example{note}:", "", "```yaml", example, "```"]
        see = self.see_also(path, schema)
        if see:
            lines += ["", "See also: " + ", ".join(see) + "."]
        return lines + [""]

    def see_also(self, path: Sequence[str], schema: dict[str, Any]) -> list[str]:
        own = self.anchors.get(self.def_name(schema)) if "$ref" in schema else None
        links = []
        for name in dict.fromkeys(self.forms_used(self.resolve(schema) if own == path[0] else schema)):
            if self.anchors[name] != "-".join(path):
                links.append(self.link(name))
        if len(path) == 1:
            links += [f"[{title}]({target})" for title, target in GUIDES.get(path[0], [])]
        return links

    def top_level(self) -> list[str]:
        schema = self.schema
        required = set(schema.get("required", []))
        lines = ["## Keys at a glance", "", "| Key | Required | What it says |", "|---|---|---|"]
        for key, prop in schema["properties"].items():
            summary = re.split(r"(?<!e\.g)\.\s", prop.get("description") or "")[0].rstrip(".")
            lines.append(f"| [`{key}`](#{key}) | {'yes' if key in required else 'no'} | {summary}. |")
        lines.append("")
        for key, prop in schema["properties"].items():
            lines += self.key_section((key,), prop, key in required, 2)
            body = self.resolve(prop)
            for where, inline in self.inline_objects(body):
                lines += [f"Keys of {where}:", ""] + self.form_keys(inline)
            inner = set(body.get("required", []))
            for sub, sub_schema in (body.get("properties") or {}).items():
                lines += self.key_section((key, sub), sub_schema, sub in inner, 3)
        return lines

    @staticmethod
    def inline_objects(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        """Mappings written inside a key's schema (not shared forms) whose keys the reader
        needs: each value of a mapping, each item of a list, a mapping form of the key."""
        values = schema.get("additionalProperties")
        if isinstance(values, dict) and values.get("properties") and "$ref" not in values:
            yield "each entry", values
        items = schema.get("items")
        if isinstance(items, dict) and items.get("properties") and "$ref" not in items:
            yield "each item", items
        for branch in schema.get("anyOf", []):
            if branch.get("properties") and "$ref" not in branch:
                yield "the mapping form", branch

    def forms(self) -> list[str]:
        lines = [
            "## Shared forms",
            "",
            "Values that appear in several places. Each key above links here when it takes one of them.",
            "",
        ]
        for name, schema in self.defs.items():
            if not self.anchors[name].startswith("form-"):
                continue
            lines += [f"### {words(name).capitalize()} {{ #{self.anchors[name]} }}", "", schema.get("description", ""), ""]
            lines += [f"Type: {self.type_text(schema) if schema.get('type') != 'object' else self.object_text(schema)}.", ""]
            lines += self.form_keys(schema)
            if schema.get("examples"):
                lines += ["Examples:", "", "```yaml", "\n# or\n".join(flow(v) for v in schema["examples"]), "```", ""]
        return lines

    def form_keys(self, schema: dict[str, Any]) -> list[str]:
        properties = schema.get("properties") or {}
        if not properties:
            return []
        required = set(schema.get("required", []))
        lines = ["| Key | Type | Required | Default | Meaning |", "|---|---|---|---|---|"]
        for key, prop in properties.items():
            default = f"`{flow(prop['default'])}`" if "default" in prop else ""
            lines.append(
                f"| `{key}` | {self.type_text(prop)} | {'yes' if key in required else 'no'} | {default} | {prop.get('description', '')} |"
            )
        return lines + [""]


def spec_reference(schema: dict[str, Any] | None = None, root: Path = ROOT) -> str:
    """The reference of every spec key, written from the JSON Schema (Markdown, no page title)."""
    reference = _Reference(schema or load_schema(), root)
    return "\n".join(reference.top_level() + reference.forms()).rstrip()


# ---------------------------------------------------------------- the record fields


def record_fields(schema: dict[str, Any] | None = None) -> str:
    """A table of every field of a game record, from the record JSON Schema."""
    if schema is None:
        from trickrules.tools.recordschema import record_schema

        schema = record_schema()
    rows = ["| Field | Type | Meaning |", "|---|---|---|"]
    rows += [f"| `{path}` | {kind} | {about} |" for path, kind, about in _fields(schema, schema, "")]
    return "\n".join(rows)


def _fields(schema: dict[str, Any], root: dict[str, Any], prefix: str) -> Iterator[tuple[str, str, str]]:
    """(dotted path, type, description) of every property, following $refs and list items."""
    for key, prop in (schema.get("properties") or {}).items():
        path = f"{prefix}{key}"
        resolved = _follow(prop, root)
        yield path, _field_type(resolved), prop.get("description") or resolved.get("description", "")
        yield from _fields(resolved, root, path + ".")
        items = resolved.get("items")
        if resolved.get("type") == "array" and isinstance(items, dict):
            yield from _fields(_follow(items, root), root, path + "[].")


def _follow(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = root["$defs"][str(schema["$ref"]).rsplit("/", 1)[-1]]
    return schema


def _field_type(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array" and isinstance(schema.get("items"), dict):
        return "list of " + _many(schema["items"])
    return str(kind)


def _many(schema: dict[str, Any]) -> str:
    """The plural of a type: ``strings``, ``objects``, ``lists of strings``."""
    kind = schema.get("type")
    if "$ref" in schema or kind == "object":
        return "objects"
    if kind == "array" and isinstance(schema.get("items"), dict):
        return "lists of " + _many(schema["items"])
    return f"{kind}s" if isinstance(kind, str) else "values"


def _limits() -> str:
    from trickrules.spec.limits import limits_table

    return limits_table()


def _observation_layout(args: list[str], root: Path) -> str:
    """The observation tensor layout of the spec at path ``args[0]``, as a Markdown table."""
    from trickrules.engine.game import load_game

    return load_game(root / args[0]).observation_layout().describe()


GENERATORS: dict[str, Callable[[list[str], Path], str]] = {
    "spec-reference": lambda args, root: spec_reference(root=root),
    "rulebook": rulebook,
    "command": command_block,
    "command-head": command_head,
    "record-fields": lambda args, root: record_fields(),
    "limits": lambda args, root: _limits(),
    "observation-layout": _observation_layout,
}
"""Every marker kind, by name: (marker arguments, project folder) -> Markdown."""


def main(argv: Sequence[str] | None = None) -> int:
    """Print each named page with its markers expanded; ``--write`` and ``--check`` fill the
    regions again or list the stale pages (`trickrules.tools.docregions.command`)."""
    args = list(argv if argv is not None else sys.argv[1:])
    if args[:1] in (["--write"], ["--check"]):
        return docregions.command(args, ROOT, refresh)
    for name in args:
        print(expand(Path(name).read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
