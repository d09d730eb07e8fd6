"""Follow rules that read the trick as it stands: win_if_able (head the trick),
overtrump_if_able, and any rule waived while a partner is winning (unless_partner_winning).
Pinned cases, then a property: over random deals and random play, the legal set is exactly
what a plain reading of the rules allows, and the resampler's void inference stays sound."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickrules
from helpers import first_problem
from trickrules.engine.resample import constraints

SPEC = """\
language: 2
id: follow-in-trick
title: Follow rules that read the trick
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [a, b, t]
  generate: [{{suits: all, ranks: {{from: 1, to: 8}}}}]
deal:
  hand_size: 6
  first_leader: {{seat: 0}}
trumps: [t]
follow: {follow}
ranking: [{{prefer: trump}}, {{prefer: led}}, {{highest: rank}}]
scoring: {{round: [{{name: tricks, add: tricks}}]}}
"""

RULES = {
    "win": "[follow_led, win_if_able]",
    "overtrump": "[follow_led, trump_if_void, overtrump_if_able]",
    "belote": "[follow_led, {trump_if_void: {unless_partner_winning: true}}, {overtrump_if_able: {unless_partner_winning: true}}]",
}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, trickrules.Game]:
    folder = tmp_path_factory.mktemp("follow")
    found = {}
    for name, follow in RULES.items():
        path = folder / f"{name}.yaml"
        path.write_text(SPEC.format(follow=follow), encoding="utf-8")
        found[name] = trickrules.load_game(path)
    return found


def _play(game: trickrules.Game, hands: list[list[str]], *cards: str) -> trickrules.State:
    state = game.new_initial_state(0, deal={"hands": hands})
    for card in cards:
        state.apply_action(game.string_to_action(f"play {card}"))
    return state


def _legal(state: trickrules.State) -> list[str]:
    return sorted(state.action_to_string(a).split()[1] for a in state.legal_actions())


HANDS = [["a-5", "a-1", "b-1", "b-2", "b-3", "b-4"], ["a-6", "a-2", "b-5", "t-1", "t-2", "t-7"],
         ["a-4", "a-7", "b-6", "t-3", "t-4", "t-5"], ["a-3", "a-8", "b-7", "b-8", "t-6", "t-8"]]
VOID = [["a-5", "a-1", "b-1", "b-2", "b-3", "b-4"], ["b-5", "b-6", "b-7", "t-1", "t-2", "t-7"],
        ["t-3", "t-4", "t-5", "b-8", "t-6", "t-8"], ["a-7", "a-8", "a-6", "a-2", "a-4", "a-3"]]


def test_win_if_able_asks_for_a_card_that_beats_the_trick(games: dict[str, trickrules.Game]) -> None:
    assert _legal(_play(games["win"], HANDS, "a-5")) == ["a-6"]  # a-2 would lose
    assert _legal(_play(games["win"], HANDS, "a-5", "a-6")) == ["a-7"]
    assert _legal(_play(games["win"], HANDS, "a-5", "a-6", "a-7")) == ["a-8"]


def test_win_if_able_changes_nothing_when_no_card_wins(games: dict[str, trickrules.Game]) -> None:
    state = _play(games["win"], HANDS, "a-1")
    assert _legal(state) == ["a-2", "a-6"]  # both win: either
    state = _play(games["win"], [HANDS[0], ["a-2", "a-3", "b-5", "t-1", "t-2", "t-7"], HANDS[2], ["a-6", "a-8", "b-7", "b-8", "t-6", "t-8"]], "a-5")
    assert _legal(state) == ["a-2", "a-3"]  # neither beats a-5: any card of the suit


def test_a_void_player_must_trump_to_win_a_plain_trick(games: dict[str, trickrules.Game]) -> None:
    assert _legal(_play(games["win"], VOID, "a-5")) == ["t-1", "t-2", "t-7"]


def test_overtrump_if_able_asks_for_a_higher_trump(games: dict[str, trickrules.Game]) -> None:
    state = _play(games["overtrump"], VOID, "a-5", "t-2")
    assert _legal(state) == ["t-3", "t-4", "t-5", "t-6", "t-8"]
    low = [["a-5", "a-1", "b-3", "b-4", "b-5", "a-2"], ["t-6", "t-7", "t-8", "t-1", "t-2", "t-3"], ["t-4", "b-1", "b-2", "b-8", "b-6", "b-7"], ["a-7", "a-8", "a-6", "t-5", "a-4", "a-3"]]
    assert _legal(_play(games["overtrump"], low, "a-5", "t-6")) == ["t-4"]  # cannot beat: any trump


def test_a_waived_rule_does_not_bind_while_the_partner_wins(games: dict[str, trickrules.Game]) -> None:
    # seat 0 leads and wins so far; seat 2, its partner, void in a, may play anything
    partner = [["a-8", "a-1", "b-1", "b-2", "b-3", "b-4"], ["a-7", "a-2", "b-5", "t-1", "t-2", "t-7"],
               ["t-3", "t-4", "t-5", "b-8", "t-6", "b-6"], ["a-3", "a-5", "a-6", "a-4", "t-8", "b-7"]]
    state = _play(games["belote"], partner, "a-8", "a-7")
    assert _legal(state) == ["b-6", "b-8", "t-3", "t-4", "t-5", "t-6"]
    state = _play(games["overtrump"], partner, "a-8", "a-7")
    assert _legal(state) == ["t-3", "t-4", "t-5", "t-6"]  # not waived: must trump


def test_the_rulebook_states_the_new_rules(games: dict[str, trickrules.Game]) -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    text = rulebook_markdown(games["belote"].ruleset)
    assert "unless your partner is winning the trick" in text
    assert "beats it" in text


def test_overtrump_if_able_leaves_other_cards_and_asks_only_among_trumps(tmp_path: Path) -> None:
    """Without trump_if_void, a void player may discard; playing a trump, it must beat the
    trumps in the trick when one of its trumps can (and may play any when none or all can)."""
    path = tmp_path / "discard.yaml"
    path.write_text(SPEC.format(follow="[follow_led, overtrump_if_able]"), encoding="utf-8")
    game = trickrules.load_game(path)
    hands = [["a-5", "a-1", "b-1", "b-2", "b-3", "b-4"], ["b-5", "b-6", "b-7", "t-1", "t-2", "t-7"],
             ["t-3", "t-4", "t-5", "b-8", "t-6", "t-8"], ["a-7", "a-8", "a-6", "a-2", "a-4", "a-3"]]
    assert _legal(_play(game, hands, "a-5", "t-2")) == ["b-8", "t-3", "t-4", "t-5", "t-6", "t-8"]  # every trump beats t-2
    assert _legal(_play(game, hands, "a-5", "t-7")) == ["b-8", "t-8"]  # only t-8 beats t-7
    assert _legal(_play(game, hands, "a-5", "b-5")) == ["b-8", "t-3", "t-4", "t-5", "t-6", "t-8"]  # no trump in the trick
    low = [hands[0], ["b-5", "b-6", "b-7", "t-6", "t-7", "t-8"], ["t-3", "t-4", "t-5", "b-8", "t-1", "t-2"], hands[3]]
    assert _legal(_play(game, low, "a-5", "t-8")) == ["b-8", "t-1", "t-2", "t-3", "t-4", "t-5"]  # none beats: any card


def test_play_if_able_reads_the_number_of_the_trick_as_it_would_stand(tmp_path: Path) -> None:
    """A play_if_able condition on the trick reads the trick's number: b-1 must go in the
    second trick, from a hand void in the led suit, and may go or stay in the first."""
    path = tmp_path / "forced.yaml"
    path.write_text(SPEC.format(follow='[follow_led, {play_if_able: {suit: b, rank: 1, trick: "trick_number == 2"}}]'), encoding="utf-8")
    game = trickrules.load_game(path)
    hands = [["t-8", "t-7", "t-6", "t-5", "t-4", "t-3"], ["b-1", "b-2", "b-3", "b-4", "b-5", "b-6"],
             ["a-3", "a-4", "a-5", "a-6", "a-7", "a-8"], ["t-1", "t-2", "a-1", "a-2", "b-7", "b-8"]]
    state = _play(game, hands, "t-8")
    assert _legal(state) == ["b-1", "b-2", "b-3", "b-4", "b-5", "b-6"]
    state = _play(game, hands, "t-8", "b-6", "a-8", "t-1", "t-7")
    assert _legal(state) == ["b-1"]


# ---------------------------------------------------------------- against a plain reading


def _wins(game: trickrules.Game, state: trickrules.State, card: int) -> bool:
    tables = state.tables
    return tables.trick_winner([*state.trick, card], state.led) == len(state.trick)


def _plain_legal(game: trickrules.Game, name: str, state: trickrules.State) -> list[int]:
    """What the rules of `name` allow, read plainly from their words."""
    hand, trick, faces = list(state.hands[state.current]), state.trick, state.tables.faces
    if not trick:
        return sorted(hand)
    led = faces.group[trick[0]]
    cards = [c for c in hand if faces.group[c] == led] or hand
    winner_seat = state.trick_players[state.tables.trick_winner(trick, state.led)]
    partner_wins = winner_seat % 2 == state.current % 2
    if name == "win":
        return sorted([c for c in cards if _wins(game, state, c)] or cards)
    waived = name == "belote" and partner_wins
    if not waived:
        cards = [c for c in cards if faces.is_trump[c]] or cards
        if any(faces.is_trump[c] for c in trick):
            trumps = [c for c in cards if faces.is_trump[c]]
            beating = [c for c in trumps if _wins(game, state, c)]
            if beating and len(beating) < len(trumps):
                cards = [c for c in cards if not faces.is_trump[c] or c in beating]
    return sorted(cards)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(sorted(RULES)))
def test_the_legal_set_is_what_the_rules_say_in_every_position(games: dict[str, trickrules.Game], seed: int, name: str) -> None:
    game = games[name]
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        assert sorted(state.legal_actions()) == _plain_legal(game, name, state)
        for seat in range(4):  # the void inference never rules out a card a seat holds
            if seat != state.current:
                known = constraints(state, seat)
                for card, places in known.cards:
                    holder = next((p for p in range(4) if card in state.hands[p]), None)
                    if holder is not None and holder != seat:
                        assert known.places.index(("hand", holder)) in places
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_problem_in_a_play_if_able_condition_on_the_trick_is_reported_where_it_is_written() -> None:
    problem = first_problem('follow: [follow_led, {play_if_able: {suit: red, trick: "trick_numbr == 2"}}]\n')
    assert (problem.code, problem.line, problem.column, problem.path) == ("TR141", 17, 57, "$.follow[1].play_if_able.trick")
    assert problem.message.startswith("unknown name 'trick_numbr'; did you mean 'trick_number'?")
