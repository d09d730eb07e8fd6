"""Packaging: the wheel carries the package and the shipped specs, runs the compiled engine where
this machine can compile it (pure Python where it cannot), installs outside the checkout and
plays every shipped spec by name, the same games as the pure engine of the checkout; the sdist
carries the tests and they run; no warnings.

The build runs the backend pyproject.toml names (setup.py: setuptools' hooks, compiling the
engine with mypyc for a wheel) in this environment, without network, on a copy of the source
tree. The fresh virtual environment gets the wheel with ``pip --no-deps``; its dependencies
(PyYAML, jsonschema) come from this environment through a ``.pth`` line, so nothing is
downloaded.
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
from trickrules.spec.shipped import shipped_specs

pytestmark = pytest.mark.not_compiled  # the wheel is built and installed from the sources, without the compiled build

SOURCE_ENTRIES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "MANIFEST.in", "mkdocs.yml", "trickrules", "specs", "tests", "docs", "examples", "benchmarks")
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
    result = _run([sys.executable, "-c", _BUILD, str(out)], cwd=source, timeout=900)
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return Built(wheel, sdist, result.stdout + result.stderr, source)


_BUILD = """
import importlib, sys, tomllib
system = tomllib.load(open("pyproject.toml", "rb"))["build-system"]
sys.path[:0] = system.get("backend-path", [])
backend = importlib.import_module(system["build-backend"])
out, settings = sys.argv[1], [{"engine": engine} for engine in sys.argv[2:3]]  # read first: setuptools changes sys.argv
backend.build_sdist(out)
backend.build_wheel(out, *settings)
"""
"""Builds an sdist and a wheel (of the engine named by a second argument) through the build
hooks pyproject.toml names, as pip would call them."""


def _cannot_compile() -> str:
    return str(_run([sys.executable, "-c", "import setup; print(setup.cannot_compile())"], cwd=ROOT).stdout.strip())


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
    # a compiler's command lines name warning flags (-Wno-unknown-warning-option): not warnings
    words = [" ".join(word for word in line.split() if not word.startswith("-W")) for line in built.log.splitlines()]
    warnings = [line for line in words if "warn" in line.lower()]
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


def test_the_wheel_carries_the_compiled_engine_where_this_machine_can_compile_it(built: Built) -> None:
    names = zipfile.ZipFile(built.wheel).namelist()
    compiled = sorted(name for name in names if name.endswith(".so") or name.endswith(".pyd"))
    reason = _cannot_compile()
    if reason:
        assert not compiled and built.wheel.name.endswith("-py3-none-any.whl"), reason
        return
    stems = {name.split(".")[0] for name in compiled}
    from trickrules.tools.compiled_engine import MODULES

    assert {f"trickrules/{module[: -len('.py')]}" for module in MODULES} <= stems
    assert "trickrules/compiled-from.txt" in names and "-py3-none-any" not in built.wheel.name


def test_a_wheel_built_without_a_c_compiler_is_pure_python(tmp_path: Path, built: Built) -> None:
    _run([sys.executable, "-c", _BUILD, str(tmp_path)], cwd=built.source, timeout=300, CC="no-such-compiler")
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [name for name in zipfile.ZipFile(wheel).namelist() if name.endswith((".so", ".pyd", "compiled-from.txt"))]


def test_a_wheel_asked_to_be_pure_is_pure_python(tmp_path: Path, built: Built) -> None:
    _run([sys.executable, "-c", _BUILD, str(tmp_path), "pure"], cwd=built.source, timeout=300)
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")


def test_an_unknown_engine_setting_stops_the_build_with_the_choices(tmp_path: Path, built: Built) -> None:
    result = subprocess.run([sys.executable, "-c", _BUILD, str(tmp_path), "fast"], cwd=built.source, env=_env(), capture_output=True, text=True, timeout=300)
    assert result.returncode != 0 and "engine='fast': the engine is one of compiled, pure" in result.stderr
    assert not list(tmp_path.glob("*.whl"))


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


def test_the_installed_wheel_says_which_engine_it_runs(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "trickrules"), "--version"], cwd=tmp_path).stdout
    engine = "pure-Python engine" if _cannot_compile() else "compiled engine"
    assert out.strip() == f"trickrules {trickrules.__version__} ({engine})"


_SAME_GAMES = """
import hashlib, random, trickrules
from trickrules.spec.shipped import shipped_specs
for spec in shipped_specs():
    game = trickrules.load_game(spec.name)
    digest = hashlib.sha256()
    for seed in range(4):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            action = rng.choice(actions)
            digest.update(repr((state.current_player(), actions, state.action_to_string(action))).encode())
            state.apply_action(action)
        digest.update(repr((state.returns(), state.observation_tensor(0))).encode())
    print(spec.name, digest.hexdigest()[:16])
"""
"""Four seeded random games of every shipped spec: each decision's player, legal actions and
action, and the returns and final observation tensor, digested per spec."""


def test_the_installed_wheel_plays_the_same_games_as_the_pure_engine(installed: Path, tmp_path: Path) -> None:
    wheel = _run([str(installed / "python"), "-c", _SAME_GAMES], cwd=tmp_path, timeout=600).stdout
    pure = _run([sys.executable, "-c", _SAME_GAMES], cwd=tmp_path, timeout=600, PYTHONPATH=str(ROOT)).stdout
    assert pure.split()[::2] == [spec.name for spec in shipped_specs()]
    assert wheel == pure


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
