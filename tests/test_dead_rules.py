"""What `validate` catches that can never happen: range errors, limits, warnings for dead
rules, did-you-mean for every undefined name, messages without regular expressions, overlays
that change a value's type, and examples files read through the spec loader's guards.

The broken and dead-rule specs themselves (code, line, column, severity) are in tests/broken
(200 and up) and checked by test_loader.py; the property that a warning is never wrong is in
test_dead_rules_property.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from trickrules.engine.game import load_game
from trickrules.errors import CODES, WARNINGS, Problem, SpecError
from trickrules.spec.checks import _parsed_schema, load_spec, load_spec_text, pattern_words, spec_warnings
from trickrules.spec.limits import MAX_ROUNDS
from trickrules.spec.names import closest, did_you_mean
from trickrules.tools.examples import load_examples

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"
TINY = BROKEN / "parents" / "tiny.yaml"
SHIPPED = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
EXAMPLES = sorted((ROOT / "specs").glob("*.examples.yaml"))
KNOWN_DEAD: dict[str, list[str]] = {}
"""Dead rules known in shipped specs (none: kingdoms' measure 'peasants', read by no rule,
is marked report: true, kept for the round breakdowns)."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "trickrules.tools.cli", *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _overlay(tmp_path: Path, body: str, name: str = "spec.yaml") -> Path:
    path = tmp_path / name
    (tmp_path / TINY.name).write_bytes(TINY.read_bytes())  # a parent lies in the folder of the spec loaded
    path.write_text(f"extends: {TINY.name}\n{body}", "utf-8")
    return path


def _first(path: Path) -> Problem:
    with pytest.raises(SpecError) as caught:
        load_spec(path, every_count=True)
    return caught.value.first


# ---------------------------------------------------------------- shipped specs


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_specs_have_no_dead_rules(path: Path) -> None:
    warnings = spec_warnings(load_spec(path))
    assert [w.code for w in warnings] == KNOWN_DEAD.get(path.stem, []), "\n".join(map(str, warnings))


def test_validate_strict_passes_the_shipped_examples_and_the_clean_specs() -> None:
    clean = [str(p) for p in SHIPPED if p.stem not in KNOWN_DEAD]
    result = run("validate", "--strict", *clean, *map(str, EXAMPLES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    assert result.stdout.count(": ok: ") == len(clean) + len(EXAMPLES)


# ---------------------------------------------------------------- validate and --strict


def test_validate_prints_warnings_and_exits_0() -> None:
    sample = "docs/examples/errors/tr501-dead-reward.yaml"
    result = run("validate", sample)
    assert result.returncode == 0
    assert result.stdout.startswith(f"{sample}: ok: ") and "1 warning: rules that can never apply" in result.stdout
    (line,) = result.stderr.splitlines()
    assert re.match(rf"^{re.escape(sample)}:\d+:\d+: TR501 warning: reward 'blue trump' can never be given", line)


def test_validate_strict_fails_on_warnings_with_exit_1() -> None:
    result = run("validate", "--strict", "docs/examples/errors/tr505-unused-measure.yaml", str(ROOT / "specs" / "hearts.yaml"))
    assert result.returncode == 1
    assert "not strict" in result.stdout and "TR505 warning:" in result.stderr
    assert "hearts.yaml: ok:" in result.stdout


def test_an_error_still_wins_over_a_warning() -> None:
    result = run("validate", "--strict", "docs/examples/errors/tr505-unused-measure.yaml", "docs/examples/errors/tr330-rank-not-in-deck.yaml")
    assert result.returncode == 2


def test_every_warning_code_is_a_tr5xx_code_with_warning_severity() -> None:
    assert WARNINGS == {code for code in CODES if code.startswith("TR5")} and len(WARNINGS) == 7
    for path in sorted(BROKEN.glob("2[0-9][0-9]-*.yaml")) + [BROKEN / "312-turned-up-from-a-dealt-out-deck.yaml"]:
        try:
            problems = [*spec_warnings(load_spec(path))]
        except SpecError as error:
            problems = list(error.problems)
        for problem in problems:
            assert problem.is_warning == (problem.code in WARNINGS), str(problem)
            assert (" warning: " in str(problem)) == problem.is_warning


def test_loading_a_game_does_not_warn() -> None:
    game = load_game(ROOT / "docs" / "examples" / "errors" / "tr502-dead-ranking-step.yaml")
    assert game.ruleset.ranking[-1].kind == "highest"


# ---------------------------------------------------------------- did you mean


UNDEFINED = {
    "TR141": ("056-expression-unknown-name-did-you-mean.yaml", "broken"),
    "TR301": ("224-undefined-suit-did-you-mean.yaml", "blue"),
    "TR302": ("225-undefined-attribute-did-you-mean.yaml", "crowns"),
    "TR304": ("226-undefined-option-did-you-mean.yaml", "rounds"),
    "TR308": ("227-undefined-token-did-you-mean.yaml", "pearl"),
    "TR309": ("228-undefined-measure-did-you-mean.yaml", "tricks"),
    "TR315": ("229-undefined-card-did-you-mean.yaml", "red-1"),
    "TR350": ("341-holders-of-unknown-card.yaml", "red-4"),
    "TR367": ("378-call-unknown-card.yaml", "red-7"),
}
"""Every code of an undefined name, a broken spec that has one, and the name suggested.
TR303 (undefined section) is reserved: no key names a section yet."""


def test_every_undefined_name_code_is_listed() -> None:
    undefined = {code for code, title in CODES.items() if title.startswith("undefined") or code == "TR141"}
    assert undefined - {"TR303", "TR325"} == set(UNDEFINED)  # TR325: the test just below


@pytest.mark.parametrize("code", sorted(UNDEFINED))
def test_an_undefined_name_suggests_the_closest(code: str) -> None:
    name, suggestion = UNDEFINED[code]
    first = _first(BROKEN / name)
    assert first.code == code
    assert f"did you mean '{suggestion}'?" in first.message


def test_an_undefined_contract_suggests_the_closest(tmp_path: Path) -> None:
    body = ("language: 2\ncontracts:\n  grand: {trumps: [red]}\n  solo: {trumps: [blue]}\n"
            "round: [deal, {declare: {contracts: [grand, sollo]}}, play, score]\n")
    first = _first(_overlay(tmp_path, body))
    assert first.code == "TR325" and "no contract 'sollo'; did you mean 'solo'?" in first.message


def test_an_unknown_option_given_at_load_time_suggests_the_closest() -> None:
    with pytest.raises(SpecError) as caught:
        load_game(ROOT / "specs" / "meadows.yaml", options={"trump": "red"})
    assert caught.value.code == "TR304" and "did you mean 'trumps'?" in caught.value.message


def test_a_case_that_is_not_a_choice_suggests_the_closest() -> None:
    first = _first(BROKEN / "210-option-case-not-a-choice.yaml")
    assert first.code == "TR331" and "did you mean 'strict'?" in first.message


def test_closest_names() -> None:
    assert closest("Blue", ["red", "blue"]) == "blue"
    assert closest("perl", ["pearl", "peasant"]) == "pearl"
    assert closest("xyz", ["red", "blue"]) is None
    assert did_you_mean("xyz", []) == ""


# ---------------------------------------------------------------- no regular expressions


def _patterns(node: object) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                found.add(value)
            found |= _patterns(value)
    elif isinstance(node, list):
        for value in node:
            found |= _patterns(value)
    return found


def test_every_schema_pattern_has_words() -> None:
    fallback = pattern_words("^no-such-pattern$")
    for pattern in _patterns(_parsed_schema()):
        assert pattern_words(pattern) != fallback, pattern
        assert not re.search(r"[\^\$\[\]\\]", pattern_words(pattern)), pattern


REGEX = re.compile(r"\^\[|\]\*\$|\]\+\$|\[a-z|\[0-9|\\d")


@pytest.mark.parametrize(
    "body",
    [
        "id: My Game\n",
        "deck:\n  rank_names: {x1: ace}\n",
        "options:\n  Rounds: {type: integer, default: 1}\n",
        "deck:\n  cards:\n    - {id: 'red 99', faces: [{suit: red, rank: 99}]}\n",
        "language: 2\nround: [deal, {bid: {values: {from: 0, to: 3}, names: {one: x}}}, play, score]\n",
        "language: 2\nround: [deal, {bid: {values: {from: 0, to: 3}, names: {1: One}}}, play, score]\n",
    ],
)
def test_no_message_shows_a_regular_expression(tmp_path: Path, body: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_spec(_overlay(tmp_path, body))
    for problem in caught.value.problems:
        assert not REGEX.search(problem.message), str(problem)


def test_no_broken_spec_message_shows_a_regular_expression() -> None:
    for path in sorted(BROKEN.glob("*.yaml")):
        try:
            problems = list(spec_warnings(load_spec(path)))
        except SpecError as error:
            problems = list(error.problems)
        for problem in problems:
            assert not REGEX.search(problem.message), str(problem)


# ---------------------------------------------------------------- overlays


def test_an_overlay_that_changes_a_type_names_the_parents_line(tmp_path: Path) -> None:
    first = _first(_overlay(tmp_path, "deal: 6\n"))
    assert first.code == "TR203" and (first.line, first.column) == (2, 1)
    assert f"the overlay replaces a mapping that its parent sets at {tmp_path / TINY.name}:8:1" in first.message


def test_an_overlay_of_an_overlay_names_the_grandparent(tmp_path: Path) -> None:
    _overlay(tmp_path, "title: Middle\n", "middle.yaml")
    top = tmp_path / "top.yaml"
    top.write_text("extends: middle.yaml\ndeal:\n  hand_size: [5]\n", "utf-8")
    first = _first(top)
    assert first.code == "TR203" and first.file == str(top)
    assert f"replaces a number that its parent sets at {tmp_path / TINY.name}:9:3" in first.message


def test_a_wrong_type_the_parent_did_not_set_adds_no_note(tmp_path: Path) -> None:
    first = _first(_overlay(tmp_path, "deal: {dealer: 3}\n"))
    assert first.code == "TR203" and "overlay" not in first.message


# ---------------------------------------------------------------- limits


def test_a_limit_holds_for_option_values_given_at_load_time(tmp_path: Path) -> None:
    path = _overlay(tmp_path, "options:\n  rounds: {type: integer, default: 2, min: 1}\nrounds: {option: rounds}\n")
    assert load_game(path).ruleset.rounds == 2
    with pytest.raises(SpecError) as caught:
        load_game(path, options={"rounds": 10**9})
    assert caught.value.code == "TR332" and f"over the limit of {MAX_ROUNDS} rounds" in caught.value.message


def test_the_issue_example_a_billion_rounds_is_refused_at_once() -> None:
    result = run("play", str(BROKEN / "216-rounds-over-the-limit.yaml"))
    assert result.returncode == 2 and "TR332" in result.stderr  # a refusal, not a game that grows without end
    assert "Round 1" not in result.stdout


# ---------------------------------------------------------------- examples files


def _examples(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.examples.yaml"
    path.write_text(text, "utf-8")
    (tmp_path / "game.yaml").write_text(TINY.read_text("utf-8"), "utf-8")
    return path


def _example_problems(path: Path) -> tuple[Problem, ...]:
    with pytest.raises(SpecError) as caught:
        load_examples(path)
    return caught.value.problems


def test_examples_unknown_key_in_a_case_has_a_line_column_and_a_suggestion(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\ncases:\n  - name: one\n    tricks: [red-1, blue-2]\n    expect: {winner: red-1}\n")
    (first,) = _example_problems(path)
    assert (first.code, first.line, first.column) == ("TR201", 4, 5)
    assert first.message == "unknown key 'tricks', did you mean 'trick'?"


def test_examples_unknown_key_in_expect(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\ncases:\n  - trick: [red-1, blue-2]\n    expect: {winer: red-1}\n")
    (first,) = _example_problems(path)
    assert (first.code, first.line, first.path) == ("TR201", 4, "$.cases[0].expect.winer")
    assert "did you mean 'winner'?" in first.message


def test_examples_unknown_top_level_key_is_refused(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\nnotes: hello\ncases: []\n")
    (first,) = _example_problems(path)
    assert (first.code, first.line, first.column) == ("TR201", 2, 1)


def test_examples_missing_expect_and_wrong_types(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\ncases:\n  - name: no expectation\n  - 3\n  - {expect: [winner]}\n")
    codes = [(p.code, p.line) for p in _example_problems(path)]
    assert codes == [("TR202", 3), ("TR203", 4), ("TR203", 5)]


def test_examples_deep_file_is_refused_without_a_traceback(tmp_path: Path) -> None:
    path = _examples(tmp_path, "cases: " + "[" * 10_000 + "]" * 10_000 + "\n")
    assert _example_problems(path)[0].code == "TR107"
    result = run("validate", str(path))
    assert result.returncode == 2 and "TR107" in result.stderr


def test_examples_huge_file_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "huge.examples.yaml"
    path.write_bytes(b"# padding\n" * 2_000_000)  # 20 MB
    assert _example_problems(path)[0].code == "TR103"  # refused by its size, before it is parsed


def test_examples_tags_and_duplicate_keys_are_refused(tmp_path: Path) -> None:
    assert _example_problems(_examples(tmp_path, "spec: !!python/name:os.system game.yaml\ncases: []\n"))[0].code == "TR106"
    assert _example_problems(_examples(tmp_path, "spec: game.yaml\nspec: other.yaml\ncases: []\n"))[0].code == "TR108"


def test_check_with_a_missing_spec_is_one_error_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "orphan.examples.yaml"
    cases = "".join(f"  - {{name: case {n}, trick: [red-1, blue-1], expect: {{winner: red-1}}}}\n" for n in range(48))
    path.write_text(f"spec: nowhere.yaml\ncases:\n{cases}", "utf-8")
    result = run("check", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "TR101 file not found" in line and "nowhere.yaml" in line


def test_validate_of_a_bad_examples_file_exits_2_with_codes(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\ncases:\n  - {trick: [red-1], expectt: {}}\n")
    result = run("validate", str(path))
    assert result.returncode == 2 and "invalid rulebook examples" in result.stdout
    assert re.search(r"game\.examples\.yaml:3:\d+: TR201 unknown key 'expectt'", result.stderr)


def test_examples_cases_keep_their_line(tmp_path: Path) -> None:
    path = _examples(tmp_path, "spec: game.yaml\ncases:\n  - {trick: [red-1, blue-1], expect: {winner: red-1}}\n\n  - {expect: {}}\n")
    assert [case.line for case in load_examples(path)] == [3, 5]


# ---------------------------------------------------------------- simulate's never-fired list


def test_simulate_lists_rules_that_never_fired_with_their_line() -> None:
    sample = "docs/examples/errors/tr501-dead-reward.yaml"
    result = run("simulate", sample, "--games", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Never fired"))
    assert re.match(rf"^  reward 'blue trump' +{re.escape(sample)}:5:5$", lines[start + 1])


def test_problems_serialize_with_their_severity() -> None:
    problem = Problem("TR504", "option 'x' is declared but nothing uses it", "a.yaml", 3, 3, "$.options.x", "warning")
    assert str(problem) == "a.yaml:3:3: TR504 warning: option 'x' is declared but nothing uses it (at $.options.x)"
    assert json.loads(json.dumps(problem.__dict__))["severity"] == "warning"
    assert Problem("TR201", "m", "a.yaml", 1, 1, "$").severity == "error"


def test_range_checks_accept_language_2_keys() -> None:
    text = (ROOT / "specs" / "hearts.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    data["deal"]["dealer"]["first"] = 4
    with pytest.raises(SpecError) as caught:
        load_spec_text(yaml.safe_dump(data), "hearts-5.yaml")
    assert caught.value.code == "TR321" and "seat 4 does not exist with 4 players" in caught.value.message
