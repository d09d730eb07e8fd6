"""Starting a game at a position, through the public `start_at`."""

from __future__ import annotations

import doctest

import pytest

import trickrules
from trickrules.engine import positions
from trickrules.engine.positions import Position, PositionError, start_at
from trickrules.engine import phases


def test_the_module_example_runs_as_written() -> None:
    assert doctest.testmod(positions).failed == 0


def test_a_position_plays_on_from_where_it_stands() -> None:
    game = trickrules.load_game("hearts")
    state = start_at(game, Position(leader=2, trick_number=3, counters={"broken": 1}, tricks_won={0: 2},
                                    hands={2: ["hearts-5"], 3: ["hearts-9"], 0: ["clubs-2"], 1: ["hearts-K"]}))
    assert state.phase == trickrules.Phase.PLAY and state.current_player() == 2
    assert state.tricks_played == 2 and state.tricks_won == [2, 0, 0, 0] and state.events == []
    for card in ("hearts-5", "hearts-9", "clubs-2", "hearts-K"):
        state.apply_action(game.card_index(card))
    trick = [e for e in state.events if e["type"] == "trick"]
    assert trick and trick[0]["winner"] == 1  # the king of hearts takes the trick


def test_a_tableau_and_supply_are_set_as_given() -> None:
    game = trickrules.load_game("kingdoms", players=4)
    section = game.ruleset.tableau.sections[0].name
    state = start_at(game, Position(supply={"peasant": 3}, tableau={1: {section: {"cards": ["red-7"], "tokens": 2}}}))
    assert phases.place_tokens.tokens(state).supply == [3]
    assert state.stacks[1][0] == [game.card_index("red-7")] and state.section_tokens[1][0] == 2


@pytest.mark.parametrize(
    ("position", "message"),
    [
        (Position(hands={0: ["hearts-1"]}), "no card 'hearts-1' in the deck"),
        (Position(leader=4), "seat 4: a seat from 0 to 3"),
        (Position(trick_number=14), "trick_number 14: a trick number from 1 to 13"),
        (Position(counters={"bags": 1}), "no counter 'bags' in the spec (counters: broken)"),
        (Position(trumps=["stars"]), "no suit 'stars' in the deck (suits: clubs, diamonds, hearts, spades)"),
        (Position(supply={"peasant": 1}), "no token 'peasant' in the spec (tokens: none)"),
        (Position(round=0), "round 0: a round number from 1 to"),
        (Position(tableau={0: {"A": {}}}), "the spec has no tableau"),
    ],
)
def test_what_the_game_does_not_have_is_refused_by_name(position: Position, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        start_at(trickrules.load_game("hearts"), position)


@pytest.mark.parametrize("name", ["hearts", "spades", "kingdoms"])
def test_a_round_started_at_a_position_is_scored_when_its_last_trick_is_played(name: str) -> None:
    game = trickrules.load_game(name)
    dealt = game.new_initial_state(4)
    last = dealt.hand_size  # one card each, for the round's last trick
    hands = {seat: [game.card_ids[dealt.hands[seat][0]]] for seat in range(game.num_players)}
    state = start_at(game, Position(trick_number=last, hands=hands))
    while state.round == 0 and not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action in {state}"
        state.apply_action(legal[0])
    assert state.events is not None
    assert [e["type"] for e in state.events if e["type"] == "round_end"] == ["round_end"]
