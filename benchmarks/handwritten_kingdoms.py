"""Kingdoms written by hand in plain Python: the yardstick of the engine's speed on the seed game.

It plays the random games `bench_speed.py`'s ``api`` figure plays (4 players, a game of 4
rounds), with the rules of ``specs/kingdoms.yaml`` written out for this one game: no spec, no
generality, cards as small integers (colour * 9 + value). The same seed gives the same deal (the
engine's shuffle, written again in `handwritten_meadows.deal_order`) and the same random choices
(one generator for all games, an index drawn into the legal actions in the engine's order:
cards to play, the section of a gained peasant, the card of a won trick to lay), so the two play
the same games: ``--check N`` compares each game's actions and final totals with the engine's.

    python benchmarks/handwritten_kingdoms.py --check 100     # the same games as the engine
    python benchmarks/handwritten_kingdoms.py --games 500     # games per second
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from handwritten_meadows import deal_order

PLAYERS, HAND, ROUNDS, CARDS = 4, 10, 4, 45
SUPPLY = 36
NEEDED = (0, 0, 2, 3, 4)  # peasants each section A to E needs
PRINTED = (0, 0, 1, 3, 5)  # a section's value without lands, staffed
PLACE, TOKEN = CARDS, 2 * CARDS  # the first action numbers of laying a card and placing a peasant
COLOUR = [card // 9 for card in range(CARDS)]
VALUE = [card % 9 for card in range(CARDS)]
WINNER_GAINS = (0, 0, 0, 2, 2, 2, 1, 1, 0)  # peasants for the winning card's value


class Round:
    """One round's tableaux: each seat's colour per section (-1: none yet), stacks and peasants."""

    def __init__(self) -> None:
        self.colours = [[-1] * 5 for _ in range(PLAYERS)]
        self.stacks: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(PLAYERS)]
        self.peasants = [[0] * 5 for _ in range(PLAYERS)]
        self.supply = SUPPLY

    def lay(self, player: int, cards: list[int], queue: list[int]) -> None:
        """Lay `cards` in order on `player`'s sections (a new colour opens the next free one)."""
        row = self.colours[player]
        for card in cards:
            queue.remove(card)
            colour = COLOUR[card]
            if colour in row:
                section = row.index(colour)
            else:
                section = row.index(-1)  # five colours, five sections: one is always free
                row[section] = colour
            self.stacks[player][section].append(card)

    def score(self, player: int) -> int:
        points = 0
        for section in range(5):
            stack, missing = self.stacks[player][section], NEEDED[section] - self.peasants[player][section]
            if stack:
                points += VALUE[stack[-1]] if missing <= 0 else -5 * missing
            elif missing <= 0:
                points += PRINTED[section]
        return points


def forced(queue: list[int], row: list[int]) -> list[int]:
    """The cards of a won trick whose place involves no choice, in play order."""
    if len(queue) == 1:
        return list(queue)
    colours = [COLOUR[c] for c in queue]
    if -1 in row:
        new = {c for c in colours if c not in row}
        if len(new) > 1:
            return [card for card, c in zip(queue, colours) if c not in new and colours.count(c) == 1]
    return [card for card, c in zip(queue, colours) if colours.count(c) == 1]


def play_game(seed: int, rng: random.Random, actions: list[int] | None = None) -> list[int]:
    """One game dealt from `seed`, every decision taken at random by `rng`; the totals."""
    totals = [0] * PLAYERS
    choose = rng.random

    def pick(legal: list[int]) -> int:
        action = legal[int(choose() * len(legal))]
        if actions is not None:
            actions.append(action)
        return action

    for round_number in range(ROUNDS):
        order = deal_order(seed, round_number, CARDS)
        hands = [sorted(order[p * HAND:(p + 1) * HAND]) for p in range(PLAYERS)]
        table = Round()
        leader = (round_number + 1) % PLAYERS
        for _ in range(HAND):
            trick: list[int] = []
            for turn in range(PLAYERS):
                hand = hands[(leader + turn) % PLAYERS]
                legal = [c for c in hand if COLOUR[c] == COLOUR[trick[0]]] or hand if turn else hand
                card = pick(legal)
                hand.remove(card)
                trick.append(card)
            top = max(VALUE[c] for c in trick)
            tied = [i for i, c in enumerate(trick) if VALUE[c] == top]
            best = next((i for i in tied if COLOUR[trick[i]] == COLOUR[trick[0]]), tied[0])
            winner, win_card = (leader + best) % PLAYERS, trick[best]
            # peasants: the winner's first, then each losing 1 or 2 in the order played
            queue: list[int] = []
            gains = [(winner, WINNER_GAINS[VALUE[win_card]])]
            for i, card in enumerate(trick):
                if i != best and VALUE[card] == 1:
                    gains.append(((leader + i) % PLAYERS, 1 if COLOUR[card] == COLOUR[win_card] else 2))
                elif i != best and VALUE[card] == 2 and COLOUR[card] != COLOUR[win_card]:
                    gains.append(((leader + i) % PLAYERS, 1))
            for player, amount in gains:
                if amount:
                    free = sum(NEEDED) - sum(table.peasants[player]) - queue.count(player)
                    taken = min(amount, table.supply, free)
                    queue += [player] * taken
                    table.supply -= taken
            for player in queue:
                row = table.peasants[player]
                free = [s for s in range(5) if row[s] < NEEDED[s]]
                row[pick([TOKEN + s for s in free]) - TOKEN if len(free) > 1 else free[0]] += 1
            # lands: the winner lays the trick, choosing where a choice is left
            waiting = list(trick)
            while waiting:
                table.lay(winner, forced(waiting, table.colours[winner]), waiting)
                if waiting:
                    card = pick([PLACE + c for c in waiting]) - PLACE
                    table.lay(winner, [c for c in waiting if COLOUR[c] == COLOUR[card] and c != card] + [card], waiting)
            leader = winner
        for player in range(PLAYERS):
            totals[player] += table.score(player)
    return totals


def check(games: int) -> int:
    """Play `games` games here and through the engine with the same seeds and choices; the
    number that differ (actions or totals)."""
    import trickrules

    game = trickrules.load_game("kingdoms", players=PLAYERS)
    ours, theirs = random.Random(0), random.Random(0)
    differ = 0
    for number in range(games):
        actions: list[int] = []
        totals = play_game(number, ours, actions)
        state = game.new_initial_state(number)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(theirs.random() * len(legal))])
        if actions != list(state.history) or totals != [int(t) for t in state.totals]:
            differ += 1
            print(f"game {number}: differs (totals {totals} here, {list(state.totals)} in the engine)", file=sys.stderr)
    return differ


def rate(games: int, seed: int = 0) -> float:
    """Games per second, as `bench_speed.py`'s ``api`` figure counts them."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for number in range(seed, seed + games):
        play_game(number, rng)
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=int, metavar="N", help="compare N games with the engine's")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.check:
        differ = check(args.check)
        print(f"{args.check - differ} of {args.check} games the same as the engine's")
        return 1 if differ else 0
    print(f"kingdoms by hand: {max(rate(args.games, 1000 * r) for r in range(args.repeat)):,.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
