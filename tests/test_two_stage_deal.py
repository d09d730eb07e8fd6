"""A deal in two stages (`deal.first_stage`, `complete_deal`) around a turned-up card the chooser
takes (`declarer_takes_turned_up`), as Belote deals: five cards each, one turned up, the
taker takes it, then the rest of the pack fills every hand to eight."""

from __future__ import annotations

import random

import pytest

from helpers import TWO_STAGE_DEAL, TWO_STAGE_SPEC, events, spec_game
from trickrules.engine import resample
from trickrules.engine.state import Phase
from trickrules.tools.record import build_record, replay
from trickrules.tools.rulebook import rulebook_markdown
from trickrules.tools.textlog import render_record

SPEC, DEAL, HANDS = TWO_STAGE_SPEC, TWO_STAGE_DEAL, TWO_STAGE_DEAL["hands"]


def _act(state, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.game.string_to_action(text))


def _hand(state, seat: int) -> list[str]:
    return [state.game.card_ids[c] for c in state.hands[seat]]


def test_the_deal_gives_the_first_stage_and_turns_up_the_next_card() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL)
    assert [len(hand) for hand in state.hands] == [5, 5, 5, 5]
    assert state.observation(1)["turned_up"] == "hearts-14"
    assert state.current_player() == 1
    assert [state.game.action_to_string(a) for a in state.legal_actions()] == ["pass", "trumps hearts"]


def test_the_chooser_takes_the_turned_up_card_and_gets_one_card_fewer_of_the_rest() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL, record=True)
    _act(state, "pass", "trumps hearts")  # seat 2 takes hearts in the first round
    assert [len(hand) for hand in state.hands] == [8, 8, 8, 8]
    # the rest is dealt from the dealer's left: seat 1 three, seat 2 (the taker) two, seat 3 three, seat 0 three
    assert _hand(state, 1) == sorted(HANDS[1] + ["clubs-12", "clubs-13", "clubs-14"], key=state.game.card_index)
    assert _hand(state, 2) == sorted(HANDS[2] + ["hearts-14", "diamonds-12", "diamonds-13"], key=state.game.card_index)
    assert _hand(state, 3) == sorted(HANDS[3] + ["diamonds-14", "hearts-12", "hearts-13"], key=state.game.card_index)
    assert _hand(state, 0) == sorted(HANDS[0] + ["spades-12", "spades-13", "spades-14"], key=state.game.card_index)
    assert state.stock == [] and state.set_aside == []
    assert events(state, "take") == [{"type": "take", "player": 2, "card": state.game.card_index("hearts-14")}]
    assert state.current_player() == 1 and state.phase == Phase.PLAY


def test_a_taker_in_the_second_round_still_holds_the_turned_up_card() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL)
    _act(state, "pass", "pass", "pass", "pass", "pass", "pass", "trumps spades")  # seat 3 in round two
    assert "hearts-14" in _hand(state, 3)
    assert state.trumps == frozenset([state.game.ruleset.deck.suits.index("spades")])
    assert [len(hand) for hand in state.hands] == [8, 8, 8, 8]


def test_all_passing_twice_ends_the_round_before_the_rest_is_dealt() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL, record=True)
    _act(state, *["pass"] * 8)
    assert state.round == 1
    assert events(state, "complete_deal") == []


def test_measures_of_dealt_cards_read_the_completed_hands() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL)
    _act(state, "pass", "trumps hearts")
    assert state.dealt[2] == tuple(state.hands[2])
    assert sum(1 for c in state.dealt[3] if state.game.card_ids[c].startswith("hearts")) == 2


@pytest.mark.parametrize("seed", range(12))
def test_a_resampled_state_keeps_the_turned_up_card_in_the_takers_hand(seed: int) -> None:
    rng = random.Random(seed)
    state = spec_game(SPEC).new_initial_state(seed)
    while state.phase != Phase.PLAY:
        state.apply_action(rng.choice(state.legal_actions()))
    if state.round:  # thrown in: nobody took the card this time
        return
    turned = state.game.card_index(state.observation(0)["turned_up"])
    taker = state.declarer
    for viewer in range(4):
        sample = resample.resample(state, viewer, rng)
        assert turned in sample.hands[taker]
        assert [len(hand) for hand in sample.hands] == [8, 8, 8, 8]
        assert sample.hands[viewer] == state.hands[viewer]


@pytest.mark.parametrize("seed", range(20))
def test_random_games_deal_every_card_once_and_replay_from_their_record(seed: int) -> None:
    rng = random.Random(seed)
    state = spec_game(SPEC).new_initial_state(seed, record=True)
    while not state.is_terminal():
        if state.phase == Phase.PLAY and not state.trick and state.tricks_played == 0:
            cards = sorted(c for hand in state.hands for c in hand)
            assert cards == list(range(32)) and all(len(hand) == 8 for hand in state.hands)
        state.apply_action(rng.choice(state.legal_actions()))
    record = build_record(state)
    assert replay(record, state.game).verified
    for entry, event in zip([r for r in record["rounds"] if "complete_deal" in r], events(state, "complete_deal")):
        assert entry["complete_deal"] == [[state.game.card_ids[c] for c in cards] for cards in event["cards"]]


def test_the_record_text_and_rulebook_tell_the_rest_of_the_deal() -> None:
    state = spec_game(SPEC).new_initial_state(0, deal=DEAL, record=True)
    _act(state, "pass", "trumps hearts")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    text = render_record(build_record(state))
    assert "Rest of the deal: P0 spades-12 spades-13 spades-14; P1 clubs-12 clubs-13 clubs-14; P2 diamonds-12 diamonds-13" in text
    book = rulebook_markdown(state.game.ruleset)
    assert "The deal gives each player 5 cards first" in book and "until every hand holds 8" in book


def test_a_turned_up_card_nobody_takes_stays_aside_with_the_cards_left_over() -> None:
    """Hands of seven and a turned-up card the chooser leaves: the rest fills every hand from
    the dealer's left; the turned-up card and the three cards left over are set aside, as dealt."""
    spec = SPEC.replace("hand_size: 8", "hand_size: 7").replace("declarer_takes_turned_up: true", "declarer_takes_turned_up: false")
    state = spec_game(spec).new_initial_state(0, deal=DEAL)
    _act(state, "pass", "trumps hearts")
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7]
    assert _hand(state, 1) == sorted(HANDS[1] + ["clubs-12", "clubs-13"], key=state.game.card_index)
    assert all("hearts-14" not in _hand(state, seat) for seat in range(4))
    aside = [state.game.card_ids[c] for c in state.set_aside]
    assert sorted(aside) == ["hearts-14", "spades-12", "spades-13", "spades-14"]
    assert state.set_aside == sorted(state.stock) and state.dealt[-1] == tuple(state.set_aside)
    assert state.dealt[:4] == tuple(tuple(hand) for hand in state.hands)


def test_a_hand_the_turned_up_card_fills_gets_no_more() -> None:
    """Seven cards each first and hands of eight: the taker holds eight once it takes the
    turned-up card, and each other seat gets one of the three cards left."""
    state = spec_game(SPEC.replace("first_stage: 5", "first_stage: 7")).new_initial_state(0)
    _act(state, "pass", "trumps " + state.observation(1)["turned_up"].split("-")[0])
    assert [len(hand) for hand in state.hands] == [8, 8, 8, 8] and state.stock == []
