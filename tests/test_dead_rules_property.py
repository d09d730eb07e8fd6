"""A warning is never wrong: every rule the static checks call dead never fires in random play.

Specs come from `strategies.spec_data()` (every part of the language), fitted to the range
checks (ranks the deck has, seats the table has, no negative count of tokens), then given
rules that are often dead: a reward on a suit, rank and trump that may never meet, a repeated or
trump-only ranking step, an option and a measure nothing reads, a face after a face without
`when`, tableau sections past the number of suits. For each spec, games are played with random
decisions and every warning's claim is checked against what happened:

- TR501: the reward never gave anything (no reward event with a non-zero amount taken);
- TR502: the step never narrowed the cards still in the running, in any trick;
- TR503: no card was ever played as that face;
- TR504: the same seed and decisions play the same game with the option's other value;
- TR505: the same seed and decisions give the same points without the measure;
- TR506: no card was ever laid on that section;
- TR507: no card was ever turned up.

How fast the checks run is measured, not asserted: benchmarks/bench_load.py (10 ms a spec for the
checks, 50 ms for the whole load).
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from strategies import as_yaml, scaled, spec_data
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.errors import Problem, SpecError
from trickrules.rules.conditions import card_holds
from trickrules.rules.faces import Faces
from trickrules.rules.ruleset import RankingStep
from trickrules.spec.checks import load_spec, load_spec_text, spec_warnings
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.options import option_defs
from trickrules.spec.ranges import deck_ranks

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (ROOT / "specs").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
GAMES = 3
MAX_ACTIONS = 3000


# ================================================================ fitting and seeding the drawn specs


def _fit(spec: dict[str, Any]) -> dict[str, Any]:
    """The drawn spec with the values the range checks refuse replaced by ones they accept:
    condition and table ranks the deck has, seats the smallest table has, no negative token
    counts. `spec_data` draws such values already; fitting again keeps this property
    independent of that care."""
    spec = copy.deepcopy(spec)
    ranks = sorted(deck_ranks(spec["deck"]))
    seats = min(spec["players"])

    def rank(value: Any) -> Any:
        return value if value in ranks else ranks[value % len(ranks)]

    def walk(node: Any, in_deck: bool = False) -> None:
        if isinstance(node, dict):
            if "rank" in node and not in_deck:
                value = node["rank"]
                node["rank"] = sorted({rank(v) for v in value}) if isinstance(value, list) else rank(value)
            for key, value in node.items():
                walk(value, in_deck or key == "deck")
        elif isinstance(node, list):
            for value in node:
                walk(value, in_deck)

    walk(spec)
    for reward in spec.get("rewards") or []:
        give = reward["give"]
        key = "amount" if "token" in give else "points"
        amount = give[key]
        if isinstance(amount, dict) and "by_rank" in amount:
            amount["by_rank"] = {rank(int(r)): v for r, v in amount["by_rank"].items()}
        if "token" in give:
            if isinstance(amount, int):
                give[key] = max(0, amount)
            elif isinstance(amount, dict) and "by_rank" in amount:
                amount["by_rank"] = {r: max(0, v) for r, v in amount["by_rank"].items()}
    deal = spec["deal"]
    if isinstance(deal.get("dealer"), dict) and "first" in deal["dealer"]:
        deal["dealer"]["first"] %= seats
    if isinstance(deal.get("first_leader"), dict) and "seat" in deal["first_leader"]:
        deal["first_leader"]["seat"] %= seats
    return spec


@st.composite
def seeded_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A drawn spec, fitted, with rules added that are often (not always) dead."""
    spec = _fit(draw(spec_data()))
    deck = spec["deck"]
    suits = deck["suits"]
    ranks = sorted(deck_ranks(deck))
    if draw(st.booleans()):
        when: dict[str, Any] = {"suit": draw(st.sampled_from(suits)), "rank": draw(st.sampled_from(ranks))}
        if draw(st.booleans()):
            when["trump"] = draw(st.booleans())
        if draw(st.booleans()):
            when["same_suit_as_winner"] = draw(st.booleans())
        reward = {"name": "seeded", "to": draw(st.sampled_from(["winner", "losers"])), "when": when,
                  "give": {"points": draw(st.sampled_from([1, 0, {"by_rank": {str(ranks[0]): 1}, "default": 0}]))}}
        spec["rewards"] = [*(spec.get("rewards") or []), reward]
    if draw(st.booleans()):
        steps = spec["ranking"]
        extra = draw(st.sampled_from([*steps, {"prefer": "trump"}, {"prefer": "led"}, "first_played"]))
        steps.insert(draw(st.integers(0, len(steps))), copy.deepcopy(extra))
    if draw(st.booleans()):
        spec.setdefault("options", {})["spare"] = {"type": "boolean", "default": draw(st.booleans())}
    if draw(st.booleans()):
        spec["scoring"].setdefault("measures", {})["spare_count"] = {"count": draw(st.sampled_from(["tricks", "cards"]))}
    if draw(st.booleans()):
        first = {"suit": draw(st.sampled_from(suits)), "rank": 40}
        if draw(st.booleans()):
            first["when"] = {"trump": True}
        card = {"faces": [first, {"suit": draw(st.sampled_from(suits)), "rank": 41, "when": {"no_trumps": True}}]}
        deck["cards"] = [*(deck.get("cards") or []), card]
    if "tableau" in spec and spec.get("won_cards") == "tableau" and draw(st.booleans()):
        sections = spec["tableau"]["sections"]
        sections += [{"name": f"X{n}"} for n in range(draw(st.integers(1, len(suits) + 1)))]
    return spec


# ================================================================ playing and watching


def _narrowing_steps(steps: tuple[RankingStep, ...], cards: list[int], led: int, game: Game, faces: Faces) -> set[int]:
    """The ranking steps that narrowed the cards still in the running in one trick."""
    deck = game.ruleset.deck
    candidates = list(range(len(cards)))
    narrowed = set()
    for index, step in enumerate(steps):
        if step.kind in ("first_played", "last_played"):
            if len(candidates) > 1:
                narrowed.add(index)
            break
        if step.kind == "prefer":
            if step.group == "led":
                kept = [p for p in candidates if faces.group[cards[p]] == led]
            elif step.group == "trump":
                kept = [p for p in candidates if faces.is_trump[cards[p]]]
            else:
                assert step.condition is not None
                kept = [p for p in candidates if card_holds(step.condition, cards[p], deck, faces, led=led)]
            kept = kept or candidates
        else:
            attribute = step.attribute

            def value(p: int) -> int:
                card = cards[p]
                return faces.rank[card] if attribute is None else deck.cards[card].attributes[attribute]

            best = (max if step.kind == "highest" else min)(value(p) for p in candidates)
            kept = [p for p in candidates if value(p) == best]
        if len(kept) < len(candidates):
            narrowed.add(index)
        candidates = kept
    return narrowed


class _Watch:
    """What happened in some games: rewards given, steps that narrowed, faces played, sections
    that got a card, whether a card was turned up."""

    def __init__(self) -> None:
        self.rewards: set[int] = set()
        self.steps: set[int] = set()
        self.faces: set[tuple[int, int]] = set()
        self.sections: set[int] = set()
        self.turned_up = False


def _play(game: Game, seed: int, watch: _Watch | None = None) -> list[Any]:
    """Play one game with random decisions from `seed`; return its actions and points."""
    state: State = game.new_initial_state(seed, record=True)
    chooser = random.Random(seed)
    trace: list[Any] = []
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        faces = state.tables.faces
        before = len(state.events or [])
        state.apply_action(action)
        trace.append(action)
        if watch is not None:
            _observe(game, state, faces, (state.events or [])[before:], watch)
    trace.append([result["points"] for result in state.round_results])
    return trace


def _observe(game: Game, state: State, faces: Faces, events: list[dict[str, Any]], watch: _Watch) -> None:
    for event in events:
        if event["type"] == "reward" and event["taken"] != 0:
            watch.rewards.add(event["reward"])
        elif event["type"] == "play":
            watch.faces.add((event["card"], event["face"]))
        elif event["type"] == "place" and event["section"] >= 0:
            watch.sections.add(event["section"])
        elif event["type"] == "turn_up" and event["card"] >= 0:
            watch.turned_up = True
        elif event["type"] == "trick":
            cards = event["cards"]
            led = faces.group[cards[0]]
            watch.steps |= _narrowing_steps(game.ruleset.ranking, cards, led, game, faces)
    for row in state.stacks:
        watch.sections |= {index for index, stack in enumerate(row) if stack}


def _other_value(spec: dict[str, Any], name: str) -> Any:
    option = option_defs(spec)[name]
    if option.type == "boolean":
        return not option.default
    if option.type == "choice":
        return next((c for c in option.choices if c != option.default), option.default)
    if option.type == "integer":
        value = option.default + 1
        return value if option.maximum is None or value <= option.maximum else option.default - 1
    return () if option.default else tuple(spec["deck"]["suits"][:1])


def _check_claims(spec: dict[str, Any], warnings: list[Problem], players: int) -> None:
    text = yaml.safe_dump(spec)
    source = load_spec_text(text, "generated.yaml")
    ruleset = compile_ruleset(source, players)
    game = Game(ruleset)
    watch = _Watch()
    traces = [_play(game, seed, watch) for seed in range(GAMES)]
    raw_cards = spec["deck"].get("cards") or []
    first_explicit = len(ruleset.deck.cards) - len(raw_cards)
    for warning in warnings:
        path = _path_of(warning)
        if warning.code == "TR501":
            assert path[1] not in watch.rewards, str(warning)
        elif warning.code == "TR502":
            assert path[1] not in watch.steps, str(warning)
        elif warning.code == "TR503":
            assert (first_explicit + int(path[2]), int(path[4])) not in watch.faces, str(warning)
        elif warning.code == "TR506":
            assert path[2] not in watch.sections, str(warning)
        elif warning.code == "TR507":
            assert not watch.turned_up, str(warning)
        elif warning.code == "TR504":
            name = str(path[1])
            changed = Game(compile_ruleset(source, players, {name: _other_value(spec, name)}))
            assert [_play(changed, seed) for seed in range(GAMES)] == traces, str(warning)
        elif warning.code == "TR505":
            fewer = copy.deepcopy(spec)
            del fewer["scoring"]["measures"][str(path[2])]
            try:
                without = Game(compile_ruleset(load_spec_text(yaml.safe_dump(fewer), "fewer.yaml"), players))
            except SpecError as error:
                raise AssertionError(f"{warning}, but the spec needs it: {error}") from None
            assert [_play(without, seed) for seed in range(GAMES)] == traces, str(warning)


def _path_of(problem: Problem) -> list[str | int]:
    """A problem's JSON path as steps: ``$.deck.cards[3].faces[1]`` -> ["deck", "cards", 3, "faces", 1]."""
    steps: list[str | int] = []
    for name, index, quoted in re.findall(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]", problem.path):
        steps.append(int(index) if index else name or quoted.replace("\\'", "'").replace("\\\\", "\\"))
    return steps


# ================================================================ the properties


@settings(max_examples=scaled(150))
@given(spec=seeded_specs(), data=st.data())
def test_a_rule_called_dead_never_fires_in_random_play(spec: dict[str, Any], data: st.DataObject) -> None:
    note(f"spec:\n{as_yaml(spec)}")
    source = load_spec_text(yaml.safe_dump(spec), "generated.yaml")
    warnings = spec_warnings(source)
    note("warnings:\n" + "\n".join(map(str, warnings)))
    for code in sorted({w.code for w in warnings}):
        event(f"warning {code}")  # --hypothesis-show-statistics shows how often each claim is tested
    assert all(w.is_warning and w.code.startswith("TR5") for w in warnings)
    players = data.draw(st.sampled_from(spec["players"]), label="players")
    _check_claims(spec, warnings, players)


def test_seeded_specs_do_have_dead_rules() -> None:
    """The seeding makes warnings common enough for the property above to test them."""
    found: set[str] = set()

    @settings(max_examples=200, database=None)
    @given(spec=seeded_specs())
    def collect(spec: dict[str, Any]) -> None:
        found.update(w.code for w in spec_warnings(load_spec_text(yaml.safe_dump(spec), "generated.yaml")))

    collect()
    assert {"TR501", "TR502", "TR503", "TR504", "TR505"} <= found, found


LIVE = {
    "id": "live", "title": "Every rule alive", "players": [2],
    "options": {"bonus": {"type": "integer", "default": 1, "min": 0, "max": 3}},
    "deck": {"suits": ["red", "blue"], "generate": [{"suits": "all", "ranks": {"from": 1, "to": 6}}],
             "cards": [{"faces": [{"suit": "red", "rank": 9, "when": {"trump": True}}, {"suit": "blue", "rank": 9}]}]},
    "deal": {"hand_size": 6},
    "rounds": 3,
    "trumps": {"option": "trumps"},
    "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}],
    "rewards": [{"name": "win", "to": "winner", "give": {"points": {"option": "bonus"}}}],
    "won_cards": "tableau",
    "tableau": {"sections": [{"name": "A"}, {"name": "B"}]},
    "scoring": {"measures": {"won": {"count": "cards"}}, "round": [{"add": "won"}]},
}  # fmt: skip
LIVE["options"]["trumps"] = {"type": "suits", "default": ["red"]}


@pytest.mark.parametrize(
    "code, path",
    [("TR501", "$.rewards[0]"), ("TR502", "$.ranking[2]"), ("TR503", "$.deck.cards[0].faces[0]"),
     ("TR504", "$.options.bonus"), ("TR505", "$.scoring.measures.won"), ("TR506", "$.tableau.sections[1]")],
)
def test_a_wrong_warning_would_be_caught(code: str, path: str) -> None:
    """The property's checks notice a warning about a rule that does fire."""
    assert spec_warnings(load_spec_text(yaml.safe_dump(LIVE), "live.yaml")) == []
    wrong = Problem(code, "claimed dead", "live.yaml", 1, 1, path, "warning")
    with pytest.raises(AssertionError):
        _check_claims(LIVE, [wrong], 2)


def test_a_wrong_turn_up_warning_would_be_caught() -> None:
    """The property's check notices a TR507 about a deal that leaves cards to turn up."""
    live = copy.deepcopy(LIVE)
    live["trumps"] = "turned_up"
    del live["options"]["trumps"]
    assert spec_warnings(load_spec_text(yaml.safe_dump(live), "live.yaml")) == []
    wrong = Problem("TR507", "claimed dead", "live.yaml", 1, 1, "$.trumps", "warning")
    with pytest.raises(AssertionError):
        _check_claims(live, [wrong], 2)
