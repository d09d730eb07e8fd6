"""One table of the names an expression reads at each place (`trickrules.rules.contexts`): the
compiler allows them, the engine gives them, the reference explains them."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.engine.phases.bid import bid_env
from trickrules.engine.round_end import game_env
from trickrules.rules import contexts
from trickrules.errors import SpecError
from trickrules.spec.loader import load_ruleset_text

SPADES = (Path(__file__).resolve().parent.parent / "specs" / "spades.yaml").read_text("utf-8")
REFERENCE = (Path(__file__).resolve().parent.parent / "docs" / "reference" / "expressions.md").read_text("utf-8")


def test_every_name_the_engine_gives_has_a_meaning_and_a_place_in_the_reference() -> None:
    given = {name for context in contexts.CONTEXTS.values() for name in context.names}
    assert given == set(contexts.MEANINGS)
    assert [name for name in sorted(given) if f"`{name}`" not in REFERENCE] == []


def test_a_context_lists_only_its_own_names_as_lists() -> None:
    for context in contexts.CONTEXTS.values():
        assert set(context.lists) <= set(context.names)


def test_play_bid_and_game_end_give_what_their_contexts_name() -> None:
    game = trickrules.load_game("spades")
    state = game.new_initial_state(3)
    assert set(contexts.PLAY.names) <= set(state.env(0))
    assert state.phase == trickrules.Phase.BID
    assert set(contexts.BID.names) - {"bid"} <= set(bid_env(state, state.current_player()))
    assert set(contexts.GAME.names) <= set(game_env(state))
    for name in contexts.PLAY.lists:
        assert isinstance(state.env(0)[name], tuple)


@pytest.mark.parametrize("name", sorted(set(contexts.MEANINGS) - set(contexts.BID_RANGE.names)))
def test_a_bid_range_reads_only_the_names_of_its_context(name: str) -> None:
    text = SPADES.replace("values: {from: 0, to: 13}", f'values: {{from: 0, to: "{name}"}}')
    assert text != SPADES
    with pytest.raises(SpecError) as caught:
        load_ruleset_text(text)
    assert {p.code for p in caught.value.problems} == {"TR141"}  # unknown name
