"""The spec loader: every broken spec fails with the expected first problem, at its line."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trickrules.spec.checks import check_spec, load_spec, load_spec_text, option_problems, spec_warnings
from trickrules.errors import CODES, WARNINGS, IllegalActionError, Problem, SpecError
from trickrules.spec.source import json_path, read_spec, read_spec_text

pytestmark = pytest.mark.not_compiled  # the loader and the checks are never compiled

TESTS = Path(__file__).parent
BROKEN = sorted((TESTS / "broken").glob("*.yaml"))
SPECS = [TESTS.parent / "specs" / f"{name}.yaml" for name in ("kingdoms", "meadows")]
KINGDOMS = TESTS.parent / "specs" / "kingdoms.yaml"
EXPECT = re.compile(r"^# expect: (TR\d{3}) (\d+) (\d+)(?: (?!(?:error|warning)\s*$)(\S+))?(?: (error|warning))?\s*$")
"""``# expect: CODE LINE COLUMN [FILE] [SEVERITY]``: FILE for a problem in a parent spec,
SEVERITY ``error`` (the default) or ``warning`` (a dead rule: the spec loads)."""

# Codes the tests below produce from files made in tmp_path rather than tests/broken.
FILE_CODES = {"TR101", "TR102", "TR103", "TR104"}
# Codes the loader never emits: TR310 (a player count chosen at compile time) and TR307 for
# overrides come from the compiler; TR303 is reserved, as language 1 never names a section.
NOT_FROM_LOADER = {"TR310", "TR303"}


def _expectation(path: Path) -> tuple[str, int, int, str | None, str]:
    """Return the code, line, column, optional file and severity of a broken spec's first problem."""
    first_line = path.read_text("utf-8").splitlines()[0] if path.stat().st_size else ""
    match = EXPECT.match(first_line)
    assert match, f"{path.name} lacks a '# expect: TRxxx LINE COLUMN' first line"
    return match[1], int(match[2]), int(match[3]), match[4], match[5] or "error"


def _problems(path: Path | str) -> tuple[Problem, ...]:
    """Return the problems loading a spec raises or, for a spec that loads, its warnings
    (failing if it loads without any)."""
    try:
        source = load_spec(path)
    except SpecError as error:
        return error.problems
    with_options = option_problems(source)  # as `trickrules validate` reports them
    if with_options:
        return tuple(with_options)
    warnings = tuple(spec_warnings(source))
    assert warnings, f"{path} loads without problems or warnings"
    return warnings


def test_there_are_enough_broken_specs() -> None:
    assert len(BROKEN) >= 35
    assert all(re.match(r"^\d{3}-[a-z0-9-]+\.yaml$", path.name) for path in BROKEN)


@pytest.mark.parametrize("path", BROKEN, ids=[path.stem for path in BROKEN])
def test_broken_spec_first_problem(path: Path) -> None:
    code, line, column, file, severity = _expectation(path)
    first = _problems(path)[0]
    assert (first.code, first.line, first.column, first.severity) == (code, line, column, severity), str(first)
    assert Path(first.file).as_posix().endswith(file or path.name)
    assert first.is_warning == (code in WARNINGS)


@pytest.mark.parametrize("path", BROKEN, ids=[path.stem for path in BROKEN])
def test_every_problem_is_well_formed(path: Path) -> None:
    for problem in _problems(path):
        assert problem.code in CODES
        assert problem.line >= 1 and problem.column >= 1
        assert problem.path.startswith("$")
        assert problem.message and "\n" not in problem.message
        assert str(problem).startswith(f"{problem.file}:{problem.line}:{problem.column}: {problem.code} ")


def test_every_code_is_produced() -> None:
    produced = {problem.code for path in BROKEN for problem in _problems(path)} | FILE_CODES
    assert NOT_FROM_LOADER <= set(CODES)
    assert set(CODES) - produced - NOT_FROM_LOADER == set()


@pytest.mark.parametrize("path", SPECS, ids=[path.stem for path in SPECS])
def test_shipped_spec_loads_without_problems(path: Path) -> None:
    assert check_spec(read_spec(path)) == []
    assert load_spec(path).data["id"] == path.stem


def test_unknown_key_suggests_the_close_one() -> None:
    first = _problems(TESTS / "broken" / "001-trumpz-typo.yaml")[0]
    assert first.code == "TR201"
    assert first.message.endswith("did you mean 'trumps'?")
    assert (first.line, first.column, first.path) == (17, 1, "$.trumpz")


def test_missing_file(tmp_path: Path) -> None:
    first = _problems(tmp_path / "nothing.yaml")[0]
    assert (first.code, first.line, first.column) == ("TR101", 1, 1)


def test_directory_is_not_a_spec(tmp_path: Path) -> None:
    assert _problems(tmp_path)[0].code == "TR102"


def test_file_too_large(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# padding\n" * 600_000)
    assert _problems(big)[0].code == "TR103"


def test_binary_file(tmp_path: Path) -> None:
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"id: x\ntitle: \x00\x01\x02\n")
    first = _problems(binary)[0]
    assert (first.code, first.line, first.column) == ("TR104", 2, 8)


def test_file_not_utf8(tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("id: x\ntitle: Café\n".encode("latin-1"))
    first = _problems(latin)[0]
    assert (first.code, first.line, first.column) == ("TR104", 2, 11)


def test_alias_bomb_stops_instead_of_expanding() -> None:
    # Expanded, the document has about 10**9 nodes: without the guard this would run for hours;
    # TR107 says the node budget stopped it (its speed is measured in benchmarks/bench_load.py).
    first = _problems(TESTS / "broken" / "008-billion-laughs.yaml")[0]
    assert first.code == "TR107" and "more than 100000 nodes" in first.message


def test_deep_flow_nesting_is_refused() -> None:
    with pytest.raises(SpecError) as caught:
        load_spec_text("a: " + "[" * 3000 + "]" * 3000 + "\n")
    assert caught.value.code == "TR107"


def test_locations_point_at_keys_and_items() -> None:
    source = read_spec(KINGDOMS)
    assert source.locate(()) == (str(KINGDOMS), 1, 1)
    assert source.locate(("deal", "hand_size")) == (str(KINGDOMS), 29, 3)
    assert source.locate(("deck", "suits", 2)) == (str(KINGDOMS), 24, 24)
    assert source.locate(("deal", "hand_size", "no", "such")) == source.locate(("deal", "hand_size"))
    assert source.locate(("nowhere",)) == (str(KINGDOMS), 1, 1)


def test_integer_keys_become_text() -> None:
    source = read_spec(KINGDOMS)
    assert source.data["tokens"]["peasant"]["supply"] == {"by_players": {"2": 12, "3": 36, "4": 36}}


def test_json_path() -> None:
    assert json_path(("deck", "suits", 2)) == "$.deck.suits[2]"
    assert json_path(()) == "$"
    assert json_path(("tokens", "peasant", "supply", "by_players", "3")) == "$.tokens.peasant.supply.by_players['3']"
    assert json_path(("rewards", 0, "it's")) == "$.rewards[0]['it\\'s']"


def test_digest_is_over_the_raw_bytes() -> None:
    source = read_spec(KINGDOMS)
    assert source.digest == hashlib.sha256(KINGDOMS.read_bytes()).hexdigest()
    assert source.files == (str(KINGDOMS),)


def test_plain_dates_stay_text() -> None:
    source = read_spec_text("version: 2024-01-01\n")
    assert source.data == {"version": "2024-01-01"}


# --- overlays ---------------------------------------------------------------------


def _overlay(tmp_path: Path, body: str, name: str = "overlay.yaml") -> Path:
    """Write an overlay of kingdoms (the shipped spec, by name) and return its path."""
    path = tmp_path / name
    path.write_text(f"extends: kingdoms\n{body}", "utf-8")
    return path


def test_overlay_changes_one_rule(tmp_path: Path) -> None:
    path = _overlay(tmp_path, "id: kingdoms-short\ndeal:\n  hand_size: 8\n")
    assert len(path.read_text("utf-8").splitlines()) <= 5
    source = load_spec(path)
    assert source.data["deal"]["hand_size"] == 8
    assert source.data["deal"]["dealer"] == {"first": 0, "rotation": 1}
    assert "extends" not in source.data
    assert source.files == (str(path), str(KINGDOMS.resolve()))
    assert source.locate(("deal", "hand_size")) == (str(path), 4, 3)
    assert source.locate(("deal", "dealer"))[0] == str(KINGDOMS.resolve())
    both = path.read_bytes() + KINGDOMS.read_bytes()
    assert source.digest == hashlib.sha256(both).hexdigest()


def test_overlay_null_deletes_and_lists_replace(tmp_path: Path) -> None:
    body = "tokens: {peasant: {when_no_space: null}}\nplayers: [3]\n"
    source = load_spec(_overlay(tmp_path, body))
    assert "when_no_space" not in source.data["tokens"]["peasant"]
    assert source.data["players"] == [3]
    assert ("players", 2) not in source.locations
    assert source.locate(("players", 0))[0] == str(tmp_path / "overlay.yaml")


def test_overlay_problem_points_into_the_overlay(tmp_path: Path) -> None:
    path = _overlay(tmp_path, "rounds: {option: turns}\n")
    first = _problems(path)[0]
    assert (first.code, first.file, first.line) == ("TR304", str(path), 2)


def test_overlay_of_an_overlay(tmp_path: Path) -> None:
    middle = _overlay(tmp_path, "deal:\n  hand_size: 8\n", "middle.yaml")
    top = tmp_path / "top.yaml"
    top.write_text("extends: middle.yaml\ntitle: Small Kingdoms\n", "utf-8")
    source = load_spec(top)
    assert (source.data["title"], source.data["deal"]["hand_size"]) == ("Small Kingdoms", 8)
    assert source.files == (str(top), str(middle), str(KINGDOMS.resolve()))


def test_extends_cycle_between_two_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n", "utf-8")
    (tmp_path / "b.yaml").write_text("id: b\nextends: a.yaml\n", "utf-8")
    first = _problems(tmp_path / "a.yaml")[0]
    assert (first.code, first.file, first.line) == ("TR401", str(tmp_path / "b.yaml"), 2)


def test_extends_missing_parent_points_at_extends(tmp_path: Path) -> None:
    path = tmp_path / "orphan.yaml"
    path.write_text("id: orphan\n\nextends: gone.yaml\n", "utf-8")
    first = _problems(path)[0]
    assert (first.code, first.line, first.column, first.path) == ("TR402", 3, 1, "$.extends")


# --- errors -----------------------------------------------------------------------


def test_spec_error_sorts_and_exposes_the_first_problem() -> None:
    late = Problem("TR201", "unknown key 'x'", "a.yaml", 9, 1, "$.x")
    early = Problem("TR202", "missing required key 'id'", "a.yaml", 1, 1, "$")
    error = SpecError([late, early])
    assert error.problems == (early, late)
    assert (error.code, error.line, error.column, error.path) == ("TR202", 1, 1, "$")
    assert str(error).splitlines() == [str(early), str(late)]


def test_illegal_action_error_quotes_everything() -> None:
    error = IllegalActionError(7, [1, 2], "hand: red-5", "must follow the led suit")
    assert isinstance(error, ValueError)
    assert "7" in str(error) and "[1, 2]" in str(error) and "must follow" in str(error)
    assert error.legal_actions == (1, 2) and error.state_text == "hand: red-5"


def test_codes_are_well_formed() -> None:
    assert all(re.match(r"^TR[1-5]\d\d$", code) and title for code, title in CODES.items())
    assert WARNINGS == {code for code in CODES if code.startswith("TR5")}


# --- fuzz: only SpecError may escape ------------------------------------------------

_KINGDOMS_DATA = read_spec(KINGDOMS).data
_ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.floats(allow_nan=False), st.text(max_size=6),
    st.lists(st.integers(-1, 5), max_size=3), st.dictionaries(st.sampled_from(["option", "x", "3"]), st.integers(), max_size=2),
)


def _paths(value: object, path: tuple = ()) -> list[tuple]:
    """Return every path into nested data."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


_ALL_PATHS = _paths(_KINGDOMS_DATA)[1:]


def _replaced(data: object, path: tuple, value: object) -> object:
    """Return a copy of data with the value at path replaced."""
    if not path:
        return value
    copy = dict(data) if isinstance(data, dict) else list(data)  # type: ignore[call-overload]
    copy[path[0]] = _replaced(copy[path[0]], path[1:], value)
    return copy


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(_ALL_PATHS), _ODD_VALUES), min_size=1, max_size=3))
def test_fuzzed_specs_raise_only_spec_errors(changes: list[tuple[tuple, object]]) -> None:
    data: object = _KINGDOMS_DATA
    for path, value in changes:
        try:
            data = _replaced(data, path, value)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        load_spec_text(yaml.safe_dump(data), "fuzz.yaml")
    except SpecError as error:
        assert all(problem.code in CODES and problem.line >= 1 for problem in error.problems)


def test_pass_direction_case_without_directions_is_a_spec_error() -> None:
    """An option case that leaves a pass phase's `to` without directions (found by the loader
    fuzz test) is a problem of the spec, not a KeyError."""
    text = (Path(__file__).resolve().parent.parent / "specs" / "hearts.yaml").read_text("utf-8").replace("rotate: {by_round: [left, right, across, none]}", "rotate: {}")
    with pytest.raises(SpecError) as raised:
        load_spec_text(text, "hearts.yaml", every_count=True)
    assert raised.value.code == "TR204" and "pass direction" in raised.value.message
