"""Property tests for bidding, partnerships, choosing trumps in rounds, discards, going alone
and contracts: random specs of these kinds, random play, and invariants read from the rules
independently after every action."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine import phases
from trickrules.engine.state import Phase, State

ROOT = Path(__file__).resolve().parent.parent
SUITS = ["red", "blue", "gold", "green"]


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """A 4-player spec with teams and a bid phase, trumps chosen in rounds (with a discard and
    going alone), or a declare phase with contracts."""
    ranks = draw(st.integers(4, 7))
    hand = draw(st.integers(2, min(6, (len(SUITS) * ranks - 1) // 4)))
    kind = draw(st.sampled_from(["bid", "choose", "declare"]))
    teams = draw(st.booleans()) or kind == "choose"
    spec: dict[str, Any] = {
        "language": 2,
        "id": "generated",
        "title": "Generated",
        "players": [4],
        "deck": {"suits": SUITS, "generate": [{"suits": "all", "ranks": {"from": 1, "to": ranks}}]},
        "deal": {"hand_size": hand, "dealer": {"first": draw(st.integers(0, 3)), "rotation": 1}},
        "rounds": draw(st.integers(1, 3)),
        "follow": ["follow_led"],
        "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}],
        "scoring": {"round": [{"add": "tricks"}]},
    }
    if teams:
        spec["teams"] = [[0, 2], [1, 3]]
    if kind == "bid":
        allow = draw(st.sampled_from([
            "True", "not (last and bids_total + bid == hand_size)", "partner_bid < 0 or bid + partner_bid <= hand_size",
            "bid != 1 or bids_made == 0",
        ]))
        spec["round"] = ["deal", {"bid": {"values": {"from": 0, "to": "hand_size"}, "allow": allow}}, "play", "score"]
        per = "team" if teams and draw(st.booleans()) else "player"
        spec["scoring"]["round"].append({"name": "contract", "per": per, "add": "10 + tricks if tricks >= bid else -bid"})
    elif kind == "choose":
        spec["round"] = ["deal", "turn_up", "choose_trumps", "go_alone", "play", "score"]
        stick = draw(st.booleans())
        spec["trumps"] = {"choose": {"by": "left_of_dealer", "rounds": [
            {"from": "turned_up", "dealer_takes_turned_up": True, "may_discard_turned_up": draw(st.booleans())},
            {"from": "others", "dealer_must_choose": stick},
        ]}}
        spec["scoring"]["round"].append({"name": "makers", "per": "team", "add": "(2 if alone else 1) * tricks if makers else tricks"})
    else:
        spec["round"] = ["deal", {"declare": {"otherwise": draw(st.sampled_from(["score", "plain"]))}}, "play", "score"]
        spec["contracts"] = {
            "plain": {"description": "No trumps."},
            "red_trumps": {"trumps": ["red"], "declarer": "alone",
                           "scoring": {"round": [{"name": "declarer", "add": "3 * tricks if makers else tricks"}]}},
            "low": {"ranking": [{"prefer": "led"}, {"lowest": "rank"}]},
        }
    return spec


def play_checked(game: trickrules.Game, seed: int, rng: Any) -> State:
    state = game.new_initial_state(seed, record=True)
    rules = game.ruleset
    while not state.is_terminal():
        check_cards(state)
        legal = state.legal_actions()
        if state.phase == Phase.BID:
            check_bids(state, legal)
        if state.phase == Phase.PLAY:
            assert state.current not in state.sitting_out, "a player who sits out is asked to play"
        out_hands = {p: list(state.hands[p]) for p in state.sitting_out}
        before_round = state.round
        state.apply_action(legal[rng.randrange(len(legal))])
        if state.round == before_round:
            assert all(state.hands[p] == hand for p, hand in out_hands.items()), "a player who sits out played"
        if state.round == before_round and state.phase == Phase.PLAY:
            assert len(state.trick) < state.trick_size == game.num_players - len(state.sitting_out)
    check_rounds(state, rules)
    return state


def check_cards(state: State) -> None:
    """Every card is in one place: hands, trick, won piles, the stock, discards, passing."""
    places = [*state.hands, state.trick, *state.piles, state.set_aside, phases.discard.discarded(state)]
    held = sorted(c for place in places for c in place)
    assert held == sorted(set(held)), "a card is in two places"
    assert len(held) == state.game.num_cards, f"{len(held)} cards, the deck has {state.game.num_cards}"


def check_bids(state: State, legal: list[int]) -> None:
    """The legal bids are exactly those the bid phase's allow expression permits, read here."""
    game = state.game
    step = next(s for s in game.steps if s.bidding is not None)
    rules = step.bidding
    assert rules is not None
    player = state.current_player()
    made = [b for b in phases.bid.bids(state) if b is not None]
    partner = -1
    for team in game.ruleset.teams:
        if player in team:
            partner = next((b for p in team if p != player and (b := phases.bid.bids(state)[p]) is not None), -1)
    n = game.num_players
    env = {**game.constants, **state.counters, "hand_size": state.hand_size, "players": n, "bids_total": sum(made),
           "bids_made": len(made), "last": len(made) == n - 1, "partner_bid": partner, "trick": 1, "round": state.round + 1,
           "totals": tuple(state.totals)}
    expected = [game.bid_offset + b for b in range(rules.lowest, state.hand_size + 1)
                if rules.allow is None or rules.allow({**env, "bid": b})]
    assert legal == expected, f"bids: legal {legal}, the allow expression permits {expected}"


def check_rounds(state: State, rules: trickrules.Ruleset) -> None:
    """Partners' points: each round gives every member of a team the sum of what the rules give
    its members (rule points and rewards); a contract played alone makes its own sides."""
    if not rules.teams or state.game.declares:
        return
    for result in state.round_results:
        for team in rules.teams:
            pooled = sum(sum(result["rules"][p].values()) + result["rewards"][p] for p in team)
            assert all(result["points"][p] == pooled for p in team), (result, team)
    for team in rules.teams:
        assert len({state.totals[p] for p in team}) == 1, f"partners' totals differ: {state.totals}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=specs(), seed=st.integers(0, 10**6), data=st.randoms(use_true_random=False))
def test_random_specs_of_bids_teams_choosing_and_contracts(spec: dict[str, Any], seed: int, data: Any) -> None:
    text = yaml.safe_dump(spec, sort_keys=False)
    game = trickrules.load_game(trickrules.load_ruleset_text(text))
    state = play_checked(game, seed, data)
    assert state.is_terminal()


@pytest.mark.parametrize("path", [ROOT / "specs" / "euchre.yaml", ROOT / "examples" / "skat-lite.yaml",
                                  ROOT / "specs" / "spades.yaml", ROOT / "specs" / "oh-hell.yaml"], ids=lambda p: p.stem)
def test_shipped_games_with_bids_choosing_and_contracts(path: Path) -> None:
    game = trickrules.load_game(path, options={"single_hand": True} if "skat" not in path.stem else {"rounds": 2})
    for seed in range(25):
        play_checked(game, seed, random.Random(seed))


def _patch_phase(monkeypatch: Any, phase: Phase, **functions: Any) -> None:
    """Replace methods of a registered kind of phase (the kind the state dispatches through)."""
    kind = phases.KINDS[int(phase)]
    for name, function in functions.items():
        monkeypatch.setattr(kind, name, function)  # an instance attribute: called without the kind


@pytest.mark.patches_engine
def test_break_bid_constraint_is_caught(monkeypatch: Any) -> None:
    spec = {"language": 2, "id": "b", "title": "B", "players": [4],
            "deck": {"suits": SUITS, "generate": [{"suits": "all", "ranks": {"from": 1, "to": 6}}]},
            "deal": {"hand_size": 3}, "round": ["deal", {"bid": {"values": {"from": 0, "to": "hand_size"},
            "allow": "not (last and bids_total + bid == hand_size)"}}, "play", "score"],
            "ranking": [{"prefer": "led"}, {"highest": "rank"}], "scoring": {"round": [{"add": "tricks"}]}}
    game = trickrules.load_game(trickrules.load_ruleset_text(yaml.safe_dump(spec)))
    play_checked(game, 1, random.Random(0))
    _patch_phase(monkeypatch, Phase.BID, legal=lambda state: [state.game.bid_offset + b for b in range(state.hand_size + 1)])
    try:
        for seed in range(10):
            play_checked(game, seed, random.Random(seed))
    except AssertionError as error:
        assert "allow expression permits" in str(error)
    else:
        raise AssertionError("a dropped bid constraint went unnoticed")


@pytest.mark.patches_engine
def test_break_discard_is_caught(monkeypatch: Any) -> None:
    from trickrules.engine.phases import discard

    spec = {"language": 2, "id": "c", "title": "C", "players": [4], "teams": [[0, 2], [1, 3]],
            "deck": {"suits": SUITS, "generate": [{"suits": "all", "ranks": {"from": 1, "to": 6}}]},
            "deal": {"hand_size": 5}, "round": ["deal", "turn_up", "choose_trumps", "go_alone", "play", "score"],
            "trumps": {"choose": {"by": "left_of_dealer", "rounds": [{"from": "turned_up", "dealer_takes_turned_up": True},
                                                                    {"from": "others", "dealer_must_choose": True}]}},
            "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}], "scoring": {"round": [{"add": "tricks"}]}}
    game = trickrules.load_game(trickrules.load_ruleset_text(yaml.safe_dump(spec)))
    play_checked(game, 1, random.Random(0))
    apply = discard.KIND.apply

    def lose_it(state: State, action: int) -> None:
        apply(state, action)
        phases.discard.discarded(state).pop()

    _patch_phase(monkeypatch, Phase.DISCARD, apply=lose_it)
    try:
        for seed in range(20):
            play_checked(game, seed, random.Random(seed))
    except AssertionError as error:
        assert "cards" in str(error)
    else:
        raise AssertionError("a lost discard went unnoticed")
