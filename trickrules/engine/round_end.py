"""The end of a round: the names scoring expressions read, counters changed at the round's
end, what `until` reads, and a finished round's result as the records and logs show it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from trickrules.engine.phases import bid, take
from trickrules.engine import holdings
from trickrules.rules.scoring import PlayerRound, RoundNames, RoundScore, held, measure_value, pile_measures, score_round

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State


def score_now(state: State, final: bool = True) -> tuple[RoundScore, list[int], RoundNames]:
    """The round scored as it stands, changing nothing: the score by rule, each player's points
    (rules and rewards, partners' pooled) and the names scoring read (`State.end_round` adds
    the points to the totals; a learning environment reads them mid-round, not `final`: then a
    measure of dealt or held cards reads 0, see `holdings.fill_holdings`)."""
    game = state.play_game
    n = state.num_players
    if game.ruleset.tableau is None:  # the measures come from piles, tricks and tokens alone
        players: list[PlayerRound] = []
        measures = pile_measures(game.ruleset, take.scored_piles(state), state.tricks_won, state.pool)
    else:
        players = [state.player_round(p) for p in range(n)]
        measures = None
    if holdings.reads_holdings(game.ruleset.scoring.measures):  # measures of dealt, held or matching cards
        won = [p.won_cards() for p in players] if measures is None else take.scored_piles(state)
        if measures is None:
            measures = [[measure_value(m, game.ruleset, p, state.tables.faces) for m in game.ruleset.scoring.measures] for p in players]
        holdings.fill_holdings(state, measures, won, final)
    envs: list[dict[str, Any]] | None = None
    if game.team_envs_only:  # a team's names start from its first seat's: the others are not read
        envs = state.score_envs([team[0] for team in state.round_teams])
    elif game.scores_expressions or game.counts_round_end:
        envs = state.score_envs()
    bids = tuple(b or 0 for b in bid.bids(state))
    per_seat = {name: tuple(state.counters[name]) for name, scope in game.player_counters if scope == "player"}
    known = RoundNames(game.measure_names, envs, state.round_teams, owned=True, bids=bids, player_counters=per_seat)
    score = score_round(game.ruleset, players, state.tables.faces, envs, state.round_teams, known, measures)
    points = [held(sum(p) + b) for p, b in zip(score.points, state.bonus)]
    for team in state.round_teams if game.ruleset.scoring.pool else ():  # partners pool their points
        pooled = held(sum(points[p] for p in team))
        for p in team:
            points[p] = pooled
    return score, points, known


def score_envs(state: State, only: list[int] | None = None) -> list[dict[str, Any]]:
    """What each player's scoring expressions read besides the measures: options,
    counters, `bid` (0 if none), `bids`, `hand_size`, `players`, as far as the game's scoring
    reads them (`Game.scoring_reads`). With `only`, the other players' mappings are empty."""
    bids = tuple([b or 0 for b in bid.bids(state)])
    common: dict[str, Any] = {"bids": bids, "hand_size": state.hand_size, "players": state.num_players}
    common["declarer"] = state.declarer
    common["alone"] = int(bool(state.sitting_out))
    for kind in state.game.naming:  # what the round's kinds of phase give scoring
        common.update(kind.names(state))
    reads = state.play_game.scoring_reads  # only these are read: the mappings hold no more
    declaring = declaring_side(state) if "makers" in reads else ()
    result: list[dict[str, Any]] = []
    for player in range(state.num_players):
        values: dict[str, Any] = {}
        if only is None or player in only:
            env = state.env(player)
            for name in reads:  # a player's own values first, then the common ones, then `env`
                if name == "bid":
                    values[name] = bids[player]
                elif name == "makers":
                    values[name] = int(player in declaring)
                elif name == "team_size":
                    values[name] = len(side_of(state.round_teams, player))
                elif name in common:
                    values[name] = common[name]
                elif name in env:
                    values[name] = env[name]
        result.append(values)
    return result


def declaring_side(state: State) -> tuple[int, ...]:
    """The declarer and partners (no one when no one declared); with teams by the deal, the
    holders of the partner cards (the first team)."""
    if state.play_game.ruleset.partner_cards:
        teams = state.round_teams
        return teams[0] if len(teams) > 1 else ()
    if state.declarer < 0:
        return ()
    return side_of(state.round_teams, state.declarer)


def side_of(teams: Sequence[Sequence[int]], player: int) -> tuple[int, ...]:
    """The seats of `player`'s team among `teams`, or `player` alone outside every team."""
    return next((tuple(team) for team in teams if player in team), (player,))


def count_round_end(state: State, known: RoundNames) -> None:
    """Add each counter's `on_round_end` amount, for the table, each player or each team
    (`known`: the names the round's scoring read, see `score_round`)."""
    rules = state.play_game.ruleset
    gains: list[tuple[str, int, int | None]] = []
    for counter in rules.counters:
        amount = counter.on_round_end
        if amount is None:
            continue
        if counter.scope == "player":
            gains += [(counter.name, held(int(amount(env))), p) for p, env in enumerate(known.by_player())]
        elif counter.scope == "team":
            gains += [(counter.name, held(int(amount(env))), t) for t, env in enumerate(known.by_team())]
        else:
            gains.append((counter.name, held(int(amount(known.by_player()[0]))), None))
    for name, gain, index in gains:
        if index is None:
            state.counters[name] = held(state.counters[name] + gain)
        else:
            state.counters[name][index] = held(state.counters[name][index] + gain)
    state.changed()


def game_env(state: State) -> dict[str, Any]:
    """What `until` reads: a player counter is everyone's values, in seat order."""
    env = dict(state.env(0))
    for name, _ in state.game.player_counters:
        env[name] = tuple(state.counters[name])
    env["round"] = state.round  # rounds played
    return env


def round_result(number: int, score: RoundScore, bonus: tuple[int, ...], points: list[int], game: Game) -> dict[str, Any]:
    """A finished round's score: measures, points by rule, reward points, sections, points."""
    names, labels = game.measure_names, game.rule_labels
    result: dict[str, Any] = {
        "round": number,
        "measures": [dict(zip(names, m)) for m in score.measures],
        "rules": [dict(zip(labels, p)) for p in score.points],
        "rewards": list(bonus),
        "points": list(points),
    }
    if score.sections:
        result["sections"] = [
            [{"section": s, "case": c, "score": v} for s, c, v in rows] for rows in score.sections
        ]
    return result


def opponents_of(state: State, teams: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    """By player: the players not on its side among `teams` (this round's by default)."""
    n = state.num_players
    sides = [side_of(state.round_teams if teams is None else teams, p) for p in range(n)]
    return [[q for q in range(n) if q not in sides[p]] for p in range(n)]


def points_since(state: State, totals: Sequence[int], round_number: int) -> list[float]:
    """Each player's points of round `round_number` at `state`: the change of the totals since
    `totals` (the totals as that round began) once the round is over, else the round's points
    so far (`score_now`, not final). What search values a position by."""
    if state.round != round_number or state.is_terminal():
        return [after - before for after, before in zip(state.totals, totals)]
    return [float(p) for p in score_now(state, final=False)[1]]


def margins_of(game: Game, gains: Sequence[float], opponents: list[list[int]]) -> list[float]:
    """Each player's *margin* for points `gains` of a round: its gain less its opponents'
    mean, with the signs turned where the fewest points win (fewer points gain more). Search
    (`ismcts`, `solver`) plays for it."""
    if game.ruleset.scoring.winner != "most_points":
        gains = [-g for g in gains]
    return [g - (sum(gains[q] for q in rivals) / len(rivals) if rivals else 0.0) for g, rivals in zip(gains, opponents)]
