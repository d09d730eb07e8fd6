"""Hypothesis profiles for the test suite.

- ``default``: quick and derandomized: every run of the README's test command draws the same
  examples, so it passes (or fails) the same on every machine (the property tests take about
  a minute).
- ``ci``: the same as ``default``, loaded when the environment has ``CI=true``.
- ``thorough``: ten times the examples of ``default``, still reproducible; run it before a
  release or after touching the engine::

      pytest tests/test_properties.py tests/test_fuzz_loader.py tests/test_roundtrip.py \\
          --hypothesis-profile=thorough --hypothesis-show-statistics

- ``explore``: ten times the examples with fresh randomness on every run, to find what the
  fixed examples miss (``benchmarks/fuzz_specs.py`` explores the same way); whatever it finds
  becomes a regression example (a file in ``tests/broken`` or a test of its own).

``--hypothesis-profile=NAME`` always wins. Property tests size their example counts with
``strategies.scaled(n)``: ``n`` examples under ``default``, ``10 n`` under ``thorough``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

DEFAULT_EXAMPLES = 100
"""max_examples of the default profile; `strategies.scaled` counts relative to it."""

_COMMON = {
    "deadline": None,  # whole games per example: their time varies with the generated spec
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}

settings.register_profile("default", max_examples=DEFAULT_EXAMPLES, derandomize=True, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("ci", settings.get_profile("default"))
settings.register_profile("thorough", settings.get_profile("default"), max_examples=10 * DEFAULT_EXAMPLES)
settings.register_profile("explore", settings.get_profile("thorough"), derandomize=False)
# benchmarks/mutation.py: every mutant reruns the tests that reach it, so few, reproducible
# examples and no example database (the outcome must not depend on earlier runs)
settings.register_profile(
    "mutation", settings.get_profile("default"), max_examples=DEFAULT_EXAMPLES // 10, derandomize=True, database=None
)


def _profile_given(config: pytest.Config) -> bool:
    try:
        return bool(config.getoption("hypothesis_profile"))
    except ValueError:  # hypothesis' pytest plugin is not active
        return False


def pytest_configure(config: pytest.Config) -> None:
    """Load ``default`` (``ci`` under CI=true) unless --hypothesis-profile names one."""
    if not _profile_given(config):
        settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "default")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under benchmarks/mutation.py, empty every `functools` cache before a mutant's tests run.

    mutmut forks each mutant's run from a process that has already run the tests unmutated, so
    games, rulesets and compiled expressions cached there were built by the original code; a
    mutant of the loader or the compiler would be tested against them and wrongly survive.
    """
    if os.environ.get("MUTANT_UNDER_TEST") is None:
        return
    for cached in _caches():
        cached.cache_clear()


def _caches() -> list[Any]:
    """Every `functools` cache of the modules loaded so far."""
    import functools
    import gc

    return [cached for cached in gc.get_objects() if isinstance(cached, functools._lru_cache_wrapper)]


_STATS_CACHES: list[Any] = []
_STATS_MODULES = [0]  # how many modules were loaded when _STATS_CACHES was gathered


def pytest_runtest_setup(item: pytest.Item) -> None:
    """While benchmarks/mutation.py records which tests reach which function (mutmut's
    ``stats`` run), empty every `functools` cache before each test: a test that reads a game
    an earlier test cached reaches the loader and the compiler too, and must be recorded as
    reaching them, or no mutant of theirs would run it."""
    if os.environ.get("MUTANT_UNDER_TEST") != "stats":
        return
    if len(sys.modules) != _STATS_MODULES[0]:  # a module loaded since may bring caches
        _STATS_CACHES[:] = _caches()
        _STATS_MODULES[0] = len(sys.modules)
    for cached in _STATS_CACHES:
        cached.cache_clear()


FRONT_END = frozenset({
    # the loader, the schema and the compiler of specs (trickrules.spec, never compiled)
    "test_compile_contracts_and_options.py", "test_compile_counters_restrictions_rounds.py",
    "test_compile_deal_conditions_ranking.py", "test_compile_keys.py", "test_compiler_problems.py",
    "test_editor_schemas.py", "test_fuzz_loader.py", "test_loader.py", "test_messages.py",
    "test_roundtrip.py", "test_schema.py", "test_schema_messages.py",
    # the documentation, the package's layout, types and install, and the browser page's clicks
    "test_docs.py", "test_docs_run.py", "test_layout.py", "test_packaging.py", "test_typing.py",
    "test_serve_browser.py",
})
"""Test modules of code the compiled build leaves as it is, left out of the run against the
compiled engine (tests/test_compiled.py): it would run them exactly as the pure run does, for
about a third of the suite's time."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Against the compiled engine, leave out the tests that break the engine by patching its
    functions (`patches_engine`): compiled modules call each other directly, past any patch;
    and the tests of code the compiled build leaves as it is (`not_compiled`, e.g. the Ray
    backend), and the modules of `FRONT_END`. They run against the pure-Python engine, the
    reference, in every run."""
    from trickrules.tools.build_compiled import compiled

    if not compiled():
        return
    markers = ("patches_engine", "not_compiled")
    left = [item for item in items if any(item.get_closest_marker(m) for m in markers) or item.path.name in FRONT_END]
    if left:
        config.hook.pytest_deselected(items=left)
        gone = {id(item) for item in left}
        items[:] = [item for item in items if id(item) not in gone]
