"""Rewards for learning: each seat's points, paid at the end of the game, of each round, or of
each trick.

A spec's points count towards winning (``winner: most_points``) or against it
(``fewest_points``); a reward is the points turned so that more is always better. Partners
already share their points (the engine pools them per team), so a partnership's seats get the
same rewards. Whatever the schedule, a seat's rewards over a whole game add up to its final
total, turned:

- ``game``: the final totals, once the game is over;
- ``round``: each round's points, when the round is scored;
- ``trick``: the change, after each trick and at each round's end, in the totals plus the
  points the round would score if it ended now (`round_end.score_now`): an early signal whose
  sum is still the final total.
"""

from __future__ import annotations

from trickrules.engine.game import Game
from trickrules.engine.round_end import score_now
from trickrules.engine.state import State
from trickrules.errors import EnvSetupError

SCHEDULES = ("game", "round", "trick")
"""When rewards are paid (the `reward` argument of `trickrules.env`)."""


class Rewards:
    """Pays each seat its turned points on `schedule`; `paid(state)` after every action."""

    def __init__(self, game: Game, schedule: str) -> None:
        if schedule not in SCHEDULES:
            raise EnvSetupError(f"unknown reward schedule {schedule!r} (schedules: {', '.join(SCHEDULES)})")
        self.schedule = schedule
        self.sign = 1.0 if game.ruleset.scoring.winner == "most_points" else -1.0
        self.num_players = game.num_players

    def start(self, state: State) -> None:
        """Forget what was paid: a new game begins with `state`."""
        self._given = [0.0] * self.num_players  # the turned points paid so far, per seat
        self._seen = (state.round, state.tricks_played, state.is_terminal())

    def paid(self, state: State) -> list[float]:
        """Each seat's reward for what happened since the last call (zeros when nothing is due)."""
        seen = (state.round, state.tricks_played, state.is_terminal())
        if seen == self._seen:
            return [0.0] * self.num_players
        finished_round = seen[0] != self._seen[0]
        self._seen = seen
        if self.schedule == "game" and not state.is_terminal():
            return [0.0] * self.num_players
        if self.schedule == "round" and not finished_round:
            return [0.0] * self.num_players
        worth = self.worth(state)
        rewards = [w - g for w, g in zip(worth, self._given)]
        self._given = worth
        return rewards

    def worth(self, state: State) -> list[float]:
        """What the seats' rewards add up to once `state` is reached: the totals, turned, and
        under ``trick`` the points the round in play would score now."""
        points = list(state.totals)
        if self.schedule == "trick" and not state.is_terminal():
            points = [t + p for t, p in zip(points, score_now(state, final=False)[1])]
        return [self.sign * p for p in points]
