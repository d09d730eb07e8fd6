"""Property tests for teams formed by the deal (`teams: {holders_of: ...}`): generated specs
and the shipped Doppelkopf, played at random, checked after every action: no card gained or
lost, no other hand seen, no hidden partner shown before it plays a partner card, every
observation and tensor the same in a state resampled from the player's knowledge; and at
each round's end the teams are the holders of the partner cards as dealt (read from the deal
in the record), and a zero-sum scoring stays zero-sum whoever holds them."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invariants import check_cards, check_hidden_partners, check_observations
from strategies import as_yaml, scaled
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.record import build_record

ROOT = Path(__file__).resolve().parent.parent
DOPPELKOPF = ROOT / "specs" / "doppelkopf.yaml"


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """A 3- to 5-player spec whose teams are the holders of one or two cards (1 to 3 copies),
    with a reward for catching a card, one on the last trick and a zero-sum score by team."""
    players = draw(st.integers(3, 5))
    ranks = draw(st.integers(3, 5))
    copies = draw(st.integers(1, 3))
    cards = 2 * ranks * copies
    hand = draw(st.integers(1, max(1, min(6, cards // players))))
    held = draw(st.lists(st.sampled_from([f"red-{ranks}", "blue-1", f"blue-{ranks}"]), min_size=1, max_size=2, unique=True))
    return {
        "language": 2,
        "id": "generated",
        "title": "Generated",
        "players": [players],
        "teams": {"holders_of": held if len(held) > 1 or draw(st.booleans()) else held[0]},
        "deck": {"suits": ["red", "blue"], "generate": [{"suits": "all", "ranks": {"from": 1, "to": ranks}, "copies": copies}]},
        "deal": {"hand_size": hand, "dealer": {"first": 0, "rotation": 1}},
        "rounds": draw(st.integers(1, 2)),
        "trumps": draw(st.sampled_from([["red"], "none"])),
        "follow": ["follow_led"],
        "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}, "first_played"],
        "tokens": {"caught": {}, "last": {}},
        "rewards": [
            {"name": "caught", "to": "losers", "when": {"rank": 1, "winner_is_partner": False}, "give": {"token": "caught", "amount": 1}},
            {"name": "last", "to": "winner", "when": {"trick": "last_trick"}, "give": {"token": "last", "amount": 1}},
        ],
        "scoring": {
            "measures": {"caught": {"tokens": "caught"}, "last": {"tokens": "last"}},
            "round": [{"name": "net", "per": "team", "add": "2 * tricks - sum(all_tricks) + sum(all_caught) - 2 * caught + 2 * last - sum(all_last)"}],
        },
    }


def play_checked(game: Game, seed: int) -> tuple[State, int]:
    """Play at random under the checkers; the state and how many other seats' sides were shown."""
    state = game.new_initial_state(seed, record=True)
    chooser = random.Random(seed)
    shown = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[chooser.randrange(len(legal))])
        check_cards(state)
        check_observations(state)
        shown += check_hidden_partners(state, random.Random(len(state.history)))
    return state, shown


def check_teams_and_zero_sum(state: State) -> None:
    """Each round's teams are the holders of the partner cards in the dealt hands, then the
    others; the round's points add up to nothing."""
    record = build_record(state)
    held = set(record["partners"]["holders_of"])
    for round_, result in zip(record["rounds"], state.round_results):
        holders = [p for p, hand in enumerate(round_["hands"]) if held & set(hand)]
        others = [p for p in range(record["players"]) if p not in holders]
        assert round_["teams"] == [team for team in (holders, others) if team]
        if len(round_["teams"]) == 2:
            sizes = {p: len(team) for team in round_["teams"] for p in team}
            assert sum(Fraction(result["points"][p], sizes[p]) for p in range(record["players"])) == 0, result


@given(spec=specs(), seed=st.integers(0, 2**20))
@settings(max_examples=scaled(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_teams_by_the_deal_stay_hidden_and_score_by_the_deal(spec: dict[str, Any], seed: int) -> None:
    game = Game(load_ruleset_text(as_yaml(spec)))
    state, _ = play_checked(game, seed)
    check_teams_and_zero_sum(state)


def test_doppelkopf_hides_the_partner_and_scores_zero_sum() -> None:
    game = Game(load_ruleset_text(DOPPELKOPF.read_text(encoding="utf-8")))
    total_shown = 0
    for seed in range(2):
        state, shown = play_checked(game, seed)
        total_shown += shown
        record = build_record(state)
        assert record["rounds"] and all(len(r["teams"]) == 2 for r in record["rounds"])
        for result in state.round_results:
            assert sum(result["points"]) == 0, result  # a lone holder scores three times
        assert sum(state.totals) == 0
    assert total_shown > 0  # partners were revealed in play, and the checks then read them
