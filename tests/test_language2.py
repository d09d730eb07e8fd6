"""Language 2 in play: rounds of phases, passing, counters, restrictions, expressions, the end
of a game and given deals, through the public state API and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import trickrules
from trickrules.engine import phases
from trickrules.errors import DealError, IllegalActionError
from trickrules.tools.cli import main
from trickrules.tools.record import build_record, replay

ROOT = Path(__file__).resolve().parent.parent
HEARTS = ROOT / "specs" / "hearts.yaml"


def hearts(**options: object) -> trickrules.Game:
    return trickrules.load_game(HEARTS, options={"single_hand": True, **options})


def ids(game: trickrules.Game, cards: list[int]) -> list[str]:
    return [game.card_ids[c] for c in cards]


def a_deal(game: trickrules.Game, seed: int = 3) -> list[list[str]]:
    return [ids(game, h) for h in game.new_initial_state(seed).hands]


def pass_first(state: trickrules.State, game: trickrules.Game) -> dict[int, list[str]]:
    """Every player passes their first three cards; returns what each passed."""
    passed: dict[int, list[str]] = {}
    while state.phase == trickrules.Phase.PASS:
        player = state.current_player()
        action = state.legal_actions()[0]
        passed.setdefault(player, []).append(game.action_to_string(action).split()[1])
        state.apply_action(action)
    return passed


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 3), ("across", 2)])
def test_passed_cards_arrive_after_everyone_has_passed(direction: str, offset: int) -> None:
    game = hearts()
    hands = a_deal(game)
    state = game.new_initial_state(0, deal={"hands": hands, "pass": direction})
    assert state.phase == trickrules.Phase.PASS and state.current_player() == 0
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert game.action_to_string(first).startswith("pass ")
    receiver = offset % 4
    assert game.card_ids[first - game.pass_offset] not in ids(game, state.hands[receiver])  # not yet
    passed = {0: [game.card_ids[first - game.pass_offset]]} | {}
    rest = pass_first(state, game)
    passed[0] += rest.pop(0, [])
    passed.update(rest)
    assert state.phase == trickrules.Phase.PLAY
    for giver, cards in passed.items():
        assert len(cards) == 3
        assert set(cards) <= set(ids(game, state.hands[(giver + offset) % 4]))
        assert not set(cards) & set(ids(game, state.hands[giver]))


def test_no_pass_direction_skips_the_phase() -> None:
    game = hearts()
    state = game.new_initial_state(0, deal={"hands": a_deal(game), "pass": "none"})
    assert state.phase == trickrules.Phase.PLAY
    assert ids(game, state.legal_actions()) == ["clubs-2"]  # its holder leads it


def test_pass_direction_by_round_cycles() -> None:
    game = trickrules.load_game(HEARTS)  # rotate: left, right, across, none
    state = game.new_initial_state(1, record=True)
    directions = []
    while not state.is_terminal() and state.round < 5:
        if state.events:
            directions += [e["direction"] for e in state.events if e["type"] == "pass_direction"]
            state.events.clear()
        state.apply_action(state.legal_actions()[0])
    assert directions[:5] == ["left", "right", "across", "none", "left"]


def test_random_pass_direction_is_seeded_and_varies() -> None:
    game = hearts(pass_direction="random")
    seen = set()
    for seed in range(40):
        one, two = game.new_initial_state(seed, record=True), game.new_initial_state(seed, record=True)
        first = [e for e in (one.events or []) if e["type"] == "pass_direction"]
        assert first == [e for e in (two.events or []) if e["type"] == "pass_direction"]
        seen.add(first[0]["direction"])
    assert seen == {"none", "left", "across", "right"}


def test_a_refused_pass_changes_nothing() -> None:
    game = hearts()
    state = game.new_initial_state(0, deal={"hands": a_deal(game), "pass": "left"})
    before = str(state), list(state.history), state.observation(0)
    not_held = next(c for c in range(52) if c not in state.hands[0])
    for wrong in (game.pass_offset + not_held, not_held, -1, 10**6, 2.0, "pass clubs-2", True):
        with pytest.raises(IllegalActionError):
            state.apply_action(wrong)  # type: ignore[arg-type]
        assert (str(state), list(state.history), state.observation(0)) == before


def test_clone_during_passing_is_independent() -> None:
    game = hearts()
    state = game.new_initial_state(0, deal={"hands": a_deal(game), "pass": "left"})
    state.apply_action(state.legal_actions()[0])
    copy = state.clone()
    pass_first(copy, game)
    assert state.phase == trickrules.Phase.PASS and len(state.hands[0]) == 12
    assert phases.pass_cards.running(state).turn == 1


def test_hearts_broken_counter_and_the_lead_restriction() -> None:
    game = hearts()
    state = game.new_initial_state(0, deal={"hands": a_deal(game), "pass": "none"})
    assert state.counters["broken"] == 0
    while not state.is_terminal():
        if not state.trick and state.phase == trickrules.Phase.PLAY:
            hand = ids(game, state.hands[state.current_player()])
            legal = ids(game, state.legal_actions())
            has_other = any(not c.startswith("hearts") for c in hand)
            if not state.counters["broken"] and has_other and state.tricks_played > 0:
                assert not any(c.startswith("hearts") for c in legal)
        action = state.legal_actions()[-1]
        card = game.card_ids[action]
        state.apply_action(action)
        if card.startswith("hearts") or card == "spades-Q":
            assert state.is_terminal() or state.counters["broken"] == 1


def test_restriction_lifts_when_nothing_else_is_left() -> None:
    game = hearts()
    hands = [
        ["hearts-2", "hearts-3", "hearts-4", "hearts-5", "hearts-6", "hearts-7", "hearts-8", "hearts-9", "hearts-10", "hearts-J", "hearts-Q", "hearts-K", "hearts-A"],
        ["clubs-2", "clubs-3", "clubs-4", "clubs-5", "clubs-6", "clubs-7", "clubs-8", "clubs-9", "clubs-10", "clubs-J", "clubs-Q", "clubs-K", "clubs-A"],
        ["diamonds-2", "diamonds-3", "diamonds-4", "diamonds-5", "diamonds-6", "diamonds-7", "diamonds-8", "diamonds-9", "diamonds-10", "diamonds-J", "diamonds-Q", "diamonds-K", "diamonds-A"],
        ["spades-2", "spades-3", "spades-4", "spades-5", "spades-6", "spades-7", "spades-8", "spades-9", "spades-10", "spades-J", "spades-Q", "spades-K", "spades-A"],
    ]
    state = game.new_initial_state(0, deal={"hands": hands, "pass": "none"})
    state.apply_action(game.card_index("clubs-2"))
    state.apply_action(game.card_index("diamonds-2"))
    state.apply_action(game.card_index("spades-2"))
    # void in clubs, only hearts: no "no hearts on the first trick" restriction can hold
    assert len(state.legal_actions()) == 13


def test_moon_shot_scores_zero_and_26_for_the_others() -> None:
    game = hearts()
    hands = [
        ["hearts-2", "hearts-3", "hearts-4", "hearts-5", "hearts-6", "hearts-7", "hearts-8", "hearts-9", "hearts-10", "hearts-J", "hearts-Q", "hearts-K", "hearts-A"],
        ["clubs-2", "clubs-3", "clubs-4", "clubs-5", "clubs-6", "clubs-7", "clubs-8", "clubs-9", "clubs-10", "clubs-J", "clubs-Q", "clubs-K", "spades-Q"],
        ["diamonds-2", "diamonds-3", "diamonds-4", "diamonds-5", "diamonds-6", "diamonds-7", "diamonds-8", "diamonds-9", "diamonds-10", "diamonds-J", "diamonds-Q", "diamonds-K", "diamonds-A"],
        ["spades-2", "spades-3", "spades-4", "spades-5", "spades-6", "spades-7", "spades-8", "spades-9", "spades-10", "spades-J", "clubs-A", "spades-K", "spades-A"],
    ]
    state = game.new_initial_state(0, deal={"hands": hands, "pass": "none"})
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(max(legal))  # play high: seat 3's clubs-A wins the first trick
    assert sum(state.returns()) in (26.0, 78.0)
    results = state.round_results[-1]
    penalties = [m["penalty"] for m in results["measures"]]
    if 26 in penalties:
        assert results["points"] == [0 if p == 26 else 26 for p in penalties]
    else:
        assert results["points"] == penalties


@pytest.mark.parametrize("options", [{"jd_bonus": True}, {"no_tricks_bonus": True}, {}])
def test_bonus_options_change_the_score(options: dict[str, bool]) -> None:
    game = hearts(**options)
    for seed in range(30):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        result = state.round_results[-1]
        for player, measures in enumerate(result["measures"]):
            moon = max(m["penalty"] for m in result["measures"]) == 26
            base = 0 if measures["penalty"] == 26 else 26 if moon else measures["penalty"]
            base -= 10 * measures["jack"] if options.get("jd_bonus") else 0
            base -= 5 if options.get("no_tricks_bonus") and measures["tricks"] == 0 and not moon else 0
            assert result["points"][player] == base


def test_game_to_100_ends_after_the_round_that_reaches_it() -> None:
    game = trickrules.load_game(HEARTS)
    state = game.new_initial_state(4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    totals = [0] * 4
    for number, result in enumerate(state.round_results):
        totals = [t + p for t, p in zip(totals, result["points"])]
        assert (max(totals) >= 100) == (number == len(state.round_results) - 1)
    assert state.winners() == [p for p, t in enumerate(totals) if t == min(totals)]


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [["clubs-2"]]}, "4 lists"),
        ({"hands": [["nope"] * 13] * 4}, "no card 'nope'"),
        ({"hands": [["clubs-2"] * 13] * 4}, "dealt twice"),
        ({"pass": "left"}, "'hands'"),
        ("left", "a mapping"),
    ],
)
def test_bad_given_deals_are_refused(deal: object, message: str) -> None:
    game = hearts()
    with pytest.raises(DealError, match=message):
        game.new_initial_state(0, deal=deal)


def test_bad_chance_outcome_is_refused() -> None:
    game = hearts()
    with pytest.raises(DealError, match="sideways"):
        game.new_initial_state(0, deal={"hands": a_deal(game), "pass": "sideways"})
    kingdoms = trickrules.load_game(ROOT / "specs" / "kingdoms.yaml", players=4)
    hands = [ids(kingdoms, h) for h in kingdoms.new_initial_state(0).hands]
    with pytest.raises(DealError, match="not a chance outcome"):
        kingdoms.new_initial_state(0, deal={"hands": hands, "pass": "left"})


def test_given_deal_records_replay_and_cli_plays_a_deal_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = hearts()
    deal = {"hands": a_deal(game, 9), "pass": "right"}
    deal_file = tmp_path / "deal.yaml"
    deal_file.write_text(yaml.safe_dump(deal), encoding="utf-8")
    record_file = tmp_path / "game.json"
    assert main(["play", str(HEARTS), "--set", "single_hand=true", "--deal", str(deal_file), "--json", str(record_file)]) == 0
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert record["deals"] == [deal]
    assert record["rounds"][0]["hands"] == deal["hands"]
    assert record["rounds"][0]["pass"]["direction"] == "right"
    assert replay(record, game).verified
    tampered = dict(record, deals=[{"hands": a_deal(game, 10), "pass": "right"}])
    assert not replay(tampered, game).verified
    capsys.readouterr()
    assert main(["play", str(HEARTS), "--set", "single_hand=true", "--deal", str(deal_file)]) == 0
    out = capsys.readouterr().out
    assert "Passing right:" in out and "P0 passes" in out


def test_cli_deal_file_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", str(HEARTS), "--deal", str(tmp_path / "missing.yaml")]) == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("hands: [[clubs-2]]\n", encoding="utf-8")
    assert main(["play", str(HEARTS), "--deal", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "missing.yaml: no such file" in err and "4 lists" in err and "Traceback" not in err


def test_option_cases_pick_the_schedule() -> None:
    rotate = trickrules.load_ruleset(HEARTS)
    chance = trickrules.load_ruleset(HEARTS, options={"pass_direction": "random"})
    rotate_pass = next(s.passing for s in rotate.round if s.passing)
    chance_pass = next(s.passing for s in chance.round if s.passing)
    assert rotate_pass is not None and chance_pass is not None
    assert (rotate_pass.to_names, rotate_pass.to.chance) == (("left", "right", "across", "none"), False)
    assert (chance_pass.to_names, chance_pass.to.chance) == (("none", "left", "across", "right"), True)


def test_language1_specs_keep_the_default_round() -> None:
    for name in ("kingdoms", "meadows"):
        rules = trickrules.load_ruleset(ROOT / "specs" / f"{name}.yaml")
        assert rules.round == () and rules.until is None and not rules.restrictions


def test_record_of_hearts_is_valid(tmp_path: Path) -> None:
    from trickrules.tools.recordschema import record_problems

    game = hearts()
    state = game.new_initial_state(2, record=True)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert record_problems(build_record(state)) == []
