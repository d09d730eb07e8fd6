"""Random play under invariants: every shipped spec and generated specs, every player count.

Hypothesis picks the seed, the options and every decision (an index into `legal_actions()`).
`play_checked` (tests/invariants.py, which lists what it checks) plays the game and checks every
invariant after every action and at the end: cards, tricks, follow rules and restrictions,
passing, counters, winners, tokens, scores, clones, observations and records.

The tests at the end break the engine on purpose (or hand a checker a doctored ruleset or
event) and show that the checkers notice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

import trickrules
from invariants import (
    READ_PHASES,
    Played,
    check_same_record,
    check_trick,
    drawn_choices,
    play_checked,
    random_choices,
    unread_parts,
)
from strategies import as_yaml, scaled, shipped_spec_paths, spec_data
from trickrules.engine.game import Game
from trickrules.tools.build_compiled import compiled
from trickrules.rules.ruleset import Amount, RankingStep, Ruleset
from trickrules.engine.state import Phase, State

SHIPPED = shipped_spec_paths()
SHIPPED_COUNTS = [
    (path, players)
    for path in SHIPPED
    for players in trickrules.load_ruleset(path).allowed_players
]

LONG_GAME = 20_000
"""Specs whose games may run longer than this many actions (`max_game_length`) are played in a
test of their own, with fewer examples: Pinochle (bound 76,750; random games run all 50 hands,
about 2,800 actions, some 4 s checked). Hearts, Spades and Oh Hell (bounds 10,800 to 12,800,
random games of a few hundred actions) stay in the main test with all their examples."""


def _shipped_params(long: bool) -> list[Any]:
    """The shipped specs and player counts the checkers read, whose games are long or not."""
    return [
        pytest.param(path, players, id=f"{path.stem}-{players}")
        for path, players in SHIPPED_COUNTS
        if not unread_parts(ruleset := trickrules.load_ruleset(path, players=players))
        and (Game(ruleset).info().max_game_length > LONG_GAME) == long
    ]


# Specs with go_alone, declare or contracts (euchre, skat-lite) are played with checkers of
# their own in tests/test_properties_bidding.py; the checkers of tests/invariants.py read the rest.
SHIPPED_PARAMS = _shipped_params(long=False)
LONG_SHIPPED_PARAMS = _shipped_params(long=True)


# ================================================================ the properties


def _shipped_options(path: Path, draw: Callable[[Any], Any]) -> dict[str, Any]:
    """Options for a shipped spec: short games, and any set of trumps where trumps are an option."""
    from trickrules.spec.checks import load_spec
    from trickrules.spec.options import option_defs

    data = load_spec(path).data
    options: dict[str, Any] = {}
    for name, option in option_defs(data).items():
        if option.type == "integer" and name == "rounds":
            options[name] = draw(st.integers(max(1, option.minimum or 1), 3))
        elif option.type == "suits":
            options[name] = draw(st.lists(st.sampled_from(data["deck"]["suits"]), unique=True, max_size=3))
    return options


SHIPPED_EXAMPLES = scaled(25) // (3 if compiled() else 1)
"""Examples of each shipped spec and player count: a third of them in the rerun against the
compiled engine (tests/test_compiled.py), whose games must agree with the pure engine's; the
full count runs against the pure engine, the reference, in the same suite."""


@pytest.mark.parametrize(("path", "players"), SHIPPED_PARAMS)
@settings(max_examples=max(1, SHIPPED_EXAMPLES))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_of_shipped_specs(path: Path, players: int, data: st.DataObject, seed: int) -> None:
    _play_shipped(path, players, data, seed)


@pytest.mark.parametrize(("path", "players"), LONG_SHIPPED_PARAMS)
@settings(max_examples=max(1, SHIPPED_EXAMPLES // 8))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_of_long_shipped_specs(path: Path, players: int, data: st.DataObject, seed: int) -> None:
    """As above, for the specs whose games run long (`LONG_GAME`)."""
    _play_shipped(path, players, data, seed)


def _play_shipped(path: Path, players: int, data: st.DataObject, seed: int) -> None:
    options = _shipped_options(path, data.draw)
    game = trickrules.load_game(path, players=players, options=options)
    clone_at = data.draw(st.integers(0, game.info().max_game_length // 2), label="clone_at")
    played = play_checked(game, seed, drawn_choices(data), clone_at=clone_at)
    check_same_record(game, seed, played)


@settings(max_examples=scaled(300))
@given(data=st.data(), spec=spec_data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_of_generated_specs(data: st.DataObject, spec: dict[str, Any], seed: int) -> None:
    note(f"spec:\n{as_yaml(spec)}")
    for feature in _features(spec):
        event(feature)  # --hypothesis-show-statistics shows how often each part of the language ran
    players = data.draw(st.sampled_from(spec["players"]), label="players")
    ruleset = trickrules.load_ruleset_text(yaml.safe_dump(spec), players=players)
    game = Game(ruleset)
    clone_at = data.draw(st.integers(0, game.info().max_game_length), label="clone_at")
    played = play_checked(game, seed, drawn_choices(data), clone_at=clone_at)
    check_same_record(game, seed, played)
    for name in _happened(played):
        event(name)


def _happened(played: Played) -> list[str]:
    """What the language-2 parts did in a played game."""
    watch = played.watch
    assert watch is not None
    found = {
        "cards passed": watch.cards_passed > 0,
        "a play changed a counter": watch.counters.changes > 0,
        "a restriction narrowed the legal cards": played.narrowed > 0,
        "until ended the game before at_most": watch.early_ends > 0,
    }
    return [name for name, present in found.items() if present]


def _features(spec: dict[str, Any]) -> list[str]:
    tokens = spec.get("tokens", {})
    found = {
        "tableau": "tableau" in spec,
        "won cards to the tableau": spec.get("won_cards") == "tableau",
        "tokens to the tableau": any(t.get("to") == "tableau" for t in tokens.values()),
        "a finite token supply": any(t.get("supply", "unlimited") != "unlimited" for t in tokens.values()),
        "rewards": bool(spec.get("rewards")),
        "two-faced cards": "cards" in spec["deck"],
        "trumps chosen by a player": isinstance(spec.get("trumps"), dict) and "choose" in spec["trumps"],
        "trump_if_void": "trump_if_void" in spec.get("follow", []),
        "a free card": any(isinstance(rule, dict) and "exempt" in rule for rule in spec.get("follow", [])),
        "a kept card": "kept_cards" in spec,
        "options": "options" in spec,
        "language 2": spec.get("language") == 2,
        "a pass phase": any(isinstance(phase, dict) and "pass" in phase for phase in spec.get("round", [])),
        "a pass by chance": any(
            isinstance(phase, dict) and isinstance(phase["pass"].get("to"), dict) and "chance" in phase["pass"]["to"]
            for phase in spec.get("round", [])
        ),
        "a player counter": any(c.get("scope") == "player" for c in spec.get("counters", {}).values()),
        "a counter at the round's end": any("on_round_end" in c for c in spec.get("counters", {}).values()),
        "restrictions": bool(spec.get("restrictions")),
        "until": isinstance(spec.get("rounds"), dict),
        "an expression point rule": any(
            "add" in rule and rule["add"] not in ("tricks", "cards", *spec["scoring"].get("measures", {}))
            for rule in spec["scoring"]["round"]
        ),
    }
    return [name for name, present in found.items() if present]


def test_generated_language2_specs_exercise_the_checkers() -> None:
    """Games of generated language-2 specs pass cards, change counters, end by `until`, and have
    restrictions narrow the legal cards, so the checkers of all four see work. (Each happens in
    a tenth to a half of the games: 40 games miss one with a chance of about 1 in 100; the draws
    are derandomized, so a run that passes keeps passing until the strategy or engine changes.)"""
    seen: dict[str, int] = {}

    @settings(max_examples=scaled(40), derandomize=True, database=None)
    @given(spec=spec_data(language2=True), seed=st.integers(0, 2**16), pick=st.integers(0, 2))
    def play(spec: dict[str, Any], seed: int, pick: int) -> None:
        note(f"spec:\n{as_yaml(spec)}")
        players = spec["players"][pick % len(spec["players"])]
        game = Game(trickrules.load_ruleset_text(yaml.safe_dump(spec), players=players))
        for name in _happened(play_checked(game, seed, random_choices(seed))):
            seen[name] = seen.get(name, 0) + 1

    play()
    missing = [name for name in _happened_names() if not seen.get(name)]
    assert not missing, f"no generated game saw: {missing} (seen: {seen})"


def _happened_names() -> list[str]:
    return ["cards passed", "a play changed a counter", "a restriction narrowed the legal cards", "until ended the game before at_most"]


def test_every_shipped_spec_is_covered() -> None:
    names = {path.stem for path in SHIPPED}
    assert {"kingdoms", "meadows"} <= names


# ================================================================ the checkers notice breaks


KINGDOMS = Path(__file__).resolve().parent.parent / "specs" / "kingdoms.yaml"
MEADOWS = KINGDOMS.with_name("meadows.yaml")
PINOCHLE = KINGDOMS.with_name("pinochle.yaml")


def _play(game: Game, seed: int = 1, reader: Ruleset | None = None, clone_at: int = 0) -> Played:
    return play_checked(game, seed, random_choices(seed), reader=reader, clone_at=clone_at)


def _short(path: Path = KINGDOMS, players: int = 4, **options: Any) -> Game:
    return trickrules.load_game(path, players=players, options={"rounds": 1, **options})


def test_the_checkers_pass_on_the_engine() -> None:
    _play(_short())


@pytest.mark.patches_engine
def test_break_cards_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import play

    resolve = play.resolve_trick

    def drop_a_card(self: State) -> None:
        resolve(self)
        for pile in self.piles:
            if pile:
                pile.pop()
                return

    monkeypatch.setattr(play, "resolve_trick", drop_a_card)
    with pytest.raises(AssertionError, match="cards gained, lost"):
        _play(_short(MEADOWS))


def test_a_wrong_meld_count_is_caught() -> None:
    """The checker counts Pinochle's melds itself: one hand of Pinochle passes it, and fails it
    when the checker reads the dix (the 9 of trumps) as needing both nines."""
    rules = trickrules.load_ruleset(PINOCHLE, players=4)
    # one hand, and only the phases the checkers read (the melds count from the dealt hands)
    rules = dataclasses.replace(rules, rounds=1, round=tuple(s for s in rules.round if s.kind in READ_PHASES))
    game = Game(rules)
    measures = rules.scoring.measures
    dix = next(m for m in measures if m.name == "dix")
    assert dix.holding is not None and dix.holding.meld is not None
    both_nines = dataclasses.replace(dix, holding=dataclasses.replace(dix.holding, meld=dataclasses.replace(dix.holding.meld, times=2)))
    wrong = dataclasses.replace(rules, scoring=dataclasses.replace(rules.scoring, measures=tuple(both_nines if m is dix else m for m in measures)))
    _play(game, 0)
    with pytest.raises(AssertionError, match="measures"):
        for seed in range(5):
            _play(game, seed, reader=wrong)


def test_break_trick_of_too_few_cards() -> None:
    event = {"type": "trick", "leader": 1, "cards": [3, 4, 5], "players": [1, 2, 0], "winner": 2}
    check_trick(event, 3)
    with pytest.raises(AssertionError, match="trick of 2 cards"):
        check_trick({**event, "cards": [3, 4], "players": [1, 2]}, 3)


@pytest.mark.patches_engine
def test_break_play_not_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    apply = State.apply_action

    def play_another_card(self: State, action: int) -> None:
        if self.phase == Phase.PLAY and self.trick:
            others = [c for c in self.hands[self.current] if c not in self.legal_actions()]
            if others:
                self._legal, action = list(self.hands[self.current]), others[0]
        apply(self, action)

    monkeypatch.setattr(State, "apply_action", play_another_card)
    with pytest.raises(AssertionError, match="not legal"):
        _play(_short())


@pytest.mark.patches_engine
def test_break_follow_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import game as game_module

    monkeypatch.setattr(game_module, "compile_follow", lambda rules, faces, deck=None: lambda hand, led: list(hand))
    with pytest.raises(AssertionError, match="follow: legal"):
        _play(_short())


def test_break_tie_break_of_the_ladder() -> None:
    # "highest rank, first played": equal ranks of different suits tie often in kingdoms
    kingdoms = _short().ruleset
    ladder = (RankingStep("highest"), RankingStep("first_played"))
    game = Game(dataclasses.replace(kingdoms, ranking=ladder))
    flipped = dataclasses.replace(game.ruleset, ranking=(ladder[0], RankingStep("last_played")))
    _play(game, 0)
    with pytest.raises(AssertionError, match="engine says"):
        for seed in range(5):
            _play(game, seed, reader=flipped)


@pytest.mark.patches_engine
def test_break_token_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import place_tokens

    monkeypatch.setattr(place_tokens, "_take", lambda state, token, count: None)
    with pytest.raises(AssertionError, match="the supply was"):
        for seed in range(5):
            _play(_short(players=2), seed)


@pytest.mark.patches_engine
def test_break_section_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.rules import scoring

    value = scoring.section_value
    monkeypatch.setattr(scoring, "section_value", lambda *args: value(*args) + 1)
    with pytest.raises(AssertionError, match="measures|section"):
        _play(_short())


@pytest.mark.patches_engine
def test_break_award_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.rules import scoring

    monkeypatch.setattr(scoring, "best_players", lambda rule, measures: [0])
    with pytest.raises(AssertionError, match="rule points"):
        for seed in range(5):
            _play(_short(MEADOWS), seed)


@pytest.mark.patches_engine
def test_break_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    def shallow(self: State) -> State:  # shares hands and piles (copy.copy clones a state now)
        other = object.__new__(State)
        for name in State.__slots__:
            if hasattr(self, name):
                setattr(other, name, getattr(self, name))
        return other

    monkeypatch.setattr(State, "clone", shallow)
    with pytest.raises(AssertionError, match="clone"):
        _play(_short(), clone_at=3)


@pytest.mark.patches_engine
def test_break_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import views

    observe = views.observation

    def peek(state: State, player: int) -> dict[str, Any]:
        seen = observe(state, player)
        seen["hand"] = seen["hand"] + [state.game.card_ids[c] for c in state.hands[(player + 1) % 4]]
        return seen

    monkeypatch.setattr(views, "observation", peek)
    with pytest.raises(AssertionError, match="sees"):
        _play(_short())


@pytest.mark.patches_engine
def test_break_same_seed_same_record(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import deals, state as state_module

    deal_order, calls = deals.deal_order, iter(range(10**6))
    shuffled = lambda seed, r, n: deal_order(seed + next(calls), r, n)  # noqa: E731
    monkeypatch.setattr(deals, "deal_order", shuffled)  # the deals are made in deals.deal_round
    monkeypatch.setattr(state_module, "deal_order", shuffled)
    game = _short()
    played = _play(game)
    with pytest.raises(AssertionError, match="another record"):
        check_same_record(game, 1, played)


# ---------------------------------------------------------------- language 2: passing, counters, restrictions, until

HEARTS = KINGDOMS.with_name("hearts.yaml")

SMALL = """
language: 2
id: small_language2
title: Passing, counters, restrictions and a target
players: [3]
deck:
  suits: [red, green, blue]
  generate:
  - {suits: all, ranks: {from: 1, to: 5}}
deal: {hand_size: 4}
round:
- deal
- pass: {cards: {by_round: [2, 1, 1]}, to: {by_round: [left, right, none]}, first: dealer}
- play
- score
counters:
  reds:
    on_play: {card: {suit: red}, add: 1}
  high:
    scope: player
    reset: game
    initial: 1
    on_play: {card: {rank: [4, 5]}, set: 2}
    on_round_end: "high + round"
  rounds_seen:
    reset: game
    on_round_end: "1"
restrictions:
- {name: blue leads the first trick, for: leader, when: "trick == 1", allow: {suit: blue}}
- {name: no ones once red shows, when: "reds >= 1 and trick > 2", forbid: {rank: 1}}
- {name: no red before red, for: followers, when: "not reds", forbid: {suit: red}}
ranking: [{prefer: led}, {highest: rank}]
rounds: {until: "max(totals) >= 12", at_most: 3}
scoring:
  round:
  - {add: tricks, times: 2}
  - {add: "reds - high if high > 2 else cards - round", name: counted}
"""


def _small(**changes: Any) -> Game:
    """The small language-2 game above, with some top-level keys changed."""
    data = yaml.safe_load(SMALL)
    data.update(changes)
    return Game(trickrules.load_ruleset_text(yaml.safe_dump(data)))


def _hearts() -> Game:
    return trickrules.load_game(HEARTS, options={"single_hand": True})


def _play_seeds(game: Game, seeds: int = 6) -> None:
    for seed in range(seeds):
        _play(game, seed, clone_at=seed)


def test_the_checkers_pass_on_language2() -> None:
    _play_seeds(_small())
    _play_seeds(_small(rounds=3))  # three rounds: left, right, no passing
    _play_seeds(_hearts(), 2)


@pytest.mark.patches_engine
def test_break_passed_cards_to_the_wrong_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import pass_cards

    start = pass_cards.KIND.start

    def one_seat_further(state: State, step: Any) -> bool:
        passing = start(state, step)
        if passing:
            own = pass_cards.running(state)
            own.receivers = [(r + 1) % state.num_players for r in own.receivers]
        return passing

    monkeypatch.setattr(pass_cards.KIND, "start", one_seat_further)  # the kind's own, called without it
    with pytest.raises(AssertionError, match="received the wrong cards"):
        _play(_hearts())


@pytest.mark.patches_engine
def test_break_pass_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import pass_cards

    apply = pass_cards.KIND.apply

    def card_by_card(state: State, action: int) -> None:  # one card each in turn, not all of one's cards
        apply(state, action)
        if state.phase == Phase.PASS:
            own = pass_cards.running(state)
            state.current = (own.first + own.turn) % state.num_players

    monkeypatch.setattr(pass_cards.KIND, "apply", card_by_card)
    with pytest.raises(AssertionError, match="pass order"):
        _play(_hearts())


@pytest.mark.patches_engine
def test_break_pass_direction_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import pass_cards

    start = pass_cards.KIND.start

    def always_the_first_round(state: State, step: Any) -> bool:
        number, state.round = state.round, 0
        try:
            return start(state, step)
        finally:
            state.round = number

    monkeypatch.setattr(pass_cards.KIND, "start", always_the_first_round)
    _play(_small(rounds=1))
    with pytest.raises(AssertionError, match="pass direction: round 2 passes right, not left"):
        _play(_small(rounds=3))


@pytest.mark.patches_engine
def test_break_passed_cards_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import pass_cards

    apply = pass_cards.KIND.apply

    def pass_a_copy(state: State, action: int) -> None:  # the card stays in the hand as well
        player, card = state.current, action - state.game.pass_offset
        apply(state, action)
        if state.phase == Phase.PASS:
            state.hands[player].append(card)
            pass_cards.running(state).passed[player].pop()

    monkeypatch.setattr(pass_cards.KIND, "apply", pass_a_copy)
    with pytest.raises(AssertionError, match="hands: seat . holds|passing"):
        _play(_small())


@pytest.mark.patches_engine
def test_break_counter_never_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import play

    monkeypatch.setattr(play, "count", lambda state, player, card: None)
    with pytest.raises(AssertionError, match="counter broken: engine 0, the plays give 1"):
        _play(_hearts())


def _engine_without(game: Game, **changes: Any) -> Game:
    """The same game, but the engine plays it as if the ruleset said `changes`."""
    return Game(dataclasses.replace(game.ruleset, **changes))


def _play_doctored(game: Game, seeds: int = 1, **changes: Any) -> None:
    """Play `game` with an engine that ignores a rule (`changes`); the checkers read the real one."""
    engine = _engine_without(game, **changes)
    for seed in range(seeds):
        _play(engine, seed, reader=game.ruleset)


def test_break_counter_at_the_round_end() -> None:
    game = _small()
    counters = tuple(dataclasses.replace(c, on_round_end=None) for c in game.ruleset.counters)
    with pytest.raises(AssertionError, match="counter (high|rounds_seen)"):
        _play_doctored(game, counters=counters)


def test_break_counter_reset() -> None:
    game = _small(rounds=2)
    counters = tuple(dataclasses.replace(c, reset="round") for c in game.ruleset.counters)  # game counters too
    with pytest.raises(AssertionError, match="counter (high|rounds_seen)"):
        _play_doctored(game, counters=counters)


@pytest.mark.patches_engine
def test_break_scoring_reads_stale_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    score_envs = State.score_envs

    def initial_counters(self: State, only: list[int] | None = None) -> list[dict[str, Any]]:
        envs = score_envs(self, only)
        return [{**env, "reds": 0, "high": 1} for env in envs]

    monkeypatch.setattr(State, "score_envs", initial_counters)
    with pytest.raises(AssertionError, match="rule points|counter"):
        _play_seeds(_small())


def test_break_restriction_skipped() -> None:
    game = _hearts()
    with pytest.raises(AssertionError, match="follow: legal"):
        _play_doctored(game, restrictions=())


def test_break_restriction_when_ignored() -> None:
    game = _small()
    always = tuple(dataclasses.replace(r, when=None) for r in game.ruleset.restrictions)
    with pytest.raises(AssertionError, match="follow: legal"):
        _play_doctored(game, 6, restrictions=always)


def test_break_until_ignored() -> None:
    game = _small(rounds={"until": "round >= 1", "at_most": 3})
    with pytest.raises(AssertionError, match="until: the game goes on after round 1"):
        _play_doctored(game, until=None)


def test_break_until_ends_too_early() -> None:
    game = _small(rounds={"until": "max(totals) >= 100", "at_most": 3})
    with pytest.raises(AssertionError, match="until: the game (ended|is over) after round 1"):
        _play_doctored(game, rounds=1)

# ================================================================ engine bugs found by these tests (fixed; kept as tests)

LED_IN_RANKING = """
id: led_condition
title: A led condition in the ranking
players: [2]
deck:
  suits: [red, green]
  generate:
  - {suits: all, ranks: [1, 2, 3]}
deal: {hand_size: 3}
ranking:
- prefer: {led: true}
- highest: rank
scoring:
  round:
  - {add: tricks}
"""

NEGATIVE_TOKENS = """
id: negative_tokens
title: A reward taking a token
players: [2]
deck:
  suits: [red, green]
  generate:
  - {suits: all, ranks: [1, 2, 3]}
deal: {hand_size: 2}
ranking: [{highest: rank}]
tokens:
  coin: {supply: 3}
rewards:
- {name: fine, to: winner, give: {token: coin, amount: -1}}
scoring:
  measures:
    coins: {tokens: coin}
  round:
  - {add: coins}
"""


def test_prefer_led_condition_in_ranking() -> None:
    game = Game(trickrules.load_ruleset_text(LED_IN_RANKING))
    state = game.new_initial_state(3, record=True)
    for text in ["play red-3", "play red-1", "play green-2", "play green-1", "play green-3", "play red-2"]:
        state.apply_action(game.string_to_action(text))
    assert state.events is not None
    last = [e for e in state.events if e["type"] == "trick"][-1]
    assert [game.card_ids[c] for c in last["cards"]] == ["green-3", "red-2"]
    assert last["winner"] == last["players"][0], "green led: the led green 3 must win"


def test_negative_token_amount_keeps_the_supply() -> None:
    from trickrules.errors import SpecError

    with pytest.raises(SpecError, match="TR331"):  # the loader refuses it now; the engine still copes
        trickrules.load_ruleset_text(NEGATIVE_TOKENS)
    ruleset = trickrules.load_ruleset_text(NEGATIVE_TOKENS.replace("amount: -1", "amount: 1"))
    fine = dataclasses.replace(ruleset.rewards[0], amount=Amount(constant=-1))
    game = Game(dataclasses.replace(ruleset, rewards=(fine,)))
    _play(game, 0)


LED_IN_RESTRICTION_AND_COUNTER = """
language: 2
id: led_restriction
title: A led condition in a restriction and in a counter
players: [2]
deck:
  suits: [red, green]
  generate:
  - {suits: all, ranks: [1, 2, 3]}
deal: {hand_size: 3}
follow: []
ranking: [{prefer: led}, {highest: rank}]
counters:
  off_suit:
    on_play: {card: {led: false}, add: 1}
restrictions:
- {name: followers play off the led suit when they can, for: followers, allow: {led: false}}
scoring:
  round:
  - {add: tricks}
"""



def test_led_condition_in_a_restriction_and_a_counter() -> None:
    # The schema and the loader accept `led` in these conditions, but the engine keeps only the
    # card-only part of them (conditions.static_table), so `{led: false}` holds for every card:
    # the lead itself counts as off suit, and a follower may play the led suit.
    game = Game(trickrules.load_ruleset_text(LED_IN_RESTRICTION_AND_COUNTER))
    state = game.new_initial_state(0)  # hands: red-1 green-1 green-2 | red-2 red-3 green-3
    state.apply_action(game.string_to_action("play red-2"))
    follower = [game.card_ids[c] for c in state.legal_actions()]
    assert (state.counters["off_suit"], follower) == (0, ["green-1", "green-2"])


TEAM_COUNTER_ON_PLAY = """
language: 2
id: team_counter
title: A team counter changed by a play
players: [4]
teams: [[0, 2], [1, 3]]
deck:
  suits: [red, green]
  generate:
  - {suits: all, ranks: [1, 2, 3, 4]}
deal: {hand_size: 2}
ranking: [{prefer: led}, {highest: rank}]
counters:
  reds:
    scope: team
    on_play: {card: {suit: red}, add: 1}
scoring:
  round:
  - {add: tricks}
"""



def test_team_counter_changed_by_a_play() -> None:
    # play.count handles scope player and otherwise treats the counter as one number: `add`
    # raises TypeError (list + int), `set` replaces the team values with one number.
    game = Game(trickrules.load_ruleset_text(TEAM_COUNTER_ON_PLAY))
    _play(game, 0)


PASS_BEFORE_CHOOSING_TRUMPS = """
language: 2
id: pass_then_choose
title: Pass, then choose trumps
players: [3]
deck:
  suits: [red, green, blue]
  generate:
  - {suits: all, ranks: [1, 2, 3]}
deal: {hand_size: 3}
round: [deal, {pass: {cards: 1, to: left}}, choose_trumps, play, score]
trumps: {choose: {by: dealer, from: [red, green]}}
ranking: [{prefer: trump}, {prefer: led}, {highest: rank}]
scoring:
  round:
  - {add: tricks}
"""



def test_observation_while_passing_before_trumps() -> None:
    # A pass phase before choose_trumps runs with no `state.trumps` (nor trick tables) set:
    # observation() and str() raise AttributeError. (strategies.py puts choose_trumps first.)
    game = Game(trickrules.load_ruleset_text(PASS_BEFORE_CHOOSING_TRUMPS))
    state = game.new_initial_state(0)
    assert state.phase == Phase.PASS
    assert state.observation(0)["trumps"] == []
    _play(game, 0)
