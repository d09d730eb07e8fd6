"""Resampling from what one player knows: a sample never contradicts the player's view, keeps
every place's size and every card, respects what play revealed, plays on legally, and every
consistent placement of a hidden card comes out."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine.phases import Phase
from trickrules.engine.resample import constraints

from helpers import ROOT
from strategies import scaled
from trickrules.engine import phases

SPECS = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
GAMES = {p.stem: trickrules.load_game(p) for p in SPECS}


def _walk(game: trickrules.Game, seed: int, steps: int) -> trickrules.State:
    """A state after up to `steps` random actions from the deal of `seed` (never a finished one)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        after = state.clone()
        after.apply_action(rng.choice(legal))
        if after.is_terminal():
            break
        state = after
    return state


def _all_cards(state: trickrules.State) -> Counter[int]:
    cards = [c for hand in state.hands for c in hand] + state.stock + phases.discard.discarded(state) + state.trick
    cards += phases.take.buried(state)
    cards += [c for trick, _ in state.tricks for c in trick]
    passing = phases.pass_cards.running(state)
    if passing is not None:
        cards += [c for passed in passing.passed for c in passed]
    return Counter(cards)


def _hands_then(state: trickrules.State, player: int) -> list[tuple[list[int], int, int]]:
    """For each card `player` followed with this round: its hand then (as `state` has it), the
    card and the led group (set by the trick's first card that is not free of the follow rules)."""
    played = [(cards, who) for cards, who in [*state.tricks, (state.trick, state.trick_players)] if cards]
    group, free = state.tables.faces.group, state.tables.free
    result = []
    for index, (cards, who) in enumerate(played):
        leading = next((i for i, c in enumerate(cards) if c not in free), len(cards))  # a free card led sets no suit
        if player not in who[leading + 1:]:
            continue
        later = [c for cs, ws in played[index:] for c, p in zip(cs, ws) if p == player]
        result.append((sorted(state.hands[player] + later), cards[who.index(player)], group[cards[leading]]))
    return result


def assert_consistent(state: trickrules.State, sample: trickrules.State, player: int) -> None:
    """`sample` is a world `player` cannot tell from `state`."""
    assert sample.information_state_string(player) == state.information_state_string(player)
    assert sample.observation(player) == state.observation(player)
    assert sample.hands[player] == state.hands[player]
    assert _all_cards(sample) == _all_cards(state)
    assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
    assert len(sample.stock) == len(state.stock) and len(phases.discard.discarded(sample)) == len(phases.discard.discarded(state))
    assert (phases.bid.bids(sample), sample.totals, sample.tricks_won) == (phases.bid.bids(state), state.totals, state.tricks_won)
    assert (sample.phase, sample.current_player()) == (state.phase, state.current_player())
    assert sample.legal_actions(player) == state.legal_actions(player)
    follow = state.tables.legal_follow
    for other in range(state.num_players):  # every card followed with was allowed from the sampled hand
        for hand, card, led in _hands_then(sample, other):
            assert card in follow(hand, led), (other, hand, card, led)
    for own in phases.pass_cards.finished(state):  # what the player passed is with the receiver, unless played
        receiver = (player + own.offset) % state.num_players
        played = {c for trick, _ in state.tricks for c in trick} | set(state.trick)
        assert all(c in sample.hands[receiver] for c in own.passed[player] if c not in played)
    turned = phases.turn_up.card(state)
    if turned >= 0 and turned in state.stock:
        assert sample.stock[0] == turned == state.stock[0]


def _play_on(sample: trickrules.State, seed: int) -> None:
    rng = random.Random(seed)
    while not sample.is_terminal():
        sample.apply_action(rng.choice(sample.legal_actions()))


@settings(max_examples=scaled(60))
@given(
    name=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 130),
    player=st.integers(0, 7),
)
def test_a_sample_never_contradicts_what_the_player_knows(name: str, seed: int, steps: int, player: int) -> None:
    game = GAMES[name]
    state = _walk(game, seed, steps)
    player %= game.num_players
    before = (str(state), state.information_state_string(player), list(state.history))
    sample = state.resample_from_infostate(player, random.Random(seed))
    assert (str(state), state.information_state_string(player), list(state.history)) == before
    assert_consistent(state, sample, player)
    _play_on(sample, seed)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_decision_of_a_round_can_be_resampled(name: str) -> None:
    """At every decision of a round, for every player: bids, passes, the dealer's pickup and
    discard, tokens and won cards placed included."""
    game = GAMES[name]
    state = game.new_initial_state(11)
    rng = random.Random(11)
    phases = set()
    while not state.is_terminal() and state.round == 0:
        phases.add(state.phase)
        for player in range(game.num_players):
            assert_consistent(state, state.resample_from_infostate(player, rng), player)
        state.apply_action(rng.choice(state.legal_actions()))
    assert Phase.PLAY in phases


def test_the_dealers_pickup_stays_in_the_dealers_hand() -> None:
    game = GAMES["euchre"]
    for seed in range(40):
        state = game.new_initial_state(seed)
        while state.phase == Phase.CHOOSE_TRUMPS:
            state.apply_action(state.legal_actions()[-1])  # order up the turned-up card's suit
        if state.phase != Phase.DISCARD:
            continue
        taken, dealer = phases.turn_up.card(state), state.dealer
        for moment in range(2):  # while the dealer discards, then after the discard
            for player in range(4):
                sample = state.resample_from_infostate(player, seed)
                assert taken in sample.hands[dealer] or (moment and taken in phases.discard.discarded(sample))
                assert_consistent(state, sample, player)
            if moment == 0:
                state.apply_action(state.legal_actions()[0])
        return
    pytest.fail("no deal where the dealer picks up")


def test_the_same_seed_gives_the_same_sample() -> None:
    state = _walk(GAMES["hearts"], 5, 30)
    one, two = state.resample_from_infostate(1, 99), state.resample_from_infostate(1, 99)
    assert one.hands == two.hands and one.seed == two.seed
    with pytest.raises(trickrules.errors.OutOfRangeError):
        state.resample_from_infostate(4, 0)


def _late_position() -> trickrules.State:
    """Spades with three tricks to go and some suit shown void by a player."""
    game = GAMES["spades"]
    for seed in itertools.count():
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not (state.phase == Phase.PLAY and state.tricks_played == 10 and not state.trick):
            state.apply_action(rng.choice(state.legal_actions()))
        if any(group for group in _shown_voids(state)):
            return state
    raise AssertionError


def _shown_voids(state: trickrules.State) -> list[set[int]]:
    group = state.tables.faces.group
    voids: list[set[int]] = [set() for _ in range(state.num_players)]
    for cards, players in state.tricks:
        for card, player in zip(cards[1:], players[1:]):
            if group[card] != group[cards[0]]:
                voids[player].add(group[cards[0]])
    return voids


def test_every_consistent_placement_comes_out() -> None:
    """Each (hidden card, holder) pair of some consistent deal occurs across 200 samples, and
    no other: the consistent deals are enumerated by brute force."""
    state = _late_position()
    player = state.current_player()
    others = [p for p in range(4) if p != player]
    hidden = sorted(c for p in others for c in state.hands[p])
    follow = state.tables.legal_follow
    possible: set[tuple[int, int]] = set()
    world = state.clone()
    for first in itertools.combinations(hidden, 3):
        rest = [c for c in hidden if c not in first]
        for second in itertools.combinations(rest, 3):
            third = [c for c in rest if c not in second]
            for p, hand in zip(others, (first, second, third)):
                world.hands[p] = sorted(hand)
            if all(card in follow(hand, led) for p in others for hand, card, led in _hands_then(world, p)):
                possible |= {(c, p) for p in others for c in world.hands[p]}
    assert len(possible) < len(hidden) * 3  # play has ruled some placement out
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        sample = state.resample_from_infostate(player, rng)
        seen |= {(c, p) for p in others for c in sample.hands[p]}
    assert seen == possible
    assert {c for c, _ in constraints(state, player).cards} == set(hidden)
