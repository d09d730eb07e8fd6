"""Where chunks of games are played: here, in local worker processes, or on a Ray cluster.

`simulate` and `tournament` cut their seeds into chunks and hand them to a runner opened with
`open_backend`. Every runner returns the chunks' results in chunk order, whichever finished
first, so the caller merges them in the same order on every backend: the ``ray`` backend
gives exactly the figures of the ``local`` one for the same seeds.

- ``local`` with one worker plays in this process; with more, in a pool of processes started
  with ``spawn`` (the same on every platform), each loading the game once. A spawned worker
  imports the caller's script again; when the script starts a run at import (no
  ``if __name__ == "__main__":`` guard), the worker stops at once, silently, and the caller
  gets one `error` saying so: the pool never starts workers again (no respawn loop).
- ``ray`` sends each chunk as a Ray task. Without an address it starts a Ray instance on this
  machine (and stops it at the end); an address connects to a running cluster (``auto``: the
  one ``RAY_ADDRESS`` names, or the one running on this machine). A Ray instance this
  process had already started with ``ray.init`` is used as it is. Ray is imported only here,
  and only for this backend: ``pip install 'trickrules[ray]'`` brings it. Every node of a
  cluster must be able to import trickrules (install it there, with the same version); an
  instance started here passes the folder this trickrules is imported from to its workers
  on ``PYTHONPATH``, so a checkout works without installing.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import re
import signal
import socket
import sys
import threading
import uuid
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from trickrules.errors import MissingExtraError, TrickrulesError

__all__ = ["BACKENDS", "DEFAULT_RAY_TIMEOUT", "MAIN_GUARD_HINT", "Runner", "open_backend"]

BACKENDS = ("local", "ray")
"""The backends' names, as ``--backend`` takes them."""

Progress = Callable[[int, int], None]
Load = Callable[[Any], Any]
"""Makes a worker's context (e.g. the loaded game) from the job's source, once per worker."""
Play = Callable[[Any, Any], Any]
"""Plays one chunk: (context, task) -> the chunk's result."""


class Runner(Protocol):
    """Plays chunks somewhere; `parallelism` is how many it plays at once."""

    parallelism: int

    def map(self, load: Load, source: Any, play: Play, tasks: Sequence[Any], sizes: Sequence[int], progress: Progress | None) -> list[Any]:
        """The result of ``play(load(source), task)`` for each task, in the order of `tasks`.

        `sizes` are the games of each task, for `progress` (games done, games in all).
        """
        ...


class _Counter:
    """Adds up the games of finished chunks and reports them."""

    def __init__(self, sizes: Sequence[int], progress: Progress | None) -> None:
        self.sizes, self.progress, self.done, self.total = sizes, progress, 0, sum(sizes)

    def finished(self, index: int) -> None:
        self.done += self.sizes[index]
        if self.progress is not None:
            self.progress(self.done, self.total)


# ---------------------------------------------------------------- local


class _Here:
    """Plays every chunk in this process, one after another."""

    parallelism = 1

    def map(self, load: Load, source: Any, play: Play, tasks: Sequence[Any], sizes: Sequence[int], progress: Progress | None) -> list[Any]:
        context, counter, results = load(source), _Counter(sizes, progress), []
        for index, task in enumerate(tasks):
            results.append(play(context, task))
            counter.finished(index)
        return results


_local: tuple[Play, Any] | None = None


def _start_process(load: Load, play: Play, source: Any) -> None:
    """Load the context once in each worker process."""
    global _local
    _local = (play, load(source))


def _play_in_process(item: tuple[int, Any]) -> tuple[int, Any]:
    index, task = item
    assert _local is not None, "worker not started"
    play, context = _local
    return index, play(context, task)


_MAIN_GUARD_EXIT = 86
"""The exit code of a worker that stopped because the caller's script started a run while the
worker imported it (see `_in_spawned_main_import`)."""

MAIN_GUARD_HINT = (
    "the worker processes stopped while starting: they import the calling script again, and it starts "
    "a parallel run when imported. Put the call under 'if __name__ == \"__main__\":' (see the Python "
    "docs on multiprocessing), or pass workers=1"
)


def _in_spawned_main_import() -> bool:
    """Whether this process is a worker being started (spawn or forkserver) and is importing
    its parent's main module: a run started now would start workers of its own, for ever.
    (multiprocessing marks a process `_inheriting` for exactly that time, the test its own
    "bootstrapping phase" error uses; `parent_process()` is not set yet then.)"""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


class _Pool:
    """Plays the chunks in worker processes on this machine.

    A `ProcessPoolExecutor`: a worker that dies breaks the pool (one error here) rather than
    being started again, as `multiprocessing.Pool` would, for ever, when it dies at start.
    """

    def __init__(self, workers: int, error: type[TrickrulesError]) -> None:
        self.parallelism, self.error = workers, error

    def map(self, load: Load, source: Any, play: Play, tasks: Sequence[Any], sizes: Sequence[int], progress: Progress | None) -> list[Any]:
        results: list[Any] = [None] * len(tasks)
        counter = _Counter(sizes, progress)
        context = multiprocessing.get_context("spawn")  # the same on every platform
        processes = min(self.parallelism, len(tasks))
        executor = ProcessPoolExecutor(processes, mp_context=context, initializer=_start_process, initargs=(load, play, source))
        waiting = list(enumerate(tasks))[::-1]
        running: set[Any] = set()
        finished = 0
        try:
            while waiting or running:
                while waiting and len(running) < 2 * processes:  # a few queued: no list of every chunk in the queue
                    running.add(executor.submit(_play_in_process, waiting.pop()))
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    index, result = future.result()
                    results[index] = result
                    finished += 1
                    counter.finished(index)
        except BrokenProcessPool:
            raise self.error(self._broken(executor, finished)) from None
        finally:
            executor.shutdown(wait=not running, cancel_futures=True)
        return results

    @staticmethod
    def _broken(executor: ProcessPoolExecutor, finished: int) -> str:
        codes = [p.exitcode for p in (getattr(executor, "_processes", None) or {}).values()]
        return _broken_message(codes, finished, _main_is_a_script())


def _broken_message(codes: Sequence[int | None], finished: int, main_is_a_script: bool) -> str:
    """What to say when the pool broke, from its workers' exit codes (None: still running).

    The pool stops the other workers with SIGTERM once one dies, and may do so before a worker
    that is still starting reaches the main guard's exit, so on a busy machine the guard's own
    code can be missing: a pool that broke before any chunk finished, in a script, with no exit
    but the guard's and the pool's own, is the guard's case too."""
    if _MAIN_GUARD_EXIT in codes:
        return MAIN_GUARD_HINT
    if finished == 0 and main_is_a_script and all(code in _STOPPED_BY_THE_POOL for code in codes):
        return MAIN_GUARD_HINT
    shown = ", ".join(str(code) for code in codes if code) or "unknown"
    return f"a worker process stopped unexpectedly (exit code {shown}: killed, or out of memory?)"


_STOPPED_BY_THE_POOL = (None, 0, -signal.SIGTERM)
"""Exit codes that say nothing of why a pool broke: running, a clean exit, stopped by the pool."""


def _main_is_a_script() -> bool:
    main = sys.modules.get("__main__")
    return main is not None and getattr(main, "__file__", None) is not None


# ---------------------------------------------------------------- ray

_contexts: dict[str, Any] = {}
"""The context of the job a Ray worker process last played for, by the job's key."""


def _play_on_ray(load: Load, play: Play, key: str, source: Any, task: Any) -> Any:
    """A Ray task: one chunk, the worker's context loaded once per job."""
    if key not in _contexts:
        _contexts.clear()  # a long-lived worker keeps only the latest job's game
        _contexts[key] = load(source)
    return play(_contexts[key], task)


def _import_ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise MissingExtraError("the ray backend needs Ray: pip install 'trickrules[ray]'") from None
    return ray


def _package_root() -> str:
    """The folder this trickrules is imported from (a checkout's root, or site-packages)."""
    return str(Path(__file__).resolve().parents[2])


class _Ray:
    """Plays the chunks as Ray tasks, at most `parallelism` at a time."""

    def __init__(self, ray: Any, parallelism: int, error: type[TrickrulesError]) -> None:
        self.ray, self.parallelism, self.error = ray, parallelism, error

    def map(self, load: Load, source: Any, play: Play, tasks: Sequence[Any], sizes: Sequence[int], progress: Progress | None) -> list[Any]:
        ray = self.ray
        remote = ray.remote(num_cpus=1)(_play_on_ray)
        key, source_ref = uuid.uuid4().hex, ray.put(source)
        results: list[Any] = [None] * len(tasks)
        counter = _Counter(sizes, progress)
        waiting = list(enumerate(tasks))[::-1]
        running: dict[Any, int] = {}
        try:
            while waiting or running:
                while waiting and len(running) < self.parallelism:
                    index, task = waiting.pop()
                    running[remote.remote(load, play, key, source_ref, task)] = index
                ready, _ = ray.wait(list(running), num_returns=1)
                for ref in ready:
                    index = running.pop(ref)
                    results[index] = ray.get(ref)
                    counter.finished(index)
        except ray.exceptions.RayError as failure:
            for ref in running:
                ray.cancel(ref, force=True)
            raise self.error(_ray_failure(failure)) from None
        return results


def _ray_failure(failure: BaseException) -> str:
    text = str(failure).strip().splitlines()
    last = text[-1] if text else type(failure).__name__
    hint = ""
    if "No module named 'trickrules" in str(failure):
        hint = ": the Ray workers cannot import trickrules; install it on every node of the cluster"
    return f"a Ray task failed: {last}{hint}"


DEFAULT_RAY_TIMEOUT = 20.0
"""Seconds to wait for a Ray cluster at an address to answer (``--ray-timeout``)."""

_HOST_PORT = re.compile(r"(?:ray://)?(\[[^\]]+\]|[^:/\[\]]+):(\d+)")


def check_ray_timeout(timeout: float, error: type[TrickrulesError]) -> float:
    """`timeout` as a number of seconds, or `error` unless it is a finite number above 0."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise error(f"the Ray timeout must be a number of seconds above 0, not {timeout!r}")
    return float(timeout)


def _check_reachable(address: str, timeout: float, error: type[TrickrulesError]) -> None:
    """`error` unless something answers at the HOST:PORT of `address` within `timeout` seconds
    (an address of another form, such as ``auto``, is left to Ray)."""
    match = _HOST_PORT.fullmatch(address.strip())
    if match is None:
        return
    host, port = match[1].strip("[]"), int(match[2])
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except (OSError, OverflowError, ValueError) as failure:
        if isinstance(failure, TimeoutError):
            reason = f"nothing answered within {timeout:g} s (--ray-timeout)"
        else:
            reason = getattr(failure, "strerror", None) or str(failure)
        raise error(
            f"cannot reach the Ray cluster at {address}: {reason}; check the address and that the cluster runs "
            "('ray status' on its head)"
        ) from None


def _init_within(ray: Any, timeout: float | None, error: type[TrickrulesError], where: str, **settings: Any) -> None:
    """``ray.init(**settings)``; `error` if it has not returned after `timeout` seconds (it is
    then left to finish or fail on its own thread, which does not keep the program alive)."""
    if timeout is None:
        ray.init(**settings)
        return
    outcome: list[BaseException] = []

    def connect() -> None:
        try:
            ray.init(**settings)
        except BaseException as failure:  # handed to the caller's thread
            outcome.append(failure)

    logger = logging.getLogger("ray._private.worker")  # "SIGTERM handler is not set ...": true, and not the user's concern
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        thread = threading.Thread(target=connect, name="trickrules-ray-init", daemon=True)
        thread.start()
        thread.join(timeout)
    finally:
        logger.setLevel(level)
    if thread.is_alive():
        raise error(f"cannot reach {where}: no answer within {timeout:g} s (--ray-timeout); check the address")
    if outcome:
        raise outcome[0]


def _connect_ray(
    address: str | None, workers: int | None, error: type[TrickrulesError], timeout: float = DEFAULT_RAY_TIMEOUT
) -> tuple[Any, bool]:
    """Ray, initialized: (the module, whether this call initialized it and must shut it down).

    Connecting to `address` waits at most `timeout` seconds for the cluster to answer;
    starting a local instance (no address) is not timed.
    """
    ray = _import_ray()
    if ray.is_initialized():
        return ray, False
    where = f"the Ray cluster at {address}" if address else "a local Ray instance"
    try:
        if address is None:
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            path = os.pathsep.join(p for p in (_package_root(), os.environ.get("PYTHONPATH", "")) if p)
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": path}},
            )
        else:
            _check_reachable(address, timeout, error)
            _init_within(ray, timeout, error, where, address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as failure:
        first = (str(failure).strip().splitlines() or [type(failure).__name__])[0]
        raise error(f"cannot start or reach {where}: {first}") from None
    return ray, True


# ---------------------------------------------------------------- choosing


@contextmanager
def open_backend(
    backend: str,
    workers: int | None,
    address: str | None = None,
    error: type[TrickrulesError] = TrickrulesError,
    ray_timeout: float = DEFAULT_RAY_TIMEOUT,
) -> Iterator[Runner]:
    """A runner of the backend ``local`` or ``ray``; bad input raises `error`.

    `workers` is the number of chunks played at once: for ``local`` the processes (None: 1,
    in this process), for ``ray`` the tasks in flight (None: every CPU of the cluster).
    `address` is for ``ray`` only; `ray_timeout` is how many seconds a cluster at `address`
    has to answer (`error` after that). A Ray instance or connection opened here is closed
    at the end.
    """
    ray_timeout = check_ray_timeout(ray_timeout, error)
    if backend not in BACKENDS:
        raise error(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise error(f"the number of workers must be at least 1, not {workers}")
    if backend == "local":
        if address is not None:
            raise error("an address is for the ray backend only: add --backend ray")
        if workers not in (None, 1) and _in_spawned_main_import():
            raise SystemExit(_MAIN_GUARD_EXIT)  # a worker importing a script without a main guard: stop here, silently
        yield _Here() if workers in (None, 1) else _Pool(workers or 1, error)
        return
    ray, opened = _connect_ray(address, workers, error, ray_timeout)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield _Ray(ray, workers or max(1, cpus), error)
    finally:
        if opened:
            ray.shutdown()
