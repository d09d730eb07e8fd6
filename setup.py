"""How trickrules is built: the build hooks pip calls (PEP 517) and setuptools' setup script.

A wheel (``pip install .``, ``pip wheel .``) carries the engine's hot modules compiled to C with
mypyc when this machine can compile them: mypy is among a wheel's build requirements, and a C
compiler and Python's headers must be there. Without them the wheel is pure Python and plays
the same games; ``pip install . -C engine=pure`` asks for that. A compile that starts and fails
stops the build with its messages: it is a fault to report, not a machine to work around.
An editable install (``pip install -e .``) stays pure; a checkout compiles its engine in place
with ``python -m trickrules.tools.build_compiled``, which runs this script's ``build_ext``.
``trickrules --version`` says which engine runs.

This one file has two roles. pip imports it as the build backend (``build-backend = "setup"``,
``backend-path = ["."]`` in pyproject.toml): setuptools' own hooks, with the compile's
requirements added to a wheel's and the engine chosen for the setup script. setuptools runs it
as the setup script (``__main__``), which adds the compiled modules to the build.
"""

from __future__ import annotations

import os
import runpy
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every other hook is setuptools' own)

HERE = Path(__file__).resolve().parent
ENGINE = "TRICKRULES_ENGINE"
"""Tells the setup script which engine to build: ``compiled`` (where it can) or ``pure``."""
COMPILE_REQUIRES = ["mypy>=1.5", "types-PyYAML", "types-jsonschema"]
"""What mypyc needs to compile the engine: mypy (mypyc is part of it) and the stubs of the
libraries the compiled modules import, which it type-checks."""
ENGINES = ("compiled", "pure")


def _engine(config_settings: dict[str, Any] | None) -> str:
    engine = str((config_settings or {}).get("engine", "compiled"))
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r}: the engine is one of {', '.join(ENGINES)}")
    return engine


def _theirs(config_settings: dict[str, Any] | None) -> dict[str, Any] | None:
    """The settings for setuptools: all but ``engine``, which is ours."""
    return None if config_settings is None else {k: v for k, v in config_settings.items() if k != "engine"}


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    wanted = COMPILE_REQUIRES if _engine(config_settings) == "compiled" else []
    return [*_setuptools.get_requires_for_build_wheel(_theirs(config_settings)), *wanted]


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None) -> str:
    os.environ[ENGINE] = _engine(config_settings)
    try:
        return _setuptools.build_wheel(wheel_directory, _theirs(config_settings), metadata_directory)
    finally:
        os.environ.pop(ENGINE, None)


# ---------------------------------------------------------------- the setup script


def cannot_compile() -> str:
    """Why this machine cannot compile the engine, or "" when it can."""
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "Python's C headers (Python.h) are missing"
    return ""


def _setup() -> None:
    from setuptools import setup
    from setuptools.command.build_py import build_py

    engine = runpy.run_path(str(HERE / "trickrules" / "tools" / "compiled_engine.py"))
    ext_modules: list[Any] = []
    if os.environ.get(ENGINE) == "compiled":
        reason = cannot_compile()
        if reason:
            print(f"trickrules: the engine stays pure Python: {reason}", file=sys.stderr)
        else:
            from mypyc.build import mypycify

            sources = [f"trickrules/{module}" for module in engine["MODULES"]]
            ext_modules = mypycify(sources, opt_level="3", group_name="trickrules.engine.compiled")

    class BuildPy(build_py):
        """Writes the digest of the sources compiled beside them (`check_build` reads it)."""

        def run(self) -> None:
            super().run()
            if ext_modules:
                digest = engine["sources_digest"](HERE / "trickrules")
                Path(self.build_lib, "trickrules", engine["DIGEST_FILE"]).write_text(digest + "\n")

    setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy})


if __name__ == "__main__":
    _setup()
