"""Phase: trumps are chosen for the round (action ``trumps <suit>``, and ``pass`` in rounds).

Without rounds one player (the dealer or the player to the dealer's left) names a suit from
the spec's list. With rounds (`trumps: {choose: {rounds: ...}}`) the players speak in turn from
that player, round after round: each passes or names a suit the round allows (the turned-up
card's suit, any other, or a list); the first to name one is the round's declarer. A round may
make the dealer take the turned-up card and discard one (`discard`), or the chooser take it
with no discard (a deal in two stages then fills the hands), or forbid the dealer to pass last
(stick the dealer). When all pass in every round, the round is scored unplayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from trickrules.rules.ruleset import ChooseRound, TrumpChoice

from trickrules.engine.actions import ActionBlock, PASS_TURN, named

from . import discard, turn_up
from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


CHOOSE_TRUMPS: Final = 0
"""This kind's `Phase` number."""


@dataclass
class Choosing:
    """Rounds of choosing trumps, while they run: who speaks first, the round, who has passed."""

    first: int
    round: int = 0
    spoken: int = 0

    def __reduce__(self) -> tuple[type[Choosing], tuple[int, int, int]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.first, self.round, self.spoken))

    def copy(self) -> Choosing:
        return Choosing(self.first, self.round, self.spoken)


def _choice(state: State) -> TrumpChoice:
    choice = state.game.trump_choice
    assert choice is not None
    return choice


def _natural_suit(state: State, card: int) -> int:
    """The suit a card counts as with no trumps (the suit a turned-up card proposes)."""
    return state.game.tables(frozenset()).faces.suit[card]


def round_suits(state: State, rules: ChooseRound) -> list[int]:
    """The suits this round of choosing allows."""
    suits = range(state.game.num_suits)
    turned = turn_up.card(state)
    if rules.suits == "listed":
        return list(rules.listed)
    if turned < 0:
        return [] if rules.suits == "turned_up" else list(suits)
    up = _natural_suit(state, turned)
    return [up] if rules.suits == "turned_up" else [s for s in suits if s != up]


class ChooseTrumps(PhaseKind):
    """Trumps are chosen (action ``trumps <suit>``, and ``pass`` in rounds)."""

    def used(self, game: Game) -> bool:
        return game.trump_choice is not None

    def start(self, state: State, step: RoundStep) -> bool:
        """Wait for the first chooser, with no trumps set until then."""
        choice = _choice(state)
        state.set_trumps(frozenset(), log=False)
        enter(state, self)
        by_declarer = choice.by == "declarer" and state.declarer >= 0  # the winner of the bidding names trumps
        state.current = state.declarer if by_declarer else turns.first_to_act(state, "dealer" if choice.by == "declarer" else choice.by)
        if choice.rounds:
            state.parts[CHOOSE_TRUMPS] = Choosing(state.current)
        return True

    def legal(self, state: State) -> list[int]:
        choice = _choice(state)
        offset = state.game.trump_offset
        if not choice.rounds:
            return [offset + s for s in choice.candidates]
        own: Choosing = state.parts[CHOOSE_TRUMPS]
        rules = choice.rounds[own.round]
        actions = [offset + s for s in round_suits(state, rules)]
        last_word = own.spoken == turns.speakers(state) - 1 and state.current == state.dealer
        if not (rules.dealer_must_choose and last_word and actions):
            actions.insert(0, state.game.choose_pass_action)
        return actions

    def apply(self, state: State, action: int) -> None:
        choice = _choice(state)
        player = state.current
        if action == state.game.choose_pass_action:
            own: Choosing = state.parts[CHOOSE_TRUMPS]
            if state.events is not None:
                state.log("choose", player=player, suit=None)
            own.spoken += 1
            state.current = turns.after(state, player)
            if own.spoken == turns.speakers(state):
                own.round += 1
                own.spoken = 0
                state.current = own.first
                if own.round == len(choice.rounds):
                    state.parts[CHOOSE_TRUMPS] = None
                    state.end_round()  # everyone passed: nothing is played
            return
        suit = action - state.game.trump_offset
        if choice.rounds:
            if state.events is not None:
                state.log("choose", player=player, suit=suit)
            state.declarer = player
            chosen: Choosing = state.parts[CHOOSE_TRUMPS]
            rules = choice.rounds[chosen.round]
            state.parts[CHOOSE_TRUMPS] = None
            state.set_trumps(frozenset([suit]))
            shown = turn_up.card(state)
            if rules.dealer_takes_turned_up and shown >= 0:
                turn_up.taken_by(state, state.dealer)
                discard.start(state, state.dealer, shown, rules.may_discard_turned_up)
                return
            if rules.declarer_takes_turned_up and shown >= 0:  # the chooser takes it, no discard
                discard.take_into_hand(state, player, shown)
                turn_up.taken_by(state, player)
        else:
            if choice.by == "declarer" and state.events is not None:  # who chose, for the record
                state.log("choose", player=player, suit=suit)
            state.set_trumps(frozenset([suit]))
        state.next_step()


KIND: Final[ChooseTrumps] = ChooseTrumps(CHOOSE_TRUMPS, "choose_trumps", (
    ActionBlock(3, "trumps", lambda g: len(g.ruleset.deck.suits), named("trumps", lambda g: tuple(g.ruleset.deck.suits))),
    PASS_TURN,
))
