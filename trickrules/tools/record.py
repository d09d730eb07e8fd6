"""Game records: a self-describing JSON account of one game, and its replay.

A record holds what another implementation needs to audit a game: the spec's id, its file
and digests (see `trickrules.tools.provenance`), the options, the seed, every card's faces and attributes, and per round the dealer, the
trumps, each dealt hand, each trick (leader, each play with the face it counted as, winner),
each reward and where its tokens went, each placement of won cards in order, every other
decision, the score breakdown, and finally the totals and winners. It also lists every action
in order, so that `replay` can play the game again and compare.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trickrules.engine.agents import Agent
from trickrules.engine.deals import GivenDeal
from trickrules.engine.game import Game
from trickrules.engine.phases import EVENTS
from trickrules.rules.ruleset import TrumpChoice
from trickrules.engine.state import State
from trickrules.tools.provenance import spec_entry
from trickrules.tools.output import counted

FORMAT = "trickrules-record"
FORMAT_VERSION = 1


def play_game(
    game: Game,
    seed: int,
    agents: Sequence[Agent],
    on_action: Callable[[State, int], None] | None = None,
    deal: Any = None,
) -> State:
    """Play one game with `agents` (one per seat) and return the finished, recorded state.

    `deal` is a given deal, as `Game.new_initial_state` takes it.
    """
    state = game.new_initial_state(seed, record=True, deal=deal)
    while not state.is_terminal():
        player = state.current_player()
        action = agents[player].step(state)
        if on_action is not None:
            on_action(state, action)
        state.apply_action(action)
    return state


def card_entry(game: Game, card: int) -> dict[str, Any]:
    """One card of the deck as the record lists it."""
    deck = game.ruleset.deck
    entry = deck.cards[card]
    return {
        "id": entry.id,
        "faces": [{"suit": deck.suits[f.suit], "rank": f.rank} for f in entry.faces],
        "attributes": dict(zip(deck.attributes, entry.attributes)),
    }


class _RecordBuilder:
    """Turns a recorded state's event log into the record's rounds."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.game = state.game
        self.rules = state.game.ruleset
        self.rounds: list[dict[str, Any]] = []
        self.trick: dict[str, Any] | None = None  # the trick being played
        self.last_trick: dict[str, Any] = {}  # the trick whose rewards and placements follow

    def card(self, index: int) -> str:
        return self.game.card_ids[index]

    def build(self) -> list[dict[str, Any]]:
        for event in self.state.events or []:
            handler = getattr(self, "on_" + event["type"], None)
            if handler is not None:
                handler(event)
            else:  # an event of a kind of phase that records itself
                EVENTS[event["type"]].record(event, self.current(), self.game)
        return self.rounds

    def current(self) -> dict[str, Any]:
        return self.rounds[-1]

    def on_deal(self, event: dict[str, Any]) -> None:
        self.rounds.append(
            {
                "round": len(self.rounds) + 1,
                "dealer": event["dealer"],
                "trumps": [],
                "hands": [[self.card(c) for c in hand] for hand in event["hands"]],
                "set_aside": [self.card(c) for c in event["set_aside"]],
                "decisions": [],
                "tricks": [],
            }
        )
        cards = self.rules.partner_cards
        if cards:  # the round's teams by the deal: the holders first
            held = [p for p, hand in enumerate(event["hands"]) if any(c in cards for c in hand)]
            others = [p for p in range(self.game.num_players) if p not in held]
            self.current()["teams"] = [team for team in (held, others) if team]

    def on_trumps(self, event: dict[str, Any]) -> None:
        suits = [self.rules.deck.suits[s] for s in event["trumps"]]
        self.current()["trumps"] = suits
        choice = self.rules.trumps
        if isinstance(choice, TrumpChoice) and not choice.rounds and choice.by != "declarer":  # else: on_choose
            offset = 0 if choice.by == "dealer" else 1
            chooser = (self.current()["dealer"] + offset) % self.game.num_players
            self.current()["decisions"].append({"player": chooser, "choice": f"trumps {suits[0]}"})

    def on_choose(self, event: dict[str, Any]) -> None:
        suit = event["suit"]
        choice = "pass" if suit is None else f"trumps {self.rules.deck.suits[suit]}"
        self.current()["decisions"].append({"player": event["player"], "choice": choice})
        if suit is not None:
            self.current()["declarer"] = event["player"]

    def on_declare(self, event: dict[str, Any]) -> None:
        contract = event["contract"]
        choice = "pass" if contract is None else f"contract {self.game.contract_names[contract]}"
        self.current()["decisions"].append({"player": event["player"], "choice": choice})

    def on_contract(self, event: dict[str, Any]) -> None:
        self.current()["contract"] = self.game.contract_names[event["contract"]]
        if event["declarer"] >= 0:
            self.current()["declarer"] = event["declarer"]

    def on_take(self, event: dict[str, Any]) -> None:
        self.current()["taken"] = {"player": event["player"], "card": self.card(event["card"])}

    def on_discard(self, event: dict[str, Any]) -> None:
        self.current()["discard"] = {"player": event["player"], "card": self.card(event["card"])}
        self.current()["decisions"].append({"player": event["player"], "choice": f"discard {self.card(event['card'])}"})

    def on_alone(self, event: dict[str, Any]) -> None:
        self.current()["sitting_out"] = event["sitting_out"]
        choice = "alone" if event["alone"] else "partner"
        self.current()["decisions"].append({"player": event["player"], "choice": choice})

    def on_turn_up(self, event: dict[str, Any]) -> None:
        self.current()["turn_up"] = self.card(event["card"]) if event["card"] >= 0 else None

    def on_bid(self, event: dict[str, Any]) -> None:
        bids = self.current().setdefault("bids", [None] * self.game.num_players)
        player = event["player"]
        if event["bid"] is None:  # a pass, bidding by precedence: the last bid stands
            bids[player] = bids[player] if bids[player] is not None else "pass"
        else:
            bids[player] = event["name"]
        self.current()["decisions"].append({"player": player, "choice": "pass" if event["bid"] is None else f"bid {event['name']}"})

    def on_pass_direction(self, event: dict[str, Any]) -> None:
        self.current()["pass"] = {"direction": event["direction"], "cards": [[] for _ in range(self.game.num_players)]}

    def on_pass(self, event: dict[str, Any]) -> None:
        card = self.card(event["card"])
        self.current()["pass"]["cards"][event["player"]].append(card)
        self.current()["decisions"].append({"player": event["player"], "choice": f"pass {card}"})

    def on_passed(self, event: dict[str, Any]) -> None:
        pass

    def on_play(self, event: dict[str, Any]) -> None:
        if self.trick is None:
            self.trick = {"number": len(self.current()["tricks"]) + 1, "leader": event["player"], "plays": []}
            self.current()["tricks"].append(self.trick)
        deck = self.rules.deck
        face = deck.cards[event["card"]].faces[event["face"]]
        self.trick["plays"].append({"player": event["player"], "card": self.card(event["card"]), "as": deck.face_text(face)})

    def on_trick(self, event: dict[str, Any]) -> None:
        assert self.trick is not None
        self.trick.update(winner=event["winner"], rewards=[], tokens=[], placements=[])
        self.last_trick = self.trick
        self.trick = None

    def on_reward(self, event: dict[str, Any]) -> None:
        token = "points" if event["token"] is None else self.rules.tokens[event["token"]].name
        self.last_trick["rewards"].append(
            {
                "player": event["player"],
                "reward": self.rules.rewards[event["reward"]].name,
                "token": token,
                "amount": event["amount"],
                "taken": event["taken"],
            }
        )

    def section_name(self, section: int) -> str | None:
        if section < 0 or self.rules.tableau is None:
            return None
        return self.rules.tableau.sections[section].name

    def on_token(self, event: dict[str, Any]) -> None:
        self.last_trick["tokens"].append(
            {
                "player": event["player"],
                "token": self.rules.tokens[event["token"]].name,
                "section": self.section_name(event["section"]),
            }
        )

    def on_place(self, event: dict[str, Any]) -> None:
        self.last_trick["placements"].append(
            {"player": event["player"], "card": self.card(event["card"]), "section": self.section_name(event["section"])}
        )

    def on_round_end(self, event: dict[str, Any]) -> None:
        fields = ("measures", "rules", "rewards", "sections", "points")
        self.current()["score"] = {key: event[key] for key in fields if key in event}

    def on_game_end(self, event: dict[str, Any]) -> None:
        pass


def build_record(state: State, agents: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON-ready record of a finished game played with ``record=True``."""
    if state.events is None:
        raise ValueError("the state keeps no event log: create it with new_initial_state(seed, record=True)")
    game, rules = state.game, state.game.ruleset
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "spec": spec_entry(rules),
        "options": {name: list(v) if isinstance(v, tuple) else v for name, v in rules.options},
        "seed": state.seed,
        "players": game.num_players,
        **({"teams": [list(team) for team in rules.teams]} if rules.teams else {}),
        **({"partners": {"holders_of": [game.card_ids[c] for c in rules.partner_cards]}} if rules.partner_cards else {}),
        "agents": list(agents),
        "cards": [card_entry(game, c) for c in range(game.num_cards)],
        "rounds": _RecordBuilder(state).build(),
        "totals": list(state.totals),
        "winners": state.winners() if state.is_terminal() else [],
        "actions": [game.action_to_string(a) for a in state.history],
    } | ({"deals": [_deal_entry(game, d) for d in state.deals]} if state.deals else {})


def _deal_entry(game: Game, deal: GivenDeal) -> dict[str, Any]:
    """A given deal as the record (and `new_initial_state(deal=...)`) takes it."""
    entry: dict[str, Any] = {"hands": [[game.card_ids[c] for c in hand] for hand in deal.hands], **dict(deal.outcomes)}
    if deal.set_aside:
        entry["set_aside"] = [game.card_ids[c] for c in deal.set_aside]
    return entry


def dumps(record: dict[str, Any]) -> str:
    """The record as JSON text: stable key order and layout, so equal games give equal bytes."""
    return json.dumps(record, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class ReplayResult:
    """What a replay found: verified, or the first place where the record and the engine differ."""

    verified: bool
    message: str
    action_index: int | None = None


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """JSON path of the first place where two JSON values differ, or None."""
    if type(expected) is not type(actual):
        return path
    if isinstance(expected, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in expected or key not in actual:
                return f"{path}.{key}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for index, (a, b) in enumerate(zip(expected, actual)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None if len(expected) == len(actual) else f"{path}[{min(len(expected), len(actual))}]"
    return None if expected == actual else path


def _value_at(record: Any, path: str) -> Any:
    """The value at a JSON path made by `first_difference` (or None when it is missing)."""
    node = record
    for part in path[1:].replace("[", ".[").split("."):
        if not part:
            continue
        try:
            node = node[int(part[1:-1])] if part.startswith("[") else node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _named(value: Any, game: Game) -> Any:
    """A record's value with every card written with rank numbers (``spades-12``, in an
    action ``play spades-12``) in its printed form (``spades-Q``)."""
    if isinstance(value, dict):
        return {key: _named(item, game) for key, item in value.items()}
    if isinstance(value, list):
        return [_named(item, game) for item in value]
    if not isinstance(value, str):
        return value
    verb, space, name = value.rpartition(" ")
    try:
        return f"{verb}{space}{game.card_ids[game.card_index(name)]}"
    except KeyError:
        return value


def replay(record: dict[str, Any], game: Game) -> ReplayResult:
    """Play the record's actions through `game` and compare the result with the record."""
    state = game.new_initial_state(record["seed"], record=True, deal=record.get("deals"))
    for index, text in enumerate(record.get("actions", [])):
        if state.is_terminal():
            return ReplayResult(False, f"action {index + 1} ({text!r}) comes after the end of the game", index)
        try:
            action = state.string_to_action(text)
            state.apply_action(action)
        except ValueError as error:
            legal = ", ".join(game.action_to_string(a) for a in state.legal_actions())
            reason = str(error).splitlines()[0]
            return ReplayResult(False, f"action {index + 1} ({text!r}) diverges: {reason}; legal: {legal}", index)
    if not state.is_terminal():
        return ReplayResult(False, "the record's actions end before the game does", len(record.get("actions", [])))
    rebuilt = build_record(state, record.get("agents", []))
    record = _named(record, game)  # cards written with rank numbers compare in their printed form
    # the spec entry is compared by id only: a layout edit of the file keeps the game the same
    # (`provenance.rules_changes` says whether the rules themselves changed)
    rebuilt["spec"] = {**record.get("spec", {}), "id": rebuilt["spec"]["id"]}
    path = first_difference(record, rebuilt)
    if path is not None:
        expected, actual = _value_at(record, path), _value_at(rebuilt, path)
        return ReplayResult(False, f"first divergence at {path}: record has {expected!r}, engine gives {actual!r}")
    actions, rounds = counted(len(record["actions"]), "action"), counted(len(record["rounds"]), "round")
    return ReplayResult(True, f"verified: {actions}, {rounds}, winners {record['winners']}")
