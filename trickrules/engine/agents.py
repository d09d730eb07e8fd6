"""Agents: anything that picks an action for the current player.

`RandomAgent` picks uniformly; `GreedyAgent` works for any spec: it plays the card, and makes
the bid or the contract, with the best margin of points at the end of the round over a few
quick random playouts in worlds consistent with what it knows, read from the spec's own
scoring; `trickrules.engine.ismcts.ISMCTSAgent` searches such worlds as a tree.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from trickrules.engine.ismcts import MAX_ITERATIONS, ISMCTSAgent
from trickrules.engine.pimc import MAX_WORLDS, PIMCAgent
from trickrules.engine.lookahead import CARD_WORLDS, CHOICE_WORLDS, playout_values
from trickrules.engine.phases import bid as phase_bid
from trickrules.engine.phases import Phase
from trickrules.engine.phases.auction import passing_and_lowest_bid
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
    """Plays for the spec's own score, looking to the end of the round by quick playouts.

    A card is valued by the acting player's *margin* at the end of the round (its side's
    points less the mean of its opponents', negated where the fewest points win), over a few
    worlds it cannot tell from the real one, the round played out at random after the card
    (`trickrules.engine.lookahead`); so it ducks under a trick carrying points in Hearts,
    takes one where points are good, and spends a high card where it pays. The best mean
    wins; among equals, the lowest-ranked card. Choices that decide how the round is played
    (a bid by precedence, a contract, going alone, calling a partner, taking the set-aside
    cards or playing from the hand, a call in an auction) are played out in more worlds, the others passing where
    they may (see `step`). Each decision draws from the agent's own generator: the same
    seed gives the same actions.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        """The action with the best margin at the end of the round, where it looks ahead.

        - A card of the play: the best margin over `lookahead.CARD_WORLDS` worlds, the lowest
          card among equals.
        - Bidding by precedence, or a call in an auction: the lowest bid open if the round
          played at it (everyone after passing) promises a better margin than passing, over
          `lookahead.CHOICE_WORLDS` worlds; else a pass (it never doubles). Bidding once each
          (a number of tricks): the tricks its hand is worth (`estimate_tricks`).
        - Declaring a contract, going alone, calling a card, taking set-aside cards or playing
          from the hand: the choice with the best margin over `lookahead.CHOICE_WORLDS` worlds
          (the first of equals: a pass, where passing comes first).
        - Choosing trumps: the suit its hand is strongest in, when worth its share of the
          tricks (`trumps_for_hand`), else a pass.
        - Anything else (passing cards, laying cards away, placing won cards or tokens): the action that gains the most tricks, tokens and points at once
          (`_standing`), measured on a copy of the state; among equals the first legal one.
        """
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == Phase.PLAY:
            values = playout_values(state, legal, self.rng, CARD_WORLDS)
            rank = state.tables.faces.rank
            return max(legal, key=lambda a: (values[a], -rank[a]))
        if phase == Phase.BID:
            if phase_bid.passed(state) is None:
                return bid_for_hand(state, legal)
            passing = state.game.choose_pass_action
            if passing not in legal:
                return min(legal)
            return self._bid_or_pass(state, passing, min((a for a in legal if a != passing), default=None))
        if phase == Phase.AUCTION:
            return self._bid_or_pass(state, *passing_and_lowest_bid(state, legal))
        if phase == Phase.CHOOSE_TRUMPS:
            return trumps_for_hand(state, legal)
        if phase in PLAYED_OUT and not _lays_away(state, legal[0]):
            choices = playout_values(state, legal, self.rng, CHOICE_WORLDS)
            return max(legal, key=choices.__getitem__)
        player = state.current_player()
        before = _standing(state, player)

        def gain(action: int) -> float:
            trial = state.clone()
            trial.apply_legal(action)
            return _standing(trial, player) - before

        return max(legal, key=gain)

    def _bid_or_pass(self, state: State, passing: int, lowest: int | None) -> int:
        """Bidding by precedence or in an auction: the lowest bid open when the round played at
        it, everyone after passing, promises a better margin than passing (which leaves the
        highest bid with its holder, or the round to nobody); else a pass."""
        if lowest is None:
            return passing
        values = playout_values(state, [passing, lowest], self.rng, CHOICE_WORLDS)
        return lowest if values[lowest] > values[passing] else passing


PLAYED_OUT = (Phase.DECLARE, Phase.GO_ALONE, Phase.CALL, Phase.TAKE)
"""The phases whose choices `GreedyAgent` plays out to the end of the round (laying cards away
while taking excepted)."""


def _lays_away(state: State, action: int) -> bool:
    """Whether `action` buries a card (the take phase's cards laid away)."""
    buries = next((r for r in state.game.action_ranges if r.kind == "bury"), None)
    return buries is not None and buries.start <= action < buries.start + buries.size


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


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "ismcts": ISMCTSAgent, "pimc": PIMCAgent}
"""Agent classes by the name used on the command line (``ismcts:N`` searches N iterations,
``pimc:N`` solves N worlds a decision)."""

AGENT_NAMES = (
    f"random, greedy, ismcts, or ismcts:N (N iterations a decision, at most {MAX_ITERATIONS:,}); "
    f"pimc, or pimc:N (N worlds solved a decision, at most {MAX_WORLDS:,})"
)
"""The agent names `make_agent` knows, as text for messages."""

_COUNTS = {"ismcts": ("the iterations a decision", MAX_ITERATIONS), "pimc": ("the worlds solved a decision", MAX_WORLDS)}


def make_agent(name: str, seed: int = 0) -> Agent:
    """A new agent of the kind `name`: ``random``, ``greedy``, ``ismcts`` or ``ismcts:N``
    (ISMCTS with N iterations a decision), ``pimc`` or ``pimc:N`` (PIMC solving N worlds a
    decision, greedy outside the play); ValueError for any other name or a bad N."""
    kind, colon, argument = str(name).partition(":")
    if kind not in AGENTS:
        raise ValueError(f"unknown agent {name!r} (agents: {AGENT_NAMES})")
    if kind not in _COUNTS:
        if colon:
            raise ValueError(f"agent {kind!r} takes no argument, not {name!r} (agents: {AGENT_NAMES})")
        return AGENTS[kind](seed)  # type: ignore[return-value]
    count = _count(name, kind, argument) if colon else None
    if kind == "pimc":
        fallback = GreedyAgent(seed)
        return PIMCAgent(seed, fallback=fallback) if count is None else PIMCAgent(seed, worlds=count, fallback=fallback)
    return ISMCTSAgent(seed) if count is None else ISMCTSAgent(seed, iterations=count)


def _count(name: str, kind: str, argument: str) -> int:
    """N of ``kind:N``; ValueError unless a whole number from 1 to the kind's most."""
    what, most = _COUNTS[kind]
    digits = argument.strip()
    if not digits.isdigit() or int(digits[:12]) < 1:
        raise ValueError(f"{name!r}: {kind}:N takes N, {what}, as a whole number 1 or more")
    if len(digits) > 12 or int(digits) > most:
        took = ", which already take a minute or more" if kind == "ismcts" else ""
        verb = "searches" if kind == "ismcts" else "solves"
        unit = "iterations" if kind == "ismcts" else "worlds"
        raise ValueError(
            f"{name!r}: {kind}:N {verb} at most {most:,} {unit} a decision{took}; "
            f"{digits if len(digits) > 12 else f'{int(digits):,}'} is too many"
        )
    return int(digits)
