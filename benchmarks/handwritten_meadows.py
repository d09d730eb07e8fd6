"""Meadows written by hand in plain Python: the yardstick of the engine's speed on the seed game.

It plays the random games `bench_speed.py`'s ``api`` figure plays (4 players, the default
options: trumps orange, lila and blue, a match of 4 deals), with the rules of
``specs/meadows.yaml`` written out for this one game: no spec, no generality, cards as small
integers. The same seed gives the same deal (the engine's shuffle, ``deals.deal_order``, written
again here) and the same random choices (one generator for all games, an index drawn into the
legal cards in the engine's order), so the two play the same games: ``--check N`` compares each
game's cards played and final totals with the engine's.

    python benchmarks/handwritten_meadows.py --check 200      # the same games as the engine
    python benchmarks/handwritten_meadows.py --games 2000     # games per second, beside the engine
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time

PLAYERS, HAND, ROUNDS, CARDS = 4, 8, 4, 32
RED, GREEN, YELLOW, BLUE, ORANGE, LILA = range(6)
TRUMPS = frozenset({ORANGE, LILA, BLUE})

# The deck in the spec's order: six single-colour meadows in each base colour, then the
# two-coloured cards (a large orange or lila meadow over a small base-colour one).
SMALL = [(colour, rank) for colour in (RED, GREEN, YELLOW, BLUE) for rank in (1, 2, 3, 6, 7, 8)]
LARGE = [(ORANGE, 9, YELLOW, 4), (ORANGE, 10, RED, 4), (ORANGE, 11, GREEN, 4), (ORANGE, 12, BLUE, 4),
         (LILA, 13, YELLOW, 5), (LILA, 14, RED, 5), (LILA, 15, GREEN, 5), (LILA, 16, BLUE, 5)]
SHEEP = [{8: 11, 7: 10, 6: 4}.get(rank, 0) for _, rank in SMALL] + [2] * 4 + [3] * 4


def faces(trumps: frozenset[int]) -> tuple[list[int], list[int], list[bool]]:
    """Each card's colour and meadow as it counts under `trumps`, and whether it is a trump."""
    colour = [c for c, _ in SMALL] + [big if big in trumps else base for big, _, base, _ in LARGE]
    rank = [r for _, r in SMALL] + [high if big in trumps else low for big, high, _, low in LARGE]
    return colour, rank, [c in trumps for c in colour]


COLOUR, RANK, TRUMP = faces(TRUMPS)


def deal_order(seed: int, round_number: int, cards: int = CARDS) -> list[int]:
    """The engine's shuffle of `cards` cards: each keyed by a generator seeded with a text,
    sorted by key."""
    data = f"trickrules:{seed}:{round_number}".encode()
    generator = random.Random(int.from_bytes(data + hashlib.sha512(data).digest(), "big"))
    keys = [generator.random() for _ in range(cards)]
    return sorted(range(cards), key=keys.__getitem__)


def play_game(seed: int, rng: random.Random, played: list[int] | None = None) -> list[int]:
    """One match dealt from `seed`, every card chosen at random by `rng`; the totals."""
    totals = [0] * PLAYERS
    choose = rng.random
    for round_number in range(ROUNDS):
        order = deal_order(seed, round_number)
        hands = [sorted(order[p * HAND:(p + 1) * HAND]) for p in range(PLAYERS)]
        sheep, tricks = [0] * PLAYERS, [0] * PLAYERS
        leader = (round_number + 1) % PLAYERS  # left of the dealer, who moves a seat each deal
        for _ in range(HAND):
            trick: list[int] = []
            for turn in range(PLAYERS):
                hand = hands[(leader + turn) % PLAYERS]
                if turn:
                    led = trick[0]
                    if TRUMP[led]:
                        legal = [c for c in hand if TRUMP[c]] or hand
                    else:
                        legal = [c for c in hand if COLOUR[c] == COLOUR[led]] or hand
                else:
                    legal = hand
                card = legal[int(choose() * len(legal))]
                hand.remove(card)
                trick.append(card)
            if played is not None:
                played += trick
            best = 0  # the highest trump, else the highest of the led colour; the first on ties
            for i in range(1, PLAYERS):
                card, top = trick[i], trick[best]
                if TRUMP[card]:
                    if not TRUMP[top] or RANK[card] > RANK[top]:
                        best = i
                elif not TRUMP[top] and COLOUR[card] == COLOUR[top] and RANK[card] > RANK[top]:
                    best = i
            leader = (leader + best) % PLAYERS
            sheep[leader] += SHEEP[trick[0]] + SHEEP[trick[1]] + SHEEP[trick[2]] + SHEEP[trick[3]]
            tricks[leader] += 1
        most = max(sheep)
        tied = [p for p in range(PLAYERS) if sheep[p] == most]
        most_tricks = max(tricks[p] for p in tied)
        for p in tied:
            if tricks[p] == most_tricks:
                totals[p] += 1
    return totals


def check(games: int) -> int:
    """Play `games` games here and through the engine with the same seeds and choices; the
    number that differ (cards played or totals)."""
    import trickrules

    game = trickrules.load_game("meadows", players=PLAYERS)
    ours, theirs = random.Random(0), random.Random(0)
    differ = 0
    for number in range(games):
        played: list[int] = []
        totals = play_game(number, ours, played)
        state = game.new_initial_state(number)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(theirs.random() * len(legal))])
        if played != list(state.history) or totals != [int(t) for t in state.totals]:
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
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.check:
        differ = check(args.check)
        print(f"{args.check - differ} of {args.check} games the same as the engine's")
        return 1 if differ else 0
    print(f"meadows by hand: {max(rate(args.games, 1000 * r) for r in range(args.repeat)):,.0f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
