"""Packaging: the wheel carries the package and the shipped specs, installs outside the checkout
and plays every shipped spec by name; the sdist carries the tests and they run; no warnings.

The build runs the setuptools backend (``setuptools.build_meta``, the one pyproject.toml names)
in this environment, without network, on a copy of the source tree. The fresh virtual
environment gets the wheel with ``pip --no-deps``; its dependencies (PyYAML, jsonschema) come
from this environment through a ``.pth`` line, so nothing is downloaded.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT

import trickrules

pytestmark = pytest.mark.not_compiled  # the wheel is built and installed from the sources, without the compiled build

SOURCE_ENTRIES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "mkdocs.yml", "trickrules", "specs", "tests", "docs", "examples", "benchmarks")
CACHES = ("__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis")
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", ".mypy_cache", ".pytest_cache", ".hypothesis", "*.egg-info", "build", "dist", "site")
SHIPPED = sorted(p.name[: -len(".yaml")] for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))


def _env(**extra: str) -> dict[str, str]:
    """This environment without what would make a child see the checkout or skip byte-compiling."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONHOME")}
    return env | extra


def _run(command: list[str], cwd: Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


@dataclass(frozen=True)
class Built:
    wheel: Path
    sdist: Path
    log: str
    source: Path  # the copy of the source tree they were built from


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """A wheel and an sdist built from a clean copy of the source tree."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    for name in SOURCE_ENTRIES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=JUNK)
        elif path.exists():
            shutil.copy2(path, source / name)
    out = work / "dist"
    script = "import sys; from setuptools import build_meta as b; out = sys.argv[1]; b.build_sdist(out); b.build_wheel(out)"
    result = _run([sys.executable, "-c", script, str(out)], cwd=source, timeout=300)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return Built(wheel, sdist, result.stdout + result.stderr, source)


# ---------------------------------------------------------------- metadata and contents


def test_the_package_list_names_every_subpackage() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    found = {
        ".".join(path.relative_to(ROOT).parts)
        for path in [ROOT / "trickrules", *(ROOT / "trickrules").rglob("*")]
        if path.is_dir() and path.name != "__pycache__" and any(path.glob("*.py"))
    }
    assert found | {"trickrules.schema", "trickrules.specs"} == listed


def test_the_build_gives_no_warnings(built: Built) -> None:
    warnings = [line for line in built.log.splitlines() if "warn" in line.lower()]
    assert not warnings, "\n".join(warnings)


def test_the_wheel_holds_the_package_the_schemas_and_every_shipped_spec(built: Built) -> None:
    names = set(zipfile.ZipFile(built.wheel).namelist())
    modules = {path.relative_to(built.source).as_posix() for path in (built.source / "trickrules").rglob("*.py")}
    assert modules <= names, sorted(modules - names)
    assert {"trickrules/py.typed", "trickrules/schema/spec.schema.json", "trickrules/schema/record.schema.json"} <= names
    specs = {f"trickrules/specs/{path.name}" for path in (built.source / "specs").glob("*.yaml")}
    assert specs <= names and any(name.endswith(".examples.yaml") for name in specs)
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)


def test_the_metadata_is_that_of_a_well_kept_library(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        text = wheel.read(next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    metadata = email.message_from_string(text)
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    classifiers = metadata.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Programming Language :: Python :: 3.11" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], "a license classifier besides the SPDX expression"
    assert "trick-taking" in (metadata["Keywords"] or "")
    requires = " ".join(metadata.get_all("Requires-Dist") or [])
    assert "pyyaml" in requires.lower() and "jsonschema" in requires
    assert (ROOT / "LICENSE").read_text("utf-8").startswith("MIT License")


# ---------------------------------------------------------------- the wheel, installed


@pytest.fixture(scope="module")
def installed(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment outside the checkout with the wheel installed; returns its bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(built.wheel)], cwd=venv)
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, env=_env()
    ).stdout.strip()
    # the dependencies, from this environment (after the venv's own packages: the wheel wins)
    Path(purelib, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv / "bin"


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "python"), "-c", "import trickrules; print(trickrules.__file__)"], cwd=tmp_path).stdout
    assert Path(out.strip()).is_relative_to(installed.parent) and not Path(out.strip()).is_relative_to(ROOT)


def test_trickrules_list_names_every_shipped_spec_with_title_and_players(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "trickrules"), "list"], cwd=tmp_path).stdout
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert set(SHIPPED) <= set(lines)
    assert "Kingdoms" in lines["kingdoms"] and "2 to 4 players" in lines["kingdoms"]
    assert "Hearts" in lines["hearts"] and "4 players" in lines["hearts"]
    assert str(installed.parent) in out  # where to copy a spec from


@pytest.mark.parametrize("name", SHIPPED)
def test_the_installed_wheel_plays_every_shipped_spec_by_name(installed: Path, tmp_path: Path, name: str) -> None:
    out = _run([str(installed / "trickrules"), "play", name, "--seed", "1", "--json", "game.json"], cwd=tmp_path).stdout
    assert out.startswith("game.json: ") and "winners P" in out
    assert "verified" in _run([str(installed / "python"), "-m", "trickrules", "replay", "game.json"], cwd=tmp_path).stdout
    script = (
        "import sys, trickrules\n"
        "game = trickrules.load_game(sys.argv[1])\n"
        "state = game.new_initial_state(seed=2)\n"
        "while not state.is_terminal():\n"
        "    state.apply_action(state.legal_actions()[0])\n"
        "print(game.ruleset.id, state.winners())\n"
    )
    spec_id = trickrules.load_ruleset(ROOT / "specs" / f"{name}.yaml").id
    assert _run([str(installed / "python"), "-c", script, name], cwd=tmp_path).stdout.startswith(f"{spec_id} [")


def test_the_installed_wheel_runs_the_rulebook_examples_it_ships(installed: Path, tmp_path: Path) -> None:
    script = "from trickrules.spec.shipped import shipped_specs; print([s for s in shipped_specs() if s.name == 'meadows'][0].examples)"
    examples = _run([str(installed / "python"), "-c", script], cwd=tmp_path).stdout.strip()
    assert Path(examples).is_relative_to(installed.parent)
    out = _run([str(installed / "trickrules"), "check", examples], cwd=tmp_path).stdout
    assert out.rstrip().endswith("0 failed")


# ---------------------------------------------------------------- the sdist


def test_the_sdist_carries_the_tests_and_what_they_read(built: Built) -> None:
    with tarfile.open(built.sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    for folder in ("tests", "specs", "docs", "examples"):
        files = {
            path.relative_to(built.source).as_posix()
            for path in (built.source / folder).rglob("*")
            if path.is_file() and not any(part in CACHES for part in path.parts)
        }
        assert len(files) > 3, folder
        assert files <= names, sorted(files - names)[:5]
    assert {"LICENSE", "README.md", "mkdocs.yml", "pyproject.toml"} <= names


def test_the_sdist_tests_run(built: Built, tmp_path: Path) -> None:
    with tarfile.open(built.sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (root,) = tmp_path.iterdir()
    python = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    collected = _run([*python, "--collect-only"], cwd=root, PYTHONPATH=str(root)).stdout
    assert " collected" in collected or "tests collected" in collected
    ran = _run([*python, "tests/test_state.py", "tests/test_cli.py"], cwd=root, timeout=300, PYTHONPATH=str(root)).stdout
    assert " passed" in ran and "failed" not in ran
