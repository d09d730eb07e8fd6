"""Agents: anything that picks an action for the current player.

`RandomAgent` picks uniformly; `GreedyAgent` works for any spec: it prefers the action that
gains the most points and tokens at once, and otherwise plays its lowest card;
`trickrules.engine.ismcts.ISMCTSAgent` searches worlds consistent with what it knows.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from trickrules.engine.ismcts import MAX_ITERATIONS, ISMCTSAgent
from trickrules.engine.phases import bid as phase_bid
from trickrules.engine.phases import Phase
from trickrules.engine.round_end import side_of
from trickrules.engine.rollouts import bid_for_hand, estimate_tricks, trumps_for_hand

if TYPE_CHECKING:
    from trickrules.engine.state import State


@runtime_checkable
class Agent(Protocol):
    """Picks one of `state.legal_actions()` for `state.current_player()`."""

    name: str

    def step(self, state: State) -> int:
        """The action to take in `state`."""
        ...


class RandomAgent:
    """Uniformly random legal actions from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """A uniformly random legal action."""
        legal = state.legal_actions()
        return legal[int(self.rng.random() * len(legal))]


class GreedyAgent:
    """Takes the action with the best immediate gain for itself; otherwise plays low.

    The gain of an action is the change, for the acting player, in tricks won, tokens held
    and points of rewards, measured by trying the action on a copy of the state until the
    next decision of another player. Ties go to the lowest-ranked card.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """The action with the best immediate gain, lowest card first among equals.

        In a bid phase it bids the tricks its hand is worth (`estimate_tricks`); once it has
        bid, it plays for tricks while its side still needs them and avoids them after. Choosing
        trumps, it names the suit its hand is strongest in, when worth its share of the tricks
        (`trumps_for_hand`), else passes.
        """
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = state.current_player()
        if state.phase == Phase.BID:
            return bid_for_hand(state, legal)
        if state.phase == Phase.CHOOSE_TRUMPS:
            return trumps_for_hand(state, legal)
        before = _standing(state, player)
        faces = state.tables.faces
        num_cards = state.game.num_cards

        def score(action: int) -> tuple[float, float]:
            trial = state.clone()
            trial.apply_action(action)
            gain = _standing(trial, player) - before
            rank = faces.rank[action] if action < num_cards else 0
            return gain, -rank

        return max(legal, key=score)


def _standing(state: State, player: int) -> float:
    """Tokens, tricks and points a player holds now (a rough value of the position).

    After a bid, tricks count for the player's side while it has fewer than it bid, and
    against it once it has them all (an overtrick risks the contract's bonus).
    """
    tokens = sum(state.pool[player]) + sum(state.section_tokens[player])
    tricks = 0.5 * state.tricks_won[player]
    bids = phase_bid.bids(state)
    bid = bids[player] if state.game.bidding is not None else None
    if bid is not None:
        side = side_of(state.game.ruleset.teams, player)
        side_bid = sum(bids[p] or 0 for p in side)
        side_tricks = sum(state.tricks_won[p] for p in side)
        own_nil = bid == 0
        tricks = -state.tricks_won[player] if own_nil else min(side_tricks, side_bid) - max(0, side_tricks - side_bid)
    return tokens + tricks + state.bonus[player] + state.totals[player]


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "ismcts": ISMCTSAgent}
"""Agent classes by the name used on the command line (``ismcts:N`` searches N iterations)."""

AGENT_NAMES = f"random, greedy, ismcts, or ismcts:N (N iterations a decision, at most {MAX_ITERATIONS:,})"
"""The agent names `make_agent` knows, as text for messages."""


def make_agent(name: str, seed: int = 0) -> Agent:
    """A new agent of the kind `name`: ``random``, ``greedy``, ``ismcts`` or ``ismcts:N``
    (ISMCTS with N iterations a decision); ValueError for any other name or a bad N."""
    kind, colon, argument = str(name).partition(":")
    if kind not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (agents: {AGENT_NAMES})")
    if kind != "ismcts":
        if colon:
            raise ValueError(f"agent {kind!r} takes no argument, not {name!r} (agents: {AGENT_NAMES})")
        return AGENTS[kind](seed)  # type: ignore[return-value]
    if not colon:
        return ISMCTSAgent(seed)
    digits = argument.strip()
    if not digits.isdigit() or int(digits[:12]) < 1:
        raise ValueError(f"{name!r}: ismcts:N takes N, the iterations a decision, as a whole number 1 or more")
    if len(digits) > 12 or int(digits) > MAX_ITERATIONS:
        raise ValueError(
            f"{name!r}: ismcts:N searches at most {MAX_ITERATIONS:,} iterations a decision, which already take "
            f"a minute or more; {digits if len(digits) > 12 else f'{int(digits):,}'} is too many"
        )
    return ISMCTSAgent(seed, iterations=int(digits))
