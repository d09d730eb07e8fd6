"""A declarer's hand laid open (`open_hand: declarer`, usually in a contract, Skat's ouvert
games): everyone sees it from the start of the play to the round's end, in the observation,
its tensor and the deals a player imagines; a declare phase's `when` reads `from_hand`."""

from __future__ import annotations

import random

import pytest

import trickrules
from helpers import CONTRACTS, GIVEN, legal_texts, say, spec_game
from invariants import check_observations
from trickrules.engine.resample import resample
from trickrules.errors import SpecError
from trickrules.spec.dump import dump_spec
from trickrules.tools.rulebook_round import OPEN_HAND, contracts_section

OPEN = CONTRACTS.replace("  solo:\n    declarer: alone\n", "  solo:\n    declarer: alone\n    open_hand: declarer\n")


def test_the_declarers_hand_lies_open_from_the_start_of_the_play() -> None:
    game = spec_game(OPEN)
    state = game.new_initial_state(0, deal=GIVEN)
    declarer = state.current_player()
    assert "exposed" not in state.observation((declarer + 1) % 3)  # nothing shown while declaring
    say(state, "contract solo")
    assert state.phase == trickrules.Phase.PLAY and state.declarer == declarer
    hand = state.observation(declarer)["hand"]
    for other in range(3):
        assert state.observation(other)["exposed"] == {declarer: hand}
    segment = game.observation_layout().segment("exposed")
    tensor = state.observation_tensor((declarer + 1) % 3)[segment.slice]
    cards = game.num_cards
    assert [i % cards for i, v in enumerate(tensor) if v] == sorted(state.hands[declarer])
    assert all(i // cards == declarer for i, v in enumerate(tensor) if v)


def test_another_contract_lays_nothing_open() -> None:
    state = spec_game(OPEN).new_initial_state(0, deal=GIVEN)
    say(state, "contract team")
    assert state.phase == trickrules.Phase.PLAY and state.exposed() == []
    assert "exposed" not in state.observation(0)


def test_a_player_imagining_the_deal_keeps_the_open_hand() -> None:
    state = spec_game(OPEN).new_initial_state(0, deal=GIVEN)
    declarer = state.current_player()
    say(state, "contract solo")
    other = (declarer + 1) % 3
    for seed in range(5):
        world = resample(state, other, random.Random(seed))
        assert world.hands[declarer] == state.hands[declarer] and world.hands[other] == state.hands[other]


def test_the_spec_written_back_and_the_rulebook_keep_the_open_hand() -> None:
    game = spec_game(OPEN)
    written = dump_spec(game.ruleset)
    assert written["contracts"]["solo"]["open_hand"] == "declarer" and "open_hand" not in written["contracts"]["team"]
    assert OPEN_HAND in contracts_section(game.ruleset, lambda rules: [])


def test_open_hand_takes_only_declarer() -> None:
    with pytest.raises(SpecError) as caught:
        spec_game(OPEN.replace("open_hand: declarer", "open_hand: dummy"))
    assert caught.value.problems[0].code == "TR204"


def test_skat_standards_ouvert_games_need_a_hand_game_but_the_null() -> None:
    game = trickrules.load_game("skat-standard", options={"ouvert": True, "deals": 1})
    state = game.new_initial_state(0)
    say(state, "bid 18", "pass", "pass", "pick-up")
    say(state, *[f"bury {game.card_ids[c]}" for c in state.hands[0][:2]])
    assert [t for t in legal_texts(state) if "ouvert" in t] == ["contract null_ouvert"]
    state = game.new_initial_state(0)
    say(state, "bid 18", "pass", "pass", "hand")
    assert len([t for t in legal_texts(state) if "ouvert" in t]) == 6
    say(state, "contract grand_ouvert")
    assert state.exposed() == [0] and state.observation(2)["exposed"] == {0: state.observation(0)["hand"]}


def test_skat_in_duels_with_ouvert_games_shows_no_hidden_card() -> None:
    # the no-leak check of the property tests after every action of random games with both of
    # skat-standard's newer options: each player sees its own hand, an open hand, nothing else
    game = trickrules.load_game("skat-standard", options={"ouvert": True, "bidding_order": "skat", "deals": 1})
    opened = 0
    for seed in range(40):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            check_observations(state)
            opened += bool(state.exposed())
            state.apply_action(rng.choice(state.legal_actions()))
    assert opened  # some random games were ouvert
