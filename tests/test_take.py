"""The take phase (the declarer takes the set-aside cards, all or one group, and buries as many)
and `play_ends_when` (the play ends early), over small specs written here and over skat:
what is legal, what each player sees, resampling, copies, records, action texts, scoring, and
a property over generated specs that no card is lost or doubled."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter
from typing import Any

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st
from helpers import ROOT
from strategies import scaled

import trickrules
from trickrules.engine.game import Game
from trickrules.engine.phases import Phase, take
from trickrules.engine.state import State
from trickrules.tools.record import build_record, dumps, replay
from trickrules.tools.recordschema import record_problems

SKAT = ROOT / "specs" / "skat.yaml"

SPEC = """\
language: 2
id: taking
title: Taking
players: [3]
deck:
  suits: [red, blue, green]
  attributes:
    count: {default: 1}
  generate:
    - {suits: all, ranks: {from: 1, to: 7}}
deal:
  hand_size: 5
  first_leader: {seat: 0}
round:
  - deal
  - declare: {first: {seat: 0}, otherwise: score}
  - take: TAKE
  - play
  - score
follow: [follow_led]
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures:
    won: {sum_attribute: count}
  round:
    - {name: cards, add: won}
contracts:
  solo:
    declarer: alone
    trumps: [red]
  open:
    declarer: alone
"""
"""Three players, 21 cards (red, blue, green 1-7), five cards each and six set aside; seat 0
declares first; a player scores a point for each card won. `TAKE` is the take phase's rules."""

SUITED = {"hands": [["red-1", "red-2", "red-3", "red-4", "red-5"],
                    ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"],
                    ["green-1", "green-2", "green-3", "green-4", "green-5"]]}
"""A given deal: the set-aside cards are the sixes and sevens, in card order."""
PILE = ["red-6", "red-7", "blue-6", "blue-7", "green-6", "green-7"]


def taking_game(rules: str = "{}", extra: str = "", replace: dict[str, str] | None = None) -> Game:
    """The game of `SPEC` with the take phase's `rules`, `extra` appended and text replaced."""
    text = SPEC.replace("TAKE", rules) + extra
    for old, new in (replace or {}).items():
        text = text.replace(old, new)
    return trickrules.load_game(trickrules.load_ruleset_text(text))


def act(state: State, *texts: str) -> State:
    for text in texts:
        state.apply_action(state.game.string_to_action(text))
    return state


def legal_texts(state: State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def ids(state: State, cards: list[int]) -> list[str]:
    return [state.game.card_ids[c] for c in cards]


def every_card(state: State) -> Counter[int]:
    """The cards of the round wherever they are: hands, the trick, won piles, buried, stock."""
    places = [*state.hands, state.trick, *state.piles, take.buried(state), state.stock]
    return Counter(card for place in places for card in place)


# ---------------------------------------------------------------- taking and burying


def test_the_declarer_takes_the_whole_pile_and_buries_as_many_cards() -> None:
    state = act(taking_game().new_initial_state(deal=SUITED), "contract solo")
    assert state.phase == Phase.TAKE and state.current_player() == 0
    assert sorted(ids(state, state.hands[0])) == sorted(SUITED["hands"][0] + PILE)
    assert state.stock == []
    assert sorted(legal_texts(state)) == sorted(f"bury {card}" for card in SUITED["hands"][0] + PILE)
    act(state, "bury red-1", "bury red-2", "bury blue-6", "bury blue-7", "bury green-6")
    assert state.phase == Phase.TAKE, "a burial short: the taker still buries"
    act(state, "bury green-7")
    assert state.phase == Phase.PLAY and state.current_player() == 0
    assert ids(state, take.buried(state)) == ["red-1", "red-2", "blue-6", "blue-7", "green-6", "green-7"]
    assert sorted(ids(state, state.hands[0])) == ["red-3", "red-4", "red-5", "red-6", "red-7"]


def test_a_pile_in_groups_is_taken_one_group_in_dealt_order() -> None:
    game = taking_game("{groups: 3}")
    state = game.new_initial_state(seed=4)
    pile = list(state.stock)
    act(state, "contract solo")
    assert legal_texts(state) == ["take group 1", "take group 2", "take group 3"]
    assert sorted(state.hands[0]) == sorted(game.new_initial_state(seed=4).hands[0]), "nothing taken before the choice"
    act(state, "take group 2")
    assert set(pile[2:4]) <= set(state.hands[0]) and len(state.hands[0]) == 7
    assert state.stock == [c for c in pile if c not in pile[2:4]], "the groups not taken stay set aside"
    assert len(state.legal_actions()) == 7 and all(t.startswith("bury ") for t in legal_texts(state))


def test_a_given_deal_s_set_aside_order_decides_the_groups() -> None:
    order = ["green-7", "blue-7", "red-7", "green-6", "blue-6", "red-6"]
    state = act(taking_game("{groups: 3}").new_initial_state(deal={**SUITED, "set_aside": order}), "contract solo", "take group 1")
    assert {"green-7", "blue-7"} <= set(ids(state, state.hands[0])) and ids(state, state.stock) == order[2:]


def test_a_bury_count_larger_than_the_group_buries_only_as_many_as_taken() -> None:
    state = act(taking_game("{groups: 2, bury: 5}").new_initial_state(deal=SUITED), "contract solo", "take group 1")
    act(state, "bury red-1", "bury red-2", "bury red-3")
    assert state.phase == Phase.PLAY and [len(hand) for hand in state.hands] == [5, 5, 5]


def test_a_shown_pile_is_in_every_observation_and_a_hidden_one_in_none() -> None:
    shown = act(taking_game("{groups: 2, shown: true}").new_initial_state(deal=SUITED), "contract solo")
    assert all(shown.observation(p)["set_aside_shown"] == PILE for p in range(3))
    hidden = act(taking_game("{groups: 2}").new_initial_state(deal=SUITED), "contract solo")
    for player in range(3):
        assert "set_aside_shown" not in hidden.observation(player)
        assert not set(PILE) & set(json.dumps(hidden.observation(player)).replace('"', " ").replace(",", " ").split())
        assert not any(card in hidden.information_state_string(player).split() for card in PILE)


def test_a_forbidden_card_cannot_be_buried_while_the_hand_holds_another() -> None:
    state = act(taking_game("{forbid: {trump: true}}").new_initial_state(deal=SUITED), "contract solo")
    assert sorted(legal_texts(state)) == ["bury blue-6", "bury blue-7", "bury green-6", "bury green-7"]
    with pytest.raises(ValueError):
        act(state, "bury red-1")


def test_forbid_is_relaxed_when_the_hand_holds_nothing_else() -> None:
    state = act(taking_game("{forbid: {trump: true}}").new_initial_state(deal=SUITED), "contract solo")
    act(state, "bury blue-6", "bury blue-7", "bury green-6", "bury green-7")
    assert sorted(legal_texts(state)) == sorted(f"bury red-{rank}" for rank in range(1, 8))
    act(state, "bury red-7", "bury red-6")
    assert state.phase == Phase.PLAY


def test_forbid_reads_the_contract_s_trumps() -> None:
    state = act(taking_game("{forbid: {trump: true}}").new_initial_state(deal=SUITED), "contract open")
    assert len(state.legal_actions()) == 11, "no trumps in the open contract: every card may be buried"


# ---------------------------------------------------------------- when there is no taking


def test_the_phase_is_skipped_when_no_one_declares() -> None:
    game = taking_game(replace={"otherwise: score": "otherwise: open"})
    state = act(game.new_initial_state(deal=SUITED), "pass", "pass", "pass")
    assert state.phase == Phase.PLAY and state.declarer == -1
    assert ids(state, state.stock) == PILE and [len(hand) for hand in state.hands] == [5, 5, 5]
    assert take.taking(state) is None and "taker" not in state.observation(0)


def test_the_phase_is_skipped_in_a_contract_it_does_not_list() -> None:
    game = taking_game("{contracts: [solo]}")
    state = act(game.new_initial_state(deal=SUITED), "contract open")
    assert state.phase == Phase.PLAY and ids(state, state.stock) == PILE
    state = act(game.new_initial_state(deal=SUITED), "pass", "contract solo")
    assert state.phase == Phase.TAKE and state.current_player() == 1


def test_a_contract_splits_the_pile_its_own_way() -> None:
    game = taking_game("{groups: {by_contract: {solo: 3}}}")
    assert legal_texts(act(game.new_initial_state(deal=SUITED), "contract solo")) == ["take group 1", "take group 2", "take group 3"]
    assert len(act(game.new_initial_state(deal=SUITED), "contract open").hands[0]) == 11, "not named: the whole pile"


# ---------------------------------------------------------------- what the others see


def _buried_after(game: Game, burials: list[str]) -> State:
    return act(game.new_initial_state(deal=SUITED), "contract solo", *[f"bury {card}" for card in burials])


def test_buried_cards_are_in_the_taker_s_observation_only() -> None:
    state = _buried_after(taking_game(), ["blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"])
    assert state.observation(0)["buried"] == ["blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"]
    for player in (1, 2):
        view = state.observation(player)
        assert "buried" not in view and view["taker"] == 0
        words = state.information_state_string(player).split()
        assert not {"blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"} & set(words)


def test_which_cards_were_buried_reaches_no_other_player_s_tensor() -> None:
    game = taking_game()
    first = _buried_after(game, ["blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"])
    second = _buried_after(game, ["red-6", "red-7", "red-1", "red-2", "red-3", "red-4"])
    layout = game.observation_layout()
    for player in (1, 2):
        assert first.observation_tensor(player) == second.observation_tensor(player)
        assert first.information_state_string(player) == second.information_state_string(player)
    parts = layout.split(first.observation_tensor(0)), layout.split(second.observation_tensor(0))
    differ = {name for name in parts[0] if parts[0][name] != parts[1][name]}
    assert differ == {"hand", "own_buried"}


def test_skat_buried_cards_reach_no_defender_s_tensor() -> None:
    game = trickrules.load_game(SKAT)
    state = act(game.new_initial_state(seed=11), "contract grand")
    hand = ids(state, state.hands[0])
    one, two = act(state.clone(), f"bury {hand[0]}", f"bury {hand[1]}"), act(state.clone(), f"bury {hand[2]}", f"bury {hand[3]}")
    for player in (1, 2):
        assert one.observation_tensor(player) == two.observation_tensor(player)
    assert one.observation_tensor(0) != two.observation_tensor(0)


# ---------------------------------------------------------------- resampling


def test_resampling_keeps_the_buried_cards_for_the_taker_and_deals_them_again_for_others() -> None:
    state = _buried_after(taking_game(), ["blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"])
    act(state, "play red-3")
    buried = list(take.buried(state))
    dealt_again = 0
    for seed in range(40):
        mine = state.resample_from_infostate(0, seed)
        assert take.buried(mine) == buried and mine.hands[0] == state.hands[0]
        theirs = state.resample_from_infostate(1, seed)
        assert theirs.hands[1] == state.hands[1] and len(take.buried(theirs)) == len(buried)
        dealt_again += sorted(take.buried(theirs)) != sorted(buried)
        for sample in (mine, theirs):
            assert every_card(sample) == Counter(range(state.game.num_cards)), "a card lost or doubled"
            assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
    assert dealt_again > 20, f"the buried cards were dealt again in only {dealt_again} of 40 samples"


def test_resampled_skat_states_play_on_to_the_end() -> None:
    game = trickrules.load_game(SKAT)
    for seed in range(10):
        state = act(game.new_initial_state(seed=seed), "contract clubs")
        rng = random.Random(seed)
        for _ in range(2 + seed):
            state.apply_action(rng.choice(state.legal_actions()))
        for player in range(3):
            sample = state.resample_from_infostate(player, rng)
            assert every_card(sample) == Counter(range(32))
            while not sample.is_terminal():
                sample.apply_action(rng.choice(sample.legal_actions()))


# ---------------------------------------------------------------- copies, records, texts


@pytest.mark.parametrize("rules, before", [("{groups: 3, shown: true}", ["contract solo"]),
                                           ("{groups: 3}", ["contract solo", "take group 3", "bury red-1"])])
def test_a_state_in_the_take_phase_clones_and_pickles(rules: str, before: list[str]) -> None:
    state = act(taking_game(rules).new_initial_state(deal=SUITED, record=True), *before)
    assert state.phase == Phase.TAKE
    copies = [state.clone(), pickle.loads(pickle.dumps(state))]
    rng = random.Random(1)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        for copy in copies:
            assert copy.legal_actions() == state.legal_actions()
            copy.apply_action(action)
        state.apply_action(action)
    assert all(copy.returns() == state.returns() and copy.history == state.history for copy in copies)


def test_a_pickled_state_keeps_its_burials_apart_from_the_original() -> None:
    state = act(taking_game().new_initial_state(deal=SUITED), "contract solo", "bury red-1")
    copy = pickle.loads(pickle.dumps(state))
    act(copy, "bury red-2")
    assert ids(state, take.buried(state)) == ["red-1"] and ids(copy, take.buried(copy)) == ["red-1", "red-2"]


@pytest.mark.parametrize("spec", ["skat", "groups"])
def test_games_with_burials_record_and_replay(spec: str) -> None:
    game = trickrules.load_game(SKAT) if spec == "skat" else taking_game("{groups: 3, shown: true}")
    for seed in range(12):
        state = game.new_initial_state(seed, record=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            names = legal_texts(state)
            declare = [a for a, text in zip(legal, names) if text.startswith("contract")]
            state.apply_action(rng.choice(declare or legal))
        record = json.loads(dumps(build_record(state)))
        assert record_problems(record) == []
        result = replay(record, game)
        assert result.verified, result.message
        taken = record["rounds"][0]["take"]
        assert taken["player"] == state.declarer and len(taken["buried"]) == len(take.buried(state))
        assert taken["buried"] == ids(state, take.buried(state))


def test_a_record_with_a_changed_burial_does_not_verify() -> None:
    game = trickrules.load_game(SKAT)
    state = act(game.new_initial_state(3, record=True), "contract spades")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    record = json.loads(dumps(build_record(state)))
    buried = record["rounds"][0]["take"]["buried"]
    record["rounds"][0]["take"]["buried"] = [buried[1], buried[0]]
    assert not replay(record, game).verified


def test_take_and_bury_actions_print_and_parse_back() -> None:
    game = taking_game("{groups: 3}")
    block = [a for a in range(game.num_distinct_actions()) if game.action_to_string(a).split()[0] in ("take", "bury")]
    assert len(block) == 3 + 21  # a group of the most the spec splits into, then every card
    for action in block:
        assert game.string_to_action(game.action_to_string(action)) == action
    assert game.action_to_string(block[0]) == "take group 1" and game.action_to_string(block[3]) == "bury red-1"
    for text in ("take group 0", "take group 4", "take group 13", "bury purple-3"):
        with pytest.raises(ValueError):
            game.string_to_action(text)


def test_a_game_without_a_take_phase_has_no_take_actions() -> None:
    game = trickrules.load_game(ROOT / "specs" / "hearts.yaml")
    assert not any(game.action_to_string(a).startswith(("take ", "bury ")) for a in range(game.num_distinct_actions()))


# ---------------------------------------------------------------- scoring the buried cards


@pytest.mark.parametrize("count_for, counted", [("taker", 21), ("nobody", 15)])
def test_buried_cards_count_for_the_taker_or_for_nobody(count_for: str, counted: int) -> None:
    state = _buried_after(taking_game(f"{{buried_count_for: {count_for}}}"), ["blue-6", "blue-7", "green-6", "green-7", "red-1", "red-2"])
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    won = [result["won"] for result in state.round_results[-1]["measures"]]
    assert won[0] == len(state.piles[0]) + counted - 15
    assert won[1:] == [len(state.piles[1]), len(state.piles[2])] and sum(won) == counted


# ---------------------------------------------------------------- the play ends early


def test_play_ends_when_ends_the_play_leaving_the_cards_in_hand_and_scores_the_round() -> None:
    game = taking_game(extra="play_ends_when: tricks_played == 2\n")
    state = act(game.new_initial_state(deal=SUITED, record=True), "contract open")
    for _ in range(6):
        act(state, f"bury {state.game.card_ids[state.hands[0][0]]}")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.tricks) == 2 and [len(hand) for hand in state.hands] == [3, 3, 3]
    result = state.round_results[-1]
    assert sum(result["points"]) == 6 + 6, "the two tricks' cards and the buried six are scored"
    assert every_card(state) == Counter(range(21))


def test_a_contract_s_play_ends_when_ends_only_that_contract_s_play() -> None:
    extra = "  misere:\n    declarer: alone\n    play_ends_when: makers_tricks > 0\n"
    game = taking_game("{contracts: [solo]}", extra)
    state = act(game.new_initial_state(deal=SUITED), "contract misere", "play red-5", "play blue-1", "play green-1")
    assert state.is_terminal() and len(state.tricks) == 1 and [len(h) for h in state.hands] == [4, 4, 4]
    state = act(game.new_initial_state(deal=SUITED), "contract open", "play red-5", "play blue-1", "play green-1")
    assert not state.is_terminal() and state.current_player() == 0


def test_play_ends_when_reads_the_defenders_tricks() -> None:
    extra = "  slam:\n    declarer: alone\n    play_ends_when: defenders_tricks > 0\n"
    game = taking_game("{contracts: [solo]}", extra)
    state = act(game.new_initial_state(deal=SUITED), "contract slam", "play red-5", "play blue-1", "play green-1")
    assert not state.is_terminal(), "the declarer won the trick: the play goes on"
    act(state, "play red-1", "play blue-2", "play green-2")
    assert not state.is_terminal()
    state = act(game.new_initial_state(deal=SUITED), "pass", "contract slam", "play red-5", "play blue-1", "play green-1")
    assert state.is_terminal() and len(state.tricks) == 1, "seat 0, a defender, won the first trick"


def test_a_lost_skat_null_ends_at_the_soloist_s_first_trick() -> None:
    game = trickrules.load_game(SKAT)
    ended_early = 0
    for seed in range(30):
        state = act(game.new_initial_state(seed), "contract null")
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.tricks_won[0] <= 1, "the play went on after the soloist's first trick"
        if state.tricks_won[0] == 0:
            assert len(state.tricks) == 10 and state.returns() == [60.0, -30.0, -30.0]
        else:
            assert state.returns() == [-60.0, 30.0, 30.0]
            assert sum(len(hand) for hand in state.hands) == 3 * (10 - len(state.tricks)), "the cards left stay in hand"
            ended_early += len(state.tricks) < 10
    assert ended_early > 5


# ---------------------------------------------------------------- the longest game


def test_max_game_length_bounds_a_skat_game() -> None:
    game = trickrules.load_game(SKAT)
    bound = game.info().max_game_length
    longest = act(game.new_initial_state(2), "pass", "pass", "contract grand")
    while not longest.is_terminal():
        longest.apply_action(longest.legal_actions()[0])
    assert len(longest.history) == 3 + 2 + 30 <= bound
    rng = random.Random(0)
    for seed in range(60):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert len(state.history) <= bound


# ---------------------------------------------------------------- generated specs


@st.composite
def taking_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A spec with a declare and a take phase: random deck, hand and pile sizes, groups that
    divide the pile, bury counts, forbidden cards, and maybe a play_ends_when."""
    players = draw(st.integers(2, 4))
    suits = ["red", "blue", "green", "gold"][: draw(st.integers(2, 4))]
    ranks = draw(st.integers(3, 9))
    cards = len(suits) * ranks
    hand = draw(st.integers(1, (cards - 1) // players))
    pile = cards - hand * players
    groups = draw(st.sampled_from([g for g in range(1, min(pile, 12) + 1) if pile % g == 0]))
    rules: dict[str, Any] = {"groups": groups, "shown": draw(st.booleans()),
                             "buried_count_for": draw(st.sampled_from(["taker", "nobody"]))}
    if draw(st.booleans()):
        rules["bury"] = draw(st.integers(0, pile))
    if draw(st.booleans()):
        rules["forbid"] = draw(st.sampled_from([{"trump": True}, {"rank": ranks}, {"suit": suits[0]}, {"not": {"rank": 1}}]))
    if draw(st.booleans()):
        rules["contracts"] = ["trumps"]
    if draw(st.integers(0, 2)) == 0:
        rules["hand"] = True
    spec: dict[str, Any] = {
        "language": 2, "id": "generated", "title": "Generated", "players": [players],
        "deck": {"suits": suits, "generate": [{"suits": "all", "ranks": {"from": 1, "to": ranks}}]},
        "deal": {"hand_size": hand, "dealer": {"first": 0, "rotation": 1}},
        "round": ["deal", {"declare": {"otherwise": draw(st.sampled_from(["score", "plain"]))}}, {"take": rules}, "play", "score"],
        "rounds": draw(st.integers(1, 2)),
        "follow": ["follow_led"],
        "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}],
        "scoring": {"round": [{"add": "cards"}]},
        "contracts": {"plain": {"description": "No trumps."}, "trumps": {"declarer": "alone", "trumps": [suits[-1]]}},
    }
    if draw(st.booleans()):
        spec["play_ends_when"] = draw(st.sampled_from(["makers_tricks > 0", "defenders_tricks >= 2", "tricks_played == 1"]))
    return spec


@settings(max_examples=scaled(60))
@given(spec=taking_specs(), seed=st.integers(0, 10**6), rng=st.randoms(use_true_random=False))
def test_generated_specs_with_a_take_phase_play_to_the_end_without_losing_a_card(spec: dict[str, Any], seed: int, rng: random.Random) -> None:
    text = yaml.safe_dump(spec, sort_keys=False)
    note(text)
    game = trickrules.load_game(trickrules.load_ruleset_text(text))
    state = game.new_initial_state(seed)
    deck = Counter(range(game.num_cards))
    for _ in range(game.info().max_game_length):
        assert every_card(state) == deck, "a card lost or doubled"
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase.name}"
        state.apply_action(rng.choice(legal))
    assert state.is_terminal(), "the game outran its max_game_length"


# ---------------------------------------------------------------- the rulebook


def test_the_rulebook_says_how_the_set_aside_cards_are_taken_and_when_the_play_ends_early() -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    text = rulebook_markdown(taking_game("{groups: 3, shown: true, forbid: {trump: true}}", "play_ends_when: tricks_played == 2\n").ruleset)
    assert "## Taking the set-aside cards" in text and "takes one group (the cards are shown to everyone first)" in text
    assert "## The play ends early" in text and "`tricks_played == 2`" in text
    extra = "  misere:\n    declarer: alone\n    play_ends_when: makers_tricks > 0\n"
    text = rulebook_markdown(taking_game("{contracts: [solo]}", extra).ruleset)
    assert "## The play ends early" not in text
    misere = text[text.index("### misere"):]
    assert "`makers_tricks > 0`" in misere and "`makers_tricks > 0`" not in text[: text.index("### misere")]


def test_resampling_keeps_cards_taken_from_a_shown_pile_with_the_taker() -> None:
    state = act(taking_game("{groups: 2, shown: true}").new_initial_state(deal=SUITED), "contract solo", "take group 2", "bury blue-7")
    taken = take.taking(state)
    assert taken is not None and ids(state, taken.taken) == ["blue-7", "green-6", "green-7"]
    for seed in range(40):
        sample = state.resample_from_infostate(1, seed)
        assert all(card in sample.hands[0] or card in take.buried(sample) for card in taken.taken), "a card seen taken left the taker"
        assert sample.stock == state.stock, "the group not taken was seen: it stays"
        assert every_card(sample) == Counter(range(21))


def test_the_group_taken_from_a_shown_pile_is_in_every_information_state() -> None:
    game = taking_game("{groups: 2, shown: true}")
    first, second = (act(game.new_initial_state(deal=SUITED), "contract solo", f"take group {n}") for n in (1, 2))
    assert first.observation(1)["set_aside_taken"] == PILE[:3] and second.observation(2)["set_aside_taken"] == PILE[3:]
    for player in (1, 2):
        assert first.information_state_string(player) != second.information_state_string(player)
    hidden = act(taking_game("{groups: 2}").new_initial_state(deal=SUITED), "contract solo", "take group 1")
    assert "set_aside_taken" not in hidden.observation(1), "a pile face down shows nothing of what was taken"


# ---------------------------------------------------------------- simulate


def test_simulate_counts_the_rounds_taken_each_group_and_the_cards_buried() -> None:
    from trickrules.tools.simulate import simulate

    result = simulate(taking_game("{groups: 3}"), n=60, seed=2, workers=1)
    figures = {rule.name: rule for rule in result.rules if rule.kind == "take"}
    assert set(figures) == {"taken", "group 1", "group 2", "group 3"}
    taken = figures["taken"].fired.total
    assert 0 < taken <= 60 and taken == sum(figures[f"group {n}"].fired.total for n in (1, 2, 3))
    buried = dict(figures["taken"].amounts)["buried"].total
    assert buried == 2 * taken, "a group of two taken, two buried"
    skat = {rule.name: rule for rule in simulate(SKAT, n=20, seed=1, workers=1).rules if rule.kind == "take"}
    assert set(skat) == {"taken"} and dict(skat["taken"].amounts)["buried"].total == 2 * skat["taken"].fired.total


# ---------------------------------------------------------------- hand games


def test_with_hand_games_the_declarer_first_picks_up_or_plays_from_the_hand() -> None:
    game = taking_game("{hand: true}")
    state = act(game.new_initial_state(deal=SUITED), "contract solo")
    assert state.phase == Phase.TAKE and state.current_player() == 0
    assert legal_texts(state) == ["pick-up", "hand"]
    assert state.observation(1).get("hand_game") is None, "not chosen yet"
    act(state, "pick-up")
    assert sorted(legal_texts(state)) == sorted(f"bury {card}" for card in SUITED["hands"][0] + PILE)
    assert state.observation(2)["hand_game"] is False


def test_a_hand_game_leaves_the_pile_face_down_and_counts_it_for_the_declarer() -> None:
    game = taking_game("{hand: true}")
    state = act(game.new_initial_state(deal=SUITED, record=True), "contract solo", "hand")
    assert state.phase == Phase.PLAY and state.current_player() == 0
    assert ids(state, state.stock) == PILE and ids(state, state.hands[0]) == SUITED["hands"][0]
    assert all(state.observation(p)["hand_game"] is True for p in range(3))
    segment = next(s for s in game.observation_layout().segments if s.name == "hand_game")
    assert all(state.observation_tensor(p)[segment.slice] == [1.0] for p in range(3))
    assert taking_game().observation_layout().size == game.observation_layout().size - 1, "a game without hand games has no such segment"
    assert not any(card in str(state.observation(p)) for p in range(3) for card in PILE), "the pile stays unseen"
    while not state.is_terminal():
        assert every_card(state) == Counter(range(game.num_cards))
        state.apply_action(state.legal_actions()[0])
    won = [result["won"] for result in state.round_results[-1]["measures"]]
    assert won[0] == len(state.piles[0]) + len(PILE) and sum(won) == 21
    record = json.loads(dumps(build_record(state)))
    assert record_problems(record) == []
    assert record["rounds"][0]["take"] == {"player": 0, "cards": [], "buried": [], "hand": True}
    assert replay(record, game).verified


def test_a_hand_game_s_pile_counts_for_nobody_where_buried_cards_do() -> None:
    state = act(taking_game("{hand: true, buried_count_for: nobody}").new_initial_state(deal=SUITED), "contract solo", "hand")
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(result["won"] for result in state.round_results[-1]["measures"]) == 15


def test_hand_game_actions_print_and_parse_back_and_leave_other_games_numbered_as_before() -> None:
    plain, hand = taking_game(), taking_game("{hand: true}")
    assert hand.num_distinct_actions() == plain.num_distinct_actions() + 2
    added = [a for a in range(hand.num_distinct_actions()) if hand.action_to_string(a) in ("pick-up", "hand")]
    assert added == [plain.num_distinct_actions(), plain.num_distinct_actions() + 1]
    for action in added:
        assert hand.string_to_action(hand.action_to_string(action)) == action
    with pytest.raises(ValueError):
        hand.string_to_action("pick down")


def test_the_rulebook_and_the_log_tell_of_a_hand_game() -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    game = taking_game("{hand: true}")
    assert "unless it chooses to play a hand game, leaving them face down" in rulebook_markdown(game.ruleset)
    state = act(game.new_initial_state(deal=SUITED, record=True), "contract solo", "hand")
    assert state.events is not None
    event = next(e for e in state.events if e["type"] == "hand")
    assert take.KIND.words(event, game) == "P0 plays a hand game: the set-aside cards stay face down"
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    from trickrules.tools.textlog import render_record

    assert "Set-aside cards: P0 plays a hand game, leaving them face down" in render_record(build_record(state))


def test_a_take_phase_may_follow_a_bid_phase_that_bids_by_precedence_only() -> None:
    precedence = "  - bid: {values: {from: 1, to: 5}, bidding: precedence}\n  - take: {hand: true}\n"
    text = SPEC.replace("  - declare: {first: {seat: 0}, otherwise: score}\n  - take: TAKE\n", precedence)
    game = trickrules.load_game(trickrules.load_ruleset_text(text))
    state = game.new_initial_state(deal=SUITED)
    bidder = state.current_player()
    act(state, "bid 1", "pass", "pass")
    assert state.phase == Phase.TAKE and state.current_player() == bidder and legal_texts(state) == ["pick-up", "hand"]
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_ruleset_text(text.replace(", bidding: precedence", ""))
    assert [p.code for p in caught.value.problems] == ["TR340"]


@pytest.mark.parametrize(("take_rules", "column", "path"), [
    ("{contracts: [solo]}", 24, "$.round[1].take.contracts[0]"),
    ("{groups: {by_contract: {solo: 2}}}", 41, "$.round[1].take.groups.by_contract.solo"),
])
def test_a_contract_named_by_a_take_phase_in_a_spec_without_contracts_is_refused(take_rules: str, column: int, path: str) -> None:
    text = SPEC.split("contracts:\n  solo")[0].replace("  - declare: {first: {seat: 0}, otherwise: score}\n", "").replace("TAKE", take_rules)
    with pytest.raises(trickrules.SpecError) as caught:
        trickrules.load_ruleset_text(text)
    assert [(p.code, p.line, p.column, p.path, p.message) for p in caught.value.problems if p.code == "TR325"] == [
        ("TR325", 16, column, path, "no contract 'solo' (contracts: none)")]


def test_a_state_resampled_before_the_choice_of_a_hand_game_picks_up_the_skat_it_deals() -> None:
    """The skat is unseen until picked up: a state resampled for the soloist deals it anew, and
    picking up takes that skat, not the one the original deal held."""
    game = trickrules.load_game(ROOT / "specs" / "skat-standard.yaml")
    for seed in range(6):
        state = act(game.new_initial_state(seed), "bid 18", "pass", "pass")
        assert legal_texts(state) == ["pick-up", "hand"]
        copy = state.resample_from_infostate(state.current_player(), random.Random(seed))
        skat = list(copy.stock)
        act(copy, "pick-up")
        assert set(skat) <= set(copy.hands[copy.declarer]) and copy.stock == []
        assert every_card(copy) == Counter(range(game.num_cards))



def _tricks_of_the_first_round(state: State) -> int:
    """Play the first legal action until the first round ends; the tricks it played."""
    while state.round == 0 and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.events is not None
    end = next(i for i, e in enumerate(state.events) if e["type"] == "round_end")
    return sum(1 for e in state.events[:end] if e["type"] == "trick")


@pytest.mark.parametrize(("ends", "tricks"), [
    ("makers_tricks == 2", 2),
    ("defenders_tricks >= 1", 5),
    ("declarer == 0 and tricks_played == 3", 3),
])
def test_play_ends_when_reads_the_declarers_side_and_the_tricks_played(ends: str, tricks: int) -> None:
    """Seat 0 plays solo with every trump and wins every trick: the round's play ends after the
    trick at which the condition first holds, or after the last."""
    game = taking_game("{contracts: [open]}", f"play_ends_when: \"{ends}\"\n")
    state = act(game.new_initial_state(deal=SUITED, record=True), "contract solo")
    assert _tricks_of_the_first_round(state) == tricks


def test_without_a_declarer_no_trick_is_the_makers() -> None:
    """A round played with no declarer: makers_tricks stays 0, and the play goes to the last trick."""
    from helpers import BASE

    game = trickrules.load_game(trickrules.load_ruleset_text(BASE + "play_ends_when: \"makers_tricks >= 1\"\n", players=3))
    assert _tricks_of_the_first_round(game.new_initial_state(0, record=True)) == 5


@pytest.mark.parametrize(("rules", "buried", "shown"), [("{groups: 2, bury: 2}", 2, False), ("{groups: 2, bury: 0}", 0, False),
                                                       ("{groups: 2, shown: true}", 3, True)])
def test_taking_a_group_moves_it_to_the_hand_and_asks_for_as_many_burials_as_the_rules_say(rules: str, buried: int, shown: bool) -> None:
    """Group 1 (red-6, red-7, blue-6) goes to the declarer's hand and leaves the set-aside
    cards; then it buries `bury` cards (as many as it took when not given), and the log says
    whether the group was shown."""
    game = taking_game(rules)
    state = act(game.new_initial_state(deal=SUITED, record=True), "contract solo", "take group 1")
    assert [game.card_ids[c] for c in state.set_aside] == ["blue-7", "green-6", "green-7"] and len(state.hands[0]) == 8
    decisions = 0
    while state.phase == Phase.TAKE:
        state.apply_action(state.legal_actions()[0])
        decisions += 1
    assert decisions == buried and state.phase == Phase.PLAY
    assert state.events is not None
    assert [(e["cards"], e["shown"], e["group"]) for e in state.events if e["type"] == "take_set_aside"] == [
        ([game.card_index(c) for c in ("red-6", "red-7", "blue-6")], shown, 0)]
