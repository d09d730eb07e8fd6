"""The optional compiled engine (mypyc) passes the same test suite as the pure-Python one.

The test copies the checkout to ``.cache/compiled``, compiles the engine there (the compiled
modules are kept by the digest of the sources and built again only when a source changed) and
runs the suite in the copy, in a child process. The run against the pure-Python engine is
the one this test is part of; the tests that break the engine by patching it, and the modules
that test only code the build leaves as it is (the spec loader and compiler, the docs, the
package's layout and install: ``conftest.FRONT_END``), run only there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from trickrules.tools.build_compiled import compiled, compiled_copy

ROOT = Path(__file__).resolve().parent.parent


def _can_build() -> str:
    """Why the compiled engine cannot be built here, or "" when it can."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypyc is not installed (the compiled or typecheck extra brings it)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on this machine"
    return ""


def test_the_suite_passes_against_the_compiled_engine() -> None:
    if compiled():
        return  # this run is the one against the compiled engine
    reason = _can_build()
    if reason:
        pytest.skip(f"the compiled engine cannot be built: {reason}")
    tree = compiled_copy(ROOT, ROOT / ".cache" / "compiled")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    check = subprocess.run(
        [sys.executable, "-c", "from trickrules.tools.build_compiled import compiled; print(compiled())"],
        cwd=tree, env=env, capture_output=True, text=True,
    )
    assert check.stdout.strip() == "True", f"the copy does not run compiled: {check.stdout}{check.stderr}"
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--ignore=tests/test_compiled.py"],
        cwd=tree, env=env, capture_output=True, text=True,
    )
    tail = "\n".join((run.stdout + run.stderr).splitlines()[-40:])
    assert run.returncode == 0, f"the suite fails against the compiled engine:\n{tail}"
    assert " passed" in tail and " failed" not in tail, tail


def test_a_compiled_engine_built_from_other_sources_is_warned_about(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    from trickrules.tools import compiled_engine as build_compiled

    (tmp_path / "engine.py").write_text("x = 1\n")
    monkeypatch.setattr(build_compiled, "compiled", lambda: True)
    (tmp_path / build_compiled.DIGEST_FILE).write_text(build_compiled.sources_digest(tmp_path) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build_compiled.check_build(tmp_path)  # built from these sources: nothing to say
    (tmp_path / "engine.py").write_text("x = 2\n")
    with pytest.warns(RuntimeWarning, match="built from other sources"):
        build_compiled.check_build(tmp_path)
    (tmp_path / build_compiled.DIGEST_FILE).unlink()
    with pytest.warns(RuntimeWarning, match="rebuild"):
        build_compiled.check_build(tmp_path)
    monkeypatch.setattr(build_compiled, "compiled", lambda: False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build_compiled.check_build(tmp_path)  # the pure-Python engine: nothing to check


def test_only_the_newest_builds_are_kept(tmp_path: Path) -> None:
    import time

    from trickrules.tools.build_compiled import prune

    names = [f"{n:016x}" for n in range(5)]
    for number, name in enumerate(names):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (time.time() + number, time.time() + number))
    (tmp_path / "tree").mkdir()  # the copy itself is no build
    removed = prune(tmp_path, keep=3)
    assert sorted(p.name for p in removed) == names[:2]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[2:] + ["tree"])
