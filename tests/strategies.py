"""Hypothesis strategies: spec data built from the language's parts, and the shipped specs.

`spec_data()` draws a whole spec as plain data (dicts and lists, ready for ``yaml.safe_dump``)
that the loader accepts: random suits and ranks, two-faced cards that turn into a trump face,
follow rules, ranking ladders, rewards with conditions, tokens with supplies, a tableau,
measures and point rules, and options that other keys refer to with ``{option: NAME}``.
Every choice keeps the spec valid, so a loader error on a drawn spec is a finding.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import settings
from hypothesis import strategies as st

from trickrules.spec.checks import load_spec
from trickrules.spec.loader import load_ruleset
from trickrules.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
SUIT_NAMES = ("red", "green", "blue", "gold", "black", "white", "lila", "orange")
TOKEN_NAMES = ("peasant", "coin", "star")
SECTION_NAMES = ("A", "B", "C", "D", "E")
ATTRIBUTE = "gems"
MAX_HAND = 5
"""Hands stay small so that a generated game is a few dozen actions."""


def scaled(examples: int) -> int:
    """`examples` under the default profile, as many times more as the loaded profile has."""
    from conftest import DEFAULT_EXAMPLES

    return max(1, examples * settings.default.max_examples // DEFAULT_EXAMPLES)


def as_yaml(data: Any) -> str:
    """Spec data as the YAML a person would write (keys in the order drawn)."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)


# ---------------------------------------------------------------- the shipped specs


def shipped_spec_paths() -> list[Path]:
    """Every valid spec shipped: specs/, examples/ and docs/examples/ (no examples files)."""
    found = sorted((ROOT / "specs").glob("*.yaml"))
    for folder in (ROOT / "examples", ROOT / "docs" / "examples"):
        found += sorted(folder.rglob("*.yaml")) if folder.is_dir() else []
    specs = []
    for path in found:
        if path.name.endswith(".examples.yaml"):
            continue
        try:
            load_spec(path)
            load_ruleset(path)  # some problems (expressions, seats) show when compiled
        except SpecError:
            continue  # a deliberately broken example, or an overlay fragment: not a game
        specs.append(path)
    return specs


# ---------------------------------------------------------------- spec data


class _Draft:
    """The parts of a spec drawn so far, and the options other parts refer to."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.options: dict[str, dict[str, Any]] = {}

    def option(self, kind: str, default: Any, **extra: Any) -> dict[str, str]:
        """Declare a new option and return a reference to it."""
        name = f"{kind}_{len(self.options)}"
        self.options[name] = {"type": kind, "default": default, **extra}
        return {"option": name}

    def maybe_option(self, value: int, low: int, high: int) -> Any:
        """`value` itself, or (sometimes) an integer option defaulting to it."""
        if self.draw(st.integers(0, 3)) == 0:
            return self.option("integer", value, min=low, max=high)
        return value


@st.composite
def spec_data(draw: st.DrawFn) -> dict[str, Any]:
    """A valid spec as data."""
    draft = _Draft(draw)
    suits = draw(st.lists(st.sampled_from(SUIT_NAMES), min_size=2, max_size=6, unique=True))
    attributes = draw(st.booleans())
    deck = _deck(draw, suits, attributes)
    size = _deck_size(deck)
    players = sorted(draw(st.lists(st.integers(2, 5), min_size=1, max_size=3, unique=True)))
    tokens = _tokens(draw, draft, players)
    tableau = _tableau(draw, tokens) if draw(st.booleans()) else None
    data: dict[str, Any] = {"id": "generated", "title": "A generated game", "players": players}
    data["deck"] = deck
    data["deal"] = _deal(draw, draft, players, size)
    data["rounds"] = draft.maybe_option(draw(st.integers(1, 2)), 1, 3)
    data["trumps"] = _trumps(draw, draft, suits)
    if draw(st.booleans()):
        data["follow"] = draw(st.sampled_from([["follow_led"], ["follow_led", "trump_if_void"]]))
    data["ranking"] = _ranking(draw, suits, attributes)
    rewards = _rewards(draw, draft, suits, list(tokens), attributes)
    if rewards:
        data["rewards"] = rewards
    if tokens:
        data["tokens"] = tokens
    if tableau is not None:
        data["tableau"] = tableau
        data["won_cards"] = draw(st.sampled_from(["pile", "tableau"]))
    data["scoring"] = _scoring(draw, list(tokens), tableau is not None, attributes)
    if draft.options:
        data["options"] = draft.options
    return data


def _deck(draw: st.DrawFn, suits: list[str], attributes: bool) -> dict[str, Any]:
    ranks = sorted(draw(st.lists(st.integers(-1, 12), min_size=3, max_size=7, unique=True)))
    generator: dict[str, Any] = {"suits": "all", "ranks": ranks}
    if ranks == list(range(ranks[0], ranks[-1] + 1)) and draw(st.booleans()):
        generator["ranks"] = {"from": ranks[0], "to": ranks[-1]}
    deck: dict[str, Any] = {"suits": suits, "generate": [generator]}
    if attributes:
        deck["attributes"] = {ATTRIBUTE: {"default": draw(st.integers(0, 1))}}
        by_rank = draw(st.dictionaries(st.sampled_from(ranks), st.integers(0, 5), max_size=3))
        generator["attributes"] = {ATTRIBUTE: {"by_rank": by_rank, "default": draw(st.integers(0, 2))}}
    cards = [_two_faced(draw, suits, number, attributes) for number in range(draw(st.integers(0, 3)))]
    if cards:
        deck["cards"] = cards
    return deck


def _two_faced(draw: st.DrawFn, suits: list[str], number: int, attributes: bool) -> dict[str, Any]:
    """A card with a trump face (a rank no generated card has, so ids stay unique) and a base face."""
    when = draw(
        st.sampled_from(
            [{"trump": True}, {"trump": True}, {"trumps_include": draw(st.sampled_from(suits))}, {"no_trumps": False}]
        )
    )
    faces = [
        {"suit": draw(st.sampled_from(suits)), "rank": 20 + number, "when": when},
        {"suit": draw(st.sampled_from(suits)), "rank": draw(st.integers(0, 12))},
    ]
    card: dict[str, Any] = {"faces": faces}
    if attributes:
        card["attributes"] = {ATTRIBUTE: draw(st.integers(0, 4))}
    return card


def _deck_size(deck: dict[str, Any]) -> int:
    ranks = deck["generate"][0]["ranks"]
    count = len(ranks) if isinstance(ranks, list) else ranks["to"] - ranks["from"] + 1
    return len(deck["suits"]) * count + len(deck.get("cards", []))


def _deal(draw: st.DrawFn, draft: _Draft, players: list[int], size: int) -> dict[str, Any]:
    largest = min(MAX_HAND, size // max(players))
    shape = draw(st.sampled_from(["number", "by_players", "option"]))
    hand_size: Any = draw(st.integers(1, largest))
    if shape == "by_players":
        hand_size = {"by_players": {p: draw(st.integers(1, min(MAX_HAND, size // p))) for p in players}}
    elif shape == "option":
        hand_size = draft.option("integer", hand_size, min=1, max=largest)
    deal: dict[str, Any] = {"hand_size": hand_size}
    if draw(st.booleans()):
        deal["dealer"] = {"first": draw(st.integers(0, 5)), "rotation": draw(st.integers(0, 2))}
    leader = draw(st.sampled_from(["left_of_dealer", "dealer", "seat", None]))
    if leader == "seat":
        deal["first_leader"] = {"seat": draw(st.integers(0, 5))}
    elif leader is not None:
        deal["first_leader"] = leader
    return deal


def _trumps(draw: st.DrawFn, draft: _Draft, suits: list[str]) -> Any:
    kind = draw(st.sampled_from(["none", "list", "option", "choose"]))
    some = draw(st.lists(st.sampled_from(suits), min_size=0, max_size=2, unique=True))
    if kind == "list":
        return some
    if kind == "option":
        return draft.option("suits", some)
    if kind == "choose":
        candidates = draw(st.lists(st.sampled_from(suits), min_size=1, max_size=3, unique=True))
        return {"choose": {"by": draw(st.sampled_from(["dealer", "left_of_dealer"])), "from": candidates}}
    return "none"


def _static_condition(draw: st.DrawFn, suits: list[str], attributes: bool, led: bool = True) -> dict[str, Any]:
    kinds = ["rank", "suit", "trump"] + (["led"] if led else []) + (["attribute"] if attributes else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "rank":
        ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=3, unique=True))
        return {"rank": ranks[0] if len(ranks) == 1 else ranks}
    if kind == "suit":
        return {"suit": draw(st.sampled_from(suits))}
    if kind == "attribute":
        return {"attribute": {"name": ATTRIBUTE, "at_least": draw(st.integers(0, 3))}}
    return {kind: draw(st.booleans())}


def _ranking(draw: st.DrawFn, suits: list[str], attributes: bool) -> list[Any]:
    pool: list[Any] = [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}, {"lowest": "rank"}]
    if attributes:
        pool += [{"highest": {"attribute": ATTRIBUTE}}, {"lowest": {"attribute": ATTRIBUTE}}]
    steps = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
    if draw(st.integers(0, 3)) == 0:
        condition = _static_condition(draw, suits, attributes)
        steps.insert(draw(st.integers(0, len(steps))), {"prefer": condition})
    tie_break = draw(st.sampled_from(["first_played", "last_played", None]))
    return steps + ([tie_break] if tie_break else [])


def _tokens(draw: st.DrawFn, draft: _Draft, players: list[int]) -> dict[str, Any]:
    tokens: dict[str, Any] = {}
    for name in draw(st.lists(st.sampled_from(TOKEN_NAMES), max_size=2, unique=True)):
        shape = draw(st.sampled_from(["unlimited", "number", "by_players", "option", None]))
        kind: dict[str, Any] = {}
        if shape == "unlimited":
            kind["supply"] = "unlimited"
        elif shape == "number":
            kind["supply"] = draw(st.integers(0, 8))
        elif shape == "by_players":
            kind["supply"] = {"by_players": {p: draw(st.integers(0, 8)) for p in players}}
        elif shape == "option":
            kind["supply"] = draft.option("integer", draw(st.integers(0, 8)), min=0)
        tokens[name] = kind
    return tokens


def _tableau(draw: st.DrawFn, tokens: dict[str, Any]) -> dict[str, Any]:
    count = draw(st.integers(1, len(SECTION_NAMES)))
    sections = [
        {"name": name, "tokens_needed": draw(st.integers(0, 3)), "value": draw(st.integers(-2, 5))}
        for name in SECTION_NAMES[:count]
    ]
    tableau: dict[str, Any] = {"sections": sections}
    if tokens and draw(st.integers(0, 3)) > 0:
        name = next(iter(tokens))  # one kind staffs the sections; only it may go to the tableau
        tableau["token"] = name
        if draw(st.integers(0, 2)) > 0:
            tokens[name]["to"] = "tableau"
            tokens[name]["when_no_space"] = draw(st.sampled_from(["stays_in_supply", "lost"]))
    values: list[Any] = ["top_rank", "sum_ranks", "card_count", "value", 0, 2, {"per_missing_token": -2}]
    cases = ("cards_staffed", "cards_understaffed", "empty_staffed", "empty_understaffed")
    score = {case: draw(st.sampled_from(values)) for case in cases if draw(st.booleans())}
    if score:
        tableau["score"] = score
    return tableau


def _reward_condition(draw: st.DrawFn, suits: list[str], attributes: bool) -> dict[str, Any]:
    kind = draw(st.sampled_from(["static", "same_suit", "winner", "not", "both"]))
    if kind == "same_suit":
        return {"same_suit_as_winner": draw(st.booleans())}
    if kind == "winner":
        return {"winner": _static_condition(draw, suits, attributes)}
    if kind == "not":
        return {"not": _static_condition(draw, suits, attributes)}
    if kind == "both":
        return {**_static_condition(draw, suits, attributes), "same_suit_as_winner": draw(st.booleans())}
    return _static_condition(draw, suits, attributes)


def _amount(draw: st.DrawFn, draft: _Draft, attributes: bool, low: int = 0) -> Any:
    """An amount; `low` < 0 gives negative amounts too (a negative count of tokens gives nothing)."""
    kinds = ["number", "number", "by_rank", "option"] + (["attribute"] if attributes else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "by_rank":
        by_rank = draw(st.dictionaries(st.integers(0, 12), st.integers(low, 3), min_size=1, max_size=4))
        return {"by_rank": by_rank, "default": draw(st.integers(0, 1))}
    if kind == "option":
        return draft.option("integer", draw(st.integers(0, 3)), min=0)
    if kind == "attribute":
        return {"attribute": ATTRIBUTE}
    return draw(st.integers(low, 3))


def _rewards(draw: st.DrawFn, draft: _Draft, suits: list[str], tokens: list[str], attributes: bool) -> list[Any]:
    rewards = []
    for number in range(draw(st.integers(0, 3))):
        reward: dict[str, Any] = {"name": f"reward {number}", "to": draw(st.sampled_from(["winner", "losers"]))}
        if draw(st.booleans()):
            reward["when"] = _reward_condition(draw, suits, attributes)
        if tokens and draw(st.integers(0, 3)) > 0:
            reward["give"] = {"token": draw(st.sampled_from(tokens)), "amount": _amount(draw, draft, attributes, low=-1)}
        else:
            reward["give"] = {"points": _amount(draw, draft, attributes, low=-2)}
        rewards.append(reward)
    return rewards


def _scoring(draw: st.DrawFn, tokens: list[str], tableau: bool, attributes: bool) -> dict[str, Any]:
    measures: dict[str, Any] = {}
    if attributes:
        measures["gem_count"] = {"sum_attribute": ATTRIBUTE}
    for name in tokens:
        measures[f"{name}_count"] = {"tokens": name}
    if tableau:
        measures["kingdom"] = {"tableau": "score"}
    if draw(st.booleans()):
        measures["won_tricks"] = {"count": draw(st.sampled_from(["tricks", "cards"]))}
    names = ["tricks", "cards", *measures]
    rules = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            rule: dict[str, Any] = {"add": draw(st.sampled_from(names))}
            if draw(st.booleans()):
                rule["times"] = draw(st.integers(-2, 3))
        else:
            keys = [
                {draw(st.sampled_from(["most", "fewest"])): draw(st.sampled_from(names))}
                for _ in range(draw(st.integers(1, 2)))
            ]
            rule = {"award": {"points": draw(st.integers(1, 3)), "to_best_by": keys}}
        rules.append(rule)
    scoring: dict[str, Any] = {"round": rules}
    if measures:
        scoring["measures"] = measures
    if draw(st.booleans()):
        scoring["game"] = {"winner": draw(st.sampled_from(["most_points", "fewest_points"]))}
    return scoring
