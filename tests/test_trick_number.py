"""The trick's number and the last trick in whole-trick conditions: a ranking step that reads
them changes the winner only in the tricks they name, a reward fires only there (an
"ultimo"), and the trick tables compiled once per trumps read them per trick."""

from __future__ import annotations

from trickrules.engine.game import Game
from trickrules.engine.positions import Position, start_at
from trickrules.spec.loader import load_ruleset_text

SPEC = """\
language: 2
id: ultimo
title: Ultimo
players: [3]
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 6}}
deal:
  hand_size: 4
ranking:
  - prefer: led
  - prefer: {rank: 1, trick: "last_trick"}
  - highest: rank
rewards:
  - {name: ultimo, to: winner, when: {trick: last_trick}, give: {points: 10}}
  - {name: opening, to: winner, when: {trick: "trick_number == 1 and rank >= 5"}, give: {points: 1}}
scoring:
  round:
    - add: tricks
"""


def trick(number: int, *cards: str) -> tuple[int, list[tuple[int, int]]]:
    """Play one trick of `cards` from seat 0 as trick `number`: the winner and the (seat, points) gains."""
    game = Game(load_ruleset_text(SPEC))
    state = start_at(game, Position(trick_number=number, hands={seat: [card] for seat, card in enumerate(cards)}))
    for card in cards:
        state.apply_action(game.card_index(card))
    events = state.events or []
    winner = next(e["winner"] for e in events if e["type"] == "trick")
    return winner, [(e["player"], e["amount"]) for e in events if e["type"] == "reward"]


def test_a_one_wins_only_the_last_trick() -> None:
    assert trick(3, "red-3", "red-1", "red-5")[0] == 2  # the highest red
    assert trick(4, "red-3", "red-1", "red-5")[0] == 1  # the last trick: the led one wins


def test_an_ultimo_is_paid_on_the_last_trick_alone() -> None:
    assert trick(4, "red-3", "red-2", "red-5") == (2, [(2, 10)])
    assert trick(3, "red-3", "red-2", "red-5") == (2, [])


def test_a_reward_reads_the_trick_number() -> None:
    assert trick(1, "red-3", "red-2", "red-5") == (2, [(2, 1)])
    assert trick(2, "red-3", "red-2", "red-5") == (2, [])


def test_a_played_round_reads_each_trick_number_in_turn() -> None:
    game = Game(load_ruleset_text(SPEC))
    state = game.new_initial_state(5, record=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    events = state.events or []
    ultimos = [e for e in events if e["type"] == "reward" and e["reward"] == 0]
    tricks_before = [sum(1 for x in events[: events.index(e)] if x["type"] == "trick") for e in ultimos]
    assert ultimos and all(count % 4 == 0 for count in tricks_before)  # after each round's 4th trick
    assert len(ultimos) == game.ruleset.rounds
