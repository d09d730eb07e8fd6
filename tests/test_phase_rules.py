"""Phases over several rounds of a small game: passing (who passes when, how many cards, to
whom, a direction schedule with a round of no passing)."""

from __future__ import annotations

from test_mutants_rules import TINY

import trickrules
from trickrules.spec.loader import load_ruleset_text

PASSING = TINY + """
rounds: 3
round:
  - deal
  - pass: {cards: 2, to: {by_round: [left, none, right]}, first: dealer}
  - play
  - score
"""


def test_passing_in_turn_by_round() -> None:
    game = trickrules.load_game(load_ruleset_text(PASSING))
    state = game.new_initial_state(5, record=True)
    seen = []
    while not state.is_terminal():
        if state.phase == trickrules.Phase.PASS:
            seen.append((state.round, state.current_player()))
        state.apply_action(state.legal_actions()[0])
    # round 0: seat 0 deals and passes first, two cards each; round 1 passes nothing;
    # round 2: seat 2 deals
    assert seen == [(0, 0), (0, 0), (0, 1), (0, 1), (0, 2), (0, 2), (2, 2), (2, 2), (2, 0), (2, 0), (2, 1), (2, 1)]
    events = [e for e in state.events if e["type"] in ("pass_direction", "passed")]
    assert [(e["type"], e.get("direction"), e["offset"]) for e in events] == [
        ("pass_direction", "left", 1), ("passed", None, 1),
        ("pass_direction", "none", 0),
        ("pass_direction", "right", 2), ("passed", None, 2),
    ]


def test_passed_cards_arrive_with_the_receiver() -> None:
    game = trickrules.load_game(load_ruleset_text(PASSING))
    state = game.new_initial_state(5)
    before = [list(h) for h in state.hands]
    gave: dict[int, list[int]] = {}
    while state.phase == trickrules.Phase.PASS:
        player = state.current_player()
        action = state.legal_actions()[0]
        gave.setdefault(player, []).append(action - game.pass_offset)
        state.apply_action(action)
    for giver, cards in gave.items():
        assert len(cards) == 2
        receiver = (giver + 1) % 3
        assert state.hands[receiver] == sorted(set(before[receiver]) - set(gave[receiver]) | set(cards))


def test_declaring_logs_each_pass_and_the_contract() -> None:
    from pathlib import Path

    game = trickrules.load_game(Path(__file__).resolve().parent.parent / "examples" / "skat-lite.yaml")
    state = game.new_initial_state(3, record=True)
    while state.phase != trickrules.Phase.DECLARE:
        state.apply_action(state.legal_actions()[0])
    first = state.current_player()
    state.apply_action(game.choose_pass_action)
    contract = state.legal_actions()[2]
    second = state.current_player()
    state.apply_action(contract)
    declared = [e for e in state.events if e["type"] == "declare"]
    assert declared == [
        {"type": "declare", "player": first, "contract": None},
        {"type": "declare", "player": second, "contract": contract - game.contract_offset},
    ]
    assert second == (first + 1) % game.num_players and state.declarer == second
