"""Measures of the cards a player was dealt or held (counts of matching cards, runs from the
top), against hand-written counts over the recorded deal and play; the hands as dealt through
cloning, resampling, positions and the dump; and no measure of a hand read before the round ends."""

from __future__ import annotations

import random

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from trickrules.engine.phases import pass_cards
from trickrules.engine.positions import Position, start_at
from trickrules.engine.round_end import score_now
from trickrules.rules.measures import Holding, Measure, holding_value, run_length
from trickrules.spec.dump import dump_spec, dump_yaml
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.rulebook import rulebook_markdown

from helpers import ROOT, events

PASSING = """\
id: held
title: Held measures
players: [4]
deck:
  suits: [clubs, diamonds, hearts, spades]
  rank_names: {11: J, 12: Q, 13: K, 14: A}
  generate:
    - {suits: all, ranks: {from: 2, to: 14}}
deal:
  hand_size: 12
round:
  - deal
  - pass: {cards: 2, to: left}
  - play
  - score
trumps: [spades]
follow: [follow_led]
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures:
    aces_dealt: {count: {rank: 14}, of: dealt}
    honours: {count: {rank: [10, 11, 12, 13, 14], trump: true}, of: held}
    won_hearts: {count: {suit: hearts}}
    top: {run: [spades-A, spades-K, spades-Q], of: dealt}
    top_with: {run: {trump: true}, of: dealt, counting: with}
    top_without: {run: {trump: true}, of: dealt, counting: without}
  round:
    - add: "aces_dealt + honours + won_hearts + top + top_with + top_without"
"""
"""Four players, two cards passed left before play (so the hand as dealt and the hand held
differ), spades trumps; a measure of each kind."""

ASIDE = """\
id: aside
title: Aside
players: [3]
deck:
  suits: [red, blue, green]
  generate:
    - {suits: all, ranks: {from: 1, to: 4}}
deal:
  hand_size: 3
round:
  - deal
  - declare: {first: dealer, otherwise: plain}
  - play
  - score
trumps: [green]
contracts:
  solo:
    declarer: alone
  plain:
    description: no one declares
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures:
    top: {run: [green-4, green-3, green-2, green-1], of: dealt, set_aside: declarer}
  round:
    - add: top
"""
"""Three players of three cards from twelve: three cards dealt to no one, which count among a
declarer's for `top`."""

TEAMS = PASSING.replace("players: [4]\n", "players: [4]\nteams: [[0, 2], [1, 3]]\n").replace(
    "    top: {run: [spades-A, spades-K, spades-Q], of: dealt}",
    "    top: {run: [spades-A, spades-K, spades-Q], of: dealt, per: team}",
)

GAMES = {name: trickrules.load_game(load_ruleset_text(text)) for name, text in
         (("passing", PASSING), ("aside", ASIDE), ("teams", TEAMS))}
SPADES_TOP = ["spades-A", "spades-K", "spades-Q", "spades-J", "spades-10", "spades-9", "spades-8",
              "spades-7", "spades-6", "spades-5", "spades-4", "spades-3", "spades-2"]


def _played_out(game: trickrules.Game, seed: int) -> trickrules.State:
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _ids(game: trickrules.Game, cards: list[int]) -> list[str]:
    return [game.card_ids[c] for c in cards]


def _run(top_first: list[str], cards: set[str], counting: str = "either") -> int:
    """A run from the top counted by hand."""
    held_top = top_first[0] in cards
    if counting == "with" and not held_top or counting == "without" and held_top:
        return 0
    length = 0
    while length < len(top_first) and (top_first[length] in cards) == held_top:
        length += 1
    return length


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_measures_of_dealt_and_held_cards_equal_counts_by_hand(seed: int) -> None:
    game = GAMES["passing"]
    state = _played_out(game, seed)
    dealt = [set(_ids(game, hand)) for hand in events(state, "deal")[0]["hands"]]
    played = [[game.card_ids[e["card"]] for e in events(state, "play") if e["player"] == p] for p in range(4)]
    won = [[game.card_ids[c] for t in events(state, "trick") if t["winner"] == p for c in t["cards"]] for p in range(4)]
    measures = events(state, "round_end")[0]["measures"]
    for p in range(4):
        assert measures[p]["aces_dealt"] == sum(1 for c in dealt[p] if c.endswith("-A"))
        honours = {f"spades-{r}" for r in ("10", "J", "Q", "K", "A")}
        assert measures[p]["honours"] == len(honours & set(played[p]))
        assert measures[p]["won_hearts"] == sum(1 for c in won[p] if c.startswith("hearts-"))
        assert measures[p]["top"] == _run(SPADES_TOP[:3], dealt[p])
        assert measures[p]["top_with"] == _run(SPADES_TOP, dealt[p], "with")
        assert measures[p]["top_without"] == _run(SPADES_TOP, dealt[p], "without")


def test_the_hand_as_dealt_is_the_hand_before_passing() -> None:
    state = GAMES["passing"].new_initial_state(7, record=True)
    before = [tuple(hand) for hand in state.hands]
    rng = random.Random(7)
    while state.tricks_played == 0 and not state.trick:
        state.apply_action(rng.choice(state.legal_actions()))
    assert [tuple(h) for h in state.dealt[:4]] == before
    assert any(sorted(h) != list(b) for h, b in zip(state.hands, before))  # the pass changed the hands


@pytest.mark.parametrize(
    ("held", "counting", "expected"),
    [
        ({"a", "b"}, "either", 2), ({"a", "b"}, "with", 2), ({"a", "b"}, "without", 0),
        ({"c"}, "either", 2), ({"c"}, "with", 0), ({"c"}, "without", 2),
        ({"a", "b", "c", "d"}, "with", 4), (set(), "without", 4), ({"a", "c"}, "either", 1),
    ],
)
def test_a_run_counts_with_or_without_from_the_top(held: set[str], counting: str, expected: int) -> None:
    order = ["a", "b", "c", "d"]
    number = {card: i for i, card in enumerate(order)}
    assert run_length([number[c] for c in order], [number[c] for c in held], counting) == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_cards_dealt_to_no_one_count_for_the_declarer_alone(seed: int) -> None:
    game = GAMES["aside"]
    state = _played_out(game, seed)
    deal = events(state, "deal")[0]
    top = ["green-4", "green-3", "green-2", "green-1"]
    for p, hand in enumerate(deal["hands"]):
        cards = set(_ids(game, hand)) | (set(_ids(game, deal["set_aside"])) if p == state.declarer else set())
        assert events(state, "round_end")[0]["measures"][p]["top"] == _run(top, cards)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_team_run_reads_the_teams_cards_and_goes_to_its_first_seat(seed: int) -> None:
    game = GAMES["teams"]
    state = _played_out(game, seed)
    dealt = [set(_ids(game, hand)) for hand in events(state, "deal")[0]["hands"]]
    measures = events(state, "round_end")[0]["measures"]
    for first, second in ((0, 2), (1, 3)):
        assert measures[first]["top"] == _run(SPADES_TOP[:3], dealt[first] | dealt[second])
        assert measures[second]["top"] == 0


def test_a_run_by_condition_follows_the_rounds_ranking() -> None:
    text = PASSING.replace("top_with: {run: {trump: true}, of: dealt, counting: with}",
                           "top_with: {run: {suit: spades}, of: dealt, counting: with}")
    text = text.replace("  - highest: rank\n", "  - lowest: rank\n", 1)
    game = trickrules.load_game(load_ruleset_text(text))
    state = _played_out(game, 3)
    dealt = [set(_ids(game, hand)) for hand in events(state, "deal")[0]["hands"]]
    lowest_first = list(reversed(SPADES_TOP))
    measures = events(state, "round_end")[0]["measures"]
    assert [m["top_with"] for m in measures] == [_run(lowest_first, d, "with") for d in dealt]


def test_a_clone_keeps_the_hands_as_dealt() -> None:
    state = GAMES["passing"].new_initial_state(5)
    copy = state.clone()
    assert copy.dealt == state.dealt
    rng = random.Random(5)
    while not copy.is_terminal():
        copy.apply_action(rng.choice(copy.legal_actions()))
    assert copy.dealt == state.dealt


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40), player=st.integers(0, 3))
def test_a_resampled_state_gives_its_own_hands_as_dealt(seed: int, steps: int, player: int) -> None:
    game = GAMES["passing"]
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))
    sample = state.resample_from_infostate(player, rng)
    assert sample.dealt[player] == state.dealt[player]  # what the player was dealt, it knows
    assert sorted(c for hand in sample.dealt for c in hand) == sorted(c for hand in state.dealt for c in hand)
    done = pass_cards.finished(sample)
    for p in range(4):  # dealt = held now + played + passed away - received
        played = [c for cards, who in [*sample.tricks, (sample.trick, sample.trick_players)] for c, q in zip(cards, who) if q == p]
        cards = sorted(sample.hands[p] + played)
        for own in done:
            giver = own.receivers.index(p)
            cards = sorted([c for c in cards if c not in own.passed[giver]] + list(own.passed[p]))
        if state.phase.name == "PLAY":
            assert tuple(cards) == sample.dealt[p]


def test_a_position_was_dealt_its_hands() -> None:
    game = GAMES["passing"]
    state = start_at(game, Position(hands={0: ["spades-A", "spades-K", "hearts-2"], 1: ["spades-Q", "clubs-2", "clubs-3"]}))
    assert [_ids(game, list(h)) for h in state.dealt[:2]] == [["hearts-2", "spades-K", "spades-A"], ["clubs-2", "clubs-3", "spades-Q"]]


def test_no_measure_of_a_hand_is_read_before_the_round_ends() -> None:
    game = GAMES["passing"]
    state = game.new_initial_state(11)
    rng = random.Random(11)
    while state.tricks_played < 3:
        state.apply_action(rng.choice(state.legal_actions()))
    names = list(game.measure_names)
    early = score_now(state, final=False)[0].measures
    final = score_now(state)[0].measures
    for name in ("aces_dealt", "honours", "top", "top_with", "top_without"):
        assert all(row[names.index(name)] == 0 for row in early)
    assert any(row[names.index("aces_dealt")] for row in final)
    hearts = names.index("won_hearts")
    assert [row[hearts] for row in early] == [row[hearts] for row in final]  # won cards are public


@pytest.mark.parametrize("name", sorted(GAMES))
def test_held_measures_round_trip_through_the_dump(name: str) -> None:
    ruleset = GAMES[name].ruleset
    again = load_ruleset_text(dump_yaml(ruleset))
    assert again == ruleset
    assert dump_spec(again) == dump_spec(ruleset)


def test_the_rulebook_says_which_cards_each_measure_reads() -> None:
    text = rulebook_markdown(GAMES["passing"].ruleset, yaml.safe_load(PASSING))
    assert "**aces_dealt**: how many of the cards the player was dealt match (the card has rank A)" in text
    assert "**honours**: how many of the cards the player played the round with match" in text
    assert "how many of spades-A, spades-K, spades-Q are held or missing in a row from the top" in text
    assert "(0 without the top card)" in text and "(0 with the top card)" in text
    aside = rulebook_markdown(GAMES["aside"].ruleset, yaml.safe_load(ASIDE))
    assert "(the declarer's with the cards dealt to no one)" in aside


SKAT = (ROOT / "specs" / "skat.yaml").read_text(encoding="utf-8").replace(
    "    card_points: {sum_attribute: points}\n",
    "    card_points: {sum_attribute: points}\n    matadors: {run: {trump: true}, of: dealt, set_aside: declarer, report: true}\n",
)
"""The shipped skat spec with matadors: the run of trumps from the top, in each contract's own
trump order, over the soloist's hand as dealt and the skat."""


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_run_of_trumps_follows_each_contracts_trumps_and_counts_the_set_aside_cards(seed: int) -> None:
    game = trickrules.load_game(load_ruleset_text(SKAT))
    state = _played_out(game, seed)
    contract = state.play_game.ruleset.id.split(":")[-1]
    jacks = ["clubs-J", "spades-J", "hearts-J", "diamonds-J"]
    orders = {"grand": jacks, **{suit: jacks + [f"{suit}-{r}" for r in ("A", "10", "K", "Q", "9", "8", "7")]
                                 for suit in ("diamonds", "hearts", "spades", "clubs")}}
    if contract not in orders:  # null (no trumps), or all passed
        return
    deal = events(state, "deal")[0]
    measures = events(state, "round_end")[0]["measures"]
    for p in range(3):
        cards = set(_ids(game, deal["hands"][p]))
        if p == state.declarer:
            cards |= set(_ids(game, deal["set_aside"]))
        assert measures[p]["matadors"] == _run(orders[contract], cards)


def test_a_holding_counts_its_matches_a_called_card_its_cards_and_sums_less_a_share_per_card() -> None:
    """Over cards 3, 5 and 8 (worth 2, 4 and 1): a count and a called card count the matches, a
    count of cards counts them all, a sum adds their worth less 2/3 a card, rounded half away
    from zero (7 - 2 = 5)."""
    cards, worth = [3, 5, 8], [0, 0, 0, 2, 0, 4, 0, 0, 1]
    matches = {5, 8}.__contains__
    for kind in ("count", "called"):
        assert holding_value(Measure("m", kind, holding=Holding()), cards, matches, (), None) == 2  # type: ignore[arg-type]
    assert holding_value(Measure("m", "cards", holding=Holding()), cards, matches, (), None) == 3
    assert holding_value(Measure("m", "sum_attribute", attribute=0, holding=Holding()), cards, matches, (), worth) == 7
    less = Holding(less=(2, 3))
    assert holding_value(Measure("m", "sum_attribute", attribute=0, holding=less), cards, matches, (), worth) == 5
    assert holding_value(Measure("m", "sum_attribute", attribute=0, holding=less), cards[:2], matches, (), worth) == 5  # 6 - 4/3
    assert holding_value(Measure("m", "run", holding=Holding(counting="with")), cards, matches, (3, 5, 7), None) == 2
