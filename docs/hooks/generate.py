"""mkdocs hook: fill each page's generation markers from the code (see trickrules.tools.docgen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trickrules.tools.docgen import expand


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace every ``<!-- generate: ... -->`` line of the page by the text it names; a region
    filled in the repository is built as it stands."""
    return expand(markdown, Path(config["config_file_path"]).parent)
