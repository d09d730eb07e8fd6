"""Random play under invariants: every shipped spec and generated specs, every player count.

Hypothesis picks the seed, the options and every decision (an index into `legal_actions()`).
`play_checked` plays the game and checks, after every action and at the end:

- cards: hands + trick + piles + stacks + place queue + set aside hold the deck, each card once;
- tricks: one card per player, in seat order from the leader, each play legal just before it;
- follow: the cards allowed are exactly those the follow rules ask for, recomputed here from
  the counting faces (a player holding the led group may play nothing else);
- winner: the one an independent reading of the ranking ladder picks (`ladder_winner` below);
- tokens: supply + placed + pools + queued + lost this round = the round's starting supply;
- scores: rewards, measures, points, totals and winners recomputed from the event log;
- clone: a clone given the same actions ends in the same state; observations show no other hand;
- records: the same seed and decisions give the same record, byte for byte.

Each checker raises AssertionError; the tests at the end break the engine on purpose (or
hand a checker a doctored ruleset or event) and show that the checker notices.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

import trickrules
from strategies import as_yaml, scaled, shipped_spec_paths, spec_data
from trickrules.errors import IllegalActionError
from trickrules.engine.game import Game
from trickrules.tools.record import build_record, dumps
from trickrules.rules.ruleset import (
    TRUMP_GROUP,
    UNLIMITED,
    Amount,
    CardCondition,
    DealCondition,
    Deck,
    Face,
    RankingStep,
    Ruleset,
    TrumpChoice,
)
from trickrules.engine.state import Phase, State

Choose = Callable[[int], int]
"""(number of legal actions) -> the index of the one to take."""

SHIPPED = shipped_spec_paths()
SHIPPED_COUNTS = [
    (path, players)
    for path in SHIPPED
    for players in trickrules.load_ruleset(path).allowed_players
]


# ================================================================ an independent reading of the rules


@dataclasses.dataclass(frozen=True)
class Faces:
    """The counting face of every card under one set of trumps, worked out here."""

    suit: tuple[int, ...]
    rank: tuple[int, ...]
    index: tuple[int, ...]
    trumps: frozenset[int]

    def is_trump(self, card: int) -> bool:
        return self.suit[card] in self.trumps

    def group(self, card: int) -> int:
        return TRUMP_GROUP if self.is_trump(card) else self.suit[card]


def deal_holds(condition: DealCondition, face: Face, trumps: frozenset[int]) -> bool:
    """Whether a face's `when` holds in a deal with `trumps`."""
    checks = []
    if condition.trump is not None:
        checks.append((face.suit in trumps) == condition.trump)
    if condition.trumps_include is not None:
        checks.append(condition.trumps_include in trumps)
    if condition.no_trumps is not None:
        checks.append((len(trumps) == 0) == condition.no_trumps)
    if condition.negate is not None:
        checks.append(not deal_holds(condition.negate, face, trumps))
    checks += [deal_holds(part, face, trumps) for part in condition.all_of]
    if condition.any_of is not None:
        checks.append(any(deal_holds(part, face, trumps) for part in condition.any_of))
    return all(checks)


def faces_for(deck: Deck, trumps: frozenset[int]) -> Faces:
    """Each card counts as its first face whose `when` holds, else as its last face."""
    chosen = []
    for card in deck.cards:
        fits = [i for i, f in enumerate(card.faces) if f.when is None or deal_holds(f.when, f, trumps)]
        chosen.append(fits[0] if fits else len(card.faces) - 1)
    faces = [card.faces[i] for card, i in zip(deck.cards, chosen)]
    return Faces(tuple(f.suit for f in faces), tuple(f.rank for f in faces), tuple(chosen), trumps)


def card_matches(cond: CardCondition, card: int, faces: Faces, deck: Deck, led: int, winner: int = -1) -> bool:
    """Whether a card condition holds for `card` in a trick led in group `led`."""
    checks = []
    if cond.ranks is not None:
        checks.append(faces.rank[card] in cond.ranks)
    if cond.suits is not None:
        checks.append(faces.suit[card] in cond.suits)
    if cond.trump is not None:
        checks.append(faces.is_trump(card) == cond.trump)
    if cond.led is not None:
        checks.append((faces.group(card) == led) == cond.led)
    if cond.attribute is not None:
        test, value = cond.attribute, deck.cards[card].attributes[cond.attribute.attribute]
        checks.append(test.at_least is None or value >= test.at_least)
        checks.append(test.at_most is None or value <= test.at_most)
        checks.append(test.equals is None or value == test.equals)
    if cond.same_suit_as_winner is not None:
        checks.append((faces.suit[card] == faces.suit[winner]) == cond.same_suit_as_winner)
    if cond.winner is not None:
        checks.append(card_matches(cond.winner, winner, faces, deck, led, winner))
    if cond.negate is not None:
        checks.append(not card_matches(cond.negate, card, faces, deck, led, winner))
    checks += [card_matches(part, card, faces, deck, led, winner) for part in cond.all_of]
    if cond.any_of is not None:
        checks.append(any(card_matches(part, card, faces, deck, led, winner) for part in cond.any_of))
    return all(checks)


def ladder_winner(steps: Sequence[RankingStep], cards: Sequence[int], faces: Faces, deck: Deck) -> int:
    """Position of the winning card: filter the candidates step by step, first played last."""
    led = faces.group(cards[0])
    candidates = list(range(len(cards)))
    for step in steps:
        if step.kind == "first_played":
            return candidates[0]
        if step.kind == "last_played":
            return candidates[-1]
        if step.kind == "prefer":
            if step.group == "trump":
                kept = [p for p in candidates if faces.is_trump(cards[p])]
            elif step.group == "led":
                kept = [p for p in candidates if faces.group(cards[p]) == led]
            else:
                assert step.condition is not None
                kept = [p for p in candidates if card_matches(step.condition, cards[p], faces, deck, led)]
            candidates = kept or candidates
            continue

        def value(position: int) -> int:
            card = cards[position]
            return faces.rank[card] if step.attribute is None else deck.cards[card].attributes[step.attribute]

        best = max(map(value, candidates)) if step.kind == "highest" else min(map(value, candidates))
        candidates = [p for p in candidates if value(p) == best]
    return candidates[0]


def allowed_cards(rules: Ruleset, hand: Sequence[int], trick: Sequence[int], faces: Faces) -> list[int]:
    """The cards the follow rules allow, read from the rules' words."""
    if not trick:
        return sorted(hand)
    led = faces.group(trick[0])
    kinds = [rule.kind for rule in rules.follow]
    following = [c for c in hand if faces.group(c) == led]
    if following:
        return sorted(following)
    trumps = [c for c in hand if faces.is_trump(c)]
    if "trump_if_void" in kinds and trumps:
        return sorted(trumps)
    return sorted(hand)


def reward_amount(amount: Amount, card: int, faces: Faces, deck: Deck) -> int:
    if amount.attribute is not None:
        return deck.cards[card].attributes[amount.attribute]
    if amount.by_rank is not None:
        return dict(amount.by_rank).get(faces.rank[card], amount.constant)
    return amount.constant


def trick_gains(rules: Ruleset, cards: Sequence[int], players: Sequence[int], win: int, faces: Faces) -> list[tuple]:
    """(player, reward, token or None, amount) of a trick: winner first, then losers in play order."""
    deck, led, winner = rules.deck, faces.group(cards[0]), cards[win]
    subjects = [(win, "winner")] + [(p, "losers") for p in range(len(cards)) if p != win]
    gains = []
    for position, to in subjects:
        for index, reward in enumerate(rules.rewards):
            card = cards[position]
            if reward.to != to or (reward.when and not card_matches(reward.when, card, faces, deck, led, winner)):
                continue
            amount = reward_amount(reward.amount, card, faces, deck)
            if reward.token is not None:
                amount = max(0, amount)  # a negative count of tokens gives nothing
            if amount:  # nothing to give is not a gain
                gains.append((players[position], index, reward.token, amount))
    return gains


# ================================================================ the checkers


def check_cards(state: State) -> None:
    """Every card of the deck is in exactly one place."""
    places = [*state.hands, state.trick, *state.piles, state.place_queue, state.set_aside]
    places += state.parts.get("pass", {}).get("passed", [])  # passed, not arrived yet
    places += [stack for row in state.stacks for stack in row]
    held = sorted(card for place in places for card in place)
    assert held == list(range(state.game.num_cards)), f"cards gained, lost or doubled: {held}"


def check_trick_in_progress(state: State) -> None:
    """The trick on the table: one card per player so far, in seat order."""
    n, players = state.game.num_players, state.trick_players
    assert len(state.trick) == len(players) < n
    assert all(b == (a + 1) % n for a, b in zip(players, players[1:])), f"seat order broken: {players}"


def check_refuses(state: State, legal: Sequence[int]) -> None:
    """An action outside `legal` raises IllegalActionError and leaves the state as it was."""
    wrong = [c for hand in state.hands for c in hand if c not in legal][:1] or [-1]
    before = (str(state), list(state.history))
    with pytest.raises(IllegalActionError):
        state.apply_action(wrong[0])
    assert (str(state), list(state.history)) == before, "a refused action changed the state"
    assert state.legal_actions() == list(legal)


def check_trick(event: dict[str, Any], num_players: int) -> None:
    """A finished trick: one card from every player, in seat order from the leader."""
    players, cards = event["players"], event["cards"]
    assert len(cards) == len(players) == num_players, f"trick of {len(cards)} cards: {event}"
    assert players == [(event["leader"] + i) % num_players for i in range(num_players)], event
    assert len(set(cards)) == num_players, f"a card played twice: {event}"


def check_play(event: dict[str, Any], action: int, legal: Sequence[int], player: int) -> None:
    """The card played is the action taken, by the player to move, from the legal actions."""
    assert event["card"] in legal, f"card {event['card']} played though not legal: {list(legal)}"
    assert (event["card"], event["player"]) == (action, player), f"asked {action} of {player}, got {event}"


def check_follow(state: State, legal: Sequence[int], faces: Faces) -> None:
    """The legal cards are those the follow rules ask for (from the counting faces)."""
    if state.phase != Phase.PLAY:
        return
    player = state.current_player()
    hand = state.hands[player]
    rules = state.game.ruleset
    expected = allowed_cards(rules, hand, state.trick, faces)
    if rules.restrictions:
        expected = restricted_cards(rules, expected, state, player, faces)
    assert sorted(legal) == expected, f"follow: legal {sorted(legal)}, the rules allow {expected}"


def restricted_cards(rules: Ruleset, cards: list[int], state: State, player: int, faces: Faces) -> list[int]:
    """The play restrictions read from the rules' words: each narrows while its condition holds,
    unless nothing would be left."""
    env: dict[str, Any] = dict(rules.constants)
    env.update({k: (v[player] if isinstance(v, list) else v) for k, v in state.counters.items()})
    env.update(trick=state.tricks_played + 1, round=state.round + 1, totals=tuple(state.totals))
    leading = not state.trick
    for rule in rules.restrictions:
        if (rule.lead is True and not leading) or (rule.lead is False and leading):
            continue
        if rule.when is not None and not rule.when(env):
            continue
        condition = rule.allow if rule.allow is not None else rule.forbid
        assert condition is not None
        keep = [c for c in cards if card_matches(condition, c, faces, rules.deck, -1) == (rule.allow is not None)]
        cards = keep or cards
    return sorted(cards)


def check_winner(event: dict[str, Any], reader: Ruleset, faces: Faces) -> None:
    """The trick's winner is the one the ladder picks, read step by step."""
    position = ladder_winner(reader.ranking, event["cards"], faces, reader.deck)
    expected = event["players"][position]
    assert event["winner"] == expected, f"trick {event['cards']}: engine says {event['winner']}, ladder {expected}"


def check_tokens(state: State, lost_at_round_start: Sequence[int]) -> None:
    """Finite token supplies are conserved within a round."""
    rules = state.game.ruleset
    staff = rules.tableau.token if rules.tableau is not None else None
    for token, kind in enumerate(rules.tokens):
        if kind.supply == UNLIMITED:
            continue
        placed = sum(sum(row) for row in state.section_tokens) if staff == token else 0
        pools = sum(pool[token] for pool in state.pool)
        queued = sum(1 for _, k in state.token_queue if k == token)
        lost = state.lost[token] - lost_at_round_start[token]
        total = state.supply[token] + placed + pools + queued + lost
        assert state.supply[token] >= 0 and pools >= 0, f"{kind.name}: negative supply or pool"
        assert total == kind.supply, f"{kind.name}: {total} tokens in play, the supply was {kind.supply}"


def check_observations(state: State) -> None:
    """Each player's observation shows their own hand and no card of another hand."""
    ids = state.game.card_ids
    for player in range(state.game.num_players):
        observation = state.observation(player)
        hidden = {ids[c] for other, hand in enumerate(state.hands) if other != player for c in hand}
        shown = set(_words(observation))
        assert not hidden & shown, f"player {player} sees {sorted(hidden & shown)}"
        assert observation["hand"] == [ids[c] for c in state.hands[player]], "not the player's own hand"


def _words(value: Any) -> list[str]:
    """Every word of every text (and key) in a JSON-like value."""
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in _words(k) + _words(v)]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in _words(v)]
    return [w.strip("()[],") for w in value.split()] if isinstance(value, str) else []


def snapshot(state: State) -> tuple:
    """What must agree between a state and its clone."""
    players = range(state.game.num_players)
    return (str(state), [state.observation(p) for p in players], list(state.history), state.returns())


def check_clone(twin: State, tail: Sequence[int], state: State) -> None:
    """The clone, given the actions taken since, is in the same state as the original."""
    try:
        for action in tail:
            twin.apply_action(action)
    except ValueError as error:  # IllegalActionError, or worse: a clone sharing lists with its original
        raise AssertionError(f"the clone diverged: {str(error).splitlines()[0]}") from None
    assert snapshot(twin) == snapshot(state), "the clone ended in another state"
    assert (twin.round_results, twin.totals) == (state.round_results, state.totals)


class ScoreBook:
    """Replays a round's events from the log and scores it by the rules' words."""

    def __init__(self, rules: Ruleset, faces: Faces, num_players: int) -> None:
        n = num_players
        self.rules, self.faces = rules, faces
        sections = len(rules.tableau.sections) if rules.tableau else 0
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.stacks = [[[] for _ in range(sections)] for _ in range(n)]
        self.placed = [[0] * sections for _ in range(n)]
        self.placed_kind = [[0] * len(rules.tokens) for _ in range(n)]
        self.pool = [[0] * len(rules.tokens) for _ in range(n)]
        self.tricks, self.bonus = [0] * n, [0] * n
        self.supply = [kind.supply for kind in rules.tokens]
        self.pending = [0] * n
        self.gains: list[tuple] = []

    def trick(self, event: dict[str, Any]) -> None:
        winner, cards, players = event["winner"], event["cards"], event["players"]
        self.tricks[winner] += 1
        if self.rules.won_cards == "pile":
            self.piles[winner].extend(cards)
        self.gains = trick_gains(self.rules, cards, players, players.index(winner), self.faces)
        self.pending = [0] * len(self.tricks)

    def reward(self, event: dict[str, Any]) -> None:
        assert self.gains, f"a reward no rule gives: {event}"
        player, index, token, amount = self.gains.pop(0)
        assert (event["player"], event["reward"], event["token"], event["amount"]) == (player, index, token, amount)
        if token is None:
            self.bonus[player] += amount
            taken = amount
        else:
            taken = self._take(player, token, amount)
        assert event["taken"] == taken, f"took {event['taken']} tokens, expected {taken}: {event}"

    def _take(self, player: int, token: int, amount: int) -> int:
        kind, supply = self.rules.tokens[token], self.supply[token]
        available = amount if supply == UNLIMITED else min(amount, supply)
        taken = available
        if kind.to == "tableau":
            needed = sum(s.tokens_needed for s in self.rules.tableau.sections)  # type: ignore[union-attr]
            taken = min(available, needed - sum(self.placed[player]) - self.pending[player])
            self.pending[player] += taken
        else:
            self.pool[player][token] += taken
        gone = available if kind.when_no_space == "lost" and kind.to == "tableau" else taken
        if supply != UNLIMITED:
            self.supply[token] -= gone
        return taken

    def token(self, event: dict[str, Any]) -> None:
        player, section = event["player"], event["section"]
        self.placed[player][section] += 1
        self.placed_kind[player][event["token"]] += 1
        needed = self.rules.tableau.sections[section].tokens_needed  # type: ignore[union-attr]
        assert self.placed[player][section] <= needed, f"too many tokens on section {section}"

    def place(self, event: dict[str, Any]) -> None:
        player, card, section = event["player"], event["card"], event["section"]
        suit = self.faces.suit[card]
        row = self.stacks[player]
        home = [i for i, stack in enumerate(row) if stack and self.faces.suit[stack[0]] == suit]
        free = [i for i, stack in enumerate(row) if not stack]
        expected = home[0] if home else (free[0] if free else -1)
        assert section == expected, f"card {card} placed on section {section}, its place is {expected}"
        (self.piles[player] if section < 0 else row[section]).append(card)

    def sections(self, player: int) -> list[tuple[str, str, int]]:
        tableau = self.rules.tableau
        assert tableau is not None
        rows = []
        for section, stack, tokens in zip(tableau.sections, self.stacks[player], self.placed[player]):
            staffed = "staffed" if tokens >= section.tokens_needed else "understaffed"
            case = f"{'cards' if stack else 'empty'}_{staffed}"
            value = getattr(tableau, case)
            score = {
                "top_rank": lambda: self.faces.rank[stack[-1]] if stack else 0,
                "sum_ranks": lambda: sum(self.faces.rank[c] for c in stack),
                "card_count": lambda: len(stack),
                "value": lambda: section.value,
                "per_missing_token": lambda: value.number * max(0, section.tokens_needed - tokens),
                "constant": lambda: value.number,
            }[value.kind]()
            rows.append((section.name, case, score))
        return rows

    def measure(self, player: int, measure: Any) -> int:
        won = self.piles[player] + [c for stack in self.stacks[player] for c in stack]
        if measure.kind == "tricks":
            return self.tricks[player]
        if measure.kind == "cards":
            return len(won)
        if measure.kind == "sum_attribute":
            return sum(self.rules.deck.cards[c].attributes[measure.attribute] for c in won)
        if measure.kind == "tokens":
            return self.pool[player][measure.token] + self.placed_kind[player][measure.token]
        return sum(score for _, _, score in self.sections(player))

    def result(self) -> dict[str, Any]:
        """The round's measures, points by rule, rewards and points, as the engine reports them."""
        scoring, players = self.rules.scoring, range(len(self.tricks))
        measures = [[self.measure(p, m) for m in scoring.measures] for p in players]
        points = [[0] * len(scoring.round_rules) for _ in players]
        names = [m.name for m in scoring.measures]
        for index, rule in enumerate(scoring.round_rules):
            if rule.kind == "add":
                for p in players:
                    points[p][index] = measures[p][rule.measure] * rule.times
                continue
            if rule.kind == "expression":
                assert rule.expression is not None
                for p in players:
                    env: dict[str, Any] = dict(self.rules.constants)
                    env.update({f"all_{n}": tuple(row[i] for row in measures) for i, n in enumerate(names)})
                    env.update(zip(names, measures[p]))
                    points[p][index] = int(rule.expression(env))
                continue
            best = list(players)
            for key in rule.keys:
                values = [measures[p][key.measure] for p in best]
                target = max(values) if key.most else min(values)
                best = [p for p in best if measures[p][key.measure] == target]
            for p in best:
                points[p][index] = rule.points
        names = [m.name for m in scoring.measures]
        result = {
            "measures": [dict(zip(names, row)) for row in measures],
            "points": [sum(row) + bonus for row, bonus in zip(points, self.bonus)],
            "rewards": list(self.bonus),
            "by_rule": points,
        }
        if self.rules.tableau is not None:
            result["sections"] = [
                [{"section": s, "case": c, "score": v} for s, c, v in self.sections(p)] for p in players
            ]
        return result


def check_scores(state: State) -> None:
    """Rewards, round results, totals and winners, recomputed from the event log."""
    rules, game = state.game.ruleset, state.game
    assert state.events is not None
    book: ScoreBook | None = None
    rounds: list[dict[str, Any]] = []
    for event in state.events:
        kind = event["type"]
        if kind == "trumps":
            book = ScoreBook(rules, faces_for(rules.deck, frozenset(event["trumps"])), game.num_players)
        elif kind in ("trick", "reward", "token", "place"):
            assert book is not None
            if kind == "trick":
                assert not book.gains, f"rewards never handed out: {book.gains}"
            getattr(book, kind)(event)
        elif kind == "round_end":
            assert book is not None and not book.gains
            rounds.append(book.result())
    assert len(rounds) == len(state.round_results)
    assert len(rounds) == rules.rounds or (rules.until is not None and 1 <= len(rounds) < rules.rounds)
    totals = [0] * game.num_players
    for mine, theirs in zip(rounds, state.round_results):
        assert theirs["measures"] == mine["measures"], f"measures {theirs['measures']} != {mine['measures']}"
        by_rule = [dict(zip(game.rule_labels, row)) for row in mine["by_rule"]]
        assert theirs["rules"] == by_rule, f"rule points {theirs['rules']} != {by_rule}"
        assert theirs["rewards"] == mine["rewards"], f"reward points {theirs['rewards']} != {mine['rewards']}"
        assert theirs["points"] == mine["points"], f"round points {theirs['points']} != {mine['points']}"
        assert theirs.get("sections") == mine.get("sections"), "section scores differ"
        totals = [t + p for t, p in zip(totals, mine["points"])]
    assert state.totals == totals, f"totals {state.totals} != {totals}"
    target = max(totals) if rules.scoring.winner == "most_points" else min(totals)
    assert state.winners() == [p for p, t in enumerate(totals) if t == target]


# ================================================================ playing under the checkers


@dataclasses.dataclass
class Played:
    """A finished, checked game and the decisions that made it."""

    state: State
    choices: list[int]


def play_checked(game: Game, seed: int, choose: Choose, reader: Ruleset | None = None, clone_at: int = 0) -> Played:
    """Play a game, checking every invariant after every action; `reader`: the ladder read."""
    reader = reader or game.ruleset
    deck = game.ruleset.deck
    state = game.new_initial_state(seed, record=True)
    assert state.events is not None
    faces_cache: dict[frozenset[int], Faces] = {}
    lost_at_start, round_seen = list(state.lost), state.round
    twin: tuple[State, int] | None = None
    choices: list[int] = []
    while not state.is_terminal():
        faces = faces_cache.setdefault(state.trumps, faces_for(deck, state.trumps))
        assert faces.suit == state.tables.faces.suit and faces.rank == state.tables.faces.rank
        legal, player = state.legal_actions(), state.current_player()
        assert legal, "a decision without legal actions"
        check_follow(state, legal, faces)
        if len(state.history) % 7 == 0:
            check_refuses(state, legal)
        if len(state.history) == clone_at:
            twin = (state.clone(), clone_at)
            assert snapshot(twin[0]) == snapshot(state), "a fresh clone differs"
        choices.append(choose(len(legal)))
        action, phase, logged = legal[choices[-1]], state.phase, len(state.events)
        state.apply_action(action)
        for event in state.events[logged:]:
            if event["type"] == "play":
                assert phase == Phase.PLAY
                check_play(event, action, legal, player)
            elif event["type"] == "trick":
                check_trick(event, game.num_players)
                check_winner(event, reader, faces)
        if state.round != round_seen and not state.is_terminal():  # a new deal: the supply is reset
            lost_at_start, round_seen = list(state.lost), state.round
        check_cards(state)
        if state.phase == Phase.PLAY:
            check_trick_in_progress(state)
        check_tokens(state, lost_at_start)
        check_observations(state)
    assert state.legal_actions() == [] and state.current_player() == trickrules.TERMINAL_PLAYER
    check_scores(state)
    if twin is not None:
        check_clone(twin[0], state.history[twin[1] :], state)
    return Played(state, choices)


def replay_choices(game: Game, seed: int, choices: Sequence[int]) -> State:
    """Play again with the same decisions (indices into the legal actions), unchecked."""
    state = game.new_initial_state(seed, record=True)
    for choice in choices:
        if state.is_terminal():
            break  # a broken engine may deal otherwise: the records then differ
        legal = state.legal_actions()
        state.apply_action(legal[choice % len(legal)])
    return state


def check_same_record(game: Game, seed: int, played: Played) -> None:
    """The same seed and decisions give the same record, byte for byte."""
    again = replay_choices(game, seed, played.choices)
    assert dumps(build_record(again)) == dumps(build_record(played.state)), "same seed, another record"


def drawn_choices(data: st.DataObject) -> Choose:
    """Hypothesis picks each decision; a lone legal action needs no draw."""
    return lambda count: 0 if count == 1 else data.draw(st.integers(0, count - 1))


def random_choices(seed: int) -> Choose:
    chooser = random.Random(seed)
    return lambda count: chooser.randrange(count)


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


@pytest.mark.parametrize(("path", "players"), SHIPPED_COUNTS, ids=[f"{p.stem}-{n}" for p, n in SHIPPED_COUNTS])
@settings(max_examples=scaled(25))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_play_of_shipped_specs(path: Path, players: int, data: st.DataObject, seed: int) -> None:
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
        "options": "options" in spec,
    }
    return [name for name, present in found.items() if present]


def test_every_shipped_spec_is_covered() -> None:
    names = {path.stem for path in SHIPPED}
    assert {"kingdoms", "meadows"} <= names


# ================================================================ the checkers notice breaks


KINGDOMS = Path(__file__).resolve().parent.parent / "specs" / "kingdoms.yaml"
MEADOWS = KINGDOMS.with_name("meadows.yaml")


def _play(game: Game, seed: int = 1, reader: Ruleset | None = None, clone_at: int = 0) -> Played:
    return play_checked(game, seed, random_choices(seed), reader=reader, clone_at=clone_at)


def _short(path: Path = KINGDOMS, players: int = 4, **options: Any) -> Game:
    return trickrules.load_game(path, players=players, options={"rounds": 1, **options})


def test_the_checkers_pass_on_the_engine() -> None:
    _play(_short())


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


def test_break_trick_of_too_few_cards() -> None:
    event = {"type": "trick", "leader": 1, "cards": [3, 4, 5], "players": [1, 2, 0], "winner": 2}
    check_trick(event, 3)
    with pytest.raises(AssertionError, match="trick of 2 cards"):
        check_trick({**event, "cards": [3, 4], "players": [1, 2]}, 3)


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


def test_break_follow_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import game as game_module

    monkeypatch.setattr(game_module, "compile_follow", lambda rules, faces: lambda hand, led: list(hand))
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


def test_break_token_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine.phases import place_tokens

    monkeypatch.setattr(place_tokens, "_take", lambda state, token, count: None)
    with pytest.raises(AssertionError, match="the supply was"):
        for seed in range(5):
            _play(_short(players=2), seed)


def test_break_section_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.rules import scoring

    value = scoring.section_value
    monkeypatch.setattr(scoring, "section_value", lambda *args: value(*args) + 1)
    with pytest.raises(AssertionError, match="measures|section"):
        _play(_short())


def test_break_award_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.rules import scoring

    monkeypatch.setattr(scoring, "best_players", lambda rule, measures: [0])
    with pytest.raises(AssertionError, match="rule points"):
        for seed in range(5):
            _play(_short(MEADOWS), seed)


def test_break_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    import copy

    monkeypatch.setattr(State, "clone", lambda self: copy.copy(self))  # shares hands and piles
    with pytest.raises(AssertionError, match="clone"):
        _play(_short(), clone_at=3)


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


def test_break_same_seed_same_record(monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.engine import state as state_module

    deal_order, calls = state_module.deal_order, iter(range(10**6))
    monkeypatch.setattr(state_module, "deal_order", lambda seed, r, n: deal_order(seed + next(calls), r, n))
    game = _short()
    played = _play(game)
    with pytest.raises(AssertionError, match="another record"):
        check_same_record(game, 1, played)


# ================================================================ engine bugs found (xfail until fixed)

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
    game = Game(trickrules.load_ruleset_text(NEGATIVE_TOKENS))
    _play(game, 0)
