"""Every optional key's default: a spec that leaves the key out compiles to the same rules as
one that gives the schema's documented default, and to other rules than one that gives another
value (so the key is read at all). Where the default shows in play, a short game shows it too."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TINY

import trickrules
from trickrules.rules.ruleset import Ruleset
from trickrules.spec.loader import load_ruleset_text
from trickrules.engine import phases

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "trickrules" / "schema" / "spec.schema.json"
MISSING = object()


@lru_cache(maxsize=None)
def base(name: str) -> str:
    return TINY if name == "tiny" else (ROOT / "specs" / f"{name}.yaml").read_text()


def with_key(name: str, path: tuple[Any, ...], value: Any) -> Ruleset:
    """The spec `name` with the key at `path` set to `value` (left out for MISSING), compiled."""
    data = yaml.safe_load(base(name))
    node = data
    for key in path[:-1]:
        if isinstance(node, dict):
            node = node.setdefault(key, {})
        else:
            node = node[key]
    if value is MISSING:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return load_ruleset_text(yaml.safe_dump(data, sort_keys=False))


# (spec, key path, the default, another value)
DEFAULTS = [
    ("tiny", ("trumps",), "none", ["red"]),
    ("tiny", ("follow",), ["follow_led"], ["follow_led", "trump_if_void"]),
    ("tiny", ("rounds",), 1, 3),
    ("tiny", ("deal", "dealer", "first"), 0, 1),
    ("tiny", ("deal", "dealer", "rotation"), 1, 2),
    ("tiny", ("deal", "dealer", "random"), False, True),
    ("tiny", ("deal", "first_leader"), "left_of_dealer", "dealer"),
    ("tiny", ("deck", "attributes", "gems", "default"), 0, 2),
    ("tiny", ("deck", "generate", 0, "copies"), 1, 2),
    # a generated value per rank falls back to the attribute's default (1 in the tiny deck)
    ("tiny", ("deck", "generate", 0, "attributes", "gems", "default"), 1, 3),
    ("tiny", ("scoring", "game", "winner"), "most_points", "fewest_points"),
    ("tiny", ("scoring", "round", 0, "times"), 1, 2),
    ("kingdoms", ("won_cards",), "pile", "tableau"),
    ("kingdoms", ("tokens", "peasant", "supply"), "unlimited", 30),
    ("kingdoms", ("tokens", "peasant", "when_no_space"), "stays_in_supply", "lost"),
    ("kingdoms", ("tableau", "sections", 2, "tokens_needed"), 0, 2),
    ("kingdoms", ("tableau", "sections", 2, "value"), 0, 1),
    ("kingdoms", ("tableau", "score", "cards_staffed"), "top_rank", 4),
    ("kingdoms", ("tableau", "score", "cards_understaffed"), 0, {"per_missing_token": -5}),
    ("kingdoms", ("tableau", "score", "empty_staffed"), "value", 2),
    ("kingdoms", ("tableau", "score", "empty_understaffed"), 0, -1),
    ("kingdoms", ("rewards", 0, "give", "amount", "default"), 0, 1),
    ("euchre", ("trumps", "choose", "rounds", 0, "from"), "turned_up", "others"),
    ("euchre", ("trumps", "choose", "rounds", 0, "dealer_takes_turned_up"), False, True),
    ("euchre", ("trumps", "choose", "rounds", 0, "may_discard_turned_up"), True, False),
    ("euchre", ("trumps", "choose", "rounds", 1, "dealer_must_choose"), False, True),
    ("hearts", ("round", 1, "pass", "cards"), 3, 2),
    ("hearts", ("round", 1, "pass", "to"), "left", "right"),
    ("hearts", ("round", 1, "pass", "first"), "left_of_dealer", "dealer"),
    ("hearts", ("counters", "broken", "scope"), "table", "player"),
    ("hearts", ("counters", "broken", "reset"), "round", "game"),
    ("hearts", ("counters", "broken", "initial"), 0, 1),
    ("hearts", ("restrictions", 1, "for"), "all", "leader"),
    ("hearts", ("rounds", "at_most"), 1000, 200),
    ("oh-hell", ("round", 2, "bid", "values", "from"), 0, 1),
    ("oh-hell", ("round", 2, "bid", "first"), "left_of_dealer", "dealer"),
]


@pytest.mark.parametrize(("name", "path", "default", "other"), DEFAULTS, ids=lambda v: str(v))
def test_a_left_out_key_means_its_default(name: str, path: tuple[Any, ...], default: Any, other: Any) -> None:
    left_out = with_key(name, path, MISSING)
    assert left_out == with_key(name, path, default)
    assert left_out != with_key(name, path, other)


def _schema_default(path: tuple[str, ...]) -> Any:
    node = json.loads(SCHEMA.read_text())
    for key in path:
        node = node[key]
    return node["default"]


@pytest.mark.parametrize(
    ("schema_path", "default"),
    [
        (("properties", "trumps"), "none"),
        (("properties", "follow"), ["follow_led"]),
        (("properties", "won_cards"), "pile"),
        (("properties", "rounds"), 1),
        (("$defs", "token", "properties", "supply"), "unlimited"),
        (("$defs", "token", "properties", "to"), "player"),
        (("$defs", "token", "properties", "when_no_space"), "stays_in_supply"),
        (("$defs", "passPhase", "properties", "cards"), 3),
        (("$defs", "passPhase", "properties", "to"), "left"),
        (("$defs", "section", "properties", "tokens_needed"), 0),
        (("$defs", "scoring", "properties", "game", "properties", "winner"), "most_points"),
    ],
)
def test_the_table_above_is_the_documented_defaults(schema_path: tuple[str, ...], default: Any) -> None:
    assert _schema_default(schema_path) == default


def test_tokens_go_to_the_player_by_default() -> None:
    data = yaml.safe_load(base("kingdoms"))
    del data["tokens"]["peasant"]["when_no_space"]
    data["tokens"]["peasant"]["to"] = "player"
    explicit = load_ruleset_text(yaml.safe_dump(data))
    del data["tokens"]["peasant"]["to"]
    assert load_ruleset_text(yaml.safe_dump(data)) == explicit
    assert explicit.tokens[0].to == "player"


def test_one_round_by_default_in_play() -> None:
    game = trickrules.load_game(load_ruleset_text(TINY))
    state = game.new_initial_state(2)
    while not state.is_terminal():
        assert state.round == 0
        state.apply_action(state.legal_actions()[0])
    assert state.round == 1


def test_no_trumps_and_following_the_led_suit_by_default_in_play() -> None:
    game = trickrules.load_game(load_ruleset_text(TINY))
    state = game.new_initial_state(0)
    leader = state.current_player()
    led = state.legal_actions()[0]
    state.apply_action(led)
    suit = game.card_ids[led].split("-")[0]
    hand = [game.card_ids[c] for c in state.hands[state.current_player()]]
    legal = [game.card_ids[c] for c in state.legal_actions()]
    same = [c for c in hand if c.startswith(suit + "-")]
    assert legal == (same or hand)
    assert leader == 1


def test_won_cards_go_to_a_pile_by_default_in_play() -> None:
    game = trickrules.load_game(load_ruleset_text(TINY))
    state = game.new_initial_state(0)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert sum(len(p) for p in state.piles) == 3


def test_a_choosing_round_without_from_allows_the_turned_up_suit() -> None:
    """The schema's default; the compiler once read a missing `from` as an empty list of suits,
    so nobody could name a suit in that round."""
    data = yaml.safe_load(base("euchre"))
    del data["trumps"]["choose"]["rounds"][0]["from"]
    game = trickrules.load_game(load_ruleset_text(yaml.safe_dump(data), options={"single_hand": True}))
    state = game.new_initial_state(4)
    while state.phase != trickrules.Phase.CHOOSE_TRUMPS:
        state.apply_action(state.legal_actions()[0])
    names = [game.action_to_string(a) for a in state.legal_actions()]
    turned = game.card_ids[phases.turn_up.card(state)].split("-")[0]
    assert len(names) == 2 and any(turned in n for n in names), names
