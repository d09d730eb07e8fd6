"""`trickrules serve`: playtest a spec in the browser.

A local HTTP server (the standard library's `ThreadingHTTPServer`) keeps one game session
(`session.Session`): the seats (human or a bot), the seed, the state, its actions, and the
spec file it watches. It answers a small JSON API (`server`) and serves a plain HTML, CSS and
JavaScript page (index.html, app.js and style.css beside the modules). Each seat's view (`views.seat_view`) holds only what that seat may
see. Bots move on a thread of their own, at the pace the page sets.
"""

from __future__ import annotations

from trickrules.serve.seats import parse_seats
from trickrules.serve.server import make_server
from trickrules.serve.session import Session

__all__ = ["Session", "make_server", "parse_seats"]
