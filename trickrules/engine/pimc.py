"""Perfect-information Monte Carlo: an agent that solves the worlds it cannot tell apart.

`PIMCAgent` deals the cards hidden from it again `worlds` times, consistently with what it
knows (`trickrules.engine.resample`), solves each world with every hand known
(`trickrules.engine.solver`) `horizon` tricks ahead, valued by the round as it stands there
(to the end of the round once `endgame` tricks or fewer are left), and plays the card whose value (its margin) is best on average over the worlds.
It is the classic approach of bridge and skat programs (Ginsberg's GIB, Long and Sturtevant's
Kermit): strong in the play, though it assumes it will know the hidden cards later, so it
never plays to find out or to hide.

Decisions outside the play of tricks (bids, trumps, passes, discards) go to its `fallback`
agent (`make_agent("pimc")` seats `greedy` there); without one it picks them at random.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from trickrules.engine.phases.play import PLAY
from trickrules.engine.resample import constraints, deal
from trickrules.engine.solver import Solver

if TYPE_CHECKING:
    from trickrules.engine.state import State

DEFAULT_WORLDS = 12
DEFAULT_HORIZON = 1
DEFAULT_ENDGAME = 3
MAX_WORLDS = 10_000


class _Chooser(Protocol):
    def step(self, state: State) -> int: ...


class PIMCAgent:
    """Solves `worlds` resampled worlds `horizon` tricks ahead (to the round's end from
    `endgame` tricks left) and plays the best card on average; `fallback` chooses outside the
    play. `seed` seeds its own generator."""

    name = "pimc"

    def __init__(
        self,
        seed: int = 0,
        worlds: int = DEFAULT_WORLDS,
        horizon: int = DEFAULT_HORIZON,
        endgame: int = DEFAULT_ENDGAME,
        fallback: _Chooser | None = None,
    ) -> None:
        for label, value, least, most in (("worlds", worlds, 1, MAX_WORLDS), ("horizon", horizon, 1, None), ("endgame", endgame, 0, None)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least or (most is not None and value > most):
                bound = f" and at most {most:,}" if most is not None else ""
                raise ValueError(f"a PIMC agent's {label} is a whole number, {least} or more{bound}, not {value!r}")
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.horizon = horizon
        self.endgame = endgame
        self.fallback = fallback
        self.name = f"pimc:{worlds}"  # as make_agent knows it

    def step(self, state: State) -> int:
        """The card best on average over the solved worlds; outside the play, the fallback's choice."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state._kind.phase != PLAY:
            if self.fallback is not None:
                return self.fallback.step(state)
            return legal[int(self.rng.random() * len(legal))]
        me = state.current_player()
        known = constraints(state, me)
        left = state.hand_size - state.tricks_played
        depth = None if left <= max(self.endgame, self.horizon) else self.horizon
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.worlds):
            world = deal(state, known, self.rng)
            values = Solver().solve(world, me, depth).values
            for action in legal:
                totals[action] += values.get(action, 0.0)
        return max(legal, key=lambda a: totals[a])  # the first of equals, in legal order
