"""Every shipped spec plays to the end with random agents for every allowed player count."""

from __future__ import annotations

import random

import pytest
from helpers import SPECS

import trickrules
from trickrules.engine import round_end

SEEDS = 1000
SHIPPED = sorted(p for p in SPECS.glob("*.yaml") if not p.name.endswith(".examples.yaml"))


def cases():
    for path in SHIPPED:
        for players in trickrules.load_ruleset(path).allowed_players:
            yield pytest.param(path, players, id=f"{path.stem}-{players}p")


@pytest.mark.parametrize("path, players", list(cases()))
def test_random_games_play_to_the_end(path, players):
    game = trickrules.load_game(path, players=players)
    rng = random.Random(players)
    limit = game.info().max_game_length
    rounds = game.info().num_rounds
    for seed in range(SEEDS):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"seed {seed}: no legal action in a live game"
            state.apply_action(legal[int(rng.random() * len(legal))])
        assert len(state.history) <= limit
        if game.ruleset.until is None:
            assert len(state.round_results) == rounds
        else:  # played until the condition held, at most `rounds` rounds
            assert 1 <= len(state.round_results) <= rounds
            assert len(state.round_results) == rounds or game.ruleset.until(round_end.game_env(state))
        assert state.totals == [sum(r["points"][p] for r in state.round_results) for p in range(players)]
        assert state.winners()
