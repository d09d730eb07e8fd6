"""One rule for a team's values: a per-team scoring rule (and a team counter's round-end
amount) reads every per-player value summed over the team's seats, measures and per-player
counters alike; the sides `declarer: alone` makes are teams in the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from trickrules.engine.agents import RandomAgent
from trickrules.engine.game import Game
from trickrules.spec.checks import load_spec_text
from trickrules.spec.compiler import compile_ruleset
from trickrules.tools.record import play_game

TEAM_SPEC = """
id: team-values
title: Team values
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [clubs, diamonds, hearts, spades]
  generate:
    - {suits: all, ranks: {from: 1, to: 6}}
deal: {hand_size: 6}
rounds: 1
follow: [follow_led]
ranking:
  - prefer: led
  - highest: rank
counters:
  hearts_played:
    scope: player
    on_play: {card: {suit: hearts}, add: 1}
  team_hearts:
    scope: team
    on_round_end: hearts_played
scoring:
  round:
    - {name: team tricks, per: team, add: "100 * tricks"}
    - {name: team hearts, per: team, add: "10 * hearts_played"}
    - {name: own hearts, add: hearts_played}
  game:
    winner: most_points
"""


def _game(text: str) -> Game:
    return Game(compile_ruleset(load_spec_text(text, "team-values.yaml")))


def _finish(game: Game, seed: int) -> Any:
    return play_game(game, seed, [RandomAgent(seed * 10 + s) for s in range(game.num_players)])


def test_a_team_rule_sums_a_player_counter_over_the_team_as_it_sums_measures() -> None:
    game = _game(TEAM_SPEC)
    both_partners = 0
    for seed in range(20):
        state = _finish(game, seed)
        result = state.round_results[0]
        hearts = list(state.counters["hearts_played"])  # each player's own, as the round ended
        assert [result["rules"][p]["own hearts"] for p in range(4)] == hearts
        tricks = [result["measures"][p]["tricks"] for p in range(4)]
        for team in ((0, 2), (1, 3)):
            team_hearts = sum(hearts[p] for p in team)
            assert result["rules"][team[0]]["team tricks"] == 100 * sum(tricks[p] for p in team)
            assert result["rules"][team[0]]["team hearts"] == 10 * team_hearts
            for p in team:  # partners pool their points
                assert result["points"][p] == 100 * sum(tricks[q] for q in team) + 11 * team_hearts
        assert list(state.counters["team_hearts"]) == [hearts[0] + hearts[2], hearts[1] + hearts[3]]
        both_partners += hearts[0] > 0 and hearts[2] > 0
    assert both_partners  # a first-seat reading of the counter would differ here



SKAT = Path(__file__).resolve().parent.parent / "examples" / "skat-lite.yaml"


def _skat_with(rules: list[dict[str, Any]]) -> Game:
    """skat-lite (three players, every contract `declarer: alone`) with `rules` as the round
    rules of every contract."""
    data = yaml.safe_load(SKAT.read_text("utf-8"))
    for contract in data["contracts"].values():
        contract["scoring"] = {"round": rules}
    return _game(yaml.safe_dump(data, sort_keys=False))


def test_declarer_alone_pools_the_defenders_points() -> None:
    game = _skat_with([
        {"name": "each defender", "add": "0 if makers else -1"},
        {"name": "the defenders", "per": "team", "add": "0 if makers else -10"},
        {"name": "declarer", "add": "5 if makers else 0"},
    ])  # fmt: skip
    seen = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        agents = [RandomAgent(seed * 10 + s) for s in range(3)]
        while not state.is_terminal():
            before = state.round
            state.apply_action(agents[state.current_player()].step(state))
            if state.round != before:
                result = state.round_results[-1]
                declarer = next((p for p in range(3) if result["rules"][p].get("declarer") == 5), None)
                if declarer is None:
                    continue  # nobody declared: the round was scored unplayed
                defenders = [p for p in range(3) if p != declarer]
                assert result["points"][declarer] == 5
                # each defender: -1 from each of the two defenders' own rule, -10 once from the side's rule
                assert [result["points"][p] for p in defenders] == [-12, -12], result
                seen += 1
    assert seen


def test_the_rulebook_states_both_rules() -> None:
    from trickrules.tools.rulebook import rulebook_markdown

    book = rulebook_markdown(_game(TEAM_SPEC).ruleset)
    assert "each team scores `10 * hearts_played`, with its members' measures, bids and **hearts_played** added up." in book
    assert "each team scores `100 * tricks`, with its members' measures and bids added up." in book
    skat = rulebook_markdown(_skat_with([{"name": "declarer", "add": "0"}, {"name": "side", "per": "team", "add": "0"}]).ruleset)
    assert "who play as one side for the round (whatever the partnerships): the defenders' points of the round are added up" in skat
    assert "A rule scored for each team is scored once for the declarer and once for the defenders" in skat
