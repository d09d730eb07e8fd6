"""Token supply and tableau spaces at their edges: a supply of exactly the amount, one short,
unlimited; spaces of exactly the amount, one short; tokens that stay in the supply or are lost;
tokens to the player's pool; and the placement helpers these rest on."""

from __future__ import annotations

from functools import lru_cache

import pytest
from helpers import KINGDOMS

import trickrules
from trickrules.engine.phases.place_tokens import auto_place, gain
from trickrules.rules.placement import NO_SECTION, NO_SUIT, forced_cards, free_token_sections, free_token_spaces, section_for
from trickrules.rules.ruleset import UNLIMITED
from trickrules.spec.loader import load_ruleset_text
from trickrules.engine import phases


@lru_cache(maxsize=None)
def kingdoms(when_no_space: str = "stays_in_supply", to: str = "tableau") -> trickrules.Game:
    text = KINGDOMS.read_text().replace("when_no_space: stays_in_supply", f"when_no_space: {when_no_space}")
    if to != "tableau":
        text = text.replace("    to: tableau\n", f"    to: {to}\n").replace("    when_no_space: stays_in_supply", "    #")
    return trickrules.load_game(load_ruleset_text(text, players=2))


def fresh(game: trickrules.Game) -> trickrules.State:
    return game.new_initial_state(1)


def test_the_supply_is_filled_for_the_player_count() -> None:
    state = fresh(kingdoms())
    assert phases.place_tokens.tokens(state).supply == [12]
    assert state.game.tokens_needed == (0, 0, 2, 3, 4)


@pytest.mark.parametrize(("supply", "amount", "taken"), [(3, 3, 3), (2, 3, 2), (4, 3, 3), (0, 2, 0)])
def test_a_short_supply_gives_what_is_left(supply: int, amount: int, taken: int) -> None:
    state = fresh(kingdoms())
    phases.place_tokens.tokens(state).supply[0] = supply
    gain(state, 0, 0, 0, amount)
    assert phases.place_tokens.tokens(state).queue == [(0, 0)] * taken
    assert phases.place_tokens.tokens(state).supply == [supply - taken]


def test_an_unlimited_supply_stays_unlimited() -> None:
    state = fresh(kingdoms())
    phases.place_tokens.tokens(state).supply[0] = UNLIMITED
    gain(state, 1, 0, 0, 4)
    assert phases.place_tokens.tokens(state).queue == [(1, 0)] * 4 and phases.place_tokens.tokens(state).supply == [UNLIMITED]


@pytest.mark.parametrize(("held", "amount", "taken"), [([0, 0, 2, 3, 2], 2, 2), ([0, 0, 2, 3, 3], 2, 1), ([0, 0, 2, 3, 4], 1, 0)])
def test_tokens_without_a_space_stay_in_the_supply(held: list[int], amount: int, taken: int) -> None:
    state = fresh(kingdoms())
    state.section_tokens[0] = list(held)
    gain(state, 0, 0, 0, amount)
    assert phases.place_tokens.tokens(state).queue == [(0, 0)] * taken
    assert phases.place_tokens.tokens(state).supply == [12 - taken] and phases.place_tokens.tokens(state).lost == [0]


def test_queued_tokens_take_up_spaces() -> None:
    state = fresh(kingdoms())
    state.section_tokens[0] = [0, 0, 2, 3, 2]
    gain(state, 0, 0, 0, 1)
    gain(state, 0, 0, 0, 3)
    assert len(phases.place_tokens.tokens(state).queue) == 2 and phases.place_tokens.tokens(state).supply == [10]
    gain(state, 1, 0, 0, 1)  # the other player's spaces are their own
    assert phases.place_tokens.tokens(state).queue[-1] == (1, 0)


def test_tokens_without_a_space_are_lost_when_the_spec_says_so() -> None:
    state = fresh(kingdoms("lost"))
    state.section_tokens[0] = [0, 0, 2, 3, 3]
    gain(state, 0, 0, 0, 3)
    assert phases.place_tokens.tokens(state).queue == [(0, 0)]
    assert phases.place_tokens.tokens(state).lost == [2] and phases.place_tokens.tokens(state).supply == [9]


def test_lost_tokens_come_only_from_what_the_supply_had() -> None:
    state = fresh(kingdoms("lost"))
    state.section_tokens[0] = [0, 0, 2, 3, 4]
    phases.place_tokens.tokens(state).supply[0] = 1
    gain(state, 0, 0, 0, 3)
    assert phases.place_tokens.tokens(state).queue == [] and phases.place_tokens.tokens(state).lost == [1] and phases.place_tokens.tokens(state).supply == [0]


def test_tokens_to_the_player_go_to_the_pool() -> None:
    state = fresh(kingdoms(to="player"))
    phases.place_tokens.tokens(state).supply[0] = 2
    gain(state, 1, 0, 0, 3)
    assert state.pool == [[0], [2]] and phases.place_tokens.tokens(state).supply == [0] and phases.place_tokens.tokens(state).queue == []


def test_auto_place_fills_the_only_free_section_and_waits_at_a_choice() -> None:
    state = fresh(kingdoms())
    state.section_tokens[0] = [0, 0, 2, 3, 2]
    phases.place_tokens.tokens(state).queue = [(0, 0), (0, 0)]
    assert auto_place(state) is False
    assert state.section_tokens[0] == [0, 0, 2, 3, 4] and phases.place_tokens.tokens(state).queue == []
    state.section_tokens[0] = [0, 0, 1, 3, 3]
    phases.place_tokens.tokens(state).queue = [(0, 0)]
    assert auto_place(state) is True
    offset = state.game.token_offset
    assert state.legal_actions() == [offset + 2, offset + 4]
    assert phases.place_tokens.tokens(state).queue == [(0, 0)]


# ---------------------------------------------------------------- placement helpers


def test_section_for_a_suit() -> None:
    assert section_for(3, [1, 3, NO_SUIT]) == 1
    assert section_for(4, [1, 3, NO_SUIT, NO_SUIT]) == 2
    assert section_for(4, [1, 3]) == NO_SECTION


def test_free_token_sections_and_spaces_at_the_edge() -> None:
    assert free_token_sections([0, 1, 2, 3], [0, 2, 2, 4]) == [1, 3]
    assert free_token_sections([0, 2], [0, 2]) == []
    assert free_token_spaces([0, 1, 2, 3], [0, 2, 2, 4]) == 2
    assert free_token_spaces([0, 2], [0, 2]) == 0


def test_forced_cards() -> None:
    suit = [0, 0, 1, 2, 3]
    assert forced_cards([4], suit, [0, NO_SUIT]) == [4]
    # one new suit competes with nothing: every card alone of its suit is forced
    assert forced_cards([0, 1, 2], suit, [0, 1, NO_SUIT]) == [2]
    # two new suits compete for the free section: neither is forced, the card of an open one is
    assert forced_cards([2, 3, 0], suit, [0, NO_SUIT]) == [0]
    assert forced_cards([2, 3, 0, 1], [5, 6, 0, 7], [0, 7, NO_SUIT]) == [2, 3]
    # no free section: cards alone of their suit, and cards for the pile, are forced
    assert forced_cards([0, 1, 2, 3], suit, [0, 1]) == [2, 3]
    assert forced_cards([0, 1, 3, 4], suit, [0, 2]) == [3, 4]


def test_legal_token_and_card_places() -> None:
    from trickrules.engine.phases import place_cards, place_tokens

    state = fresh(kingdoms())
    phases.place_tokens.tokens(state).queue = [(1, 0), (0, 0)]
    state.section_tokens[1] = [0, 0, 2, 1, 4]
    offset = state.game.token_offset
    assert place_tokens.KIND.legal(state) == [offset + 3]
    phases.place_cards.placing(state).queue = [5, 9]
    assert place_cards.KIND.legal(state) == [state.game.place_offset + 5, state.game.place_offset + 9]


def test_forced_card_places_are_laid_and_a_last_card_too() -> None:
    from trickrules.engine.phases.place_cards import place_forced

    game = kingdoms()
    state = fresh(game)
    phases.place_cards.placing(state).queue = []
    assert place_forced(state) is False
    red, blue = game.card_index("red-3"), game.card_index("blue-5")
    red2 = game.card_index("red-7")
    # two cards of one new suit: a choice (which lies on top), nothing laid
    phases.place_cards.placing(state).queue, phases.place_cards.placing(state).player = [red, red2], 1
    assert place_forced(state) is True
    assert phases.place_cards.placing(state).queue == [red, red2] and state.stacks[1][0] == []
    assert state.legal_actions() == [game.place_offset + red, game.place_offset + red2]
    # one card alone: laid on the first free section of the player
    state = fresh(game)
    phases.place_cards.placing(state).queue, phases.place_cards.placing(state).player = [blue], 1
    assert place_forced(state) is False
    assert state.stacks[1][0] == [blue] and state.stacks[0][0] == [] and phases.place_cards.placing(state).queue == []
    # a card of an open suit is forced; what it leaves is one card, laid too
    state = fresh(game)
    state.section_suits[0][0] = game.ruleset.deck.suits.index("red")
    phases.place_cards.placing(state).queue, phases.place_cards.placing(state).player = [red, blue], 0
    assert place_forced(state) is False
    assert state.stacks[0][0] == [red] and state.stacks[0][1] == [blue]


def test_gains_are_logged_with_what_was_taken() -> None:
    from trickrules.rules.rewards import POINTS

    state = kingdoms().new_initial_state(1, record=True)
    state.events.clear()
    gain(state, 1, 2, POINTS, -3)
    phases.place_tokens.tokens(state).supply[0] = 1
    gain(state, 0, 0, 0, 2)
    assert state.bonus == [0, -3]
    assert state.events == [
        {"type": "reward", "player": 1, "reward": 2, "token": None, "amount": -3, "taken": -3},
        {"type": "reward", "player": 0, "reward": 0, "token": 0, "amount": 2, "taken": 1},
    ]
