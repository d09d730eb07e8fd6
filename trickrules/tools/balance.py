"""Balance measures of a design, read from finished games: is it fair to every seat, does the
lead change, is it dramatic to the end, when is it decided?

Each game gives whole numbers (so that tallies add up exactly, see `trickrules.tools.stats`),
read from the totals after each round; a *side* is a team, or a seat outside every team, and
the *leaders* after a round are the sides with the best total by the spec's winner rule:

- **rounds**: the rounds the game lasted.
- **lead changes**: how often a side alone in the lead is followed by another side alone in
  the lead (a tie for the lead changes nothing; Browne's *lead change*, counted, not scaled).
- **comeback**: 1 when an eventual winner was not among the leaders after some round before
  the last: the game was not won by whoever led all along.
- **drama**: the eventual winner's mean deficit over the rounds before the last, each as a
  percentage of that round's spread (best total less worst), 0 in a round it leads
  (after Browne's *drama*: how far behind the winner was, on average).
- **decided**: the percentage of the game's rounds played before the eventual winner led for
  good (0: it led from the first round's end; after Browne's *decisiveness*).

**Seat fairness** is read from the win rates by seat (by side, where partners win together):
the gap between the best and the worst, and a chi-square test of the hypothesis that every
side wins equally often, its p-value by the Wilson-Hilferty approximation.

Reference: C. Browne, *Automatic generation and evaluation of recombination games*, PhD
thesis, 2008 (the Ludi measures); CardStock (Bell and Goadrich) reports the same kinds of
measure for card games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trickrules.engine.state import State

BALANCE: tuple[tuple[str, str], ...] = (
    ("rounds", "count"),
    ("lead changes", "count"),
    ("comeback", "fired"),
    ("drama", "percent"),
    ("decided", "percent"),
)
"""The per-game balance figures: (name, measure), each tallied as ("balance", name, measure)."""
BALANCE_KEYS = tuple(("balance", name, measure) for name, measure in BALANCE)


def balance_values(state: State) -> dict[tuple[str, str, str], int]:
    """The balance figures of one finished game (see the module)."""
    rules = state.game.ruleset
    n = state.num_players
    sides = [tuple(team) for team in rules.teams] + [(p,) for p in range(n) if not any(p in t for t in rules.teams)]
    better = 1 if rules.scoring.winner == "most_points" else -1
    totals = [0] * n
    history: list[list[int]] = []  # each round's totals by side: its best seat's, as the winners are found
    for result in state.round_results:
        totals = [t + p for t, p in zip(totals, result["points"])]
        history.append([max(better * totals[p] for p in side) for side in sides])
    winners = set(state.winners())
    won = [i for i, side in enumerate(sides) if winners & set(side)]
    return dict(zip(BALANCE_KEYS, (len(history), *_figures(history, won))))


def _figures(history: Sequence[Sequence[int]], won: Sequence[int]) -> tuple[int, int, int, int]:
    """Lead changes, comeback, drama and decided of one game's totals by side and round."""
    changes, last = 0, None
    trailing: list[bool] = []
    deficits: list[float] = []
    for row in history:
        best, worst = max(row), min(row)
        leaders = [i for i, total in enumerate(row) if total == best]
        if len(leaders) == 1:
            changes += last is not None and leaders[0] != last
            last = leaders[0]
        behind = not any(i in leaders for i in won)
        trailing.append(behind)
        ahead = max((row[i] for i in won), default=best)
        deficits.append((best - ahead) / (best - worst) if best != worst else 0.0)
    before_last = trailing[:-1]
    drama = round(100 * sum(deficits[:-1]) / len(before_last)) if before_last else 0
    decided_from = next((r for r in range(len(trailing)) if not any(trailing[r:])), len(trailing))
    decided = round(100 * decided_from / len(trailing)) if trailing else 0
    return changes, int(any(before_last)), drama, decided


@dataclass(frozen=True)
class SeatFairness:
    """How evenly the sides win: the win rates' gap and a chi-square test of equal rates."""

    sides: tuple[str, ...]
    rates: tuple[float, ...]
    gap: float
    chi_square: float
    p: float

    def to_json(self) -> dict[str, Any]:
        return {"sides": list(self.sides), "rates": list(self.rates), "gap": self.gap, "chi_square": self.chi_square, "p": self.p}


def seat_fairness(labels: Sequence[str], wins: Sequence[float], games: int) -> SeatFairness | None:
    """The fairness of win counts `wins` (shares, by side) over `games` games; None with one side or no game."""
    k = len(wins)
    if k < 2 or games == 0:
        return None
    expected = games / k
    chi = sum((w - expected) ** 2 / expected for w in wins)
    rates = tuple(w / games for w in wins)
    return SeatFairness(tuple(labels), rates, max(rates) - min(rates), chi, chi_square_p(chi, k - 1))


def chi_square_p(statistic: float, df: int) -> float:
    """The upper tail of a chi-square distribution at `statistic` with `df` degrees of freedom
    (the Wilson-Hilferty approximation: good to about two digits from 1 degree up)."""
    if statistic <= 0:
        return 1.0
    scale = 2 / (9 * df)
    z = ((statistic / df) ** (1 / 3) - (1 - scale)) / math.sqrt(scale)
    return 0.5 * math.erfc(z / math.sqrt(2))
