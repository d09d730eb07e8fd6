"""Playwright for Python driving Debian's Chromium (/usr/bin/chromium), for the browser tests and
the screenshots of `trickrules serve`. Playwright's own browser download is not used."""

from __future__ import annotations

import os
import shutil
from typing import Any

CHROMIUM = os.environ.get("TRICKRULES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[browser]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    return None


def launch(playwright: Any) -> Any:
    """A headless Chromium of the system's."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
