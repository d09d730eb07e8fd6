"""The HTTP server: the page's files and a small JSON API over one `Session`.

GET  /                      the page (index.html beside this module); /static/NAME its script and style
GET  /api/state?seat=N      seat N's view; &since=V waits (up to 20 s) for a version after V
GET  /api/record            the game record as a JSON download (`trickrules replay` verifies a finished one)
POST /api/action            {"seat": N, "action": ID or "play hearts-Q", "turn": T}: a human seat's move
POST /api/new               {"seed": S} (optional): a new game
POST /api/undo              take back the last human move (and the bot moves after it)
POST /api/step              {"to": K or "end"} or {"by": +-1}: show the game after K actions
POST /api/seats             {"seats": ["human", "greedy", ...]}
POST /api/pace              {"seconds": 0.5}: how long each bot move waits
POST /api/record            a record (JSON) to watch

A bad request gets a 4xx answer with {"error": message} and changes nothing.
"""

from __future__ import annotations

import ipaddress
import json
import mimetypes
import socket
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from trickrules.serve.session import ApiError, Session, as_int
from trickrules.serve.views import seat_view

MAX_BODY = 8 * 1024 * 1024
"""The largest request body taken (a long game's record is well under a megabyte)."""
LONG_POLL = 20.0
STATIC_FILES = ("index.html", "app.js", "style.css")


def _static(name: str) -> bytes:
    return resources.files("trickrules.serve").joinpath(name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    """One request; the server's `session` holds the game."""

    server: ServeServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out at once: no delayed-ACK wait

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        if self.server.verbose:
            super().log_message(format, *args)

    # ------------------------------------------------------------ answers

    def _send(self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8", headers)

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message})

    # ------------------------------------------------------------ requests

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self._handle(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._handle(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._handle(self._post)

    def do_PUT(self) -> None:  # noqa: N802
        self._refuse_method()

    do_DELETE = do_PATCH = do_PUT

    def _refuse_method(self) -> None:
        self.close_connection = True
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b'{"error": "method not allowed"}', "application/json", {"Allow": "GET, HEAD, POST"})

    def _handle(self, method: Any) -> None:
        try:
            self._check_host()
            method()
        except ApiError as error:
            self._error(error.status, error.message)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # a bug: answer 500 rather than drop the connection
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {type(error).__name__}")
            if self.server.verbose:
                raise

    def _check_host(self) -> None:
        """On a loopback address, answer only requests made to it by name (a page elsewhere that
        a DNS name points at 127.0.0.1 gets 403: DNS rebinding)."""
        if not self.server.loopback:
            return
        host = (self.headers.get("Host") or "").strip().lower()
        name = host.rpartition("]")[0] + "]" if host.startswith("[") else host.partition(":")[0]
        if name not in ("127.0.0.1", "localhost", "[::1]"):
            self.close_connection = True
            raise ApiError(403, "this server answers requests to 127.0.0.1 or localhost only")

    def _get(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        path = url.path
        if path in ("/", "/index.html"):
            self._send(200, _static("index.html"), "text/html; charset=utf-8")
        elif path.startswith("/static/") and path[len("/static/") :] in STATIC_FILES:
            name = path[len("/static/") :]
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            self._send(200, _static(name), f"{kind}; charset=utf-8")
        elif path == "/api/state":
            session = self.server.session
            seat = self._seat(query)
            if "since" in query:
                since = self._number(query, "since")
                session.wait(since, min(LONG_POLL, self.server.long_poll))
            self._json(200, seat_view(session, seat))
        elif path == "/api/record":
            record = self.server.session.record()
            from trickrules.tools.record import dumps

            name = f"{record['spec']['id']}-seed{record['seed']}.json"
            body = dumps(record).encode("utf-8")
            self._send(200, body, "application/json; charset=utf-8", {"Content-Disposition": f'attachment; filename="{name}"'})
        elif path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")
        else:
            raise ApiError(404, f"no such page: {path[:100]}")

    def _number(self, query: dict[str, list[str]], name: str) -> int:
        values = query.get(name, [])
        if len(values) != 1 or not values[0].lstrip("-").isdigit() or len(values[0]) > 19:
            raise ApiError(400, f"{name} must be one whole number")
        return int(values[0])

    def _seat(self, query: dict[str, list[str]]) -> int:
        session = self.server.session
        if "seat" not in query:
            return 0
        seat = self._number(query, "seat")
        seats = max(len(session.seat_kinds), 1)
        if not 0 <= seat < seats:
            raise ApiError(400, f"no seat {seat}: seats are 0 to {seats - 1}")
        return seat

    def _body(self) -> dict[str, Any]:
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            if self.headers.get("Transfer-Encoding"):
                self.close_connection = True
                raise ApiError(411, "send a Content-Length")
            return {}
        try:
            length = int(length_text)
        except ValueError:
            self.close_connection = True
            raise ApiError(400, "bad Content-Length") from None
        if length < 0 or length > MAX_BODY:
            self.close_connection = True
            raise ApiError(413, f"the body is over {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length else b""
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ApiError(400, f"the body is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise ApiError(400, "the body must be a JSON object")
        return data

    def _post(self) -> None:
        path = urlsplit(self.path).path
        data = self._body()  # read first: the connection stays usable after a refusal
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            # a form or text/plain post from another site needs no preflight; JSON does
            raise ApiError(415, "send the body as application/json")
        session = self.server.session
        if path == "/api/action":
            if "action" not in data or "seat" not in data:
                raise ApiError(400, 'send {"seat": N, "action": ID}')
            session.act(data["seat"], data["action"], data.get("turn"))
        elif path == "/api/new":
            session.new_game(data.get("seed"))
        elif path == "/api/undo":
            session.undo()
        elif path == "/api/step":
            session.step(data.get("to"), data.get("by"))
        elif path == "/api/seats":
            session.set_seats(data.get("seats"))
        elif path == "/api/pace":
            session.set_pace(data.get("seconds"))
        elif path == "/api/record":
            session.open_record(data)
        else:
            raise ApiError(404, f"no such action: {path[:100]}")
        seat = as_int(data.get("seat", 0), "seat", 0, max(len(session.seat_kinds) - 1, 0)) if path != "/api/record" else 0
        self._json(200, seat_view(session, seat))


class ServeServer(ThreadingHTTPServer):
    """A threading HTTP server holding the session its handlers share."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], session: Session, verbose: bool = False, long_poll: float = LONG_POLL) -> None:
        self.session = session
        self.verbose = verbose
        self.long_poll = long_poll
        self.loopback = _is_loopback(address[0])
        super().__init__(address, Handler)

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


def make_server(session: Session, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False) -> ServeServer:
    """A server for `session` on `host`:`port` (port 0: any free port); serve_forever() runs it."""
    if ":" in host:
        return _ServeServer6((host, port), session, verbose)
    return ServeServer((host, port), session, verbose)


def _is_loopback(host: str) -> bool:
    """Whether `host` is this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _ServeServer6(ServeServer):
    address_family = socket.AF_INET6
