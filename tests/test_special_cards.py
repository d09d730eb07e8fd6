"""Special cards, as Tarot's excuse: free of every follow rule (`follow: [{exempt: ...}]`), led
it sets no led suit (the next card does), ranked never to win, and kept by its owner
(`kept_cards`), who gives the trick's winner a card worth nothing in exchange."""

from __future__ import annotations

import random

import pytest

import trickrules
from helpers import events, spec_game, spec_problem as _problem
from trickrules.engine import resample
from trickrules.rules.follow import NOT_LED
from trickrules.tools.record import build_record
from trickrules.tools.textlog import render_record

SPEC = """\
language: 2
id: excuse
title: Excuse
players: [3]
deck:
  suits: [clubs, hearts, trumps, excuse]
  attributes:
    points: {default: 0, description: card points}
  generate:
    - {suits: [clubs, hearts], ranks: {from: 1, to: 6}, attributes: {points: 1}}
    - {suits: [trumps], ranks: {from: 1, to: 5}}
    - {suits: [excuse], ranks: [0], attributes: {points: 4}}
deal: {hand_size: 6, first_leader: {seat: 0}}
trumps: [trumps]
follow: [follow_led, trump_if_void, {exempt: {suit: excuse}}]
kept_cards: {cards: {suit: excuse}, exchange: {attribute: {name: points, equals: 0}}}
ranking: [{prefer: {not: {suit: excuse}}}, {prefer: trump}, {prefer: led}, {highest: rank}]
rounds: 3
scoring:
  measures:
    points: {sum_attribute: points}
  round:
    - add: points
"""

HANDS = [
    ["clubs-1", "clubs-2", "clubs-3", "hearts-1", "trumps-5", "excuse-0"],
    ["clubs-4", "clubs-5", "hearts-2", "hearts-3", "trumps-2", "trumps-3"],
    ["clubs-6", "hearts-4", "hearts-5", "hearts-6", "trumps-1", "trumps-4"],
]


def _state(record: bool = True):
    return spec_game(SPEC).new_initial_state(0, deal={"hands": HANDS}, record=record)


def _play(state, *cards: str) -> None:
    for card in cards:
        state.apply_action(state.game.string_to_action(f"play {card}"))


def _legal(state) -> list[str]:
    return [state.game.action_to_string(a).removeprefix("play ") for a in state.legal_actions()]


def test_the_free_card_may_be_played_by_a_player_able_to_follow() -> None:
    state = _state()
    _play(state, "hearts-1", "hearts-3", "hearts-6")  # seat 2 wins and leads
    _play(state, "clubs-6")
    assert state.current_player() == 0
    assert _legal(state) == ["clubs-1", "clubs-2", "clubs-3", "excuse-0"]
    _play(state, "clubs-1")
    assert _legal(state) == ["clubs-4", "clubs-5"]  # seat 1 holds no free card: it follows


def test_a_free_card_led_sets_no_suit_and_the_next_card_does() -> None:
    state = _state()
    _play(state, "excuse-0")
    assert state.led == NOT_LED
    assert _legal(state) == ["clubs-4", "clubs-5", "hearts-2", "hearts-3", "trumps-2", "trumps-3"]  # plays as a leader
    _play(state, "hearts-2")
    assert _legal(state) == ["hearts-4", "hearts-5", "hearts-6"]  # seat 2 must follow hearts


def test_the_free_card_never_wins_and_goes_back_to_its_owner() -> None:
    state = _state()
    _play(state, "excuse-0", "hearts-2", "hearts-4")
    assert state.leader == 2
    excuse = state.game.card_index("excuse-0")
    assert excuse in state.piles[0] and excuse not in state.piles[2]
    assert events(state, "kept") == [{"type": "kept", "player": 0, "card": excuse, "winner": 2}]


def _exchange_round():
    """Seat 0 leads the excuse, seat 2 wins the trick; then seat 0 wins a trick of trumps (worth
    nothing) with trumps-5: at the end of the play it gives seat 2 the first of them, trumps-1."""
    state = _state()
    _play(state, "excuse-0", "hearts-2", "hearts-4")
    _play(state, "trumps-1", "trumps-5", "trumps-2")
    while state.round == 0:
        state.apply_action(state.legal_actions()[0])
    return state


def test_the_owner_gives_the_winner_its_first_worthless_won_card_when_play_ends() -> None:
    state = _exchange_round()
    trumps_1 = state.game.card_index("trumps-1")
    assert events(state, "exchange") == [{"type": "exchange", "player": 0, "card": trumps_1, "winner": 2}]
    assert sum(state.totals) == 16


def _random_game(seed: int):
    rng = random.Random(seed)
    state = spec_game(SPEC).new_initial_state(seed, record=True)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seed", range(40))
def test_the_free_card_never_wins_is_never_lost_and_points_are_kept(seed: int) -> None:
    state = _random_game(seed)
    game = state.game
    excuse = game.card_index("excuse-0")
    rounds: list[list[dict]] = [[]]
    for event in state.events:
        if event["type"] == "round_end":
            rounds.append([])
        else:
            rounds[-1].append(event)
    for round_events in rounds:
        tricks = [e for e in round_events if e["type"] == "trick"]
        if not tricks:
            continue
        owner = None
        for trick in tricks:
            if excuse in trick["cards"]:
                owner = trick["players"][trick["cards"].index(excuse)]
                assert trick["cards"][trick["players"].index(trick["winner"])] != excuse, "the excuse won a trick"
        kept = [e for e in round_events if e["type"] == "kept"]
        assert all(e["player"] == owner for e in kept)
        exchanges = [e for e in round_events if e["type"] == "exchange"]
        assert len(exchanges) <= len(kept)
        for exchange in exchanges:
            assert game.ruleset.deck.cards[exchange["card"]].attributes[0] == 0


@pytest.mark.parametrize("seed", range(40))
def test_every_round_scores_every_point_once(seed: int) -> None:
    state = _random_game(seed)
    assert sum(state.totals) == 16 * state.game.ruleset.rounds


@pytest.mark.parametrize("seed", range(15))
def test_a_free_card_played_while_following_shows_no_void(seed: int) -> None:
    rng = random.Random(seed)
    state = _state()
    _play(state, "hearts-1", "hearts-3", "hearts-6")
    _play(state, "clubs-6", "excuse-0", "clubs-5")  # seat 0 holds clubs, yet played the excuse
    for _ in range(3):
        sample = resample.resample(state, 1, rng)
        assert sorted(sample.hands[1]) == sorted(state.hands[1])
    known = resample.constraints(state, 1)
    clubs = [state.game.card_index(c) for c in ("clubs-2", "clubs-3")]
    seat0 = known.places.index(("hand", 0))
    assert all(seat0 in allowed for card, allowed in known.cards if card in clubs)


def test_the_record_and_its_text_name_kept_and_exchanged_cards() -> None:
    state = _exchange_round()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = build_record(state)
    assert record["rounds"][0]["kept"] == [{"player": 0, "card": "excuse-0", "winner": 2}]
    assert record["rounds"][0]["exchanged"] == [{"player": 0, "card": "trumps-1", "winner": 2}]
    text = render_record(record)
    assert "Kept: P0 takes back excuse-0 from P2's trick" in text and "Exchange: P0 gives P2 trumps-1" in text



def test_an_exempt_card_is_named_by_the_card_alone() -> None:
    problem = _problem(SPEC.replace("{exempt: {suit: excuse}}", "{exempt: {led: true}}"))
    assert (problem.code, problem.path) == ("TR374", "$.follow[2].exempt")


@pytest.mark.parametrize(("old", "new", "column", "path", "what"), [
    ("kept_cards: {cards: {suit: excuse}", "kept_cards: {cards: {led: true}", 14, "$.kept_cards.cards", "a kept card"),
    ("exchange: {attribute: {name: points, equals: 0}}", "exchange: {led: true}", 37, "$.kept_cards.exchange", "the card given in exchange"),
])
def test_a_kept_card_and_its_exchange_are_named_by_the_card_alone(old: str, new: str, column: int, path: str, what: str) -> None:
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_ruleset_text(SPEC.replace(old, new))
    assert [(p.code, p.line, p.column, p.path, p.message) for p in caught.value.problems] == [
        ("TR374", 16, column, path, f"{what} is named by the card alone: a condition on the trick (led, winner) cannot name it")]


def test_kept_cards_need_won_cards_in_piles() -> None:
    problem = _problem(SPEC.replace("kept_cards:", "won_cards: tableau\ntableau: {sections: [{name: row}]}\nkept_cards:"))
    assert (problem.code, problem.path) == ("TR374", "$.kept_cards")


def test_the_last_trick_is_its_own_cards_not_a_card_given_in_exchange() -> None:
    """The last trick (clubs-5, trumps-4, clubs-3: 2 points) is seat 2's even though the exchange
    then adds trumps-1 to its won cards."""
    spec = SPEC.replace("    points: {sum_attribute: points}\n",
                        "    points: {sum_attribute: points}\n    last_points: {sum_attribute: points, of: last_trick}\n")
    spec = spec.replace("    - add: points\n", "    - add: points\n    - add: last_points\n")
    state = spec_game(spec).new_initial_state(0, deal={"hands": HANDS}, record=True)
    _play(state, "excuse-0", "hearts-2", "hearts-4", "trumps-1", "trumps-5", "trumps-2", "clubs-1", "clubs-4", "clubs-6",
          "hearts-5", "hearts-1", "hearts-3", "hearts-6", "clubs-2", "trumps-3", "clubs-5", "trumps-4", "clubs-3")
    assert [row["last_points"] for row in state.round_results[0]["measures"]] == [0, 0, 2]
