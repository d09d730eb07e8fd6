"""Melds announced as played (`show_melds: {as_played: [...]}`): Belote's belote-rebelote, the
king and queen of trumps held together, announced when the first of them is played; from then
on all know the other is in that hand."""

from __future__ import annotations

import random

import pytest

from helpers import TWO_STAGE_DEAL as DEAL, TWO_STAGE_SPEC as STAGED, events, spec_game, spec_problem as _problem
from trickrules.engine import resample
from trickrules.engine.phases import show_melds
from trickrules.engine.state import Phase
from trickrules.tools.record import build_record
from trickrules.tools.rulebook import rulebook_markdown
from trickrules.tools.textlog import render_record

SPEC = (STAGED
        .replace("complete_deal, play, score]", "complete_deal, {show_melds: {as_played: [belote]}}, play, score]")
        .replace("    dealt_hearts: {count: {suit: hearts}, of: dealt}\n",
                 "    dealt_hearts: {count: {suit: hearts}, of: dealt}\n    belote: {meld: {ranks: [13, 12], suit: trump}, of: held}\n")
        .replace('add: "tricks + 0 * dealt_hearts"', 'add: "tricks + 0 * dealt_hearts + 20 * belote"'))


def _started() -> object:
    """Seat 2 takes hearts; the rest of the deal gives seat 3 hearts 12 and 13 (the belote)."""
    game = spec_game(SPEC)
    state = game.new_initial_state(0, deal=DEAL, record=True)
    for text in ("pass", "trumps hearts"):
        state.apply_action(game.string_to_action(text))
    return state


def _play(state, text: str) -> None:
    state.apply_action(state.game.string_to_action(text))


def test_nothing_is_shown_before_the_first_card_of_the_meld_is_played() -> None:
    state = _started()
    assert state.phase == Phase.PLAY
    assert state.observation(0)["melds"] == [[], [], [], []]
    assert state.observation(0)["shown"] == [[], [], [], []]


def test_playing_the_first_card_announces_the_meld_and_shows_the_other() -> None:
    state = _started()
    # seat 1 leads clubs; seat 2 follows? it has no clubs: any card; seat 3 void in clubs too
    _play(state, "play clubs-12")
    _play(state, "play hearts-7")
    _play(state, "play hearts-13")
    view = state.observation(1)
    assert view["melds"][3] == [{"meld": "belote", "cards": ["hearts-13", "hearts-12"]}]
    assert view["shown"] == [[], [], [], ["hearts-12"]]
    assert events(state, "announce") == [{"type": "announce", "player": 3, "meld": "belote",
                                          "cards": [state.game.card_index("hearts-13"), state.game.card_index("hearts-12")]}]
    queen = state.game.card_index("hearts-12")
    for seed in range(5):
        assert queen in resample.resample(state, 1, random.Random(seed)).hands[3]


def test_a_meld_is_announced_once() -> None:
    state = _started()
    for text in ("play clubs-12", "play hearts-7", "play hearts-13", "play clubs-7"):
        _play(state, text)
    while state.hands[3] and state.game.card_index("hearts-12") in state.hands[3]:
        state.apply_action(state.game.card_index("hearts-12") if state.current_player() == 3 and state.game.card_index("hearts-12") in state.legal_actions() else state.legal_actions()[0])
    assert len(events(state, "announce")) == 1
    assert state.observation(0)["shown"][3] == []


def test_the_record_and_its_text_name_the_announcement() -> None:
    state = _started()
    while not state.is_terminal() and state.round == 0:
        state.apply_action(state.legal_actions()[-1])
    record = build_record(state) if state.is_terminal() else None
    if record is None:
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        record = build_record(state)
    assert record["rounds"][0]["announced"] == [{"player": 3, "meld": "belote", "cards": ["hearts-13", "hearts-12"]}]
    assert "Announced: P3 belote hearts-13 hearts-12" in render_record(record)


def test_the_rulebook_says_the_meld_is_announced_as_played() -> None:
    book = rulebook_markdown(spec_game(SPEC).ruleset)
    assert "A player holding a meld belote announces it as it plays the first card of it" in book


@pytest.mark.parametrize("seed", range(30))
def test_a_meld_is_announced_exactly_when_its_holder_plays_its_first_card(seed: int) -> None:
    """Independently of the engine's meld code: the K and Q of trumps held at the first lead."""
    rng = random.Random(seed)
    game = spec_game(SPEC)
    state = game.new_initial_state(seed, record=True)
    king_queen: dict[int, set[int]] = {}
    announced_at: dict[int, int] = {}
    while not state.is_terminal() and state.round == 0:
        if state.phase == Phase.PLAY and state.tricks_played == 0 and not state.trick:
            for seat, hand in enumerate(state.hands):
                pair = {c for c in hand if state.tables.faces.suit[c] in state.trumps and game.card_ids[c].split("-")[1] in ("12", "13")}
                if len(pair) == 2:
                    king_queen[seat] = pair
        before = len(events(state, "announce"))
        player, action = state.current_player(), rng.choice(state.legal_actions())
        is_play = state.phase == Phase.PLAY
        state.apply_action(action)
        if len(events(state, "announce")) > before:
            announced_at[player] = action
        if is_play and player in king_queen and action in king_queen[player] and player not in announced_at:
            pytest.fail(f"seat {player} played {game.card_ids[action]} of its belote without announcing it")
    assert set(announced_at) == set(king_queen)
    for seat, card in announced_at.items():
        assert card in king_queen[seat]



def test_an_announced_meld_must_be_a_meld_measure() -> None:
    problem = _problem(SPEC.replace("as_played: [belote]", "as_played: [dealt_hearts]"))
    assert (problem.code, problem.path) == ("TR370", "$.round[4].show_melds.as_played[0]")


def test_a_meld_is_shown_before_play_or_announced_as_played_not_both() -> None:
    problem = _problem(SPEC.replace("as_played: [belote]", "measures: [belote], as_played: [belote]"))
    assert (problem.code, problem.path) == ("TR370", "$.round[4].show_melds.as_played[0]")
    assert "list it in one of them" in problem.message


def test_the_waiting_cards_are_those_of_the_melds_still_to_announce() -> None:
    state = _started()
    own = show_melds.shown(state)
    assert own is not None and {state.game.card_ids[c] for c in own.waiting} == {"hearts-12", "hearts-13"}
