"""What the page of one seat receives: that seat's view of the game, never a card it may not see.

The table comes from `State.observation(seat)` (the public view and the seat's own hand);
the log is written from the state's events with each hidden card left out (another seat's
passed or discarded card, the dealt hands); the score sheet is the rounds' results, which are
numbers and names. Decisions are the seat's legal actions, labelled by `action_to_string`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trickrules.engine.phases import EVENTS
from trickrules.engine.state import Phase, State
from trickrules.serve.reasons import refusal_reasons
from trickrules.serve.seats import HUMAN

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.serve.session import Session

_DECKS: dict[int, tuple[Any, dict[str, Any]]] = {}


def deck_view(game: Game) -> dict[str, Any]:
    """The deck as the page draws it: suits in order, rank names, each card's faces."""
    key = id(game.ruleset)
    known = _DECKS.get(key)
    if known is not None and known[0] is game.ruleset:
        return known[1]
    deck = game.ruleset.deck
    cards = {}
    for card in deck.cards:
        cards[card.id] = {
            "faces": [{"suit": deck.suits[f.suit], "rank": f.rank, "name": deck.rank_name(f.rank, f.suit)} for f in card.faces],
        }
    view = {"suits": list(deck.suits), "cards": cards, "order": [c.id for c in deck.cards]}
    _DECKS[key] = (game.ruleset, view)
    return view


def _sort_key(game: Game, card: int) -> tuple[int, int, int]:
    face = game.ruleset.deck.cards[card].faces[0]
    return (face.suit, face.rank, card)


def _face_text(game: Game, card: int, face: int) -> str:
    deck = game.ruleset.deck
    entry = deck.cards[card]
    if len(entry.faces) == 1:
        return entry.id
    return f"{entry.id} (as {deck.face_text(entry.faces[face])})"


def seat_name(seat: int) -> str:
    return f"P{seat}"


class _Log:
    """The state's events as lines of text that `seat` may read."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat, self.game = state, seat, state.game
        self.ids = self.game.card_ids
        self.lines: list[dict[str, Any]] = []
        self.round = 0
        self.last_trick: dict[str, Any] | None = None
        self.pass_info: dict[str, Any] | None = None

    def add(self, text: str, kind: str) -> None:
        self.lines.append({"round": self.round, "kind": kind, "text": text})

    def build(self) -> list[dict[str, Any]]:
        for event in self.state.events or []:
            handler = getattr(self, "on_" + event["type"], None)
            if handler is None:  # an event of a kind of phase that words itself
                kind = EVENTS.get(event["type"])
                self.add(kind.words(event, self.game) if kind else event["type"].replace("_", " "), event["type"])
            else:
                handler(event)
        return self.lines

    def who(self, player: int) -> str:
        return "you" if player == self.seat else seat_name(player)

    def on_deal(self, event: dict[str, Any]) -> None:
        self.round += 1
        self.last_trick = None
        self.pass_info = None
        self.add(f"Round {self.round}: {seat_name(event['dealer'])} deals", "deal")

    def on_trumps(self, event: dict[str, Any]) -> None:
        suits = self.game.ruleset.deck.suits
        names = ", ".join(suits[s] for s in event["trumps"])
        self.add(f"Trumps: {names}" if names else "No trumps", "trumps")

    def on_choose(self, event: dict[str, Any]) -> None:
        suit = event["suit"]
        if suit is None:
            self.add(f"{seat_name(event['player'])} passes", "choose")
        else:
            self.add(f"{seat_name(event['player'])} chooses trumps {self.game.ruleset.deck.suits[suit]}", "choose")

    def on_declare(self, event: dict[str, Any]) -> None:
        contract = event["contract"]
        what = "passes" if contract is None else f"declares {self.game.contract_names[contract]}"
        self.add(f"{seat_name(event['player'])} {what}", "declare")

    def on_contract(self, event: dict[str, Any]) -> None:
        self.add(f"Contract: {self.game.contract_names[event['contract']]}", "contract")

    def on_take(self, event: dict[str, Any]) -> None:  # the turned-up card, which everyone saw
        self.add(f"{seat_name(event['player'])} takes {self.ids[event['card']]}", "take")

    def on_discard(self, event: dict[str, Any]) -> None:
        player = event["player"]
        card = f" {self.ids[event['card']]}" if player == self.seat else " a card face down"
        self.add(f"{seat_name(player)} discards{card}", "discard")

    def on_alone(self, event: dict[str, Any]) -> None:
        self.add(f"{seat_name(event['player'])} {'goes alone' if event['alone'] else 'plays with a partner'}", "alone")

    def on_turn_up(self, event: dict[str, Any]) -> None:
        card = event["card"]
        self.add(f"Turned up: {self.ids[card]}" if card >= 0 else "No card left to turn up", "turn_up")

    def on_bid(self, event: dict[str, Any]) -> None:
        self.add(f"{seat_name(event['player'])} bids {event['name']}", "bid")

    def on_pass_direction(self, event: dict[str, Any]) -> None:
        self.pass_info = {"direction": event["direction"], "cards": event["cards"], "offset": event["offset"]}
        self.add(f"Pass {event['cards']} card(s) {event['direction']}", "pass_direction")

    def on_pass(self, event: dict[str, Any]) -> None:
        player = event["player"]
        card = f" {self.ids[event['card']]}" if player == self.seat else " a card"
        self.add(f"{seat_name(player)} passes{card}", "pass")

    def on_passed(self, event: dict[str, Any]) -> None:
        n = self.game.num_players
        received = [
            self.ids[card]
            for giver, cards in enumerate(event["cards"])
            if (giver + event["offset"]) % n == self.seat
            for card in cards
        ]
        got = f"; you receive {', '.join(received)}" if received else ""
        self.add(f"The passed cards arrive{got}", "passed")

    def on_play(self, event: dict[str, Any]) -> None:
        self.add(f"{seat_name(event['player'])} plays {_face_text(self.game, event['card'], event['face'])}", "play")

    def on_trick(self, event: dict[str, Any]) -> None:
        self.last_trick = {
            "plays": [{"player": p, "card": self.ids[c]} for p, c in zip(event["players"], event["cards"])],
            "leader": event["leader"],
            "winner": event["winner"],
        }
        self.add(f"{seat_name(event['winner'])} wins the trick", "trick")

    def on_reward(self, event: dict[str, Any]) -> None:
        rules = self.game.ruleset
        token = "point(s)" if event["token"] is None else rules.tokens[event["token"]].name
        reward = rules.rewards[event["reward"]].name
        self.add(f"{seat_name(event['player'])} gains {event['taken']} {token} ({reward})", "reward")

    def section(self, index: int) -> str:
        tableau = self.game.ruleset.tableau
        return "-" if tableau is None or index < 0 else tableau.sections[index].name

    def on_token(self, event: dict[str, Any]) -> None:
        token = self.game.ruleset.tokens[event["token"]].name
        self.add(f"{seat_name(event['player'])} puts a {token} on {self.section(event['section'])}", "token")

    def on_place(self, event: dict[str, Any]) -> None:
        self.add(f"{seat_name(event['player'])} lays {self.ids[event['card']]} on {self.section(event['section'])}", "place")

    def on_round_end(self, event: dict[str, Any]) -> None:
        points = ", ".join(f"{seat_name(p)} {v:+d}" for p, v in enumerate(event["points"]))
        self.add(f"Round {self.round} scored: {points}", "round_end")

    def on_game_end(self, event: dict[str, Any]) -> None:
        winners = ", ".join(seat_name(p) for p in event["winners"])
        self.add(f"Game over: {winners} win{'s' if len(event['winners']) == 1 else ''}", "game_end")


def _trick_view(state: State) -> dict[str, Any]:
    game = state.game
    plays = []
    for player, card in zip(state.trick_players, state.trick):
        face = state.tables.faces.face[card]
        plays.append({"player": player, "card": game.card_ids[card], "text": _face_text(game, card, face)})
    winning = None
    if state.trick:
        try:
            number = state.tricks_played + 1
            winning = state.trick_players[state.tables.trick_winner(state.trick, state.led, number, number == state.hand_size)]
        except Exception:  # who is ahead is a courtesy: a ranking that cannot say leaves it out
            winning = None
    leader = state.trick_players[0] if state.trick_players else None
    return {"plays": plays, "leader": leader, "winning": winning}


def _card_actions(state: State, legal: list[int], hand: set[str]) -> dict[str, int]:
    """Legal actions that name a card of the hand (play, pass, discard), by the card's id."""
    found = {}
    for action in legal:
        verb, _, name = state.action_to_string(action).partition(" ")
        if name in hand:
            found[name] = action
    return found


def seat_view(session: Session, seat: int) -> dict[str, Any]:
    """Everything the page shows to `seat`, as JSON-ready data."""
    with session.lock:
        state = session.shown_state()
        game = session.game
        view: dict[str, Any] = {
            "version": session.version,
            "mode": session.mode,
            "spec": {"file": session.spec_path, "name": session.spec},
            "errors": list(session.errors),
            "message": session.message,
            "seed": session.seed,
            "seats": list(session.seat_kinds),
            "seat": seat,
            "pace": session.pace,
            "thinking": session.thinking,
            "position": session.position,
            "length": len(session.actions),
            "live": session.mode == "live" and session.at_end,
        }
        if state is None or game is None:
            return view
        rules = game.ruleset
        view["spec"].update(id=rules.id, title=rules.title, rounds=rules.rounds, players=game.num_players)
        view["deck"] = deck_view(game)
        tableau = rules.tableau
        view["sections"] = [] if tableau is None else [{"name": s.name, "tokens_needed": s.tokens_needed} for s in tableau.sections]
        table = state.observation(seat)
        own_hand = [game.card_ids[c] for c in sorted(state.hands[seat], key=lambda c: _sort_key(game, c))]
        table.pop("legal_actions", None)
        table.pop("hand", None)
        log = _Log(state, seat)
        view["log"] = log.build()
        view["table"] = table
        view["trick"] = _trick_view(state)
        view["last_trick"] = log.last_trick
        view["passing"] = log.pass_info if state.phase == Phase.PASS else None
        view["turn"] = len(state.history)
        view["phase"] = state.phase.name.lower()
        view["terminal"] = state.is_terminal()
        view["winners"] = state.winners() if state.is_terminal() else []
        view["rounds"] = state.round_results
        view["names"] = [seat_name(p) for p in range(game.num_players)]
        current = state.current_player()
        view["current"] = None if state.is_terminal() else current
        decisions: list[dict[str, Any]] = []
        card_actions: dict[str, int] = {}
        reasons: dict[str, str] = {}
        can_act = view["live"] and not session.errors and not state.is_terminal() and current == seat
        if can_act and session.seat_kinds[seat] == HUMAN:
            legal = state.legal_actions()
            decisions = [{"action": a, "label": state.action_to_string(a)} for a in legal]
            card_actions = _card_actions(state, legal, set(own_hand))
            reasons = refusal_reasons(session, state, seat)
        view["decisions"] = decisions
        view["hand"] = [
            {"card": card, "action": card_actions.get(card), "legal": card in card_actions, "reason": reasons.get(card)}
            for card in own_hand
        ]
        return view
