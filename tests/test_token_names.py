"""Token names are printed as the spec gives them, with the spec's `plural` for any count but
one where it gives one (no "tbs" made by adding an s)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trickrules.engine.game import load_game
from trickrules.tools.cli import main
from trickrules.tools.provenance import rules_digest
from trickrules.tools.rulebook_words import plural

SPEC = """id: token-names
title: Token names
players: [3]
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 12}}
deal:
  hand_size: 8
tokens:
  tb: {}
  die: {PLURAL}
ranking:
  - prefer: led
  - highest: rank
rewards:
  - {name: many tb, to: winner, give: {token: tb, amount: {by_rank: {12: 128}, default: 2}}}
  - {name: a die, to: winner, when: {rank: [1, 2, 3, 4, 5, 6]}, give: {token: die, amount: 1}}
  - {name: two dice, to: winner, when: {rank: [7, 8, 9, 10, 11, 12]}, give: {token: die, amount: 2}}
scoring:
  measures:
    tbs_held: {tokens: tb}
    dice_held: {tokens: die}
  round:
    - add: tbs_held
    - add: dice_held
"""


def _spec(folder: Path, plural_key: str = "plural: dice") -> Path:
    path = folder / "tokens.yaml"
    path.write_text(SPEC.replace("{PLURAL}", "{" + plural_key + "}"), encoding="utf-8")
    return path


def _log(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["play", str(path), "--seed", "1"]) == 0
    return capsys.readouterr().out


def test_the_log_prints_names_as_given_and_the_plural_where_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(_spec(tmp_path), capsys)
    assert re.search(r"gains \d+ tb: many tb", log) and "tbs" not in log.replace("tbs_held", "")
    assert re.search(r"gains 1 die: a die", log) and re.search(r"gains 2 dice: two dice", log)
    assert "dies" not in log


def test_without_a_plural_the_name_stays_whatever_the_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(_spec(tmp_path, "supply: unlimited"), capsys)
    assert re.search(r"gains 2 die: two dice", log) and "dies" not in log and "dice:" not in log.replace("two dice", "")


def test_the_rulebook_uses_the_plural(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["rules", str(_spec(tmp_path))]) == 0
    text = capsys.readouterr().out
    assert "2 dice" in text and "1 die" in text and "128 tb" in text and "tbs " not in text
    assert "the dice the player holds" in text


def test_the_plural_is_words_only_not_a_rule(tmp_path: Path) -> None:
    with_plural = load_game(_spec(tmp_path)).ruleset
    without = load_game(_spec(tmp_path, "supply: unlimited")).ruleset
    assert with_plural.tokens[1].plural == "dice" and without.tokens[1].plural is None
    assert with_plural == without and rules_digest(with_plural) == rules_digest(without)


def test_plural_words() -> None:
    assert plural("round", 2) == "2 rounds" and plural("round", 1) == "1 round"
    assert plural("tb", 128, "tb") == "128 tb" and plural("die", -1, "dice") == "-1 die" and plural("die", 0, "dice") == "0 dice"


def test_kingdoms_names_its_peasants() -> None:
    assert load_game("kingdoms").ruleset.tokens[0].many == "peasants"
