"""The rulebook's paragraph on a declare phase: who speaks first, how the declarer is found (the
first to declare, or bidding by precedence), contracts open under a condition, and what
happens when every player passes."""

from __future__ import annotations

import trickrules
from helpers import ROOT

from trickrules.tools.rulebook import rulebook_markdown

CONTRACTS = """\
contracts:
  low: {description: Low., declarer: alone}
  high: {description: High., declarer: alone, trumps: [red]}
"""

SPEC = """\
language: 2
id: declaring
title: Declaring
players: [3]
deck:
  suits: [red, blue, green]
  generate:
    - {suits: all, ranks: {from: 1, to: 6}}
deal:
  hand_size: 6
round:
  - deal
  - DECLARE
  - play
  - score
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
scoring:
  round: [{name: zero, add: "0"}]
""" + CONTRACTS


def _declaring(declare: str) -> str:
    text = rulebook_markdown(trickrules.load_ruleset_text(SPEC.replace("DECLARE", declare)))
    start = text.index("## Declaring")
    return text[start : text.index("\n## ", start + 1)]


def test_the_first_to_declare_is_the_declarer_and_all_passing_scores_the_round_unplayed() -> None:
    words = _declaring("declare: {first: {seat: 2}, otherwise: score}")
    assert "Starting with seat 2 and going round in seat order, each player passes or declares one of the contracts (low, high)" in words
    assert "The first player to declare is the declarer" in words
    assert "When every player passes, the round is not played" in words


def test_all_passing_plays_the_otherwise_contract_with_no_declarer() -> None:
    words = _declaring("declare: {first: dealer, otherwise: low}")
    assert "Starting with the dealer" in words and "the round is played as low, with no declarer" in words


def test_bidding_by_precedence_is_described_with_its_open_contracts() -> None:
    words = _declaring("declare: {bidding: precedence, precedence: {seat: 1}, when: {high: first_turn}}")
    assert "players bid contracts, listed here from the lowest: low, high. A pass is final." in words
    assert "comes first from seat 1 in seat order" in words and "The last player left may not pass" in words
    assert "high may be declared only while `first_turn` holds." in words
    assert "When every player passes" not in words


def test_skat_s_rulebook_says_how_a_game_is_named() -> None:
    text = rulebook_markdown(trickrules.load_ruleset(ROOT / "specs" / "skat.yaml"))
    assert "## Declaring\n\nStarting with seat 0 and going round in seat order" in text
    assert text.index("## Declaring") < text.index("## Taking the set-aside cards")
