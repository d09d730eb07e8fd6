"""The package's layout: no import cycles, no oversized module, a pinned public API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import trickrules

pytestmark = pytest.mark.not_compiled  # it reads the source files

PACKAGE = Path(trickrules.__file__).resolve().parent
MAX_LINES = 520


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules `path` imports when it runs (anywhere but under ``if TYPE_CHECKING``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name}


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    paths = sorted(root.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): runtime_imports(p, modules) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = walk(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = walk(node)
            if cycle:
                return cycle
    return None


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_cycle_finder_names_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "trickrules"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "game.py").write_text("def f():\n    from .state import State\n")
    (pkg / "engine" / "state.py").write_text("from trickrules.engine.game import f\n")
    (pkg / "engine" / "views.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from trickrules.engine.state import State\n"
    )
    global PACKAGE
    saved, PACKAGE = PACKAGE, pkg
    try:
        graph = import_graph(pkg)
    finally:
        PACKAGE = saved
    assert graph["trickrules.engine.views"] == set()
    assert find_cycle(graph) == ["trickrules.engine.game", "trickrules.engine.state", "trickrules.engine.game"]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_size(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines; split it by idea"


def test_public_api_is_pinned() -> None:
    assert sorted(trickrules.__all__) == sorted(
        [
            "Agent", "Comparison", "Game", "GameInfo", "GreedyAgent", "IllegalActionError", "ISMCTSAgent", "Phase",
            "Problem", "RandomAgent", "SimulationError", "SimulationResult", "Ruleset", "SpecError",
            "State", "TERMINAL_PLAYER", "TrickrulesError", "__version__", "compare", "load_game",
            "load_ruleset", "load_ruleset_text", "make_agent", "play_games", "play_out", "simulate",
            "env", "single_agent_env", "tournament", "TournamentResult",
        ]
    )
    for name in trickrules.__all__:
        assert hasattr(trickrules, name), name


def test_entry_points() -> None:
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    target = project["scripts"]["trickrules"]
    module, _, function = target.partition(":")
    imported = __import__(module, fromlist=[function])
    assert callable(getattr(imported, function))
    from trickrules.__main__ import main

    assert main is getattr(imported, function)


TESTS = Path(__file__).resolve().parent


def test_test_modules_are_named_for_behaviour_and_import_no_other_test_module() -> None:
    """Shared fixtures live in helper modules (helpers.py, strategies.py, ...): a test module
    never imports another test module, and none is named after a round of mutation testing."""
    modules = {path.stem for path in TESTS.glob("test_*.py")}
    found = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name} imports {name}" for name in names if name in modules]
    assert found == []
    assert [name for name in modules if "mutant" in name] == []
