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

Three more figures count the choices a player has, from the number of legal actions at each
decision (CardStock's *branching factor*), each game's mean in hundredths of a choice:

- **choices**: at every decision (bids, passes, discards and card plays alike);
- **lead choices**: at a card play that leads a trick;
- **follow choices**: at a card play into a trick already begun.

The same counts by trick number (`branching_by_trick`) draw how the choices narrow through a
hand, for the leader and for the players who follow.

**Seat fairness** is read from the win rates by seat (by side, where partners win together):
the gap between the best and the worst, and a chi-square test of the hypothesis that every
side wins equally often, its p-value by the Wilson-Hilferty approximation.

Reference: C. Browne, *Automatic generation and evaluation of recombination games*, PhD
thesis, 2008 (the Ludi measures); CardStock (Bell and Goadrich) reports the same kinds of
measure for card games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trickrules.engine.playouts import unpack_width

if TYPE_CHECKING:
    from trickrules.engine.state import State

BALANCE: tuple[tuple[str, str], ...] = (
    ("rounds", "count"),
    ("lead changes", "count"),
    ("comeback", "fired"),
    ("drama", "percent"),
    ("decided", "percent"),
    ("choices", "hundredths"),
    ("lead choices", "hundredths"),
    ("follow choices", "hundredths"),
)
"""The per-game balance figures: (name, measure), each tallied as ("balance", name, measure)."""
BALANCE_KEYS = tuple(("balance", name, measure) for name, measure in BALANCE)


def balance_values(state: State, widths: Sequence[int] = ()) -> dict[tuple[str, str, str], int]:
    """The balance figures of one finished game (see the module); `widths` are its decisions'
    packed widths (`trickrules.engine.playouts.width`), without which the choices are 0."""
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
    return dict(zip(BALANCE_KEYS, (len(history), *_figures(history, won), *_choices(widths))))


def _choices(widths: Sequence[int]) -> tuple[int, int, int]:
    """The mean number of choices (in hundredths) at every decision, at leads, at follows."""
    every: list[int] = []
    leads: list[int] = []
    follows: list[int] = []
    for packed in widths:
        options, trick, follow = unpack_width(packed)
        every.append(options)
        if trick:
            (follows if follow else leads).append(options)
    means = [round(100 * sum(c) / len(c)) if c else 0 for c in (every, leads, follows)]
    return means[0], means[1], means[2]


def by_trick_keys(tricks: int) -> tuple[tuple[str, str, str], ...]:
    """The per-game keys of the choices by trick: options and decisions, leading and following."""
    return tuple(("by trick", str(t), m) for t in range(1, tricks + 1) for m in ("lead options", "lead decisions", "follow options", "follow decisions"))


def by_trick_values(widths: Sequence[int], tricks: int) -> dict[tuple[str, str, str], int]:
    """One game's choices by trick (see `by_trick_keys`); tricks past `tricks` are left out."""
    values = dict.fromkeys(by_trick_keys(tricks), 0)
    for packed in widths:
        options, trick, follows = unpack_width(packed)
        if 0 < trick <= tricks:
            place = "follow" if follows else "lead"
            values["by trick", str(trick), place + " options"] += options
            values["by trick", str(trick), place + " decisions"] += 1
    return values


def branching_by_trick(totals: Callable[[tuple[str, str, str]], int], tricks: int) -> tuple[tuple[int, float | None, float | None], ...]:
    """(trick, mean choices leading, mean choices following) over all games, from the summed
    by-trick figures `totals(key)`; None where no such decision was made; tricks never played
    are left out."""
    rows = []
    for t in range(1, tricks + 1):
        means = []
        for place in ("lead", "follow"):
            decisions = totals(("by trick", str(t), place + " decisions"))
            means.append(totals(("by trick", str(t), place + " options")) / decisions if decisions else None)
        if means != [None, None]:
            rows.append((t, means[0], means[1]))
    return tuple(rows)


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
