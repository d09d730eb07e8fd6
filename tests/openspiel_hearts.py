"""OpenSpiel's Hearts as a reference: random traces from pyspiel, and their replay in trickrules.

A trace is one hand of Hearts played by OpenSpiel (``pyspiel.load_game("hearts")``) with random
chance outcomes and random decisions: the pass direction, the four dealt hands, every decision
(who decided, whether it was a pass or a play, the legal cards, the card chosen) and each player's
penalty points. `replay_in_trickrules` plays the same hand in a trickrules game and lists where the
two engines disagree, decision by decision.

OpenSpiel's encoding, in our words:

- A card is the action ``rank * 4 + suit``, ranks 2..A as 0..12 and suits in the order clubs,
  diamonds, hearts, spades: 0 is ``clubs-2``, 43 is ``spades-Q``, 51 is ``spades-A``.
- The first chance node picks the pass direction: 0 no pass, 1 left, 2 across, 3 right. A player
  ``p`` passes to ``(p + direction) % 4``, so OpenSpiel's "Left" is our "left" (``p`` to ``p + 1``).
  With ``pass_cards=false`` the chance outcomes still list all four directions while the legal
  actions are only "No Pass"; `play_openspiel_game` draws from their intersection.
- Then 52 chance nodes deal one card each, the ``k``-th card to player ``k % 4``.
- Passing: player 0 chooses three cards one at a time (each action one card of the current hand),
  then players 1, 2 and 3; the passed cards change hands after player 3's last pass.
- Play: the holder of ``clubs-2`` leads it; a trick's winner leads the next one.
- Returns: ``26 - points`` for each player, so ``points = 26 - returns``.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pyspiel

import trickrules
from openspiel_common import Decision, GAMES_ENV, Plug, Trick, full_parameters, games_from_env, loaded_game, replay  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
HEARTS_SPEC = ROOT / "specs" / "hearts.yaml"
HEARTS_OPTIONS: dict[str, Any] = {"pass_direction": "random", "single_hand": True}
"""Options of specs/hearts.yaml for one hand with a random pass direction, as OpenSpiel plays it."""


SUITS = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in OpenSpiel's suit order (``action % 4``)."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names in OpenSpiel's rank order (``action // 4``), lowest first."""
PASS_DIRECTIONS = ("none", "left", "across", "right")
"""Our pass direction for each OpenSpiel pass-direction chance outcome (0 is "No Pass")."""
PASS_OFFSETS = {name: offset for offset, name in enumerate(PASS_DIRECTIONS)}
"""Player ``p`` passes to ``(p + PASS_OFFSETS[direction]) % 4``."""

NUM_PLAYERS = 4
HAND_SIZE = 13
CARDS_PASSED = 3
TOTAL_POINTS = 26
"""All hearts and the queen of spades; OpenSpiel's returns are ``26 - points``."""
QUEEN_OF_SPADES = "spades-Q"
JACK_OF_DIAMONDS = "diamonds-J"
TWO_OF_CLUBS = "clubs-2"

DEFAULT_PARAMS: dict[str, bool] = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": True,
    "can_lead_hearts_instead_of_qs": False,
}
"""OpenSpiel's default parameters of "hearts"."""

Kind = Literal["pass", "play"]


# ---------------------------------------------------------------- cards


def card_id(action: int) -> str:
    """Our id of the card that OpenSpiel encodes as `action` (0..51), e.g. 43 -> ``spades-Q``."""
    if not 0 <= action < NUM_PLAYERS * HAND_SIZE:
        raise ValueError(f"not an OpenSpiel Hearts card: {action!r}")
    return f"{SUITS[action % 4]}-{RANKS[action // 4]}"


def card_action(card: str) -> int:
    """OpenSpiel's action of the card with our id `card`, e.g. ``spades-Q`` -> 43."""
    suit, _, rank = card.partition("-")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def suit_of(card: str) -> str:
    """The suit of a card id."""
    return card.partition("-")[0]


def rank_of(card: str) -> int:
    """The rank of a card id as 0 (two) .. 12 (ace)."""
    return RANKS.index(card.partition("-")[2])


def card_points(card: str, jd_bonus: bool) -> int:
    """Penalty points of one card taken in a trick."""
    if suit_of(card) == "hearts":
        return 1
    if card == QUEEN_OF_SPADES:
        return 13
    if card == JACK_OF_DIAMONDS and jd_bonus:
        return -10
    return 0


# ---------------------------------------------------------------- traces


# A Decision (openspiel_common): `legal` holds sorted card ids.


@dataclass
class HeartsTrace:
    """One hand of Hearts as OpenSpiel played it."""

    pass_direction: str
    """"none", "left", "across" or "right"; left means player ``p`` passes to ``p + 1``."""
    hands: list[list[str]]
    """The four hands as dealt, before passing, in dealing order."""
    decisions: list[Decision]
    points: list[int]
    """Each player's penalty points for the hand."""
    seed: int = 0
    params: dict[str, bool] = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    """OpenSpiel's full parameters of the game played."""
    returns: list[float] = field(default_factory=list)
    """OpenSpiel's returns, from which `points` derive."""


def openspiel_game(params: dict[str, bool] | None = None) -> Any:
    """OpenSpiel's "hearts" with `params` over its defaults (cached per parameter set)."""
    full = full_parameters("hearts", DEFAULT_PARAMS, params)
    return loaded_game(pyspiel.load_game, "hearts", full)


def points_from_returns(returns: list[float]) -> list[int]:
    """Penalty points from OpenSpiel's returns, which are ``26 - points``."""
    return [TOTAL_POINTS - int(round(r)) for r in returns]


def play_openspiel_game(seed: int, params: dict[str, bool] | None = None) -> HeartsTrace:
    """Play one random hand in OpenSpiel and return its trace.

    ``random.Random(seed)`` picks uniformly among the chance outcomes (every OpenSpiel Hearts chance
    node is uniform) that are also legal, and among the legal actions at every decision.
    """
    game = openspiel_game(params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    direction = -1
    dealt: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    decisions: list[Decision] = []
    passes_left = 0
    while not state.is_terminal():
        if state.is_chance_node():
            legal = set(state.legal_actions())
            outcomes = [a for a, _ in state.chance_outcomes() if a in legal]
            action = outcomes[int(rng.random() * len(outcomes))]
            if direction < 0:
                direction = action
                passes_left = 0 if direction == 0 else NUM_PLAYERS * CARDS_PASSED
            else:
                dealt[sum(len(h) for h in dealt) % NUM_PLAYERS].append(card_id(action))
            state.apply_action(action)
            continue
        player = state.current_player()
        actions = state.legal_actions()
        action = actions[int(rng.random() * len(actions))]
        kind: Kind = "pass" if passes_left else "play"
        passes_left = max(0, passes_left - 1)
        decisions.append(Decision(player, kind, tuple(sorted(card_id(a) for a in actions)), card_id(action)))
        state.apply_action(action)
    returns = list(state.returns())
    return HeartsTrace(
        pass_direction=PASS_DIRECTIONS[direction],
        hands=dealt,
        decisions=decisions,
        points=points_from_returns(returns),
        seed=seed,
        params={str(k): bool(v) for k, v in game.get_parameters().items()},
        returns=returns,
    )


# ---------------------------------------------------------------- our own reading of the rules


def tricks_of(trace: HeartsTrace) -> list[Trick]:
    """The tricks of a trace's play decisions; the highest card of the led suit wins."""
    plays = [d for d in trace.decisions if d.kind == "play"]
    tricks = []
    for start in range(0, len(plays), NUM_PLAYERS):
        group = plays[start : start + NUM_PLAYERS]
        led = suit_of(group[0].chosen)
        best = max((d for d in group if suit_of(d.chosen) == led), key=lambda d: rank_of(d.chosen))
        tricks.append(Trick(group[0].player, tuple(d.chosen for d in group), best.player))
    return tricks


def count_points(trace: HeartsTrace) -> list[int]:
    """Each player's penalty points counted from the trick winners, independently of OpenSpiel.

    One point per heart and 13 for the queen of spades taken; -10 for the jack of diamonds with
    ``jd_bonus``. A player who takes every heart and the queen of spades shoots the moon: 26 off
    their own count and 26 onto everyone else's. Without a moon shot, ``avoid_all_tricks_bonus``
    gives -5 to each player who took no trick.
    """
    jd_bonus = trace.params.get("jd_bonus", False)
    points = [0] * NUM_PLAYERS
    taken = [0] * NUM_PLAYERS
    takers_of_penalties = set()
    for trick in tricks_of(trace):
        taken[trick.winner] += 1
        points[trick.winner] += sum(card_points(c, jd_bonus) for c in trick.cards)
        if any(suit_of(c) == "hearts" or c == QUEEN_OF_SPADES for c in trick.cards):
            takers_of_penalties.add(trick.winner)
    if len(takers_of_penalties) == 1:
        (shooter,) = takers_of_penalties
        return [p - TOTAL_POINTS if i == shooter else p + TOTAL_POINTS for i, p in enumerate(points)]
    if trace.params.get("avoid_all_tricks_bonus", False):
        points = [p - 5 if taken[i] == 0 else p for i, p in enumerate(points)]
    return points


def moon_shooter(trace: HeartsTrace) -> int | None:
    """The player who took every heart and the queen of spades, if anyone did."""
    takers = {
        t.winner for t in tricks_of(trace) if any(suit_of(c) == "hearts" or c == QUEEN_OF_SPADES for c in t.cards)
    }
    return takers.pop() if len(takers) == 1 else None


def hands_after_pass(trace: HeartsTrace) -> list[list[str]]:
    """The hands once every pass has been made, following the trace's pass decisions."""
    hands = [list(h) for h in trace.hands]
    offset = PASS_OFFSETS[trace.pass_direction]
    passed = [d for d in trace.decisions if d.kind == "pass"]
    for d in passed:
        hands[d.player].remove(d.chosen)
    for d in passed:
        hands[(d.player + offset) % NUM_PLAYERS].append(d.chosen)
    return hands


def hands_at(trace: HeartsTrace, index: int) -> list[list[str]]:
    """The hands just before decision `index` (passed cards arrive after the last pass)."""
    passes = sum(1 for d in trace.decisions if d.kind == "pass")
    if index >= passes:
        hands = hands_after_pass(trace)
        for d in trace.decisions[passes:index]:
            hands[d.player].remove(d.chosen)
        return hands
    hands = [list(h) for h in trace.hands]
    for d in trace.decisions[:index]:
        hands[d.player].remove(d.chosen)
    return hands


def breaks_hearts(card: str, params: dict[str, bool]) -> bool:
    """Whether playing `card` breaks hearts: any heart, and the queen of spades with ``qs_breaks_hearts``."""
    return suit_of(card) == "hearts" or (card == QUEEN_OF_SPADES and params.get("qs_breaks_hearts", True))


def hearts_broken_at(trace: HeartsTrace, index: int) -> bool:
    """Whether hearts may be led at decision `index` under the trace's parameters."""
    if not trace.params.get("must_break_hearts", True):
        return True
    return any(d.kind == "play" and breaks_hearts(d.chosen, trace.params) for d in trace.decisions[:index])


def expected_plays(
    hand: list[str], trick: list[str], first_trick: bool, broken: bool, params: dict[str, bool]
) -> list[str]:
    """The cards OpenSpiel's rules allow from `hand` with `trick` on the table, as we read them.

    Follow the led suit if possible. The very first lead is the two of clubs (any club with
    ``can_lead_any_club``). On the first trick a player who cannot follow may not play hearts or
    the queen of spades (``no_pts_on_first_trick``) unless nothing else is left. A leader may not
    lead hearts before they are broken unless only hearts are left; with
    ``can_lead_hearts_instead_of_qs`` a leader left with only the queen of spades besides hearts
    may lead anything.
    """
    if trick:
        follow = [c for c in hand if suit_of(c) == suit_of(trick[0])]
        if follow:
            return follow
    elif first_trick:
        if params.get("can_lead_any_club", False):
            return [c for c in hand if suit_of(c) == "clubs"]
        return [TWO_OF_CLUBS]
    if first_trick and params.get("no_pts_on_first_trick", True):
        safe = [c for c in hand if suit_of(c) != "hearts" and c != QUEEN_OF_SPADES]
        if safe:
            return safe
    if not trick:
        leads = [c for c in hand if broken or suit_of(c) != "hearts"]
        if params.get("can_lead_hearts_instead_of_qs", False) and leads == [QUEEN_OF_SPADES]:
            leads = []
        if leads:
            return leads
    return list(hand)


def check_trace(trace: HeartsTrace) -> list[str]:
    """Where a trace departs from the rules as we read them (empty if nowhere).

    Checks the deal, who decides when, every legal set (passes: the passer's current hand; plays:
    `expected_plays`), that the passed cards reach the player the pass direction names (the
    holder of the two of clubs leads and every later legal set is drawn from the tracked hands),
    and that OpenSpiel's points equal `count_points`.
    """
    where = f"seed {trace.seed}"
    deck = sorted(c for h in trace.hands for c in h)
    if deck != sorted(card_id(a) for a in range(52)) or any(len(h) != HAND_SIZE for h in trace.hands):
        return [f"{where}: the deal is not 4 hands of 13 distinct cards"]
    passes = 0 if trace.pass_direction == "none" else NUM_PLAYERS * CARDS_PASSED
    kinds = [d.kind for d in trace.decisions]
    if kinds != ["pass"] * passes + ["play"] * 52:
        return [f"{where}: expected {passes} passes then 52 plays, got {kinds}"]
    hands = [list(h) for h in trace.hands]
    for i, d in enumerate(trace.decisions[:passes]):
        expected = (i // CARDS_PASSED, tuple(sorted(hands[i // CARDS_PASSED])))
        if (d.player, d.legal) != expected or d.chosen not in d.legal:
            return [f"{where}, decision {i}: pass by {d.player} from {d.legal}; expected {expected}"]
        hands[d.player].remove(d.chosen)
    hands = hands_after_pass(trace)
    player = next(p for p, h in enumerate(hands) if TWO_OF_CLUBS in h)
    trick: list[str] = []
    broken = not trace.params.get("must_break_hearts", True)
    winners = iter(tricks_of(trace))
    for i, d in enumerate(trace.decisions[passes:], passes):
        first_trick = i - passes < NUM_PLAYERS
        legal = tuple(sorted(expected_plays(hands[player], trick, first_trick, broken, trace.params)))
        if (d.player, d.legal) != (player, legal) or d.chosen not in d.legal:
            return [f"{where}, decision {i}: play by {d.player} from {d.legal}; expected player {player} from {legal}"]
        hands[player].remove(d.chosen)
        trick.append(d.chosen)
        broken = broken or breaks_hearts(d.chosen, trace.params)
        if len(trick) == NUM_PLAYERS:
            player = next(winners).winner
            trick = []
        else:
            player = (player + 1) % NUM_PLAYERS
    counted = count_points(trace)
    if trace.points != counted:
        return [f"{where}: OpenSpiel's points {trace.points} (returns {trace.returns}) but counted {counted}"]
    return []


# ---------------------------------------------------------------- trickrules side


def load_trickrules_hearts(spec: str | os.PathLike[str] = HEARTS_SPEC) -> trickrules.Game:
    """Our Hearts for one hand with a random pass direction, the way OpenSpiel plays it."""
    return trickrules.load_game(spec, options=HEARTS_OPTIONS)


def _points_differ(trace: HeartsTrace, points: list[int]) -> str | None:
    return None if points == trace.points else f"points differ: openspiel {trace.points}, trickrules {points}"


PLUG = Plug(
    where=lambda trace: f"seed {trace.seed} (pass {trace.pass_direction})",
    deal=lambda trace: {"hands": trace.hands, "pass": trace.pass_direction},
    points_differ=_points_differ,
    refusals=(trickrules.IllegalActionError, ValueError),
)
"""Hearts in the replay harness: decisions ``pass``/``play`` of card ids, penalty points compared."""


def replay_in_trickrules(trace: HeartsTrace, game: trickrules.Game) -> list[str]:
    """Replay `trace` in a trickrules game and describe the first place the engines disagree.

    Deals ``trace.hands`` with ``trace.pass_direction``, then for each decision compares the
    current player, the kind of decision (``pass``/``play``) and the sorted legal card ids, and
    applies the card OpenSpiel chose; at the end compares terminality and the points
    (`openspiel_common.replay` with `PLUG`).
    """
    return replay(trace, game, PLUG)
