"""Generated text that stands in the repository: the filled regions of documentation pages.

A page's generation marker (``<!-- generate: KIND ARGS -->``, see `trickrules.tools.docgen`)
may be followed by a region that holds its text in the page itself::

    <!-- generate: limits -->
    <!-- generated from the marker above: python -m trickrules.tools.docgen --write -->

    | Limit | What it counts | Code |
    ...

    <!-- end of generated text -->

so that a reader of the page on a code host sees the text too. The site is built from the text
as it stands; ``python -m trickrules.tools.docgen --write`` fills every region again from the
code, ``--check`` lists the pages whose regions differ from it, and a test fails while one does.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["FILLED_END", "FILLED_START", "REGION", "command", "outside_regions", "pages", "refill", "regions", "stale_pages", "write_pages"]

FILLED_START = "<!-- generated from the marker above: python -m trickrules.tools.docgen --write -->"
"""The line under a marker that starts its region filled in the repository."""

FILLED_END = "<!-- end of generated text -->"
"""The line that ends a filled region."""

REGION = re.compile(
    r"^(?P<indent>[ \t]*)<!-- generate: (?P<kind>[a-z-]+)(?: (?P<args>.*?))? -->[ \t]*\n"
    rf"(?P=indent){re.escape(FILLED_START)}[ \t]*\n"
    r"(?P<body>(?:.*?\n)??)"
    rf"(?P=indent){re.escape(FILLED_END)}[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
"""A marker with its region filled in the repository: the marker line, `FILLED_START`, the
generated text, `FILLED_END` (each line indented as the marker is)."""

Match = re.Match[str]


def regions(markdown: str) -> list[Match]:
    """The regions of `markdown` filled in the repository."""
    return list(REGION.finditer(markdown))


def outside_regions(markdown: str, change: Callable[[str], str], region: Callable[[Match], str]) -> str:
    """`markdown` with `change` applied to the text outside the filled regions and `region`
    to each region."""
    parts, end = [], 0
    for match in REGION.finditer(markdown):
        parts += [change(markdown[end : match.start()]), region(match)]
        end = match.end()
    return "".join(parts + [change(markdown[end:])])


def refill(markdown: str, generate: Callable[[Match], str]) -> str:
    """`markdown` with every region's text made again by `generate` (from its marker); the
    rest, markers alone included, as it is."""

    def fill(match: Match) -> str:
        head = match[0].split("\n", 2)[:2]
        return "\n".join([*head, "", generate(match), "", match["indent"] + FILLED_END])

    return outside_regions(markdown, lambda text: text, fill)


def pages(root: Path) -> list[Path]:
    """The documentation pages: README.md and every page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def stale_pages(root: Path, refresh: Callable[[str], str]) -> list[Path]:
    """The pages with a region that differs from what `refresh` makes of the page."""
    stale = []
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        if regions(text) and refresh(text) != text:
            stale.append(page)
    return stale


def write_pages(paths: Sequence[Path], refresh: Callable[[str], str]) -> list[Path]:
    """Fill the regions of `paths` again with `refresh`; return the pages that changed."""
    written = []
    for page in paths:
        text = page.read_text(encoding="utf-8")
        if regions(text) and (new := refresh(text)) != text:
            page.write_text(new, encoding="utf-8")
            written.append(page)
    return written


def command(args: Sequence[str], root: Path, refresh: Callable[[str], str]) -> int:
    """``--write [PAGE...]``: fill the regions of the pages (every page by default) again;
    ``--check``: list the stale pages, exit 1 if there is one."""
    if args[0] == "--write":
        for page in write_pages([Path(name) for name in args[1:]] or pages(root), refresh):
            print(f"wrote {page}")
        return 0
    stale = stale_pages(root, refresh)
    for page in stale:
        print(f"{page.relative_to(root)}: generated text is stale; run: python -m trickrules.tools.docgen --write")
    return 1 if stale else 0
