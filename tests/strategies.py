"""Hypothesis strategies: spec data built from the language's parts, and the shipped specs.

`spec_data()` draws a whole spec as plain data (dicts and lists, ready for ``yaml.safe_dump``)
that the loader accepts: random suits and ranks, two-faced cards that turn into a trump face,
follow rules, ranking ladders, rewards with conditions, tokens with supplies, a tableau,
measures (of won, dealt or held cards, a share per card) and point rules, and options that
other keys refer to with ``{option: NAME}``.
Every choice keeps the spec valid, so a loader error on a drawn spec is a finding.

About half of the specs use language 2 as well (`_language2`): a round with pass phases (a
number of cards or one by round; a direction, one by round or one by chance), counters of the
table or of each player (changed by plays, raised at a round's end), play restrictions for the
leader, the followers or all, sometimes `rounds: {until: ..., at_most: ...}` and an expression
among the point rules; expressions over the names each place offers (`_expression`).
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

    loaded = settings.default
    assert loaded is not None, "hypothesis always has a loaded profile"
    return max(1, examples * loaded.max_examples // DEFAULT_EXAMPLES)


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
            load_spec(path, every_count=True)  # some problems (expressions, seats) show when compiled
            load_ruleset(path)
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
        self.ranks: list[int] = list(range(13))  # the ranks the deck has (conditions name no other: TR330)

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
def spec_data(draw: st.DrawFn, language2: bool | None = None) -> dict[str, Any]:
    """A valid spec as data; about half of them (all with `language2=True`, none with False)
    use the keys of language 2 (see `_language2`)."""
    draft = _Draft(draw)
    suits = draw(st.lists(st.sampled_from(SUIT_NAMES), min_size=2, max_size=6, unique=True))
    attributes = draw(st.booleans())
    deck = _deck(draw, suits, attributes)
    draft.ranks = _known_ranks(deck)
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
        data["follow"] = _follow(draw, suits, attributes, draft.ranks)
    data["ranking"] = _ranking(draw, suits, attributes, draft.ranks)
    if draw(st.integers(0, 4)) == 0:  # a special card: free of the follow rules, never winning
        _special_cards(draw, data, suits, attributes, draft.ranks, kept=tableau is None)
    rewards = _rewards(draw, draft, suits, list(tokens), attributes)
    if rewards:
        data["rewards"] = rewards
    if tokens:
        data["tokens"] = tokens
    if tableau is not None:
        data["tableau"] = tableau
        data["won_cards"] = draw(st.sampled_from(["pile", "tableau"]))
    data["scoring"] = _scoring(draw, list(tokens), tableau is not None, attributes)
    if language2 is None:
        language2 = draw(st.booleans())
    if language2:
        data = _language2(draw, draft, data)
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


def _known_ranks(deck: dict[str, Any]) -> list[int]:
    """Every rank a face of the deck has: the generated ranks and those of the two-faced cards."""
    ranks = deck["generate"][0]["ranks"]
    known = set(ranks) if isinstance(ranks, list) else set(range(ranks["from"], ranks["to"] + 1))
    known |= {face["rank"] for card in deck.get("cards", []) for face in card["faces"]}
    return sorted(known)


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
        deal["dealer"] = {"first": draw(st.integers(0, min(players) - 1)), "rotation": draw(st.integers(0, 2))}
    leader = draw(st.sampled_from(["left_of_dealer", "dealer", "seat", None]))
    if leader == "seat":
        deal["first_leader"] = {"seat": draw(st.integers(0, min(players) - 1))}  # a seat every count has (TR321)
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


def _static_condition(
    draw: st.DrawFn, suits: list[str], attributes: bool, led: bool = True, known: list[int] | None = None
) -> dict[str, Any]:
    kinds = ["rank", "suit", "trump"] + (["led"] if led else []) + (["attribute"] if attributes else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "rank":
        ranks = draw(st.lists(st.sampled_from(known) if known else st.integers(0, 12), min_size=1, max_size=3, unique=True))
        return {"rank": ranks[0] if len(ranks) == 1 else ranks}
    if kind == "suit":
        return {"suit": draw(st.sampled_from(suits))}
    if kind == "attribute":
        return {"attribute": {"name": ATTRIBUTE, "at_least": draw(st.integers(0, 3))}}
    return {kind: draw(st.booleans())}


TRICK_FOLLOW_RULES = ("win_if_able", "overtrump_if_able", "head_if_able", "play_if_able")


def _follow(draw: st.DrawFn, suits: list[str], attributes: bool, known: list[int] | None) -> list[Any]:
    """Follow rules: the led group, sometimes a trump when void, and sometimes (in half) a rule
    that reads the trick, in any place, sometimes waived while a partner wins the trick."""
    rules: list[Any] = ["follow_led"] + (["trump_if_void"] if draw(st.booleans()) else [])
    if draw(st.booleans()):
        kind = draw(st.sampled_from(TRICK_FOLLOW_RULES))
        rule: Any = kind
        if kind == "play_if_able":
            rule = {kind: _static_condition(draw, suits, attributes, known=known)}
        elif draw(st.integers(0, 2)) == 0:
            rule = {kind: {"unless_partner_winning": True}}
        rules.insert(draw(st.integers(0, len(rules))), rule)
    return rules


def _special_cards(draw: st.DrawFn, data: dict[str, Any], suits: list[str], attributes: bool, known: list[int] | None,
                   kept: bool) -> None:
    """Cards free of every follow rule (`exempt`), ranked never to win, and kept by their owner
    (with a card given in exchange) where won cards go to piles."""
    condition = _static_condition(draw, suits, attributes, led=False, known=known)
    data["follow"] = [*data.get("follow", ["follow_led"]), {"exempt": condition}]
    data["ranking"] = [{"prefer": {"not": condition}}, *data["ranking"]]
    if kept and draw(st.booleans()):
        data["kept_cards"] = {"cards": condition}
        if draw(st.booleans()):
            data["kept_cards"]["exchange"] = _static_condition(draw, suits, attributes, led=False, known=known)


def _ranking(draw: st.DrawFn, suits: list[str], attributes: bool, known: list[int] | None = None) -> list[Any]:
    pool: list[Any] = [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}, {"lowest": "rank"}]
    if attributes:
        pool += [{"highest": {"attribute": ATTRIBUTE}}, {"lowest": {"attribute": ATTRIBUTE}}]
    steps = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=4))
    if draw(st.integers(0, 3)) == 0:
        condition = _static_condition(draw, suits, attributes, known=known)
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


def _reward_condition(draw: st.DrawFn, suits: list[str], attributes: bool, known: list[int] | None = None) -> dict[str, Any]:
    kind = draw(st.sampled_from(["static", "same_suit", "winner", "not", "both"]))
    if kind == "same_suit":
        return {"same_suit_as_winner": draw(st.booleans())}
    if kind == "winner":
        return {"winner": _static_condition(draw, suits, attributes, known=known)}
    if kind == "not":
        return {"not": _static_condition(draw, suits, attributes, known=known)}
    if kind == "both":
        return {**_static_condition(draw, suits, attributes, known=known), "same_suit_as_winner": draw(st.booleans())}
    return _static_condition(draw, suits, attributes, known=known)


def _amount(draw: st.DrawFn, draft: _Draft, attributes: bool, low: int = 0) -> Any:
    """An amount; `low` < 0 gives negative amounts too (a negative count of tokens gives nothing)."""
    kinds = ["number", "number", "by_rank", "option"] + (["attribute"] if attributes else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "by_rank":
        by_rank = draw(st.dictionaries(st.sampled_from(draft.ranks), st.integers(low, 3), min_size=1, max_size=4))
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
            reward["when"] = _reward_condition(draw, suits, attributes, draft.ranks)
        if tokens and draw(st.integers(0, 3)) > 0:
            # a count of tokens is never negative (TR331)
            reward["give"] = {"token": draw(st.sampled_from(tokens)), "amount": _amount(draw, draft, attributes, low=0)}
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
    if draw(st.booleans()):  # cards read by a condition: won, as dealt or as held
        measures["trump_count"] = {"count": {"trump": draw(st.booleans())}, "of": draw(st.sampled_from(["won", "dealt", "held"]))}
    if attributes and draw(st.booleans()):  # a sum less a share per card
        measures["gem_groups"] = {"sum_attribute": ATTRIBUTE,
                                  "less_per_card": {"numerator": draw(st.integers(0, 3)), "denominator": draw(st.integers(1, 4))}}
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


# ---------------------------------------------------------------- language 2

COUNTER_NAMES = ("c0", "c1")
PASS_WORDS = ("left", "right", "none")
SCORE_EXAMPLES = ("tricks * 2 - cards", "max(all_tricks) - tricks", "c0 if c0 else tricks", "cards - round")


def _language2(draw: st.DrawFn, draft: _Draft, data: dict[str, Any]) -> dict[str, Any]:
    """Add the keys of language 2 to a drawn spec: a round with pass phases, counters, play
    restrictions, sometimes `rounds: {until: ...}` and an expression among the point rules.

    Expressions read only names their place offers, and none whose value the docs leave open
    (`trick` after the last trick; a player counter where no one player is meant): see
    `_expression`. Pass phases never pass more cards than the smallest hand holds (TR322) and
    pass `across` only when every player count is even (TR321).
    """
    players, deck = data["players"], data["deck"]
    suits, ranks, attributes = deck["suits"], draft.ranks, "attributes" in deck
    hand = _least_hand_size(data, draft)
    phases: list[Any] = [
        {"pass": _pass_phase(draw, players, hand)} for _ in range(draw(st.sampled_from([0, 1, 1, 1, 1, 2])))
    ]
    if isinstance(data["trumps"], dict) and "choose" in data["trumps"]:  # it needs its phase in the round
        # before the passing: while a pass phase runs before trumps are chosen, the state has no
        # trumps and observation() fails (test_properties: test_observation_while_passing_before_trumps)
        phases.insert(0, "choose_trumps")
    listed = bool(phases) or draw(st.booleans())  # a round of deal, play, score only: sometimes
    if listed:
        data["round"] = ["deal", *phases, "play", "score"]
    if draw(st.integers(0, 3)) == 0:
        data["deal"]["first_leader"] = {"holder": f"{draw(st.sampled_from(suits))}-{draw(st.sampled_from(_deck_ranks(deck)))}"}
    if draw(st.integers(0, 3)) == 0:
        draft.option("boolean", draw(st.booleans()))  # a flag that expressions may read
    rounds_option = data["rounds"]["option"] if isinstance(data["rounds"], dict) else None  # `until` may replace it
    options = tuple(
        name for name, option in draft.options.items() if option["type"] in ("integer", "boolean") and name != rounds_option
    )
    measures = ("tricks", "cards", *data["scoring"].get("measures", {}))
    everyone = ("totals", *(f"all_{m}" for m in measures))

    scopes = {name: draw(st.sampled_from(["table", "player"])) for name in COUNTER_NAMES[: draw(st.integers(1, 2))]}
    table = tuple(name for name, scope in scopes.items() if scope == "table")
    counters: dict[str, Any] = {}
    for name, scope in scopes.items():
        counter: dict[str, Any] = {}
        if scope == "player" or draw(st.booleans()):
            counter["scope"] = scope
        reset = draw(st.sampled_from([None, "round", "game"]))
        if reset is not None:
            counter["reset"] = reset
        if draw(st.integers(0, 2)) == 0:
            counter["initial"] = draw(st.integers(-1, 2))
        if draw(st.integers(0, 3)) > 0:
            change: dict[str, Any] = {"card": _card_condition(draw, suits, ranks, attributes)}
            if draw(st.booleans()):
                change["set"] = draw(st.integers(0, 3))
            else:
                change["add"] = draw(st.integers(-1, 2))
            counter["on_play"] = change
        if draw(st.integers(0, 2)) == 0:
            # it reads what scoring reads; a table counter's amount, about no one player, reads
            # no player's own measure or player counter (whose, the docs do not say)
            own = ("round", *scopes, *measures) if scope == "player" else ("round", *table)
            counter["on_round_end"] = _expression(draw, (*own, *options), everyone, amount=True)
        counters[name] = counter
    data["counters"] = counters

    restrictions = []
    for number in range(draw(st.integers(1, 3))):
        rule: dict[str, Any] = {}
        if draw(st.booleans()):
            rule["name"] = f"restriction {number}"
        who = draw(st.sampled_from([None, "leader", "followers", "all"]))
        if who is not None:
            rule["for"] = who
        if draw(st.integers(0, 4)) > 0:
            rule["when"] = _expression(draw, ("trick", "round", *scopes, *options), ("totals",), amount=False)
        rule[draw(st.sampled_from(["allow", "forbid"]))] = _card_condition(draw, suits, ranks, attributes)
        restrictions.append(rule)
    data["restrictions"] = restrictions

    if draw(st.booleans()):
        until = draw(st.sampled_from(["target", "round", "drawn"]))
        if until == "target":
            text = f"max(totals) >= {draw(st.integers(0, 8))}"
        elif until == "round":
            text = f"round >= {draw(st.integers(1, 3))}"
        else:  # in `until` a player counter is everyone's values: a list
            lists = ("totals", *(name for name in scopes if name not in table))
            text = _expression(draw, ("round", *table, *options), lists, amount=False)
        replaced = data["rounds"]
        if isinstance(replaced, dict):  # an option of its own, unused now (TR504 warns of it)
            del draft.options[replaced["option"]]
        data["rounds"] = {"until": text, "at_most": draw(st.integers(1, 4))}

    if draw(st.booleans()):
        scoring = data["scoring"]
        if draw(st.booleans()):
            text = draw(st.sampled_from(SCORE_EXAMPLES))
        else:
            text = _expression(draw, (*measures, "round", *scopes, *options), everyone, amount=True)
        rule = {"add": text}
        if draw(st.booleans()):
            rule["name"] = "an expression"
        scoring["round"].insert(draw(st.integers(0, len(scoring["round"]))), rule)
    return {"language": 2, **data}


def _deck_ranks(deck: dict[str, Any]) -> list[int]:
    ranks = deck["generate"][0]["ranks"]
    return list(ranks) if isinstance(ranks, list) else list(range(ranks["from"], ranks["to"] + 1))


def _least_hand_size(data: dict[str, Any], draft: _Draft) -> int:
    """The smallest hand any allowed player count is dealt (with the options' defaults)."""
    size = data["deal"]["hand_size"]
    if isinstance(size, dict) and "by_players" in size:
        return min(size["by_players"].values())
    if isinstance(size, dict):
        return int(draft.options[size["option"]]["default"])
    return int(size)


def _pass_phase(draw: st.DrawFn, players: list[int], hand: int) -> dict[str, Any]:
    """A pass phase: 0 to 3 cards (never more than a hand holds), in a direction, by round or by chance."""
    most = min(3, hand)
    phase: dict[str, Any] = {}
    cards = draw(st.sampled_from(["number", "by_round"] + (["default"] if most == 3 else [])))
    if cards == "number":
        phase["cards"] = draw(st.integers(0, most))
    elif cards == "by_round":
        phase["cards"] = {"by_round": draw(st.lists(st.integers(0, most), min_size=1, max_size=3))}
    words = list(PASS_WORDS) + (["across"] if all(p % 2 == 0 for p in players) else [])
    direction = st.one_of(st.sampled_from(words), st.integers(-2, 5))
    to = draw(st.sampled_from(["one", "by_round", "chance", "default"]))
    if to == "one":
        phase["to"] = draw(direction)
    elif to in ("by_round", "chance"):
        phase["to"] = {to: draw(st.lists(direction, min_size=1, max_size=4))}
    first = draw(st.sampled_from(["left_of_dealer", "dealer", "seat", None]))
    if first == "seat":
        phase["first"] = {"seat": draw(st.integers(0, min(players) - 1))}
    elif first is not None:
        phase["first"] = first
    return phase


def _card_condition(draw: st.DrawFn, suits: list[str], ranks: list[int], attributes: bool, depth: int = 0) -> Any:
    """A condition on the card alone, over the deck's suits and ranks. No `led`: the engine
    ignores it in restrictions and counters (test_properties: test_led_condition_in_a_restriction_and_a_counter);
    the checkers read it, so it can come back once that is fixed."""
    kinds = ["rank", "suit", "suit and rank", "trump"] + (["attribute"] if attributes else [])
    kinds += ["not", "any", "all"] if depth == 0 else []
    kind = draw(st.sampled_from(kinds))
    if kind == "rank":
        some = draw(st.lists(st.sampled_from(ranks), min_size=1, max_size=3, unique=True))
        return {"rank": some[0] if len(some) == 1 else some}
    if kind == "suit":
        some = draw(st.lists(st.sampled_from(suits), min_size=1, max_size=2, unique=True))
        return {"suit": some[0] if len(some) == 1 else some}
    if kind == "suit and rank":
        return {"suit": draw(st.sampled_from(suits)), "rank": draw(st.sampled_from(ranks))}
    if kind == "trump":
        return {"trump": draw(st.booleans())}
    if kind == "attribute":
        test = draw(st.sampled_from(["at_least", "at_most", "equals"]))
        return {"attribute": {"name": ATTRIBUTE, test: draw(st.integers(0, 3))}}
    if kind == "not":
        return {"not": _card_condition(draw, suits, ranks, attributes, depth + 1)}
    parts = [_card_condition(draw, suits, ranks, attributes, depth + 1) for _ in range(draw(st.integers(1, 3)))]
    return {kind: parts}


def _expression(draw: st.DrawFn, scalars: tuple[str, ...], lists: tuple[str, ...], amount: bool, depth: int = 0) -> Any:
    """An expression text over `scalars` (names holding a number) and `lists` (names holding a
    list, as `totals`): a whole number when `amount`, else a condition. A plain number or
    true/false stands for an expression too. Nothing in it divides by a value that may be zero."""
    number = st.integers(-1, 4)

    def scalar() -> str:
        return draw(st.sampled_from(scalars)) if draw(st.integers(0, 4)) else str(draw(number))

    def listed() -> str:
        return draw(st.sampled_from(lists))

    def inner(as_amount: bool) -> str:
        text = _expression(draw, scalars, lists, as_amount, depth + 1)
        return f"({text})" if isinstance(text, str) else str(text)

    deeper = depth < 2
    if amount:
        shapes = ["number", "name", "times", "minus", "plus", "half", "rest", "list", "abs", "min"]
        shapes += ["if", "sum"] if deeper else []
        shape = draw(st.sampled_from(shapes))
        if shape == "number":
            value = draw(number)
            return value if depth == 0 and draw(st.booleans()) else str(value)
        return {
            "name": lambda: scalar(),
            "times": lambda: f"{scalar()} * {draw(number)}",
            "minus": lambda: f"{scalar()} - {scalar()}",
            "plus": lambda: f"{scalar()} + {draw(number)}",
            "half": lambda: f"{scalar()} // 2",
            "rest": lambda: f"{scalar()} % 3",
            "list": lambda: f"{draw(st.sampled_from(['max', 'min', 'sum', 'count', 'len']))}({listed()}) - {scalar()}",
            "abs": lambda: f"abs({scalar()} - {scalar()})",
            "min": lambda: f"{draw(st.sampled_from(['min', 'max']))}({scalar()}, {scalar()})",
            "if": lambda: f"{inner(True)} if {inner(False)} else {inner(True)}",
            "sum": lambda: f"{inner(True)} + {inner(True)}",
        }[shape]()
    shapes = ["compare", "compare", "not", "name", "list", "element"] + (["and", "or", "not of"] if deeper else [])
    if depth == 0:
        shapes.append("constant")
    shape = draw(st.sampled_from(shapes))
    compare = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
    return {
        "compare": lambda: f"{scalar()} {draw(compare)} {scalar()}",
        "not": lambda: f"not {scalar()}",
        "name": lambda: scalar(),
        "list": lambda: f"{draw(st.sampled_from(['max', 'min', 'sum', 'count']))}({listed()}) {draw(compare)} {draw(number)}",
        "element": lambda: f"{listed()}[{draw(st.sampled_from([0, -1]))}] {draw(compare)} {scalar()}",
        "and": lambda: f"{inner(False)} and {inner(False)}",
        "or": lambda: f"{inner(False)} or {inner(False)}",
        "not of": lambda: f"not {inner(False)}",
        "constant": lambda: draw(st.booleans()),
    }[shape]()
