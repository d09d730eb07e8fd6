"""The text report of a simulation and of a comparison of two (`trickrules simulate`)."""

from __future__ import annotations

import math
import time
from typing import TextIO

from trickrules.tools.stats import (
    Z95,
    Comparison,
    ComparisonRow,
    Proportion,
)

from trickrules.tools.simulate import SimulationResult, TIE_RULE
from trickrules.tools.output import counted
from trickrules.tools.never_fired import never_fired_lines

# ---------------------------------------------------------------- text


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _header(result: SimulationResult) -> list[str]:
    agents = sorted(set(result.agents))
    agent_text = f"{agents[0]} for every seat" if len(agents) == 1 else ", ".join(result.agents)
    options = ", ".join(f"{k}={v}" for k, v in result.options.items()) or "none"
    return [
        f"{result.title} ({result.spec}): {counted(result.players, 'player')}, {counted(result.games, 'game')}, "
        f"seeds {result.seed}..{result.seed + result.games - 1}, agents: {agent_text}, options: {options}",
    ]


def render_report(result: SimulationResult) -> str:
    """The figures of one result as plain-text tables."""
    games = result.games
    lines = _header(result)
    lines.append(f"Win rates: {TIE_RULE}{'; partners share their wins' if result.teams else ''}; {counted(result.shared_games, 'game')} ({_percent(result.shared_games / games)}) had a shared win.")
    lines += ["", f"{'seat':<6}{'agent':<9}{'win rate':>9}  {'95% CI':<17}{'mean score':>11}{'sd':>8}{'min':>7}{'max':>7}"]
    for seat in result.seats:
        low, high = seat.wins.interval() or (0.0, 0.0)
        ci = f"[{_percent(low)}, {_percent(high)}]"
        s = seat.scores
        lines.append(f"P{seat.seat:<5}{seat.agent:<9}{_percent(seat.wins.rate):>9}  {ci:<17}{s.mean:>11.2f}{s.sd:>8.2f}{s.minimum:>7}{s.maximum:>7}")
    lines += _team_lines(result) + _contract_lines(result)
    t, d = result.tricks, result.decisions
    lines += ["", f"Game length: {t.mean:.2f} tricks (sd {t.sd:.2f}, {t.minimum}..{t.maximum}), "
              f"{d.mean:.2f} decisions (sd {d.sd:.2f}, {d.minimum}..{d.maximum})"]
    lines += _balance_lines(result)
    lines += _rule_lines(result)
    lines += _trick_win_lines("rank", [(str(r), p) for r, p in result.ranks])
    lines += _trick_win_lines("card", list(result.cards))
    return "\n".join(lines)


BALANCE_WORDS = {
    "rounds": "rounds a game",
    "lead changes": "times a side alone in the lead gave way to another",
    "comeback": "share of games whose winner trailed after some round",
    "drama": "the winner's mean deficit before the last round, % of the spread",
    "decided": "% of the rounds played before the winner led for good",
    "choices": "legal actions a decision (the branching factor)",
    "lead choices": "legal cards to lead a trick",
    "follow choices": "legal cards to play into a trick begun",
}


def _balance_lines(result: SimulationResult) -> list[str]:
    """The balance figures (see `trickrules.tools.balance`): means with 95% intervals."""
    if not result.balance:
        return []
    lines = ["", f"{'Balance':<16}{'mean':>9}  {'95% CI':<19}  what it counts"]
    for name, sample in result.balance:
        half = Z95 * sample.sd / math.sqrt(sample.n) if sample.n > 1 else 0.0
        if name == "comeback":
            value, ci = _percent(sample.mean), f"[{_percent(sample.mean - half)}, {_percent(sample.mean + half)}]"
        else:
            value, ci = f"{sample.mean:.2f}", f"[{sample.mean - half:.2f}, {sample.mean + half:.2f}]"
        lines.append(f"  {name:<14}{value:>9}  {ci:<19}  {BALANCE_WORDS[name]}")
    fair = result.fairness
    if fair is not None:
        rates = ", ".join(f"{label} {_percent(rate)}" for label, rate in zip(fair.sides, fair.rates))
        lines.append(f"  seat fairness: win rates {rates}; gap {_percent(fair.gap)}, chi-square {fair.chi_square:.2f} (p {_p_text(fair.p)}: "
                     f"{'the sides do not win equally often' if fair.p < 0.05 else 'no evidence that a side is favoured'})")
    if result.by_trick:
        lines.append("  choices by trick (lead/follow): " + ", ".join(f"{t}: {_mean(lead)}/{_mean(follow)}" for t, lead, follow in result.by_trick))
    return lines


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _team_lines(result: SimulationResult) -> list[str]:
    """Win rates by team: the members' shares of wins added up (partners win together)."""
    if not result.teams:
        return []
    lines = ["", f"{'team':<12}{'agents':<18}{'win rate':>9}  95% CI"]
    for team in result.teams:
        wins = Proportion(sum(result.seats[p].wins.successes for p in team), result.games)
        low, high = wins.interval() or (0.0, 0.0)
        agents = ",".join(result.agents[p] for p in team)
        label = "+".join(f"P{p}" for p in team)
        lines.append(f"{label:<12}{agents:<18}{_percent(wins.rate):>9}  [{_percent(low)}, {_percent(high)}]")
    return lines


def _contract_lines(result: SimulationResult) -> list[str]:
    """How often each side's bids were made (tricks >= bid), made exactly, or missed."""
    contracts = [r for r in result.rules if r.kind == "contract"]
    if not contracts:
        return []
    lines = ["", f"{'contracts':<12}{'rounds':>8}{'made':>9}  {'95% CI':<17}{'exact':>8}{'missed':>8}"]
    for rule in contracts:
        rounds = int(rule.fired.total)
        amounts = dict(rule.amounts)
        made, exact = amounts["made"].total, amounts["exact"].total
        rate = Proportion(made, rounds)
        low, high = rate.interval() or (0.0, 0.0)
        missed = _percent((rounds - made) / rounds) if rounds else "-"
        lines.append(
            f"{rule.name:<12}{rounds:>8}{_percent(rate.rate):>9}  {'[' + _percent(low) + ', ' + _percent(high) + ']':<17}"
            f"{_percent(exact / rounds) if rounds else '-':>8}{missed:>8}"
        )
    return lines


_RULE_TITLES = {
    "reward": ("Rewards", "fired: times a player got it; asked/taken: tokens or points"),
    "token": ("Tokens from rewards", "the rewards above summed by token kind"),
    "section": ("Section scoring cases", "fired: sections (of all players, all rounds) scored in that case"),
    "round rule": ("Round rules", "fired: times a player got non-zero points from it in a round"),
    "declared": ("Declarations", "fired: rounds in which it was declared (trumps chosen, a contract, going alone)"),
    "auction": ("Auctions", "fired: deals whose auction ended so; made: of those, contracts whose declarer scored above 0"),
    "call": ("Calls", "fired: rounds in which the declarer called a card"),
    "take": ("Set-aside cards", "fired: rounds in which the declarer took them (the whole pile, or that group); buried: cards buried"),
    "melds": ("Melds shown", "fired: times a seat showed that meld to the table"),
}


def _rule_lines(result: SimulationResult) -> list[str]:
    lines: list[str] = []
    for kind, (title, note) in _RULE_TITLES.items():
        rules = [r for r in result.rules if r.kind == kind]
        if not rules:
            continue
        measures = [m for m, _ in rules[0].amounts]
        lines += ["", f"{title + ':':<34}{'fired':>9}{'per game':>10}" + "".join(f"{m + '/game':>13}" for m in measures)]
        lines.append(f"  ({note})")
        for rule in rules:
            amounts = "".join(f"{sample.mean:>13.2f}" for _, sample in rule.amounts)
            flag = "  never fired" if rule.never_fired else ""
            lines.append(f"  {rule.name:<32}{rule.fired.total:>9}{rule.fired.mean:>10.2f}{amounts}{flag}")
    return lines + never_fired_lines(result.spec, result.rules)


def _trick_win_lines(what: str, rows: list[tuple[str, Proportion]]) -> list[str]:
    lines = ["", f"{'Trick wins by ' + what + ':':<34}{'won':>8}{'played':>9}{'rate':>8}  95% CI"]
    for name, won in rows:
        interval = won.interval()
        ci = f"[{_percent(interval[0])}, {_percent(interval[1])}]" if interval else ""
        lines.append(f"  {name:<32}{won.successes:>8.0f}{won.trials:>9}{_percent(won.rate):>8}  {ci}")
    return lines


def render_comparison(comparison: Comparison, a: SimulationResult, b: SimulationResult) -> str:
    """Two results side by side: A, B, B - A, p, and a mark on significant differences."""
    lines = ["A: " + _header(a)[0], "B: " + _header(b)[0]]
    lines.append(f"Rates: two-proportion z-test; means: Welch's t-test (normal approximation); significant: p < {comparison.alpha}.")
    lines.append(f"Win rates: {TIE_RULE}. Rule firings are compared as means per game.")
    lines += ["", f"{'figure':<46}{'A':>10}{'B':>10}{'B - A':>10}{'p':>8}"]
    group = None
    for row in comparison.rows:
        if row.group != group:
            group = row.group
            lines.append(f"{group}:")
        lines.append(_comparison_line(row, comparison.alpha))
    count = len(comparison.significant())
    lines += ["", f"{count} of {len(comparison.rows)} differences significant at p < {comparison.alpha}."]
    return "\n".join(lines)


def _comparison_line(row: ComparisonRow, alpha: float) -> str:
    def value(x: float | None) -> str:
        if x is None:
            return "-"
        return _percent(x) if row.is_rate else f"{x:.2f}"

    diff = row.test.difference
    diff_text = f"{100 * diff:+.1f}%" if row.is_rate else f"{diff:+.2f}"
    mark = "  significant" if row.significant(alpha) else ""
    figure = f"  {row.name} {row.measure}" if row.measure != "per game" else f"  {row.name} per game"
    return f"{figure:<46}{value(row.a):>10}{value(row.b):>10}{diff_text:>10}{_p_text(row.test.p):>8}{mark}"


class ProgressBar:
    """A one-line progress bar on a terminal, redrawn in place with a carriage return."""

    def __init__(self, label: str, stream: TextIO, width: int = 28) -> None:
        self.label, self.stream, self.width = label, stream, width
        self.started = time.monotonic()
        self.drawn = 0.0

    def __call__(self, done: int, total: int) -> None:
        """Redraw (at most ten times a second, and always at the end)."""
        now = time.monotonic()
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        filled = self.width * done // total
        rate = done / max(now - self.started, 1e-9)
        eta = f"{(total - done) / rate:.0f}s left" if done < total and rate > 0 else "done"
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} games, {rate:.0f}/s, {eta}   ")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()
