"""Phase: the declarer calls a card (``call <card>``); its holder is the hidden partner.

When the round reaches its `call` step and someone declared a contract that calls (while the
step's condition holds), the declarer names one of the callable cards. The player who holds it,
if not the declarer, joins the declarer's side for the round (`State.round_teams`); a declarer
who holds it, or whose card lies among the set-aside cards, plays alone. The card called is
public; whose it is stays hidden until it is played (`known_sides`). `trickrules.rules.call`
has the rules.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.actions import ActionBlock, cards
from trickrules.rules.call import CallPhase

from . import declare, take
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset

CALL: Final = 12
"""This kind's `Phase` number."""

UNKNOWN: Final = -1
"""In `known_sides`: a seat whose side the player cannot tell yet."""


@dataclass
class Calling:
    """The call's own state, kept for the round: the card called (-1 until called), the
    partner it names (-1: the declarer plays alone) and whether it lay among the set-aside cards."""

    card: int = -1
    partner: int = -1
    set_aside: bool = False

    def __reduce__(self) -> tuple[type[Calling], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.card, self.partner, self.set_aside))

    def copy(self) -> Calling:
        return Calling(self.card, self.partner, self.set_aside)


def calling(state: State) -> Calling | None:
    """The round's call, once made (None: no call this round)."""
    own: Calling | None = state.parts[CALL]
    return own if own is not None and own.card >= 0 else None


def called_card(state: State) -> int:
    """The card called this round, or -1."""
    own = calling(state)
    return own.card if own is not None else -1


def _rules(game: Game) -> CallPhase | None:
    return next((step.rules for step in game.steps if step.kind == "call"), None)


def set_teams(state: State, own: Calling) -> None:
    """The round's sides by the call: the declarer and the holder of the called card against
    the rest (the declarer alone when it holds the card or the card lay aside)."""
    declarer, n = state.declarer, state.num_players
    own.partner = next((p for p, hand in enumerate(_dealt(state)) if p != declarer and own.card in hand), -1)
    side = tuple(sorted({declarer, own.partner} - {-1}))
    rest = tuple(p for p in range(n) if p not in side)
    state.round_teams = tuple(sorted(team for team in (side, rest) if team))


def _dealt(state: State) -> list[list[int]]:
    """Each seat's cards of the round: held, and played so far."""
    played: list[list[int]] = [[] for _ in range(state.num_players)]
    for trick_cards, players in [*state.tricks, (state.trick, state.trick_players)]:
        for card, player in zip(trick_cards, players):
            played[player].append(card)
    return [hand + more for hand, more in zip(state.hands, played)]


def known_sides(state: State, player: int) -> list[int]:
    """What `player` knows of each seat's side now: 0 its own side, 1 the other, `UNKNOWN`.

    Everyone knows the declarer. The holder of the called card knows it is the partner, so
    it knows every side (the declarer too, once it holds the card itself); and everyone knows
    every side once the card is played, or was seen among set-aside cards shown to all. Until then the others know only that the declarer is not on their side."""
    own = calling(state)
    n = state.num_players
    known = [UNKNOWN] * n
    known[player] = 0
    if own is None:
        return known
    declarer = state.declarer
    played = any(own.card in cards for cards, _ in state.tricks) or own.card in state.trick
    whole = played or own.card in state.hands[player] or _shown_aside(state, own)
    if whole:
        side = next(team for team in state.round_teams if declarer in team)
        mine = player in side
        return [0 if (p in side) == mine else 1 for p in range(n)]
    if player != declarer:
        known[declarer] = 1  # not the holder: not the declarer's partner
    return known


def _shown_aside(state: State, own: Calling) -> bool:
    """Whether everyone saw the called card among the set-aside cards (a pile shown when taken)."""
    taking = take.taking(state)
    return own.set_aside and taking is not None and taking.rules.shown and own.card in taking.pile


class Call(PhaseKind):
    """The declarer calls a card; its holder is the declarer's hidden partner."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Ask the declarer when it declared a contract that calls (else the phase is skipped)."""
        rules: CallPhase = step.rules
        if state.declarer < 0 or (rules.contracts and declare.contract(state) not in rules.contracts):
            return False
        if rules.when is not None and not rules.when(state.env(state.declarer)):
            return False
        state.parts[CALL] = Calling()
        state.current = state.declarer
        enter(state, self)
        return True

    def legal(self, state: State) -> list[int]:
        rules = _rules(state.game)
        assert rules is not None
        offset = state.game.action_start["call card"]
        return [offset + card for card in rules.cards]

    def apply(self, state: State, action: int) -> None:
        own: Calling = state.parts[CALL]
        own.card = action - state.game.action_start["call card"]
        own.set_aside = own.card in state.stock
        set_teams(state, own)
        if state.events is not None:
            state.log("call_card", player=state.declarer, card=own.card)
        state.changed()
        state.next_step()

    def used(self, game: Game) -> bool:
        return _rules(game) is not None

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        return 1

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        """Rounds with a call (whom it named stays out of the figures: the log is public)."""
        return [("call", "called", "fired")]

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        if event["type"] == "call_card":
            values["call", "called", "fired"] += 1

    # ------------------------------------------------------------ what the rest shows of it

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        own = calling(state)
        if own is None:
            return
        view["called"] = state.game.card_ids[own.card]
        view["sides"] = [None if side == UNKNOWN else ("own" if side == 0 else "other") for side in known_sides(state, player)]

    def segments(self, game: Game) -> list[SegmentSpec]:
        if _rules(game) is None:
            return []
        n = game.num_players
        return [
            ("called", (game.num_cards,), 0, 1, "1 at the card the declarer called", _called),
            ("called_sides", (2, n), 0, 1, "sides by the called card, as far as the player can tell: row 0 its own side, row 1 the other", _sides),
        ]

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        entry["call"] = {"player": event["player"], "card": game.card_ids[event["card"]]}

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        called = entry.get("call")
        return [f"Called: P{called['player']} calls {called['card']}"] if called else []

    def words(self, event: dict[str, Any], game: Game) -> str:
        return f"P{event['player']} calls {game.card_ids[event['card']]}"

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        rules: CallPhase = step.rules
        names = ", ".join(ruleset.deck.cards[c].id for c in rules.cards)
        lines = [f"The declarer calls one of these cards: {names}."]
        if rules.contracts:
            lines.append("Only in these contracts: " + ", ".join(ruleset.contracts[i].name for i in rules.contracts) + ".")
        if rules.when is not None:
            lines.append(f"Only while `{rules.when.text}` holds.")
        lines.append("Whoever else holds the called card is the declarer's partner for the round, a secret until the card is "
                     "played; a declarer who holds it, or whose card lies among the set-aside cards, plays alone.")
        return "## Calling a partner\n\n" + " ".join(lines)


def _called(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = calling(state)
    if own is not None:
        out[at + own.card] = 1.0


def _sides(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    if calling(state) is None:
        return
    n = state.num_players
    for seat, side in enumerate(known_sides(state, player)):
        if side != UNKNOWN:
            out[at + side * n + seat] = 1.0


def _call_size(game: Game) -> int:
    return game.num_cards if _rules(game) is not None else 0


KIND: Final[Call] = Call(CALL, "call", (ActionBlock(13, "call card", _call_size, cards("call")),), events=("call_card",))
