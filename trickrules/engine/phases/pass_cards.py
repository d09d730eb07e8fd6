"""Phase: each player passes cards to another (action ``pass <card>``, one card each).

Players pass in seat order from the first passer; a passed card leaves the hand at once and
the passed cards arrive only after everyone has passed. The number of cards and the
direction come from the spec (a constant, a schedule by round, or a chance outcome drawn at
the start of the round); a direction of 0 (``none``) skips the phase.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trickrules.engine.deals import chance_index
from trickrules.rules.ruleset import PassPhase

from . import turns
from .kinds import PASS

if TYPE_CHECKING:
    from trickrules.engine.state import State


@dataclass
class Passing:
    """One pass of cards: while it runs the phase's own state, then kept for the round
    (`State.passes`): the seat offset, cards each, who gives first, where each seat's cards
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


def start(state: State, rules: PassPhase) -> bool:
    """Begin passing; False when this round passes nothing (the phase is skipped)."""
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
    state.parts["pass"] = Passing(offset, count, first, turns.receivers(state, offset), [[] for _ in range(n)])
    state._phase = PASS
    state.current = first
    return True


def player(state: State) -> int:
    return state.current


def legal(state: State) -> list[int]:
    offset = state.game.pass_offset
    return [offset + c for c in state.hands[state.current]]


def apply(state: State, action: int) -> None:
    card = action - state.game.pass_offset
    player = state.current
    own: Passing = state.parts["pass"]
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
    for giver, cards in enumerate(own.passed):
        receiver = own.receivers[giver]
        state.hands[receiver] = sorted(state.hands[receiver] + cards)
    if state.events is not None:
        state.log("passed", cards=[list(c) for c in own.passed], offset=own.offset)
    state.passes.append(state.parts.pop("pass"))  # each player remembers what it gave or got
    state.next_step()
