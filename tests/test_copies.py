"""`copies` in deck generators and listed cards: the right multiset of cards, distinct and
stable ids, and the ranking's last step deciding between equal copies."""

from __future__ import annotations

from collections import Counter

import pytest

from trickrules.engine.game import Game
from trickrules.errors import SpecError
from trickrules.rules.faces import counting_faces
from trickrules.rules.ranking import compile_ranking
from trickrules.spec.dump import dump_yaml
from trickrules.spec.loader import load_ruleset_text

SPEC = """\
id: twice
title: Two copies
players: [4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 9, to: 14}, copies: 2}
deal:
  hand_size: 12
follow: [follow_led]
ranking:
  - prefer: led
  - highest: rank
  - %s
scoring:
  round:
    - add: tricks
"""


def game(last: str = "first_played") -> Game:
    return Game(load_ruleset_text(SPEC % last))


def faces_of(g: Game, cards: list[int]) -> Counter[tuple[int, int]]:
    deck = g.ruleset.deck
    return Counter((deck.cards[c].faces[0].suit, deck.cards[c].faces[0].rank) for c in cards)


def test_two_lines_make_a_48_card_deck_of_two_copies():
    g = game()
    ids = g.card_ids
    assert len(ids) == 48 and len(set(ids)) == 48
    assert ids[:4] == ("clubs-9", "clubs-9#2", "clubs-10", "clubs-10#2")
    assert "hearts-A" in ids and "hearts-A#2" in ids
    assert g.card_index("hearts-14#2") == g.card_index("hearts-A#2") != g.card_index("hearts-A")
    assert set(faces_of(g, list(range(48))).values()) == {2}
    assert game().card_ids == ids  # stable


@pytest.mark.parametrize("seed", range(5))
def test_a_deal_holds_every_card_of_both_copies_once(seed):
    g = game()
    state = g.new_initial_state(seed)
    dealt = [card for hand in state.hands for card in hand]
    assert sorted(dealt) == list(range(48))
    assert faces_of(g, dealt) == Counter({(suit, rank): 2 for suit in range(4) for rank in range(9, 15)})


@pytest.mark.parametrize("last, winner", [("first_played", 0), ("last_played", 2)])
def test_the_ranking_decides_between_equal_copies(last, winner):
    g = game(last)
    faces = counting_faces(g.ruleset.deck, frozenset())
    trick_winner = compile_ranking(g.ruleset.ranking, g.ruleset.deck, faces)
    trick = [g.card_index(c) for c in ("hearts-A", "hearts-9", "hearts-A#2", "hearts-K#2")]
    assert trick_winner(trick, faces.group[trick[0]]) == winner


def test_a_played_game_uses_each_copy_once():
    g = game()
    state = g.new_initial_state(3, record=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    played = [e["card"] for e in state.events if e["type"] == "play"]
    assert sorted(played) == list(range(48))


def test_copies_of_a_listed_card_and_the_dump_round_trip():
    text = SPEC.replace(
        "copies: 2}", "copies: 2}\n  cards:\n    - {faces: [{suit: hearts, rank: 15}], copies: 3}"
    ).replace("%s", "first_played")
    ruleset = load_ruleset_text(text)
    ids = [card.id for card in ruleset.deck.cards[48:]]
    assert ids == ["hearts-15", "hearts-15#2", "hearts-15#3"]
    assert load_ruleset_text(dump_yaml(ruleset)) == ruleset


def test_a_copy_id_made_twice_is_refused():
    text = (SPEC % "first_played").replace("copies: 2}", "copies: 2}\n  cards:\n    - {id: 'clubs-9#2', faces: [{suit: clubs, rank: 9}]}")
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text)
    assert raised.value.problems[0].code == "TR306"
    assert "clubs-9#2" in raised.value.problems[0].message
