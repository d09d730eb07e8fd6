"""A spec that validates plays: each class of spec that once validated and then crashed, hung
or played wrongly, pinned by a small variant of a shipped example."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.errors import SpecError
from trickrules.rules.scoring import MAX_POINTS
from trickrules.spec.checks import load_spec_text, spec_warnings
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.simulate import simulate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SKAT = (EXAMPLES / "skat-lite.yaml").read_text()
WHIST = (EXAMPLES / "plain-whist.yaml").read_text()
CLUBS = """    trumps: [jacks, clubs]
    scoring:
      round:
        - {name: declarer, add: "(12 if card_points >= 61 else -24) if makers else 0"}"""


def skat_with_clubs(clubs: str, top: str = "") -> trickrules.Game:
    """Skat (simplified) with its clubs contract replaced, and `top` added before the contracts."""
    assert CLUBS in SKAT
    text = SKAT.replace(CLUBS, clubs).replace("contracts:\n", top + "contracts:\n", 1)
    return trickrules.load_game(load_ruleset_text(text))


def declare_clubs(game: trickrules.Game, seed: int) -> trickrules.State:
    """A game whose first speaker declares clubs; played on by first legal actions."""
    state = game.new_initial_state(seed, record=True)
    while state.phase != trickrules.Phase.DECLARE:
        state.apply_action(state.legal_actions()[0])
    state.apply_action(game.contract_offset + game.contract_names.index("clubs"))
    return state


def play_round(state: trickrules.State) -> None:
    round_number = state.round
    while not state.is_terminal() and state.round == round_number:
        state.apply_action(state.legal_actions()[-1])


def test_a_counter_declared_only_in_a_contract_counts_in_its_rounds() -> None:
    game = skat_with_clubs("""    trumps: [jacks, clubs]
    counters:
      seen: {on_play: {card: {suit: clubs}, add: 1}}
    scoring:
      round:
        - {name: declarer, add: "seen if makers else 0"}""")
    state = declare_clubs(game, seed=5)
    declarer = state.declarer
    play_round(state)
    cards = game.ruleset.deck.cards
    clubs = sum(1 for e in state.events if e["type"] == "play" and cards[e["card"]].faces[e["face"]].suit == 0)
    assert clubs >= 5  # the clubs played as clubs (not as trump jacks): at least 7 - 2 in the skat
    assert state.round_results[0]["points"][declarer] == clubs


def test_a_contracts_counter_starts_from_the_contracts_initial_value() -> None:
    game = skat_with_clubs("""    trumps: [jacks, clubs]
    counters:
      need: {initial: 8}
    scoring:
      round:
        - {name: declarer, add: "need if makers else 0"}""", top="counters:\n  need: {initial: 0}\n\n")
    state = declare_clubs(game, seed=5)
    declarer = state.declarer
    play_round(state)
    assert state.round_results[0]["points"][declarer] == 8


def test_a_reward_declared_only_in_a_contract_is_tallied_under_its_name() -> None:
    game = skat_with_clubs("""    trumps: [jacks, clubs]
    rewards:
      - {name: ace, to: winner, when: {rank: 15}, give: {points: 1}}
    scoring:
      round:
        - {name: declarer, add: "(12 if card_points >= 61 else -24) if makers else 0"}""")
    result = simulate(game, n=40, seed=1)
    ace = result.rule("reward", "ace")
    assert ace is not None and ace.fired.mean > 0  # some clubs rounds were played, and aces won tricks


def whist(add: str, hands: int = 4) -> trickrules.Game:
    text = WHIST.replace("    - add: tricks", f"    - add: {add}").replace("max: 13", "max: 99")
    return trickrules.load_game(load_ruleset_text(text, options={"hands": hands}))


def play_to_the_end(state: trickrules.State) -> trickrules.State:
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_points_that_grow_without_end_are_held_at_the_bound() -> None:
    game = whist('"totals[0] * totals[0] + 2"', hands=40)
    state = play_to_the_end(game.new_initial_state(1, record=True))
    assert state.totals == [MAX_POINTS] * 4
    assert max(result["points"][0] for result in state.round_results) == MAX_POINTS
    assert all(abs(v) <= MAX_POINTS for result in state.round_results for v in result["points"])


def test_true_is_a_constant_not_a_measure() -> None:
    state = play_to_the_end(whist('"True"').new_initial_state(0))
    assert state.totals == [4, 4, 4, 4]  # one point a round, four rounds


def test_a_list_as_an_amount_is_refused_at_load() -> None:
    with pytest.raises(SpecError) as caught:
        whist("totals")
    assert {p.code for p in caught.value.problems} == {"TR144"}


def test_choosing_trumps_without_a_list_of_suits_is_checked_and_plays() -> None:
    text = WHIST.replace("trumps: {choose: {by: dealer, from: [clubs, diamonds, hearts, spades]}}", "trumps: {choose: {by: dealer}}")
    assert "trumps: {choose: {by: dealer}}" in text
    source = load_spec_text(text, "whist.yaml", every_count=True)
    assert spec_warnings(source) == []  # the dead-rule reasoning reads a choice from every suit
    game = trickrules.load_game(load_ruleset_text(text))
    state = play_to_the_end(game.new_initial_state(0))
    assert len(game.trump_choice.candidates) == 4 and state.is_terminal()


def test_a_billion_copies_are_refused_without_making_them() -> None:
    """Checking a deck of 13 trillion cards reports TR332 at once: no id is made per copy."""
    text = WHIST.replace("    - {suits: all, ranks: {from: 2, to: 14}}", "    - {suits: all, ranks: {from: 2, to: 14}, copies: 1000000000000}")
    assert "copies" in text
    with pytest.raises(SpecError) as caught:
        load_spec_text(text, "whist.yaml")
    assert [(p.code, p.path) for p in caught.value.problems] == [("TR332", "$.deck")]
