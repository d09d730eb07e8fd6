"""Take the screenshots of docs/howto/serve.md: hearts mid-trick, spades bidding and kingdoms
with its tableaux, each at 1280 and 420 px wide, from a served session in Debian's Chromium.

    .venv/bin/python tests/serve_screenshots.py [FOLDER]   (default: docs/img)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import launch  # noqa: E402
from serve_helpers import ROOT, served  # noqa: E402

SPECS = ROOT / "specs"


def _view(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.trickrules.view")


def _wait(page: Any, condition: str) -> dict[str, Any]:
    page.wait_for_function(f"() => {{ const v = window.trickrules.view; return !!v && ({condition}); }}", timeout=60_000)
    return _view(page)


def _click_on(page: Any, until: str, limit: int = 200) -> None:
    """Take seat's first legal choice until `until` holds at one of its turns."""
    for _ in range(limit):
        shown = _wait(page, "v.decisions.length > 0")
        if page.evaluate(f"() => {{ const v = window.trickrules.view; return {until}; }}"):
            return
        page.locator("#hand .card.legal, #decisions button.decision").first.click()
        _wait(page, f"v.turn > {shown['turn']}")
    raise RuntimeError(f"never: {until}")


def hearts(page: Any, port: int) -> None:
    page.goto(f"http://127.0.0.1:{port}/?seed=4")
    _click_on(page, "v.phase === 'play' && v.trick.plays.length >= 2 && v.hand.some((h) => !h.legal) && v.table.tricks_won.some((t) => t)")
    page.locator("#hand .card.illegal").first.hover()


def spades(page: Any, port: int) -> None:
    page.goto(f"http://127.0.0.1:{port}/?seed=6&seat=2")
    _wait(page, "v.phase === 'bid' && v.decisions.length > 0")


def kingdoms(page: Any, port: int) -> None:
    page.goto(f"http://127.0.0.1:{port}/?seed=4")
    _click_on(page, "v.phase === 'play' && v.table.hand_sizes[0] <= 4")


SHOTS = [
    ("serve-hearts", SPECS / "hearts.yaml", "human,greedy", hearts),
    ("serve-spades-bidding", SPECS / "spades.yaml", "greedy,greedy,human,greedy", spades),
    ("serve-kingdoms", SPECS / "kingdoms.yaml", "human,greedy", kingdoms),
]


def main(folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for name, spec, seats, reach in SHOTS:
            for width in (1280, 420):
                with served(spec, seats=seats, seed=4, pace=0) as (session, client):
                    page = browser.new_page(viewport={"width": width, "height": 900 if width > 500 else 860})
                    reach(page, client.port)
                    time.sleep(0.4)
                    path = folder / f"{name}-{width}.png"
                    page.screenshot(path=str(path), full_page=True)
                    page.close()
                    print(path)
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img")
