"""Teams formed by the deal (`teams: {holders_of: CARD}`): who is in which team, what each
player knows of them as play goes on, the scoring names that read them (`makers`,
`team_size`), the reward condition `winner_is_partner`, and the trick's number and last trick
in reward conditions; records and logs that show them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trickrules.engine import partners
from trickrules.engine.game import Game
from trickrules.engine.positions import Position, start_at
from trickrules.engine.resample import resample
from trickrules.engine.state import State
from trickrules.engine.tensors import ObservationLayout
from trickrules.errors import SpecError
from trickrules.spec.dump import dump_yaml
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.record import build_record
from trickrules.tools.textlog import render_record

SPEC = """\
language: 2
id: holders
title: Holders
players: [4]
teams: {holders_of: red-4}
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 4}, copies: 2}
deal:
  hand_size: 4
  first_leader: {seat: 0}
trumps: [red]
follow: [follow_led]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}, first_played]
tokens:
  caught: {}
rewards:
  - {name: ultimo, to: winner, when: {trick: last_trick}, give: {points: 5}}
  - {name: third, to: winner, when: {trick: "trick_number == 3"}, give: {points: 1}}
  - {name: caught, to: losers, when: {rank: 3, winner_is_partner: false}, give: {token: caught, amount: 1}}
scoring:
  measures:
    caught: {tokens: caught}
  round:
    - {name: side, per: team, add: "(10 if makers else -10) * (3 if team_size == 1 else 1)"}
"""

# seat 0 and seat 2 hold the red 4s; seat 1 holds a red 3
SPLIT = {"hands": [["red-4", "blue-1", "blue-2", "red-1"], ["red-3", "blue-3", "blue-4", "red-1#2"],
                   ["red-4#2", "blue-1#2", "blue-2#2", "red-2"], ["red-3#2", "blue-3#2", "blue-4#2", "red-2#2"]]}
# seat 1 holds both red 4s
ALONE = {"hands": [["red-3", "blue-1", "blue-2", "red-1"], ["red-4", "red-4#2", "blue-4", "red-1#2"],
                   ["red-3#2", "blue-1#2", "blue-2#2", "red-2"], ["blue-3", "blue-3#2", "blue-4#2", "red-2#2"]]}


def game(text: str = SPEC) -> Game:
    return Game(load_ruleset_text(text))


def dealt(deal: dict[str, Any], record: bool = False) -> State:
    return game().new_initial_state(0, record=record, deal=deal)


def play(state: State, *cards: str) -> None:
    for card in cards:
        state.apply_action(state.game.card_index(card))


def test_the_holders_of_every_copy_are_the_first_team() -> None:
    assert dealt(SPLIT).round_teams == ((0, 2), (1, 3))
    assert dealt(ALONE).round_teams == ((1,), (0, 2, 3))
    assert game().ruleset.partner_cards == (game().card_index("red-4"), game().card_index("red-4#2"))


def test_a_player_knows_its_own_side_and_no_other_before_the_card_is_played() -> None:
    state = dealt(SPLIT)
    for player in range(4):
        known = partners.known_sides(state, player)
        assert known[player] == 0 and known.count(partners.UNKNOWN) == 3
        assert state.observation(player)["sides"].count(None) == 3


def test_playing_a_partner_card_reveals_its_holder_to_everyone() -> None:
    state = dealt(SPLIT)
    play(state, "red-4")  # seat 0 leads a red 4
    assert state.observation(1)["sides"] == ["other", "own", None, None]
    assert state.observation(3)["sides"] == ["other", None, None, "own"]
    assert state.observation(2)["sides"] == ["own", "other", "own", "other"]  # its own copy and the one played: all known
    play(state, "red-1#2", "red-4#2")  # seat 2 plays the other: every side is known
    assert state.observation(1)["sides"] == ["other", "own", "other", "own"]
    assert state.observation(3)["sides"] == ["other", "own", "other", "own"]


def test_a_player_dealt_every_partner_card_knows_every_side_at_once() -> None:
    state = dealt(ALONE)
    assert state.observation(1)["sides"] == ["other", "own", "other", "other"]
    assert state.observation(0)["sides"] == ["own", None, None, None]


def test_the_tensor_shows_only_the_known_sides() -> None:
    state = dealt(SPLIT)
    segment = ObservationLayout(state.game).segment("known_sides")
    assert state.observation_tensor(1)[segment.slice] == [0, 1, 0, 0] + [0, 0, 0, 0]
    play(state, "red-4")
    assert state.observation_tensor(1)[segment.slice] == [0, 1, 0, 0] + [1, 0, 0, 0]
    assert state.observation_tensor(3)[segment.slice] == [0, 0, 0, 1] + [1, 0, 0, 0]


def test_a_resampled_state_has_the_teams_of_its_own_hands() -> None:
    state = dealt(SPLIT)
    play(state, "blue-1")
    seen = set()
    for seed in range(40):
        world = resample(state, 1, random.Random(seed))
        holders = tuple(p for p, hand in enumerate(partners.dealt_hands(world)) if set(hand) & set(world.game.ruleset.partner_cards))
        assert world.round_teams[0] == holders and 1 not in holders
        assert world.observation(1) == state.observation(1)
        seen.add(holders)
    assert len(seen) > 1  # the hidden partner is dealt again, not copied


def finished(deal: dict[str, Any]) -> State:
    state = dealt(deal)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_makers_are_the_holders_and_a_lone_holder_scores_for_three() -> None:
    result = finished(SPLIT).round_results[0]
    assert [rules["side"] for rules in result["rules"]] == [10, -10, 0, 0]  # a team's points on its first seat
    assert result["points"][0] == result["points"][2] and result["points"][1] == result["points"][3]
    alone = finished(ALONE).round_results[0]
    assert [rules["side"] for rules in alone["rules"]] == [-10, 30, 0, 0]
    assert alone["points"][1] - alone["rewards"][1] == 30
    assert all(alone["points"][p] == alone["points"][0] for p in (2, 3))


def test_ultimo_fires_only_on_the_last_trick_and_third_on_the_third() -> None:
    state = dealt(SPLIT, record=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = build_record(state)
    tricks = record["rounds"][0]["tricks"]
    named = [[reward["reward"] for reward in trick.get("rewards", [])] for trick in tricks]
    assert [("ultimo" in names) for names in named] == [False, False, False, True]
    assert [("third" in names) for names in named] == [False, False, True, False]


def test_a_card_caught_by_the_other_side_gains_its_owner_the_token() -> None:
    state = dealt(SPLIT)
    play(state, "red-4", "red-3", "red-2", "red-2#2")  # seat 0 (holders) wins seat 1's red 3
    assert state.pool[1] == [1]
    state2 = dealt(SPLIT)
    play(state2, "blue-1", "blue-3", "blue-1#2", "blue-3#2")  # blue 3s: rank 3, but seat 1 wins
    assert state2.pool == [[0], [0], [0], [0]]


def test_a_partner_catching_the_card_gains_nothing() -> None:
    state = dealt(SPLIT)
    play(state, "red-1", "red-1#2", "red-2", "red-3#2")  # seat 3's red 3 wins: not caught
    assert state.pool == [[0], [0], [0], [0]]
    state = dealt(ALONE)
    play(state, "red-1", "red-4", "red-3#2", "red-2#2")  # seat 1 alone catches seat 2's red 3
    assert state.pool[2] == [1]


def test_winner_is_partner_without_teams_is_an_error() -> None:
    text = SPEC.replace("teams: {holders_of: red-4}\n", "").replace("per: team, ", "").replace("makers", "True").replace("team_size", "1")
    with pytest.raises(SpecError) as error:
        load_ruleset_text(text)
    assert "TR353" in str(error.value)


def test_teams_by_the_deal_dump_and_load_back() -> None:
    rules = game().ruleset
    again = load_ruleset_text(dump_yaml(rules))
    assert again.partner_cards == rules.partner_cards
    assert again.rewards == rules.rewards


def test_the_record_and_log_say_who_was_in_which_team() -> None:
    state = dealt(SPLIT, record=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = build_record(state)
    assert record["partners"] == {"holders_of": ["red-4", "red-4#2"]}
    assert record["rounds"][0]["teams"] == [[0, 2], [1, 3]]
    text = render_record(record)
    assert "the holders of red-4 against the others" in text
    assert "Teams: P0 and P2; P1 and P3" in text


def test_a_position_forms_the_teams_from_its_own_hands() -> None:
    state = start_at(game(), Position(hands={1: ["red-4", "blue-1"], 3: ["red-4#2", "blue-2"], 0: ["blue-3"], 2: ["blue-4"]}))
    assert state.round_teams == ((1, 3), (0, 2))
    assert state.observation(1)["sides"] == [None, "own", None, None]  # the other copy is in a hidden hand
