"""The phases of a round, one module each, and the registry the state dispatches through.

Each phase module makes one `PhaseKind` (`KIND`): its own part of the state (a small dataclass
in `State.parts`, at the kind's `Phase` number), how it starts at its step of the round, whose decision it is, what is
legal, what an action does, and the blocks of action integers it owns. `KINDS` lists them by
`Phase` number; the state waits in one of them (`State._kind`) and calls it for every
decision. Adding a kind of phase is one module (which defines its `Phase` number), and its
member of `Phase` and entry of `KINDS` here (tests/test_state.py checks they agree).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Final

from . import auction, bid, call, choose_trumps, complete_deal, declare, discard, go_alone, pass_cards, place_cards, place_tokens, play, show_melds, take, turn_up
from .kinds import TERMINAL, TERMINAL_KIND, TERMINAL_PLAYER, PhaseKind

if TYPE_CHECKING:
    from trickrules.engine.actions import ActionBlock
    from trickrules.engine.state import State

class Phase(IntEnum):
    """What the game waits for (each kind's number is defined in its module)."""

    CHOOSE_TRUMPS = choose_trumps.CHOOSE_TRUMPS
    PLAY = play.PLAY
    PLACE_TOKENS = place_tokens.PLACE_TOKENS
    PLACE_CARDS = place_cards.PLACE_CARDS
    TERMINAL = TERMINAL
    PASS = pass_cards.PASS
    BID = bid.BID
    DISCARD = discard.DISCARD
    GO_ALONE = go_alone.GO_ALONE
    DECLARE = declare.DECLARE
    AUCTION = auction.AUCTION
    TAKE = take.TAKE
    CALL = call.CALL


KINDS: Final[tuple[PhaseKind, ...]] = (
    choose_trumps.KIND,
    play.KIND,
    place_tokens.KIND,
    place_cards.KIND,
    TERMINAL_KIND,
    pass_cards.KIND,
    bid.KIND,
    discard.KIND,
    go_alone.KIND,
    declare.KIND,
    auction.KIND,
    take.KIND,
    call.KIND,
)
"""Every kind of phase a game can wait in, indexed by its `Phase` number."""

NEVER_WAITING: Final[tuple[PhaseKind, ...]] = (complete_deal.KIND, show_melds.KIND, turn_up.KIND)
"""The kinds of step that never wait for a decision, by their slot of `State.parts` from the
end (-3, -2, -1; completing the deal keeps no part)."""

ALL_KINDS: Final[tuple[PhaseKind, ...]] = (*KINDS, *NEVER_WAITING)
"""Every kind: those a game waits in, then those that never wait."""

PARTS: Final = len(ALL_KINDS)
"""Slots of `State.parts`: a kind's part sits at its `Phase` number; the parts of the steps
that never wait (the turned-up card, the melds shown) at the last slots."""

STEPS: Final[dict[str, PhaseKind]] = {kind.step: kind for kind in ALL_KINDS if kind.step}
"""The kind that each step of a round (`RoundStep.kind`) starts; ``deal`` and ``score`` have none."""


def registered(phase: int, step: str) -> PhaseKind:
    """The registered kind of `phase` (of `step`, for a step that never waits)."""
    return KINDS[phase] if phase >= 0 else STEPS[step]


def showing(hook: str) -> tuple[PhaseKind, ...]:
    """The kinds that show themselves through `hook` (a `PhaseKind` method they override)."""
    base = getattr(PhaseKind, hook)
    return tuple(kind for kind in ALL_KINDS if getattr(type(kind), hook) is not base)


_SETTING_UP: Final = showing("new_round")

EVENTS: Final[dict[str, PhaseKind]] = {event: kind for kind in ALL_KINDS for event in kind.events}
"""The kind that records and words each type of event it logs (see `PhaseKind.events`)."""


def blocks() -> list[ActionBlock]:
    """Every kind's action blocks (`trickrules.engine.actions.action_ranges` orders them)."""
    return [block for kind in KINDS for block in kind.blocks]


def new_round(state: State) -> None:
    """Let every kind that keeps a part for the round set it up for a new round."""
    for kind in _SETTING_UP:
        kind.new_round(state)


def start_next_step(state: State) -> None:
    """Start the round's next step, going on past a step with nothing to decide; after the
    last phase, score the round."""
    steps = state.game.steps
    while True:
        state._step += 1
        step = steps[state._step]
        kind = STEPS.get(step.kind)
        if kind is None:  # the score step
            state.end_round()
            return
        if kind.start(state, step):
            return


__all__ = ["ALL_KINDS", "EVENTS", "KINDS", "PARTS", "STEPS", "TERMINAL_PLAYER", "Phase", "PhaseKind", "blocks", "new_round", "registered", "showing", "start_next_step"]
