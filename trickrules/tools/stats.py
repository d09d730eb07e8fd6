"""Statistics of many games: exact tallies from the event log, figures, and the tests that compare them.

A `Tally` holds only integers (counts, sums, sums of squares): adding the tallies of chunks of
games gives the same numbers whatever the chunks and processes. Floats appear only when a
tally is read as figures: a `Proportion` (with its Wilson interval) or a `Sample` (mean, sd,
range), per seat (`SeatFigures`) and per rule (`RuleFigures`). A `Comparison` tests two runs
figure by figure: a two-proportion z-test for rates, Welch's t-test for means.

>>> low, high = Proportion(30, 100).interval()
>>> round(low, 4), round(high, 4)
(0.2189, 0.3958)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trickrules.engine.phases import showing
from trickrules.rules.scoring import SECTION_CASES
from trickrules.tools.balance import BALANCE_KEYS, balance_values, by_trick_keys, by_trick_values

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal distribution

Key = tuple[str, str, str]
"""A per-game figure: (kind, name, measure), e.g. ("reward", "winning card", "taken")."""

POINTS_NAME = "(points)"
"""The token name under which rewards that give points are summed."""


# ---------------------------------------------------------------- figures


@dataclass(frozen=True)
class Proportion:
    """`successes` out of `trials` (successes may be fractional: shared wins)."""

    successes: float
    trials: int

    @property
    def rate(self) -> float | None:
        """successes / trials, or None when there were no trials."""
        return self.successes / self.trials if self.trials else None

    def interval(self, z: float = Z95) -> tuple[float, float] | None:
        """The Wilson score interval (95% by default), or None without trials."""
        n, rate = self.trials, self.rate
        if rate is None:
            return None
        denominator = 1 + z * z / n
        centre = (rate + z * z / (2 * n)) / denominator
        half = z * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n)) / denominator
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_json(self) -> dict[str, Any]:
        """successes, trials, rate and the 95% interval."""
        interval = self.interval()
        return {"successes": self.successes, "trials": self.trials, "rate": self.rate, "ci95": list(interval) if interval else None}


@dataclass(frozen=True)
class Sample:
    """One figure per game (or per seat and game): count, sum, sum of squares, range."""

    n: int
    total: float
    total_sq: float
    minimum: float
    maximum: float

    @classmethod
    def zeros(cls, n: int) -> Sample:
        """A figure that was 0 in each of `n` games (e.g. a rule one spec lacks)."""
        return cls(n, 0, 0, 0, 0)

    @classmethod
    def from_counts(cls, counts: Mapping[int, int]) -> Sample:
        """The sample of a histogram {value: games}."""
        values = sorted(counts)
        return cls(
            n=sum(counts.values()),
            total=sum(v * counts[v] for v in values),
            total_sq=sum(v * v * counts[v] for v in values),
            minimum=values[0] if values else 0,
            maximum=values[-1] if values else 0,
        )

    @property
    def mean(self) -> float:
        """The mean (0 for an empty sample)."""
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The unbiased sample variance (0 with fewer than two values)."""
        if self.n < 2:
            return 0.0
        # exact integer arithmetic first: no cancellation however large the sums
        return max(self.n * self.total_sq - self.total * self.total, 0) / (self.n * (self.n - 1))

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        return math.sqrt(self.variance)

    def to_json(self) -> dict[str, Any]:
        """n, mean, sd, min, max and the total."""
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.minimum, "max": self.maximum, "total": self.total}


# ---------------------------------------------------------------- tests


@dataclass(frozen=True)
class TestResult:
    """A two-sample test: the difference b - a, its statistic and two-sided p-value."""

    difference: float
    statistic: float
    p: float
    test: str

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether p < alpha."""
        return self.p < alpha


def normal_p(statistic: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(statistic) / math.sqrt(2))


def two_proportion_test(a: Proportion, b: Proportion) -> TestResult:
    """The pooled two-proportion z-test of b against a."""
    if not a.trials or not b.trials:
        return TestResult(0.0, 0.0, 1.0, "z")
    difference = b.successes / b.trials - a.successes / a.trials
    pooled = (a.successes + b.successes) / (a.trials + b.trials)
    se = math.sqrt(max(pooled * (1 - pooled), 0.0) * (1 / a.trials + 1 / b.trials))
    if se == 0:
        return TestResult(difference, 0.0, 1.0 if difference == 0 else 0.0, "z")
    z = difference / se
    return TestResult(difference, z, normal_p(z), "z")


def welch_test(a: Sample, b: Sample) -> TestResult:
    """Welch's t-test of b's mean against a's, with the normal approximation of t."""
    difference = b.mean - a.mean
    if not a.n or not b.n:
        return TestResult(0.0, 0.0, 1.0, "welch")
    se = math.sqrt(a.variance / a.n + b.variance / b.n)
    if se == 0:
        return TestResult(difference, 0.0, 1.0 if difference == 0 else 0.0, "welch")
    t = difference / se
    return TestResult(difference, t, normal_p(t), "welch")


# ---------------------------------------------------------------- figures of many games


@dataclass(frozen=True)
class SeatFigures:
    """One seat: its agent, win rate (shared wins count 1/k) and final scores."""

    seat: int
    agent: str
    wins: Proportion
    shared_wins: int
    scores: Sample
    score_counts: dict[int, int]

    def to_json(self) -> dict[str, Any]:
        """The seat's figures as JSON values."""
        return {
            "seat": self.seat,
            "agent": self.agent,
            "win_rate": self.wins.to_json(),
            "shared_wins": self.shared_wins,
            "score": self.scores.to_json(),
            "score_counts": {str(score): self.score_counts[score] for score in sorted(self.score_counts)},
        }


@dataclass(frozen=True)
class RuleFigures:
    """How often a reward, token, section-scoring case or round rule fired, per game.

    `amounts` are further per-game sums: ``asked`` and ``taken`` for rewards and tokens,
    ``score`` for section cases, ``points`` for round rules (which fire when non-zero).
    """

    kind: str
    name: str
    fired: Sample
    amounts: tuple[tuple[str, Sample], ...]

    @property
    def never_fired(self) -> bool:
        """Whether it fired in none of the games."""
        return self.fired.total == 0

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON values."""
        entry: dict[str, Any] = {"kind": self.kind, "name": self.name, "fired": self.fired.to_json(), "never_fired": self.never_fired}
        entry.update((measure, sample.to_json()) for measure, sample in self.amounts)
        return entry


def rule_union(a: Sequence[RuleFigures], b: Sequence[RuleFigures]) -> list[tuple[str, str]]:
    """(kind, name) of the rules of a then those only b has, kinds kept together."""
    kinds = dict.fromkeys(r.kind for r in (*a, *b))
    return [(kind, name) for kind in kinds for name in dict.fromkeys(r.name for r in (*a, *b) if r.kind == kind)]


def rule_sample(rule: RuleFigures | None, measure: str, games: int) -> Sample:
    """One measure of a rule, or zeros in every game when the spec lacks the rule."""
    if rule is None:
        return Sample.zeros(games)
    return rule.fired if measure == "fired" else dict(rule.amounts).get(measure, Sample.zeros(games))


# ---------------------------------------------------------------- comparisons


@dataclass(frozen=True)
class ComparisonRow:
    """One figure of both runs: values a and b (rates or means), b - a, and its test."""

    group: str
    name: str
    measure: str
    a: float | None
    b: float | None
    test: TestResult
    is_rate: bool

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether the difference is significant at `alpha`."""
        return self.test.significant(alpha)

    def to_json(self, alpha: float = 0.05) -> dict[str, Any]:
        """The row as JSON values."""
        return {
            "group": self.group,
            "name": self.name,
            "measure": self.measure,
            "a": self.a,
            "b": self.b,
            "difference": self.test.difference,
            "test": self.test.test,
            "statistic": self.test.statistic,
            "p": self.test.p,
            "significant": self.significant(alpha),
        }


@dataclass(frozen=True)
class Comparison:
    """Two simulation results side by side, each difference tested (p < `alpha`)."""

    a: str
    b: str
    rows: tuple[ComparisonRow, ...]
    alpha: float = 0.05

    def row(self, group: str, name: str, measure: str) -> ComparisonRow | None:
        """One row, if both results have the figure."""
        return next((r for r in self.rows if (r.group, r.name, r.measure) == (group, name, measure)), None)

    def significant(self) -> tuple[ComparisonRow, ...]:
        """The rows whose difference is significant."""
        return tuple(r for r in self.rows if r.significant(self.alpha))

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON values."""
        tests = {"rates": "two-proportion z-test", "means": "Welch's t-test, normal approximation"}
        return {"a": self.a, "b": self.b, "alpha": self.alpha, "tests": tests, "rows": [r.to_json(self.alpha) for r in self.rows]}


def rate_row(group: str, name: str, measure: str, a: Proportion, b: Proportion) -> ComparisonRow:
    """A row comparing two rates (two-proportion z-test)."""
    return ComparisonRow(group, name, measure, a.rate, b.rate, two_proportion_test(a, b), True)


def mean_row(group: str, name: str, measure: str, a: Sample, b: Sample) -> ComparisonRow:
    """A row comparing two means (Welch's t-test)."""
    return ComparisonRow(group, name, measure, a.mean, b.mean, welch_test(a, b), False)


# ---------------------------------------------------------------- the tally


@dataclass
class Tally:
    """Integer counts from games; `add` is exact, so any split of the games gives one total."""

    games: int = 0
    win_shares: list[dict[int, int]] = field(default_factory=list)  # [seat][k]: won with k winners
    scores: list[dict[int, int]] = field(default_factory=list)  # [seat][final total]: games
    per_game: dict[Key, list[int]] = field(default_factory=dict)  # key: [sum, sum sq, min, max]
    card_played: list[int] = field(default_factory=list)
    card_won: list[int] = field(default_factory=list)
    rank_played: dict[int, int] = field(default_factory=dict)
    rank_won: dict[int, int] = field(default_factory=dict)
    section_cases: dict[tuple[str, str], int] = field(default_factory=dict)  # (section, case)

    def add(self, other: Tally) -> None:
        """Add another tally of the same game to this one."""
        if not other.games:
            return
        if not self.games:
            self.__dict__.update(_copy_tally(other).__dict__)
            return
        self.games += other.games
        for mine, theirs in zip(self.win_shares + self.scores, other.win_shares + other.scores):
            _add_counts(mine, theirs)
        for key, (total, total_sq, low, high) in other.per_game.items():
            row = self.per_game[key]
            row[0] += total
            row[1] += total_sq
            row[2] = min(row[2], low)
            row[3] = max(row[3], high)
        self.card_played = [a + b for a, b in zip(self.card_played, other.card_played)]
        self.card_won = [a + b for a, b in zip(self.card_won, other.card_won)]
        for mine_counts, their_counts in ((self.rank_played, other.rank_played), (self.rank_won, other.rank_won)):
            _add_counts(mine_counts, their_counts)
        _add_counts(self.section_cases, other.section_cases)

    def sample(self, key: Key) -> Sample:
        """The per-game sample of one figure."""
        total, total_sq, low, high = self.per_game[key]
        return Sample(self.games, total, total_sq, low, high)


def _add_counts(mine: dict[Any, int], theirs: Mapping[Any, int]) -> None:
    for key, count in theirs.items():
        mine[key] = mine.get(key, 0) + count


def _copy_tally(tally: Tally) -> Tally:
    return Tally(
        games=tally.games,
        win_shares=[dict(c) for c in tally.win_shares],
        scores=[dict(c) for c in tally.scores],
        per_game={k: list(v) for k, v in tally.per_game.items()},
        card_played=list(tally.card_played),
        card_won=list(tally.card_won),
        rank_played=dict(tally.rank_played),
        rank_won=dict(tally.rank_won),
        section_cases=dict(tally.section_cases),
    )


def _reward_labels(game: Game) -> tuple[tuple[str, str], ...]:
    """Each reward of `game`: its name and the token it gives (or points)."""
    rules = game.ruleset
    return tuple((r.name, POINTS_NAME if r.token is None else rules.tokens[r.token].name) for r in rules.rewards)


class Tallier:
    """Reads finished, recorded games of one `Game` into a `Tally`."""

    def __init__(self, game: Game) -> None:
        rules = game.ruleset
        self.game = game
        # each reward's (name, token) by the game that gives it: the spec's (-1) and each contract's
        self.rewards = {index: _reward_labels(played) for index, played in enumerate(game.contract_games)}
        self.rewards[-1] = _reward_labels(game)
        labels = [label for index in sorted(self.rewards) for label in self.rewards[index]]
        self.reward_names = tuple(dict.fromkeys(name for name, _ in labels))
        self.reward_tokens = tuple(token for _, token in labels)
        self.rule_labels = unique_labels(game.rule_labels)
        self.has_sections = rules.tableau is not None
        # the rank a card counts as, by (card, face index): the face comes with each play
        self.face_rank = tuple(tuple(face.rank for face in card.faces) for card in rules.deck.cards)
        self.sides = side_labels(game) if game.bidding is not None and game.bidding.bidding != "precedence" else ()  # bids of tricks
        self.counting = tuple(kind for kind in showing("figures") if kind.used(game))  # kinds with figures
        self.tricks = game.num_cards // game.num_players  # the most tricks a round can have
        self.keys = self._keys() + by_trick_keys(self.tricks)

    def _keys(self) -> tuple[Key, ...]:
        """Every per-game figure, in report order; each is tallied (0 or not) in every game."""
        keys: list[Key] = [("length", "tricks", "count"), ("length", "decisions", "count"), *BALANCE_KEYS]
        for name in self.reward_names:
            keys += [("reward", name, m) for m in ("fired", "asked", "taken")]
        for token in dict.fromkeys(self.reward_tokens):
            keys += [("token", token, m) for m in ("fired", "asked", "taken")]
        if self.has_sections:
            for case in SECTION_CASES:
                keys += [("section", case, "fired"), ("section", case, "score")]
        for label in self.rule_labels:
            keys += [("round rule", label, "fired"), ("round rule", label, "points")]
        for _, label in self.sides:
            keys += [("contract", label, m) for m in ("fired", "made", "exact")]
        game = self.game
        declared = [*game.contract_names, *["trumps chosen"][: game.chooses_in_rounds or game.trump_choice is not None and game.trump_choice.by == "declarer"], *["alone"][: game.goes_alone]]
        keys += [("declared", name, "fired") for name in declared]
        return tuple(keys) + tuple(key for kind in self.counting for key in kind.figures(self.game))

    def new_tally(self) -> Tally:
        """An empty tally for this game."""
        n, cards = self.game.num_players, self.game.num_cards
        return Tally(
            win_shares=[{} for _ in range(n)],
            scores=[{} for _ in range(n)],
            per_game={key: [0, 0, 0, 0] for key in self.keys},
            card_played=[0] * cards,
            card_won=[0] * cards,
        )

    def add_game(self, tally: Tally, state: State, widths: Sequence[int] = ()) -> None:
        """Count one finished game played with ``record=True``; `widths` as `play_out` gives them."""
        values = dict.fromkeys(self.keys, 0) | balance_values(state, widths) | by_trick_values(widths, self.tricks)
        values["length", "decisions", "count"] = len(state.history)
        self._read_events(tally, values, state.events or [])
        for result in state.round_results:
            self._read_round(tally, values, result)
        first = tally.games == 0
        for key, value in values.items():
            row = tally.per_game[key]
            row[0] += value
            row[1] += value * value
            row[2] = value if first else min(row[2], value)
            row[3] = value if first else max(row[3], value)
        winners = state.winners()
        for seat in winners:
            shares = tally.win_shares[seat]
            shares[len(winners)] = shares.get(len(winners), 0) + 1
        for seat, total in enumerate(state.totals):
            tally.scores[seat][total] = tally.scores[seat].get(total, 0) + 1
        tally.games += 1

    def _read_events(self, tally: Tally, values: dict[Key, int], events: Iterable[dict[str, Any]]) -> None:
        ranks: dict[int, int] = {}  # card -> rank it counted as in the current trick
        bids: dict[int, int] = {}
        rewards = self.rewards[-1]  # the rewards of the game playing the round: a contract's once declared
        memory: dict[str, Any] = {}  # what the kinds counting their own figures keep (`PhaseKind.count`)
        for event in events:
            for counting in self.counting:
                counting.count(event, values, memory)
            kind = event["type"]
            if kind == "bid" and event["bid"] is not None:  # a pass (bidding by precedence) leaves the last bid
                bids[event["player"]] = event["bid"]
            elif kind == "deal":
                rewards = self.rewards[-1]
            elif kind == "contract":
                rewards = self.rewards[event["contract"]]
                values["declared", self.game.contract_names[event["contract"]], "fired"] += 1
            elif kind == "choose" and event["suit"] is not None:
                values["declared", "trumps chosen", "fired"] += 1
            elif kind == "alone" and event["alone"]:
                values["declared", "alone", "fired"] += 1
            elif kind == "round_end" and bids:
                self._read_contracts(values, bids, [m["tricks"] for m in event["measures"]])
                bids = {}
            elif kind == "play":
                ranks[event["card"]] = self.face_rank[event["card"]][event["face"]]
            elif kind == "trick":
                self._read_trick(tally, event, ranks)
                values["length", "tricks", "count"] += 1
            elif kind == "reward":
                name, token = rewards[event["reward"]]
                for figure in (("reward", name), ("token", token)):
                    values[(*figure, "fired")] += 1
                    values[(*figure, "asked")] += event["amount"]
                    values[(*figure, "taken")] += event["taken"]

    def _read_contracts(self, values: dict[Key, int], bids: dict[int, int], tricks: list[int]) -> None:
        """A round's contracts: each side bid, made (tricks >= bid) or made exactly."""
        for seats, label in self.sides:
            bid, taken = sum(bids.get(p, 0) for p in seats), sum(tricks[p] for p in seats)
            values["contract", label, "fired"] += 1
            values["contract", label, "made"] += taken >= bid
            values["contract", label, "exact"] += taken == bid

    def _read_trick(self, tally: Tally, event: dict[str, Any], ranks: dict[int, int]) -> None:
        cards = event["cards"]
        winning_card = cards[event["players"].index(event["winner"])]
        for card in cards:
            tally.card_played[card] += 1
            tally.rank_played[ranks[card]] = tally.rank_played.get(ranks[card], 0) + 1
        tally.card_won[winning_card] += 1
        rank = ranks[winning_card]
        tally.rank_won[rank] = tally.rank_won.get(rank, 0) + 1

    def _read_round(self, tally: Tally, values: dict[Key, int], result: dict[str, Any]) -> None:
        for rows in result.get("sections", []):
            for row in rows:
                values["section", row["case"], "fired"] += 1
                values["section", row["case"], "score"] += row["score"]
                place = (row["section"], row["case"])
                tally.section_cases[place] = tally.section_cases.get(place, 0) + 1
        for points in result["rules"]:
            for label, value in zip(self.rule_labels, points.values()):
                values["round rule", label, "fired"] += value != 0
                values["round rule", label, "points"] += value


def side_labels(game: Game) -> tuple[tuple[tuple[int, ...], str], ...]:
    """The sides that bid: each team (``P0+P2``), or each player (``P0``) without teams."""
    teams = game.ruleset.teams or tuple((p,) for p in range(game.num_players))
    return tuple((team, "+".join(f"P{p}" for p in team)) for team in teams)


def unique_labels(labels: Iterable[str], mark: str = " #") -> tuple[str, ...]:
    """Labels made unique by a ' #2', ' #3' suffix (`mark`, count) on repeats (two rules may read alike)."""
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        unique.append(label if seen[label] == 1 else f"{label}{mark}{seen[label]}")
    return tuple(unique)
