"""Shared helpers and small specs of the tests: test modules import from here, never from
one another."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import trickrules
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.errors import Problem, SpecError
from trickrules.rules.ruleset import Ruleset
from trickrules.spec.checks import load_spec_text
from trickrules.spec.loader import load_ruleset_text
from trickrules.tools.record import build_record, dumps

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
KINGDOMS = SPECS / "kingdoms.yaml"
MEADOWS = SPECS / "meadows.yaml"



def load_script(name: str, path: Path) -> ModuleType:
    """Import the script at `path` as module `name`. Several folders of recordings have a
    `regenerate.py`, so each is loaded under a name of its own, and registered in
    `sys.modules` so that what it defines (a NamedTuple, say) can be found by that name."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


GEMS_DECK = """deck:
  suits: [red, blue, green]
  attributes:
    gems: {default: 1}
  generate:
    - suits: all
      ranks: {from: 1, to: 4}
      attributes:
        gems: {by_rank: {4: 5, 3: 2}}
"""
"""The deck of the small test specs: three suits of ranks 1 to 4 (card index 4 * suit + rank - 1),
each card with `gems` (5 for a 4, 2 for a 3, else 1)."""


@lru_cache(maxsize=None)
def game(path: Path, players: int | None = None, **options: object) -> Game:
    """A cached game of a shipped spec."""
    return trickrules.load_game(path, players=players, options=options or None)


def ids(g: Game, cards: list[int]) -> list[str]:
    """Card ids of card indices."""
    return [g.card_ids[c] for c in cards]


def cards(g: Game, *names: str) -> list[int]:
    """Card indices of card ids."""
    return [g.card_index(n) for n in names]


def suits(g: Game, *names: str) -> frozenset[int]:
    """Suit indices of suit names, as a trump set."""
    return frozenset(g.ruleset.deck.suits.index(n) for n in names)


# ---------------------------------------------------------------- the tiny gems game

TINY = """
id: tiny
title: Tiny
players: [3]
""" + GEMS_DECK + """deal:
  hand_size: 4
ranking:
  - highest: rank
scoring:
  round:
    - add: tricks
"""


RED, BLUE, GREEN = 0, 1, 2


@lru_cache(maxsize=None)
def tiny() -> Ruleset:
    return load_ruleset_text(TINY)


def card(suit: int, rank: int) -> int:
    """Index of a card of the tiny deck (four ranks 1..4 per suit, suits in order)."""
    return 4 * suit + rank - 1


# ---------------------------------------------------------------- games of small specs

@lru_cache(maxsize=None)
def spec_game(text: str, players: int | None = None) -> trickrules.Game:
    """A cached game of a spec text."""
    return trickrules.load_game(load_ruleset_text(text, players=players))


def events(state: State, kind: str) -> list[dict[str, Any]]:
    """The recorded events of one type."""
    assert state.events is not None
    return [e for e in state.events if e["type"] == kind]


def play_out(state: State, limit: int = 10_000) -> None:
    """Apply the first legal action until the game ends."""
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply_action(state.legal_actions()[0])
    raise AssertionError("the game did not end")


SMALL = TINY.replace("hand_size: 4", "hand_size: 3")


CONTRACTS = SMALL + """
round:
  - deal
  - turn_up
  - declare: {first: dealer, otherwise: plain}
  - play
  - score
trumps: turned_up
contracts:
  solo:
    declarer: alone
    trumps: [green]
    ranking:
      - prefer: led
      - highest: rank
  plain:
    description: the turned-up suit stays trumps
  team:
    trumps: [blue]
"""


GIVEN = {"hands": [["red-2", "blue-1", "green-1"], ["red-3", "blue-2", "green-2"], ["red-4", "blue-3", "green-3"]]}


CHOOSING = SMALL + """
round: [deal, turn_up, choose_trumps, play, score]
trumps:
  choose:
    by: left_of_dealer
    rounds:
      - {from: turned_up, dealer_takes_turned_up: true}
"""


# ---------------------------------------------------------------- the compiler's base spec

BASE = """\
id: tiny
title: Tiny
players: [3, 4]
deck:
  suits: [red, blue, green]
  generate:
    - {suits: all, ranks: {from: 1, to: 8}}
deal:
  hand_size: 5
ranking:
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  round:
    - add: tricks
"""
"""Three suits of eight ranks (24 cards), five cards a hand, for three or four players; the
base spec is 16 lines, so a key added after it is on line 17 or later."""


BASE4 = BASE.replace("players: [3, 4]", "players: [4]")
"""The base spec for four players only (teams, passing across)."""


def compiled(extra: str = "", players: int | None = None, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The base spec with `extra` appended, compiled."""
    return load_ruleset_text(BASE + extra, players=players, options=options)


def first_problem(extra: str = "", players: int | None = None, options: Mapping[str, Any] | None = None) -> Problem:
    """The first problem compiling the base spec with `extra` appended reports."""
    with pytest.raises(SpecError) as info:
        compiled(extra, players, options)
    return info.value.problems[0]


def spec_problem(text: str) -> Problem:
    """The first problem a whole spec text (not the base spec) is refused with."""
    with pytest.raises(SpecError) as info:
        load_ruleset_text(text)
    return info.value.problems[0]


def round_with(phase: str) -> str:
    """A `round` of deal, the phase `phase` (one flow-style line), play and score."""
    return f"round:\n  - deal\n  - {phase}\n  - play\n  - score\n"


# ---------------------------------------------------------------- schema problems

SCHEMA_TINY = """id: tiny
title: Tiny
players: [3]
deck:
  suits: [red, blue, green]
  generate:
    - suits: all
      ranks: {from: 1, to: 4}
deal:
  hand_size: 4
ranking:
  - highest: rank
scoring:
  round:
    - add: tricks
"""


def problems(text: str) -> list[tuple[str, int, int, str, str]]:
    """Every problem checking a spec text finds (compiled for every allowed player count, as
    `trickrules validate` does), as (code, line, column, path, message)."""
    with pytest.raises(SpecError) as raised:
        load_spec_text(text, "tiny.yaml", every_count=True)
    return [(p.code, p.line, p.column, p.path, p.message) for p in raised.value.problems]


def bid_lowest_while(state: State, phase: int) -> int:
    """Play a bidding where each seat makes the lowest bid it may, passing only when it may not
    bid (every value is bid, then matched, in turn), while the state is in `phase`; return how
    many decisions it took."""
    count = 0
    while state.phase == phase:
        texts = {state.action_to_string(a): a for a in state.legal_actions()}
        bids = [a for text, a in texts.items() if text != "pass"]
        state.apply_action(min(bids) if bids else texts["pass"])
        count += 1
    return count


# ---------------------------------------------------------------- games played part way


def played(game: Game, seed: int, steps: int) -> State:
    """A recorded game of `game` after `steps` random actions (fewer if it ends)."""
    state = game.new_initial_state(seed, record=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def finish(state: State, seed: int) -> str:
    """Play `state` to its end with random actions; its record as text."""
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return dumps(build_record(state))


# ---------------------------------------------------------------- a deal in two stages

TWO_STAGE_SPEC = """\
language: 2
id: two-stages
title: Two stages
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [clubs, diamonds, hearts, spades]
  generate:
    - {suits: all, ranks: {from: 7, to: 14}}
deal:
  hand_size: 8
  first_stage: 5
  dealer: {first: 0, rotation: 1}
round: [deal, turn_up, choose_trumps, complete_deal, play, score]
trumps:
  choose:
    by: left_of_dealer
    rounds:
      - {from: turned_up, declarer_takes_turned_up: true}
      - {from: others, declarer_takes_turned_up: true}
follow: [follow_led]
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
rounds: 2
scoring:
  measures:
    dealt_hearts: {count: {suit: hearts}, of: dealt}
  round:
    - {add: "tricks + 0 * dealt_hearts"}
"""
"""A deal in two stages around a turned-up card the chooser takes (Belote's deal)."""

_HANDS = [
    ["clubs-7", "clubs-8", "clubs-9", "clubs-10", "clubs-11"],
    ["diamonds-7", "diamonds-8", "diamonds-9", "diamonds-10", "diamonds-11"],
    ["hearts-7", "hearts-8", "hearts-9", "hearts-10", "hearts-11"],
    ["spades-7", "spades-8", "spades-9", "spades-10", "spades-11"],
]
_PILE = ["hearts-14", "clubs-12", "clubs-13", "clubs-14", "diamonds-12", "diamonds-13", "diamonds-14",
        "hearts-12", "hearts-13", "spades-12", "spades-13", "spades-14"]
TWO_STAGE_DEAL = {"hands": _HANDS, "set_aside": _PILE}
"""A given deal of it: seat 2 takes the turned-up hearts-14 and seat 3 gets hearts 12 and 13."""


def say(state: State, *texts: str) -> None:
    """Apply actions given by their text, in order."""
    for text in texts:
        state.apply_action(state.game.string_to_action(text))


def legal_texts(state: State) -> list[str]:
    """The current player's legal actions as text."""
    return [state.action_to_string(a) for a in state.legal_actions()]
