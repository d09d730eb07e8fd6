"""ISMCTS on every shipped spec: decisions and resamples per second, and strength by budget.

    python benchmarks/bench_ismcts.py                       # every spec, a few minutes
    python benchmarks/bench_ismcts.py --specs hearts,euchre --games 48 --budgets 25,100,400
    python benchmarks/bench_ismcts.py --whole-games         # the specs' whole games

Strength is measured seat-rotated and duplicate: game k (seed ``seed + k``) seats ISMCTS in
seat ``k mod players`` and the baseline agent in the others, then plays the same deal again
with the baseline in that seat too; the figure is the mean difference of that seat's return
(ISMCTS minus the baseline; for a game won by the fewest points, the baseline minus ISMCTS, so
that above 0 is always better) with its standard error, and each one's win rate (best total,
ties shared). By default one hand (or one round) a game, where a spec has the option, so that
a few dozen games take minutes: ``--whole-games`` plays the specs' own lengths.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import trickrules
from trickrules.engine.agents import Agent, make_agent
from trickrules.engine.ismcts import ISMCTSAgent
from trickrules.engine.playouts import play_out

SPECS = Path(__file__).resolve().parent.parent / "specs"
ONE_HAND: dict[str, dict[str, object]] = {
    "euchre": {"single_hand": True},
    "hearts": {"single_hand": True},
    "spades": {"single_hand": True},
    "oh-hell": {"single_hand": True, "hand_size": "random"},
    "kingdoms": {"rounds": 1},
    "meadows": {"rounds": 1},
}
"""The options of a one-hand game of each shipped spec (oh-hell: a hand of random size)."""


class _Timed(ISMCTSAgent):
    """ISMCTS that keeps the time its decisions took."""

    def __init__(self, seed: int, iterations: int) -> None:
        super().__init__(seed, iterations=iterations)
        self.decisions = 0
        self.seconds_spent = 0.0

    def step(self, state: trickrules.State) -> int:
        started = time.perf_counter()
        action = super().step(state)
        if len(state.legal_actions()) > 1:  # a single legal action is no search
            self.decisions += 1
            self.seconds_spent += time.perf_counter() - started
        return action


def _game(name: str, whole: bool) -> trickrules.Game:
    return trickrules.load_game(SPECS / f"{name}.yaml", options=None if whole else ONE_HAND.get(name))


def resamples_per_second(game: trickrules.Game, seconds: float = 1.0) -> float:
    """Resamples of random states of the first round, for the player to move, per second."""
    states = []
    rng = random.Random(0)
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and state.round == 0:
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = states[count % len(states)]
        state.resample_from_infostate(state.current_player(), rng)
        count += 1
    return count / (time.perf_counter() - started)


def decisions_per_second(game: trickrules.Game, iterations: int, games: int = 2) -> float:
    """ISMCTS decisions (with a choice) per second at `iterations`, every seat searching."""
    spent, decisions = 0.0, 0
    for seed in range(games):
        agents = [_Timed(seed * 10 + k, iterations) for k in range(game.num_players)]
        play_out(game.new_initial_state(seed), agents)
        spent += sum(a.seconds_spent for a in agents)
        decisions += sum(a.decisions for a in agents)
    return decisions / spent if spent else 0.0


def _seat_return(game: trickrules.Game, seed: int, seat: int, agent: Agent, baseline: str) -> tuple[float, float]:
    agents = [make_agent(baseline, seed * 1000 + k) for k in range(game.num_players)]
    agents[seat] = agent
    totals = play_out(game.new_initial_state(seed), agents).returns()
    best = max(totals) if game.ruleset.scoring.winner == "most_points" else min(totals)
    winners = totals.count(best)
    return totals[seat], (1.0 / winners if totals[seat] == best else 0.0)


def strength(game: trickrules.Game, iterations: int, baseline: str, games: int, seed: int) -> tuple[float, float, float, float]:
    """Mean return difference of ISMCTS over `baseline` in the same seat and deal (above 0:
    better), its standard error, and each one's win rate."""
    sign = 1.0 if game.ruleset.scoring.winner == "most_points" else -1.0
    differences, wins, base_wins = [], [], []
    for k in range(games):
        number, seat = seed + k, k % game.num_players
        searched, won = _seat_return(game, number, seat, ISMCTSAgent(number, iterations=iterations), baseline)
        plain, base_won = _seat_return(game, number, seat, make_agent(baseline, number * 1000 + seat), baseline)
        differences.append(sign * (searched - plain))
        wins.append(won)
        base_wins.append(base_won)
    error = statistics.stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0.0
    return statistics.mean(differences), error, statistics.mean(wins), statistics.mean(base_wins)


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", default=",".join(sorted(ONE_HAND)), help="shipped specs, comma-separated (default: all)")
    parser.add_argument("--games", type=int, default=24, help="games per budget and baseline (default 24)")
    parser.add_argument("--budgets", default="25,100,400", help="ISMCTS iterations to measure strength at (default 25,100,400)")
    parser.add_argument("--speed-budget", type=int, default=200, help="iterations for decisions per second (default 200)")
    parser.add_argument("--against", default="greedy,random", help="baseline agents, comma-separated (default greedy,random)")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first game (default 1000)")
    parser.add_argument("--whole-games", action="store_true", help="play each spec's whole game, not one hand")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in _names(args.budgets)]
    print(f"{'whole games' if args.whole_games else 'one hand a game'}, {args.games} games per figure, seeds from {args.seed}")
    for name in _names(args.specs):
        game = _game(name, args.whole_games)
        resampled = resamples_per_second(game)
        deciding = decisions_per_second(game, args.speed_budget)
        print(f"{name} ({game.num_players} players): {resampled:,.0f} resamples/s, "
              f"{deciding:.1f} decisions/s at {args.speed_budget} iterations", flush=True)
        for baseline in _names(args.against):
            for iterations in budgets:
                started = time.perf_counter()
                mean, error, won, base_won = strength(game, iterations, baseline, args.games, args.seed)
                print(f"  ismcts:{iterations:<5} vs {baseline:<7} return diff {mean:+8.2f} ± {error:6.2f}   "
                      f"win rate {won:.2f} (the {baseline} seat: {base_won:.2f})   {time.perf_counter() - started:5.1f} s", flush=True)


if __name__ == "__main__":
    main()
