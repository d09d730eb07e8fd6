"""The engine's phases in detail: a turned-up first card, choosing trumps and taking the card,
passing in a drawn or given direction, bidding, rewards and tokens that run out or find no
space, won cards on the tableau, and restrictions, each on a small spec whose outcome can be
worked out by hand (helpers and specs shared with test_state_details.py)."""

from __future__ import annotations

import hashlib

import pytest

from helpers import GIVEN, SMALL, events, play_out, spec_game, CHOOSING
from helpers import RED, TINY

from trickrules.engine.phases.bid import bid_env
from trickrules.engine.state import Phase
from trickrules.engine import phases


# ---------------------------------------------------------------- turning up a card

TURN_UP = SMALL + "round: [deal, turn_up, play, score]\ntrumps: turned_up\n"


def test_the_first_undealt_card_is_turned_up_even_the_decks_first_card() -> None:
    """With red-1 (card 0) first of the undealt cards, it is turned up and red is trumps."""
    game = spec_game(TURN_UP)
    state = game.new_initial_state(0, record=True, deal=GIVEN)
    assert state.stock == [0, 7, 11]  # red-1, blue-4, green-4: the cards not dealt, in deck order
    assert phases.turn_up.card(state) == 0 and state.trumps == frozenset([0])
    assert events(state, "turn_up") == [{"type": "turn_up", "card": 0}]
    assert events(state, "trumps") == [{"type": "trumps", "trumps": [0]}]


def test_a_shuffled_deal_turns_up_the_next_card_of_the_stock() -> None:
    """From a seed, the turned-up card is the stock's first; its suit is trumps."""
    game = spec_game(TURN_UP)
    for seed in range(4):
        state = game.new_initial_state(seed)
        assert len(state.stock) == 3 and phases.turn_up.card(state) == state.stock[0]
        assert state.trumps == frozenset([phases.turn_up.card(state) // 4])  # four ranks a suit, suits in order


def test_with_every_card_dealt_nothing_is_turned_up_and_nothing_is_trumps() -> None:
    """No stock: the turned-up card is -1 and the trumps are empty."""
    game = spec_game(TINY + "round: [deal, turn_up, play, score]\ntrumps: turned_up\n")
    state = game.new_initial_state(0, record=True)
    assert state.stock == [] and phases.turn_up.card(state) == -1 and state.trumps == frozenset()
    assert events(state, "turn_up") == [{"type": "turn_up", "card": -1}]
    state.apply_action(state.legal_actions()[0])
    assert state.trumps == frozenset()


# ---------------------------------------------------------------- choosing trumps



def test_ordering_up_the_first_card_of_the_deck_gives_it_to_the_dealer() -> None:
    """The turned-up card 0 is taken by the dealer, who may discard it (the default)."""
    game = spec_game(CHOOSING)
    state = game.new_initial_state(0, record=True, deal=GIVEN)
    assert phases.turn_up.card(state) == 0 and state.current_player() == 1
    state.apply_action(game.choose_pass_action)
    assert state.legal_actions() == [game.choose_pass_action, game.trump_offset]  # red, the turned-up suit
    state.apply_action(game.trump_offset)
    assert state.phase == Phase.DISCARD and state.current_player() == 0 and state.declarer == 2
    assert 0 in state.hands[0] and state.trumps == frozenset([0])
    assert [a - game.discard_offset for a in state.legal_actions()] == sorted(state.hands[0])
    assert events(state, "choose") == [
        {"type": "choose", "player": 1, "suit": None},
        {"type": "choose", "player": 2, "suit": 0},
    ]
    assert events(state, "take") == [{"type": "take", "player": 0, "card": 0}]


def test_a_dealer_who_speaks_first_is_not_stuck() -> None:
    """Stick the dealer binds the dealer speaking last, not the dealer speaking first."""
    game = spec_game(SMALL + """
round: [deal, choose_trumps, play, score]
trumps:
  choose:
    by: dealer
    rounds:
      - {from: others, dealer_must_choose: true}
""")
    state = game.new_initial_state(0)
    assert state.current_player() == state.dealer == 0
    assert state.legal_actions()[0] == game.choose_pass_action
    state.apply_action(game.choose_pass_action)
    state.apply_action(game.choose_pass_action)
    assert state.current_player() == 2 and game.choose_pass_action in state.legal_actions()


# ---------------------------------------------------------------- passing

PASSING = TINY + """
rounds: 2
round:
  - deal
  - pass: {cards: 1, to: {chance: [left, right]}, first: dealer}
  - play
  - score
"""
FOUR_EACH = [["red-1", "red-2", "red-3", "red-4"], ["blue-1", "blue-2", "blue-3", "blue-4"], ["green-1", "green-2", "green-3", "green-4"]]


def drawn(seed: int, round_number: int, count: int) -> int:
    """The documented chance outcome: a BLAKE2 hash of seed, round and kind."""
    digest = hashlib.blake2b(f"trickrules:{seed}:{round_number}:pass".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


def test_a_drawn_pass_direction_is_the_hash_of_seed_and_round() -> None:
    """Each round's direction is drawn from seed and round number, as documented."""
    game = spec_game(PASSING)
    names = ["left", "right"]
    seen = []
    for seed in range(8):
        state = game.new_initial_state(seed, record=True)
        play_out(state)
        directions = [e["direction"] for e in events(state, "pass_direction")]
        assert directions == [names[drawn(seed, 0, 2)], names[drawn(seed, 1, 2)]]
        seen += directions
    assert set(seen) == {"left", "right"}


def test_a_given_pass_direction_overrides_the_draw_and_the_dealer_passes_first() -> None:
    """A given deal's `pass` outcome is the direction; the dealer passes first; all is logged."""
    game = spec_game(PASSING)
    for seed in range(3):
        wanted = ["right", "left"][drawn(seed, 0, 2)]  # the other one than the draw
        offset = 1 if wanted == "left" else 2
        state = game.new_initial_state(seed, record=True, deal={"hands": FOUR_EACH, "pass": wanted})
        assert state.phase == Phase.PASS and state.current_player() == 0
        assert events(state, "pass_direction") == [{"type": "pass_direction", "direction": wanted, "offset": offset, "cards": 1}]
        for player in (0, 1, 2):
            assert state.current_player() == player
            state.apply_action(state.legal_actions()[0])  # each passes its lowest card: rank 1
        assert events(state, "passed") == [{"type": "passed", "cards": [[0], [4], [8]], "offset": offset}]
        for giver, card in enumerate([0, 4, 8]):
            assert card in state.hands[(giver + offset) % 3]


# ---------------------------------------------------------------- bidding

BIDDING = TINY + """
round:
  - deal
  - bid:
      values: {from: 1, to: hand_size}
      names: {1: one}
      first: {seat: 2}
  - play
  - score
"""


def test_bids_run_from_the_lowest_value_from_the_first_seat_and_end_after_each_bid_once() -> None:
    """Bids 1 to the hand size, seat 2 first, each player once, then the play."""
    game = spec_game(BIDDING)
    state = game.new_initial_state(0, record=True)
    offset = game.bid_offset
    assert state.phase == Phase.BID and state.current_player() == 2
    assert state.legal_actions() == [offset + 1, offset + 2, offset + 3, offset + 4]
    lasts = []
    for player, value in ((2, 1), (0, 3), (1, 4)):
        assert state.current_player() == player
        lasts.append(bid_env(state, player)["last"])
        state.apply_action(offset + value)
    assert lasts == [False, False, True]
    assert state.phase == Phase.PLAY and phases.bid.bids(state) == [3, 4, 1]
    assert events(state, "bid") == [
        {"type": "bid", "player": 2, "bid": 1, "name": "one"},
        {"type": "bid", "player": 0, "bid": 3, "name": "3"},
        {"type": "bid", "player": 1, "bid": 4, "name": "4"},
    ]


def test_an_allow_expression_leaving_no_bid_opens_the_whole_range() -> None:
    """When `allow` holds for no bid, every bid from `from` to `to` is legal, each time asked."""
    game = spec_game(BIDDING.replace("first: {seat: 2}", "first: {seat: 2}\n      allow: bid > hand_size"))
    state = game.new_initial_state(0)
    for _ in range(2):
        assert [game.action_to_string(a) for a in state.legal_actions()] == ["bid one", "bid 2", "bid 3", "bid 4"]
    state.apply_action(state.legal_actions()[-1])
    assert phases.bid.bids(state)[2] == 4


def test_legal_bids_are_kept_per_game_by_the_values_the_expression_reads() -> None:
    """The legal bids of an `allow` expression are kept in the game, by range and values read."""
    game = spec_game(BIDDING.replace("first: {seat: 2}", "first: {seat: 2}\n      allow: bid != players"))
    game.bid_allowed.clear()
    state = game.new_initial_state(0)
    legal = state.legal_actions()
    assert [a - game.bid_offset for a in legal] == [1, 2, 4]
    assert game.bid_allowed == {(1, 4, 3): tuple(legal)}


# ---------------------------------------------------------------- rewards, tokens and the tableau

TOKENS = TINY + """
tokens:
  gem: {supply: 5, to: player}
  pawn: {supply: 4, to: tableau, when_no_space: lost}
rewards:
  - {name: bonus, to: winner, give: {points: 3}}
  - {name: gems, to: winner, give: {token: gem, amount: 2}}
  - {name: pawn one, to: winner, give: {token: pawn, amount: 1}}
  - {name: pawn two, to: winner, give: {token: pawn, amount: 1}}
won_cards: tableau
tableau:
  token: pawn
  sections:
    - {name: A, tokens_needed: 1, value: 0}
  stack_by: suit
  open: next_free
  score:
    cards_staffed: top_rank
    cards_understaffed: {per_missing_token: -5}
    empty_staffed: value
    empty_understaffed: 0
"""
GEM, PAWN = 0, 1


def test_rewards_give_points_tokens_while_the_supply_lasts_and_lose_tokens_without_space() -> None:
    """Points add up; tokens come from the supply; a pawn with no free space is lost from it."""
    game = spec_game(TOKENS)
    state = game.new_initial_state(0, record=True)
    while not state.tricks_played:
        state.apply_action(state.legal_actions()[0])
    # the first trick, won by seat 1: 3 points, 2 of 5 gems, one pawn for the one free
    # space and the second pawn lost (the first one, queued, takes that space)
    assert [e["winner"] for e in events(state, "trick")] == [1]
    assert state.bonus == [0, 3, 0] and state.pool == [[0, 0], [2, 0], [0, 0]]
    assert phases.place_tokens.tokens(state).supply == [3, 2] and phases.place_tokens.tokens(state).lost == [0, 1] and state.section_tokens[1] == [1]
    play_out(state)
    assert [e["winner"] for e in events(state, "trick")] == [1, 1, 0, 0]
    # trick 2 (seat 1): 2 gems, both pawns lost (its space is taken), the supply is empty;
    # trick 3 (seat 0): the last gem, no pawn left; trick 4 (seat 0): points only
    rewards = [(e["player"], e["reward"], e["token"], e["amount"], e["taken"]) for e in events(state, "reward")]
    assert rewards == [
        (1, 0, None, 3, 3), (1, 1, GEM, 2, 2), (1, 2, PAWN, 1, 1), (1, 3, PAWN, 1, 0),
        (1, 0, None, 3, 3), (1, 1, GEM, 2, 2), (1, 2, PAWN, 1, 0), (1, 3, PAWN, 1, 0),
        (0, 0, None, 3, 3), (0, 1, GEM, 2, 1), (0, 2, PAWN, 1, 0), (0, 3, PAWN, 1, 0),
        (0, 0, None, 3, 3), (0, 1, GEM, 2, 0), (0, 2, PAWN, 1, 0), (0, 3, PAWN, 1, 0),
    ]
    assert state.bonus == [6, 6, 0] and state.pool == [[1, 0], [4, 0], [0, 0]]
    assert phases.place_tokens.tokens(state).supply == [0, 0] and phases.place_tokens.tokens(state).lost == [0, 3]
    assert state.round_results[0]["rewards"] == [6, 6, 0]


def test_won_cards_stack_by_suit_and_overflow_to_the_pile() -> None:
    """A suit with a section goes on it; a suit with none left goes to the winner's pile."""
    game = spec_game(TOKENS)
    state = game.new_initial_state(0, record=True)
    play_out(state)
    # seat 1 won blue-1..3 in trick one, opening section A with blue; trick two
    # brought blue-4 (onto A) and red-1, red-2 (no section left: the pile)
    assert sorted(state.stacks[1][0]) == [4, 5, 6, 7] and sorted(state.piles[1]) == [0, 1]
    for player in range(3):
        won = [c for e in events(state, "trick") if e["winner"] == player for c in e["cards"]]
        stacked = state.stacks[player][0]
        assert sorted(stacked + state.piles[player]) == sorted(won)
        assert len({c // 4 for c in stacked}) <= 1 and not {c // 4 for c in stacked} & {c // 4 for c in state.piles[player]}
    places = [(e["player"], e["card"], e["section"]) for e in events(state, "place")]
    assert all(section == (0 if card in state.stacks[player][0] else -1) for player, card, section in places)


# ---------------------------------------------------------------- restrictions

RESTRICTED = TINY + """
follow: [follow_led]
counters:
  blues: {scope: player, on_play: {card: {suit: blue}, add: 1}}
restrictions:
  - {name: never, for: leader, when: "trick > 99", allow: {suit: blue}}
  - {name: no green lead first, for: leader, when: "trick == 1", forbid: {suit: green}}
  - {name: no fours after a blue, for: followers, when: "blues > 0", forbid: {rank: 4}}
"""
RESTRICTED_DEAL = {"hands": [["red-2", "red-3", "red-4", "blue-3"], ["red-1", "green-1", "green-2", "blue-1"], ["blue-2", "green-3", "green-4", "blue-4"]]}


def test_restrictions_bind_by_role_each_player_by_its_own_counters() -> None:
    """A later restriction binds when an earlier one does not; followers each read their own counter."""
    game = spec_game(RESTRICTED)
    state = game.new_initial_state(0, deal=RESTRICTED_DEAL)

    def legal() -> list[str]:
        return [game.card_ids[a] for a in state.legal_actions()]

    def play(card: str) -> None:
        state.apply_action(game.card_index(card))

    assert state.current_player() == 1 and legal() == ["red-1", "blue-1"]  # no green lead on trick 1
    play("red-1")
    assert legal() == ["blue-2", "blue-4", "green-3", "green-4"]  # seat 2: no red, no blue yet
    play("blue-2")
    assert legal() == ["red-2", "red-3", "red-4"]
    play("red-4")
    assert state.tricks_played == 1 and state.current_player() == 0
    assert legal() == ["red-2", "red-3", "blue-3"]  # trick 2: the leader is free
    play("red-2")
    assert legal() == ["blue-1", "green-1", "green-2"]  # seat 1 played no blue
    play("green-1")
    assert legal() == ["green-3"]  # seat 2 played a blue: no four


def test_an_allow_restriction_keeps_only_the_cards_it_names_and_none_lifts_it() -> None:
    """`allow` narrows to the matching cards; when the player holds none, it binds nothing."""
    game = spec_game(TINY + """
restrictions:
  - {name: reds first, for: leader, when: "trick == 1", allow: {suit: red}}
""")
    state = game.new_initial_state(0, deal=RESTRICTED_DEAL)
    assert [game.card_ids[a] for a in state.legal_actions()] == ["red-1"]  # seat 1 leads
    no_red = {"hands": [["red-2", "red-3", "red-4", "blue-3"], ["blue-1", "green-1", "green-2", "green-4"], ["blue-2", "green-3", "red-1", "blue-4"]]}
    state = game.new_initial_state(0, deal=no_red)
    assert [game.card_ids[a] for a in state.legal_actions()] == ["blue-1", "green-1", "green-2", "green-4"]


def test_a_restriction_dividing_by_zero_reads_0_and_plays_on() -> None:
    """A `when` dividing by zero reads 0 there (expressions are total): on the first trick
    4 // 0 is 0, so the restriction is off and the leader may lead any card; from the second,
    4 // 1 is 4 and red is forbidden to a leader who holds another suit."""
    game = spec_game(TINY + """
restrictions:
  - {name: broken, for: leader, when: "4 // (trick - 1) > 1", forbid: {suit: red}}
""")
    state = game.new_initial_state(0)
    assert sorted(state.legal_actions()) == sorted(state.hands[state.current_player()])
    while state.tricks_played < 1:
        state.apply_action(state.legal_actions()[0])
    hand = state.hands[state.current_player()]
    assert sorted(state.legal_actions()) == sorted(c for c in hand if c // 4 != RED) or all(c // 4 == RED for c in hand)
