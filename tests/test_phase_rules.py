"""Phases over several rounds of a small game: passing (who passes when, how many cards, to
whom, a direction schedule with a round of no passing)."""

from __future__ import annotations

from pathlib import Path

from helpers import TINY

import trickrules
from trickrules.spec.loader import load_ruleset_text
from trickrules.engine import phases

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


def euchre_to_the_discard(seed: int = 2) -> tuple[trickrules.Game, trickrules.State]:
    """A hand of Euchre in which the first player orders up the turned-up card."""
    game = trickrules.load_game("euchre", options={"single_hand": True})
    state = game.new_initial_state(seed, record=True)
    while state.phase != trickrules.Phase.CHOOSE_TRUMPS:
        state.apply_action(state.legal_actions()[0])
    order_up = [a for a in state.legal_actions() if a != game.choose_pass_action][0]
    state.apply_action(order_up)
    return game, state


def test_the_dealer_takes_the_turned_up_card_and_discards_another() -> None:
    game, state = euchre_to_the_discard()
    turned, dealer = phases.turn_up.card(state), state.dealer
    assert state.phase == trickrules.Phase.DISCARD and state.current_player() == dealer
    assert turned in state.hands[dealer] and turned not in state.stock and turned not in state.set_aside
    legal = [a - game.discard_offset for a in state.legal_actions()]
    assert turned not in legal and sorted(legal) == sorted(c for c in state.hands[dealer] if c != turned)
    state.apply_action(state.legal_actions()[0])
    taken = [e for e in state.events if e["type"] in ("take", "discard")]
    assert taken == [
        {"type": "take", "player": dealer, "card": turned},
        {"type": "discard", "player": dealer, "card": legal[0]},
    ]
    assert phases.discard.discarded(state) == [legal[0]] and len(state.hands[dealer]) == 5


def test_going_alone_sits_the_partner_out_and_is_logged() -> None:
    for alone in (True, False):
        game, state = euchre_to_the_discard()
        state.apply_action(state.legal_actions()[0])
        assert state.phase == trickrules.Phase.GO_ALONE and state.current_player() == state.declarer
        declarer = state.declarer
        assert state.legal_actions() == [game.alone_offset, game.alone_offset + 1]
        state.apply_action(game.alone_offset if alone else game.alone_offset + 1)
        partner = (declarer + 2) % 4
        event = [e for e in state.events if e["type"] == "alone"][0]
        assert event == {"type": "alone", "player": declarer, "alone": alone, "sitting_out": [partner] if alone else []}
        assert state.sitting_out == ([partner] if alone else [])


def skat_lite(declare: str) -> trickrules.Game:
    text = (Path(__file__).resolve().parent.parent / "examples" / "skat-lite.yaml").read_text()
    text = text.replace("  - declare: {first: left_of_dealer, otherwise: score}", f"  - declare: {declare}")
    return trickrules.load_game(load_ruleset_text(text))


def all_pass(game: trickrules.Game, seed: int = 3) -> tuple[trickrules.State, list[int]]:
    state = game.new_initial_state(seed, record=True)
    while state.phase != trickrules.Phase.DECLARE:
        state.apply_action(state.legal_actions()[0])
    speakers = []
    for _ in range(game.num_players):
        assert state.phase == trickrules.Phase.DECLARE
        speakers.append(state.current_player())
        state.apply_action(game.choose_pass_action)
    return state, speakers


def test_the_first_to_declare_and_what_all_passing_plays() -> None:
    state, speakers = all_pass(skat_lite("{first: {seat: 2}, otherwise: clubs}"))
    assert speakers == [2, 0, 1]
    assert phases.declare.contract(state) == 0 and state.phase == trickrules.Phase.PLAY and state.declarer == -1
    state, speakers = all_pass(skat_lite("{first: dealer, otherwise: grand}"))
    assert speakers == [state.dealer, (state.dealer + 1) % 3, (state.dealer + 2) % 3]
    assert phases.declare.contract(state) == skat_lite("{first: dealer}").contract_names.index("grand")
    state, _ = all_pass(skat_lite("{first: dealer}"))
    assert phases.declare.contract(state) == -1 and state.round == 1 and state.phase == trickrules.Phase.DECLARE  # scored unplayed


def test_a_drawn_pass_direction_is_the_documented_hash_of_seed_round_and_kind() -> None:
    import hashlib

    def drawn(seed: int, round_number: int, count: int) -> int:
        digest = hashlib.blake2b(f"trickrules:{seed}:{round_number}:pass".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % count

    game = trickrules.load_game("hearts", options={"pass_direction": "random"})
    names = ["none", "left", "across", "right"]
    seen = set()
    for seed in range(6):
        state = game.new_initial_state(seed, record=True)
        for _ in range(52 + 12):  # past the first round's passing and play
            if state.is_terminal() or state.round > 1:
                break
            state.apply_action(state.legal_actions()[0])
        directions = [e["direction"] for e in state.events if e["type"] == "pass_direction"]
        assert directions[0] == names[drawn(seed, 0, 4)]
        if len(directions) > 1:
            assert directions[1] == names[drawn(seed, 1, 4)]
        seen.add(directions[0])
    assert len(seen) > 1


def bidding(first: str) -> trickrules.State:
    text = (Path(__file__).resolve().parent.parent / "specs" / "oh-hell.yaml").read_text()
    text = text.replace("      first: left_of_dealer\n      allow:", f"      first: {first}\n      allow:")
    game = trickrules.load_game(load_ruleset_text(text, players=4, options={"hand_size": "schedule", "single_hand": True}))
    state = game.new_initial_state(4, record=True)
    while state.phase != trickrules.Phase.BID:
        state.apply_action(state.legal_actions()[0])
    return state


def test_the_first_bidder_and_the_bid_event() -> None:
    state = bidding("dealer")
    assert state.current_player() == state.dealer
    state = bidding("{seat: 2}")
    assert state.current_player() == 2
    action = state.legal_actions()[-1]
    state.apply_action(action)
    value = action - state.game.bid_offset
    event = [e for e in state.events if e["type"] == "bid"][0]
    assert event == {"type": "bid", "player": 2, "bid": value, "name": str(value)}
    assert state.current_player() == 3


COUNTING = TINY + """
counters:
  offsuit:
    scope: player
    on_play: {card: {led: false}, add: 1}
  reds:
    on_play: {card: {suit: red}, add: 2}
"""


def test_counters_read_the_led_group_when_a_card_is_played() -> None:
    game = trickrules.load_game(load_ruleset_text(COUNTING))
    hands = [[f"{suit}-{rank}" for rank in range(1, 5)] for suit in ("red", "blue", "green")]
    state = game.new_initial_state(0, deal={"hands": hands})
    expected_off = [0, 0, 0]
    expected_reds = 0
    led_suit = None
    for turn in range(6):
        player = state.current_player()
        action = state.legal_actions()[-1]
        suit = game.card_ids[action].split("-")[0]
        if turn % 3 == 0:
            led_suit = suit
        elif suit != led_suit:
            expected_off[player] += 1
        expected_reds += 2 if suit == "red" else 0
        state.apply_action(action)
    assert state.counters["offsuit"] == expected_off
    assert state.counters["reds"] == expected_reds
    assert sum(expected_off) > 0 and expected_reds > 0


def choosing(rounds: str, by: str = "left_of_dealer") -> tuple[trickrules.Game, trickrules.State]:
    text = TINY + f"""
round:
  - deal
  - choose_trumps
  - play
  - score
trumps:
  choose:
    by: {by}
    rounds: {rounds}
"""
    game = trickrules.load_game(load_ruleset_text(text))
    return game, game.new_initial_state(0, record=True)


def test_rounds_of_choosing_without_a_turned_up_card() -> None:
    game, state = choosing("[{from: [blue, green]}, {from: others, dealer_must_choose: true}, {from: turned_up}]")
    pass_action, offset = game.choose_pass_action, game.trump_offset
    assert state.phase == trickrules.Phase.CHOOSE_TRUMPS and state.current_player() == 1
    assert state.legal_actions() == [pass_action, offset + 1, offset + 2]  # listed, pass first
    for player in (1, 2, 0):
        assert state.current_player() == player
        state.apply_action(pass_action)
    # others, with no turned-up card: every suit; the dealer (seat 0) may not pass last
    assert state.legal_actions() == [pass_action, offset, offset + 1, offset + 2]
    state.apply_action(pass_action)
    state.apply_action(pass_action)
    assert state.current_player() == 0 and state.legal_actions() == [offset, offset + 1, offset + 2]
    state.apply_action(offset + 2)
    assert state.trumps == frozenset([2]) and state.declarer == 0 and state.phase == trickrules.Phase.PLAY
    chosen = [(e["player"], e["suit"]) for e in state.events if e["type"] == "choose"]
    assert chosen == [(1, None), (2, None), (0, None), (1, None), (2, None), (0, 2)]


def test_a_turned_up_round_without_a_turned_up_card_allows_only_passing() -> None:
    game, state = choosing("[{from: turned_up}]")
    assert state.legal_actions() == [game.choose_pass_action]
    for _ in range(3):
        state.apply_action(game.choose_pass_action)
    assert state.round == 1 or state.is_terminal()  # scored unplayed


def test_stick_the_dealer_binds_only_the_dealer_speaking_last() -> None:
    game, state = choosing("[{from: others, dealer_must_choose: true}]")
    assert game.choose_pass_action in state.legal_actions()  # seat 1 speaks first, not last
    state.apply_action(game.choose_pass_action)
    assert game.choose_pass_action in state.legal_actions()  # seat 2: not the dealer
    state.apply_action(game.choose_pass_action)
    assert game.choose_pass_action not in state.legal_actions()  # the dealer, last


def test_a_dealer_who_speaks_first_may_pass() -> None:
    game, state = choosing("[{from: others, dealer_must_choose: true}]", by="dealer")
    assert state.current_player() == 0 and game.choose_pass_action in state.legal_actions()
    state.apply_action(game.choose_pass_action)
    state.apply_action(game.choose_pass_action)
    assert state.current_player() == 2 and game.choose_pass_action in state.legal_actions()


def test_the_turned_up_card_is_logged_and_without_stock_there_are_no_trumps() -> None:
    game = trickrules.load_game("oh-hell", players=4, options={"single_hand": True})
    state = game.new_initial_state(3, record=True)
    event = [e for e in state.events if e["type"] == "turn_up"][0]
    assert event == {"type": "turn_up", "card": phases.turn_up.card(state)} and phases.turn_up.card(state) >= 0
    assert state.trumps == frozenset([game.tables(frozenset()).faces.suit[phases.turn_up.card(state)]])
    # the whole deck dealt: nothing to turn up, no trumps
    full = TINY + "rounds: 1\nround: [deal, turn_up, play, score]\ntrumps: turned_up\n"
    game = trickrules.load_game(load_ruleset_text(full))
    state = game.new_initial_state(0, record=True)
    assert phases.turn_up.card(state) == -1 and state.trumps == frozenset()
    assert [e for e in state.events if e["type"] == "turn_up"] == [{"type": "turn_up", "card": -1}]


def test_what_a_bid_reads() -> None:
    from trickrules.engine.phases.bid import bid_env

    state = bidding("dealer")
    env = bid_env(state, state.current_player())
    assert (env["hand_size"], env["players"], env["bids_total"], env["bids_made"], env["last"], env["partner_bid"]) == (
        state.hand_size, 4, 0, 0, False, -1
    )
    game = trickrules.load_game("spades", options={"single_hand": True})
    state = game.new_initial_state(1)
    while state.phase != trickrules.Phase.BID:
        state.apply_action(state.legal_actions()[0])
    first = state.current_player()
    assert bid_env(state, (first + 2) % 4)["partner_bid"] == -1
    state.apply_action(state.legal_actions()[3])
    made = phases.bid.bids(state)[first]
    env = bid_env(state, (first + 2) % 4)
    assert env["partner_bid"] == made and env["bids_made"] == 1 and env["bids_total"] == made
    assert bid_env(state, (first + 1) % 4)["partner_bid"] == -1
