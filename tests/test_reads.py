"""Reads stay where they should: a record names its spec beside itself or by a shipped name,
`extends` reads only shipped specs and files inside the loaded spec's folder, and a record
whose digests are not the spec's is never reported "verified".
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import ROOT

import trickrules
from trickrules.errors import SpecError
from trickrules.tools.cli import main

pytestmark = pytest.mark.not_compiled

SECRET = "s3cret-value-from-another-file"


def _record(tmp_path: Path, spec: str = "kingdoms", *extra: str) -> Path:
    record = tmp_path / "game.json"
    assert main(["play", spec, "--players", "2", "--seed", "3", "--json", str(record), *extra]) == 0
    return record


def _rename_spec(record: Path, file: str) -> None:
    data = json.loads(record.read_text())
    data["spec"]["file"] = file
    record.write_text(json.dumps(data))


def _secret_spec(folder: Path) -> Path:
    """A kingdoms spec whose title is a secret: no message may show it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "secret.yaml"
    text = (ROOT / "specs" / "kingdoms.yaml").read_text("utf-8")
    path.write_text(text.replace("title: Kingdoms", f"title: {SECRET}", 1), "utf-8")
    assert SECRET in path.read_text("utf-8")
    return path


# ---------------------------------------------------------------- replay


def test_play_names_the_spec_relative_to_the_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "mine.yaml").write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    out = tmp_path / "records" / "today"
    out.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    assert main(["play", "specs/mine.yaml", "--players", "2", "--json", "records/today/g.json"]) == 0
    assert json.loads((out / "g.json").read_text())["spec"]["file"] == "../../specs/mine.yaml"
    assert main(["play", "specs/mine.yaml", "--players", "2", "--json", "g.json"]) == 0
    assert json.loads(Path("g.json").read_text())["spec"]["file"] == "specs/mine.yaml"
    assert main(["play", str(ROOT / "specs" / "kingdoms.yaml"), "--players", "2", "--json", "k.json"]) == 0
    assert json.loads(Path("k.json").read_text())["spec"]["file"] == "kingdoms", "a shipped spec is named, by any path"
    capsys.readouterr()
    monkeypatch.chdir(out)
    assert main(["replay", str(tmp_path / "g.json")]) == 0  # from any folder: relative to the record
    assert "verified" in capsys.readouterr().out
    assert main(["replay", "g.json"]) == 2  # ../../specs/mine.yaml: outside the record's folder
    assert "outside the record's folder" in capsys.readouterr().err
    assert main(["replay", "g.json", "--spec", str(specs / "mine.yaml")]) == 0
    assert "verified" in capsys.readouterr().out


def test_replay_refuses_an_absolute_spec_path_without_reading_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(tmp_path)
    secret = _secret_spec(tmp_path / "elsewhere")
    for named in (str(secret), "/etc/passwd"):
        _rename_spec(record, named)
        assert main(["replay", str(record)]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "absolute path" in err and f"--spec {named}" in err, err
        assert SECRET not in err and "root:" not in err


def test_replay_refuses_a_spec_path_leading_out_of_the_records_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    record = _record(folder)
    _secret_spec(tmp_path / "other")
    for named in ("../other/secret.yaml", "sub/../../other/secret.yaml", "../../../../../../etc/passwd"):
        _rename_spec(record, named)
        assert main(["replay", str(record)]) == 2
        captured = capsys.readouterr()
        assert "outside the record's folder" in captured.err and "--spec" in captured.err
        assert SECRET not in captured.err + captured.out and "root:" not in captured.err


def test_replay_reads_a_spec_beside_or_below_the_record_and_shipped_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(tmp_path)
    assert json.loads(record.read_text())["spec"]["file"] == "kingdoms"
    assert main(["replay", str(record)]) == 0
    below = tmp_path / "rules" / "k.yaml"
    below.parent.mkdir()
    below.write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    _rename_spec(record, "rules/k.yaml")
    assert main(["replay", str(record)]) == 0
    assert "verified" in capsys.readouterr().out
    _rename_spec(record, "no-such-spec")
    assert main(["replay", str(record)]) == 2
    assert "neither a file in the record's folder nor a shipped spec" in capsys.readouterr().err


def test_a_spec_given_with_spec_may_be_anywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    record = _record(tmp_path / "a", str(ROOT / "specs" / "kingdoms.yaml"))
    _rename_spec(record, "/somewhere/else.yaml")
    elsewhere = tmp_path / "b" / "kingdoms.yaml"
    elsewhere.parent.mkdir()
    elsewhere.write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    assert main(["replay", str(record), "--spec", str(elsewhere)]) == 0
    assert main(["replay", str(record), "--spec", "kingdoms"]) == 0


@pytest.mark.parametrize("key", ["digest", "rules"])
def test_a_record_with_a_changed_digest_is_not_verified(key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record(tmp_path)
    data = json.loads(record.read_text())
    data["spec"][key] = "0" * 64
    record.write_text(json.dumps(data))
    capsys.readouterr()
    status = main(["replay", str(record)])
    out = capsys.readouterr().out
    assert ": verified" not in out, out
    if key == "rules":
        assert status == 1 and "not verified" in out
    else:  # the same rules, other bytes: named, not verified
        assert status == 0 and "same rules, not the same files" in out
    data["spec"][key] = "0"
    record.write_text(json.dumps(data))
    assert main(["replay", str(record)]) == 2
    assert "not a trickrules record" in capsys.readouterr().err


# ---------------------------------------------------------------- extends


def test_extends_takes_a_shipped_spec_by_name(tmp_path: Path) -> None:
    overlay = tmp_path / "short.yaml"
    overlay.write_text("extends: hearts\nid: short-hearts\nrounds: 2\n", "utf-8")
    ruleset = trickrules.load_ruleset(overlay)
    assert ruleset.id == "short-hearts" and ruleset.rounds == 2
    (tmp_path / "hearts").write_text("extends: kingdoms\nid: not-hearts\n", "utf-8")  # a file of that name wins
    assert trickrules.load_ruleset(overlay, players=3).deck != trickrules.load_ruleset("hearts").deck


def test_extends_refuses_absolute_paths_with_a_code_and_a_position(tmp_path: Path) -> None:
    secret = _secret_spec(tmp_path / "elsewhere")
    overlay = tmp_path / "mine" / "overlay.yaml"
    overlay.parent.mkdir()
    for target in (str(secret), "/etc/passwd"):
        overlay.write_text(f"id: mine\n\nextends: {target}\n", "utf-8")
        with pytest.raises(SpecError) as caught:
            trickrules.load_ruleset(overlay)
        first = caught.value.first
        assert (first.code, first.file, first.line, first.column, first.path) == ("TR403", str(overlay), 3, 1, "$.extends")
        assert "absolute path" in first.message and SECRET not in str(caught.value)


def test_extends_refuses_paths_out_of_the_loaded_specs_folder(tmp_path: Path) -> None:
    _secret_spec(tmp_path / "elsewhere")
    mine = tmp_path / "mine"
    (mine / "bases").mkdir(parents=True)
    (mine / "bases" / "plain.yaml").write_bytes((ROOT / "specs" / "kingdoms.yaml").read_bytes())
    (mine / "bases" / "up.yaml").write_text("extends: ../../elsewhere/secret.yaml\n", "utf-8")
    (mine / "bases" / "sideways.yaml").write_text("extends: ../top-level.yaml\n", "utf-8")
    (mine / "top-level.yaml").write_text("extends: bases/plain.yaml\nid: top\n", "utf-8")
    cases = {
        "../elsewhere/secret.yaml": "TR403",  # out of the folder
        "bases/up.yaml": "TR403",  # a parent's parent out of the folder
        "bases/../../elsewhere/secret.yaml": "TR403",
        "bases/plain.yaml": None,  # below: fine
        "bases/sideways.yaml": None,  # a parent's ../ that stays inside the loaded spec's folder
    }
    overlay = mine / "overlay.yaml"
    for target, code in cases.items():
        overlay.write_text(f"extends: {target}\nid: mine\n", "utf-8")
        if code is None:
            assert trickrules.load_ruleset(overlay, players=2).id == "mine"
            continue
        with pytest.raises(SpecError) as caught:
            trickrules.load_ruleset(overlay)
        assert caught.value.code == code and "leads outside the folder" in caught.value.message
        assert SECRET not in str(caught.value)
    os.symlink(tmp_path / "elsewhere" / "secret.yaml", mine / "link.yaml")  # a link out counts as out
    overlay.write_text("extends: link.yaml\n", "utf-8")
    with pytest.raises(SpecError, match="TR403"):
        trickrules.load_ruleset(overlay)


def test_the_cli_shows_the_extends_refusal_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = tmp_path / "o.yaml"
    overlay.write_text("extends: /etc/passwd\n", "utf-8")
    assert main(["validate", str(overlay)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{overlay}:1:1: TR403 ") and len(err.splitlines()) == 1 and "root:" not in err
