"""Melds (`{meld: ...}` measures): patterns of cards held together, counted as how many times
they are held: ranks in one suit summed over the suits (marriages, runs), the same ranks in
every suit (aces around), or given cards together (a pinochle); copies count."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from strategies import scaled
from trickrules.errors import SpecError
from trickrules.rules.measures import Meld, best_key, meld_cards, meld_count, meld_top, run_length

SUITS, RANKS = 4, (9, 10, 11, 12, 13, 14)
DECK = [(suit, rank) for suit in range(SUITS) for rank in RANKS for _ in range(2)]  # a Pinochle deck: two of each
SUIT_OF = [suit for suit, _ in DECK]
RANK_OF = [rank for _, rank in DECK]


def by_hand(meld: Meld, hand: list[int], trumps: frozenset[int]) -> int:
    """The same count, written out: how many disjoint copies of the pattern the hand holds."""
    held = Counter((SUIT_OF[c], RANK_OF[c]) for c in hand)
    if meld.cards:
        return min(sum(1 for c in hand if c in copies) for copies in meld.cards) // meld.times
    suits = sorted(trumps) if meld.trump else (meld.suits if meld.suits is not None else range(SUITS))
    counts = []
    for suit in suits:
        times = 0
        while all(sum(held[(suit, r)] for r in ranks) > times for ranks in meld.ranks):
            times += 1
        counts.append(times)
    return ((min(counts) if counts else 0) if meld.across else sum(counts)) // meld.times


melds = st.one_of(
    st.builds(Meld, ranks=st.lists(st.sampled_from(RANKS).map(lambda r: frozenset([r])), min_size=1, max_size=5, unique=True).map(tuple),
              suits=st.one_of(st.none(), st.lists(st.integers(0, SUITS - 1), min_size=1, max_size=3, unique=True).map(tuple)),
              trump=st.booleans(), across=st.booleans(), times=st.integers(1, 2)),
    st.builds(Meld, cards=st.lists(st.integers(0, len(DECK) // 2 - 1).map(lambda i: (2 * i, 2 * i + 1)), min_size=1, max_size=3, unique=True).map(tuple),
              times=st.integers(1, 2)),
)


@given(meld=melds, hand=st.lists(st.integers(0, len(DECK) - 1), max_size=20, unique=True),
       trumps=st.frozensets(st.integers(0, SUITS - 1), max_size=2))
@settings(max_examples=scaled(300), deadline=None)
def test_a_meld_counts_as_a_hand_written_count_over_random_hands(meld: Meld, hand: list[int], trumps: frozenset[int]) -> None:
    assert meld_count(meld, hand, SUIT_OF, RANK_OF, trumps, SUITS) == by_hand(meld, hand, trumps)


@given(meld=melds, hand=st.lists(st.integers(0, len(DECK) - 1), min_size=6, max_size=30, unique=True),
       trumps=st.frozensets(st.integers(0, SUITS - 1), max_size=2))
@settings(max_examples=max(100, scaled(300)), deadline=None)
def test_the_cards_shown_of_a_meld_hold_it_as_often_as_the_hand(meld: Meld, hand: list[int], trumps: frozenset[int]) -> None:
    """The cards laid on the table for a meld are cards of the hand, each once, one card of each
    rank (or given card) for every time the meld counts (in every suit, for a meld across
    suits), and they hold the meld as many times as the hand does."""
    count = meld_count(meld, hand, SUIT_OF, RANK_OF, trumps, SUITS)
    shown = meld_cards(meld, hand, SUIT_OF, RANK_OF, trumps, SUITS)
    assert len(set(shown)) == len(shown) and set(shown) <= set(hand)
    assert meld_count(meld, list(shown), SUIT_OF, RANK_OF, trumps, SUITS) == count
    places = sorted(trumps) if meld.trump else (meld.suits if meld.suits is not None else range(SUITS))
    per_time = len(meld.cards) if meld.cards else len(meld.ranks) * (len(places) if meld.across else 1)
    assert len(shown) == count * meld.times * per_time
    if meld.cards:  # the given cards in the meld's order, each card's copies in hand order
        assert list(shown) == [c for copies in meld.cards for c in [c for c in hand if c in copies][:count * meld.times]]


SPEC = """\
language: 2
id: meld
title: Meld
players: [4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {10: J, 11: Q, 12: K, 13: "10", 14: A}
  generate: [{suits: all, ranks: [9, 10, 11, 12, 13, 14], copies: 2}]
deal: {hand_size: 12, first_leader: {seat: 0}}
trumps: [hearts]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}, first_played]
scoring:
  measures:
    marriages: {meld: {ranks: [K, Q]}, of: dealt}
    royal: {meld: {ranks: [K, Q], suit: trump}, of: dealt}
    run: {meld: {ranks: [A, "10", K, Q, J], suit: trump}, of: dealt}
    aces: {meld: {ranks: [A], across: suits}, of: dealt}
    pinochle: {meld: {cards: [spades-Q, diamonds-J]}, of: dealt}
  round:
    - {name: meld, add: "20 * (marriages - royal) + 40 * royal + 150 * run + 100 * aces + 40 * pinochle"}
"""

SEAT_0 = ["hearts-A", "hearts-10", "hearts-K", "hearts-Q", "hearts-J", "clubs-A", "diamonds-A", "spades-A", "spades-Q",
          "diamonds-J", "clubs-K", "clubs-Q"]


def test_a_pinochle_hand_scores_its_melds(tmp_path: Path) -> None:
    path = tmp_path / "meld.yaml"
    path.write_text(SPEC, encoding="utf-8")
    game = trickrules.load_game(path)
    seat_1 = [f"{card}#2" for card in SEAT_0[:6]] + ["clubs-9", "clubs-9#2", "diamonds-9", "spades-9", "spades-J", "clubs-J"]
    rest = [c for c in game.card_ids if c not in SEAT_0 + seat_1]
    state = game.new_initial_state(seed=0, deal={"hands": [SEAT_0, seat_1, rest[:12], rest[12:]]})
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    measures = state.round_results[0]["measures"]
    assert {k: measures[0][k] for k in ("marriages", "royal", "run", "aces", "pinochle")} == {
        "marriages": 2, "royal": 1, "run": 1, "aces": 1, "pinochle": 1}
    assert state.round_results[0]["rules"][0]["meld"] == 20 + 40 + 150 + 100 + 40
    assert measures[1]["run"] == 1 and measures[1]["aces"] == 0 and measures[1]["marriages"] == 1  # the second run; no spade ace


@pytest.mark.parametrize(("old", "new", "code"), [
    ("ranks: [K, Q]}, of: dealt}", "ranks: [K, X]}, of: dealt}", "TR330"),
    ("suit: trump}, of: dealt}\n    run:", "suit: harts}, of: dealt}\n    run:", "TR301"),
    ("cards: [spades-Q, diamonds-J]", "cards: [spades-Q, diamonds-B]", "TR315"),
])
def test_a_meld_naming_what_the_deck_lacks_is_refused(tmp_path: Path, old: str, new: str, code: str) -> None:
    path = tmp_path / "meld.yaml"
    assert old in SPEC
    path.write_text(SPEC.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path)
    assert code in str(caught.value) and "$.scoring.measures" in str(caught.value)


def _card(suit: int, rank: int, copy: int = 0) -> int:
    return DECK.index((suit, rank)) + copy


TIERS = ((("quarte", Meld(sequence=(4, 4))),), (("tierce", Meld(sequence=(3, 3))), ("marriage", Meld(ranks=(frozenset([12]), frozenset([11]))))))
"""Two tiers of declarations, the stronger first: a run of four; a run of three or a king and queen."""
UNIT = (max(RANK_OF) + 1 + 1) * 2
"""What one tier adds to a declaration's key: 2 * (ranks + 1), ranks counting from 0 to the highest."""


@pytest.mark.parametrize(("hand", "trumps", "expected"), [
    ([], frozenset(), 0),
    ([_card(1, 9), _card(1, 10), _card(1, 11)], frozenset(), 1 * UNIT + (11 + 1) * 2),  # a tierce to 11
    ([_card(1, 9), _card(1, 10), _card(1, 11)], frozenset([1]), 1 * UNIT + (11 + 1) * 2 + 1),  # ... in trumps
    ([_card(2, 12), _card(2, 11, 1), _card(3, 9)], frozenset([3]), 1 * UNIT + (12 + 1) * 2),  # a marriage, not in trumps
    ([_card(2, 12), _card(2, 11), _card(0, 9), _card(0, 10), _card(0, 11)], frozenset([0]), 1 * UNIT + (12 + 1) * 2),  # the higher top wins
    ([_card(0, 10), _card(0, 11), _card(0, 12), _card(0, 13), _card(1, 12), _card(1, 11)], frozenset(), 2 * UNIT + (13 + 1) * 2),  # a quarte beats all
])
def test_a_declaration_is_keyed_by_its_tier_then_its_top_rank_then_trumps(hand: list[int], trumps: frozenset[int], expected: int) -> None:
    assert meld_count(Meld(best=TIERS), hand, SUIT_OF, RANK_OF, trumps, SUITS) == expected
    assert best_key(TIERS, hand, SUIT_OF, RANK_OF, trumps, SUITS) == expected


@pytest.mark.parametrize(("meld", "hand", "trumps", "expected"), [
    (Meld(ranks=(frozenset([14]),), across=True), [_card(s, 14) for s in range(SUITS)], frozenset([2]), (14 + 1) * 2),  # no suit: no trump bit
    (Meld(cards=((_card(3, 11), _card(3, 11, 1)), (_card(1, 10), _card(1, 10, 1)))), [_card(3, 11, 1), _card(1, 10)], frozenset([3]), (11 + 1) * 2),
    (Meld(ranks=(frozenset([12]), frozenset([11])), suits=(2,)), [_card(2, 12), _card(2, 11), _card(1, 12), _card(1, 11)], frozenset([2]), (12 + 1) * 2 + 1),
    (Meld(ranks=(frozenset([12]), frozenset([11])), trump=True), [_card(2, 12), _card(2, 11), _card(1, 12), _card(1, 11)], frozenset([1]), (12 + 1) * 2 + 1),
    (Meld(ranks=(frozenset([12]), frozenset([11])), trump=True), [_card(2, 12), _card(2, 11)], frozenset([1]), 0),
    (Meld(sequence=(3, 0)), [_card(0, 9), _card(0, 10), _card(0, 11), _card(0, 12), _card(0, 13)], frozenset(), (13 + 1) * 2),
])
def test_the_top_of_a_meld_is_its_highest_rank_and_whether_its_suit_is_trumps(meld: Meld, hand: list[int], trumps: frozenset[int], expected: int) -> None:
    assert meld_top(meld, hand, SUIT_OF, RANK_OF, trumps, SUITS) == expected


@pytest.mark.parametrize(("held", "counting", "expected"), [
    ({5, 4, 2}, "with", 2), ({5, 4, 2}, "without", 0), ({5, 4, 2}, "either", 2),
    ({3, 2}, "with", 0), ({3, 2}, "without", 2), ({3, 2}, "either", 2),
    ({5, 4, 3, 2, 1}, "with", 5), ({5, 4, 3, 2, 1}, "without", 0), (set(), "without", 5), (set(), "either", 5),
])
def test_a_run_from_the_top_counts_the_cards_in_a_row_held_or_not(held: set[int], counting: str, expected: int) -> None:
    assert run_length([5, 4, 3, 2, 1], sorted(held), counting) == expected
    assert run_length([], sorted(held), counting) == 0
