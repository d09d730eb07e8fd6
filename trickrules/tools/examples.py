"""Rulebook examples as data: cases that set up a situation and say what must hold.

An examples file is YAML with a list of `cases`. Each case names the situation (a card, a
hand and the cards already in the trick, a whole trick, a tableau at scoring time, a match
of deals, or a given deal and the actions taken from its start) and what must hold
(`expect`). The situation is built in a real `State` and the engine's own code paths decide:
a trick is played with `apply_action`, a round is scored by the engine's scoring. See
docs/howto/examples.md for the format.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trickrules.errors import TrickrulesError
from trickrules.engine import partners
from trickrules.engine.phases import show_melds
from trickrules.engine.game import Game, load_game
from trickrules.rules.cards import face_text
from trickrules.engine.positions import Position, PositionError, new_round_state, start_at
from trickrules.engine.state import State
from trickrules.tools.examples_file import read_examples_file

SITUATION_KEYS = {
    "name", "source", "players", "options", "round", "trumps", "leader", "trick_number", "counters",
    "hand", "hands", "trick", "card", "supply", "tableau", "won", "tricks_won", "decisions", "deals",
    "deal", "actions", "expect",
}  # fmt: skip
EXPECT_KEYS = {
    "face", "legal", "winner", "winner_seat", "rewards", "tokens", "section_tokens", "supply", "stacks",
    "section_scores", "section_cases", "measures", "round_points", "totals", "winners",
    "hands", "counters", "current_player", "phase", "terminal", "melds",
}  # fmt: skip
DEAL_KEYS = {"name", "source", "players", "options", "round", "deal", "actions", "expect"}
"""The situation keys a case with a given `deal` may have: the rest build a situation by hand."""
TRICK_EXPECT_KEYS = {"winner", "winner_seat", "rewards"}
"""Expect keys about a complete trick: they need a `trick` with a card from every player."""
ROUND_EXPECT_KEYS = {"section_scores", "section_cases", "measures", "round_points"}
"""Expect keys about one round's score."""


class ExampleError(TrickrulesError):
    """An examples file or case that cannot be read or set up."""


@dataclass(frozen=True)
class Case:
    """One rulebook example."""

    name: str
    data: dict[str, Any]
    line: int = 0


@dataclass
class CaseResult:
    """The outcome of one case: passed, or what was expected and what happened."""

    case: Case
    failures: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def passed(self) -> bool:
        """Whether every expectation held."""
        return not self.failures and self.error is None

    def line(self) -> str:
        """One line for the command line: PASS or FAIL, the name, and what differed."""
        if self.passed:
            return f"PASS  {self.case.name}"
        detail = self.error or "; ".join(self.failures)
        return f"FAIL  {self.case.name}: {detail}"


def load_examples(path: str | os.PathLike[str]) -> list[Case]:
    """Read the cases of an examples file through the spec loader's guards (size, nesting,
    tags, duplicate keys); raises `SpecError` with codes, lines and columns for a file that
    cannot be read, unknown keys at the top level, in a case or in its `expect`."""
    examples = read_examples_file(path, SITUATION_KEYS, EXPECT_KEYS)
    return [Case(str(entry.get("name", f"case {index + 1}")), entry, examples.line(index))
            for index, entry in enumerate(examples.cases)]


def is_examples_file(path: str | os.PathLike[str]) -> bool:
    """Whether `path` names a rulebook examples file (``*.examples.yaml`` or ``*.examples.yml``)."""
    return Path(path).name.endswith((".examples.yaml", ".examples.yml"))


def examples_spec(path: str | os.PathLike[str]) -> Path:
    """The spec an examples file names with its top-level `spec` key, relative to the file;
    `SpecError` when the file cannot be read or names none."""
    return read_examples_file(path, SITUATION_KEYS, EXPECT_KEYS).spec()


def run_examples(spec: str | os.PathLike[str], cases: Sequence[Case]) -> list[CaseResult]:
    """Run every case against `spec`; a case that cannot be set up fails with its reason."""
    games: dict[tuple, Game] = {}
    results = []
    for case in cases:
        result = CaseResult(case)
        try:
            key = (case.data.get("players"), repr(sorted((case.data.get("options") or {}).items())))
            if key not in games:
                games[key] = load_game(spec, players=case.data.get("players"), options=case.data.get("options"))
            result.failures = _Runner(games[key], case.data).run()
        except (TrickrulesError, ValueError, KeyError) as error:
            result.error = f"{type(error).__name__}: {error}"
        results.append(result)
    return results


class _Runner:
    """Builds one case's situation in a state and checks its expectations."""

    def __init__(self, game: Game, data: dict[str, Any]) -> None:
        self.game = game
        self.data = data
        self.expect = data["expect"]
        self.failures: list[str] = []
        self.state = self.dealt_state() if "deal" in data else self.fresh_state()

    # ------------------------------------------------------------ setting up

    def card(self, card_id: str) -> int:
        try:
            return self.game.card_index(card_id)
        except KeyError:
            raise ExampleError(f"no card {card_id!r} in the deck") from None

    def named(self, text: Any) -> Any:
        """A card named in an expectation, in its printed form (``spades-12`` -> ``spades-Q``);
        anything that names no card stays as it is."""
        try:
            return self.game.card_ids[self.game.card_index(text)]
        except (KeyError, TypeError):
            return text

    def seat(self, value: Any) -> int:
        return int(value)

    def new_state(self, deal: Any = None) -> State:
        """A new game (seed 0, or the given deal), started at the case's `round`.

        Starting at round N plays the rounds before it as if they had not happened: the
        totals are 0, and round N has its own dealer, pass direction and so on.
        """
        try:
            return new_round_state(self.game, self.data.get("round", 1), deal)
        except PositionError as error:
            raise ExampleError(str(error)) from None

    def dealt_state(self) -> State:
        """The game from the given `deal`, after the case's `actions`."""
        mixed = set(self.data) - DEAL_KEYS
        if mixed:
            raise ExampleError(f"'deal' cannot be combined with {', '.join(sorted(mixed))}")
        state = self.new_state(self.data["deal"])
        for number, text in enumerate(_flat(self.data.get("actions") or []), 1):
            try:
                action = state.string_to_action(str(text))
            except ValueError as error:
                raise ExampleError(f"action {number}: {error}") from None
            legal = state.legal_actions()
            if action not in legal:
                allowed = ", ".join(state.action_to_string(a) for a in legal) or "nothing (the game is over)"
                who = "" if state.is_terminal() else f" for seat {state.current_player()}"
                raise ExampleError(f"action {number} ({text}) is not legal now{who}; legal: {allowed}")
            state.apply_action(action)
        return state

    def fresh_state(self) -> State:
        """The case's position (`trick_number`, `leader`, `trumps`, `counters`, hands, won
        cards, tableau, supply), through the public `start_at`."""
        if "actions" in self.data:
            raise ExampleError("'actions' needs a given 'deal' to start from")
        data = self.data
        seats = {key: self.seat for key in ("hands", "tableau", "won", "tricks_won")}
        by_seat = {key: {seat(k): v for k, v in (data.get(key) or {}).items()} for key, seat in seats.items()}
        try:
            return start_at(self.game, Position(
                round=data.get("round", 1),
                leader=self.seat(data.get("leader", 0)),
                trick_number=data.get("trick_number", 1),
                trumps=None if "trumps" not in data else list(data["trumps"] or []),
                counters=data.get("counters") or {},
                supply=data.get("supply") or {},
                **by_seat,
            ))
        except PositionError as error:
            raise ExampleError(str(error)) from None

    def play_trick(self) -> None:
        """Play the trick's cards in seat order from the leader, through `apply_action`."""
        state, n = self.state, self.game.num_players
        trick = [self.card(c) for c in self.data.get("trick") or []]
        actor = (state.leader + len(trick)) % n
        if "hand" in self.data:
            state.hands[actor] = sorted(self.card(c) for c in self.data["hand"])
        for offset, card in enumerate(trick):
            seat = (state.leader + offset) % n
            if card not in state.hands[seat]:
                state.hands[seat] = sorted(state.hands[seat] + [card])
        if self.game.ruleset.partner_cards:  # teams by the deal: the holders among the case's hands
            state.round_teams = partners.teams_at_deal(state)
        decisions = list(self.data.get("decisions") or [])
        for card in trick:
            state._legal = None
            state.apply_action(card)
            self.decide(decisions)
        if decisions:
            raise ExampleError(f"decisions left unused: {', '.join(decisions)}")

    def decide(self, decisions: list[str]) -> None:
        """Take placement decisions: the case's own, in order, else the first legal one.

        A given decision of another kind than the one asked now (a card to lay while a token
        waits for its section) waits its turn; the first legal choice is taken meanwhile.
        """
        state = self.state
        while not state.is_terminal() and state.phase.name in ("PLACE_TOKENS", "PLACE_CARDS"):
            legal = state.legal_actions()
            asked = state.action_to_string(legal[0]).split()[0]
            if decisions and decisions[0].split()[0] == asked:
                state.apply_action(state.string_to_action(decisions.pop(0)))
            else:
                state.apply_action(legal[0])

    # ------------------------------------------------------------ running

    def run(self) -> list[str]:
        data, expect = self.data, self.expect
        dealt = "deal" in data
        full = len(data.get("trick") or []) == self.game.num_players
        if TRICK_EXPECT_KEYS & set(expect) and not full:
            keys = ", ".join(sorted(TRICK_EXPECT_KEYS & set(expect)))
            raise ExampleError(f"expect {keys}: only after a complete 'trick' (a card from every player)")
        if "legal" in expect and not (dealt or data.get("trick") or "hand" in data):
            raise ExampleError("'legal' needs a 'hand' (with or without 'trick'), or a 'deal'")
        if "deals" in data:
            self.play_deals()
        elif not dealt and (data.get("trick") or "hand" in data):
            self.check_trick()
        if dealt and "legal" in expect:
            self.check("legal", sorted(map(self.named, expect["legal"])), sorted(self.choices()))
        self.check_state()
        return self.failures

    def choices(self) -> list[str]:
        """What the player to act may choose: the card, section, suit or bid of each legal action
        (its text after the verb), or the whole word for a one-word action (``pass``, ``alone``)."""
        texts = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        return [text.partition(" ")[2] or text for text in texts]

    def check(self, what: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            self.failures.append(f"{what}: expected {expected!r}, got {actual!r}")

    def check_trick(self) -> None:
        state, expect = self.state, self.expect
        trick_size = len(self.data.get("trick") or [])
        full = trick_size == self.game.num_players
        if "legal" in expect and full:
            raise ExampleError("'legal' needs a trick still open (fewer cards than players)")
        hands_before = [list(h) for h in state.hands]
        self.play_trick()
        if "legal" in expect:
            legal = sorted(self.game.card_ids[a] for a in state.legal_actions())
            self.check("legal", sorted(map(self.named, expect["legal"])), legal)
        if full:
            self.check_resolved(hands_before)

    def check_resolved(self, hands_before: list[list[int]]) -> None:
        events = self.state.events or []
        trick = next(e for e in events if e["type"] == "trick")
        expect = self.expect
        winner_card = trick["cards"][trick["players"].index(trick["winner"])]
        if "winner" in expect:
            self.check("winner", self.named(expect["winner"]), self.game.card_ids[winner_card])
        if "winner_seat" in expect:
            self.check("winner seat", expect["winner_seat"], trick["winner"])
        if "rewards" in expect:
            actual = [self.reward_entry(e) for e in events if e["type"] == "reward"]
            wanted = [{k: r[k] for k in ("seat", "token", "amount", "reward") if k in r} for r in expect["rewards"]]
            actual = [{k: a[k] for k in w} for a, w in zip(actual, wanted)] + actual[len(wanted) :]
            self.check("rewards", wanted, actual)

    def reward_entry(self, event: dict[str, Any]) -> dict[str, Any]:
        tokens = self.game.ruleset.tokens
        token = "points" if event["token"] is None else tokens[event["token"]].name
        name = self.game.ruleset.rewards[event["reward"]].name
        return {"seat": event["player"], "token": token, "amount": event["taken"], "reward": name}

    def play_deals(self) -> None:
        """Score a match deal by deal: each deal's won cards and tricks, then the round's end."""
        for number, deal in enumerate(self.data["deals"], 1):
            state = self.state
            if state.is_terminal():
                raise ExampleError(f"deal {number}: the game is already over after {number - 1} deal(s)")
            state.piles = [[] for _ in range(self.game.num_players)]
            state.tricks_won = [0] * self.game.num_players
            for seat, cards in (deal.get("won") or {}).items():
                state.piles[self.seat(seat)] = [self.card(c) for c in cards]
            for seat, count in (deal.get("tricks_won") or {}).items():
                state.tricks_won[self.seat(seat)] = int(count)
            state.end_round()

    def check_state(self) -> None:
        state, expect, game = self.state, self.expect, self.game
        if "face" in expect:
            card = self.card(self.data["card"])
            deck = game.ruleset.deck
            face = deck.cards[card].faces[state.tables.faces.face[card]]
            self.check("face", face_text(deck, str(expect["face"])), deck.face_text(face))
        if "tokens" in expect:
            actual = {int(s): sum(state.section_tokens[int(s)]) + sum(state.pool[int(s)]) for s in expect["tokens"]}
            self.check("tokens", {int(k): v for k, v in expect["tokens"].items()}, actual)
        if "section_tokens" in expect:
            self.check_section_tokens(expect["section_tokens"])
        if "supply" in expect:
            supply = {name: count for name, count in state.observation(0)["supply"].items() if name in expect["supply"]}
            self.check("supply", expect["supply"], supply)
        if "stacks" in expect:
            self.check_stacks(expect["stacks"])
        if ROUND_EXPECT_KEYS & set(expect) and "deals" not in self.data:
            if "deal" in self.data:
                if not state.round_results:
                    raise ExampleError(f"{', '.join(sorted(ROUND_EXPECT_KEYS & set(expect)))}: no round has ended")
                self.check_round(state.round_results[-1])
            else:
                self.check_scoring()
        if "hands" in expect:
            for seat, cards in expect["hands"].items():
                hand = sorted(game.card_ids[c] for c in state.hands[self.seat(seat)])
                self.check(f"hand of seat {seat}", sorted(map(self.named, cards)), hand)
        if "melds" in expect:
            self.check_melds(expect["melds"])
        if "counters" in expect:
            values = {name: state.counters.get(name, "no such counter") for name in expect["counters"]}
            self.check("counters", expect["counters"], values)
        if "current_player" in expect:
            self.check("current player", expect["current_player"], state.current_player())
        if "phase" in expect:
            self.check("phase", str(expect["phase"]).lower(), state.phase.name.lower())
        if "terminal" in expect:
            self.check("terminal", expect["terminal"], state.is_terminal())
        if "totals" in expect:
            self.check("totals", expect["totals"], state.totals)
        if "winners" in expect:
            self.check("winners", expect["winners"], state.winners())

    def check_section_tokens(self, wanted: dict[Any, dict[str, int]]) -> None:
        """Tokens on named sections of a seat's tableau: ``{seat: {C: 2}}``."""
        tableau = self.game.ruleset.tableau
        if tableau is None:
            raise ExampleError("the spec has no tableau")
        names = [s.name for s in tableau.sections]
        for seat, sections in wanted.items():
            row = self.state.section_tokens[int(seat)]
            actual = {name: row[names.index(name)] for name in sections}
            self.check(f"section tokens of seat {seat}", sections, actual)

    def check_melds(self, expected: dict[Any, dict[str, list[str]]]) -> None:
        """The melds each listed seat showed this round (`show_melds`): measure -> its cards."""
        state, ids = self.state, self.game.card_ids
        own = show_melds.shown(state)
        for seat, melds in expected.items():
            shown = {} if own is None else {name: sorted(ids[c] for c in cards) for name, cards in own.melds[self.seat(seat)]}
            wanted = {name: sorted(map(self.named, cards)) for name, cards in (melds or {}).items()}
            self.check(f"melds of seat {seat}", wanted, shown)

    def check_stacks(self, stacks: dict[Any, dict[str, list[str]]]) -> None:
        tableau = self.game.ruleset.tableau
        assert tableau is not None
        for seat, sections in stacks.items():
            actual = {}
            for index, section in enumerate(tableau.sections):
                if section.name in sections:
                    actual[section.name] = [self.game.card_ids[c] for c in self.state.stacks[int(seat)][index]]
            wanted = {name: [self.named(c) for c in cards] for name, cards in sections.items()}
            self.check(f"stacks of seat {seat}", wanted, actual)

    def check_scoring(self) -> None:
        """Score the round as it stands (the engine's own end-of-round scoring)."""
        state = self.state
        state.tricks_played = self.game.ruleset.deal.hand_size
        state.round = self.game.ruleset.rounds - 1
        state.end_round()
        self.check_round(state.round_results[-1])

    def check_round(self, result: dict[str, Any]) -> None:
        """Check the expectations about one round's score against the engine's result."""
        expect = self.expect
        for key, field_name in (("section_scores", "score"), ("section_cases", "case")):
            for seat, wanted in (expect.get(key) or {}).items():
                rows = {s["section"]: s[field_name] for s in result.get("sections", {})[int(seat)]}
                self.check(f"{key} of seat {seat}", wanted, {k: rows.get(k) for k in wanted})
        if "measures" in expect:
            for who, values in expect["measures"].items():
                actual = {k: result["measures"][int(who)].get(k) for k in values}
                self.check(f"measures of seat {who}", values, actual)
        if "round_points" in expect:
            self.check("round points", expect["round_points"], result["points"])


def _flat(items: Any) -> list[Any]:
    """A list of actions, with nested lists (a trick on one line) flattened."""
    if not isinstance(items, list):
        raise ExampleError("'actions' is a list of action texts (lists of them are flattened)")
    flat: list[Any] = []
    for item in items:
        flat.extend(_flat(item) if isinstance(item, list) else [item])
    return flat
