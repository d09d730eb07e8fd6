"""A turned-up card that is one of the dealer's own (`{turn_up: {from: dealer}}`), as Whist's
trump card: its suit is trump, and it stays in the dealer's hand, shown to all until played."""

from __future__ import annotations

import random

import pytest

from helpers import spec_game
from trickrules import load_ruleset_text
from trickrules.errors import DealError
from trickrules.engine import resample
from trickrules.engine.phases import turn_up
from trickrules.spec.checks import check_spec
from trickrules.spec.dump import dump_yaml
from trickrules.spec.source import read_spec_text
from trickrules.tools.rulebook import rulebook_markdown

SPEC = """\
language: 2
id: whist
title: Whist
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [clubs, diamonds, hearts, spades]
  generate:
    - {suits: all, ranks: {from: 2, to: 14}}
deal: {hand_size: 13}
round: [deal, {turn_up: {from: dealer}}, play, score]
trumps: turned_up
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
rounds: 2
scoring:
  round:
    - {add: tricks}
"""


def _started(seed: int):
    return spec_game(SPEC).new_initial_state(seed)


@pytest.mark.parametrize("seed", range(10))
def test_the_card_is_the_dealers_own_and_names_trumps(seed: int) -> None:
    state = _started(seed)
    card = turn_up.card(state)
    assert card in state.hands[state.dealer]
    assert state.trumps == frozenset([state.tables.faces.suit[card]])
    assert all(state.observation(p)["turned_up"] == state.game.card_ids[card] for p in range(4))
    assert [len(hand) for hand in state.hands] == [13, 13, 13, 13]


@pytest.mark.parametrize("seed", range(10))
def test_a_resampled_state_keeps_it_in_the_dealers_hand_until_played(seed: int) -> None:
    rng = random.Random(seed)
    state = _started(seed)
    card, dealer = turn_up.card(state), state.dealer
    for _ in range(rng.randrange(1, 30)):
        if card not in state.hands[dealer]:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    if card not in state.hands[dealer]:
        return
    for viewer in range(4):
        assert card in resample.resample(state, viewer, rng).hands[dealer]


def test_a_given_deal_names_it_among_the_dealers_cards() -> None:
    game = spec_game(SPEC)
    ids = game.card_ids
    hands = [list(ids[13 * p: 13 * (p + 1)]) for p in range(4)]
    state = game.new_initial_state(0, deal={"hands": hands, "turn_up": hands[0][5]})
    assert state.dealer == 0 and turn_up.card(state) == game.card_index(hands[0][5])
    with pytest.raises(DealError, match="one of the dealer's cards"):
        game.new_initial_state(0, deal={"hands": hands, "turn_up": hands[1][5]})


def test_the_whole_deck_dealt_is_no_dead_rule_and_the_spec_round_trips() -> None:
    ruleset = load_ruleset_text(SPEC)
    assert load_ruleset_text(dump_yaml(ruleset)) == ruleset
    assert not [p for p in check_spec(read_spec_text(SPEC, "whist.yaml")) if p.code == "TR507"]


def test_the_rulebook_says_it_stays_in_the_dealers_hand() -> None:
    assert "The card stays in the dealer's hand, seen by all" in rulebook_markdown(spec_game(SPEC).ruleset)


@pytest.mark.parametrize(("seed", "first", "second"), [
    (0, "diamonds-8", "diamonds-5"), (1, "clubs-10", "spades-2"), (2, "diamonds-10", "diamonds-8"),
    (3, "clubs-5", "spades-6"), (4, "clubs-9", "diamonds-5"), (5, "hearts-12", "hearts-13"),
])
def test_the_dealers_card_turned_up_is_drawn_by_the_seed_and_round(seed: int, first: str, second: str) -> None:
    """Which of the dealer's cards is turned up is the seed's draw for that round, as recorded:
    a record replays with the same card."""
    state = _started(seed)
    assert state.game.card_ids[turn_up.card(state)] == first
    while state.round == 0:
        state.apply_action(state.legal_actions()[0])
    assert state.game.card_ids[turn_up.card(state)] == second
