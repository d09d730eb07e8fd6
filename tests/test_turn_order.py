"""One turn order for every phase: no phase ever asks a seat that sits out the round."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.spec.loader import load_ruleset_text
from trickrules.engine import phases

EUCHRE = (Path(__file__).resolve().parent.parent / "specs" / "euchre.yaml").read_text("utf-8")
PHASES_AFTER_GOING_ALONE = {
    "bid": "  - bid: {}\n",
    "bid from the dealer": "  - bid: {first: dealer}\n",
    "pass": "  - pass: {cards: 1, to: left}\n",
    "pass across from seat 2": "  - pass: {cards: 2, to: across, first: {seat: 2}}\n",
}


def euchre_with(phase: str) -> trickrules.Game:
    """Euchre with `phase` after going alone, played as a single hand."""
    text = EUCHRE.replace("  - go_alone\n", "  - go_alone\n" + phase)
    return trickrules.load_game(load_ruleset_text(text, options={"single_hand": True}))


def asked_while_sitting_out(game: trickrules.Game, seed: int, alone: bool) -> tuple[list[tuple[str, int]], bool]:
    """Play a game (the maker going alone when it may, if `alone`): every decision asked of a
    seat sitting out, and whether anyone sat out."""
    state = game.new_initial_state(seed)
    chooser = random.Random(seed)
    found = []
    sat_out = False
    while not state.is_terminal():
        player = state.current_player()
        sat_out = sat_out or bool(state.sitting_out)
        if player in state.sitting_out:
            found.append((str(state.phase), player))
        legal = state.legal_actions()
        if state.phase == trickrules.Phase.GO_ALONE:
            action = game.alone_offset if alone else game.alone_offset + 1
        else:
            action = chooser.choice(legal)
        state.apply_action(action)
    return found, sat_out


@pytest.mark.parametrize("phase", sorted(PHASES_AFTER_GOING_ALONE))
def test_a_phase_after_going_alone_never_asks_the_partner_who_sits_out(phase: str) -> None:
    game = euchre_with(PHASES_AFTER_GOING_ALONE[phase])
    alone_games = 0
    for seed in range(60):
        found, sat_out = asked_while_sitting_out(game, seed, alone=True)
        assert found == []
        alone_games += sat_out
    assert alone_games >= 30  # the maker went alone in most games (else all passed)


def test_a_bid_after_going_alone_asks_the_three_who_play_in_turn() -> None:
    game = euchre_with("  - bid: {}\n")
    for seed in range(40):
        state = game.new_initial_state(seed, record=True)
        while not state.is_terminal() and state.phase != trickrules.Phase.GO_ALONE:
            state.apply_action(state.legal_actions()[0])
        if state.is_terminal():
            continue
        state.apply_action(game.alone_offset)
        (out,) = state.sitting_out
        bidders = []
        while state.phase == trickrules.Phase.BID:
            bidders.append(state.current_player())
            state.apply_action(state.legal_actions()[0])
        assert out not in bidders and len(bidders) == 3
        first = (state.dealer + 1) % 4
        first = (first + 1) % 4 if first == out else first
        assert bidders[0] == first
        assert all(bidders[i + 1] == next(s for s in ((bidders[i] + k) % 4 for k in (1, 2)) if s != out) for i in range(2))
        assert phases.bid.bids(state)[out] is None


@settings(max_examples=40)
@given(st.sampled_from(sorted(PHASES_AFTER_GOING_ALONE)), st.integers(0, 10_000), st.booleans())
def test_no_phase_asks_a_seat_sitting_out(phase: str, seed: int, alone: bool) -> None:
    found, _ = asked_while_sitting_out(euchre_with(PHASES_AFTER_GOING_ALONE[phase]), seed, alone)
    assert found == []
