"""A game session: the spec, its seats, the seed, the state and its actions, undo, stepping
through the log, watching a record, bots on a thread, and reloading the spec when it changes.

Every method takes the session's lock, so the HTTP server's threads may call them at once.
A refused request raises `ApiError` (an HTTP status and a message) and changes nothing.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from trickrules.engine.game import Game, load_game
from trickrules.engine.state import State
from trickrules.errors import SpecError, TrickrulesError
from trickrules.serve.seats import HUMAN, make_bot, parse_seats

MAX_SEED = 2**63 - 1
MAX_PACE = 10.0
"""The slowest pace the page may set: ten seconds a bot move."""


class ApiError(Exception):
    """A refused request: its HTTP status and what to tell the page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def problem_entries(error: BaseException, fallback_file: str) -> list[dict[str, Any]]:
    """A spec's problems as the page lists them: file, line, column, code, message."""
    if isinstance(error, SpecError):
        return [
            {"file": p.file, "line": p.line, "column": p.column, "code": p.code, "message": p.message, "path": p.path}
            for p in error.problems
            if not p.is_warning
        ]
    return [{"file": fallback_file, "line": 1, "column": 1, "code": type(error).__name__, "message": str(error), "path": "$"}]


def as_int(value: Any, what: str, low: int = 0, high: int = MAX_SEED) -> int:
    """A whole number from JSON (not a bool, not a float, not text); ApiError 400 otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{what} must be a whole number, not {type(value).__name__} {value!r}"[:200])
    if not low <= value <= high:
        raise ApiError(400, f"{what} must be from {low} to {high}, not {value}")
    return value


class Session:
    """One game at a time of one spec, with its seats, served to the page."""

    def __init__(
        self,
        spec: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seats: str | Sequence[str] | None = None,
        seed: int | None = None,
        pace: float = 0.5,
    ) -> None:
        self.spec = spec
        self.players = players
        self.options = dict(options or {})
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0  # any change the page shows
        self.game_version = 0  # a change of the game itself: a bot's move for an older one is dropped
        self.pace = pace
        self.seed = seed if seed is not None else random.randrange(1, 10**6)
        self.errors: list[dict[str, Any]] = []
        self.live_game: Game | None = None
        self.watch_game: Game | None = None
        self.watched: dict[str, Any] | None = None  # the record being watched
        self.deal: Any = None
        self.actions: list[int] = []
        self.actors: list[int] = []
        self.position = 0
        self.state: State | None = None
        self.thinking: int | None = None
        self.message = ""  # the last notice for the page (a reload, a record opened)
        self.mtimes: dict[str, tuple[int, int] | None] = {}
        self._shown: tuple[int, int, State] | None = None  # (game_version, position, state) of a past position
        self._seat_text = seats
        self.seat_kinds: list[str] = []
        self.agents: dict[int, Any] = {}
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        with self.lock:
            self._load(first=True)

    # ------------------------------------------------------------ the spec

    @property
    def spec_path(self) -> str:
        """The file the spec is read from (a shipped spec's name resolved to its file)."""
        from trickrules.spec.shipped import resolve_spec

        try:
            return os.fspath(resolve_spec(self.spec))
        except SpecError:
            return self.spec

    def watched_files(self) -> list[str]:
        """The spec's file and the files it extends."""
        from trickrules.tools.provenance import spec_files

        files = [self.spec_path]
        if self.live_game is not None:
            files += [f for f in spec_files(self.live_game.ruleset) if f not in files]
        return files

    def _mtimes(self) -> dict[str, tuple[int, int] | None]:
        """Each watched file's modification time and size (None: missing)."""
        found: dict[str, tuple[int, int] | None] = {}
        for file in self.watched_files():
            try:
                stat = os.stat(file)
            except OSError:
                found[file] = None
            else:
                found[file] = (stat.st_mtime_ns, stat.st_size)
        return found

    def _load(self, first: bool = False) -> None:
        """Read the spec again: a new game with its rules, or its problems for the page."""
        path = self.spec_path
        seen = self._mtimes()  # before the read: a save during the read is a change next time
        try:
            game = load_game(path, players=self.players, options=self.options)
        except (TrickrulesError, OSError, ValueError) as error:
            self.errors = problem_entries(error, path)
            self.message = f"{Path(path).name}: {len(self.errors)} problem(s); the game resumes on the next good save"
            if first and self._seat_text is not None:
                self.seat_kinds = [s.strip() for s in str(self._seat_text).split(",") if s.strip()]
        else:
            self.errors = []
            self.live_game = game
            wanted = self._seat_text if first or not self.seat_kinds else self.seat_kinds
            try:
                self.seat_kinds = parse_seats(wanted, game.num_players)
            except ValueError:
                if first:
                    raise
                self.seat_kinds = parse_seats(None, game.num_players)  # the table changed size
            if not first:
                self.message = f"{Path(path).name} reloaded: a new game with the new rules"
            self._new_live(self.seed)
        self.mtimes = {file: seen.get(file, stamp) for file, stamp in self._mtimes().items()}
        self._bump(game=True)

    def check_spec(self) -> bool:
        """Reload when a watched file changed since the last load; True if it did."""
        with self.lock:
            now = self._mtimes()
            if now == self.mtimes:
                return False
            self._load()
            return True

    # ------------------------------------------------------------ games

    @property
    def game(self) -> Game | None:
        """The game shown: the watched record's, or the live one."""
        return self.watch_game if self.watched is not None else self.live_game

    @property
    def mode(self) -> str:
        return "watch" if self.watched is not None else "live"

    def _bump(self, game: bool = False) -> None:
        self.version += 1
        if game:
            self.game_version += 1
            self._shown = None
        self.changed.notify_all()

    def _fresh(self, game: Game, seed: int, deal: Any = None) -> State:
        return game.new_initial_state(seed, record=True, deal=deal)

    def _new_live(self, seed: int) -> None:
        game = self.live_game
        assert game is not None
        self.seed = seed
        self.watched = None
        self.watch_game = None
        self.deal = None
        self.actions, self.actors = [], []
        self.position = 0
        self.state = self._fresh(game, seed)
        self.agents = {s: make_bot(k, seed, s) for s, k in enumerate(self.seat_kinds) if k != HUMAN}

    def new_game(self, seed: Any = None) -> None:
        """A new game of the live spec, dealt from `seed` (a random one when None)."""
        with self.lock:
            seed = random.randrange(1, 10**6) if seed is None else as_int(seed, "seed")
            if self.live_game is None:
                raise ApiError(409, "the spec has problems: fix them and save, and a new game starts")
            self.message = ""
            self._new_live(seed)
            self._bump(game=True)

    def set_seats(self, kinds: Any) -> None:
        """Make each seat human or a bot (a list with one kind per seat)."""
        with self.lock:
            game = self.live_game
            if game is None:
                raise ApiError(409, "the spec has problems: no game to seat")
            if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
                raise ApiError(400, "seats must be a list of names (human, random, greedy, ismcts:N)")
            try:
                parsed = parse_seats(kinds, game.num_players)
            except ValueError as error:
                raise ApiError(400, str(error)) from None
            if len(kinds) != game.num_players:
                raise ApiError(400, f"give one kind for each of the {game.num_players} seats")
            self.seat_kinds = parsed
            self.agents = {s: make_bot(k, self.seed, s) for s, k in enumerate(parsed) if k != HUMAN}
            self._bump(game=True)

    def set_pace(self, seconds: Any) -> None:
        """How long a bot waits before each move."""
        with self.lock:
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds <= MAX_PACE:
                raise ApiError(400, f"pace must be a number of seconds from 0 to {MAX_PACE:g}")
            self.pace = float(seconds)
            self._bump()

    # ------------------------------------------------------------ moves

    @property
    def at_end(self) -> bool:
        return self.position == len(self.actions)

    def act(self, seat: Any, action: Any, turn: Any = None) -> None:
        """A human seat takes a legal action; any refusal leaves the game as it was.

        `turn`, when given, is the number of actions the page saw: a click on an older
        view (a bot moved meanwhile) is refused with 409 rather than applied to another position.
        """
        with self.lock:
            state = self._live_state_for_moves()
            seat = as_int(seat, "seat", 0, len(self.seat_kinds) - 1)
            if turn is not None and as_int(turn, "turn", 0, 10**9) != len(self.actions):
                raise ApiError(409, "the game moved on since this page was drawn: look again and choose")
            if isinstance(action, str):
                try:
                    action = state.string_to_action(action)
                except ValueError:
                    raise ApiError(400, f"not an action of this game: {action[:80]!r}") from None
            action = as_int(action, "action", 0, state.game.num_distinct_actions() - 1)
            if state.is_terminal():
                raise ApiError(409, "the game is over: start a new one")
            current = state.current_player()
            if seat != current:
                raise ApiError(409, f"it is seat {current}'s turn, not seat {seat}'s")
            if self.seat_kinds[seat] != HUMAN:
                raise ApiError(409, f"seat {seat} is a bot ({self.seat_kinds[seat]}): make it human to play for it")
            if action not in state.legal_view():
                text = state.action_to_string(action)
                raise ApiError(422, f"{text} is not legal now" + self._why(state, action))
            self._apply(action)

    def _why(self, state: State, action: int) -> str:
        from trickrules.serve.reasons import refusal_reasons

        game = state.game
        if action < game.num_cards:
            reasons = refusal_reasons(self, state, state.current_player())
            reason = reasons.get(game.card_ids[action])
            if reason:
                return f": {reason}"
        return ""

    def _live_state_for_moves(self) -> State:
        if self.errors:
            raise ApiError(409, "the spec has problems: fix them and save")
        if self.watched is not None:
            raise ApiError(409, "watching a record: start a new game to play")
        if not self.at_end:
            raise ApiError(409, "viewing an earlier position: step forward to the end to play")
        assert self.state is not None
        return self.state

    def _apply(self, action: int) -> None:
        state = self.state
        assert state is not None
        follow = self.at_end
        self.actors.append(state.current_player())
        state.apply_action(action)
        self.actions.append(action)
        if follow:
            self.position = len(self.actions)
        self._bump(game=True)

    def undo(self) -> None:
        """Take back the last human move and every bot move after it."""
        with self.lock:
            self._live_state_for_moves()
            humans = [i for i, actor in enumerate(self.actors) if self.seat_kinds[actor] == HUMAN]
            if not humans:
                raise ApiError(409, "no move of a human seat to undo")
            keep = humans[-1]
            self.state = self._replayed(keep)
            del self.actions[keep:], self.actors[keep:]
            self.position = keep
            self._bump(game=True)

    def _replayed(self, count: int) -> State:
        game = self.game
        assert game is not None
        state = self._fresh(game, self.seed, self.deal)
        for action in self.actions[:count]:
            state.apply_action(action)
        return state

    # ------------------------------------------------------------ the log: stepping and records

    def step(self, to: Any = None, by: Any = None) -> None:
        """Show the game after `to` actions (``"end"``: the latest), or `by` actions on."""
        with self.lock:
            if self.state is None:
                raise ApiError(409, "no game")
            if to == "end":
                target = len(self.actions)
            elif to is not None:
                target = as_int(to, "to", 0, len(self.actions))
            elif by is not None:
                target = min(max(self.position + as_int(by, "by", -10**6, 10**6), 0), len(self.actions))
            else:
                raise ApiError(400, "step takes 'to' (a number of actions, or \"end\") or 'by'")
            self.position = target
            self._bump()

    def shown_state(self) -> State | None:
        """The state at the position shown (the latest, or an earlier one while stepping back)."""
        with self.lock:
            if self.state is None or self.at_end:
                return self.state
            shown = self._shown
            if shown is None or shown[0] != self.game_version or shown[1] != self.position:
                shown = self._shown = (self.game_version, self.position, self._replayed(self.position))
            return shown[2]

    def record(self) -> dict[str, Any]:
        """The game record of the game so far (of a finished game, `trickrules replay` verifies it)."""
        from trickrules.tools.record import build_record

        with self.lock:
            if self.state is None:
                raise ApiError(409, "no game to record")
            if self.watched is not None:
                return self.watched
            return build_record(self.state, list(self.seat_kinds))

    def open_record(self, record: Any) -> None:
        """Watch a record: its game, from its first action; step through it."""
        from trickrules.tools.recordschema import record_problems

        if not isinstance(record, dict):
            raise ApiError(400, "a record is a JSON object (written by 'trickrules play --json' or downloaded here)")
        problems = record_problems(record)
        if problems:
            raise ApiError(422, "not a trickrules record: " + "; ".join(problems[:3]))
        with self.lock:
            game = self._record_game(record)
            try:
                state = self._fresh(game, record["seed"], record.get("deals"))
                actions, actors = [], []
                for text in record.get("actions", []):
                    action = state.string_to_action(text)
                    actors.append(state.current_player())
                    state.apply_action(action)
                    actions.append(action)
            except (ValueError, TrickrulesError) as error:
                raise ApiError(422, f"the record does not replay with {game.ruleset.id}: {str(error).splitlines()[0]}") from None
            self.watched, self.watch_game = record, game
            self.seed, self.deal = record["seed"], record.get("deals")
            self.state, self.actions, self.actors = state, actions, actors
            self.position = 0
            self.message = f"watching a record of {game.ruleset.title}: step through it, or start a new game to play"
            self._bump(game=True)

    def _record_game(self, record: dict[str, Any]) -> Game:
        spec = record["spec"]
        live = self.live_game
        try:
            if live is not None and spec.get("id") == live.ruleset.id:
                source: str = self.spec_path
            else:
                source = spec.get("file") or spec.get("id")
            return load_game(source, players=record["players"], options=record.get("options") or {})
        except (TrickrulesError, OSError, ValueError) as error:
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ApiError(422, f"cannot load the record's spec {spec.get('id')!r}: {first}") from None

    # ------------------------------------------------------------ waiting and bots

    def wait(self, since: int, timeout: float) -> None:
        """Return once the version passes `since`, or after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.version <= since and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self.changed.wait(min(left, 1.0))

    def _bot_job(self) -> tuple[int, int, Any, State] | None:
        state = self.state
        if state is None or self.errors or self.watched is not None or not self.at_end or state.is_terminal():
            return None
        seat = state.current_player()
        agent = self.agents.get(seat)
        if agent is None:
            return None
        return self.game_version, seat, agent, state.clone()

    def bot_turn(self) -> bool:
        """Let the bot to move (if any) wait the pace, think on a copy, and move; True if it moved.

        The lock is free while it waits and thinks: the page reads, and may change, the game
        meanwhile; a move found for a game that changed since is dropped.
        """
        with self.lock:
            job = self._bot_job()
            if job is None:
                return False
            version, seat, agent, trial = job
            pace = self.pace
        if pace and self._stop.wait(pace):
            return False
        with self.lock:
            if self.game_version != version:
                return False
            self.thinking = seat
            self._bump()
        try:
            action = agent.step(trial)
        finally:
            with self.lock:
                self.thinking = None
                self._bump()
        with self.lock:
            if self.game_version != version:
                return False
            self._apply(action)
            return True

    def _bot_loop(self) -> None:
        while not self._stop.is_set():
            if not self.bot_turn():
                with self.lock:
                    if self._bot_job() is None and not self._stop.is_set():
                        self.changed.wait(0.5)

    def _watch_loop(self, interval: float) -> None:
        while not self._stop.wait(interval):
            try:
                self.check_spec()
            except Exception as error:  # a watcher must outlive any one bad read
                with self.lock:
                    self.errors = problem_entries(error, self.spec_path)
                    self._bump(game=True)

    def start(self, watch_interval: float = 0.3) -> None:
        """Start the bot thread and the spec watcher."""
        for target, args in ((self._bot_loop, ()), (self._watch_loop, (watch_interval,))):
            thread = threading.Thread(target=target, args=args, daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop the threads (a bot thinking finishes its move first)."""
        self._stop.set()
        with self.lock:
            self.changed.notify_all()
        for thread in self._threads:
            thread.join(timeout=10)
