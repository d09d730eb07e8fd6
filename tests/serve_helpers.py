"""A served session for the tests of `trickrules serve`: a real server on a free port of
127.0.0.1, a small JSON client, and what a seat may not see (for the no-leak checks)."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from trickrules.engine import phases
from trickrules.serve import Session, make_server

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))


class Client:
    """JSON requests to a served session; each answer is (status, data)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.connection = http.client.HTTPConnection(host, port, timeout=30)

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        sent = {"Content-Type": "application/json", **(headers or {})}
        try:
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        except (http.client.HTTPException, ConnectionError):
            self.connection.close()
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            self.connection.request(method, path, body=data, headers=sent)
            response = self.connection.getresponse()
        payload = response.read()
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(payload) if "json" in kind and payload else payload

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.request("POST", path, body if body is not None else {})

    def state(self, seat: int = 0, since: int | None = None) -> dict[str, Any]:
        status, data = self.get(f"/api/state?seat={seat}" + (f"&since={since}" if since is not None else ""))
        assert status == 200, data
        return data

    def close(self) -> None:
        self.connection.close()


@contextmanager
def served(spec: str | Path, bots: bool = True, **options: Any) -> Iterator[tuple[Session, Client]]:
    """A session of `spec` served on a free port, its threads started (`bots`), and a client."""
    session = Session(str(spec), **options)
    server = make_server(session, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    if bots:
        session.start(watch_interval=0.05)
    client = Client("127.0.0.1", server.server_address[1])
    try:
        yield session, client
    finally:
        client.close()
        server.shutdown()
        server.server_close()
        session.stop()


def card_pattern(card_ids: list[str]) -> re.Pattern[str]:
    """Finds any of these card ids as a whole word in a text."""
    names = sorted(set(card_ids), key=len, reverse=True)
    return re.compile(r"(?<![\w/-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w/-])")


def strings(data: Any, skip: tuple[str, ...] = ("deck",)) -> Iterator[str]:
    """Every string of a JSON value (keys too), leaving out the top-level keys in `skip`."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in skip:
                continue
            yield str(key)
            yield from strings(value, ())
    elif isinstance(data, list):
        for item in data:
            yield from strings(item, ())
    elif isinstance(data, str):
        yield data


def hidden_from(state: Any, seat: int) -> set[str]:
    """The cards `seat` may not see now: other hands, other seats' passes on the way, the cards
    not dealt (but a turned-up one, a pile shown to all or the melds shown), and discards laid face down or
    cards buried by another seat."""
    from trickrules.engine.views import passed_cards

    ids = state.game.card_ids
    hidden: set[int] = set()
    for player, hand in enumerate(state.hands):
        if player != seat:
            hidden.update(hand)
    passing = phases.pass_cards.running(state)
    if passing:
        for player, cards in enumerate(passing.passed):
            if player != seat:
                hidden.update(cards)
    hidden.update(getattr(state, "set_aside", []))
    hidden.update(getattr(state, "stock", []))
    if seat != getattr(state, "dealer", -1):
        hidden.update(phases.discard.discarded(state))
    taking = phases.take.taking(state)
    if taking is not None and seat != taking.taker:  # what the declarer buried stays hidden
        hidden.update(taking.buried)
    shown = set(passed_cards(state, seat))
    for player in state.exposed():  # a hand laid open on the table (a dummy's) is seen by all
        shown.update(state.hands[player])
    if taking is not None and taking.rules.shown:  # a pile turned face up for everyone
        shown.update(taking.pile)
    turned = phases.turn_up.card(state)
    if turned >= 0:
        shown.add(turned)
    for cards in phases.show_melds.shown_cards(state):  # melds laid on the table, not played yet
        shown.update(cards)
    for event in state.events or []:
        if event["type"] == "take":
            shown.add(event["card"])
    return {ids[c] for c in hidden - shown}


def leaked(view: dict[str, Any], state: Any, seat: int, pattern: re.Pattern[str]) -> set[str]:
    """The hidden cards that `view` (seat's answer) names anywhere but in the deck catalogue."""
    hidden = hidden_from(state, seat)
    current_round = max((line["round"] for line in view.get("log", [])), default=0)
    found: set[str] = set()
    for key, value in view.items():
        if key == "deck":
            continue
        if key == "log":  # earlier rounds' lines name cards dealt again since: checked in their round
            value = [line for line in value if line["round"] == current_round]
        for text in strings({key: value}, ()):
            found.update(pattern.findall(text))
    return found & hidden


def wait_for(client: Client, done: Any, seat: int = 0, timeout: float = 60.0) -> dict[str, Any]:
    """Long-poll seat's view until `done(view)` holds."""
    deadline = time.monotonic() + timeout
    view = client.state(seat)
    while not done(view):
        assert time.monotonic() < deadline, f"timed out; last view: phase {view.get('phase')}, length {view.get('length')}"
        view = client.state(seat, since=view["version"])
    return view
