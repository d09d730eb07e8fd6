"""What a new kind of phase does before it says more (`PhaseKind`'s defaults, the contract
that docs/architecture.md's "adding a phase kind" builds on): it decides nothing, shows
nothing, and names its events by their type; and the finished game's kind."""

from __future__ import annotations

import pickle

import pytest

import trickrules
from helpers import KINGDOMS
from trickrules.engine.actions import ActionBlock
from trickrules.engine.phases.kinds import TERMINAL, TERMINAL_KIND, TERMINAL_PLAYER, PhaseKind
from trickrules.rules.ruleset import RoundStep


@pytest.fixture(scope="module")
def game() -> trickrules.Game:
    return trickrules.load_game(KINGDOMS)


def test_a_new_kind_keeps_what_it_is_given() -> None:
    block = ActionBlock(99, "ring", lambda g: 0, lambda g: (str, lambda verb, rest: 0))
    kind = PhaseKind(17, "ring", (block,), ("rang",))
    assert (kind.phase, kind.step, kind.blocks, kind.events) == (17, "ring", (block,), ("rang",))
    bare = PhaseKind(18)
    assert (bare.step, bare.blocks, bare.events) == ("", (), ())


def test_a_new_kind_decides_nothing_until_it_says_how(game: trickrules.Game) -> None:
    kind = PhaseKind(17, "ring")
    state = game.new_initial_state(0)
    assert kind.start(state, RoundStep("ring")) is False
    assert kind.player(state) == state.current
    assert kind.legal(state) == []
    assert kind.most_decisions(game, RoundStep("ring")) == 0
    with pytest.raises(AssertionError, match="no action is legal in phase 17"):
        kind.apply(state, 0)


def test_a_new_kind_is_used_only_where_one_of_its_blocks_has_actions(game: trickrules.Game) -> None:
    def block(size: int) -> ActionBlock:
        return ActionBlock(99, "ring", lambda g: size, lambda g: (str, lambda verb, rest: 0))

    assert PhaseKind(17, "ring", (block(0), block(2))).used(game)
    assert not PhaseKind(17, "ring", (block(0),)).used(game)
    assert not PhaseKind(17, "ring").used(game)


def test_a_new_kind_shows_nothing_and_names_its_events_by_their_type(game: trickrules.Game) -> None:
    kind = PhaseKind(17, "ring", events=("bell_rang",))
    state = game.new_initial_state(0)
    view: dict[str, object] = {}
    entry: dict[str, object] = {}
    kind.observe(state, 0, view)
    kind.record({"type": "bell_rang"}, entry, game)
    assert (view, entry) == ({}, {})
    assert (kind.names(state), kind.segments(game), kind.figures(game)) == ({}, [], [])
    assert (kind.record_lines({}), kind.rulebook(RoundStep("ring"), game.ruleset)) == ([], "")
    assert kind.words({"type": "bell_rang_twice"}, game) == "bell rang twice"


def test_a_kind_pickles_by_its_modules_name_and_reads_by_its_step() -> None:
    assert PhaseKind(17, "ring").__reduce__() == "KIND"
    assert TERMINAL_KIND.__reduce__() == "TERMINAL_KIND"
    assert pickle.loads(pickle.dumps(TERMINAL_KIND)) is TERMINAL_KIND
    assert (repr(PhaseKind(17, "ring")), repr(PhaseKind(17))) == ("<PhaseKind ring>", "<PhaseKind 17>")


def test_the_finished_game_waits_in_the_terminal_kind(game: trickrules.Game) -> None:
    state = game.new_initial_state(0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert TERMINAL_KIND.phase == TERMINAL and TERMINAL_KIND.used(game)
    assert state.current_player() == TERMINAL_KIND.player(state) == TERMINAL_PLAYER == -4
    assert state.legal_actions() == []
