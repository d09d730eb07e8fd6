"""`trickrules simulate`: figures that add up, any number of workers, comparisons, the CLI."""

from __future__ import annotations

import io
import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from trickrules.engine.agents import make_agent
from trickrules.tools.cli import main
from trickrules.errors import SpecError
from trickrules.engine.game import load_game
from trickrules.tools.record import play_game
from trickrules.rules.scoring import SECTION_CASES
from trickrules.engine.state import State
from trickrules.tools.report import ProgressBar
from trickrules.tools.simulate import RuleFigures, SimulationError, SimulationResult, compare, simulate
from trickrules.tools.stats import Proportion, Sample, two_proportion_test, welch_test

SPECS = Path(__file__).parent.parent / "specs"
KINGDOMS = SPECS / "kingdoms.yaml"
MEADOWS = SPECS / "meadows.yaml"

# The four rewards of kingdoms.yaml, repeated by the overlays below (a list is replaced whole).
KINGDOMS_REWARDS = """\
rewards:
  - name: winning card
    to: winner
    give:
      token: peasant
      amount: {by_rank: {3: 2, 4: 2, 5: 2, 6: 1, 7: 1}, default: 0}
  - name: losing 1, same colour
    to: losers
    when: {rank: 1, same_suit_as_winner: true}
    give: {token: peasant, amount: 1}
  - name: losing 1, other colour
    to: losers
    when: {rank: 1, same_suit_as_winner: false}
    give: {token: peasant, amount: 2}
  - name: losing 2, other colour
    to: losers
    when: {rank: 2, same_suit_as_winner: false}
    give: {token: peasant, amount: 1}
"""


def _overlay(tmp_path: Path, name: str, extra_reward: str) -> Path:
    path = tmp_path / name
    path.write_text(f"extends: kingdoms\n{KINGDOMS_REWARDS}  - {extra_reward}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def kingdoms60() -> SimulationResult:
    return simulate(KINGDOMS, n=60, players=4, seed=5, workers=1)


def _played(spec: Path, seeds: range, agents: list[str], options: dict[str, object] | None = None) -> list[State]:
    """Games played here, independently of simulate, with its seed rule."""
    game = load_game(spec, players=len(agents), options=options)
    return [play_game(game, s, [make_agent(a, s * 1000 + k) for k, a in enumerate(agents)]) for s in seeds]


def _rate(won: Proportion) -> float:
    assert won.rate is not None
    return won.rate


def _rule(result: SimulationResult, kind: str, name: str) -> RuleFigures:
    figures = result.rule(kind, name)
    assert figures is not None, f"no {kind} {name!r}"
    return figures


# ---------------------------------------------------------------- same figures, any workers


def test_one_and_two_workers_give_identical_figures(kingdoms60: SimulationResult) -> None:
    two = simulate(KINGDOMS, n=60, players=4, seed=5, workers=2)
    assert two.to_json() == kingdoms60.to_json()
    assert two == kingdoms60


def test_three_workers_on_meadows_with_mixed_agents_match_one() -> None:
    settings: dict[str, Any] = dict(n=24, players=3, agents=("greedy", "random", "random"), seed=11, options={"trumps": "blue"})
    assert simulate(MEADOWS, workers=3, **settings).to_json() == simulate(MEADOWS, workers=1, **settings).to_json()


def test_json_is_plain_json(kingdoms60: SimulationResult) -> None:
    document = kingdoms60.to_json()
    assert json.loads(json.dumps(document, allow_nan=False)) == document
    assert document["seeds"] == [5, 64]


# ---------------------------------------------------------------- figures that add up


def test_win_rates_add_up_to_one_with_shared_wins_split(kingdoms60: SimulationResult) -> None:
    result = kingdoms60
    assert math.isclose(sum(_rate(seat.wins) for seat in result.seats), 1.0)
    states = _played(KINGDOMS, range(5, 65), ["random"] * 4)
    expected = [sum(1 / len(s.winners()) for s in states if seat in s.winners()) for seat in range(4)]
    assert [seat.wins.successes for seat in result.seats] == pytest.approx(expected)
    assert result.shared_games == sum(len(s.winners()) > 1 for s in states)


def test_trick_wins_over_cards_and_ranks_equal_the_tricks(kingdoms60: SimulationResult) -> None:
    result = kingdoms60
    tricks = result.tricks.total
    assert tricks == 60 * 4 * 10
    assert sum(won.successes for _, won in result.cards) == tricks
    assert sum(won.trials for _, won in result.cards) == tricks * 4
    assert sum(won.successes for _, won in result.ranks) == tricks
    ranks = dict(result.ranks)
    assert _rate(ranks[8]) > _rate(ranks[4]) > _rate(ranks[0])


def test_figures_match_games_counted_here() -> None:
    agents = ["greedy", "random", "random", "random"]
    result = simulate(KINGDOMS, n=8, players=4, seed=100, agents=agents)
    states = _played(KINGDOMS, range(100, 108), agents)
    for seat in range(4):
        assert result.seats[seat].score_counts == dict(Counter(s.totals[seat] for s in states))
    decisions = [len(s.history) for s in states]
    assert (result.decisions.total, result.decisions.minimum, result.decisions.maximum) == (sum(decisions), min(decisions), max(decisions))
    tricks = [e for s in states for e in s.events or [] if e["type"] == "trick"]
    won = Counter(e["cards"][e["players"].index(e["winner"])] for e in tricks)
    played = Counter(card for e in tricks for card in e["cards"])
    ids = load_game(KINGDOMS, players=4).card_ids
    assert {card: (p.successes, p.trials) for card, p in result.cards} == {ids[c]: (won[c], played[c]) for c in range(len(ids))}
    rounds = [r for s in states for r in s.round_results]
    nonzero = sum(points["kingdom"] != 0 for r in rounds for points in r["rules"])
    assert _rule(result, "round rule", "kingdom").fired.total == nonzero < 8 * 4 * 4
    cases = Counter(row["case"] for r in rounds for rows in r["sections"] for row in rows)
    assert {r.name: r.fired.total for r in result.rules if r.kind == "section"} == {c: cases[c] for c in SECTION_CASES}


def test_reward_firings_match_events_counted_here() -> None:
    agents = ["random", "random", "random", "random"]
    result = simulate(KINGDOMS, n=60, players=4, seed=100, agents=agents)
    states = _played(KINGDOMS, range(100, 160), agents)
    events = [e for s in states for e in s.events or [] if e["type"] == "reward"]
    assert any(e["taken"] < e["amount"] for e in events)  # some tableau runs out of spaces
    for index, reward in enumerate(load_game(KINGDOMS, players=4).ruleset.rewards):
        mine = [e for e in events if e["reward"] == index]
        figures = _rule(result, "reward", reward.name)
        assert figures.fired.total == len(mine) > 0
        assert dict(figures.amounts)["asked"].total == sum(e["amount"] for e in mine)
        assert dict(figures.amounts)["taken"].total == sum(e["taken"] for e in mine)
    peasants = dict(_rule(result, "token", "peasant").amounts)
    assert peasants["taken"].total == sum(e["taken"] for e in events) < peasants["asked"].total


def test_section_cases_and_round_rules_count_every_section(kingdoms60: SimulationResult) -> None:
    result = kingdoms60
    cases = [r for r in result.rules if r.kind == "section"]
    assert [r.name for r in cases] == ["cards_staffed", "cards_understaffed", "empty_staffed", "empty_understaffed"]
    assert sum(r.fired.total for r in cases) == 60 * 4 * 4 * 5  # games x rounds x players x sections
    kingdom = _rule(result, "round rule", "kingdom")
    assert sum(seat.scores.total for seat in result.seats) == dict(kingdom.amounts)["points"].total


def test_a_reward_that_cannot_fire_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = _overlay(tmp_path, "never.yaml", '{name: "impossible", to: winner, when: {same_suit_as_winner: false}, give: {token: peasant, amount: 1}}')
    result = simulate(spec, n=10, players=4)
    assert _rule(result, "reward", "impossible").never_fired
    assert not _rule(result, "reward", "winning card").never_fired
    assert main(["simulate", str(spec), "-n", "10", "--workers", "1"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "impossible" in line)
    assert line.split()[1:3] == ["0", "0.00"] and line.endswith("never fired")


# ---------------------------------------------------------------- statistics


def test_wilson_interval_known_values() -> None:
    assert Proportion(0, 10).interval() == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert Proportion(5, 10).interval() == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert Proportion(0, 0).interval() is None


def test_two_proportion_and_welch_tests() -> None:
    test = two_proportion_test(Proportion(50, 100), Proportion(60, 100))
    assert (test.difference, test.statistic, test.p) == pytest.approx((0.1, 1.4213, 0.1552), abs=1e-4)
    a = Sample(n=4, total=10, total_sq=30, minimum=1, maximum=4)  # 1, 2, 3, 4
    b = Sample(n=4, total=14, total_sq=54, minimum=2, maximum=5)  # 2, 3, 4, 5: t = 1 / sqrt(2 * 5/12)
    welch = welch_test(a, b)
    assert welch.statistic == pytest.approx(1 / math.sqrt(10 / 12))
    assert not welch.significant()
    assert welch_test(Sample.zeros(5), Sample(5, 5, 5, 1, 1)).p == 0.0


# ---------------------------------------------------------------- comparing


def test_compare_flags_a_reward_that_gives_more_peasants(tmp_path: Path) -> None:
    overlay = _overlay(tmp_path, "zero.yaml", '{name: "losing 0", to: losers, when: {rank: 0}, give: {token: peasant, amount: 1}}')
    a = simulate(KINGDOMS, n=300, players=4, workers=2)
    b = simulate(overlay, n=300, players=4, workers=2)
    comparison = compare(a, b)
    taken = comparison.row("token", "peasant", "taken")
    assert taken is not None and taken.significant() and taken.test.p < 0.001
    assert taken.test.difference > 10
    new = comparison.row("reward", "losing 0", "fired")
    assert new is not None and new.a == 0 and new.b is not None and new.b > 0 and new.significant()
    unchanged = comparison.row("length", "tricks", "per game")
    assert unchanged is not None and not unchanged.significant()
    assert json.loads(json.dumps(comparison.to_json()))["rows"][0]["group"] == "seat"


def test_compare_of_a_spec_with_itself_finds_nothing(kingdoms60: SimulationResult) -> None:
    comparison = compare(kingdoms60, kingdoms60)
    assert comparison.significant() == ()
    assert all(row.test.difference == 0 for row in comparison.rows)


# ---------------------------------------------------------------- input and the CLI


@pytest.mark.parametrize(
    "arguments",
    [{"agents": "perfect"}, {"agents": ("random", "greedy")}, {"n": 0}, {"workers": 0}],
)
def test_bad_input_raises_a_simulation_error(arguments: dict[str, Any]) -> None:
    with pytest.raises(SimulationError):
        simulate(KINGDOMS, **{"n": 2, **arguments})


def test_bad_spec_raises_spec_error(tmp_path: Path) -> None:
    with pytest.raises(SpecError):
        simulate(tmp_path / "missing.yaml", n=2)


def test_progress_reaches_the_end() -> None:
    calls: list[tuple[int, int]] = []
    simulate(KINGDOMS, n=30, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (30, 30) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_progress_bar_redraws_in_place_and_ends_the_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar("kingdoms", stream)
    bar(50, 200)
    bar(200, 200)
    text = stream.getvalue()
    assert text.startswith("\rkingdoms [") and "50/200 games" in text and text.endswith("done   \n")
    assert text.count("\r") == 2


def test_cli_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(KINGDOMS), "-n", "20", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert "\r" not in err  # no progress bar when stderr is not a terminal
    assert "20 games" in out and "win rate" in out and "95% CI" in out
    assert "shared win counts 1/k" in out
    assert "winning card" in out and "cards_understaffed" in out and "kingdom" in out
    assert "green-8" in out and "Trick wins by rank" in out
    seat_lines = [line for line in out.splitlines() if line.startswith("P")]
    assert len(seat_lines) == 4


def test_cli_bad_agent_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(KINGDOMS), "-n", "5", "--agents", "perfect"]) == 2
    assert "unknown agent 'perfect'" in capsys.readouterr().err


@pytest.mark.parametrize("arguments", [["-n", "0"], ["--workers", "0"], ["--set", "rounds=many"], ["--compare", "missing.yaml"]])
def test_cli_bad_input_exits_2(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(KINGDOMS), "-n", "2", "--workers", "1", *arguments]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_json_with_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overlay = _overlay(tmp_path, "zero.yaml", '{name: "losing 0", to: losers, when: {rank: 0}, give: {token: peasant, amount: 1}}')
    target = tmp_path / "out.json"
    assert main(["simulate", str(KINGDOMS), "-n", "20", "--workers", "1", "--compare", str(overlay), "--json", str(target)]) == 0
    document = json.loads(target.read_text("utf-8"))
    assert document["result"]["games"] == document["other"]["games"] == 20
    rows = {(r["group"], r["name"], r["measure"]): r for r in document["comparison"]["rows"]}
    assert rows["reward", "losing 0", "fired"]["significant"]
    assert "B - A" in capsys.readouterr().out


def test_cli_plot_without_matplotlib_exits_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    assert main(["simulate", str(KINGDOMS), "-n", "2", "--plot", str(tmp_path / "s.png")]) == 2
    assert "pip install trickrules[plot]" in capsys.readouterr().err


def test_cli_plot_writes_a_png(tmp_path: Path) -> None:
    target = tmp_path / "scores.png"
    assert main(["simulate", str(KINGDOMS), "-n", "10", "--workers", "1", "--plot", str(target)]) == 0
    assert target.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(("spec", "option", "table"), [("spades", "single_hand=true", True), ("skat-standard", "deals=1", False)])
def test_the_contracts_table_reads_bids_of_tricks_only(spec: str, option: str, table: bool, capsys: pytest.CaptureFixture[str]) -> None:
    """Spades bids tricks, so its sides' contracts are made or missed by tricks taken; Skat
    bids game values by precedence, which no trick count makes or misses."""
    assert main(["simulate", str(SPECS / f"{spec}.yaml"), "-n", "4", "--workers", "1", "--set", option]) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("contracts") and "made" in line for line in out.splitlines()) == table
