"""Phase: each player passes cards to another (action ``pass <card>``, one card each).

Players pass in seat order from the first passer; a passed card leaves the hand at once and
the passed cards arrive only after everyone has passed. The number of cards and the
direction come from the spec (a constant, a schedule by round, or a chance outcome drawn at
the start of the round); a direction of 0 (``none``) skips the phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.deals import chance_index

from trickrules.engine.actions import ActionBlock, cards

from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


PASS: Final = 5
"""This kind's `Phase` number."""


@dataclass
class Passing:
    """One pass of cards: while it runs the phase's own state, then kept for the round
    (`finished`): the seat offset, cards each, who gives first, where each seat's cards
    go, what each seat gave, and the cards passed so far."""

    offset: int
    count: int
    first: int
    receivers: list[int]
    passed: list[list[int]] = field(default_factory=list)
    turn: int = 0

    def __reduce__(self) -> tuple[type[Passing], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.offset, self.count, self.first, self.receivers, self.passed, self.turn))

    def copy(self) -> Passing:
        return Passing(self.offset, self.count, self.first, list(self.receivers), [list(c) for c in self.passed], self.turn)


@dataclass
class Passes:
    """The round's passes: the finished ones, in order, and the one under way (None between)."""

    done: list[Passing]
    running: Passing | None = None

    def __reduce__(self) -> tuple[type[Passes], tuple[list[Passing], Passing | None]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.done, self.running))

    def copy(self) -> Passes:
        return Passes([passing.copy() for passing in self.done], None if self.running is None else self.running.copy())


def finished(state: State) -> list[Passing]:
    """The round's finished passes, in order (each player remembers what it gave or got)."""
    own: Passes | None = state.parts[PASS]
    return own.done if own is not None else []


def running(state: State) -> Passing | None:
    """The pass under way, if any."""
    own: Passes | None = state.parts[PASS]
    return own.running if own is not None else None


def every_pass(state: State) -> list[Passing]:
    """The round's passes, finished ones first, then the one under way."""
    now = running(state)
    return finished(state) + ([now] if now is not None else [])


class PassCards(PhaseKind):
    """Each player passes cards to another (action ``pass <card>``, one card each)."""

    def new_round(self, state: State) -> None:
        if state.game.passes:
            state.parts[PASS] = Passes([])

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin passing; False when this round passes nothing (the phase is skipped)."""
        rules = step.passing
        assert rules is not None
        n, number = state.num_players, state.round
        given = state.given.outcome("pass") if state.given is not None else None
        if given is not None:
            index = rules.to_names.index(given)
        elif rules.to.chance:
            index = chance_index(state.seed, number, "pass", len(rules.to.values))
        else:
            index = number % len(rules.to.values)
        offset = rules.to.values[index] % n
        count = rules.cards.at(number)
        if state.events is not None:
            state.log("pass_direction", direction=rules.to_names[index], offset=offset, cards=count)
        if offset == 0 or count == 0:
            return False
        first = turns.first_to_act(state, rules.first, rules.first_seat)
        # this phase's own part of the state: plain values, so that a clone copies it
        passes: Passes = state.parts[PASS]
        passes.running = Passing(offset, count, first, turns.receivers(state, offset), [[] for _ in range(n)])
        enter(state, self)
        state.current = first
        return True

    def legal(self, state: State) -> list[int]:
        offset = state.game.pass_offset
        return [offset + c for c in state.hands[state.current]]

    def apply(self, state: State, action: int) -> None:
        card = action - state.game.pass_offset
        player = state.current
        passes: Passes = state.parts[PASS]
        own = passes.running
        assert own is not None
        state.hands[player].remove(card)
        own.passed[player].append(card)
        if state.events is not None:
            state.log("pass", player=player, card=card)
        own.turn += 1
        count = own.count
        if own.turn < count * turns.speakers(state):
            if own.turn % count == 0:
                state.current = turns.after(state, player)
            return
        for giver, given in enumerate(own.passed):
            receiver = own.receivers[giver]
            state.hands[receiver] = sorted(state.hands[receiver] + given)
        if state.events is not None:
            state.log("passed", cards=[list(c) for c in own.passed], offset=own.offset)
        passes.done.append(own)
        passes.running = None
        state.next_step()


KIND: Final[PassCards] = PassCards(PASS, "pass", (ActionBlock(4, "pass", lambda g: g.num_cards if g.passes else 0, cards("pass")),))
