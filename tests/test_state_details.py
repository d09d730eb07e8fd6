"""The engine's state in detail: contracts and their teams, what expressions read (counters by
player and team), copies and pickles, views and refusals, each on a small spec whose outcome
can be worked out by hand. The phases' edge cases are in test_phase_edges.py."""

from __future__ import annotations

import copy
import pickle
from functools import lru_cache
from typing import Any

import pytest

from helpers import TINY, spec_game, events, play_out, SMALL, CONTRACTS, GIVEN

import trickrules
from trickrules.engine.state import State
from trickrules.errors import OutOfRangeError
from trickrules.spec.loader import load_ruleset_text
from trickrules.engine import phases

Phase = trickrules.Phase








# ---------------------------------------------------------------- contracts

# TINY with three cards each, so that three cards stay undealt and one is turned up

SOLO, PLAIN, TEAM = 0, 1, 2
# the deal of every contract test: red-1, blue-4 and green-4 stay undealt, red-1 is turned up


def declared(contract: int | None, deal: dict[str, Any] = GIVEN) -> State:
    """A state of the contract spec after the dealer (seat 0) declares `contract` (None: all pass)."""
    game = spec_game(CONTRACTS)
    state = game.new_initial_state(0, record=True, deal=deal)
    assert state.phase == Phase.DECLARE and state.current_player() == 0
    if contract is None:
        for _ in range(3):
            state.apply_action(game.choose_pass_action)
    else:
        state.apply_action(game.contract_offset + contract)
    assert state.phase == Phase.PLAY
    return state


def test_a_declarer_in_seat_zero_playing_alone_is_a_team_of_one_against_the_rest() -> None:
    """Seat 0 declaring a contract played alone: teams (0,) and (1, 2), the contract's trumps."""
    state = declared(SOLO)
    assert state.declarer == 0 and phases.declare.contract(state) == SOLO
    assert state.round_teams == ((0,), (1, 2))
    assert state.trumps == frozenset([2])


def test_a_contract_not_played_alone_keeps_the_spec_teams() -> None:
    """A contract without `declarer: alone` leaves the spec's teams (none), even with a declarer."""
    state = declared(TEAM)
    assert state.declarer == 0 and state.round_teams == () and state.trumps == frozenset([1])


def test_all_passing_plays_the_otherwise_contract_without_a_declarer() -> None:
    """No declarer: the spec's teams, and a contract with the spec's turned-up trumps keeps them."""
    state = declared(None)
    assert state.declarer == -1 and phases.declare.contract(state) == PLAIN and state.round_teams == ()
    assert phases.turn_up.card(state) == 0 and state.trumps == frozenset([0])  # red-1 turned up: red


def test_the_contract_event_records_contract_and_declarer_then_the_trumps() -> None:
    """Declaring logs the declaration, the contract with its declarer, and the contract's trumps."""
    state = declared(SOLO)
    assert state.events is not None
    assert state.events[-3:] == [
        {"type": "declare", "player": 0, "contract": SOLO},
        {"type": "contract", "contract": SOLO, "declarer": 0},
        {"type": "trumps", "trumps": [2]},
    ]
    assert events(declared(None), "contract") == [{"type": "contract", "contract": PLAIN, "declarer": -1}]


def test_an_unrecorded_contract_game_logs_nothing() -> None:
    """Without `record` the state keeps no log, contracts and all."""
    game = spec_game(CONTRACTS)
    state = game.new_initial_state(0, deal=GIVEN)
    state.apply_action(game.contract_offset + TEAM)
    assert state.events is None and phases.declare.contract(state) == TEAM


# ---------------------------------------------------------------- what expressions read

COUNTERS = TINY.replace("players: [3]", "players: [4]").replace("hand_size: 4", "hand_size: 3") + """
teams: [[0, 2], [1, 3]]
rounds: 2
counters:
  reds: {scope: player, on_play: {card: {suit: red}, add: 1}}
  blues: {scope: team, on_play: {card: {suit: blue}, add: 1}}
  marked: {scope: team, on_play: {card: {suit: green}, set: 5}}
  gems_led: {on_play: {card: {led: true, attribute: {name: gems, at_least: 2}}, add: 1}}
  gems_off: {on_play: {card: {led: false, attribute: {name: gems, at_least: 2}}, add: 1}}
"""


def test_counters_by_player_team_and_led_suit_follow_every_card() -> None:
    """Each card changes the counters its conditions name: a player's, a team's, set or added."""
    game = spec_game(COUNTERS)
    state = game.new_initial_state(6, record=True)
    reds, blues, marked = [0] * 4, [0, 0], [0, 0]
    gems_led = gems_off = 0
    led = ""
    while state.round == 0 and not state.is_terminal():
        player = state.current_player()
        action = state.legal_actions()[-1]
        suit, rank = game.card_ids[action].split("-")
        if not state.trick:
            led = suit
        state.apply_action(action)
        reds[player] += suit == "red"
        blues[player % 2] += suit == "blue"
        if suit == "green":
            marked[player % 2] = 5
        if int(rank) >= 3:  # gems 2 or 5
            gems_led += suit == led
            gems_off += suit != led
        if state.round == 0:
            assert state.counters == {"reds": reds, "blues": blues, "marked": marked, "gems_led": gems_led, "gems_off": gems_off}
            for p in range(4):  # what `player` reads: its own counter and its team's
                env = state.env(p)
                assert (env["reds"], env["blues"], env["marked"]) == (reds[p], blues[p % 2], marked[p % 2])
    assert gems_off > 0 and gems_led > 0 and reds[2] != reds[0] and blues[0] != blues[1] and marked[1] == 5


def test_what_expressions_read_for_the_round_and_the_hand() -> None:
    """The round and trick numbers count from 1; hand size and player count are the round's."""
    game = spec_game(COUNTERS)
    state = game.new_initial_state(0)
    env = state.env(1)
    assert (env["round"], env["trick"], env["hand_size"], env["players"], env["totals"]) == (1, 1, 3, 4, (0, 0, 0, 0))
    while state.round == 0:
        state.apply_action(state.legal_actions()[0])
    env = state.env(1)
    assert (env["round"], env["trick"], env["hand_size"]) == (2, 1, 3)


def test_the_mapping_expressions_read_is_kept_until_a_change() -> None:
    """Without player counters all players share one mapping, kept until `changed()`."""
    game = spec_game(SMALL)
    state = game.new_initial_state(0)
    first = state.env(0)
    assert state.env(0) is first and state.env(2) is first
    state.changed()
    assert state.env(0) is not first and state.env(0) == first
    # with player counters, one mapping per player, each kept
    state = spec_game(COUNTERS).new_initial_state(0)
    assert state.env(1) is state.env(1) and state.env(1) is not state.env(2)


def test_score_envs_for_some_players_leave_the_others_empty() -> None:
    """`score_envs(only)` fills only the named players' mappings."""
    game = trickrules.load_game("oh-hell", players=4, options={"single_hand": True})
    state = game.new_initial_state(3)
    full = state.score_envs()
    assert all(full)
    some = state.score_envs([1])
    assert some[1] == full[1] and some[0] == some[2] == some[3] == {}


# ---------------------------------------------------------------- copies and pickles


def test_a_pickled_state_plays_on_as_the_original() -> None:
    """A hearts hand pickled mid-trick (restrictions in force) plays on exactly as the original."""
    game = trickrules.load_game("hearts", options={"single_hand": True})
    state = game.new_initial_state(2, record=True)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    fields = state.__getstate__()
    assert "tables" not in fields and "_active" not in fields and fields["trumps"] == state.trumps
    restored = pickle.loads(pickle.dumps(state))
    assert isinstance(restored, State) and restored.seed == 2 and restored.history == state.history
    for _ in range(40):
        assert restored.legal_actions() == state.legal_actions()
        action = state.legal_actions()[-1]
        state.apply_action(action)
        restored.apply_action(action)
    assert restored.events == state.events and restored.returns() == state.returns()


def test_a_pickled_contract_state_keeps_the_contract_rules() -> None:
    """Unpickled after a declaration, the state plays by the contract's ranking, not the spec's."""
    game = spec_game(CONTRACTS)
    # seat 1 leads blue-2, seat 2 follows blue-3, seat 0 (no blue) plays red-4: the spec's
    # ranking (highest rank) gives the trick to red-4, the solo contract's (led suit first) to blue-3
    deal = {"hands": [["red-2", "red-4", "green-1"], ["blue-1", "blue-2", "green-2"], ["red-3", "blue-3", "green-3"]]}
    first_trick = [game.card_index(c) for c in ("blue-2", "blue-3", "red-4")]
    for contract, winner in ((SOLO, 2), (PLAIN, 0)):
        state = declared(contract, deal)
        restored = pickle.loads(pickle.dumps(state))
        for copied in (state, restored):
            for card in first_trick:
                copied.apply_action(card)
            assert events(copied, "trick")[-1]["winner"] == winner
            play_out(copied)
        assert restored.events == state.events and restored.returns() == state.returns()


def test_deepcopy_gives_an_independent_state_and_keeps_other_values() -> None:
    """`copy.deepcopy` copies the state once per reference and leaves other values (None) alone."""
    state = declared(SOLO)
    copied = copy.deepcopy([state, None, state])
    assert isinstance(copied[0], State) and copied[1] is None and copied[2] is copied[0]
    assert copied[0] is not state and copied[0].history == state.history
    memo: dict[int, Any] = {}
    direct = state.__deepcopy__(memo)
    assert memo[id(state)] is direct and direct.legal_actions() == state.legal_actions()
    direct.apply_action(direct.legal_actions()[0])
    assert len(state.history) == len(direct.history) - 1


# ---------------------------------------------------------------- views and refusals


def test_the_observation_tensor_shows_the_players_own_hand() -> None:
    """`observation_tensor(p)` marks p's own cards in the hand segment."""
    game = trickrules.load_game("hearts", options={"single_hand": True})
    state = game.new_initial_state(1)
    layout = game.observation_layout()
    for player in (1, 3):
        tensor = state.observation_tensor(player)
        assert len(tensor) == layout.size
        hand = layout.split(tensor)["hand"]
        assert [c for c, v in enumerate(hand) if v] == state.hands[player]


@pytest.mark.parametrize("view", ["observation_tensor", "information_state_string", "observation"])
def test_a_view_for_a_player_the_game_does_not_seat_is_refused_naming_the_player(view: str) -> None:
    """A seat out of range raises OutOfRangeError saying which player numbers exist."""
    state = spec_game(SMALL).new_initial_state(0)
    with pytest.raises(OutOfRangeError) as caught:
        getattr(state, view)(3)
    assert str(caught.value) == "no player 3 in this game (players are 0 to 2)"


def test_resampling_for_a_player_the_game_does_not_seat_is_refused_naming_the_player() -> None:
    """`resample_from_infostate` refuses a seat out of range with the same message."""
    state = spec_game(SMALL).new_initial_state(0)
    with pytest.raises(OutOfRangeError) as caught:
        state.resample_from_infostate(-1, 5)
    assert str(caught.value) == "no player -1 in this game (players are 0 to 2)"
