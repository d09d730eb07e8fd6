"""Melds shown to the table (`show_melds`): which cards each seat shows, that they are public
until played (observation, tensor, resampled states), that the log and the record name them,
and the spec problems of the phase."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from helpers import SPECS
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine.phases import Phase, show_melds
from trickrules.rules.measures import meld_cards, meld_count
from trickrules.tools.record import build_record, replay

PINOCHLE = trickrules.load_game(SPECS / "pinochle.yaml")
RULES = PINOCHLE.ruleset
MELDS = [m for m in RULES.scoring.measures if m.holding is not None and m.holding.meld is not None]


def _at_play(seed: int) -> trickrules.State:
    """A Pinochle round at its first play (some seat bid), dealt by `seed`."""
    for attempt in range(seed, seed + 50):
        state = PINOCHLE.new_initial_state(attempt, record=True)
        rng = random.Random(attempt)
        while state.phase != Phase.PLAY and not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase == Phase.PLAY and state.round == 0:
            return state
    raise AssertionError("no round reached play")


def _pattern(measure: Any, trumps: frozenset[int]) -> Counter[tuple[int, int]]:
    """The (suit, rank) pairs one showing of a rank meld needs, written out by hand."""
    meld = measure.holding.meld
    suits = sorted(trumps) if meld.trump else (meld.suits if meld.suits is not None else range(len(RULES.deck.suits)))
    need: Counter[tuple[int, int]] = Counter()
    for suit in suits if meld.across else suits[:1]:
        for ranks in meld.ranks:
            (rank,) = ranks
            need[suit, rank] += 1
    return need


@settings(max_examples=60)
@given(seed=st.integers(0, 10**6), trump=st.integers(0, 3))
def test_the_cards_shown_are_the_held_melds_and_no_more(seed: int, trump: int) -> None:
    """For random hands: every card shown is in the hand and fits its meld; a meld held k times
    shows k times its pattern; one not held shows nothing."""
    rng = random.Random(seed)
    hand = rng.sample(range(len(RULES.deck.cards)), 12)
    faces = PINOCHLE.tables(frozenset([trump])).faces
    trumps, suits = frozenset([trump]), len(RULES.deck.suits)
    for measure in MELDS:
        meld = measure.holding.meld
        cards = meld_cards(meld, hand, faces.suit, faces.rank, trumps, suits)
        times = meld_count(meld, hand, faces.suit, faces.rank, trumps, suits) * meld.times
        assert set(cards) <= set(hand) and len(set(cards)) == len(cards)
        if meld.cards:
            ids = Counter(RULES.deck.cards[c].id.split("#")[0] for c in cards)
            wanted = {RULES.deck.cards[copies[0]].id for copies in meld.cards}
            assert ids == Counter({name: times for name in wanted}) if times else not cards
        elif meld.trump or meld.across:
            shown = Counter((faces.suit[c], faces.rank[c]) for c in cards)
            assert shown == Counter({key: count * times for key, count in _pattern(measure, trumps).items()})
        else:  # marriages: a K and a Q of one suit per time, across any suits
            ranks = [next(iter(r)) for r in meld.ranks]
            by_suit = Counter((faces.suit[c], faces.rank[c]) for c in cards)
            assert sum(by_suit.values()) == times * len(ranks)
            for suit in range(suits):
                assert len({by_suit[suit, rank] for rank in ranks}) == 1  # whole marriages only


def test_every_seat_sees_every_meld_once_trumps_are_named() -> None:
    state = _at_play(3)
    events = [e for e in state.events or [] if e["type"] == "melds"]
    assert len(events) == 1
    views = [state.observation(p) for p in range(4)]
    assert all(view["melds"] == views[0]["melds"] for view in views)
    assert all(view["shown"] == views[0]["shown"] for view in views)
    trumps, suits = state.trumps, len(RULES.deck.suits)
    faces = state.tables.faces
    for seat, (mine, hand) in enumerate(zip(views[0]["melds"], state.hands)):
        expected = [m.name for m in MELDS if meld_count(m.holding.meld, hand, faces.suit, faces.rank, trumps, suits)]
        assert [m["meld"] for m in mine] == expected, seat


def test_a_shown_card_leaves_the_shown_cards_when_played() -> None:
    for seed in range(40):
        state = _at_play(seed)
        shown = show_melds.shown_cards(state)
        player = state.current_player()
        playable = [a for a in state.legal_actions() if a in shown[player]]
        if not playable:
            continue
        state.apply_action(playable[0])
        assert playable[0] not in show_melds.shown_cards(state)[player]
        assert PINOCHLE.card_ids[playable[0]] not in state.observation(0)["shown"][player]
        return
    raise AssertionError("no shown card was playable in 40 deals")


def test_the_tensor_marks_each_seats_shown_cards() -> None:
    state = _at_play(5)
    segment = PINOCHLE.observation_layout().segment("shown")
    _, width = segment.shape
    tensor = state.observation_tensor(1)
    for seat, cards in enumerate(show_melds.shown_cards(state)):
        row = tensor[segment.start + seat * width : segment.start + (seat + 1) * width]
        assert {i for i, v in enumerate(row) if v} == cards


def test_a_resampled_state_keeps_the_shown_cards_in_their_owners_hands() -> None:
    state = _at_play(7)
    shown = show_melds.shown_cards(state)
    rng = random.Random(1)
    for _ in range(20):
        sample = state.resample_from_infostate(0, rng)
        for seat, cards in enumerate(shown):
            assert cards <= set(sample.hands[seat]), seat
        assert sample.observation(0) == state.observation(0)


def test_the_record_names_the_melds_and_replays() -> None:
    state = _at_play(9)
    rng = random.Random(9)
    while not state.is_terminal():  # a whole game: a record replays to its end
        state.apply_action(rng.choice(state.legal_actions()))
    record = build_record(state)
    first = record["rounds"][0]
    assert len(first["melds"]) == 4
    for seat, mine in enumerate(first["melds"]):
        dealt = set(first["hands"][seat])
        assert all(card in dealt for meld in mine for card in meld["cards"])
    assert replay(record, PINOCHLE).verified


def _problems(text: str) -> list[tuple[str, str]]:
    from trickrules.errors import SpecError

    try:
        trickrules.load_ruleset_text(text)
    except SpecError as error:
        return [(p.code, p.path) for p in error.problems]
    return []


BASE = """
id: m
title: M
players: [4]
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 8}}
deal:
  hand_size: 4
ranking:
  - prefer: led
  - highest: rank
"""


@pytest.mark.parametrize(
    ("round_", "measures", "expected"),
    [
        ("[deal, {show_melds: {measures: [pairs, tricks]}}, play, score]", "pairs: {meld: {ranks: [7, 8]}, of: dealt}",
         [("TR370", "$.round[1].show_melds.measures[1]")]),
        ("[deal, show_melds, play, score]", "", [("TR370", "$.round[1]")]),
        ("[deal, show_melds, play, score]", "pairs: {meld: {ranks: [7, 8]}, of: dealt}", []),
    ],
)
def test_show_melds_needs_meld_measures(round_: str, measures: str, expected: list[tuple[str, str]]) -> None:
    scoring = f"scoring:\n  measures:\n    {measures}\n  round:\n    - add: tricks\n" if measures else "scoring:\n  round:\n    - add: tricks\n"
    assert _problems(BASE + f"round: {round_}\n" + scoring) == expected
