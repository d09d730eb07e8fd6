"""`trickrules tournament`: the seat rotation, the same deal in every rotation, figures that add
up, any number of workers, the JSON, the plot and the command line's errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from trickrules.engine.agents import AGENTS, GreedyAgent
from trickrules.engine.game import load_game
from trickrules.engine.playouts import play_games
from trickrules.tools.cli import main
from trickrules.tools.simulate import SimulationError, simulate
from trickrules.tools.tournament import (
    TournamentResult,
    bradley_terry_elo,
    entrant_labels,
    place_seats,
    rotation_games,
    seatings,
    tournament,
)

ROOT = Path(__file__).parent.parent
SPECS = ROOT / "specs"
KINGDOMS = SPECS / "kingdoms.yaml"
ONE_HAND = {"single_hand": True}


@pytest.fixture(scope="module")
def kingdoms3() -> TournamentResult:
    return tournament(KINGDOMS, ["greedy", "random", "random"], n=6, seed=4, players=4, workers=1)


# ---------------------------------------------------------------- the rotation


def _every_entrant_in_every_seat(rotations: list[tuple[int, ...]], entrants: int) -> None:
    for seat in range(len(rotations[0])):
        assert sorted(r[seat] for r in rotations) == list(range(entrants)), f"seat {seat}: {rotations}"


def test_two_entrants_at_four_seats_alternate() -> None:
    singles = place_seats(load_game(KINGDOMS, players=4).ruleset)
    assert singles == ((0,), (1,), (2,), (3,))
    assert seatings(2, singles) == [(0, 1, 0, 1), (1, 0, 1, 0)]


@pytest.mark.parametrize("entrants", [2, 3, 4])
def test_every_entrant_sits_in_every_seat_once_per_deal(entrants: int) -> None:
    for seed in range(5):
        rotations = seatings(entrants, ((0,), (1,), (2,), (3,)), seed)
        assert len(rotations) == entrants
        _every_entrant_in_every_seat(rotations, entrants)
        a, b, c, d = rotations[0]
        if entrants == 3:  # ABCA, BCAB, CABC on the deal's circle A, B, C
            assert d == a and rotations == [(a, b, c, a), (b, c, a, b), (c, a, b, c)]


def test_three_entrants_follow_each_other_equally_often_over_the_deals() -> None:
    follows: Counter[tuple[int, int]] = Counter()
    for seed in range(200):
        first = seatings(3, ((0,), (1,), (2,)), seed)[0]
        follows.update((first[k], first[(k + 1) % 3]) for k in range(3))
    assert len(follows) == 6 and max(follows.values()) - min(follows.values()) < 40  # 100 each, drawn


@pytest.mark.parametrize("spec", ["spades", "euchre"])
def test_partners_are_the_same_entrant(spec: str) -> None:
    places = place_seats(load_game(SPECS / f"{spec}.yaml").ruleset)
    assert places == ((0, 2), (1, 3))
    assert seatings(2, places) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for entrants in (2, 3, 5):
        rotations = seatings(entrants, places, seed=7)
        _every_entrant_in_every_seat(rotations, entrants)
        assert all(r[0] == r[2] and r[1] == r[3] and r[0] != r[1] for r in rotations)


def test_more_entrants_than_places_meet_in_windows_of_a_circle_drawn_per_deal() -> None:
    places = ((0,), (1,))
    met: Counter[tuple[int, int]] = Counter()
    for seed in range(40):
        rotations = seatings(4, places, seed)
        _every_entrant_in_every_seat(rotations, 4)
        assert rotations == seatings(4, places, seed)  # the circle comes from the seed alone
        met.update(tuple(sorted(r)) for r in rotations)  # type: ignore[misc]
    assert set(met) == set(combinations(range(4), 2))  # over the deals every pair meets


def test_rotations_of_a_deal_get_the_same_cards() -> None:
    game = load_game(SPECS / "hearts.yaml")  # several rounds, a pass, fewest points win
    played = rotation_games(game, ["greedy", "random"], seed=3, record=True)
    deals = [[e for e in state.events or [] if e["type"] == "deal"] for _, state in played]
    assert len(deals[0]) >= 2 and all(d[: len(deals[0])] == deals[0][: len(d)] for d in deals)
    assert played[0][1].history != played[1][1].history  # other agents, other play
    for seating, state in played:  # each is the game simulate plays with that seating and seed
        names = [("greedy", "random")[e] for e in seating]
        (alone,) = play_games(game, 1, 3, names)
        assert alone.history == state.history and alone.totals == state.totals


# ---------------------------------------------------------------- the figures


def test_figures_add_up(kingdoms3: TournamentResult) -> None:
    result = kingdoms3
    assert result.rotations == 3 and result.deals == 6
    assert [e.label for e in result.entrants] == ["greedy", "random", "random#2"]
    assert all(e.games == 18 and e.seat_games == 6 * 4 for e in result.entrants)
    assert sum(e.wins for e in result.entrants) == pytest.approx(18)  # shares of every game's win
    for pair in result.pairs:
        assert pair.a_wins + pair.ties + pair.b_wins == pair.games == 18
        assert pair.score.trials == 6


def test_head_to_head_and_wins_match_games_counted_here() -> None:
    game = load_game(SPECS / "hearts.yaml", options=ONE_HAND)  # fewest points win
    agents = ["greedy", "random", "random"]
    result = tournament(game, agents, n=4, seed=9)
    wins = [Fraction(0)] * 3
    beats: Counter[tuple[int, int]] = Counter()
    for seed in range(9, 13):
        for seating, state in rotation_games(game, agents, seed):
            for seat in state.winners():
                wins[seating[seat]] += Fraction(1, len(state.winners()))
            mean = {e: Fraction(sum(t for s, t in enumerate(state.totals) if seating[s] == e), seating.count(e)) for e in set(seating)}
            for i, j in combinations(range(3), 2):
                beats[i, j] += 2 if mean[i] < mean[j] else 1 if mean[i] == mean[j] else 0
    assert [e.wins for e in result.entrants] == [float(w) for w in wins]
    for pair, (i, j) in zip(result.pairs, combinations(range(3), 2)):
        assert 2 * pair.a_wins + pair.ties == beats[i, j]
    flipped = result.pair("random", "greedy")
    assert (flipped.a_wins, flipped.b_wins) == (result.pairs[0].b_wins, result.pairs[0].a_wins)


def test_greedy_beats_random_at_spades() -> None:
    result = tournament(SPECS / "spades.yaml", ["random", "greedy"], n=30, options=ONE_HAND)
    pair = result.pair("greedy", "random")
    low, _ = pair.score.interval() or (0.0, 0.0)
    assert low > 0.5, pair
    assert result.entrant("greedy").elo > 1600 > 1400 > result.entrant("random").elo
    assert result.entrant("greedy").mean_total.low > result.entrant("random").mean_total.high


@pytest.mark.parametrize(("spec", "options"), [("kingdoms", {}), ("hearts", ONE_HAND), ("spades", ONE_HAND), ("euchre", ONE_HAND)])
def test_a_tiny_tournament_on_each_shipped_spec(spec: str, options: dict[str, object]) -> None:
    result = tournament(spec, ["greedy", "random"], n=3, options=options)
    assert result.spec_id == spec and result.deals == 3
    assert sum(e.wins for e in result.entrants) == pytest.approx(6)
    assert sum(e.elo for e in result.entrants) == pytest.approx(3000)


def test_bradley_terry_elo() -> None:
    assert bradley_terry_elo([[0, 5], [5, 0]], [[0, 10], [10, 0]]) == pytest.approx([1500, 1500])
    strong, weak = bradley_terry_elo([[0, 30], [0, 0]], [[0, 30], [30, 0]])  # every game won: still finite
    assert 1500 < strong < 2500 and strong + weak == pytest.approx(3000)
    # a virtual draw is one game with half a win each: 9.5 of 21 against 11.5
    a, b = bradley_terry_elo([[0, 9], [11, 0]], [[0, 20], [20, 0]])
    assert b - a == pytest.approx(400 * __import__("math").log10(11.5 / 9.5))


def test_entrant_labels_number_repeats() -> None:
    assert entrant_labels(["random", "greedy", "random", "random"]) == ("random", "greedy", "random#2", "random#3")


# ---------------------------------------------------------------- same figures, any workers; JSON


def test_one_and_two_workers_give_identical_figures(kingdoms3: TournamentResult) -> None:
    two = tournament(KINGDOMS, ["greedy", "random", "random"], n=6, seed=4, players=4, workers=2)
    assert two.to_json() == kingdoms3.to_json()
    assert two == kingdoms3


def test_json_is_plain_json_with_every_figure(kingdoms3: TournamentResult) -> None:
    document = kingdoms3.to_json()
    assert json.loads(json.dumps(document, allow_nan=False)) == document
    assert set(document) >= {"spec", "id", "players", "deals", "seeds", "games", "better", "entrants", "agents", "scheme", "results", "head_to_head", "elo", "tie_rule"}
    assert document["seeds"] == [4, 9] and document["games"] == 18
    first = document["scheme"]["first_deal"]
    assert len(first) == 3 and all(seats[0] == seats[3] for seats in first) and document["scheme"]["circle"] == "drawn per deal"
    assert set(document["results"][0]) == {"entrant", "agent", "games", "seat_games", "wins", "win_rate", "mean_total", "elo"}
    assert set(document["results"][0]["mean_total"]) == {"deals", "mean", "sd", "ci95"}
    assert set(document["head_to_head"][0]) == {"a", "b", "games", "a_wins", "ties", "b_wins", "deals", "score"}
    assert len(document["head_to_head"]) == 3


def test_any_agent_make_agent_knows_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(AGENTS, "cautious", GreedyAgent)  # as an agent from another module would be
    result = tournament(KINGDOMS, ["cautious", "random"], n=2, workers=1)
    assert result.entrants[0].agent == "cautious"
    assert simulate(KINGDOMS, n=2, agents="cautious").agents == ("cautious",) * 4


def test_importing_trickrules_does_not_import_ray() -> None:
    code = "import sys, trickrules, trickrules.tools.tournament, trickrules.tools.cli; print('ray' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.strip() == "False", run.stderr


# ---------------------------------------------------------------- errors and the command line


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"agents": ["greedy"]}, "at least two entrants"),
        ({"agents": ["greedy", "perfect"]}, "unknown agent 'perfect'"),
        ({"n": 0}, "number of deals"),
        ({"workers": 0}, "workers"),
        ({"backend": "spark"}, "unknown backend"),
        ({"address": "auto"}, "ray backend only"),
    ],
)
def test_bad_input_raises_a_simulation_error(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        tournament(KINGDOMS, **{"agents": ["greedy", "random"], "n": 2, **arguments})  # type: ignore[arg-type]


def test_cli_prints_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "euchre", "--set", "single_hand=true", "--agents", "greedy,random", "-n", "4", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert "4 deals" in out and "8 games" in out and "Elo" in out and "greedy vs random" in out
    assert "Seats by rotation: greedy,random,greedy,random | random,greedy,random,greedy" in out
    assert "4 deals, 8 games in" in err and "\r" not in err


def test_cli_writes_json_and_a_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target, picture = tmp_path / "t.json", tmp_path / "t.png"
    arguments = ["tournament", str(KINGDOMS), "--agents", "greedy,random", "-n", "2", "--workers", "1", "--json", str(target), "--plot", str(picture)]
    assert main(arguments) == 0
    document = json.loads(target.read_text("utf-8"))
    assert document["format"] == "trickrules-tournament" and document["result"]["deals"] == 2
    assert picture.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--agents", "greedy,perfect"], "unknown agent 'perfect'"),
        (["--agents", "greedy", "-n", "2"], "two or more"),
        (["--agents", "greedy,random", "-n", "0"], "number of deals must be at least 1"),
        (["--agents", "greedy,random", "--address", "auto"], "--backend ray only"),
        (["--agents", "greedy,random", "--set", "rounds=many"], "rounds"),
    ],
)
def test_cli_bad_input_exits_2_with_a_message(arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", str(KINGDOMS), "--workers", "1", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_without_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    for command in (["tournament", str(KINGDOMS), "--agents", "greedy,random"], ["simulate", str(KINGDOMS)]):
        assert main([*command, "-n", "2", "--backend", "ray"]) == 2
        assert "pip install 'trickrules[ray]'" in capsys.readouterr().err


def test_cli_plot_without_matplotlib_exits_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["tournament", str(KINGDOMS), "--agents", "greedy,random", "-n", "2", "--plot", str(tmp_path / "t.png")]) == 2
    assert "pip install trickrules[plot]" in capsys.readouterr().err
