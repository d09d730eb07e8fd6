"""The auction phase: calls above the last bid, doubles, the end of the auction, the declarer,
the trumps of the contract's strain, a dummy played by the declarer, and its refusals."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from helpers import events
from trickrules.engine import phases
from trickrules.errors import SpecError
from trickrules.spec.loader import load_ruleset_text

SPEC = """
id: auction-test
title: Auction test
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 2, to: 14}}
deal:
  hand_size: 13
  dealer: {first: 0, rotation: 1}
  first_leader: left_of_declarer
round:
  - deal
  - auction:
      first: dealer
      strains: [{name: C, trumps: clubs}, {name: D, trumps: diamonds}, {name: H, trumps: hearts}, {name: S, trumps: spades}, {name: NT}]
      dummy: true
  - play
  - score
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  round:
    - add: "contract_level * 100 + (contract_strain + 1) * 10 + doubled"
"""


def game(text: str = SPEC) -> trickrules.Game:
    return trickrules.load_game(load_ruleset_text(text))


def calls(state: trickrules.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def call(state: trickrules.State, text: str) -> None:
    state.apply_action(state.game.string_to_action(text))


def test_the_first_call_is_any_bid_or_pass_and_no_double() -> None:
    state = game().new_initial_state(1)
    assert state.phase == trickrules.Phase.AUCTION and state.current_player() == 0
    legal = calls(state)
    assert legal[0] == "pass" and "double" not in legal and "redouble" not in legal
    assert legal[1:] == [f"bid {level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")]


def test_a_bid_must_beat_the_last_and_only_the_other_side_may_double_it() -> None:
    state = game().new_initial_state(1)
    call(state, "bid 2H")
    assert state.current_player() == 1
    assert calls(state)[:3] == ["pass", "double", "bid 2S"]
    call(state, "pass")
    assert "double" not in calls(state)  # the bidder's partner
    call(state, "pass")
    call(state, "double")  # seat 3, the other side
    assert calls(state)[:2] == ["pass", "redouble"]  # seat 0, the bidder: may redouble
    call(state, "pass")
    assert "redouble" not in calls(state) and "double" not in calls(state)  # seat 1, the doublers' side


def test_three_passes_after_a_bid_end_the_auction_with_its_declarer_trumps_and_first_leader() -> None:
    state = game().new_initial_state(1)
    call(state, "bid 1S")   # seat 0 names spades first
    call(state, "pass")
    call(state, "bid 2S")   # seat 2, the partner, bids the same strain higher
    for _ in range(3):
        call(state, "pass")
    assert state.phase == trickrules.Phase.PLAY
    assert state.declarer == 0  # the first of the side to name spades, not the last bidder
    assert state.trumps == frozenset([3])
    assert state.current_player() == 1  # left of the declarer leads
    assert phases.auction.KIND.names(state) == {"contract_level": 2, "contract_strain": 3, "doubled": 0}


def test_the_lowest_bid_is_logged_by_its_name_and_three_passes_end_the_auction_on_it() -> None:
    state = game().new_initial_state(1, record=True)
    call(state, "bid 1C")
    for _ in range(3):
        call(state, "pass")
    assert state.phase == trickrules.Phase.PLAY and state.declarer == 0
    assert [e["call"] for e in events(state, "call")] == ["1C", "pass", "pass", "pass"]


def test_seat_0_naming_a_strain_first_declares_it_whatever_the_order_its_team_is_written_in() -> None:
    """Seat 0 names clubs, its partner bids them higher: seat 0 declares, also when the team
    is written [2, 0]."""
    for teams in ("[[0, 2], [1, 3]]", "[[2, 0], [3, 1]]"):
        state = game(SPEC.replace("teams: [[0, 2], [1, 3]]", f"teams: {teams}")).new_initial_state(1)
        call(state, "bid 1C")
        call(state, "pass")
        call(state, "bid 2C")
        for _ in range(3):
            call(state, "pass")
        assert (state.declarer, phases.auction.KIND.names(state)["contract_level"]) == (0, 2), teams


def test_four_passes_pass_the_deal_out_and_score_it_unplayed() -> None:
    state = game().new_initial_state(1, record=True)
    for _ in range(4):
        call(state, "pass")
    assert state.is_terminal() and state.returns() == [0.0] * 4
    assert state.round_results[0]["points"] == [0, 0, 0, 0]
    assert events(state, "auction_end") == [{"type": "auction_end", "contract": None, "declarer": -1, "doubled": 0, "dummy": -1}]


def test_an_auction_without_a_dummy_logs_its_contract_with_no_dummy_seat() -> None:
    state = game(SPEC.replace("dummy: true", "dummy: false")).new_initial_state(1, record=True)
    call(state, "bid 1S")
    for _ in range(3):
        call(state, "pass")
    assert events(state, "auction_end") == [{"type": "auction_end", "contract": "1S", "declarer": 0, "doubled": 0, "dummy": -1}]
    assert state.current_player() == 1 and state.deciders[2] == 2  # the partner plays its own cards


def test_the_declarer_plays_the_dummys_cards_and_the_dummy_is_shown_after_the_opening_lead() -> None:
    state = game().new_initial_state(2)
    call(state, "bid 3NT")
    for _ in range(3):
        call(state, "pass")
    dummy = 2
    assert state.trumps == frozenset()
    assert "exposed" not in state.observation(1)  # before the opening lead
    call(state, state.action_to_string(state.legal_actions()[0]))  # seat 1 leads
    assert state.observation(3)["exposed"] == {dummy: state.observation(dummy)["hand"]}
    assert state.current == dummy and state.current_player() == 0  # dummy's turn: the declarer chooses
    held = {state.game.card_ids[c] for c in state.hands[dummy]}
    assert {a.split()[1] for a in calls(state)} <= held  # from the dummy's cards
    sample = state.resample_from_infostate(3, random.Random(0))
    assert sample.hands[dummy] == state.hands[dummy]  # a hand on the table is not dealt again


def test_random_auctions_keep_every_rule() -> None:
    g = game()
    for seed in range(60):
        state = g.new_initial_state(seed)
        chooser = random.Random(seed)
        while state.phase == trickrules.Phase.AUCTION:
            own = phases.auction.calling(state)
            assert own is not None
            before = own.bid
            action = chooser.choice(state.legal_actions())
            text = state.action_to_string(action)
            call(state, text)
            if text.startswith("bid "):
                assert own.bid > before
        if state.is_terminal():
            continue
        own = phases.auction.calling(state)
        assert own is not None and own.over and own.bid >= 0
        side = next(team for team in g.ruleset.teams if own.bidder in team)
        assert state.declarer in side
        dummy = next(p for p in side if p != state.declarer)
        while not state.is_terminal():
            assert state.current_player() != dummy  # the dummy never chooses
            state.apply_action(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("{name: C, trumps: clubs}", "{name: C, trumps: clover}"),
        ("{name: D, trumps: diamonds}", "{name: C, trumps: diamonds}"),
        ("      dummy: true\n", "      dummy: true\n      levels: {from: 7, to: 1}\n"),
        ("teams: [[0, 2], [1, 3]]\n", ""),
    ],
    ids=["unknown suit", "strain named twice", "no levels", "dummy without teams"],
)
def test_broken_auctions_are_refused_with_code_and_position(old: str, new: str) -> None:
    assert old in SPEC
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(SPEC.replace(old, new), players=4)
    problem = raised.value.problems[0]
    assert problem.code in ("TR301", "TR307", "TR331", "TR320") and problem.line > 1 and problem.column >= 1


SUITS = ["clubs", "diamonds", "hearts", "spades"]


@st.composite
def auction_specs(draw: st.DrawFn) -> tuple[str, int]:
    """An auction spec: 2 to 6 players, with or without partnerships, any table of levels and
    strains (some with trumps, some without), doubling or not, either declarer rule, a dummy
    where there are partners."""
    players = draw(st.sampled_from([2, 3, 4, 6]))
    teams = draw(st.booleans()) and players % 2 == 0
    low = draw(st.integers(0, 3))
    high = draw(st.integers(low, low + 4))
    names = draw(st.lists(st.sampled_from(["A", "B", "C", "D", "E", "F"]), min_size=1, max_size=5, unique=True))
    strains = [{"name": name, **({"trumps": draw(st.sampled_from(SUITS))} if draw(st.booleans()) else {})} for name in names]
    auction: dict[str, Any] = {
        "first": draw(st.sampled_from(["dealer", "left_of_dealer"])),
        "levels": {"from": low, "to": high},
        "strains": strains,
        "doubling": draw(st.booleans()),
        "declarer": draw(st.sampled_from(["first_to_name_strain", "last_bidder"])),
        "dummy": teams and draw(st.booleans()),
    }
    spec = yaml.safe_load(SPEC)
    spec["players"] = [players]
    spec["deal"]["hand_size"] = 52 // players // 2
    if teams:
        spec["teams"] = [[p for p in range(players) if p % 2 == side] for side in (0, 1)]
    else:
        del spec["teams"]
    spec["round"][1] = {"auction": auction}
    return yaml.safe_dump(spec), players


@settings(max_examples=60, deadline=None)
@given(auction_specs(), st.integers(0, 1000))
def test_generated_auctions_keep_every_rule(drawn: tuple[str, int], seed: int) -> None:
    text, players = drawn
    g = trickrules.load_game(load_ruleset_text(text, players=players))
    state = g.new_initial_state(seed)
    chooser = random.Random(seed)
    offset = g.action_start["call"]
    while state.phase == trickrules.Phase.AUCTION:
        own = phases.auction.calling(state)
        assert own is not None
        legal = state.legal_actions()
        side = next((t for t in g.ruleset.teams if state.current_player() in t), (state.current_player(),))
        assert offset in legal  # a pass is always legal
        assert (offset + 1 in legal) == (own.rules.doubling and own.bid >= 0 and own.doubled == 0 and own.bidder not in side)
        assert (offset + 2 in legal) == (own.rules.doubling and own.bid >= 0 and own.doubled == 1 and own.bidder in side)
        assert [a - offset - 3 for a in legal if a >= offset + 3] == list(range(own.bid + 1, own.rules.size))
        state.apply_action(chooser.choice(legal))
    own = phases.auction.calling(state)
    assert own is not None and own.over
    if own.bid < 0:
        assert state.is_terminal() and len(own.calls) == players and state.declarer == -1
        return
    winners = next((t for t in g.ruleset.teams if own.bidder in t), (own.bidder,))
    assert state.declarer in winners
    if own.rules.declarer == "last_bidder":
        assert state.declarer == own.bidder
    trumps = own.rules.strains[own.rules.strain(own.bid)].trumps
    assert state.trumps == (frozenset([trumps]) if trumps >= 0 else frozenset())
    dummy = next((p for p in winners if p != state.declarer), -1) if own.rules.dummy else -1
    while not state.is_terminal():
        assert state.current_player() != dummy  # the dummy never chooses
        if state.current == dummy:
            assert state.current_player() == state.declarer
        state.apply_action(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize("doubling", [True, False])
def test_the_longest_auction_is_as_long_as_the_most_decisions_the_phase_counts(doubling: bool) -> None:
    """Passes before the first bid, then every bid in turn followed by passes short of the end
    (with doubling: a double, passes, a redouble, passes), and the last pass: every call legal,
    the auction over after the last, and as many calls as `most_decisions` counts."""
    text = (Path(__file__).resolve().parent.parent / "specs" / "bridge.yaml").read_text(encoding="utf-8")
    if not doubling:
        text = text.replace("dummy: true", "dummy: true\n      doubling: false")
    game = trickrules.load_game(load_ruleset_text(text))
    [step] = [step for step in game.steps if step.kind == "auction"]
    rules = step.rules
    between = ["pass", "pass", "double", "pass", "pass", "redouble", "pass", "pass"] if doubling else ["pass", "pass"]
    calls = ["pass"] * 3 + [call for bid in range(rules.size) for call in [f"bid {rules.name(bid)}", *between]] + ["pass"]
    state = game.new_initial_state(0)
    for call in calls:
        assert state.phase == trickrules.Phase.AUCTION
        state.apply_action(game.string_to_action(call))
    assert state.phase != trickrules.Phase.AUCTION
    assert len(calls) == phases.auction.KIND.most_decisions(game, step) == (319 if doubling else 109)


def test_a_pass_read_as_text_is_the_pass_of_the_phase_that_asks() -> None:
    """After an auction, the declarer names a contract: the auction and the declare phase each
    have a `pass`. Read as text, `pass` is the one the state offers, and a recorded game of
    this spec replays from its texts."""
    from trickrules.tools.record import build_record, replay

    text = SPEC.replace("  - play\n  - score\n", "  - declare: {bidding: declarer}\n  - play\n  - score\n", 1)
    game = trickrules.load_game(load_ruleset_text(text + "contracts:\n  plain: {description: plain}\n  grand: {description: grand}\n"))
    state = game.new_initial_state(1, record=True)
    assert game.string_to_action("pass") not in state.legal_actions()  # the game alone reads the first kind's pass
    for said in ("bid 1C", "pass", "pass", "pass"):
        state.apply_action(state.string_to_action(said))
    assert state.phase == trickrules.Phase.DECLARE and state.declarer == 0
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert replay(build_record(state), game).verified
