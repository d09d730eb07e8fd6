"""OpenSpiel's Bridge as a reference: random deals from pyspiel, and their replay in trickrules.

A trace is one deal of bridge played by OpenSpiel (``pyspiel.load_game("bridge",
{"use_double_dummy_result": False, ...})``) with random chance outcomes and decisions drawn by a
policy: the four dealt hands, every decision (who acted, the legal calls or cards, the one
chosen) and the returns. `replay_in_trickrules` plays the same deal in specs/bridge.yaml and
lists where the two engines disagree, decision by decision.

OpenSpiel's encoding, in our words:

- A card is the action ``4 * rank + suit``, suits clubs, diamonds, hearts, spades as 0..3 and
  ranks 2..A as 0..12: 0 is ``clubs-2``, 3 is ``spades-2``, 51 is ``spades-A``.
- A call is 52 (pass), 53 (double), 54 (redouble), or a bid ``55 + 5 * (level - 1) + strain``
  with strains clubs, diamonds, hearts, spades, notrump as 0..4.
- 52 chance nodes deal one card each, uniformly among the cards left, the ``k``-th to player
  ``k % 4``. Player 0 deals and calls first.
- Vulnerability: ``dealer_vul`` for players 0 and 2, ``non_dealer_vul`` for 1 and 3.
- The declarer's partner (the dummy) never acts: on its turns the current player is the
  declarer, choosing among the dummy's cards.
- Returns: the declarer's side scores the deal as duplicate bridge does, the other side the
  negative; a passed-out deal returns 0 to everyone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import pyspiel

import trickrules
from openspiel_common import Decision, Plug, games_from_env, replay  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
BRIDGE_SPEC = ROOT / "specs" / "bridge.yaml"

SUITS = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in OpenSpiel's suit order (``action % 4``)."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names in OpenSpiel's rank order (``action // 4``), lowest first."""
STRAINS = ("C", "D", "H", "S", "NT")
"""Strain names in OpenSpiel's order; our bids are written ``bid 3NT``."""

NUM_PLAYERS = 4
NUM_CARDS = 52
PASS, DOUBLE, REDOUBLE, FIRST_BID = 52, 53, 54, 55
CALL_WORDS = {PASS: "pass", DOUBLE: "double", REDOUBLE: "redouble"}

Policy = Literal["uniform", "passing"]
POLICIES: tuple[Policy, ...] = ("uniform", "passing")
PASSING_CHANCE = 0.7
"""The `passing` policy passes with this chance whenever it may call something else."""
LOW_BIDS = 3
"""The `passing` policy bids one of the this many lowest legal bids, when it bids."""

VULNERABILITIES: tuple[tuple[bool, bool], ...] = ((False, False), (True, False), (False, True), (True, True))
"""(dealer_vul, non_dealer_vul) by ``(seed // 2) % 4`` in `crosscheck_trace`."""


# ---------------------------------------------------------------- actions


def card_id(action: int) -> str:
    """Our card id of OpenSpiel's card action (``4 * rank + suit``)."""
    return f"{SUITS[action % 4]}-{RANKS[action // 4]}"


def kind_and_name(text: str) -> tuple[str, str]:
    """A decision's kind and name from our action text: a card played is (``play``, its card
    id), any call is (``call``, the whole text: ``pass``, ``double``, ``bid 3NT``)."""
    verb, _, name = text.partition(" ")
    return ("play", name) if verb == "play" else ("call", text)


def action_text(action: int) -> str:
    """Our action text of OpenSpiel's action: ``play hearts-Q``, ``pass``, ``double``, ``bid 3NT``."""
    if action < NUM_CARDS:
        return f"play {card_id(action)}"
    if action in CALL_WORDS:
        return CALL_WORDS[action]
    bid = action - FIRST_BID
    return f"bid {bid // 5 + 1}{STRAINS[bid % 5]}"


CARD_ACTIONS = {card_id(action): action for action in range(NUM_CARDS)}
"""OpenSpiel's card action of each of our card ids."""


# ---------------------------------------------------------------- traces


@dataclass(frozen=True)
class Contract:
    """How an auction ended: level 1..7, strain 0..4 (C D H S NT), doubling 0..2, declarer."""

    level: int
    strain: int
    doubled: int
    declarer: int


@dataclass(frozen=True)
class BridgeTrace:
    """One deal played by OpenSpiel: its seed, policy, vulnerability, hands, decisions and returns."""

    seed: int
    policy: Policy
    dealer_vul: bool
    non_dealer_vul: bool
    hands: list[list[str]]
    decisions: list[Decision]
    calls: list[int]
    returns: list[int]

    @property
    def contract(self) -> Contract | None:
        """The contract, by our reading of the calls (None: passed out)."""
        return contract_of(self.calls)

    @property
    def made(self) -> bool:
        """Whether the declaring side made its contract (it scores more than 0)."""
        found = self.contract
        return found is not None and self.returns[found.declarer] > 0


def contract_of(calls: Sequence[int]) -> Contract | None:
    """The contract the calls (OpenSpiel's actions, the dealer's first) end in; None when passed out.

    The declarer is the player of the side of the last bid who first bid its strain."""
    last, bidder, doubled = -1, -1, 0
    first_named: dict[tuple[int, int], int] = {}
    for index, call in enumerate(calls):
        player = index % NUM_PLAYERS
        if call == DOUBLE:
            doubled = 1
        elif call == REDOUBLE:
            doubled = 2
        elif call >= FIRST_BID:
            last, bidder, doubled = call - FIRST_BID, player, 0
            first_named.setdefault((player % 2, last % 5), player)
    if last < 0:
        return None
    return Contract(last // 5 + 1, last % 5, doubled, first_named[(bidder % 2, last % 5)])


@lru_cache(maxsize=8)
def openspiel_game(dealer_vul: bool = False, non_dealer_vul: bool = False) -> Any:
    """OpenSpiel's bridge played out card by card, with the given vulnerability."""
    return pyspiel.load_game("bridge", {"use_double_dummy_result": False, "dealer_vul": dealer_vul,
                                        "non_dealer_vul": non_dealer_vul})


def choose(rng: random.Random, legal: Sequence[int], policy: Policy) -> int:
    """A decision: uniform among the legal actions, or, for `passing` in the auction, a pass with
    chance `PASSING_CHANCE` and else uniform among a double or redouble when legal and the
    `LOW_BIDS` lowest bids (so that low contracts, doubled or not, are often made)."""
    if policy == "passing" and legal[0] == PASS and len(legal) > 1:
        if rng.random() < PASSING_CHANCE:
            return PASS
        others = [a for a in legal if a in (DOUBLE, REDOUBLE)] + [a for a in legal if a >= FIRST_BID][:LOW_BIDS]
        return others[int(rng.random() * len(others))]
    return legal[int(rng.random() * len(legal))]


def play_openspiel_game(seed: int, policy: Policy = "uniform", dealer_vul: bool = False,
                        non_dealer_vul: bool = False, *, deal: Sequence[Sequence[str]] | None = None,
                        calls: Sequence[str] | None = None) -> BridgeTrace:
    """Play one deal in OpenSpiel: ``random.Random(seed)`` deals (uniform chance outcomes) and
    draws every decision by `policy`. `deal` fixes the hands (our card ids by seat) and `calls`
    the auction (our texts: ``bid 7S``, ``double``, ``pass``)."""
    fixed_calls = list(calls or [])
    rng = random.Random(seed)
    state = openspiel_game(dealer_vul, non_dealer_vul).new_initial_state()
    hands: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    decisions: list[Decision] = []
    called: list[int] = []
    dealt = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.random() * len(outcomes))][0]
            if deal is not None:
                action = CARD_ACTIONS[deal[dealt % NUM_PLAYERS][dealt // NUM_PLAYERS]]
            hands[dealt % NUM_PLAYERS].append(card_id(action))
            dealt += 1
            state.apply_action(action)
            continue
        legal = state.legal_actions()
        action = choose(rng, legal, policy)
        if legal[0] == PASS and fixed_calls:
            action = next(a for a in legal if action_text(a) == fixed_calls[0])
            fixed_calls.pop(0)
        kind, chosen = kind_and_name(action_text(action))
        decisions.append(Decision(state.current_player(), kind,
                                  tuple(sorted(kind_and_name(action_text(a))[1] for a in legal)), chosen))
        if action >= PASS:
            called.append(action)
        state.apply_action(action)
    return BridgeTrace(seed, policy, dealer_vul, non_dealer_vul, hands, decisions, called,
                       [int(r) for r in state.returns()])


def crosscheck_trace(seed: int) -> BridgeTrace:
    """The cross-check's deal of `seed`: the policy alternates (uniform on even seeds, passing on
    odd), and the vulnerability cycles by ``(seed // 2) % 4`` through none, dealer's, other, both."""
    dealer_vul, non_dealer_vul = VULNERABILITIES[(seed // 2) % 4]
    return play_openspiel_game(seed, POLICIES[seed % 2], dealer_vul, non_dealer_vul)


# ---------------------------------------------------------------- replay in trickrules


@lru_cache(maxsize=8)
def load_trickrules_bridge(dealer_vul: bool = False, non_dealer_vul: bool = False,
                           spec: str = str(BRIDGE_SPEC)) -> trickrules.Game:
    """specs/bridge.yaml (or `spec`) with the given vulnerability."""
    return trickrules.load_game(spec, options={"dealer_vul": dealer_vul, "non_dealer_vul": non_dealer_vul})


def _names(texts: Sequence[str]) -> tuple[set[str], tuple[str, ...]]:
    pairs = [kind_and_name(text) for text in texts]
    return {kind for kind, _ in pairs}, tuple(sorted(name for _, name in pairs))


def _action(kind: str, name: str) -> str:
    return f"play {name}" if kind == "play" else name


def _returns_differ(trace: BridgeTrace, returns: list[int]) -> str | None:
    if returns == trace.returns:
        return None
    return f"returns differ: openspiel {trace.returns}, trickrules {returns} (contract {trace.contract})"


PLUG = Plug(
    where=lambda trace: f"seed {trace.seed} ({trace.policy})",
    deal=lambda trace: {"hands": trace.hands},
    points_differ=_returns_differ,
    names=_names,
    action=_action,
)
"""How bridge plugs into the shared replay: calls are one kind (``call``: pass, double,
redouble and bids in one legal set), cards the other (``play``); the returns must be equal."""


def replay_in_trickrules(trace: BridgeTrace, game: trickrules.Game | None = None) -> list[str]:
    """Replay `trace` in trickrules (specs/bridge.yaml with the trace's vulnerability, or `game`)
    and describe the first place the engines disagree: at each call and card the current player
    (the declarer on the dummy's turns), the kind of decision and the legal set; at the end the
    returns. Messages name the seed; empty when the engines agree everywhere."""
    if game is None:
        game = load_trickrules_bridge(trace.dealer_vul, trace.non_dealer_vul)
    return replay(trace, game, PLUG)
