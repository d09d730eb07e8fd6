"""Information-set Monte Carlo tree search: an agent that plays any spec well by looking ahead.

`ISMCTSAgent` is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each iteration
deals the cards hidden from the agent again (`trickrules.engine.resample`), so that it searches
a world it cannot tell from the real one, and then:

1. descends the tree of actions from the present, choosing at each node by UCB1 among the
   actions legal in this world (a child's exploration term counts the times it was available,
   not the parent's visits);
2. adds one new node, for an action not tried yet;
3. plays on at random to the end of the *round* (the round's scoring is where a card's worth
   shows; a long game of many rounds would mostly add noise);
4. gives every node on the path the reward of the player who chose its action.

A player's reward is its points of the round (its side's, where partners pool them) against
the others': ``(gain - worst) / (best - worst)`` over the players, so 1 for the best gain and 0
for the worst (0.5 when all gain the same); in a game won by the fewest points, fewer is
better. Rewards lie in [0, 1] in every spec, so the exploration constant means the same
everywhere. The action played is the one chosen most often at the root.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from trickrules.engine.phases.kinds import TERMINAL
from trickrules.engine.resample import constraints, deal

if TYPE_CHECKING:
    from trickrules.engine.state import State

DEFAULT_ITERATIONS = 300
DEFAULT_EXPLORATION = 0.7


class _Node:
    """One node of the tree: the action that led here, chosen by `player`, and its statistics."""

    __slots__ = ("player", "children", "visits", "reward", "available")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 1


class ISMCTSAgent:
    """Searches `iterations` worlds consistent with what it knows (or for `seconds`, whichever
    ends first) and plays the action chosen most often.

    `exploration` is UCB1's constant for rewards in [0, 1]; `seed` seeds the agent's own
    generator (the same seed gives the same actions, without a time budget).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"ISMCTS iterations are a whole number, 1 or more, not {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"an ISMCTS time budget is a number of seconds above 0, not {seconds!r}")
        if not exploration >= 0:
            raise ValueError(f"the ISMCTS exploration constant is a number, 0 or more, not {exploration!r}")
        self.rng = random.Random(seed)
        self.name = f"ismcts:{iterations}"  # as make_agent knows it
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration

    def step(self, state: State) -> int:
        """The action chosen most often at the root of the search from `state`."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        known = constraints(state, me)
        root = _Node(me)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for _ in range(self.iterations):
            self._iterate(root, deal(state, known, self.rng), state.round, state.totals)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return max(legal, key=lambda a: _root_score(root.children.get(a)))

    def _iterate(self, root: _Node, world: State, round_number: int, before: list[int]) -> None:
        """One iteration in one world: select, expand, play out to the end of round
        `round_number`, back up each player's reward for its points since `before`."""
        path = [root]
        node = root
        rng = self.rng
        while world._phase != TERMINAL and world.round == round_number:
            legal = world.legal_view()
            player = world.current_player()
            children = node.children
            untried = [a for a in legal if a not in children]
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[int(rng.random() * len(untried))]
                node = children[action] = _Node(player)
                world.apply_legal(action)
                path.append(node)
                break
            action = self._select(node, legal)
            node = children[action]
            world.apply_legal(action)
            path.append(node)
        _play_round(world, round_number, rng)
        rewards = _rewards(world, before)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.player]

    def _select(self, node: _Node, legal: list[int]) -> int:
        """UCB1 among the legal children, each explored by the times it was available."""
        children, c = node.children, self.exploration
        best, best_value = legal[0], -math.inf
        for action in legal:
            child = children[action]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = action, value
        return best


def _root_score(child: _Node | None) -> tuple[int, float]:
    if child is None or child.visits == 0:
        return (0, 0.0)
    return (child.visits, child.reward / child.visits)


def _play_round(world: State, round_number: int, rng: random.Random) -> None:
    """Random legal actions until the round (or the game) ends, as `play_out` plays them."""
    draw = rng.random
    while world._phase != TERMINAL and world.round == round_number:
        legal = world.legal_view()
        world.apply_legal(legal[int(draw() * len(legal))])


def _rewards(world: State, before: list[int]) -> list[float]:
    """Each player's reward in [0, 1]: its points of the round against the others' (see the
    module's docstring)."""
    gains = [after - b for after, b in zip(world.totals, before)]
    if world.game.ruleset.scoring.winner != "most_points":
        gains = [-g for g in gains]
    low, high = min(gains), max(gains)
    if high == low:
        return [0.5] * len(gains)
    return [(g - low) / (high - low) for g in gains]
