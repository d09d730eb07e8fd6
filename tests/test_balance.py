"""Balance measures: lead changes, comebacks, drama, when a game is decided, seat fairness."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickrules
from trickrules.engine.playouts import play_out, seat_agents, width
from trickrules.tools.balance import BALANCE, _choices, _figures, balance_values, branching_by_trick, by_trick_values, chi_square_p, seat_fairness
from trickrules.tools.simulate import compare, simulate
from trickrules.spec.shipped import shipped_specs

CARDSTOCK = Path(__file__).resolve().parent.parent / "examples" / "hearts-cardstock.yaml"


def test_a_leader_all_along_changes_nothing_and_decides_at_once() -> None:
    # totals by side after each round (higher is better); side 0 wins
    assert _figures([[3, 1], [5, 2], [9, 4]], [0]) == (0, 0, 0, 0)


def test_a_comeback_counts_its_lead_changes_drama_and_when_it_was_decided() -> None:
    history = [[1, 5, 3], [4, 6, 2], [8, 7, 0], [12, 7, 1]]  # side 0 behind, then ahead for good
    changes, comeback, drama, decided = _figures(history, [0])
    assert changes == 1  # side 1 alone in the lead, then side 0
    assert comeback == 1
    # deficits before the last round: (5-1)/(5-1) = 1, (6-4)/(6-2) = 0.5, 0 -> mean 0.5
    assert drama == 50
    assert decided == 50  # led from the third of four rounds: two rounds played before


def test_a_tie_for_the_lead_is_no_change_of_the_lead() -> None:
    assert _figures([[2, 1], [3, 3], [4, 3]], [0])[0] == 0
    assert _figures([[2, 1], [3, 3], [3, 4]], [1])[0] == 1


def test_a_winner_tied_for_the_lead_is_not_trailing() -> None:
    assert _figures([[3, 3], [5, 4]], [0])[1:] == (0, 0, 0)


@pytest.mark.parametrize(("statistic", "df", "p"), [(3.70, 3, 0.296), (7.815, 3, 0.05), (3.841, 1, 0.05), (11.07, 5, 0.05), (0.0, 2, 1.0)])
def test_the_chi_square_tail_is_within_a_hundredth_of_the_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_p(statistic, df) == pytest.approx(p, abs=0.01)


def test_even_wins_are_fair_and_lopsided_ones_are_not() -> None:
    even = seat_fairness(["P0", "P1", "P2", "P3"], [25, 26, 24, 25], 100)
    lopsided = seat_fairness(["P0", "P1", "P2", "P3"], [40, 20, 20, 20], 100)
    assert even is not None and lopsided is not None
    assert even.p > 0.9 and lopsided.p < 0.01
    assert lopsided.gap == pytest.approx(0.2)
    assert seat_fairness(["P0+P2"], [10], 10) is None


@pytest.mark.parametrize("name", [s.name for s in shipped_specs()])
def test_the_figures_of_random_games_lie_in_their_ranges(name: str) -> None:
    game = trickrules.load_game(name)
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
        values = dict(zip((name for name, _ in BALANCE), balance_values(state).values()))
        assert values["rounds"] == len(state.round_results) >= 1
        assert 0 <= values["lead changes"] <= values["rounds"] - 1
        assert values["comeback"] in (0, 1) and (values["comeback"] == 0 or values["rounds"] > 1)
        assert 0 <= values["drama"] <= 100 and 0 <= values["decided"] < 100
        assert (values["drama"] > 0) <= values["comeback"]


def test_simulate_reports_the_balance_and_compare_tests_it() -> None:
    short = simulate("hearts", n=30, workers=1, options={"single_hand": True})
    long = simulate("hearts", n=30, workers=1)
    figures = dict(long.balance)
    assert figures["rounds"].mean > dict(short.balance)["rounds"].mean
    assert long.fairness is not None and len(long.fairness.rates) == 4
    assert long.to_json()["balance"]["rounds"]["mean"] == figures["rounds"].mean
    row = compare(short, long).row("balance", "rounds", "per game")
    assert row is not None and row.significant()


def test_choices_are_the_mean_legal_actions_of_every_decision_lead_and_follow() -> None:
    bid, lead, follow = 3 * 512, 9 * 512 + 1 * 2, 2 * 512 + 1 * 2 + 1  # a bid of 3 options; trick 1
    assert _choices([bid, lead, follow, follow]) == (400, 900, 200)  # (3 + 9 + 2 + 2) / 4 = 4
    values = by_trick_values([bid, lead, follow, 7 * 512 + 2 * 2], 13)
    assert values["by trick", "1", "lead options"] == 9 and values["by trick", "1", "follow decisions"] == 1
    assert values["by trick", "2", "lead decisions"] == 1 and values["by trick", "3", "lead decisions"] == 0
    assert branching_by_trick(lambda key: values[key], 13) == ((1, 9.0, 2.0), (2, 7.0, None))


@pytest.mark.parametrize("name", [s.name for s in shipped_specs()])
def test_play_out_counts_each_decisions_legal_actions_and_place(name: str) -> None:
    game = trickrules.load_game(name)
    widths: list[int] = []
    replay = game.new_initial_state(5)
    state = play_out(game.new_initial_state(5), seat_agents(["random"] * game.num_players, 5), widths)
    assert len(widths) == len(state.history)
    for action, packed in zip(state.history, widths):
        assert packed == width(replay) and packed >> 9 == len(replay.legal_actions()) >= 1
        replay.apply_action(action)
    assert any(w & 511 for w in widths)  # every spec plays cards


def test_hearts_choices_narrow_by_trick_from_the_forced_two_of_clubs_to_one_card() -> None:
    rows = simulate("hearts", n=20, workers=1, options={"single_hand": True}).by_trick
    assert [t for t, _, _ in rows] == list(range(1, 14))
    assert rows[0][1] == 1.0  # the two of clubs leads the first trick
    assert rows[-1][1:] == (1.0, 1.0)  # one card left at the last trick
    for t, lead, follow in rows:
        assert lead is not None and follow is not None and 1 <= follow and lead <= 14 - t


def test_cardstocks_hearts_leads_many_cards_early_and_follows_few() -> None:
    # the direction of CardStock's Hearts figure (docs: Measure the balance of a design)
    result = simulate(str(CARDSTOCK), n=200, workers=1)
    rows, figures = result.by_trick, dict(result.balance)
    assert rows[0][1] is not None and rows[0][1] > 9  # any non-heart: about 9.75 of 13
    leads = [lead for _, lead, _ in rows]
    assert leads == sorted(leads, reverse=True)  # the leader's choices fall trick by trick
    assert all(follow is not None and 2.5 < follow < 4 for _, _, follow in rows[:10])  # followers' stay near 3
    assert figures["lead choices"].mean > figures["follow choices"].mean > 1
