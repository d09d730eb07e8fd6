"""The command line: output of play, and clear errors (exit 2, no traceback) for bad input."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers import KINGDOMS, MEADOWS, ROOT

from trickrules.tools.cli import main


def run(*args):
    result = subprocess.run([sys.executable, "-m", "trickrules.tools.cli", *args], cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_play_kingdoms_shows_four_rounds_of_ten_tricks_with_peasants_stacks_and_sections(capsys):
    assert main(["play", str(KINGDOMS), "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"^Round \d: dealer", out, re.M)) == 4
    assert len(re.findall(r"^  Trick +\d+:", out, re.M)) == 40
    assert "peasant" in out and "lays:" in out and "sections: A " in out
    assert out.count("Tableaux at the end of the round") == 4
    assert "Final standings" in out


def test_play_meadows_shows_trumps_faces_sheep_and_victory_points(capsys):
    assert main(["play", str(MEADOWS), "--players", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("trumps blue, orange, lila") == 4
    assert re.search(r"lila-1\d/\w+-5 as lila 1\d", out) or re.search(r"orange-\d+/\w+-4 as orange", out)
    assert "sheep" in out and "best by most sheep, then most tricks" in out


def test_no_trumps_option_makes_two_coloured_cards_count_as_their_base(capsys):
    assert main(["play", str(MEADOWS), "--seed", "3", "--set", "trumps="]) == 0
    out = capsys.readouterr().out
    assert out.count("trumps none") == 4
    assert " as orange" not in out and " as lila" not in out
    assert re.search(r"(orange|lila)-\d+/\w+-\d as \w+ [45]", out)


def test_validate_prints_one_line_per_file():
    result = run("validate", str(KINGDOMS), str(MEADOWS))
    assert result.returncode == 0
    assert result.stdout.count(": ok: ") == 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "no-such-file.yaml"], "TR101"),
        (["play", "specs"], "TR102"),
        (["play", str(KINGDOMS), "--players", "7"], "TR310"),
        (["play", str(MEADOWS), "--set", "trumps=pink"], "TR307"),
        (["play", str(MEADOWS), "--set", "nosuch=1"], "TR304"),
        (["play", str(MEADOWS), "--set", "novalue"], "name=value"),
        (["play", str(MEADOWS), "--agents", "genius"], "unknown agent"),
        (["play", str(MEADOWS), "--agents", "random,random"], "2 agents for 4 players"),
        (["replay", "no-such-record.json"], "no such file"),
        (["replay", str(KINGDOMS)], "not valid JSON"),
        (["check", str(KINGDOMS), "no-such-examples.yaml"], "TR101 file not found"),
        (["validate", str(ROOT / "README.md")], "invalid"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args, message):
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr + result.stdout


def test_replay_of_a_written_record_is_verified(tmp_path):
    out = tmp_path / "game.json"
    assert run("play", str(MEADOWS), "--seed", "9", "--json", str(out)).returncode == 0
    result = run("replay", str(out))
    assert result.returncode == 0 and "verified" in result.stdout


def test_help_explains_every_command():
    result = run("--help")
    for command in ("play", "replay", "validate", "check", "rules", "schema", "simulate"):
        assert command in result.stdout


def test_schema_prints_the_spec_schema_and_the_record_schema():
    import json

    assert json.loads(run("schema").stdout)["$id"].endswith("spec-1.json")
    assert json.loads(run("schema", "--record").stdout)["title"] == "trickrules game record"


def test_validate_specs_glob_accepts_specs_and_their_examples_files():
    files = sorted(str(p) for p in (ROOT / "specs").glob("*.yaml"))
    result = run("validate", *files)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(files)
    assert sum("rulebook examples" in line for line in lines) == sum(f.endswith(".examples.yaml") for f in files)


def test_validate_reports_a_broken_examples_file(tmp_path):
    bad = tmp_path / "bad.examples.yaml"
    bad.write_text("spec: nowhere.yaml\ncases:\n  - {name: x, expect: {winner: red-5}}\n")
    result = run("validate", str(bad))
    assert result.returncode == 2 and "invalid" in result.stdout


def test_check_finds_the_spec_an_examples_file_names():
    result = run("check", str(ROOT / "specs" / "meadows.examples.yaml"))
    assert result.returncode == 0 and result.stdout.strip().endswith("0 failed")


def test_check_given_a_spec_runs_the_examples_file_beside_it(capsys):
    assert main(["check", str(MEADOWS)]) == 0
    out = capsys.readouterr().out
    examples = (ROOT / "specs" / "meadows.examples.yaml").read_text()
    assert out.strip().endswith("0 failed")
    assert int(out.split()[-4]) == examples.count("\n  - name:") > 0


def test_check_given_a_spec_with_no_examples_file_says_it_is_a_spec(tmp_path):
    spec = tmp_path / "whist.yaml"
    spec.write_text((ROOT / "examples" / "plain-whist.yaml").read_text())
    result = run("check", str(spec))
    assert result.returncode == 2
    assert f"{spec}:1:1: TR202 this is a spec, not an examples file" in result.stderr
    assert "whist.examples.yaml" in result.stderr and "TR201" not in result.stderr


def test_the_version_names_the_engine_that_runs(capsys):
    from trickrules.tools.compiled_engine import compiled

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    expected = "compiled engine" if compiled() else "pure-Python engine"
    assert capsys.readouterr().out.strip().endswith(f"({expected})")
