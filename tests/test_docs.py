"""The documentation: its example specs play, its generated pages are complete, the site builds."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trickrules.engine.agents import RandomAgent
from trickrules.spec.checks import load_spec, spec_schema, spec_warnings
from trickrules.spec.compiler import compile_ruleset
from trickrules.tools.docgen import MARKER, REGION, expand, record_fields, refresh, regions, run_cli, spec_reference
from trickrules.errors import CODES, WARNINGS, SpecError
from trickrules.tools.examples import EXPECT_KEYS, SITUATION_KEYS, load_examples, run_examples
from trickrules.engine.game import load_game
from trickrules.tools.record import play_game

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.examples.yaml"))
PLAYABLE = sorted(
    p for p in EXAMPLES.rglob("*.yaml") if "errors" not in p.relative_to(EXAMPLES).parts and not p.name.endswith(".examples.yaml")
)
ERROR_SAMPLES = sorted((EXAMPLES / "errors").glob("tr[0-9][0-9][0-9]-*.yaml"))
ERRORS_PAGE = DOCS / "reference" / "errors.md"
SEEDS = (0, 1, 2)
# Codes shown without a sample file: TR103 needs a file over 5 MiB (made in a test below);
# TR303 is reserved, as language 1 has no key that names a section.
NO_SAMPLE = {"TR103", "TR303"}
# Codes that come from loading a game (a player count or an option value), not from reading,
# and the checks the compiler makes: expressions, the first leader's card, round phases, seats, teams.
FROM_COMPILE = {"TR307", "TR310", "TR140", "TR141", "TR142", "TR143", "TR315", "TR320", "TR321", "TR323", "TR324", "TR325",
                "TR350", "TR351", "TR352", "TR353", "TR354", "TR355", "TR360", "TR361", "TR362", "TR363", "TR364", "TR365",
                "TR366", "TR367", "TR368", "TR369"}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# ---------------------------------------------------------------- example specs


def test_there_are_tutorial_and_howto_specs() -> None:
    names = {_rel(p) for p in PLAYABLE}
    assert {f"docs/examples/tutorial/step{n}.yaml" for n in range(1, 5)} <= names
    assert any(name.startswith("docs/examples/howto/") for name in names)


@pytest.mark.parametrize("path", PLAYABLE, ids=[_rel(p) for p in PLAYABLE])
def test_example_spec_plays_to_the_end(path: Path) -> None:
    allowed = load_spec(path).data["players"]
    for players in allowed:
        game = load_game(path, players=players)
        for seed in SEEDS:
            agents = [RandomAgent(seed * 10 + seat) for seat in range(players)]
            state = play_game(game, seed, agents)
            assert state.is_terminal()
            assert len(state.round_results) == game.ruleset.rounds
            assert state.winners() and set(state.winners()) <= set(range(players))
            assert sum(len(r["points"]) for r in state.round_results) == players * game.ruleset.rounds


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[_rel(p) for p in EXAMPLE_FILES])
def test_docs_examples_file_passes(path: Path) -> None:
    spec = path.with_name(path.name.replace(".examples.yaml", ".yaml"))
    results = run_examples(spec, load_examples(path))
    assert results
    assert [r.line() for r in results if not r.passed] == []


def test_every_example_file_is_shown_on_a_page() -> None:
    text = "\n".join(p.read_text("utf-8") for p in PAGES)
    assert [_rel(p) for p in sorted(EXAMPLES.rglob("*.yaml")) if _rel(p) not in text] == []


def test_snippets_name_existing_files() -> None:
    for page in PAGES:
        for name in re.findall(r'^--8<-- "([^"]+)"', page.read_text("utf-8"), re.MULTILINE):
            assert (ROOT / name).is_file(), f"{_rel(page)} includes missing {name}"


# ---------------------------------------------------------------- generated parts


@pytest.mark.not_compiled  # the generated parts come from the schema and the specs' text
def test_every_marker_expands() -> None:
    for page in PAGES:
        text = page.read_text("utf-8")
        if MARKER.search(text):
            expanded = expand(text, ROOT)
            assert not MARKER.search(REGION.sub("", expanded)), _rel(page)
            assert "Traceback" not in expanded, _rel(page)


# The reference pages a README reader opens on a code host hold their generated text in the
# repository; argparse lays help out differently from Python 3.13, so the command help is
# compared on the versions the pages are written with.
FILLED_PAGES = ["docs/reference/spec.md", "docs/reference/limits.md", "docs/reference/cli.md"]


@pytest.mark.not_compiled
@pytest.mark.parametrize("name", FILLED_PAGES)
def test_reference_pages_hold_their_generated_text(name: str) -> None:
    text = (ROOT / name).read_text("utf-8")
    assert regions(text) and not MARKER.search(REGION.sub("", text)), f"{name}: every marker is filled in the page"
    for region in regions(text):
        assert region["body"].strip(), f"{name}: the region of {region[0].splitlines()[0]} is empty"


@pytest.mark.not_compiled
@pytest.mark.parametrize("name", FILLED_PAGES)
def test_generated_text_in_the_repository_is_current(name: str) -> None:
    text = (ROOT / name).read_text("utf-8")
    if sys.version_info >= (3, 13) and any(r["kind"] == "command" for r in regions(text)):
        pytest.skip("argparse lays help out differently from Python 3.13; the pages are written with 3.11 and 3.12")
    assert refresh(text, ROOT) == text, (
        f"{name} is stale: its generated text differs from what the code gives now; "
        "run `python -m trickrules.tools.docgen --write` and commit the page"
    )


def test_refresh_fills_a_region_and_expand_keeps_it() -> None:
    from trickrules.tools.docregions import FILLED_END, FILLED_START

    page = f"# Limits\n\n<!-- generate: limits -->\n{FILLED_START}\nold text\n{FILLED_END}\n\nafter\n"
    filled = refresh(page, ROOT)
    assert "old text" not in filled and "| Limit |" in filled and filled.endswith(f"{FILLED_END}\n\nafter\n")
    assert refresh(filled, ROOT) == filled  # filling again changes nothing
    assert expand(filled, ROOT) == filled  # the site is built from the text as it stands
    assert "| Limit |" in expand("<!-- generate: limits -->\n", ROOT)  # a marker alone is filled at build time


def test_unknown_marker_fails() -> None:
    with pytest.raises(ValueError, match="unknown generation marker"):
        expand("<!-- generate: no-such-thing -->\n", ROOT)


def test_commands_on_valid_doc_specs_succeed() -> None:
    """A command shown on a page about a valid spec must not print an error."""
    for page in PAGES:
        if page == ERRORS_PAGE:
            continue
        for match in MARKER.finditer(page.read_text("utf-8")):
            if match["kind"] not in ("command", "command-head"):
                continue
            args = shlex.split(match["args"])
            args = args[1:] if match["kind"] == "command-head" else args
            if "errors" in " ".join(args):
                continue
            code, text = run_cli(args, ROOT)
            assert code == 0, f"{_rel(page)}: trickrules {shlex.join(args)} exited {code}: {text[:300]}"


def _walk_schema(node: Any, path: str) -> list[str]:
    """JSON paths of every schema property (and $defs entry) without a description."""
    missing = []
    if isinstance(node, dict):
        for name, prop in (node.get("properties") or {}).items():
            if isinstance(prop, dict) and not prop.get("description"):
                missing.append(f"{path}.properties.{name}")
        for name, definition in (node.get("$defs") or {}).items():
            if not definition.get("description"):
                missing.append(f"{path}.$defs.{name}")
        for key, value in node.items():
            missing += _walk_schema(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            missing += _walk_schema(value, f"{path}[{index}]")
    return missing


def test_every_schema_property_has_a_description() -> None:
    assert _walk_schema(spec_schema(), "$") == []


def test_spec_reference_has_a_section_per_key() -> None:
    schema = spec_schema()
    reference = spec_reference(schema, ROOT)
    for key, prop in schema["properties"].items():
        assert f"{{ #{key} }}" in reference, key
        target = prop
        if "$ref" in prop:
            target = schema["$defs"][prop["$ref"].rsplit("/", 1)[-1]]
        for sub in target.get("properties") or {}:
            assert f"{{ #{key}-{sub} }}" in reference, f"{key}.{sub}"


def test_spec_reference_links_resolve() -> None:
    reference = spec_reference(spec_schema(), ROOT)
    anchors = set(re.findall(r"\{ #([a-z0-9_-]+) \}", reference))
    for target in re.findall(r"\]\(#([^)]+)\)", reference):
        assert target in anchors, target


def test_spec_reference_uses_the_schema_descriptions() -> None:
    schema = spec_schema()
    reference = spec_reference(schema, ROOT)
    for prop in schema["properties"].values():
        assert prop["description"] in reference


def test_spec_reference_page_is_generated() -> None:
    text = (DOCS / "reference" / "spec.md").read_text("utf-8")
    assert "<!-- generate: spec-reference -->" in text
    assert spec_reference(spec_schema(), ROOT) in text


def test_record_fields_cover_a_real_record() -> None:
    from trickrules.tools.record import build_record

    game = load_game(ROOT / "specs" / "kingdoms.yaml", players=3)
    record = build_record(play_game(game, 1, [RandomAgent(s) for s in range(3)]), ["random"] * 3)
    table = record_fields()
    for key in record:
        assert f"| `{key}` |" in table
    for key in record["rounds"][0]:
        assert f"| `rounds[].{key}` |" in table
    for key in record["rounds"][0]["tricks"][0]:
        assert f"| `rounds[].tricks[].{key}` |" in table
    assert "<!-- generate: record-fields -->" in (DOCS / "howto" / "records.md").read_text("utf-8")


# ---------------------------------------------------------------- the errors page


def _error_sections() -> dict[str, str]:
    """Code -> the text of its section on the errors page."""
    text = ERRORS_PAGE.read_text("utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)[1:]
    return {part.split()[0]: part for part in parts if re.match(r"TR\d{3} ", part)}


def test_every_code_has_a_section_with_its_title() -> None:
    sections = _error_sections()
    assert set(sections) == set(CODES)
    for code, title in CODES.items():
        heading = sections[code].splitlines()[0]
        assert heading == f"{code} {title} {{ #{code.lower()} }}"


def test_every_section_shows_its_code_being_emitted() -> None:
    for code, section in _error_sections().items():
        commands = [m for m in MARKER.finditer(section) if m["kind"] == "command"]
        if code in NO_SAMPLE:
            assert not commands, code
            continue
        assert commands, f"{code} has no sample command"
        for match in commands:
            _, text = run_cli(shlex.split(match["args"]), ROOT)
            assert f" {code} " in text, f"{code}: {text}"


@pytest.mark.parametrize("path", ERROR_SAMPLES, ids=[p.stem for p in ERROR_SAMPLES])
def test_error_sample_emits_its_code(path: Path) -> None:
    code = path.name[:5].upper()
    if code in WARNINGS:  # the spec loads; its first warning is the code
        warnings = spec_warnings(load_spec(path))
        assert [w.code for w in warnings][:1] == [code], "\n".join(map(str, warnings))
        assert f"docs/examples/errors/{path.name}" in ERRORS_PAGE.read_text("utf-8")
        return
    with pytest.raises(SpecError) as caught:
        source = load_spec(path, every_count=True)
        if code in FROM_COMPILE:
            compile_ruleset(source)
    assert caught.value.code == code, str(caught.value)
    assert f"docs/examples/errors/{path.name}" in ERRORS_PAGE.read_text("utf-8")


def test_every_code_has_a_sample_but_the_listed_ones() -> None:
    sampled = {p.name[:5].upper() for p in ERROR_SAMPLES}
    shown_by_command = {"TR101", "TR102", "TR310"}  # a missing file, a folder, a player count
    assert set(CODES) - sampled - shown_by_command == NO_SAMPLE


def test_file_too_large_emits_tr103(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("#" * (5 * 1024 * 1024 + 1), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        load_spec(big)
    assert caught.value.code == "TR103"


def test_player_count_sample_emits_tr310() -> None:
    with pytest.raises(SpecError) as caught:
        compile_ruleset(load_spec(EXAMPLES / "errors" / "base.yaml"), players=5)
    assert caught.value.code == "TR310"


# ---------------------------------------------------------------- other pages


def test_examples_format_page_lists_every_key() -> None:
    text = (DOCS / "howto" / "examples.md").read_text("utf-8")
    for key in SITUATION_KEYS | EXPECT_KEYS:
        assert re.search(rf"^`{key}`$", text, re.MULTILINE), key


def test_every_shipped_spec_has_a_rulebook_page() -> None:
    for spec in sorted((ROOT / "specs").glob("*.yaml")):
        if spec.name.endswith(".examples.yaml"):
            continue
        page = DOCS / "rulebooks" / f"{spec.stem}.md"
        text = page.read_text("utf-8")
        assert f"<!-- generate: rulebook specs/{spec.name} -->" in text
        assert "## Notes on this reading" in text


def test_api_pages_cover_the_public_modules() -> None:
    text = "\n".join(p.read_text("utf-8") for p in (DOCS / "api").glob("*.md"))
    for target in ("trickrules", "trickrules.engine.game.Game", "trickrules.engine.state.State", "trickrules.engine.game.load_game",
                   "trickrules.errors", "trickrules.engine.agents", "trickrules.tools.record", "trickrules.tools.examples"):  # fmt: skip
        assert re.search(rf"^::: {re.escape(target)}$", text, re.MULTILINE), target


@pytest.mark.not_compiled  # mkdocs builds the site from the sources
def test_site_builds_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "site" / "reference" / "spec" / "index.html").is_file()
