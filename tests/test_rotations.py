"""Who deals and who leads, round after round: the dealer's first seat and rotation, their
defaults, and every first-leader rule, over several rounds of a small game."""

from __future__ import annotations

import pytest
from helpers import TINY

import trickrules
from trickrules.spec.loader import load_ruleset_text


def rounds_of(deal: str = "", rest: str = "rounds: 4\n", players: int = 3, seed: int = 1) -> list[tuple[int, int, int]]:
    """(round, dealer, first player) of every round of a game played with the first legal action."""
    text = TINY.replace("  hand_size: 4\n", "  hand_size: 3\n" + deal).replace("players: [3]", "players: [3, 4]") + rest
    game = trickrules.load_game(load_ruleset_text(text, players=players))
    state = game.new_initial_state(seed)
    seen: list[tuple[int, int, int]] = []
    while not state.is_terminal():
        if not seen or seen[-1][0] != state.round:
            seen.append((state.round, state.dealer, state.current_player()))
        state.apply_action(state.legal_actions()[0])
    return seen


def test_by_default_seat_0_deals_first_the_deal_moves_left_and_its_left_leads() -> None:
    assert rounds_of() == [(0, 0, 1), (1, 1, 2), (2, 2, 0), (3, 0, 1)]


def test_first_dealer_and_rotation_are_kept() -> None:
    assert [d for _, d, _ in rounds_of("  dealer: {first: 2, rotation: 2}\n")] == [2, 1, 0, 2]
    assert [d for _, d, _ in rounds_of("  dealer: {first: 1}\n")] == [1, 2, 0, 1]
    assert [d for _, d, _ in rounds_of("  dealer: {rotation: 0}\n")] == [0, 0, 0, 0]
    assert [d for _, d, _ in rounds_of("  dealer: {first: 2, rotation: -1}\n")] == [2, 1, 0, 2]


def test_four_players_rotate_through_every_seat() -> None:
    assert [d for _, d, _ in rounds_of("  dealer: {first: 2}\n", "rounds: 5\n", players=4)] == [2, 3, 0, 1, 2]


@pytest.mark.parametrize(
    ("first_leader", "leaders"),
    [("dealer", [1, 2, 0]), ("left_of_dealer", [2, 0, 1]), ("{seat: 2}", [2, 2, 2]), ("{seat: 0}", [0, 0, 0])],
)
def test_first_leaders(first_leader: str, leaders: list[int]) -> None:
    found = rounds_of(f"  dealer: {{first: 1}}\n  first_leader: {first_leader}\n", "rounds: 3\n")
    assert [p for _, _, p in found] == leaders


def test_the_holder_of_a_card_leads() -> None:
    for _, _, leader in rounds_of("  first_leader: {holder: green-4}\n", "rounds: 2\n"):
        assert leader in (0, 1, 2)
    game = trickrules.load_game(
        load_ruleset_text(TINY.replace("  hand_size: 4\n", "  hand_size: 4\n  first_leader: {holder: green-4}\n"))
    )
    for seed in range(4):
        state = game.new_initial_state(seed)
        holder = next(p for p, hand in enumerate(state.hands) if game.card_index("green-4") in hand)
        assert state.current_player() == holder


def test_the_random_dealer_is_drawn_from_every_seat() -> None:
    dealers = {d for seed in range(12) for _, d, _ in rounds_of("  dealer: {random: true}\n", "rounds: 1\n", seed=seed)}
    assert dealers == {0, 1, 2}


def test_the_winner_of_a_trick_leads_the_next() -> None:
    game = trickrules.load_game(load_ruleset_text(TINY))
    state = game.new_initial_state(3)
    played = []
    for _ in range(3):
        player = state.current_player()
        action = state.legal_actions()[-1]
        played.append((game.card_ids[action], player))
        state.apply_action(action)
    ranks = [(int(c.split("-")[1]), c.split("-")[0], p) for c, p in played]
    led_suit = ranks[0][1]
    best = max((r, p) for r, s, p in ranks if s == led_suit)
    assert state.current_player() == best[1]


@pytest.mark.parametrize(("deal", "code"), [("  dealer: {first: 3}\n", "TR321"), ("  first_leader: {seat: 3}\n", "TR321")])
def test_a_seat_past_the_players_is_refused(deal: str, code: str) -> None:
    with pytest.raises(trickrules.SpecError, match=code):
        load_ruleset_text(TINY.replace("  hand_size: 4\n", "  hand_size: 4\n" + deal))
