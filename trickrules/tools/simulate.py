"""Play many games of a spec and report what happened: `trickrules simulate`.

`simulate` plays games with seeds ``seed .. seed + n - 1`` (the agent of seat k in the game
with seed s gets seed ``s * 1000 + k``) and returns a `SimulationResult`: win rates with 95%
Wilson intervals, final scores, game length, how often each reward, section-scoring case and
round rule fired, and how often each card and rank won the trick it was played in.

A shared win counts 1/k for each of its k winners, so the win rates of the seats add up to 1;
the report also says in how many games the win was shared.

The figures come from exact integer tallies (see `trickrules.tools.stats`), so ``workers=4`` gives
the same result as ``workers=1``. `compare` sets two results side by side and tests each
difference: a two-proportion z-test for rates, Welch's t-test (normal approximation) for
means. Both specs are played with the same seeds (the same deals); the tests treat the two
runs as independent samples, which errs on the side of "not significant".

>>> result = simulate("specs/kingdoms.yaml", n=20, players=4)
>>> round(sum(seat.wins.rate for seat in result.seats), 9)
1.0
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from trickrules.engine import playouts
from trickrules.engine.agents import make_agent
from trickrules.errors import TrickrulesError
from trickrules.engine.game import Game, load_game
from trickrules.rules.ruleset import Ruleset
from trickrules.spec.shipped import resolve_spec
from trickrules.tools.balance import BALANCE, SeatFairness, branching_by_trick, seat_fairness
from trickrules.tools.backends import BACKENDS, DEFAULT_RAY_TIMEOUT, open_backend
from trickrules.tools.stats import (
    Comparison,
    ComparisonRow,
    Key,
    Proportion,
    RuleFigures,
    Sample,
    SeatFigures,
    Tallier,
    Tally,
    mean_row,
    rate_row,
    rule_sample,
    rule_union,
)

__all__ = ["Comparison", "ComparisonRow", "RuleFigures", "SeatFigures", "SimulationError", "SimulationResult", "compare", "simulate"]

TIE_RULE = "a shared win counts 1/k for each of its k winners"
Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as chunks of games finish."""


class SimulationError(TrickrulesError):
    """Bad simulation input: no games, no workers, an unknown agent, a missing extra."""


# ---------------------------------------------------------------- the figures


@dataclass(frozen=True)
class SimulationResult:
    """Everything `simulate` measured; `to_json()` gives it as JSON values."""

    spec: str
    spec_id: str
    title: str
    players: int
    games: int
    seed: int
    agents: tuple[str, ...]
    options: dict[str, Any]
    seats: tuple[SeatFigures, ...]
    shared_games: int
    tricks: Sample
    decisions: Sample
    rules: tuple[RuleFigures, ...]
    section_counts: dict[str, dict[str, int]]
    cards: tuple[tuple[str, Proportion], ...]
    ranks: tuple[tuple[int, Proportion], ...]
    teams: tuple[tuple[int, ...], ...] = ()
    balance: tuple[tuple[str, Sample], ...] = ()
    """The balance figures per game (`trickrules.tools.balance`), by name."""
    fairness: SeatFairness | None = None
    """How evenly the sides (teams, and seats outside them) win."""
    by_trick: tuple[tuple[int, float | None, float | None], ...] = ()
    """(trick, mean choices leading it, mean choices following) over every round played."""
    elapsed: float = field(default=0.0, compare=False)

    def rule(self, kind: str, name: str) -> RuleFigures | None:
        """The figures of one reward, token, section case or round rule, if the spec has it."""
        return next((r for r in self.rules if r.kind == kind and r.name == name), None)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON values (timing left out: equal runs give equal JSON)."""
        return {
            "spec": self.spec,
            "id": self.spec_id,
            "title": self.title,
            "players": self.players,
            "games": self.games,
            "seeds": [self.seed, self.seed + self.games - 1],
            "agents": list(self.agents),
            "options": self.options,
            "tie_rule": TIE_RULE,
            "shared_games": self.shared_games,
            "seats": [seat.to_json() for seat in self.seats],
            "length": {"tricks": self.tricks.to_json(), "decisions": self.decisions.to_json()},
            "rules": [rule.to_json() for rule in self.rules],
            "sections": self.section_counts,
            "cards": {card: won.to_json() for card, won in self.cards},
            "ranks": {str(rank): won.to_json() for rank, won in self.ranks},
            "balance": {name: sample.to_json() for name, sample in self.balance},
            "fairness": None if self.fairness is None else self.fairness.to_json(),
            "choices_by_trick": [{"trick": t, "lead": lead, "follow": follow} for t, lead, follow in self.by_trick],
        } | ({"teams": [list(team) for team in self.teams]} if self.teams else {})


def _result(game: Game, spec: str, agents: tuple[str, ...], seed: int, tally: Tally) -> SimulationResult:
    """Read a finished tally as figures."""
    rules, tallier = game.ruleset, Tallier(game)
    shared = sum(sum(shares.get(k, 0) for shares in tally.win_shares) // k for k in range(2, game.num_players + 1))
    seats = tuple(
        SeatFigures(
            seat=seat,
            agent=agents[seat],
            wins=Proportion(sum(shares[k] / k for k in sorted(shares)), tally.games),
            shared_wins=sum(count for k, count in shares.items() if k > 1),
            scores=Sample.from_counts(tally.scores[seat]),
            score_counts=dict(sorted(tally.scores[seat].items())),
        )
        for seat, shares in enumerate(tally.win_shares)
    )
    sections: dict[str, dict[str, int]] = {}
    for (section, case), count in sorted(tally.section_cases.items()):
        sections.setdefault(section, {})[case] = count
    return SimulationResult(
        spec=spec,
        spec_id=rules.id,
        title=rules.title,
        players=game.num_players,
        games=tally.games,
        seed=seed,
        agents=agents,
        options={name: list(v) if isinstance(v, tuple) else v for name, v in rules.options},
        seats=seats,
        shared_games=shared,
        tricks=tally.sample(("length", "tricks", "count")),
        decisions=tally.sample(("length", "decisions", "count")),
        rules=_rule_figures(tallier.keys, tally),
        section_counts=sections,
        cards=tuple((card, Proportion(tally.card_won[i], tally.card_played[i])) for i, card in enumerate(game.card_ids)),
        ranks=tuple((rank, Proportion(tally.rank_won.get(rank, 0), played)) for rank, played in sorted(tally.rank_played.items())),
        teams=rules.teams,
        balance=tuple((name, _balance_sample(tally, name, measure)) for name, measure in BALANCE),
        fairness=_fairness(game, seats, tally.games),
        by_trick=branching_by_trick(lambda key: tally.per_game[key][0], tallier.tricks),
    )


def _balance_sample(tally: Tally, name: str, measure: str) -> Sample:
    """A balance figure's sample, in choices where it was tallied in hundredths of a choice."""
    sample = tally.sample(("balance", name, measure))
    if measure != "hundredths":
        return sample
    return Sample(sample.n, sample.total / 100, sample.total_sq / 10_000, sample.minimum / 100, sample.maximum / 100)


def _fairness(game: Game, seats: Sequence[SeatFigures], games: int) -> SeatFairness | None:
    """Seat fairness over the sides: each team's wins (its seats' shares added), each other seat's."""
    teams = game.ruleset.teams
    sides = [tuple(team) for team in teams] + [(p,) for p in range(game.num_players) if not any(p in t for t in teams)]
    labels = ["+".join(f"P{p}" for p in side) for side in sides]
    return seat_fairness(labels, [sum(seats[p].wins.successes for p in side) for side in sides], games)


def _rule_figures(keys: Sequence[Key], tally: Tally) -> tuple[RuleFigures, ...]:
    """Group the per-game keys (kind, name, measure) into one `RuleFigures` per rule."""
    grouped: dict[tuple[str, str], dict[str, Sample]] = {}
    for kind, name, measure in keys:
        if kind not in ("length", "balance", "by trick"):
            grouped.setdefault((kind, name), {})[measure] = tally.sample((kind, name, measure))
    return tuple(
        RuleFigures(kind, name, samples.pop("fired"), tuple(samples.items())) for (kind, name), samples in grouped.items()
    )


# ---------------------------------------------------------------- playing


@dataclass(frozen=True)
class _Source:
    """How a worker process gets the game: a spec path (+ players, options) or a ruleset."""

    path: str | None = None
    players: int | None = None
    options: Mapping[str, Any] | None = None
    ruleset: Ruleset | None = None

    def load(self) -> Game:
        """The game, loaded from the path or built from the ruleset."""
        if self.ruleset is not None:
            return Game(self.ruleset)
        assert self.path is not None
        return load_game(self.path, players=self.players, options=self.options)

    def for_workers(self) -> _Source:
        """The same source with an absolute path, whatever directory a worker starts in."""
        return self if self.path is None else _Source(os.path.abspath(self.path), self.players, self.options)


def worker_source(source: _Source, game: Game, backend: str) -> _Source:
    """What the workers load the game from: the spec's absolute path locally; on Ray the
    compiled ruleset itself, since the other machines of a cluster need not have the file."""
    return _Source(ruleset=game.ruleset) if backend == "ray" else source.for_workers()


def _source(spec: str | os.PathLike[str] | Ruleset | Game, players: int | None, options: Mapping[str, Any] | None) -> _Source:
    if isinstance(spec, Game):
        spec = spec.ruleset
    if isinstance(spec, Ruleset):
        if players is not None and players != spec.players:
            raise SimulationError(f"the ruleset is compiled for {spec.players} players, not {players}")
        return _Source(ruleset=spec)
    path = os.fspath(resolve_spec(spec))  # a shipped spec's name becomes its path
    return _Source(path=path, players=players, options=dict(options or {}))


def _seat_agents(agents: str | Sequence[str], players: int) -> tuple[str, ...]:
    names = [agents] if isinstance(agents, str) else list(agents)
    if not names:
        names = ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SimulationError(f"{len(names)} agents named for {players} players: name one, or one per seat")
    for name in dict.fromkeys(names):
        try:
            make_agent(name)  # an unknown agent fails before the first game
        except ValueError as error:
            raise SimulationError(str(error)) from None
    return tuple(names)


def play_games(game: Game, tallier: Tallier, first_seed: int, count: int, agents: Sequence[str]) -> Tally:
    """Play games with seeds ``first_seed .. first_seed + count - 1`` and tally them."""
    tally = tallier.new_tally()
    widths: list[list[int]] = []
    for state in playouts.play_games(game, count, first_seed, agents, record=True, widths=widths):
        tallier.add_game(tally, state, widths.pop())
    return tally


def load_for_chunks(source: _Source) -> tuple[Game, Tallier]:
    """A worker's game and tallier, loaded once per worker (see `backends.open_backend`)."""
    game = source.load()
    return game, Tallier(game)


def _play_chunk(context: tuple[Game, Tallier], task: tuple[int, int, tuple[str, ...]]) -> Tally:
    first_seed, count, agents = task
    return play_games(*context, first_seed, count, agents)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on every platform
        return max(1, os.cpu_count() or 1)


MAX_GAMES = 1_000_000_000
"""The most games one `simulate` run plays (``-n``): more is split into runs by seed."""

MAX_DEALS = 1_000_000
"""The most deals one `tournament` run plays (``-n``): its figures keep every deal."""

MAX_CHUNKS = 100_000
"""The most chunks a run is cut into: past 10 million games, chunks grow beyond 100 games."""


def _chunks(n: int, seed: int, workers: int) -> list[tuple[int, int]]:
    """(first seed, count) of each chunk: several per worker, for balance and progress; at
    most 100 games each, unless that would make more than `MAX_CHUNKS` chunks."""
    size = max(1, min(max(100, math.ceil(n / MAX_CHUNKS)), math.ceil(n / (workers * 8))))
    return [(seed + start, min(size, n - start)) for start in range(0, n, size)]


def check_run(n: int, workers: int | None, backend: str, address: str | None, counted: str = "games") -> None:
    """SimulationError for a bad count, number of workers, backend or address."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SimulationError(f"the number of {counted} must be at least 1, not {n}")
    most = MAX_DEALS if counted == "deals" else MAX_GAMES
    if n > most:
        raise SimulationError(
            f"the number of {counted} is at most {most:,} a run, not {n:,}: split the run into several with "
            "other seeds (--seed) and add up their figures"
        )
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise SimulationError(f"the number of workers must be at least 1, not {workers}")
    if backend not in BACKENDS:
        raise SimulationError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise SimulationError("an address is for the ray backend only: add --backend ray")


def simulate(
    spec: str | os.PathLike[str] | Ruleset | Game,
    n: int = 1000,
    players: int | None = None,
    agents: str | Sequence[str] = ("random",),
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    backend: str = "local",
    address: str | None = None,
    ray_timeout: float = DEFAULT_RAY_TIMEOUT,
) -> SimulationResult:
    """Play `n` games of `spec` and return the figures; the same for any number of `workers`
    and on either backend.

    `agents` names one agent for every seat or one per seat (any name `make_agent` takes).
    `backend` is ``local`` (`workers` processes on this machine; None: this process only) or
    ``ray`` (Ray tasks: on a local Ray instance, or on the cluster at `address`; `workers`
    tasks at a time, None: the cluster's CPUs; a cluster at `address` has `ray_timeout`
    seconds to answer); see `trickrules.tools.backends`. Raises `SpecError` for a bad spec
    and `SimulationError` for other bad input, at most `MAX_GAMES` games a run. With
    `workers` above 1 a script must call it under ``if __name__ == "__main__":``.
    """
    check_run(n, workers, backend, address)
    source = _source(spec, players, options)
    game = source.load()
    names = _seat_agents(agents, game.num_players)
    label = str(spec) if source.path is not None else (game.ruleset.source_file or game.ruleset.id)
    started = time.perf_counter()
    with open_backend(backend, workers, address, SimulationError, ray_timeout) as runner:
        chunks = _chunks(n, seed, runner.parallelism)
        tasks = [(first, count, names) for first, count in chunks]
        tallies = runner.map(load_for_chunks, worker_source(source, game, backend), _play_chunk, tasks, [count for _, count in chunks], progress)
    merged = Tally()
    for part in tallies:  # integer sums: any order would give the same, chunk order is kept anyway
        merged.add(part)
    result = _result(game, label, names, seed, merged)
    return replace(result, elapsed=time.perf_counter() - started)


# ---------------------------------------------------------------- comparing


def compare(a: SimulationResult, b: SimulationResult, alpha: float = 0.05) -> Comparison:
    """Test every figure the two results share; a rule only one spec has counts 0 in the other.

    Seats are matched by number, cards by id, ranks by value, rules by kind and name.
    """
    rows = []
    for seat_a, seat_b in zip(a.seats, b.seats):
        rows.append(rate_row("seat", f"P{seat_a.seat}", "win rate", seat_a.wins, seat_b.wins))
        rows.append(mean_row("seat", f"P{seat_a.seat}", "score", seat_a.scores, seat_b.scores))
    rows.append(mean_row("length", "tricks", "per game", a.tricks, b.tricks))
    rows.append(mean_row("length", "decisions", "per game", a.decisions, b.decisions))
    balance_b = dict(b.balance)
    rows += [mean_row("balance", name, "per game", sample, balance_b[name]) for name, sample in a.balance if name in balance_b]
    for kind, name in rule_union(a.rules, b.rules):
        rule_a, rule_b = a.rule(kind, name), b.rule(kind, name)
        for measure in ("fired", *dict.fromkeys(m for r in (rule_a, rule_b) if r for m, _ in r.amounts)):
            rows.append(mean_row(kind, name, measure, rule_sample(rule_a, measure, a.games), rule_sample(rule_b, measure, b.games)))
    cards_b = dict(b.cards)
    rows += [rate_row("card", card, "trick wins", won, cards_b[card]) for card, won in a.cards if card in cards_b]
    ranks_b = dict(b.ranks)
    rows += [rate_row("rank", str(rank), "trick wins", won, ranks_b[rank]) for rank, won in a.ranks if rank in ranks_b]
    return Comparison(_label(a), _label(b), tuple(rows), alpha)


def _label(result: SimulationResult) -> str:
    return f"{result.spec_id} ({result.spec})"
