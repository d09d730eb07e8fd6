"""Bidding by precedence in a declare phase (`bidding: precedence`): players bid contracts,
listed lowest first, until one is left; a pass is final; a bid beats the highest or matches
it with precedence over its holder; the last player left may not pass and its bid is the
contract; `when` opens a contract only while its condition holds. OpenSpiel's tarok bids this
way: its bidding is replayed decision by decision."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import trickrules
from helpers import bid_lowest_while
from trickrules.errors import SpecError

CONTRACTS = ["klop", "three", "two", "one", "solo_three", "solo_two", "solo_one", "beggar", "solo_without",
             "open_beggar", "colour_valat_without", "valat_without"]
"""Tarok's contracts, lowest first (OpenSpiel's bids 1-12)."""

SPEC = """\
language: 2
id: precedence-bidding
title: Bidding by precedence
players: [3, 4]
deck:
  suits: [hearts, diamonds, spades, clubs, taroks]
  generate:
    - {suits: [hearts, diamonds, spades, clubs], ranks: [1, 2, 3, 4, 5, 6, 7, 8]}
    - {suits: [taroks], ranks: {from: 1, to: 22}}
deal:
  hand_size: {by_players: {"3": 16, "4": 12}}
  first_leader: {seat: 0}
round:
  - deal
  - declare:
      first: {seat: 1}
      bidding: precedence
      precedence: {seat: 0}
      when:
        klop: seat == 0 and first_turn and others_passed
        three: seat == 0 and first_turn and others_passed
        solo_three: players == 4
        solo_two: players == 4
        solo_one: players == 4
  - play
  - score
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
scoring:
  round: [{name: zero, add: "0"}]
contracts:
""" + "".join(f"  {name}: {{description: {name}}}\n" for name in CONTRACTS)


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("precedence") / "bidding.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def _legal(state: trickrules.State) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def _say(state: trickrules.State, text: str) -> None:
    state.apply_action(state.game.string_to_action(text))


def test_a_seat_that_passed_is_never_asked_again(spec_path: Path) -> None:
    state = trickrules.load_game(spec_path, players=4).new_initial_state(0)
    _say(state, "contract two")  # seat 1
    _say(state, "pass")  # seat 2
    assert state.current_player() == 3
    _say(state, "pass")  # seat 3
    assert state.current_player() == 0
    _say(state, "contract two")  # seat 0 matches: it has precedence over seat 1
    assert state.current_player() == 1  # seats 2 and 3 are skipped from now on


def test_each_bid_and_pass_is_logged_by_seat_and_contract(spec_path: Path) -> None:
    state = trickrules.load_game(spec_path, players=4).new_initial_state(0, record=True)
    for text in ("contract two", "pass", "pass", "contract two", "contract one", "pass"):
        _say(state, text)
    assert [(e["player"], e["contract"]) for e in state.events or [] if e["type"] == "declare"] == [
        (1, 2), (2, None), (3, None), (0, 2), (1, 3), (0, None)]


def test_a_bid_matches_the_highest_only_with_precedence_over_its_holder(spec_path: Path) -> None:
    state = trickrules.load_game(spec_path, players=4).new_initial_state(0)
    _say(state, "contract one")  # seat 1
    assert "contract one" not in _legal(state) and "contract solo_three" in _legal(state)  # seat 2 must beat it
    _say(state, "pass")
    _say(state, "pass")
    assert "contract one" in _legal(state) and "contract two" not in _legal(state)  # seat 0 may match it


def test_the_last_player_left_may_not_pass_and_declares(spec_path: Path) -> None:
    state = trickrules.load_game(spec_path, players=3).new_initial_state(0)
    _say(state, "contract two")  # seat 1
    _say(state, "pass")  # seat 2
    _say(state, "pass")  # seat 0
    assert state.current_player() == 1 and "pass" not in _legal(state)
    _say(state, "contract beggar")  # one more bid, raised
    assert state.declarer == 1
    assert state.observation(1)["contract"] == "beggar"


def test_contracts_open_only_while_their_condition_holds(spec_path: Path) -> None:
    three = trickrules.load_game(spec_path, players=3).new_initial_state(0)
    assert "contract solo_three" not in _legal(three)  # players == 4 only
    assert "contract klop" not in _legal(three)  # seat 1 speaks first
    _say(three, "pass")
    _say(three, "pass")
    assert _legal(three) == sorted(f"contract {c}" for c in CONTRACTS if not c.startswith("solo_") or c == "solo_without")
    four = trickrules.load_game(spec_path, players=4).new_initial_state(0)
    assert "contract solo_three" in _legal(four)


def test_the_bids_are_in_every_observation_and_tensor(spec_path: Path) -> None:
    game = trickrules.load_game(spec_path, players=3)
    state = game.new_initial_state(0)
    _say(state, "contract two")
    _say(state, "pass")
    for seat in range(3):
        view = state.observation(seat)
        assert view["contract_bids"] == [None, "two", None] and view["passed"] == [False, False, True]
    segment = next(s for s in game.observation_layout().segments if s.name == "contract_bids")
    passed = next(s for s in game.observation_layout().segments if s.name == "passed_bidding")
    tensor = state.observation_tensor(2)
    count = len(CONTRACTS)
    assert [i for i in range(segment.start, segment.stop) if tensor[i]] == [segment.start + count + CONTRACTS.index("two")]
    assert [i - passed.start for i in range(passed.start, passed.stop) if tensor[i]] == [2]


@pytest.mark.parametrize("players", [3, 4])
def test_the_stated_longest_game_allows_two_bids_of_each_contract_at_each_seat(spec_path: Path, players: int) -> None:
    """`max_game_length`: the cards dealt, one turn each, and, bidding by precedence, two bids
    of each of the 12 contracts at each seat. A bidding where every seat bids the lowest
    contract it may stays within it."""
    game = trickrules.load_game(spec_path, players=players)
    dealt = {3: 16, 4: 12}[players] * players
    assert game.info().max_game_length == dealt + players + 2 * 12 * players
    state = game.new_initial_state(0)
    count = bid_lowest_while(state, trickrules.Phase.DECLARE)
    assert players < count <= players + 2 * 12 * players


def test_precedence_bidding_with_otherwise_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("bidding: precedence", "bidding: precedence\n      otherwise: klop"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path)
    assert "TR343" in str(caught.value)


def test_a_condition_on_a_contract_not_in_the_phase_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("        klop: seat == 0", "        klops: seat == 0"), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path)
    assert "TR325" in str(caught.value) and "klops" in str(caught.value)


def test_every_condition_is_checked_after_one_on_an_unknown_contract() -> None:
    text = SPEC.replace("        klop: seat == 0", "        klops: seat == 0").replace("solo_one: players == 4", "solo_one: playrs == 4")
    with pytest.raises(SpecError) as caught:
        trickrules.load_ruleset_text(text)
    assert [(p.code, p.line, p.column, p.path) for p in caught.value.problems] == [
        ("TR325", 20, 16, "$.round[1].declare.when.klops"), ("TR141", 24, 19, "$.round[1].declare.when.solo_one")]


# ---------------------------------------------------------------- OpenSpiel's tarok bids so

pyspiel = pytest.importorskip("pyspiel")


def _openspiel_bidding_differs(game: trickrules.Game, players: int, seed: int) -> str | None:
    rng = random.Random(seed)
    state = pyspiel.load_game("tarok", {"players": players, "rng_seed": seed}).new_initial_state()
    state.apply_action(0)  # the deal
    ours = game.new_initial_state(seed)
    while "BIDDING" in str(state.current_game_phase()):
        legal = state.legal_actions()
        theirs = sorted("pass" if a == 0 else f"contract {CONTRACTS[a - 1]}" for a in legal)
        if ours.current_player() != state.current_player() or _legal(ours) != theirs:
            return f"seed {seed}: player {state.current_player()} {theirs}; trickrules player {ours.current_player()} {_legal(ours)}"
        action = 0 if 0 in legal and rng.random() < 0.6 else rng.choice(legal)
        state.apply_action(action)
        _say(ours, "pass" if action == 0 else f"contract {CONTRACTS[action - 1]}")
    theirs_contract = str(state.selected_contract()).split(".")[-1].lower()
    ours_contract = ours.observation(0).get("contract")
    if ours_contract != theirs_contract or (ours.declarer != state.current_player() and theirs_contract not in ("klop",)):
        return f"seed {seed}: openspiel {theirs_contract} by {state.current_player()}; trickrules {ours_contract} by {ours.declarer}"
    return None


@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_tarok_bidding_replays_identically(spec_path: Path, players: int) -> None:
    game = trickrules.load_game(spec_path, players=players)
    differences = [d for seed in range(500) if (d := _openspiel_bidding_differs(game, players, seed))]
    assert differences == []


FREE = re.sub(r"      when:\n(        .*\n)+", "", SPEC)
"""The spec with every contract open to every seat (no `when`)."""


def test_the_lowest_contract_bid_must_be_beaten_by_a_seat_without_precedence() -> None:
    state = trickrules.load_game(trickrules.load_ruleset_text(FREE, players=4)).new_initial_state(0)
    _say(state, "contract klop")  # seat 1
    assert state.current_player() == 2 and "contract klop" not in _legal(state) and "contract three" in _legal(state)


def test_of_equal_bids_the_one_with_precedence_holds_it() -> None:
    """Precedence from seat 1: seat 0 bids two and seat 1 matches it; seat 1 holds the bid, so
    seat 2 (after seat 1 in precedence) may not match it."""
    text = FREE.replace("first: {seat: 1}", "first: {seat: 0}").replace("precedence: {seat: 0}", "precedence: {seat: 1}")
    state = trickrules.load_game(trickrules.load_ruleset_text(text, players=4)).new_initial_state(0)
    _say(state, "contract two")  # seat 0
    assert "contract two" in _legal(state)  # seat 1 comes before seat 0 in precedence
    _say(state, "contract two")
    assert state.current_player() == 2 and "contract two" not in _legal(state) and "contract one" in _legal(state)


def test_precedence_may_start_at_any_seat() -> None:
    """With precedence from seat 2, seat 2 may match seat 1's bid, and seat 1 may not match
    seat 2's."""
    ruleset = trickrules.load_ruleset_text(SPEC.replace("precedence: {seat: 0}", "precedence: {seat: 2}"), players=4)
    [rules] = [step.declaring for step in ruleset.round if step.declaring is not None]
    assert rules.precedence_seat == 2
    assert rules.has_precedence(2, 1, 4) and not rules.has_precedence(1, 2, 4)
