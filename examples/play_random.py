"""Play games of a spec through the library's state API and print who won.

Run from the repository's folder:  python examples/play_random.py specs/meadows.yaml 4 10
"""

from __future__ import annotations

import sys
from collections import Counter

import trickrules


def main(spec: str = "specs/kingdoms.yaml", players: int = 4, games: int = 10) -> None:
    game = trickrules.load_game(spec, players=players)
    agents = [trickrules.GreedyAgent(seed=0)] + [trickrules.RandomAgent(seed=s) for s in range(1, players)]
    wins: Counter[int] = Counter()
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].step(state))
        wins.update(state.winners())
    print(f"{game.ruleset.title}, {games} games, seat 0 greedy, the others random")
    for seat in range(players):
        print(f"  seat {seat}: {wins[seat]} wins")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "specs/kingdoms.yaml", int(args[1]) if len(args) > 1 else 4, int(args[2]) if len(args) > 2 else 10)
