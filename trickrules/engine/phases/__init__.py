"""The phases of a round, one module each, and the table the state dispatches through.

A phase module says whose decision it is (`player`), which actions are legal (`legal`) and
what an action does (`apply`); it may also set up the part of the state it alone uses at the
start of each round (`new_round`). Adding a phase kind means one module, one `Phase` member
and one entry in `PHASES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from . import bid, choose_trumps, declare, discard, go_alone, pass_cards, place_cards, place_tokens, play, turn_up
from .kinds import BID, CHOOSE_TRUMPS, DECLARE, DISCARD, GO_ALONE, PASS, PLACE_CARDS, PLACE_TOKENS, PLAY, TERMINAL, Phase

if TYPE_CHECKING:
    from trickrules.engine.state import State

TERMINAL_PLAYER: Final = -4
"""`current_player()` of a finished game (OpenSpiel's value)."""


@dataclass(frozen=True)
class PhaseRules:
    """What a phase does: whose decision it is, which actions are legal, what one does."""

    player: Callable[[State], int]
    legal: Callable[[State], list[int]]
    apply: Callable[[State, int], None]


def _terminal_player(state: State) -> int:
    return TERMINAL_PLAYER


def _nothing_legal(state: State) -> list[int]:
    return []


def _no_action(state: State, action: int) -> None:
    raise AssertionError("no action is legal once the game is over")


PHASES: Final[dict[int, PhaseRules]] = {
    CHOOSE_TRUMPS: PhaseRules(choose_trumps.player, choose_trumps.legal, choose_trumps.apply),
    PLAY: PhaseRules(play.player, play.legal, play.apply),
    PLACE_TOKENS: PhaseRules(place_tokens.player, place_tokens.legal, place_tokens.apply),
    PLACE_CARDS: PhaseRules(place_cards.player, place_cards.legal, place_cards.apply),
    TERMINAL: PhaseRules(_terminal_player, _nothing_legal, _no_action),
    PASS: PhaseRules(pass_cards.player, pass_cards.legal, pass_cards.apply),
    BID: PhaseRules(bid.player, bid.legal, bid.apply),
    DISCARD: PhaseRules(discard.player, discard.legal, discard.apply),
    GO_ALONE: PhaseRules(go_alone.player, go_alone.legal, go_alone.apply),
    DECLARE: PhaseRules(declare.player, declare.legal, declare.apply),
}

def start_next_step(state: State) -> None:
    """Start the round's next step (skipping a phase that has nothing to do); after the last
    phase, score the round."""
    steps = state.game.steps
    while True:
        state._step += 1
        step = steps[state._step]
        kind = step.kind
        if kind == "play":
            play.start(state)
        elif kind == "pass":
            assert step.passing is not None
            if not pass_cards.start(state, step.passing):
                continue
        elif kind == "turn_up":
            turn_up.start(state)
            continue
        elif kind == "declare":
            assert step.declaring is not None
            declare.start(state, step.declaring)
        elif kind == "go_alone":
            if not go_alone.start(state):
                continue
        elif kind == "bid":
            assert step.bidding is not None
            bid.start(state, step.bidding)
        elif kind == "choose_trumps":
            trumps = state.game.trump_choice
            assert trumps is not None
            choose_trumps.start(state, trumps)
        else:
            state.end_round()
        return


ROUND_SETUP: Final[tuple[Callable[[State], None], ...]] = (place_tokens.new_round, place_cards.new_round)
"""What each phase module sets up at the start of a round, for the parts of the state it owns."""

__all__ = ["PHASES", "ROUND_SETUP", "Phase", "PhaseRules", "TERMINAL_PLAYER", "declare", "go_alone", "start_next_step", "turn_up"]
