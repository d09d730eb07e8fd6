"""Where chunks of games are played: here, in local worker processes, or on a Ray cluster.

`simulate` and `tournament` cut their seeds into chunks and hand them to a runner opened with
`open_backend`. Every runner returns the chunks' results in chunk order, whichever finished
first, so the caller merges them in the same order on every backend: the ``ray`` backend
gives exactly the figures of the ``local`` one for the same seeds.

- ``local`` with one worker plays in this process; with more, in a pool of processes started
  with ``spawn`` (the same on every platform), each loading the game once.
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

import multiprocessing
import os
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from trickrules.errors import MissingExtraError, TrickrulesError

__all__ = ["BACKENDS", "Runner", "open_backend"]

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


class _Pool:
    """Plays the chunks in worker processes on this machine."""

    def __init__(self, workers: int) -> None:
        self.parallelism = workers

    def map(self, load: Load, source: Any, play: Play, tasks: Sequence[Any], sizes: Sequence[int], progress: Progress | None) -> list[Any]:
        results: list[Any] = [None] * len(tasks)
        counter = _Counter(sizes, progress)
        context = multiprocessing.get_context("spawn")  # the same on every platform
        processes = min(self.parallelism, len(tasks))
        with context.Pool(processes, initializer=_start_process, initargs=(load, play, source)) as pool:
            for index, result in pool.imap_unordered(_play_in_process, list(enumerate(tasks))):
                results[index] = result
                counter.finished(index)
        return results


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


def _connect_ray(address: str | None, workers: int | None, error: type[TrickrulesError]) -> tuple[Any, bool]:
    """Ray, initialized: (the module, whether this call initialized it and must shut it down)."""
    ray = _import_ray()
    if ray.is_initialized():
        return ray, False
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
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as failure:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        first = (str(failure).strip().splitlines() or [type(failure).__name__])[0]
        raise error(f"cannot start or reach {where}: {first}") from None
    return ray, True


# ---------------------------------------------------------------- choosing


@contextmanager
def open_backend(
    backend: str, workers: int | None, address: str | None = None, error: type[TrickrulesError] = TrickrulesError
) -> Iterator[Runner]:
    """A runner of the backend ``local`` or ``ray``; bad input raises `error`.

    `workers` is the number of chunks played at once: for ``local`` the processes (None: 1,
    in this process), for ``ray`` the tasks in flight (None: every CPU of the cluster).
    `address` is for ``ray`` only. A Ray instance or connection opened here is closed at the end.
    """
    if backend not in BACKENDS:
        raise error(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise error(f"the number of workers must be at least 1, not {workers}")
    if backend == "local":
        if address is not None:
            raise error("an address is for the ray backend only: add --backend ray")
        yield _Here() if workers in (None, 1) else _Pool(workers or 1)
        return
    ray, opened = _connect_ray(address, workers, error)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield _Ray(ray, workers or max(1, cpus), error)
    finally:
        if opened:
            ray.shutdown()
