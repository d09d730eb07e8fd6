"""`trumps: first_led`: no trumps until the round's first card is led; then its suit is trump
for the rest of the round (Pitch), round after round."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.spec.dump import dump_yaml
from trickrules.tools.rulebook import rulebook_markdown as rulebook

SPEC = """\
language: 2
id: first-led
title: First led
players: [3]
deck:
  suits: [red, blue, green]
  generate: [{suits: all, ranks: {from: 1, to: 6}}]
deal: {hand_size: 2, first_leader: {seat: 0}}
rounds: 2
trumps: first_led
follow: [follow_led]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
scoring:
  round: [{add: tricks}]
"""

HANDS = [["blue-1", "red-2"], ["green-6", "red-4"], ["blue-3", "red-6"]]


@pytest.fixture()
def game(tmp_path: Path) -> trickrules.Game:
    path = tmp_path / "first-led.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return trickrules.load_game(path)


def play(state: trickrules.State, *cards: str) -> None:
    for card in cards:
        state.apply_action(state.game.string_to_action(f"play {card}"))


def test_the_first_card_led_names_trumps(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0, deal={"hands": HANDS})
    assert state.trumps == frozenset()
    play(state, "blue-1")
    assert state.trumps == frozenset({game.ruleset.deck.suits.index("blue")})
    play(state, "green-6", "blue-3")
    assert state.leader == 2  # the blue 3 beats the blue 1; the green 6 is off suit


def test_a_trump_of_the_first_leds_suit_beats_a_later_led_suit(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=0, deal={"hands": [["blue-1", "red-2"], ["blue-2", "green-6"], ["red-6", "blue-3"]]})
    play(state, "red-2")  # red is trump for the round
    play(state, "blue-2", "red-6")
    assert state.leader == 2
    play(state, "blue-3", "blue-1", "green-6")  # blue led, no red left: the blue 3; the round ends
    assert state.totals == [0, 0, 2] and state.trumps == frozenset()  # the next round has none yet


def test_each_round_names_its_own_trumps(game: trickrules.Game) -> None:
    state = game.new_initial_state(seed=3)
    seen = []
    while not state.is_terminal():
        if not state.trick and state.tricks_played == 0:
            assert state.trumps == frozenset()
        state.apply_action(state.legal_actions()[0])
        if state.trick and len(state.trick) == 1 and state.tricks_played == 0:
            seen.append(state.trumps)
    assert len(seen) == 2 and all(len(trumps) == 1 for trumps in seen)


def test_first_led_round_trips_and_reads_in_the_rulebook(game: trickrules.Game) -> None:
    assert trickrules.load_ruleset_text(dump_yaml(game.ruleset), players=3) == game.ruleset
    assert "its suit is trump for the rest of the round" in rulebook(game.ruleset)
