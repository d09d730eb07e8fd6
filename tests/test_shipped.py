"""Shipped specs by name (`load_game("kingdoms")`, `trickrules play kingdoms`, `trickrules list`),
and replay that compares rules, not bytes: layout edits replay, real changes and other specs
are named."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT

import trickrules
from trickrules.spec.shipped import resolve_spec, shipped_folder, shipped_specs
from trickrules.tools.cli import main
from trickrules.tools.provenance import rules_digest

SPECS = ROOT / "specs"
NAMES = sorted(p.name[: -len(".yaml")] for p in SPECS.glob("*.yaml") if not p.name.endswith(".examples.yaml"))


# ---------------------------------------------------------------- shipped specs by name


def test_the_shipped_specs_are_the_specs_folder() -> None:
    assert shipped_folder() == SPECS  # a checkout (or an editable install) reads specs/ itself
    assert [s.name for s in shipped_specs()] == NAMES
    assert {"kingdoms", "meadows", "hearts", "spades", "oh-hell"} <= set(NAMES)
    for spec in shipped_specs():
        if spec.name in ("kingdoms", "meadows", "hearts", "spades", "oh-hell"):
            assert spec.examples == SPECS / f"{spec.name}.examples.yaml"


@pytest.mark.parametrize("name", NAMES)
def test_load_game_takes_a_shipped_spec_by_name(name: str) -> None:
    assert trickrules.load_game(name).ruleset == trickrules.load_game(SPECS / f"{name}.yaml").ruleset


def test_a_file_of_that_name_wins_and_paths_stay_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kingdoms").write_bytes((SPECS / "hearts.yaml").read_bytes())
    assert trickrules.load_game("kingdoms").ruleset.id == "hearts"
    assert resolve_spec("kingdoms.yaml") == "kingdoms.yaml" and resolve_spec("x/kingdoms") == "x/kingdoms"
    assert resolve_spec(Path("meadows")) == Path("meadows")


def test_an_unknown_name_lists_the_shipped_specs() -> None:
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_game("kingdom")
    assert caught.value.code == "TR101"
    assert "no shipped spec of that name" in caught.value.message and "kingdoms" in caught.value.message


def test_play_rules_and_simulate_take_a_shipped_spec_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "meadows", "--seed", "3"]) == 0
    assert "Round 1" in capsys.readouterr().out
    assert main(["rules", "hearts"]) == 0
    assert capsys.readouterr().out.startswith("# Hearts")
    assert main(["simulate", "kingdoms", "-n", "4", "--workers", "2", "--force-workers"]) == 0
    assert "Kingdoms (kingdoms)" in capsys.readouterr().out


def test_trickrules_list_shows_every_shipped_spec_with_players_and_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines() if line and not line.startswith("Play ")}
    assert sorted(rows) == NAMES
    assert rows["kingdoms"].split()[1:] == ["2", "to", "4", "players", "Kingdoms"]
    assert rows["meadows"].split()[1:5] == ["3", "to", "4", "players"]
    assert rows["hearts"].split()[1:] == ["4", "players", "Hearts"]
    assert "copy one from specs/ to start a variant" in out  # run from the checkout


def test_python_dash_m_trickrules_is_the_command_line() -> None:
    result = subprocess.run([sys.executable, "-m", "trickrules", "list"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0 and "kingdoms" in result.stdout


# ---------------------------------------------------------------- replay


@pytest.fixture()
def chain(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of kingdoms, an overlay of it, and the record of a game of the overlay."""
    parent = tmp_path / "kingdoms.yaml"
    parent.write_bytes((SPECS / "kingdoms.yaml").read_bytes())
    overlay = tmp_path / "short.yaml"
    overlay.write_text("# two rounds only\nextends: kingdoms.yaml\nrounds: 2\n", encoding="utf-8")
    record = tmp_path / "game.json"
    assert main(["play", str(overlay), "--players", "3", "--seed", "4", "--json", str(record)]) == 0
    return parent, overlay, record


def test_a_record_keeps_the_digest_of_the_rules_and_of_each_file(chain: tuple[Path, Path, Path]) -> None:
    parent, overlay, record = chain
    spec = json.loads(record.read_text())["spec"]
    assert spec["rules"] == rules_digest(trickrules.load_ruleset(overlay, players=3))
    assert [entry["file"] for entry in spec["files"]] == ["short.yaml", "kingdoms.yaml"]


def test_replay_after_edits_that_change_no_rule(chain: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    parent, overlay, record = chain
    text = parent.read_text()
    lines = text.splitlines()
    top = [i for i, line in enumerate(lines) if line and not line[0].isspace() and not line.startswith("#")]
    first, second = top[0], top[1]  # swap the first two top-level keys (each with its block)
    swapped = lines[:first] + lines[second:top[2]] + lines[first:second] + lines[top[2]:]
    parent.write_text("# a comment\n\n" + "\n".join(swapped) + "\n   \n", encoding="utf-8")
    overlay.write_text("extends:   'kingdoms.yaml'   # the parent\n\nrounds: 2\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    captured = capsys.readouterr()
    assert "same rules, not the same files" in captured.out and captured.err == ""
    assert "verified" not in captured.out, "a record whose file digest differs is not verified"


@pytest.mark.parametrize("changed", ["parent", "overlay"])
def test_replay_names_the_file_of_the_chain_a_real_change_is_in(changed: str, chain: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    parent, overlay, record = chain
    if changed == "parent":
        parent.write_text(parent.read_text().replace("hand_size: 10 ", "hand_size: 9 "), encoding="utf-8")
        name = str(parent)
    else:
        overlay.write_text("extends: kingdoms.yaml\nrounds: 3\n", encoding="utf-8")
        name = str(overlay)
    capsys.readouterr()
    main(["replay", str(record)])
    err = capsys.readouterr().err
    assert f"the rules of {overlay} differ from the record's: the change is in {name}" in err
    assert "Traceback" not in err


def test_replay_of_another_specs_record_names_the_specs(chain: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    parent, overlay, record = chain
    capsys.readouterr()
    assert main(["replay", str(record), "--spec", str(SPECS / "hearts.yaml")]) == 2
    err = capsys.readouterr().err
    assert "is a record of the spec 'kingdoms' (Kingdoms)" in err and "is the spec 'hearts'" in err
    assert "changed" not in err
    overlay.write_bytes((SPECS / "meadows.yaml").read_bytes())  # the record's own file, now another spec
    assert main(["replay", str(record)]) == 2
    assert "is the spec 'meadows'" in capsys.readouterr().err


def test_a_record_of_a_shipped_spec_names_it_and_replays_from_anywhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "hearts", "--seed", "2", "--json", "game.json"]) == 0
    assert json.loads(Path("game.json").read_text())["spec"]["file"] == "hearts"
    capsys.readouterr()
    assert main(["replay", "game.json"]) == 0
    assert "verified" in capsys.readouterr().out


def test_a_record_from_before_rule_digests_still_replays(chain: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    parent, overlay, record = chain
    data = json.loads(record.read_text())
    del data["spec"]["rules"], data["spec"]["files"]
    record.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    assert capsys.readouterr().err == ""
    overlay.write_text(overlay.read_text() + "# edited\n")
    assert main(["replay", str(record)]) == 1  # without a rules digest, changed bytes may be changed rules
    captured = capsys.readouterr()
    assert "its file digest differs" in captured.err and "not verified" in captured.out


# ---------------------------------------------------------------- the README's first screen


def _blocks(language: str) -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return [block.split("```", 1)[0] for block in text.split(f"```{language}\n")[1:]]


def test_the_readme_spec_plays_and_its_overlay_loads(tmp_path: Path) -> None:
    whist = _blocks("yaml")[0]
    game = trickrules.load_game(trickrules.load_ruleset_text(whist, "whist.yaml"))
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert game.ruleset.title == "Whist" and len(whist.splitlines()) <= 25
    (tmp_path / "kingdoms.yaml").write_bytes((SPECS / "kingdoms.yaml").read_bytes())
    overlay = next(block for block in _blocks("yaml") if block.startswith("extends:"))
    (tmp_path / "short.yaml").write_text(overlay, encoding="utf-8")
    assert trickrules.load_ruleset(tmp_path / "short.yaml").rounds == 2


def test_the_readme_library_example_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    exec(_blocks("python")[0], {})
    assert capsys.readouterr().out.strip()


def test_the_readme_commands_write_nothing_into_the_checkout() -> None:
    for block in _blocks("sh"):
        for line in block.splitlines():
            words = line.split("#")[0].split()
            for flag in ("--json", "--plot", ">"):
                if flag in words:
                    target = words[words.index(flag) + 1]
                    assert target.startswith("/tmp/"), f"README writes {target} into the working folder: {line}"


# ---------------------------------------------------------------- every command takes a name


def test_validate_and_check_take_a_shipped_spec_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "kingdoms", "hearts"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kingdoms: ok: kingdoms 'Kingdoms'") and "\nhearts: ok: hearts 'Hearts'" in out
    assert main(["check", "kingdoms"]) == 0  # the shipped examples beside it
    assert re.search(r"^\d+ passed, 0 failed$", capsys.readouterr().out, re.M)
    assert main(["check", "hearts", str(SPECS / "hearts.examples.yaml")]) == 0
    capsys.readouterr()
    for command in (["validate", "kingdom"], ["check", "kingdom"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "TR101" in err and "no shipped spec of that name" in err and "kingdoms" in err


def test_an_examples_file_names_a_shipped_spec_or_a_file_in_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (SPECS / "hearts.examples.yaml").read_text("utf-8")
    assert re.search(r"^spec: hearts\.yaml$", text, re.M)
    named = tmp_path / "mine.examples.yaml"
    named.write_text(re.sub(r"^spec: hearts\.yaml$", "spec: hearts", text, flags=re.M), "utf-8")
    assert main(["check", str(named)]) == 0
    capsys.readouterr()
    for outside in ("/etc/passwd", "../elsewhere/hearts.yaml"):
        named.write_text(re.sub(r"^spec: hearts\.yaml$", f"spec: {outside}", text, flags=re.M), "utf-8")
        assert main(["check", str(named)]) == 2
        err = capsys.readouterr().err
        assert "TR204" in err and "outside the folder of this examples file" in err and "root:" not in err
