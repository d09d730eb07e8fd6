"""Phase: turn up the next card of the deck after the deal; its suit is trump.

No decision is made here: the card is the first one not dealt (or the one a given deal
names); with no card left there are no trumps. The card stays out of play, shown to all for
the round (`card`). With `{turn_up: {from: dealer}}` it is one of the dealer's own cards, drawn
at random (or named by a given deal), which stays in the dealer's hand, shown to all until
played (Whist's trump card).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from trickrules.engine.deals import chance_index
from trickrules.rules.ruleset import TurnedUp

from .kinds import NEVER_WAITS, PhaseKind

if TYPE_CHECKING:
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


@dataclass(frozen=True)
class Shown:
    """The card turned up this round (-1: none left to turn), and who took it into the hand
    (-1: nobody yet)."""

    card: int
    taker: int = -1

    def __reduce__(self) -> tuple[type[Shown], tuple[int, int]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.card, self.taker))

    def copy(self) -> Shown:
        return self  # never changed: a taking replaces it


def taken_by(state: State, player: int) -> None:
    """Record that `player` took the turned-up card into the hand."""
    own: Shown | None = state.parts[SLOT]
    if own is not None:
        state.parts[SLOT] = Shown(own.card, player)


def taker(state: State) -> int:
    """Who took the turned-up card into the hand this round (-1: nobody)."""
    own: Shown | None = state.parts[SLOT]
    return own.taker if own is not None else -1


def card(state: State) -> int:
    """The card turned up this round (-1: none, or no card turned yet)."""
    own: Shown | None = state.parts[SLOT]
    return own.card if own is not None else -1


SLOT: Final = -1
"""Where the turned-up card sits in `State.parts`: the last slot (turning up never waits, so
it has no `Phase` number to sit at)."""


class TurnUp(PhaseKind):
    """Turn up the next card of the deck; no decision."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Turn the card up and make its suit the trump suit; never waits."""
        game = state.game
        given = state.given.outcome("turn_up") if state.given is not None else None
        if step.rules == "dealer":  # one of the dealer's cards, which stays in the hand
            hand = state.hands[state.dealer]
            drawn = hand[chance_index(state.seed, state.round, "turn_up", len(hand))] if hand else -1
            named = game.card_index(given) if given is not None else -1
            shown = named if named in hand else drawn  # a given card the dealer does not hold (a random dealer): drawn
            state.parts[SLOT] = Shown(shown, state.dealer)
        else:
            shown = game.card_index(given) if given is not None else (state.stock[0] if state.stock else -1)
            state.parts[SLOT] = Shown(shown)
        if state.events is not None:
            state.log("turn_up", card=shown)
        if not isinstance(game.ruleset.trumps, TurnedUp):
            return False  # the card is only shown (e.g. proposed for trumps to a choosing phase)
        if shown < 0:
            state.set_trumps(frozenset())
            return False
        state.set_trumps(frozenset([game.tables(frozenset()).faces.suit[shown]]))
        return False


KIND: Final[TurnUp] = TurnUp(NEVER_WAITS, "turn_up")
