"""Tournaments between agents: duplicate, seat-rotated games (`trickrules tournament`).

**Duplicate.** Every deal (seed) is played once per rotation, and the rotations of a deal get
the same cards: a deal is a function of the seed and the round alone (`deals.deal_order`,
`deals.chance_index`), whoever plays. The agent in seat k of the game with seed s is seeded
``s * 1000 + k``, as `simulate` seeds it, whichever entrant sits there.

**Seat rotation.** The seats form *places*: one place per team of the spec's ``teams`` (both
partners are the same entrant) and one per seat outside any team, in the order of their first
seat. The m entrants stand on a circle; with U places, a deal is played in m rotations: in
rotation r, place k gets the entrant ``circle[(k + r) mod m]``. Over a deal's rotations every
entrant sits in every place exactly once, so each entrant plays every seat once per deal.

- m ≤ U: every entrant is in every game, and an entrant fills several places when m < U
  (2 entrants, 4 seats: ABAB, BABA; 3 entrants on the circle A, B, C: ABCA, BCAB, CABC, each
  entrant taking the double place once).
- m > U: each game seats the U entrants of a window of the circle.
- With two entrants the circle is as given. With three or more it is drawn afresh for each
  deal from the deal's seed: who plays after whom (who passes to whom, who leads into whom)
  then favours no entrant over the deals, and with m > U every pair of entrants meets.

**Figures.** An entrant's share of a game's win is its number of winning seats (the spec's
winners) over the number of winners: shared wins split, the shares of a game add up to 1.
Its *score* in a game is the mean of its seats' final totals; one entrant *beats* another in a
game when its score is better by the spec's ``winner`` rule (more points, or fewer), equal
scores are a tie worth half. The rotations of a deal are correlated (same cards), so
intervals are taken over deals: each deal gives each entrant a win rate, a mean total per
seat, and for each pair a head-to-head score (wins + ties/2 over the games the pair met).

- win rates and head-to-head scores: the Wilson score interval with the deals as trials and
  the per-deal figure as fractional success. A per-deal figure lies in [0, 1], so its variance
  is at most p(1 - p): the interval is conservative (duplicate play removes card luck, so the
  true uncertainty is often smaller) and it never shrinks to a point.
- mean totals: the normal interval over the per-deal means, mean ± 1.96 sd / sqrt(deals).
- Elo: a Bradley-Terry model fitted by maximum likelihood (the MM algorithm) to every
  head-to-head game (a tie counts half a win for each), with one virtual drawn game between
  every pair of entrants so that an entrant that won every game still gets a finite rating;
  400 points of difference are odds of 10 to 1, and the ratings' mean is 1500.

Each deal's figures are exact (integers and fractions); they are merged in deal order, so the
result is the same for any number of workers and on either backend.

>>> result = tournament("specs/kingdoms.yaml", ["greedy", "random"], n=4)
>>> [e.games for e in result.entrants]
[8, 8]
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations
from typing import Any

from trickrules.engine.game import Game
from trickrules.engine.playouts import play_out, seat_agents
from trickrules.engine.state import State
from trickrules.rules.ruleset import Ruleset
from trickrules.tools.backends import DEFAULT_RAY_TIMEOUT, open_backend
from trickrules.tools.simulate import Progress, SimulationError, _chunks, _seat_agents, _Source, _source, check_run, worker_source
from trickrules.tools.stats import Z95, Proportion, unique_labels

__all__ = ["EntrantFigures", "PairFigures", "TournamentResult", "place_seats", "rotation_games", "seatings", "tournament"]

TIE_RULE = "a shared win counts for each winning seat over the number of winners; a tie between two entrants counts half"
ELO_MEAN = 1500.0


# ---------------------------------------------------------------- seating


def place_seats(ruleset: Ruleset) -> tuple[tuple[int, ...], ...]:
    """The places of a game: each team's seats, and each seat outside a team, by first seat."""
    teamed = {seat for team in ruleset.teams for seat in team}
    places = [tuple(team) for team in ruleset.teams] + [(seat,) for seat in range(ruleset.players) if seat not in teamed]
    return tuple(sorted(places, key=min))


def seatings(entrants: int, places: Sequence[Sequence[int]], seed: int = 0) -> list[tuple[int, ...]]:
    """The entrant (by index) of every seat in each rotation of the deal with `seed`."""
    order = list(range(entrants))
    if entrants > 2:
        random.Random(f"trickrules:tournament:{seed}").shuffle(order)
    players = sum(len(place) for place in places)
    rotations = []
    for r in range(entrants):
        seats = [0] * players
        for k, place in enumerate(places):
            for seat in place:
                seats[seat] = order[(k + r) % entrants]
        rotations.append(tuple(seats))
    return rotations


def rotation_games(game: Game, agents: Sequence[str], seed: int, record: bool = False) -> list[tuple[tuple[int, ...], State]]:
    """The finished games of one deal: (entrant of each seat, final state) for each rotation."""
    played = []
    for seating in seatings(len(agents), place_seats(game.ruleset), seed):
        names = [agents[e] for e in seating]
        state = play_out(game.new_initial_state(seed, record=record), seat_agents(names, seed))
        played.append((seating, state))
    return played


# ---------------------------------------------------------------- one deal


@dataclass(frozen=True)
class _Deal:
    """The exact figures of one deal: per entrant, and per pair (i < j, in `combinations` order)."""

    games: tuple[int, ...]
    seat_games: tuple[int, ...]
    totals: tuple[int, ...]
    wins: tuple[Fraction, ...]
    met: tuple[int, ...]
    pair_wins: tuple[tuple[int, int, int], ...]  # (i's wins, ties, j's wins)


def _play_deal(game: Game, agents: Sequence[str], seed: int) -> _Deal:
    m = len(agents)
    most = game.ruleset.scoring.winner == "most_points"
    games, seat_games, totals = [0] * m, [0] * m, [0] * m
    wins = [Fraction(0)] * m
    pairs = list(combinations(range(m), 2))
    met = [0] * len(pairs)
    results = [[0, 0, 0] for _ in pairs]
    for seating, state in rotation_games(game, agents, seed):
        winners = state.winners()
        sums, counts = [0] * m, [0] * m
        for seat, entrant in enumerate(seating):
            sums[entrant] += state.totals[seat]
            counts[entrant] += 1
        for entrant in range(m):
            if counts[entrant]:
                games[entrant] += 1
                seat_games[entrant] += counts[entrant]
                totals[entrant] += sums[entrant]
        for seat in winners:
            wins[seating[seat]] += Fraction(1, len(winners))
        for p, (i, j) in enumerate(pairs):
            if counts[i] and counts[j]:
                met[p] += 1
                a, b = sums[i] * counts[j], sums[j] * counts[i]  # mean scores, cross-multiplied
                results[p][1 if a == b else 0 if (a > b) == most else 2] += 1
    return _Deal(
        tuple(games), tuple(seat_games), tuple(totals), tuple(wins), tuple(met), tuple((w, t, l) for w, t, l in results)
    )


def _load(source: _Source) -> Game:
    return source.load()


def _play_chunk(game: Game, task: tuple[int, int, tuple[str, ...]]) -> list[_Deal]:
    first_seed, count, agents = task
    return [_play_deal(game, agents, seed) for seed in range(first_seed, first_seed + count)]


# ---------------------------------------------------------------- the figures


@dataclass(frozen=True)
class Interval:
    """A mean over deals with its sample sd and 95% normal interval."""

    deals: int
    mean: float
    sd: float
    low: float
    high: float

    @classmethod
    def over(cls, values: Sequence[Fraction]) -> Interval:
        """The mean of exact per-deal values and its interval."""
        n = len(values)
        mean = sum(values, Fraction(0)) / n if n else Fraction(0)
        variance = (sum((v * v for v in values), Fraction(0)) - n * mean * mean) / (n - 1) if n > 1 else Fraction(0)
        sd = math.sqrt(variance)
        half = Z95 * sd / math.sqrt(n) if n else 0.0
        return cls(n, float(mean), sd, float(mean) - half, float(mean) + half)

    def to_json(self) -> dict[str, Any]:
        """deals, mean, sd and the 95% interval."""
        return {"deals": self.deals, "mean": self.mean, "sd": self.sd, "ci95": [self.low, self.high]}


@dataclass(frozen=True)
class EntrantFigures:
    """One entrant: games, win rate (per deal, Wilson), mean total per seat (per deal), Elo."""

    label: str
    agent: str
    games: int
    seat_games: int
    wins: float
    win_rate: Proportion
    mean_total: Interval
    elo: float

    def to_json(self) -> dict[str, Any]:
        """The entrant's figures as JSON values."""
        return {
            "entrant": self.label, "agent": self.agent, "games": self.games, "seat_games": self.seat_games,
            "wins": self.wins, "win_rate": self.win_rate.to_json(), "mean_total": self.mean_total.to_json(), "elo": self.elo,
        }  # fmt: skip


@dataclass(frozen=True)
class PairFigures:
    """Two entrants' games together: `a`'s wins, ties, `b`'s wins, and `a`'s score over deals."""

    a: str
    b: str
    games: int
    a_wins: int
    ties: int
    b_wins: int
    score: Proportion

    def to_json(self) -> dict[str, Any]:
        """The pair's figures as JSON values (``score``: a's, with the deals as trials)."""
        return {
            "a": self.a, "b": self.b, "games": self.games, "a_wins": self.a_wins, "ties": self.ties,
            "b_wins": self.b_wins, "deals": self.score.trials, "score": self.score.to_json(),
        }  # fmt: skip


@dataclass(frozen=True)
class TournamentResult:
    """Everything `tournament` measured; `to_json()` gives it as JSON values."""

    spec: str
    spec_id: str
    title: str
    players: int
    deals: int
    seed: int
    options: dict[str, Any]
    teams: tuple[tuple[int, ...], ...]
    better: str
    places: tuple[tuple[int, ...], ...]
    first_seatings: tuple[tuple[str, ...], ...]
    entrants: tuple[EntrantFigures, ...]
    pairs: tuple[PairFigures, ...]
    elapsed: float = field(default=0.0, compare=False)

    @property
    def rotations(self) -> int:
        """The games played with each deal: one per entrant."""
        return len(self.entrants)

    def entrant(self, label: str) -> EntrantFigures:
        """The figures of the entrant `label`."""
        return next(e for e in self.entrants if e.label == label)

    def pair(self, a: str, b: str) -> PairFigures:
        """The head-to-head figures of `a` against `b` (in either order: `a` comes first)."""
        for pair in self.pairs:
            if (pair.a, pair.b) == (a, b):
                return pair
            if (pair.b, pair.a) == (a, b):
                score = Proportion(pair.score.trials - pair.score.successes, pair.score.trials)
                return PairFigures(a, b, pair.games, pair.b_wins, pair.ties, pair.a_wins, score)
        raise KeyError((a, b))

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON values (timing left out: equal runs give equal JSON)."""
        return {
            "spec": self.spec,
            "id": self.spec_id,
            "title": self.title,
            "players": self.players,
            "options": self.options,
            "teams": [list(team) for team in self.teams],
            "deals": self.deals,
            "seeds": [self.seed, self.seed + self.deals - 1],
            "games": self.deals * self.rotations,
            "better": self.better,
            "entrants": [e.label for e in self.entrants],
            "agents": [e.agent for e in self.entrants],
            "scheme": {
                "rotations": self.rotations,
                "places": [list(place) for place in self.places],
                "circle": "drawn per deal" if len(self.entrants) > 2 else "as given",
                "first_deal": [list(s) for s in self.first_seatings],
            },
            "tie_rule": TIE_RULE,
            "elo": {"model": "Bradley-Terry, maximum likelihood, one virtual draw per pair", "mean": ELO_MEAN, "scale": 400},
            "results": [e.to_json() for e in self.entrants],
            "head_to_head": [p.to_json() for p in self.pairs],
        }


def _figures(game: Game, spec: str, labels: tuple[str, ...], agents: tuple[str, ...], seed: int, deals: list[_Deal]) -> TournamentResult:
    """Read the deals' exact figures, in deal order, as a result."""
    m, pairs = len(labels), list(combinations(range(len(labels)), 2))
    h2h: list[PairFigures] = []
    score_wins = [[0.0] * m for _ in range(m)]
    games_together = [[0] * m for _ in range(m)]
    for p, (i, j) in enumerate(pairs):
        together = [d for d in deals if d.met[p]]
        a_wins, ties, b_wins = (sum(d.pair_wins[p][k] for d in together) for k in range(3))
        shares = sum((Fraction(2 * d.pair_wins[p][0] + d.pair_wins[p][1], 2 * d.met[p]) for d in together), Fraction(0))
        h2h.append(PairFigures(labels[i], labels[j], a_wins + ties + b_wins, a_wins, ties, b_wins, Proportion(float(shares), len(together))))
        score_wins[i][j], score_wins[j][i] = a_wins + ties / 2, b_wins + ties / 2
        games_together[i][j] = games_together[j][i] = a_wins + ties + b_wins
    elo = bradley_terry_elo(score_wins, games_together)
    entrants = []
    for e in range(m):
        played = [d for d in deals if d.games[e]]
        rates = sum((d.wins[e] / d.games[e] for d in played), Fraction(0))
        entrants.append(
            EntrantFigures(
                labels[e],
                agents[e],
                sum(d.games[e] for d in played),
                sum(d.seat_games[e] for d in played),
                float(sum((d.wins[e] for d in played), Fraction(0))),
                Proportion(float(rates), len(played)),
                Interval.over([Fraction(d.totals[e], d.seat_games[e]) for d in played]),
                elo[e],
            )
        )
    rules = game.ruleset
    places = place_seats(rules)
    return TournamentResult(
        spec=spec,
        spec_id=rules.id,
        title=rules.title,
        players=game.num_players,
        deals=len(deals),
        seed=seed,
        options={name: list(v) if isinstance(v, tuple) else v for name, v in rules.options},
        teams=rules.teams,
        better=rules.scoring.winner,
        places=places,
        first_seatings=tuple(tuple(labels[e] for e in s) for s in seatings(m, places, seed)),
        entrants=tuple(entrants),
        pairs=tuple(h2h),
    )


def bradley_terry_elo(wins: Sequence[Sequence[float]], games: Sequence[Sequence[int]], iterations: int = 10000) -> list[float]:
    """Elo ratings (mean 1500) of a Bradley-Terry fit: `wins[i][j]` of `games[i][j]` won by i
    against j. One virtual drawn game is added between every pair (a prior that keeps every
    rating finite and ties entrants that never met)."""
    m = len(wins)
    if m == 0:
        return []
    won = [sum(wins[i][j] for j in range(m) if j != i) + 0.5 * (m - 1) for i in range(m)]
    strength = [1.0] * m
    for _ in range(iterations):
        new = [won[i] / sum((games[i][j] + 1) / (strength[i] + strength[j]) for j in range(m) if j != i) if m > 1 else 1.0 for i in range(m)]
        centre = math.exp(sum(math.log(s) for s in new) / m)
        new = [s / centre for s in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, strength)) < 1e-13
        strength = new
        if done:
            break
    return [ELO_MEAN + 400 * math.log10(s) for s in strength]


# ---------------------------------------------------------------- playing


def entrant_labels(names: Sequence[str]) -> tuple[str, ...]:
    """Each entrant's label: its agent's name, with ``#2``, ``#3`` for repeats of a name."""
    return unique_labels(names, mark="#")


def tournament(
    spec: str | os.PathLike[str] | Ruleset | Game,
    agents: Sequence[str],
    n: int = 100,
    seed: int = 0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "local",
    progress: Progress | None = None,
    address: str | None = None,
    ray_timeout: float = DEFAULT_RAY_TIMEOUT,
) -> TournamentResult:
    """Play `n` deals (seeds ``seed .. seed + n - 1``) of `spec` between the `agents`, each deal
    once per entrant with the entrants rotated through the seats (see the module's text).

    `agents` are two or more names `make_agent` takes; a name given twice is two entrants
    (``random``, ``random#2``). `workers`, `backend`, `address` and `ray_timeout` are those
    of `simulate`; the result is the same for any of them. At most `MAX_DEALS` deals a run. `progress` is called with (games done, games in
    all). Raises `SpecError` for a bad spec and `SimulationError` for other bad input.
    """
    if isinstance(agents, str):
        agents = [a.strip() for a in agents.split(",") if a.strip()]
    names = tuple(agents)
    if len(names) < 2:
        raise SimulationError(f"a tournament needs at least two entrants, not {len(names)}: name them comma-separated, e.g. greedy,random")
    check_run(n, workers, backend, address, "deals")
    source = _source(spec, players, options)
    game = source.load()
    _seat_agents(names, len(names))  # every name is an agent make_agent knows, before any game
    label = str(spec) if source.path is not None else (game.ruleset.source_file or game.ruleset.id)
    started = time.perf_counter()
    m = len(names)
    with open_backend(backend, workers, address, SimulationError, ray_timeout) as runner:
        chunks = _chunks(n, seed, runner.parallelism)
        tasks = [(first, count, names) for first, count in chunks]
        parts = runner.map(_load, worker_source(source, game, backend), _play_chunk, tasks, [count * m for _, count in chunks], progress)
    deals = [deal for part in parts for deal in part]  # chunk order: deal order
    result = _figures(game, label, entrant_labels(names), names, seed, deals)
    return replace(result, elapsed=time.perf_counter() - started)
