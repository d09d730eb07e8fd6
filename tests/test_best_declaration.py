"""Declarations compared (`meld: {best: [...]}`): the standing of a hand's best declaration,
over random hands against a comparison written out by hand; a team reads its best member's;
the spec problems of a comparison that names something else (TR375, TR372)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine import holdings
from trickrules.errors import SpecError
from trickrules.rules.measures import best_key
from trickrules.tools.rulebook import rulebook_markdown

SPEC = """
id: declarations
title: Declarations
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 7, to: 14}}
deal:
  hand_size: 8
trumps: [hearts]
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures:
    tierce: {meld: {sequence: {from: 3, to: 3}}, of: dealt}
    quarte: {meld: {sequence: {from: 4}}, of: dealt}
    jacks: {meld: {ranks: [J], across: suits}, of: dealt}
    aces: {meld: {ranks: [A], across: suits}, of: dealt}
    marriage: {meld: {ranks: [K, Q]}, of: dealt}
    best: {meld: {best: [jacks, [quarte, aces], marriage, tierce]}, of: dealt}
    side_best: {meld: {best: [jacks, [quarte, aces], marriage, tierce]}, of: dealt, per: team}
  round:
    - add: "tricks + (10 if best > side_best else 0) + jacks + aces + marriage + quarte + tierce"
"""

GAME = trickrules.Game(trickrules.load_ruleset_text(SPEC))
RULES = GAME.ruleset
HEARTS = frozenset([2])
FACES = GAME.tables(HEARTS).faces
BEST = next(m for m in RULES.scoring.measures if m.name == "best").holding.meld


def _standing(hand: list[int]) -> int:
    """The best declaration written out: jacks around (tier 4), a run of four or more or aces
    around (tier 3), a king and queen of one suit (tier 2), a run of three (tier 1); within a
    tier the highest top rank, then one in hearts; (tier * 16 + (top + 1)) * 2 + hearts."""
    held = {(FACES.suit[c], FACES.rank[c]) for c in hand}
    found: list[tuple[int, int, int]] = []  # (tier, top, in hearts)
    if all((suit, 11) in held for suit in range(4)):
        found.append((4, 11, 0))
    if all((suit, 14) in held for suit in range(4)):
        found.append((3, 14, 0))
    for suit in range(4):
        if (suit, 13) in held and (suit, 12) in held:
            found.append((2, 13, int(suit == 2)))
        rank = 7
        while rank <= 14:
            length = 0
            while (suit, rank + length) in held:
                length += 1
            if length >= 3:
                found.append((3 if length >= 4 else 1, rank + length - 1, int(suit == 2)))
            rank += max(length, 1)
    if not found:
        return 0
    tier, top, hearts = max(found)
    return (tier * 16 + top + 1) * 2 + hearts


@settings(max_examples=300)
@given(seed=st.integers(0, 10**9), size=st.integers(0, 16))
def test_the_best_declaration_is_the_one_a_comparison_written_out_finds(seed: int, size: int) -> None:
    hand = random.Random(seed).sample(range(32), size)
    assert best_key(BEST.best, hand, FACES.suit, FACES.rank, HEARTS, 4) == _standing(hand)


def test_a_longer_run_beats_a_higher_shorter_one_and_trumps_break_equal_runs() -> None:
    ids = GAME.card_ids

    def standing(*cards: str) -> int:
        return best_key(BEST.best, [ids.index(c) for c in cards], FACES.suit, FACES.rank, HEARTS, 4)

    tierce_to_the_ten = standing("clubs-8", "clubs-9", "clubs-10")
    assert standing("clubs-7", "clubs-8", "clubs-9", "clubs-10") > tierce_to_the_ten  # a quarte outranks any tierce
    assert standing("hearts-8", "hearts-9", "hearts-10") > tierce_to_the_ten  # equal runs: the one in trumps
    assert standing("spades-7", "spades-8", "spades-9") < tierce_to_the_ten  # a lower top card
    assert standing("spades-Q", "spades-K") > standing("clubs-9", "clubs-10", "clubs-J") > 0  # a marriage's tier is above the tierce's
    assert standing("hearts-Q", "hearts-K", "spades-7") > standing("spades-Q", "spades-K", "hearts-7")  # the marriage in trumps
    assert standing("clubs-J", "diamonds-J", "hearts-J", "spades-J") > standing("clubs-A", "diamonds-A", "hearts-A", "spades-A")
    assert standing("clubs-7", "diamonds-9") == 0


def test_a_team_reads_the_best_of_its_players_hands_each_read_apart() -> None:
    """Seat 0's clubs 7 8 9 and seat 2's clubs 10 J Q are two tierces, not a run of six: the
    team's standing is the better of the two, at its first seat."""
    ids = GAME.card_ids
    hands = [["clubs-7", "clubs-8", "clubs-9"], ["spades-7"], ["clubs-10", "clubs-J", "clubs-Q"], ["spades-8"]]
    state = GAME.new_initial_state(0)
    state.dealt = (*[tuple(ids.index(c) for c in hand) for hand in hands], ())
    measures = [[0] * len(RULES.scoring.measures) for _ in range(4)]
    holdings.fill_holdings(state, measures, [[] for _ in range(4)])
    names = [m.name for m in RULES.scoring.measures]
    best, side = names.index("best"), names.index("side_best")
    seat_0, seat_2 = _standing(list(state.dealt[0])), _standing(list(state.dealt[2]))
    assert 0 < seat_0 < seat_2
    assert [row[best] for row in measures] == [seat_0, 0, seat_2, 0]
    assert [row[side] for row in measures] == [seat_2, 0, 0, 0]
    assert [row[names.index("tierce")] for row in measures] == [1, 0, 1, 0]


@pytest.mark.parametrize(("best", "code", "where"), [
    ("[jacks, nothing]", "TR375", "nothing"),
    ("[jacks, tricks]", "TR375", "tricks"),
    ("[jacks, [aces, jacks]]", "TR375", "twice"),
    ("[jacks, best]", "TR375", "best"),
])
def test_a_comparison_names_meld_measures_that_count_a_pattern(best: str, code: str, where: str) -> None:
    text = SPEC.replace("best: {meld: {best: [jacks, [quarte, aces], marriage, tierce]}, of: dealt}",
                        f"best: {{meld: {{best: {best}}}, of: dealt}}")
    with pytest.raises(SpecError) as caught:
        trickrules.load_ruleset_text(text)
    problems = [p for p in caught.value.problems if p.code == code]
    assert problems and where in problems[0].message


def test_a_comparison_is_one_pattern_on_its_own() -> None:
    text = SPEC.replace("best: {meld: {best: [jacks, [quarte, aces], marriage, tierce]}, of: dealt}",
                        "best: {meld: {best: [jacks], ranks: [K]}, of: dealt}")
    with pytest.raises(SpecError) as caught:
        trickrules.load_ruleset_text(text)
    assert any(p.code == "TR372" and "ranks and best" in p.message for p in caught.value.problems)


def test_a_comparison_is_not_shown_to_the_table_and_is_worded_in_the_rulebook() -> None:
    text = SPEC.replace("hand_size: 8\n", "hand_size: 8\nround: [deal, show_melds, play, score]\n", 1)
    game = trickrules.Game(trickrules.load_ruleset_text(text))
    shown = {m["meld"] for mine in game.new_initial_state(3, record=True).observation(0)["melds"] for m in mine}
    assert shown and not shown & {"best", "side_best"}
    words = rulebook_markdown(game.ruleset)
    assert "the standing of the best declaration" in words and "jacks; quarte or aces; marriage; tierce" in words
