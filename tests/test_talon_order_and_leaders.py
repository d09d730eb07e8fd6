"""A given deal's set-aside cards in the order they lie, burying under conditions tried in turn,
and a contract that names its own first leader (`first_leader: declarer`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trickrules
from trickrules.errors import DealError
from trickrules.tools.record import build_record, dumps, replay

SPEC = """\
language: 2
id: talon-and-leaders
title: Talon order and leaders
players: [3]
deck:
  suits: [a, b, c]
  generate: [{suits: all, ranks: {from: 1, to: 8}}]
deal:
  hand_size: 6
  first_leader: {seat: 0}
round:
  - deal
  - declare: {first: {seat: 1}}
  - take: {groups: 3, shown: true, bury: 2, forbid: [{any: [{suit: a}, {suit: b}]}, {suit: a}]}
  - play
  - score
ranking: [{prefer: led}, {highest: rank}]
scoring: {round: [{name: z, add: "0"}]}
contracts:
  low: {description: the first seat leads}
  high: {description: the declarer leads, first_leader: declarer}
"""

HANDS = [["a-1", "a-2", "a-3", "a-4", "a-5", "a-6"], ["a-7", "a-8", "b-1", "b-2", "b-3", "b-4"],
         ["b-5", "b-6", "b-7", "b-8", "c-1", "c-2"]]
TALON = ["c-8", "c-7", "c-3", "c-4", "c-6", "c-5"]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> trickrules.Game:
    path = tmp_path_factory.mktemp("talon") / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return trickrules.load_game(path)


def _say(state: trickrules.State, text: str) -> None:
    state.apply_action(state.game.string_to_action(text))


def test_the_groups_follow_the_given_order_of_the_set_aside_cards(game: trickrules.Game) -> None:
    state = game.new_initial_state(0, deal={"hands": HANDS, "set_aside": TALON})
    _say(state, "contract low")
    assert state.observation(0)["set_aside_shown"] == TALON
    _say(state, "take group 2")
    assert {"c-3", "c-4"} <= set(state.observation(1)["hand"])


def test_a_set_aside_order_that_is_not_the_cards_not_dealt_is_refused(game: trickrules.Game) -> None:
    with pytest.raises(DealError, match="set_aside"):
        game.new_initial_state(0, deal={"hands": HANDS, "set_aside": TALON[:5] + ["a-1"]})


def test_a_record_keeps_the_order_of_the_set_aside_cards(game: trickrules.Game) -> None:
    state = game.new_initial_state(0, deal={"hands": HANDS, "set_aside": TALON}, record=True)
    for text in ("contract high", "take group 3"):
        _say(state, text)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = json.loads(dumps(build_record(state)))
    assert record["deals"][0]["set_aside"] == TALON
    result = replay(record, game)
    assert result.verified, result.message


def test_burying_tries_each_forbidden_kind_in_turn(game: trickrules.Game) -> None:
    state = game.new_initial_state(0, deal={"hands": HANDS, "set_aside": TALON})
    _say(state, "contract low")
    _say(state, "take group 1")  # seat 1 holds a, b and now c cards: the c cards may go
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == ["bury c-7", "bury c-8"]
    _say(state, "bury c-8")
    _say(state, "bury c-7")
    hands = [["a-7", "a-8", "b-1", "b-2", "b-3", "b-4"], ["a-1", "a-2", "a-3", "a-4", "a-5", "a-6"], ["b-7", "b-8", "c-1", "c-2", "c-7", "c-8"]]
    plain = game.new_initial_state(0, deal={"hands": hands, "set_aside": ["b-5", "b-6", "c-3", "c-4", "c-5", "c-6"]})
    _say(plain, "contract low")
    _say(plain, "take group 1")  # only a and b cards: the first condition leaves none, the second the b cards
    assert sorted(plain.action_to_string(a) for a in plain.legal_actions()) == ["bury b-5", "bury b-6"]


def test_a_contract_names_its_own_first_leader(game: trickrules.Game) -> None:
    for contract, leader in (("low", 0), ("high", 1)):
        state = game.new_initial_state(0, deal={"hands": HANDS, "set_aside": TALON})
        _say(state, f"contract {contract}")
        _say(state, "take group 3")
        for _ in range(2):
            state.apply_action(state.legal_actions()[0])
        assert state.current_player() == leader, contract
