"""OpenSpiel's Skat as a reference: random deals from pyspiel, and their replay in trickrules.

A trace is one deal of ``pyspiel.load_game("skat")`` with random chance outcomes and decisions
drawn by a policy: the three hands and the skat, every decision (who acted, the legal choices,
the one chosen) and the returns. `replay_in_trickrules` plays the same deal in specs/skat.yaml
and lists where the two engines disagree, decision by decision.

OpenSpiel's encoding, in our words:

- A card is the action ``8 * suit + rank``: suits diamonds, hearts, spades, clubs as 0..3,
  ranks 7, 8, 9, Q, K, 10, A, J as 0..7 (0 is ``diamonds-7``, 31 is ``clubs-J``).
- 32 chance nodes deal one card each, uniformly among the cards left; by its place ``k`` in the
  deal a card goes to player 0 (0-2, 11-14, 23-25), player 1 (3-5, 15-18, 26-28), player 2
  (6-8, 19-22, 29-31) or the skat (9-10).
- The bidding is 32 (pass), 33-38 (diamonds, hearts, spades, clubs, grand, null): players 0,
  1, 2 in turn; the first to name a game plays it; three passes end the deal, scored 0.
- The soloist takes the skat and discards two cards (card actions), then play, player 0 first.
- Returns are fractions of 120 and 240; times 240 they are whole numbers, the spec's points.
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
SKAT_SPEC = ROOT / "specs" / "skat.yaml"

SUITS = ("diamonds", "hearts", "spades", "clubs")
RANKS = ("7", "8", "9", "Q", "K", "10", "A", "J")
GAMES = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
"""The games in OpenSpiel's order of actions 33-38 (our contracts' names)."""
PASS, FIRST_GAME = 32, 33

Policy = Literal["uniform", "passing"]
POLICIES: tuple[Policy, ...] = ("uniform", "passing")
PASSING_CHANCE = 0.6
"""The `passing` policy passes with this chance in the bidding (so that all-pass deals come up)."""

_SEATS = [0] * 3 + [1] * 3 + [2] * 3 + [-1] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3
"""Who receives the k-th card dealt (-1: the skat)."""


def card_id(action: int) -> str:
    """Our card id of OpenSpiel's card action (``8 * suit + rank``)."""
    return f"{SUITS[action // 8]}-{RANKS[action % 8]}"


def choice_name(action: int, phase: str) -> str:
    """The name of a decision as `Decision.legal` holds it: a game or ``pass`` in the bidding,
    a card id when discarding or playing."""
    if phase == "declare":
        return "pass" if action == PASS else f"contract {GAMES[action - FIRST_GAME]}"
    return card_id(action)


@dataclass(frozen=True)
class SkatTrace:
    """One deal played by OpenSpiel: its seed, policy, hands, skat, decisions and returns (x 240)."""

    seed: int
    policy: Policy
    hands: list[list[str]]
    skat: list[str]
    decisions: list[Decision]
    returns: list[int]

    @property
    def game(self) -> str | None:
        """The game played (None: all passed)."""
        return next((d.chosen.split()[1] for d in self.decisions if d.kind == "declare" and d.chosen != "pass"), None)


@lru_cache(maxsize=1)
def openspiel_game() -> Any:
    return pyspiel.load_game("skat")


def _phase(state: Any) -> str:
    legal = state.legal_actions()
    if legal and legal[0] >= PASS:
        return "declare"
    return "bury" if "discarding" in str(state).split("\n", 1)[0] else "play"


def play_openspiel_game(seed: int, policy: Policy = "uniform") -> SkatTrace:
    """Play one deal in OpenSpiel: ``random.Random(seed)`` deals and draws every decision by `policy`."""
    rng = random.Random(seed)
    state = openspiel_game().new_initial_state()
    hands: list[list[str]] = [[], [], []]
    skat: list[str] = []
    dealt = 0
    decisions: list[Decision] = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
            seat = _SEATS[dealt]
            (skat if seat < 0 else hands[seat]).append(card_id(action))
            dealt += 1
            state.apply_action(action)
            continue
        legal = state.legal_actions()
        phase = _phase(state)
        if phase == "declare" and policy == "passing" and rng.random() < PASSING_CHANCE:
            action = PASS
        else:
            action = rng.choice(legal)
        names = tuple(sorted(choice_name(a, phase) for a in legal))
        decisions.append(Decision(state.current_player(), phase, names, choice_name(action, phase)))
        state.apply_action(action)
    return SkatTrace(seed, policy, hands, skat, decisions, [round(r * 240) for r in state.returns()])


def crosscheck_trace(seed: int) -> SkatTrace:
    """The cross-check's deal of `seed`: uniform calls on even seeds, passing more on odd."""
    return play_openspiel_game(seed, POLICIES[seed % 2])


# ---------------------------------------------------------------- replay in trickrules


@lru_cache(maxsize=4)
def load_trickrules_skat(spec: str = str(SKAT_SPEC)) -> trickrules.Game:
    return trickrules.load_game(spec)


def _names(texts: Sequence[str]) -> tuple[set[str], tuple[str, ...]]:
    """Bidding actions (``pass``, ``contract grand``) are one kind, ``declare``; cards are
    ``bury`` or ``play`` with the card id as the name."""
    kinds, names = set(), []
    for text in texts:
        verb, _, rest = text.partition(" ")
        if verb in ("pass", "contract"):
            kinds.add("declare")
            names.append(text)
        else:
            kinds.add(verb)
            names.append(rest)
    return kinds, tuple(sorted(names))


def _action(kind: str, name: str) -> str:
    return name if kind == "declare" else f"{kind} {name}"


def _returns_differ(trace: SkatTrace, returns: list[int]) -> str | None:
    if returns == trace.returns:
        return None
    return f"returns differ: openspiel {trace.returns} (x 240), trickrules {returns} (game {trace.game})"


PLUG = Plug(
    where=lambda trace: f"seed {trace.seed} ({trace.policy})",
    deal=lambda trace: {"hands": trace.hands},
    points_differ=_returns_differ,
    names=_names,
    action=_action,
)
"""How skat plugs into the shared replay: the bidding is one kind (``declare``), burying and
playing a card the others; the returns (OpenSpiel's x 240) must be equal."""


def replay_in_trickrules(trace: SkatTrace, game: trickrules.Game | None = None) -> list[str]:
    """Replay `trace` in trickrules (specs/skat.yaml, or `game`) and describe the first place
    the engines disagree; empty when they agree everywhere."""
    return replay(trace, game if game is not None else load_trickrules_skat(), PLUG)


def check_trace(trace: SkatTrace) -> list[str]:
    """Our reading of OpenSpiel's skat, checked on its own trace: the deal's sizes, who acts in
    the bidding, the soloist burying two cards, player 0 leading, zero-sum returns."""
    problems = []
    if sorted(map(len, trace.hands)) != [10, 10, 10] or len(trace.skat) != 2:
        problems.append("the deal is not 10, 10, 10 and a skat of 2")
    cards = [c for h in trace.hands for c in h] + trace.skat
    if len(set(cards)) != 32:
        problems.append("a card is dealt twice")
    bids = [d for d in trace.decisions if d.kind == "declare"]
    if [d.player for d in bids] != list(range(len(bids))):
        problems.append("the bidding is not players 0, 1, 2 in turn")
    buries = [d for d in trace.decisions if d.kind == "bury"]
    if trace.game is not None and (len(buries) != 2 or {d.player for d in buries} != {bids[-1].player}):
        problems.append("the soloist does not bury two cards")
    plays = [d for d in trace.decisions if d.kind == "play"]
    if plays and plays[0].player != 0:
        problems.append("player 0 does not lead the first trick")
    if trace.game is not None and trace.game != "null" and sum(trace.returns) != 0:
        problems.append(f"a suit game or grand is not zero-sum: {trace.returns}")
    return problems
