"""Rank names per suit (`deck.rank_names_by_suit`): a suit names its own ranks over the deck's
`rank_names`, in card ids, conditions, printed faces and dumps; the numbered id names the same
card; an unknown suit is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.errors import SpecError
from trickrules.spec.dump import dump_yaml

SPEC = """\
language: 2
id: names
title: Names
players: [3]
deck:
  suits: [hearts, spades, taroks]
  rank_names: {5: J}
  rank_names_by_suit:
    hearts: {1: "4", 2: "3", 3: "2", 4: "1"}
    taroks: {1: Pagat, 6: Skis}
  generate:
    - {suits: [hearts, spades], ranks: {from: 1, to: 5}}
    - {suits: [taroks], ranks: {from: 1, to: 6}}
deal: {hand_size: 5, first_leader: {seat: 0}}
trumps: [taroks]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
restrictions: [{name: no pagat lead, for: leader, forbid: {suit: taroks, rank: Pagat}}]
scoring:
  round: [{add: tricks}]
"""


@pytest.fixture()
def game(tmp_path: Path) -> trickrules.Game:
    path = tmp_path / "names.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return trickrules.load_game(path)


def test_a_suit_names_its_own_ranks_over_the_decks(game: trickrules.Game) -> None:
    assert game.card_ids[:5] == ("hearts-4", "hearts-3", "hearts-2", "hearts-1", "hearts-J")
    assert game.card_ids[5:10] == ("spades-1", "spades-2", "spades-3", "spades-4", "spades-J")
    assert game.card_ids[10] == "taroks-Pagat" and game.card_ids[15] == "taroks-Skis"
    deck = game.ruleset.deck
    assert deck.rank_name(1, deck.suits.index("hearts")) == "4" and deck.rank_name(1, deck.suits.index("spades")) == "1"


def test_the_numbered_id_names_the_same_card_unless_it_is_another_cards_id(game: trickrules.Game) -> None:
    assert game.card_index("taroks-1") == game.card_index("taroks-Pagat")
    assert game.card_index("hearts-4") == 0  # the id of rank 1, over rank 4's numbered form
    assert game.card_index("hearts-2") == 2


def test_a_condition_reads_a_suits_own_rank_name(game: trickrules.Game) -> None:
    forbid = game.ruleset.restrictions[0].forbid
    assert forbid is not None and forbid.ranks == frozenset({1})
    state = game.new_initial_state(seed=0, deal={"hands": [["taroks-Pagat", "hearts-4", "hearts-3", "spades-1", "spades-2"],
                                                        ["hearts-2", "hearts-1", "hearts-J", "spades-3", "spades-4"],
                                                        ["spades-J", "taroks-2", "taroks-3", "taroks-4", "taroks-J"]]})
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert state.current_player() == 0 and "play hearts-4" in legal and "play taroks-Pagat" not in legal


def test_rank_names_by_suit_round_trip(game: trickrules.Game) -> None:
    assert trickrules.load_ruleset_text(dump_yaml(game.ruleset), players=3) == game.ruleset


def test_an_unknown_suit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("    hearts: {1:", "    harts: {1:"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path)
    assert "TR301" in str(caught.value) and "rank_names_by_suit" in str(caught.value)


@pytest.mark.parametrize(("written", "printed"), [
    ("hearts 1", "hearts 4"), ("spades 1", "spades 1"), (" taroks 6 ", "taroks Skis"), ("taroks 5", "taroks J"),
    ("stars 5", "stars J"), ("stars 1", "stars 1"), ("hearts J", "hearts J"), ("stars x", "stars x"),
])
def test_a_face_is_printed_with_its_suits_rank_name_or_the_decks(written: str, printed: str) -> None:
    """A suit's own name of a rank comes first, then the deck's; a suit the deck lacks reads the
    deck's names alone (hearts, second here, names rank 1 "4" for itself only)."""
    from trickrules.rules.cards import face_text

    deck = trickrules.load_ruleset_text(SPEC.replace("suits: [hearts, spades, taroks]", "suits: [spades, hearts, taroks]")).deck
    assert face_text(deck, written) == printed
