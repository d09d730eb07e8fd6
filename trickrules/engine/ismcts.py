"""Information-set Monte Carlo tree search: an agent that plays any spec well by looking ahead.

`ISMCTSAgent` is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each iteration
deals the cards hidden from the agent again (`trickrules.engine.resample`), so that it searches
a world it cannot tell from the real one, and then:

1. descends the tree of actions from the present, choosing at each node by UCB1 among the
   actions legal in this world (a child's exploration term counts the times it was available,
   not the parent's visits);
2. adds one new node, for an action not tried yet;
3. plays on to the end of the *round* (the round's scoring is where a card's worth shows; a
   long game of many rounds would mostly add noise): at random, or in a game with bids
   playing for the bids (`trickrules.engine.rollouts`);
4. gives every node on the path the reward of the player who chose its action.

A player's reward is its *margin*: its points of the round (its side's, where partners pool
them) less the mean of its opponents' (fewer points gain more in a game won by the fewest),
scaled into [0, 1] as ``0.5 + margin / (2 * largest)``, where `largest` is the largest margin
the agent has seen so far. Rewards lie in [0, 1] in every spec, so the exploration constant
means the same everywhere; how much better an outcome is counts, not only whether it is
better. The action played is the one chosen most often at the root.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.engine.resample import constraints, deal
from trickrules.engine.rollouts import Rollout, play_randomly, rollout_for
from trickrules.engine.round_end import margins_of, opponents_of

if TYPE_CHECKING:
    from trickrules.engine.state import State

DEFAULT_ITERATIONS = 300
DEFAULT_EXPLORATION = 0.7
MAX_ITERATIONS = 100_000
"""The most iterations a decision without a time budget: 100,000 already take a minute or more.
With `seconds`, the time bounds the search and `iterations` may be larger."""
MAX_SECONDS = 3600.0
"""The longest time budget a decision, in seconds."""


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
        if iterations > MAX_ITERATIONS and seconds is None:
            raise ValueError(
                f"ISMCTS iterations are at most {MAX_ITERATIONS:,} a decision (that many already take a minute "
                f"or more), not {iterations:,}; with a seconds budget, the time bounds the search instead"
            )
        if seconds is not None and not 0 < seconds <= MAX_SECONDS:
            raise ValueError(
                f"an ISMCTS time budget is a number of seconds above 0 and at most {MAX_SECONDS:,.0f} (an hour), "
                f"not {seconds!r}"
            )
        if not exploration >= 0:
            raise ValueError(f"the ISMCTS exploration constant is a number, 0 or more, not {exploration!r}")
        self.rng = random.Random(seed)
        self.name = f"ismcts:{iterations}"  # as make_agent knows it
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self._rollout: Rollout = play_randomly
        self._opponents: list[list[int]] = []
        self._scale = 0.0  # the largest margin seen: rewards are margins over twice this, plus a half

    def step(self, state: State) -> int:
        """The action chosen most often at the root of the search from `state`."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        known = constraints(state, me)
        root = _Node(me)
        self._rollout = rollout_for(state)
        self._opponents = opponents_of(state)
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
        hidden = world.play_game.ruleset.partner_cards  # teams by the deal: each world's own, this round's
        opponents = opponents_of(world) if hidden else self._opponents
        while world._kind is not TERMINAL_KIND and world.round == round_number:
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
        self._rollout(world, round_number, rng)
        margins = margins_of(world.game, [after - b for after, b in zip(world.totals, before)], opponents)
        scale = self._scale = max(self._scale, max(abs(m) for m in margins))
        for visited in path:
            visited.visits += 1
            visited.reward += 0.5 + margins[visited.player] / (2 * scale) if scale else 0.5

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
