"""Scoring: sections of a tableau, per-player measures, and the round's point rules."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple
from itertools import chain

from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import Measure, PointRule, Ruleset, Section, SectionValue, Tableau


MAX_POINTS: Final = 1_000_000_000
"""Points of a round, totals and counters stay within ±MAX_POINTS while a game plays: a value
beyond is held at the bound (so no formula, however it grows, makes numbers without end)."""


def held(value: int) -> int:
    """`value` held within ±`MAX_POINTS`."""
    if -MAX_POINTS <= value <= MAX_POINTS:
        return value
    return MAX_POINTS if value > 0 else -MAX_POINTS


class PlayerRound(NamedTuple):
    """What one player holds at the end of a round, as scoring sees it."""

    pile: tuple[int, ...]
    tricks: int
    stacks: tuple[tuple[int, ...], ...]
    section_tokens: tuple[int, ...]
    pool: tuple[int, ...]

    def won_cards(self) -> tuple[int, ...]:
        """Every card this player won: pile and tableau stacks."""
        if not self.stacks:
            return self.pile
        return self.pile + tuple(chain.from_iterable(self.stacks))


SECTION_CASES = ("cards_staffed", "cards_understaffed", "empty_staffed", "empty_understaffed")


def section_case(section: Section, stack: Sequence[int], tokens: int) -> str:
    """Which of the four scoring cases a section is in."""
    staffed = tokens >= section.tokens_needed
    if stack:
        return "cards_staffed" if staffed else "cards_understaffed"
    return "empty_staffed" if staffed else "empty_understaffed"


def section_value(value: SectionValue, section: Section, stack: Sequence[int], tokens: int, faces: Faces) -> int:
    """What a section scores under `value`."""
    kind = value.kind
    if kind == "top_rank":
        return faces.rank[stack[-1]] if stack else 0
    if kind == "sum_ranks":
        return sum(faces.rank[c] for c in stack)
    if kind == "card_count":
        return len(stack)
    if kind == "value":
        return section.value
    if kind == "per_missing_token":
        return value.number * max(0, section.tokens_needed - tokens)
    return value.number


def section_scores(tableau: Tableau, player: PlayerRound, faces: Faces) -> list[tuple[str, str, int]]:
    """(section name, case, score) of every section of a player's tableau."""
    scores = []
    for section, stack, tokens in zip(tableau.sections, player.stacks, player.section_tokens):
        case = section_case(section, stack, tokens)
        scores.append((section.name, case, section_value(getattr(tableau, case), section, stack, tokens, faces)))
    return scores


def measure_value(
    measure: Measure, ruleset: Ruleset, player: PlayerRound, faces: Faces, tableau_score: int | None = None
) -> int:
    """One measure of one player at the end of a round (`tableau_score`: already summed)."""
    kind = measure.kind
    if kind == "tricks":
        return player.tricks
    if kind == "cards":
        return len(player.won_cards())
    if kind == "sum_attribute":
        column = ruleset.deck.columns[measure.attribute]  # type: ignore[index]
        return sum([column[c] for c in player.won_cards()])
    if kind == "tokens":
        placed = sum(player.section_tokens) if _staffs_tableau(ruleset, measure.token) else 0
        return player.pool[measure.token] + placed  # type: ignore[index]
    if kind in ("count", "run"):  # a holding's, taken by the engine (`engine.holdings`)
        return 0
    if tableau_score is not None:
        return tableau_score
    assert ruleset.tableau is not None
    return sum(score for _, _, score in section_scores(ruleset.tableau, player, faces))


class RoundScore(NamedTuple):
    """A round's scoring: sections, measures and points by rule, per player."""

    sections: list[list[tuple[str, str, int]]]
    measures: list[list[int]]
    points: list[list[int]]


def score_round(
    ruleset: Ruleset,
    players: Sequence[PlayerRound],
    faces: Faces,
    envs: Sequence[Mapping[str, Any]] | None = None,
    teams: Sequence[Sequence[int]] | None = None,
    known: RoundNames | None = None,
    measures: list[list[int]] | None = None,
) -> RoundScore:
    """Score a finished round: each section once, then the measures and the point rules.

    `envs` are the values each player's expressions read besides the measures (options,
    counters); needed only by expression rules. `known`, if given, receives the round's
    measures and keeps the names expressions read, for the counters changed at the round's end.
    `measures`, if given, are the round's measures, already taken.
    """
    tableau = ruleset.tableau
    sections = [section_scores(tableau, p, faces) for p in players] if tableau is not None else []
    totals: list[int | None] = [sum(s for _, _, s in rows) for rows in sections] or [None] * len(players)
    if measures is not None:
        pass
    elif tableau is None:
        measures = pile_measures(ruleset, [p.pile for p in players], [p.tricks for p in players], [p.pool for p in players])
    else:
        measures = [
            [measure_value(m, ruleset, p, faces, total) for m in ruleset.scoring.measures]
            for p, total in zip(players, totals)
        ]
    if known is None:
        names = tuple([m.name for m in ruleset.scoring.measures])
        known = RoundNames(names, envs, ruleset.teams if teams is None else teams)
    known.measures = measures
    points = round_points(ruleset.scoring.round_rules, measures, known=known, pool=ruleset.scoring.pool)
    return RoundScore(sections, measures, points)


def pile_measures(
    ruleset: Ruleset, piles: Sequence[Sequence[int]], tricks: Sequence[int], pools: Sequence[Sequence[int]]
) -> list[list[int]]:
    """The measures of a game without a tableau, from each player's pile, tricks and tokens:
    `measure_value` by kind, each measure once for all players (the common case, and the one
    at the end of every round)."""
    columns = ruleset.deck.columns
    result: list[list[int]] = [[] for _ in piles]
    for measure in ruleset.scoring.measures:
        kind = measure.kind
        for player, row in enumerate(result):
            if kind == "tricks":
                value = tricks[player]
            elif kind == "cards":
                value = len(piles[player])
            elif kind == "sum_attribute":
                column: tuple[int, ...] = columns[measure.attribute]  # type: ignore[index]
                value = 0
                for card in piles[player]:
                    value += column[card]
            elif kind == "tokens":
                value = pools[player][measure.token]  # type: ignore[index]
            else:  # count or run: a holding's, taken by the engine (`engine.holdings`)
                value = 0
            row.append(value)
    return result


def _staffs_tableau(ruleset: Ruleset, token: int | None) -> bool:
    return ruleset.tableau is not None and ruleset.tableau.token == token


def best_players(rule: PointRule, measures: Sequence[Sequence[int]]) -> list[int]:
    """Players best by the rule's keys in order; all still tied are best."""
    players = list(range(len(measures)))
    for key in rule.keys:
        values = [measures[p][key.measure] for p in players]
        target = max(values) if key.most else min(values)
        players = [p for p, v in zip(players, values) if v == target]
    return players


def round_points(
    rules: Sequence[PointRule],
    measures: Sequence[Sequence[int]],
    names: Sequence[str] = (),
    envs: Sequence[Mapping[str, Any]] | None = None,
    teams: Sequence[Sequence[int]] = (),
    known: RoundNames | None = None,
    pool: bool = True,
) -> list[list[int]]:
    """Points each rule gives each player: result[player][rule].

    A team rule's points are written to the team's first seat (partners pool their points);
    unless `pool`, to each of its seats (each keeps its own points).
    `known` holds the names expressions read, built once for this round (see `RoundNames`).
    """
    result = [[0] * len(rules) for _ in measures]
    if known is None:
        known = RoundNames(names, envs, teams)
        known.measures = [list(values) for values in measures]
    for index, rule in enumerate(rules):
        if rule.kind == "expression" and rule.per == "team":
            assert rule.expression is not None
            function = rule.expression
            for team, env in zip(known.teams, known.by_team()):
                value = held(int(function(env)))
                for seat in team if not pool else team[:1]:
                    result[seat][index] = value
        elif rule.kind == "expression":
            assert rule.expression is not None
            function = rule.expression
            for player, env in enumerate(known.by_player()):
                result[player][index] = held(int(function(env)))
        elif rule.kind == "add":
            for player, values in enumerate(measures):
                result[player][index] = held(values[rule.measure] * rule.times)
        else:
            for player in best_players(rule, measures):
                result[player][index] = rule.points
    return result


class RoundNames:
    """The names a round's expression rules and round-end counters read, each mapping built
    once, on first use: per player, its own measures, everyone's (``all_<measure>``) and the
    values in `envs`; per team, the same with every per-player value summed over the team's
    seats: its measures, its bids and its players' counters (one rule for them all).

    With `owned`, the mappings in `envs` were made for this round alone and the players' names
    are filled into them in place (otherwise they are copied first); `bids` (by seat), if
    given, are the bids a team sums; `player_counters` (name -> values by seat), if given, are
    the per-player counters a team sums (the engine gives them all: `round_end.score_now`).
    """

    __slots__ = ("names", "envs", "teams", "bids", "player_counters", "measures", "_players", "_teams")

    def __init__(
        self,
        names: Sequence[str],
        envs: Sequence[Mapping[str, Any]] | None,
        teams: Sequence[Sequence[int]],
        owned: bool = False,
        bids: Sequence[int] | None = None,
        player_counters: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self.envs: list[dict[str, Any]] | None = (
            None if envs is None else [e if owned and type(e) is dict else dict(e) for e in envs]
        )
        self.teams: tuple[tuple[int, ...], ...] = tuple([tuple(team) for team in teams])
        self.bids: tuple[int, ...] | None = None if bids is None else tuple(bids)
        self.player_counters: dict[str, tuple[int, ...]] = {k: tuple(v) for k, v in (player_counters or {}).items()}
        self.measures: list[list[int]] = []  # set once the round's measures are known
        self._players: list[dict[str, Any]] | None = None
        self._teams: list[dict[str, Any]] | None = None

    def by_player(self) -> list[dict[str, Any]]:
        if self._players is None:
            self._players = expression_envs_of(self.names, self.measures, self.envs)
        return self._players

    def by_team(self) -> list[dict[str, Any]]:
        if self._teams is None:
            self._teams = team_expression_envs(
                self.names, self.measures, self.envs, self.teams, self.bids, self.player_counters
            )
        return self._teams


def team_expression_envs(
    names: tuple[str, ...],
    measures: list[list[int]],
    envs: list[dict[str, Any]] | None,
    teams: tuple[tuple[int, ...], ...],
    bids: tuple[int, ...] | None = None,
    player_counters: Mapping[str, Sequence[int]] | None = None,
) -> list[dict[str, Any]]:
    """Each team's names: every per-player value summed over its members (measures, `bid` and
    the per-player counters, as `player_counters` names them by seat), ``all_<measure>`` by
    team; the rest (options, table and team counters, `makers`, `declarer`) as its first seat
    reads them. `bids` by seat are read from `envs` when not given. `envs` are left unchanged."""
    width = len(names)
    team_measures: list[list[int]] = []
    team_bases: list[dict[str, Any]] = []
    for team in teams:
        sums = [0] * width
        for player in team:
            row = measures[player]
            for i in range(width):
                sums[i] += row[i]
        team_measures.append(sums)
        base: dict[str, Any] = dict(envs[team[0]]) if envs is not None else {}
        if envs is not None and "bid" in base:
            base["bid"] = sum([bids[p] for p in team]) if bids is not None else sum([int(envs[p]["bid"]) for p in team])
        for name, by_seat in (player_counters or {}).items():
            if name in base:
                base[name] = sum([by_seat[p] for p in team])
        team_bases.append(base)
    return expression_envs_of(names, team_measures, team_bases)


def expression_envs_of(
    names: tuple[str, ...], measures: list[list[int]], envs: list[dict[str, Any]] | None
) -> list[dict[str, Any]]:
    """Each player's names for expression rules: own measures, everyone's (``all_<measure>``),
    filled into `envs` in place (new mappings when `envs` is None)."""
    width = len(names)
    all_names = _all_names(names)
    columns: dict[str, Any] = {}
    if measures:
        for i in range(width):
            columns[all_names[i]] = tuple([row[i] for row in measures])
    result: list[dict[str, Any]] = []
    for player in range(len(measures)):
        values = measures[player]
        env: dict[str, Any] = envs[player] if envs is not None else {}
        env.update(columns)
        for i in range(width):
            env[names[i]] = values[i]
        result.append(env)
    return result


_ALL_NAMES: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}


def _all_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """``all_<measure>`` for each measure name (the names of everyone's values)."""
    found = _ALL_NAMES.get(names)
    if found is None:
        if len(_ALL_NAMES) > 256:
            _ALL_NAMES.clear()
        found = _ALL_NAMES[names] = tuple([f"all_{name}" for name in names])
    return found


def game_winners(winner: str, totals: Sequence[int]) -> list[int]:
    """The players with the best total; equal totals share the win."""
    target = max(totals) if winner == "most_points" else min(totals)
    return [p for p, total in enumerate(totals) if total == target]


def describe_rule(rule: PointRule, measures: Sequence[Measure]) -> str:
    """A short label of a point rule, for breakdowns."""
    if rule.kind == "expression":
        return rule.name or (rule.expression.text if rule.expression is not None else "")
    if rule.kind == "add":
        if rule.name:
            return rule.name
        times = "" if rule.times == 1 else f" x {rule.times}"
        return f"{measures[rule.measure].name}{times}"
    keys = ", then ".join(("most " if k.most else "fewest ") + measures[k.measure].name for k in rule.keys)
    return f"best by {keys}"

