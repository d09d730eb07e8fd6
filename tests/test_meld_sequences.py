"""Melds of ranks in a row (`meld: {sequence: {from, to}}`): Belote's tierce, quarte and quinte,
counted over random hands against a count written out by hand, shown to the table, and the
spec problems of a meld without one pattern."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.errors import SpecError
from trickrules.rules.measures import meld_cards, meld_count

SPEC = """
id: sequences
title: Sequences
players: [4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 7, to: 14}}
deal:
  hand_size: 8
ranking:
  - prefer: led
  - highest: rank
round: [deal, show_melds, play, score]
scoring:
  measures:
    tierces: {meld: {sequence: {from: 3, to: 3}}, of: dealt}
    quartes: {meld: {sequence: {from: 4, to: 4}}, of: dealt}
    quintes: {meld: {sequence: {from: 5}}, of: dealt}
  round:
    - add: "tricks + 20 * tierces + 50 * quartes + 100 * quintes"
"""

GAME = trickrules.Game(trickrules.load_ruleset_text(SPEC))
RULES = GAME.ruleset
FACES = GAME.tables(frozenset()).faces
BOUNDS = {"tierces": (3, 3), "quartes": (4, 4), "quintes": (5, 99)}


def _by_hand(hand: list[int], shortest: int, longest: int) -> list[list[int]]:
    """The runs in a row of each suit, found by walking the ranks 7 to 14 one by one."""
    runs = []
    for suit in range(4):
        held = {FACES.rank[c] for c in hand if FACES.suit[c] == suit}
        length = 0
        for rank in range(7, 16):
            if rank in held:
                length += 1
                continue
            if shortest <= length <= longest:
                runs.append([suit, rank - length, length])
            length = 0
    return runs


@settings(max_examples=200)
@given(seed=st.integers(0, 10**9), size=st.integers(3, 20))
def test_runs_in_a_row_are_counted_as_a_hand_count_finds_them(seed: int, size: int) -> None:
    hand = random.Random(seed).sample(range(32), size)
    for measure in (m for m in RULES.scoring.measures if m.name in BOUNDS):
        meld = measure.holding.meld
        runs = _by_hand(hand, *BOUNDS[measure.name])
        assert meld_count(meld, hand, FACES.suit, FACES.rank, frozenset(), 4) == len(runs)
        shown = meld_cards(meld, hand, FACES.suit, FACES.rank, frozenset(), 4)
        assert len(shown) == sum(length for _, _, length in runs)
        assert sorted((FACES.suit[c], FACES.rank[c]) for c in shown) == sorted(
            (suit, low + i) for suit, low, length in runs for i in range(length))


def test_a_sequence_is_shown_to_the_table_and_scored() -> None:
    state = GAME.new_initial_state(11, record=True)
    view = state.observation(0)
    for seat, hand in enumerate(state.hands):
        expected = {name: len(_by_hand(hand, *BOUNDS[name])) for name in BOUNDS}
        assert {m["meld"] for m in view["melds"][seat]} == {name for name, count in expected.items() if count}
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    dealt = [e for e in state.events or [] if e["type"] == "deal"][0]["hands"]
    result = state.round_results[0]
    for seat, hand in enumerate(dealt):
        counts = {name: len(_by_hand(hand, *BOUNDS[name])) for name in BOUNDS}
        assert {name: result["measures"][seat][name] for name in BOUNDS} == counts


@pytest.mark.parametrize(
    ("meld", "message"),
    [
        ("{sequence: {from: 3}, ranks: [K, Q]}", "this one has ranks and sequence"),
        ("{suit: clubs}", "this one has no pattern"),
        ("{sequence: {from: 3}, across: suits}", "this one has sequence with across"),
        ("{sequence: {from: 4, to: 3}}", "'to' is below 'from'"),
    ],
)
def test_a_meld_is_one_pattern(meld: str, message: str) -> None:
    text = SPEC.replace("{meld: {sequence: {from: 3, to: 3}}, of: dealt}", f"{{meld: {meld}, of: dealt}}")
    with pytest.raises(SpecError) as error:
        trickrules.load_ruleset_text(text)
    problems = [(p.code, p.message) for p in error.value.problems]
    assert len(problems) == 1 and problems[0][0] == "TR372" and message in problems[0][1], problems


def test_the_rulebook_words_a_sequence_by_its_length() -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    text = rulebook_markdown(RULES)
    assert "hold a run of exactly 3 ranks in a row (each run as long as it goes) of one suit" in text
    assert "hold a run of 5 or more ranks in a row" in text
