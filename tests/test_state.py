"""The state API: phases, decisions, illegal actions, clones and observations."""

from __future__ import annotations

import random
import sys

import pytest
from helpers import KINGDOMS, MEADOWS, game

import trickrules
from trickrules import IllegalActionError, Phase
from trickrules.engine.state import TERMINAL_PLAYER


def random_play(state, rng, stop=None):
    steps = 0
    while not state.is_terminal() and (stop is None or steps < stop):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
    return state


def test_a_new_game_deals_hands_and_waits_for_the_leader():
    g = game(KINGDOMS, 4)
    state = g.new_initial_state(seed=7)
    assert [len(h) for h in state.hands] == [10, 10, 10, 10]
    assert len(state.set_aside) == 5
    assert state.phase is Phase.PLAY
    assert state.current_player() == 1  # left of dealer 0
    assert sorted(state.legal_actions()) == sorted(state.hands[1])


def test_a_finished_game_is_terminal_with_returns():
    g = game(MEADOWS, 4)
    state = random_play(g.new_initial_state(seed=1), random.Random(1))
    assert state.current_player() == TERMINAL_PLAYER
    assert state.legal_actions() == []
    assert sum(state.returns()) == 4  # one victory point per deal, or shared ties
    assert len(state.round_results) == 4


@pytest.mark.parametrize("bad", [999, -1, "play red-5", None, 2.5, True])
def test_an_illegal_action_leaves_the_state_unchanged(bad):
    g = game(KINGDOMS, 4)
    state = random_play(g.new_initial_state(seed=3), random.Random(3), stop=37)
    before = (str(state), list(state.history), state.legal_actions(), state.observation(0))
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(bad)
    assert (str(state), list(state.history), state.legal_actions(), state.observation(0)) == before
    assert list(caught.value.legal_actions) == state.legal_actions()


def test_a_card_not_in_the_legal_list_is_refused_and_named():
    g = game(KINGDOMS, 4)
    state = g.new_initial_state(seed=3)
    other = state.hands[2][0]
    with pytest.raises(IllegalActionError, match=g.card_ids[other]):
        state.apply_action(other)
    assert isinstance(IllegalActionError(0, [], ""), ValueError)


def test_clone_then_the_same_actions_gives_the_same_state():
    g = game(KINGDOMS, 3)
    state = random_play(g.new_initial_state(seed=11), random.Random(11), stop=25)
    copy = state.clone()
    rng_a, rng_b = random.Random(4), random.Random(4)
    random_play(state, rng_a)
    random_play(copy, rng_b)
    assert str(state) == str(copy) and state.history == copy.history and state.totals == copy.totals


def test_a_clone_is_independent():
    g = game(MEADOWS, 4)
    state = g.new_initial_state(seed=2)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.history == [] and len(copy.history) == 1


def test_observation_never_shows_another_hand():
    g = game(KINGDOMS, 4)
    rng = random.Random(9)
    for seed in range(30):
        state = random_play(g.new_initial_state(seed=seed), rng, stop=rng.randrange(0, 200))
        for player in range(4):
            seen = state.observation(player)
            assert seen["hand"] == [g.card_ids[c] for c in state.hands[player]]
            others = {g.card_ids[c] for p, h in enumerate(state.hands) if p != player for c in h}
            assert not others & set(_all_strings(seen) - _public_strings(state))


def _all_strings(value):
    if isinstance(value, dict):
        return set().union(*(_all_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_all_strings(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) else set()


def _public_strings(state):
    """Card ids that are public: played or laid on a tableau."""
    g = state.game
    public = {g.card_ids[c] for c in state.trick}
    public |= {g.card_ids[c] for row in state.stacks for s in row for c in s}
    return public


def test_every_decision_is_an_action_with_one_text_form():
    g = game(KINGDOMS, 4)
    state = g.new_initial_state(seed=5)
    kinds = set()
    rng = random.Random(5)
    while not state.is_terminal():
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert g.string_to_action(text) == action
            kinds.add(text.split()[0])
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert kinds == {"play", "place", "token"}


def test_game_info():
    info = game(KINGDOMS, 4).info()
    assert (info.num_players, info.num_cards, info.num_rounds, info.hand_size) == (4, 45, 4, 10)
    assert info.num_distinct_actions == 45 * 2 + 5 + 5
    g = game(KINGDOMS, 4)
    lengths = []
    for seed in range(20):
        lengths.append(len(random_play(g.new_initial_state(seed=seed), random.Random(seed)).history))
    assert max(lengths) <= info.max_game_length


def test_a_player_choice_of_trumps_is_an_action(tmp_path):
    spec = tmp_path / "choose.yaml"
    spec.write_text(
        f"extends: meadows\nid: choose\ntrumps: {{option: null, choose: {{by: dealer, from: [red, green, yellow, blue]}}}}\n"
    )
    g = trickrules.load_game(spec, players=4)
    state = g.new_initial_state(seed=1)
    assert state.phase is Phase.CHOOSE_TRUMPS and state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "trumps red", "trumps green", "trumps yellow", "trumps blue",
    ]
    state.apply_action(g.string_to_action("trumps green"))
    assert state.phase is Phase.PLAY and state.trumps == frozenset([1])
    random_play(state, random.Random(1))
    assert state.is_terminal()


def test_load_game_rejects_a_player_count_the_spec_does_not_allow():
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_game(KINGDOMS, players=5)
    assert caught.value.code == "TR310"


def test_options_from_text_and_values():
    g = trickrules.load_game(MEADOWS, players=4, options={"trumps": "blue,lila", "rounds": "2"})
    assert g.ruleset.option("trumps") == ("blue", "lila") and g.ruleset.rounds == 2
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_game(MEADOWS, options={"trumps": "pink"})
    assert caught.value.code == "TR307"
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_game(MEADOWS, options={"trumpz": "blue"})
    assert caught.value.code == "TR304"


def test_every_phase_number_is_its_registered_kinds_and_its_modules() -> None:
    from trickrules.engine import phases

    assert len(phases.KINDS) == len(Phase)
    for phase in Phase:
        kind = phases.KINDS[phase]
        assert kind.phase == phase.value
        assert phases.registered(kind.phase, kind.step) is kind
        module = sys.modules[type(kind).__module__]
        assert getattr(module, phase.name) == phase.value  # the number the module itself uses
