"""`GreedyAgent` reads the spec's own scoring: it values a card, a bid or a contract by the
acting side's margin of points at the end of the round, played out quickly in worlds it cannot
tell from the real one."""

from __future__ import annotations

import random

import trickrules
from trickrules.engine.agents import GreedyAgent, RandomAgent
from trickrules.engine.positions import Position, start_at
from trickrules.engine.state import State

from helpers import GEMS_DECK, spec_game

HEARTS = trickrules.load_game("hearts", options={"single_hand": True})
SKAT = trickrules.load_game("skat-standard")
JACKS_AND_ACES = ["clubs-J", "spades-J", "hearts-J", "diamonds-J", "clubs-A", "clubs-10", "clubs-K", "spades-A", "hearts-A", "diamonds-A"]
SEVENS_TO_NINES = ["clubs-7", "spades-7", "hearts-7", "diamonds-7", "clubs-8", "spades-8", "hearts-8", "diamonds-8", "clubs-9", "spades-9"]


def hearts_at(hands: dict[int, list[str]], played: list[str]) -> State:
    """A Hearts position in trick 11 (hearts broken), seat 0 leading, after the cards `played`."""
    state = start_at(HEARTS, Position(trick_number=11, leader=0, counters={"broken": 1}, hands=hands))
    for card in played:
        state.apply_action(HEARTS.string_to_action(f"play {card}"))
    return state


def choice(state: State, seed: int = 0) -> str:
    return state.action_to_string(GreedyAgent(seed).step(state))


def test_greedy_ducks_under_a_trick_carrying_points_in_hearts() -> None:
    state = hearts_at(
        {
            0: ["clubs-9", "diamonds-2", "diamonds-4"],
            1: ["hearts-5", "diamonds-5", "diamonds-6"],
            2: ["clubs-10", "diamonds-7", "diamonds-8"],
            3: ["clubs-A", "clubs-2", "diamonds-9"],
        },
        ["clubs-9", "hearts-5", "clubs-10"],
    )
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["play clubs-2", "play clubs-A"]
    assert {choice(state, seed) for seed in range(3)} == {"play clubs-2"}  # the ace would take the heart


def test_greedy_throws_away_the_card_that_would_take_its_penalty_cards_later() -> None:
    # void in clubs, second to play: its diamonds-A alone can take a trick later (and then
    # the queen or the heart with it); thrown away now, every penalty card goes to an opponent
    state = hearts_at(
        {
            0: ["clubs-2", "diamonds-2", "diamonds-4"],
            1: ["spades-Q", "hearts-2", "diamonds-A"],
            2: ["clubs-10", "clubs-8", "diamonds-5"],
            3: ["clubs-A", "clubs-3", "diamonds-6"],
        },
        ["clubs-2"],
    )
    assert {choice(state, seed) for seed in range(3)} == {"play diamonds-A"}  # the lowest card was hearts-2


def gems(winner: str) -> trickrules.Game:
    """Three players, the gems deck (a 4 holds 5 gems, a 3 two, the rest one): each round
    scores the gems taken, the game won by the most or the fewest points."""
    return spec_game("id: gems\ntitle: Gems\nplayers: [3]\n" + GEMS_DECK + f"""deal:
  hand_size: 4
follow: [follow_led]
ranking:
  - prefer: led
  - highest: rank
scoring:
  measures:
    gems: {{sum_attribute: gems}}
  round:
    - add: gems
  game:
    winner: {winner}
""")


def test_greedy_takes_a_trick_of_points_where_most_points_win_and_ducks_it_where_fewest_win() -> None:
    for winner, said in (("most_points", "play red-4"), ("fewest_points", "play red-1")):
        game = gems(winner)
        hands = {0: ["red-3", "blue-1"], 1: ["red-2", "blue-2"], 2: ["red-4", "red-1"]}
        state = start_at(game, Position(trick_number=3, leader=0, hands=hands))
        for card in ["red-3", "red-2"]:
            state.apply_action(game.string_to_action(f"play {card}"))
        assert {choice(state, seed) for seed in range(3)} == {said}, winner


def skat_dealt(hand: list[str]) -> State:
    """Skat (standard rules) with `hand` in seat 0, the first to bid."""
    rest = [c for c in SKAT.card_ids if c not in hand]
    return SKAT.new_initial_state(0, deal={"hands": [hand, rest[:10], rest[10:20]]})


def test_greedy_bids_a_strong_hand_and_passes_a_weak_one_bidding_by_precedence() -> None:
    for hand, said in ((JACKS_AND_ACES, "bid 18"), (SEVENS_TO_NINES, "pass")):
        state = skat_dealt(hand)
        assert state.current_player() == 0 and "bid 264" in [state.action_to_string(a) for a in state.legal_actions()]
        assert choice(state) == said  # the greedy before bid the lowest bid open, up to 264


def test_greedy_opens_the_auction_with_a_strong_hand_and_passes_a_weak_one() -> None:
    bridge = trickrules.load_game("bridge")
    strong = ["spades-A", "spades-K", "spades-Q", "spades-J", "spades-10", "spades-9", "hearts-A", "hearts-K", "hearts-Q", "diamonds-A", "diamonds-K", "clubs-A", "clubs-K"]
    weak = ["spades-2", "spades-3", "spades-4", "hearts-2", "hearts-3", "hearts-4", "hearts-5", "diamonds-2", "diamonds-3", "diamonds-4", "clubs-2", "clubs-3", "clubs-4"]
    for hand, said in ((strong, "bid 1C"), (weak, "pass")):  # the greedy before passed every call
        rest = [c for c in bridge.card_ids if c not in hand]
        state = bridge.new_initial_state(0, deal={"hands": [hand, rest[:13], rest[13:26], rest[26:]]})
        assert state.current_player() == 0 and state.phase == trickrules.Phase.AUCTION
        assert choice(state) == said


def test_greedy_names_the_contract_its_hand_is_worth_once_it_won_the_bidding() -> None:
    state = skat_dealt(JACKS_AND_ACES)
    agent, said = GreedyAgent(0), []
    while state.phase != trickrules.Phase.PLAY:  # the others pass
        action = agent.step(state) if state.current_player() == 0 else SKAT.choose_pass_action
        if state.current_player() == 0:
            said.append(state.action_to_string(action))
        state.apply_action(action)
    # four jacks and three aces: a grand, worth 24 a level; a suit game would be worth half
    assert said[0] == "bid 18" and said[-1] == "contract grand", said


def test_greedy_is_deterministic_from_its_seed() -> None:
    def actions(seed: int) -> list[int]:
        random.seed(seed + len(played))  # the global generator is not the agent's
        state = HEARTS.new_initial_state(5)
        agents: list[GreedyAgent | RandomAgent] = [GreedyAgent(seed), RandomAgent(1), GreedyAgent(seed + 1), RandomAgent(2)]
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].step(state))
        played.append(state.history)
        return state.history

    played: list[list[int]] = []
    assert actions(3) == actions(3)
