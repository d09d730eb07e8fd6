"""A game record as a readable, trick-by-trick log."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from trickrules.engine.phases import showing
from trickrules.rules.ruleset import Ruleset
from trickrules.tools.output import counted


def _seat(record: dict[str, Any], player: int) -> str:
    agents = record.get("agents") or []
    name = f" ({agents[player]})" if player < len(agents) else ""
    return f"P{player}{name}"


def _play_text(play: dict[str, Any]) -> str:
    card, face = play["card"], play["as"]
    plain = card.partition("#")[0]  # a copy's face is its card's: "hearts-A#2", not "hearts-A#2 as hearts A"
    return card if plain == face.replace(" ", "-") else f"{card} as {face}"


def token_plurals(ruleset: Ruleset) -> dict[str, str]:
    """Each token kind's `plural`, by name, for the kinds that give one."""
    return {kind.name: kind.plural for kind in ruleset.tokens if kind.plural is not None}


def _units(token: str, count: int, plurals: Mapping[str, str]) -> str:
    """A token's name for `count` of it: as the spec gives it, or its plural (`plurals`) for
    any count but one; a reward of points says point or points."""
    if token == "points":
        return "point" if count in (1, -1) else "points"
    return token if count in (1, -1) else plurals.get(token, token)


def _trick_lines(trick: dict[str, Any], plurals: Mapping[str, str] = MappingProxyType({})) -> Iterator[str]:
    plays = ", ".join(f"P{p['player']} {_play_text(p)}" for p in trick["plays"])
    yield f"  Trick {trick['number']:>2}: {plays}  ->  P{trick['winner']} wins"
    for reward in trick.get("rewards", []):
        short = "" if reward["taken"] == reward["amount"] else f" (asked {reward['amount']}, supply or space short)"
        what = _units(reward["token"], reward["taken"], plurals)
        yield f"      P{reward['player']} gains {reward['taken']} {what}: {reward['reward']}{short}"
    tokens = trick.get("tokens", [])
    if tokens:
        yield "      tokens: " + ", ".join(f"P{t['player']} {t['token']} -> {t['section']}" for t in tokens)
    placements = trick.get("placements", [])
    if placements:
        yield "      lays: " + ", ".join(f"{p['card']} -> {p['section'] or 'pile'}" for p in placements)


def _score_lines(record: dict[str, Any], score: dict[str, Any]) -> Iterator[str]:
    yield "  Score:"
    for player, points in enumerate(score["points"]):
        measures = ", ".join(f"{k} {v}" for k, v in score["measures"][player].items())
        yield f"    {_seat(record, player)}: {points:+d} points  ({measures})"
        if "sections" in score:
            parts = [f"{s['section']} {s['score']:+d} [{s['case'].replace('_', ' ')}]" for s in score["sections"][player]]
            yield "      sections: " + "; ".join(parts)
        rules = ", ".join(f"{label}: {value:+d}" for label, value in score["rules"][player].items())
        yield f"      rules: {rules}"


def _stacks(record: dict[str, Any], round_: dict[str, Any]) -> Iterator[str]:
    """Each player's tableau at the end of a round, rebuilt from the placements."""
    stacks: dict[int, dict[str, list[str]]] = {}
    tokens: dict[int, dict[str, int]] = {}
    for trick in round_["tricks"]:
        for p in trick.get("placements", []):
            stacks.setdefault(p["player"], {}).setdefault(p["section"] or "pile", []).append(p["card"])
        for t in trick.get("tokens", []):
            if t["section"]:
                row = tokens.setdefault(t["player"], {})
                row[t["section"]] = row.get(t["section"], 0) + 1
    if not stacks and not tokens:
        return
    yield "  Tableaux at the end of the round (stacks bottom to top, tokens):"
    for player in range(record["players"]):
        sections = sorted(set(stacks.get(player, {})) | set(tokens.get(player, {})))
        parts = [
            f"{s}: {' '.join(stacks.get(player, {}).get(s, [])) or '-'} ({tokens.get(player, {}).get(s, 0)} tok)"
            for s in sections
        ]
        yield f"    P{player}: " + "; ".join(parts)


def render_record(record: dict[str, Any], plurals: Mapping[str, str] = MappingProxyType({})) -> str:
    """The whole game as text: hands, tricks, rewards, placements, scores and standings.

    Token names are printed as the spec gives them; `plurals` (token name -> its `plural`,
    `token_plurals`) gives the word for any count but one."""
    spec = record["spec"]
    options = ", ".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in record["options"].items())
    lines = [f"{spec['title']} ({spec['id']}), {record['players']} players, seed {record['seed']}, options: {options or '-'}"]
    if record.get("teams"):
        lines.append("Teams: " + "; ".join(" and ".join(f"P{p}" for p in team) for team in record["teams"]))
    if record.get("partners"):
        lines.append(f"Teams each round: the holders of {' or '.join(sorted(set(c.split('#')[0] for c in record['partners']['holders_of'])))} against the others (hidden until the card is played)")
    for round_ in record["rounds"]:
        trumps = ", ".join(round_["trumps"]) or "none"
        lines.append("")
        lines.append(f"Round {round_['round']}: dealer P{round_['dealer']}, trumps {trumps}")
        passing = round_.get("pass")
        for decision in round_.get("decisions", []):
            if not decision["choice"].startswith(("pass ", "bid ", "discard ", "contract ")) and decision["choice"] not in ("alone", "partner", "pass"):
                lines.append(f"  P{decision['player']} chooses {decision['choice']}")
        for player, hand in enumerate(round_["hands"]):
            lines.append(f"  {_seat(record, player)} holds: {' '.join(hand)}")
        if "turn_up" in round_:
            lines.append(f"  Turned up: {round_['turn_up'] or 'nothing (no card left)'}")
        if "teams" in round_:
            lines.append("  Teams: " + "; ".join(" and ".join(f"P{p}" for p in team) for team in round_["teams"]) + " (the holders first)")
        if "contract" in round_:
            lines.append(f"  Contract: {round_['contract']}")
        if "declarer" in round_:
            lines.append(f"  Declarer: P{round_['declarer']}" + (f", alone (P{', P'.join(map(str, round_['sitting_out']))} sits out)" if round_.get("sitting_out") else ""))
        if "discard" in round_:
            lines.append(f"  P{round_['discard']['player']} takes {round_['taken']['card']} and discards {round_['discard']['card']}")
        if "bids" in round_:
            lines.append("  Bids: " + ", ".join(f"P{p} {b}" for p, b in enumerate(round_["bids"])))
        if passing is not None:
            lines.append(f"  Passing {passing['direction']}:" if any(passing["cards"]) else f"  Passing {passing['direction']}: no cards pass")
            for player, cards in enumerate(passing["cards"]):
                if cards:
                    lines.append(f"    P{player} passes {' '.join(cards)}")
        for kind in _RECORDING:
            lines.extend("  " + line for line in kind.record_lines(round_))
        if round_["set_aside"]:
            lines.append(f"  set aside: {counted(len(round_['set_aside']), 'card')}")
        for trick in round_["tricks"]:
            lines.extend(_trick_lines(trick, plurals))
        lines.extend(_stacks(record, round_))
        if "score" in round_:
            lines.extend(_score_lines(record, round_["score"]))
    lines.append("")
    lines.append("Final standings:")
    totals = record["totals"]
    fewest_wins = bool(record["winners"]) and totals[record["winners"][0]] == min(totals) < max(totals)
    order = sorted(range(record["players"]), key=lambda p: totals[p] if fewest_wins else -totals[p])
    for place, player in enumerate(order, 1):
        mark = "  winner" if player in record["winners"] else ""
        lines.append(f"  {place}. {_seat(record, player)}: {record['totals'][player]}{mark}")
    return "\n".join(lines)


_RECORDING = showing("record_lines")
"""The kinds of phase that write their own lines of a round's text."""
