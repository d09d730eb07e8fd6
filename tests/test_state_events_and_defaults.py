"""More of the engine in detail: a state's defaults and its values before anything happens in a
round, the event log of tricks and game ends, refusals' messages, who leads first, phases that
are skipped, restrictions and rewards whose conditions read the led group, and counters that
last a round or the game; each on a small spec whose outcome can be worked out by hand
(helpers and specs shared with test_state_details.py and test_phase_edges.py)."""

from __future__ import annotations

import pytest

from helpers import CONTRACTS, GIVEN, SMALL, events, play_out, spec_game
from helpers import CHOOSING
from helpers import TINY

from trickrules.engine.state import Phase, State
from trickrules.errors import GameNotOverError, OutOfRangeError
from trickrules.engine import phases

# GIVEN: seat 0 holds red-2, blue-1, green-1 (cards 1, 4, 8), seat 1 red-3, blue-2, green-2
# (2, 5, 9), seat 2 red-4, blue-3, green-3 (3, 6, 10); red-1, blue-4, green-4 stay undealt.
# With the dealer in seat 0, seat 1 leads; everyone follows suit with its lowest card, so
# seat 2 wins every trick with red-4, blue-3 and green-3.


# ---------------------------------------------------------------- a state's defaults


def test_a_state_built_directly_is_dealt_from_seed_zero_and_keeps_no_log() -> None:
    """`State(game)` is seed 0, unrecorded: the same deal as `new_initial_state(0)`, no events."""
    game = spec_game(SMALL)
    state = State(game)
    assert state.seed == 0 and state.events is None
    assert state.hands == game.new_initial_state(0).hands
    assert game.new_initial_state(0).events is None


def test_the_declarer_no_one_has_been_is_minus_one_in_scoring() -> None:
    """Without a declarer, a scoring expression reads `declarer` as -1 (as documented)."""
    game = spec_game(SMALL.replace("    - add: tricks", "    - add: tricks\n    - add: declarer"))
    state = game.new_initial_state(0, deal=GIVEN)
    play_out(state)
    assert state.totals == [-1, -1, 2]  # tricks 0, 0, 3, each minus one


def test_before_anyone_chooses_trumps_there_is_no_declarer() -> None:
    """In rounds of choosing, the observation shows no declarer until someone names a suit."""
    state = spec_game(CHOOSING).new_initial_state(0, deal=GIVEN)
    assert state.phase == Phase.CHOOSE_TRUMPS
    assert [state.observation(p)["declarer"] for p in range(3)] == [None, None, None]


def test_before_any_contract_is_declared_the_observation_shows_none() -> None:
    """While the declare phase waits, no contract is shown."""
    state = spec_game(CONTRACTS).new_initial_state(0, deal=GIVEN)
    assert state.phase == Phase.DECLARE
    assert state.observation(0)["contract"] is None


def test_without_a_turn_up_phase_no_card_proposes_a_suit() -> None:
    """A round of choosing from the turned-up suit, with nothing turned up, allows only passing."""
    game = spec_game(SMALL + """
round: [deal, choose_trumps, play, score]
trumps:
  choose:
    by: dealer
    rounds:
      - {from: turned_up}
      - {from: others}
""")
    state = game.new_initial_state(0)
    assert phases.turn_up.card(state) == -1
    assert state.legal_actions() == [game.choose_pass_action]


def test_legal_view_is_the_list_the_state_keeps() -> None:
    """`legal_view` gives the same kept list each time; `legal_actions` gives equal copies."""
    state = spec_game(SMALL).new_initial_state(0, deal=GIVEN)
    view = state.legal_view()
    assert view == [2, 5, 9] and state.legal_view() is view
    assert state.legal_actions() == view and state.legal_actions() is not view


# ---------------------------------------------------------------- counters by round and game

ROUND_AND_GAME = TINY + """
rounds: 2
counters:
  per_round: {on_play: {card: {suit: red}, add: 1}}
  per_game: {reset: game, on_play: {card: {suit: red}, add: 1}}
"""


def test_round_counters_start_again_each_round_and_game_counters_keep_counting() -> None:
    """After a round in which all four reds were played, only the game's counter remembers them."""
    state = spec_game(ROUND_AND_GAME).new_initial_state(0)
    assert state.counters == {"per_round": 0, "per_game": 0}
    while state.round == 0:
        state.apply_action(state.legal_actions()[0])
    assert state.counters == {"per_round": 0, "per_game": 4}


# ---------------------------------------------------------------- the event log and messages


def test_tricks_and_the_game_end_are_logged_with_leader_totals_and_winners() -> None:
    """Each trick's event names its leader; the last event gives the totals and the winners."""
    state = spec_game(SMALL).new_initial_state(0, record=True, deal=GIVEN)
    play_out(state)
    assert events(state, "trick") == [
        {"type": "trick", "leader": 1, "cards": [2, 3, 1], "players": [1, 2, 0], "winner": 2},
        {"type": "trick", "leader": 2, "cards": [6, 4, 5], "players": [2, 0, 1], "winner": 2},
        {"type": "trick", "leader": 2, "cards": [10, 8, 9], "players": [2, 0, 1], "winner": 2},
    ]
    assert state.events is not None
    assert state.events[-1] == {"type": "game_end", "totals": [0, 0, 3], "winners": [2]}


def test_asking_for_winners_mid_game_says_which_round_it_is() -> None:
    """`winners()` before the end names the round, counted from one, and points to `returns()`."""
    state = spec_game(SMALL).new_initial_state(0)
    with pytest.raises(GameNotOverError) as caught:
        state.winners()
    assert str(caught.value) == (
        "the game is not over (round 1 of 1): winners are known at the end; returns() gives the totals so far"
    )


def test_an_action_the_game_does_not_have_is_refused_naming_it() -> None:
    """`action_to_string` of an action out of range says what the range is."""
    game = spec_game(SMALL)
    state = game.new_initial_state(0)
    with pytest.raises(OutOfRangeError) as caught:
        state.action_to_string(99)
    assert str(caught.value) == f"no action 99 in this game (actions are 0 to {game.num_distinct_actions() - 1})"


# ---------------------------------------------------------------- who leads first


@pytest.mark.parametrize(
    ("leader", "seat"),
    [("{holder: red-4}", 2), ("{holder: red-1}", 1), ("dealer", 0), ("{seat: 2}", 2), ("left_of_dealer", 1)],
)
def test_the_first_leader_is_the_holder_the_dealer_or_a_seat(leader: str, seat: int) -> None:
    """The holder of a card leads (left of the dealer if it is undealt), or the dealer, or a seat."""
    game = spec_game(SMALL.replace("  hand_size: 3", "  hand_size: 3\n  first_leader: " + leader))
    state = game.new_initial_state(0, deal=GIVEN)
    assert state.dealer == 0 and state.phase == Phase.PLAY
    assert state.current_player() == seat


# ---------------------------------------------------------------- phases with nothing to do


def test_a_go_alone_phase_without_a_declarer_is_skipped() -> None:
    """Trumps chosen without rounds leave no declarer: play starts at once, left of the dealer."""
    game = spec_game(TINY.replace("players: [3]", "players: [4]").replace("hand_size: 4", "hand_size: 3") + """
teams: [[0, 2], [1, 3]]
round: [deal, choose_trumps, go_alone, play, score]
trumps: {choose: {by: dealer, from: [red, blue]}}
""")
    state = game.new_initial_state(0)
    assert state.phase == Phase.CHOOSE_TRUMPS and state.current_player() == 0
    assert state.legal_actions() == [game.trump_offset, game.trump_offset + 1]
    state.apply_action(game.trump_offset + 1)
    assert state.declarer == -1 and state.trumps == frozenset([1])
    assert state.phase == Phase.PLAY and state.current_player() == 1


def test_a_pass_phase_passing_to_no_one_is_skipped() -> None:
    """A pass direction of `none` logs the direction and goes straight to play."""
    game = spec_game(TINY + "round:\n  - deal\n  - pass: {cards: 1, to: none}\n  - play\n  - score\n")
    state = game.new_initial_state(0, record=True)
    assert events(state, "pass_direction") == [{"type": "pass_direction", "direction": "none", "offset": 0, "cards": 1}]
    assert state.phase == Phase.PLAY and state.current_player() == 1
    assert len(state.hands[1]) == 4


# ---------------------------------------------------------------- conditions on the led group

LED_RESTRICTED = TINY + """
restrictions:
  - {name: no leading fours, for: leader, forbid: {led: true, rank: 4}}
  - {name: no off-suit threes, for: followers, forbid: {led: false, rank: 3}}
"""
# seat 1 leads; seat 2 has no red
LED_DEAL = {"hands": [["red-2", "red-3", "red-4", "green-3"], ["red-1", "blue-4", "green-4", "green-2"], ["blue-1", "blue-2", "blue-3", "green-1"]]}


def test_restrictions_reading_the_led_group_see_a_lead_as_its_own_group() -> None:
    """A lead is in the led group (no fours led); a follower's discard is not (no threes discarded)."""
    game = spec_game(LED_RESTRICTED)
    state = game.new_initial_state(0, deal=LED_DEAL)

    def legal() -> list[str]:
        return [game.card_ids[a] for a in state.legal_actions()]

    assert state.current_player() == 1 and legal() == ["red-1", "green-2"]
    state.apply_action(game.card_index("red-1"))
    assert state.current_player() == 2 and legal() == ["blue-1", "blue-2", "green-1"]
    state.apply_action(game.card_index("blue-2"))
    assert state.current_player() == 0 and legal() == ["red-2", "red-3", "red-4"]  # following red


def test_a_reward_for_winning_with_the_led_group_reads_the_led_group() -> None:
    """Seat 2 wins the first trick with red-4, of the led suit: the reward's 3 points are its."""
    game = spec_game(SMALL + "rewards:\n  - {name: led win, to: winner, when: {led: true}, give: {points: 3}}\n")
    state = game.new_initial_state(0, record=True, deal=GIVEN)
    for card in ("red-3", "red-4", "red-2"):
        state.apply_action(game.card_index(card))
    assert events(state, "trick")[0]["winner"] == 2
    assert state.bonus == [0, 0, 3]


def test_the_trick_number_expressions_read_moves_on_after_each_trick() -> None:
    """The kept mapping expressions read counts the trick from one, and moves on with each trick."""
    game = spec_game(SMALL)
    state = game.new_initial_state(0, deal=GIVEN)
    assert state.env(0)["trick"] == 1
    for number, cards in enumerate((("red-3", "red-4", "red-2"), ("blue-3", "blue-1", "blue-2")), start=2):
        for card in cards:
            state.apply_action(game.card_index(card))
        assert state.tricks_played == number - 1
        assert state.env(0)["trick"] == number and state.env(2)["trick"] == number


def test_legal_actions_for_a_player_are_the_current_players_or_none() -> None:
    """`legal_actions(player)` gives the current player's actions to that player and nothing to
    the others."""
    state = spec_game(SMALL).new_initial_state(3)
    current = state.current_player()
    assert state.legal_actions(current) == state.legal_actions() != []
    others = [p for p in range(state.num_players) if p != current]
    assert others and all(state.legal_actions(p) == [] for p in others)
