"""Build the optional compiled engine: the hot modules compiled to C extensions with mypyc.

The pure-Python modules stay the reference: the compiled ones are built from the same
sources, give the same games, and are used only where they exist (Python imports an extension
module before a source file of the same name). Run from a checkout, with mypy installed
(``pip install -e '.[compiled]'``) and a C compiler::

    python -m trickrules.tools.build_compiled          # build next to the sources
    python -m trickrules.tools.build_compiled --clean  # remove the built modules again

`compiled()` tells which engine a program runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from trickrules.tools.compiled_engine import DIGEST_FILE, MODULES, PACKAGE, check_build, compiled, sources_digest

__all__ = ["BuildError", "MODULES", "build", "built_files", "check_build", "clean", "compiled", "compiled_copy", "prune", "sources_digest"]



def built_files(root: Path = PACKAGE) -> list[Path]:
    """The extension modules a build left in the package."""
    return sorted(p for pattern in ("*.so", "*.pyd") for p in root.rglob(pattern) if p.is_file())


def clean(root: Path = PACKAGE) -> int:
    """Remove the built modules; the pure-Python engine runs again. Returns how many."""
    files = built_files(root)
    for path in files:
        path.unlink()
    (root / DIGEST_FILE).unlink(missing_ok=True)
    shutil.rmtree(root.parent / "build", ignore_errors=True)
    return len(files)


def build(root: Path = PACKAGE) -> None:
    """Compile `MODULES` of the package at `root` in place, through the checkout's setup.py
    (the same compile a wheel's build runs).

    Raises `BuildError` with mypyc's and the compiler's messages when the build fails.
    """
    script = root.parent / "setup.py"
    if not script.is_file():
        raise BuildError(f"{script} is missing: the engine is compiled from a checkout of trickrules")
    env = {**os.environ, "TRICKRULES_ENGINE": "compiled", "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")}
    done = subprocess.run([sys.executable, str(script), "-q", "build_ext", "--inplace"], cwd=root.parent, env=env, capture_output=True, text=True)
    shutil.rmtree(root.parent / "build", ignore_errors=True)
    if done.returncode == 0 and not built_files(root):
        raise BuildError(done.stderr.strip() or "nothing was compiled")
    if done.returncode == 0:
        (root / DIGEST_FILE).write_text(sources_digest(root) + "\n")
    if done.returncode != 0:
        messages = [line for line in (done.stdout + done.stderr).splitlines() if "error" in line.lower()]
        raise BuildError("\n".join(messages[-20:]) or f"mypyc exited with status {done.returncode}")


class BuildError(Exception):
    """The compiled engine could not be built (mypyc or the C compiler failed)."""


_SKIPPED = shutil.ignore_patterns(
    ".git", ".venv", ".cache", "build", "dist", "site", "__pycache__", "*.so", "*.pyd", ".hypothesis", ".*_cache",
    "compiled-from.txt",
)


def prune(cache: Path, keep: int = 3) -> list[Path]:
    """Remove all but the `keep` newest builds kept in `cache` (one per source digest); returns
    the removed ones."""
    stores = sorted(
        (p for p in cache.iterdir() if p.is_dir() and len(p.name) == 16 and all(c in "0123456789abcdef" for c in p.name)),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in stores[keep:]:
        shutil.rmtree(old, ignore_errors=True)
    return stores[keep:]


def compiled_copy(checkout: Path, cache: Path) -> Path:
    """A fresh copy of the checkout at `checkout` in `cache`, with the engine compiled.

    The compiled modules are kept in `cache` by the digest of the package's sources and built
    again only when a source changed. Returns the copy's root (put it first on the path).
    """
    tree = cache / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(checkout, tree, ignore=_SKIPPED)
    package = tree / PACKAGE.name
    store = cache / sources_digest(package)
    if not store.is_dir():
        build(package)
        partial = cache / f"{store.name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        for path in [*built_files(package), package / DIGEST_FILE]:
            target = partial / path.relative_to(tree)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
        partial.rename(store)
        prune(cache)
    else:
        for path in store.rglob("*"):
            if path.is_file():
                shutil.copy2(path, tree / path.relative_to(store))
    return tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trickrules.tools.build_compiled",
        description="Compile the engine's hot modules with mypyc, next to their sources (optional; "
        "the pure-Python engine is the reference and gives the same games).",
    )
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules instead")
    args = parser.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} compiled files")
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("mypyc is missing: pip install 'trickrules[compiled]' (mypy brings it)", file=sys.stderr)
        return 2
    print(f"compiling {len(MODULES)} modules with mypyc (about half a minute)...", flush=True)
    try:
        build()
    except BuildError as error:
        print(f"{error}\nthe build failed; the pure-Python engine still runs", file=sys.stderr)
        return 1
    print(f"compiled {len(MODULES)} modules; trickrules now runs compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
