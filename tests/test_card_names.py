"""Card ids with rank names and with rank numbers name the same card everywhere: in given
deals, actions, records, examples files, a first leader's card and rank conditions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, game

from trickrules.engine.agents import make_agent
from trickrules.errors import SpecError
from trickrules.rules.cards import card_names, face_text, numbered_id
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.examples import load_examples, run_examples
from trickrules.tools.record import build_record, dumps, play_game, replay

HEARTS = ROOT / "specs" / "hearts.yaml"
EUCHRE = ROOT / "specs" / "euchre.yaml"
SKAT = ROOT / "examples" / "skat-lite.yaml"
NUMBERS = {"J": 11, "Q": 12, "K": 13, "A": 14}


def numbered(text: str) -> str:
    """A text with every ``<suit>-<J|Q|K|A>`` written with the rank's number."""
    return re.sub(r"\b(clubs|diamonds|hearts|spades)-([JQKA])\b", lambda m: f"{m[1]}-{NUMBERS[m[2]]}", text)


def test_every_card_has_its_numbered_name_and_ids_print_named():
    g = game(HEARTS)
    assert g.card_index("spades-12") == g.card_index("spades-Q")
    assert g.string_to_action("play hearts-14") == g.string_to_action("play hearts-A")
    assert g.string_to_action("pass clubs-11") == g.string_to_action("pass clubs-J")
    assert g.action_to_string(g.string_to_action("play spades-12")) == "play spades-Q"
    names = card_names(g.ruleset.deck)
    assert len(names) == 52 + 16  # J, Q, K and A of four suits have a second name
    with pytest.raises(ValueError):
        g.string_to_action("play spades-15")


def test_numbered_names_follow_the_cards_own_faces():
    euchre = game(EUCHRE)
    deck = euchre.ruleset.deck
    jack = deck.cards[euchre.card_index("clubs-J")]
    assert numbered_id(jack, deck) == "clubs-11"  # the face clubs 11 (clubs 16 is the bower RB)
    assert euchre.card_index("clubs-11") == euchre.card_index("clubs-J")
    skat = game(SKAT)
    assert skat.card_ids[skat.card_index("spades-14")] == "spades-10"  # rank 14 is named "10"
    assert skat.card_ids[skat.card_index("hearts-11")] == "hearts-J"
    assert face_text(deck, "hearts 15") == "hearts LB" and face_text(deck, "hearts LB") == "hearts LB"


@pytest.mark.parametrize("seed", [1, 2])
def test_both_forms_deal_play_and_replay_the_same(seed):
    g = game(HEARTS, single_hand=True)
    state = g.new_initial_state(seed)
    named_hands = [[g.card_ids[c] for c in hand] for hand in state.hands]
    numbered_hands = [[numbered(card) for card in hand] for hand in named_hands]
    assert numbered_hands != named_hands
    records = []
    for hands in (named_hands, numbered_hands):
        agents = [make_agent("greedy", seat) for seat in range(4)]
        records.append(build_record(play_game(g, seed, agents, deal={"hands": hands}), ["greedy"] * 4))
    assert records[0] == records[1]  # the record prints the named form either way
    record = json.loads(numbered(dumps(records[0])))
    assert record["actions"] != records[0]["actions"] and record["deals"] != records[0]["deals"]
    assert replay(record, g).verified  # a record written with rank numbers replays
    record["actions"][-1] = "play spades-13" if record["actions"][-1] != "play spades-13" else "play spades-14"
    assert not replay(record, g).verified


def test_examples_written_with_numbers_check_the_same(tmp_path: Path):
    for spec in ("hearts", "euchre"):
        text = (ROOT / "specs" / f"{spec}.examples.yaml").read_text(encoding="utf-8")
        text = text.replace(f"spec: {spec}.yaml", f"spec: {ROOT / 'specs' / spec}.yaml")
        text = numbered(text).replace("face: hearts RB", "face: hearts 16").replace("face: diamonds LB", "face: diamonds 15")
        path = tmp_path / f"{spec}.examples.yaml"
        path.write_text(text, encoding="utf-8")
        assert text != (ROOT / "specs" / f"{spec}.examples.yaml").read_text(encoding="utf-8")
        results = run_examples(ROOT / "specs" / f"{spec}.yaml", load_examples(path))
        assert [r.line() for r in results if not r.passed] == []
        assert len(results) > 20


SPEC = """\
id: named
title: Named ranks
players: [2]
deck:
  suits: [clubs, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 9, to: 14}}
deal:
  hand_size: 6
  first_leader: {holder: %s}
ranking:
  - prefer: {rank: %s}
  - prefer: led
  - highest: rank
scoring:
  round:
    - add: tricks
"""


def test_first_leader_card_and_rank_conditions_take_either_form():
    by_number = load_ruleset_text(SPEC % ("spades-12", "[11, 14]"))
    by_name = load_ruleset_text(SPEC % ("spades-Q", "[J, A]"))
    assert by_number == by_name
    assert by_name.ranking[0].condition.ranks == frozenset({11, 14})


def test_an_unknown_rank_name_is_an_error_with_its_place():
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(SPEC % ("spades-Q", "[J, Kn]"), "named.yaml")
    problem = raised.value.problems[0]
    assert (problem.code, problem.line, problem.column) == ("TR330", 13, 24)
    assert "did you mean 'K'" in problem.message
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(SPEC % ("spades-15", "Q"), "named.yaml")
    assert raised.value.problems[0].code == "TR315"
