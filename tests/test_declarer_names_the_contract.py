"""A declare phase with `bidding: declarer`: the winner of the bidding alone names the contract
(Skat's game type after the bidding), never passes, and the contract's rules and scoring apply."""

from __future__ import annotations

import random

import pytest

import trickrules
from trickrules.engine.phases import Phase
from trickrules.errors import SpecError

SPEC = """
id: named
title: Named
players: [3]
deck:
  suits: [red, blue, green]
  generate:
    - {suits: all, ranks: {from: 1, to: 8}}
deal:
  hand_size: 7
  first_leader: declarer
round:
  - deal
  - bid: {values: {from: 18, to: 30}, first: left_of_dealer, bidding: precedence}
  - declare: {bidding: declarer%s}
  - play
  - score
trumps: none
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  round:
    - {name: game, add: "0"}
contracts:
  reds:
    description: Red is trumps.
    declarer: alone
    trumps: [red]
    scoring:
      round:
        - {name: game, per: team, add: "(bid if tricks >= 4 else -2 * bid) if makers else 0"}
  blues:
    description: Blue is trumps.
    declarer: alone
    trumps: [blue]
    scoring:
      round:
        - {name: game, per: team, add: "(bid if tricks >= 4 else -2 * bid) if makers else 0"}
"""


def _game(extra: str = "") -> trickrules.Game:
    return trickrules.Game(trickrules.load_ruleset_text(SPEC % extra))


def _to_declare(game: trickrules.Game, seed: int) -> trickrules.State | None:
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    while state.phase == Phase.BID:
        state.apply_action(rng.choice(state.legal_actions()))
    return state if state.phase == Phase.DECLARE else None


def test_only_the_winner_of_the_bidding_is_asked_and_may_not_pass() -> None:
    game = _game()
    reached = 0
    for seed in range(30):
        state = _to_declare(game, seed)
        if state is None:
            continue
        reached += 1
        assert state.current_player() == state.declarer >= 0
        names = [state.action_to_string(a) for a in state.legal_actions()]
        assert names == ["contract reds", "contract blues"]
        state.apply_action(state.legal_actions()[1])
        assert state.phase == Phase.PLAY
        assert state.trumps == frozenset([1])  # blue
        assert state.current_player() == state.declarer  # the declarer leads
        declared = [e for e in state.events or [] if e["type"] == "declare"]
        assert [(e["player"], e["contract"]) for e in declared] == [(state.declarer, 1)]
    assert reached >= 10


def test_the_contract_scores_with_the_bid() -> None:
    game = _game()
    for seed in range(30):
        state = _to_declare(game, seed)
        if state is None:
            continue
        declarer = state.declarer
        state.apply_action(state.legal_actions()[0])
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        bid = max(b for b in (e.get("bid") for e in state.events or [] if e["type"] == "bid") if b is not None)
        tricks = sum(1 for e in state.events or [] if e["type"] == "trick" and e["winner"] == declarer)
        expected = bid if tricks >= 4 else -2 * bid
        assert state.returns()[declarer] == expected
        assert all(state.returns()[p] == 0 for p in range(3) if p != declarer)
        return
    raise AssertionError("no bidding was won in 30 deals")


def test_everyone_passing_the_bidding_skips_the_choice() -> None:
    game = _game()
    state = game.new_initial_state(1, record=True)
    while state.phase == Phase.BID and not state.is_terminal():
        state.apply_action(game.choose_pass_action)
    assert state.is_terminal() or state.phase != Phase.DECLARE
    assert not [e for e in state.events or [] if e["type"] == "declare"]


def test_a_condition_closes_a_contract_and_when_none_holds_all_are_open() -> None:
    closed = _game(", when: {reds: 'bid > 20'}")
    for seed in range(30):
        state = _to_declare(closed, seed)
        if state is None:
            continue
        bid = max(b for b in (e.get("bid") for e in state.events or [] if e["type"] == "bid") if b is not None)
        names = [state.action_to_string(a) for a in state.legal_actions()]
        assert names == (["contract reds", "contract blues"] if bid > 20 else ["contract blues"])
    never = _game(", when: {reds: 'bid > 99', blues: 'bid > 99'}")
    for seed in range(10):
        state = _to_declare(never, seed)
        if state is not None:
            assert [state.action_to_string(a) for a in state.legal_actions()] == ["contract reds", "contract blues"]


@pytest.mark.parametrize(
    ("round_", "extra", "path"),
    [
        ("  - deal\n  - declare: {bidding: declarer}\n  - play\n  - score\n", "", "$.round[1].declare.bidding"),
        (None, ", otherwise: reds", "$.round[2].declare.otherwise"),
    ],
)
def test_declaring_without_a_bid_before_it_or_with_otherwise_is_refused(round_: str | None, extra: str, path: str) -> None:
    text = SPEC % extra
    if round_ is not None:
        start = text.index("round:\n") + len("round:\n")
        end = text.index("trumps: none")
        text = text[:start] + round_ + text[end:]
    with pytest.raises(SpecError) as error:
        trickrules.load_ruleset_text(text)
    assert [(p.code, p.path) for p in error.value.problems] == [("TR371", path)]


def test_the_rulebook_says_the_declarer_names_the_contract() -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    text = rulebook_markdown(_game().ruleset)
    assert "The declarer, who won the bidding, names one of the contracts (reds, blues); it may not pass." in text


def test_a_condition_closes_a_contract_when_the_first_to_declare_wins_too() -> None:
    """`when` binds in every way of declaring (it once bound only bidding by precedence)."""
    text = SPEC % ""
    text = text.replace("  - bid: {values: {from: 18, to: 30}, first: left_of_dealer, bidding: precedence}\n", "")
    text = text.replace("declare: {bidding: declarer}", "declare: {first: {seat: 0}, when: {reds: 'seat == 1'}}")
    text = text.replace("first_leader: declarer", "first_leader: {seat: 0}")
    game = trickrules.Game(trickrules.load_ruleset_text(text))
    state = game.new_initial_state(3)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "contract blues"]
    state.apply_action(game.choose_pass_action)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "contract reds", "contract blues"]


def test_a_condition_reads_a_bid_of_0_without_a_bid_and_the_speakers_own_counters() -> None:
    """Without a bid phase `bid` reads 0; a player counter reads the speaker's own value."""
    text = SPEC % ""
    text = text.replace("  - bid: {values: {from: 18, to: 30}, first: left_of_dealer, bidding: precedence}\n", "")
    text = text.replace("declare: {bidding: declarer}", "declare: {first: {seat: 0}, when: {reds: 'bid == 0 and taken == seat'}}")
    text = text.replace("first_leader: declarer", "first_leader: {seat: 0}")
    text = text.replace("scoring:\n", "counters:\n  taken: {scope: player, initial: 0}\nscoring:\n", 1)
    game = trickrules.Game(trickrules.load_ruleset_text(text))
    state = game.new_initial_state(3)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "contract reds", "contract blues"]
    state.apply_action(game.choose_pass_action)  # seat 1: its counter is 0, not its seat
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass", "contract blues"]
