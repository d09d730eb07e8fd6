"""OpenSpiel's Spades as a reference: random traces from pyspiel, and their replay in trickrules.

A trace is one hand of partnership Spades played by OpenSpiel (``pyspiel.load_game("spades")``)
with random chance outcomes and random decisions: the four dealt hands, every decision (who
decided, whether it was a bid or a play, the legal bids or cards, the one chosen) and each
player's score for the hand. `replay_in_trickrules` plays the same hand in a trickrules game and
lists where the two engines disagree, decision by decision.

OpenSpiel's encoding, in our words (open_spiel/games/spades/spades.cc and spades_scoring.cc):

- A card is the action ``suit * 13 + rank``, suits in the order clubs, diamonds, hearts, spades
  and ranks 2..A as 0..12: 0 is ``clubs-2``, 12 is ``clubs-A``, 49 is ``spades-Q``, 51 is
  ``spades-A`` (OpenSpiel's text: "C2" .. "SA", "T" for ten). Note: suit-major, unlike Hearts.
- A bid ``b`` (0 is Nil, 1..13) is the action ``52 + b`` (text "Nil", "1" .. "13").
- 52 chance nodes deal one card each (uniformly among the cards left), the ``k``-th card to
  player ``k % 4``.
- Bidding: one round, players 0, 1, 2, 3. A player whose partner (``p + 2``) has already bid
  ``b`` may bid 0..13-b (so after a partner's Nil anything up to 13, after a partner's 13 only
  Nil); players 0 and 1 bid freely.
- Play: player 0 leads the first trick, a trick's winner leads the next one. Follow the led suit
  if possible, else any card. A leader may lead a spade only from a hand of nothing but spades:
  OpenSpiel never marks spades as broken (``is_spades_broken_`` stays false), so this holds for
  the whole hand. The highest spade wins a trick, else the highest card of the led suit.
- Scoring, per partnership (players 0+2 and 1+3) for the hand: with ``contract`` the sum of the
  two bids and ``taken`` the two players' tricks together (a Nil bidder's tricks count too):
  made (``taken >= contract``): ``10 * contract + overtricks - 100 * ((bags + overtricks) // 10)``
  where ``bags`` is the last digit of the score before the hand (0: one hand per game, so ten or
  more overtricks in the hand cost 100); missed: ``-10 * contract``. Each Nil bid adds 100 if its
  bidder took no trick, else -100. Two Nil bids make a contract of 0, always made: every trick
  the pair takes is an overtrick. Both partners' returns carry the partnership's score.
- Returns: OpenSpiel's game ends after one hand (``is_terminal``) and each player's return is
  their partnership's hand score ``s``, plus ``win_or_loss_bonus`` if ``s >= win_threshold`` and
  ``s`` beats the other partnership's score, or minus it if ``mercy_threshold != 0``, ``s <=
  mercy_threshold`` and ``s`` is below the other's (`with_win_or_loss_bonus`;
  ``use_mercy_rule`` is not read at all). A hand scores between -290 and 230, so with the
  default thresholds (500, -350) returns are the hand scores. The trace's `points` come from
  ``state.get_current_scores()``, OpenSpiel's running partnership totals, which start at 0 and so
  hold the hand's scores before any bonus; `check_trace` checks the returns against them.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pyspiel

import trickrules
from openspiel_common import Decision, GAMES_ENV, Plug, Trick, full_parameters, games_from_env, loaded_game, replay  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
SPADES_SPEC = ROOT / "specs" / "spades.yaml"
SPADES_OPTIONS: dict[str, Any] = {"spades_broken": "never", "single_hand": True}
"""Options of specs/spades.yaml for one hand in which spades are never broken, as OpenSpiel plays it."""


SUITS = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in OpenSpiel's suit order (``action // 13``)."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names in OpenSpiel's rank order (``action % 13``), lowest first."""
TRUMP = "spades"

NUM_PLAYERS = 4
HAND_SIZE = 13
NUM_CARDS = NUM_PLAYERS * HAND_SIZE
MAX_BID = 13
BID_ACTION_BASE = NUM_CARDS
"""OpenSpiel's action of the bid ``b`` is ``52 + b``."""
NIL = "nil"
"""Our name of the bid 0; other bids are named by their number, "1" .. "13"."""
NIL_BONUS = 100
POINTS_PER_BID_TRICK = 10
BAGS_PER_PENALTY = 10
BAG_PENALTY = 100

LOW_BID_CAP = 1
"""`crosscheck_trace` bids at most this in every fourth hand, so that bag penalties and double Nils happen."""

DEFAULT_PARAMS: dict[str, Any] = {
    "use_mercy_rule": True,
    "mercy_threshold": -350,
    "win_threshold": 500,
    "win_or_loss_bonus": 200,
    "num_tricks": 2,
}
"""OpenSpiel's default parameters of "spades" (``num_tricks`` only shapes observation tensors)."""

Kind = Literal["bid", "play"]


# ---------------------------------------------------------------- cards and bids


def card_id(action: int) -> str:
    """Our id of the card that OpenSpiel encodes as `action` (0..51), e.g. 49 -> ``spades-Q``."""
    if not 0 <= action < NUM_CARDS:
        raise ValueError(f"not an OpenSpiel Spades card: {action!r}")
    return f"{SUITS[action // HAND_SIZE]}-{RANKS[action % HAND_SIZE]}"


def card_action(card: str) -> int:
    """OpenSpiel's action of the card with our id `card`, e.g. ``spades-Q`` -> 49."""
    suit, _, rank = card.partition("-")
    return SUITS.index(suit) * HAND_SIZE + RANKS.index(rank)


def bid_name(bid: int) -> str:
    """Our name of a bid: ``nil`` for 0, else the number, e.g. ``7``."""
    if not 0 <= bid <= MAX_BID:
        raise ValueError(f"not a Spades bid: {bid!r}")
    return NIL if bid == 0 else str(bid)


def bid_value(name: str) -> int:
    """The number of tricks a bid name stands for (``nil`` is 0)."""
    return 0 if name == NIL else int(name)


def action_name(action: int) -> tuple[Kind, str]:
    """The kind and our name of one of OpenSpiel's non-chance actions: ("play", card) or ("bid", bid)."""
    if action < BID_ACTION_BASE:
        return "play", card_id(action)
    return "bid", bid_name(action - BID_ACTION_BASE)


def suit_of(card: str) -> str:
    """The suit of a card id."""
    return card.partition("-")[0]


def rank_of(card: str) -> int:
    """The rank of a card id as 0 (two) .. 12 (ace)."""
    return RANKS.index(card.partition("-")[2])


def partner(player: int) -> int:
    return (player + 2) % NUM_PLAYERS


def partnership(player: int) -> int:
    """0 for players 0 and 2, 1 for players 1 and 3."""
    return player % 2


# ---------------------------------------------------------------- traces


# A Decision (openspiel_common): `legal` holds plain-sorted names: card ids for plays,
# ``nil``/``1``..``13`` for bids (so "1" < "10" < "2" < "nil").


@dataclass
class SpadesTrace:
    """One hand of Spades as OpenSpiel played it."""

    hands: list[list[str]]
    """The four hands as dealt, in dealing order."""
    decisions: list[Decision]
    points: list[int]
    """Each player's score for the hand: their partnership's, before any win/loss bonus."""
    seed: int = 0
    params: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    """OpenSpiel's full parameters of the game played."""
    returns: list[float] = field(default_factory=list)
    """OpenSpiel's returns: `points` with `with_win_or_loss_bonus`."""
    bid_cap: int | None = None
    """The highest bid the random bidders chose, if capped (legal sets are never capped)."""

    @property
    def bids(self) -> list[int]:
        """Each player's bid (0 for Nil)."""
        bids = [0] * NUM_PLAYERS
        for d in self.decisions:
            if d.kind == "bid":
                bids[d.player] = bid_value(d.chosen)
        return bids


def openspiel_game(params: dict[str, Any] | None = None) -> Any:
    """OpenSpiel's "spades" with `params` over its defaults (cached per parameter set)."""
    full = full_parameters("spades", DEFAULT_PARAMS, params)
    return loaded_game(pyspiel.load_game, "spades", full)


def with_win_or_loss_bonus(points: Sequence[int], params: dict[str, Any]) -> list[int]:
    """OpenSpiel's returns for players with hand scores `points` (ScoreUp in spades.cc).

    A partnership whose score ``s`` reaches ``win_threshold`` and beats the other's gains
    ``win_or_loss_bonus``; else one at or below a non-zero ``mercy_threshold`` and below the other
    loses it. (OpenSpiel adjusts partnership 0 before comparing partnership 1 with it, which never
    changes an outcome.) ``use_mercy_rule`` plays no part.
    """
    scores = [points[0], points[1]]
    bonus = params["win_or_loss_bonus"]
    result = list(scores)
    for side in (0, 1):
        own, other = scores[side], scores[1 - side]
        if own >= params["win_threshold"] and own > other:
            result[side] += bonus
        elif params["mercy_threshold"] and own <= params["mercy_threshold"] and own < other:
            result[side] -= bonus
    return [result[partnership(p)] for p in range(NUM_PLAYERS)]


def play_openspiel_game(
    seed: int,
    params: dict[str, Any] | None = None,
    *,
    bid_cap: int | None = None,
    deal: Sequence[Sequence[str]] | None = None,
    bids: Sequence[int | None] | None = None,
) -> SpadesTrace:
    """Play one hand in OpenSpiel and return its trace.

    ``random.Random(seed)`` picks uniformly among the chance outcomes (every deal node is uniform)
    and among the legal actions at every decision. With `bid_cap`, random bids are drawn from the
    legal ones up to the cap (Nil is always legal). `deal` fixes the hands (the ``k``-th card dealt
    goes to player ``k % 4``) and `bids` fixes some players' bids (``None``: random).
    """
    game = openspiel_game(params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    dealt: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    decisions: list[Decision] = []
    while not state.is_terminal():
        if state.is_chance_node():
            k = sum(len(h) for h in dealt)
            if deal is not None:
                action = card_action(deal[k % NUM_PLAYERS][k // NUM_PLAYERS])
            else:
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.random() * len(outcomes))][0]
            dealt[k % NUM_PLAYERS].append(card_id(action))
            state.apply_action(action)
            continue
        player = state.current_player()
        actions = state.legal_actions()
        kind, _ = action_name(actions[0])
        choices = actions
        if kind == "bid":
            fixed = bids[player] if bids is not None else None
            if fixed is not None:
                choices = [BID_ACTION_BASE + fixed]
            elif bid_cap is not None:
                choices = [a for a in actions if a - BID_ACTION_BASE <= bid_cap]
        action = choices[int(rng.random() * len(choices))]
        names = tuple(sorted(action_name(a)[1] for a in actions))
        decisions.append(Decision(player, kind, names, action_name(action)[1]))
        state.apply_action(action)
    scores = [int(s) for s in state.get_current_scores()]
    return SpadesTrace(
        hands=dealt,
        decisions=decisions,
        points=[scores[partnership(p)] for p in range(NUM_PLAYERS)],
        seed=seed,
        params=dict(game.get_parameters()),
        returns=list(state.returns()),
        bid_cap=bid_cap,
    )


def crosscheck_trace(seed: int) -> SpadesTrace:
    """The cross-check's hand of `seed`: random, with bids capped at `LOW_BID_CAP` when ``seed % 4 == 3``.

    Random bids almost never leave ten overtricks; low bids do in about one hand in sixteen, and
    give double Nils, so the cross-check meets the bag penalty too.
    """
    return play_openspiel_game(seed, bid_cap=LOW_BID_CAP if seed % 4 == 3 else None)


# ---------------------------------------------------------------- our own reading of the rules


def trick_winner(leader: int, cards: Sequence[str]) -> int:
    """Who wins a trick led by `leader`: the highest spade, else the highest card of the led suit."""
    led = suit_of(cards[0])
    best_suit = TRUMP if any(suit_of(c) == TRUMP for c in cards) else led
    best = max((i for i, c in enumerate(cards) if suit_of(c) == best_suit), key=lambda i: rank_of(cards[i]))
    return (leader + best) % NUM_PLAYERS


def tricks_of(trace: SpadesTrace) -> list[Trick]:
    """The tricks of a trace's play decisions, in order."""
    plays = [d for d in trace.decisions if d.kind == "play"]
    tricks = []
    for start in range(0, len(plays), NUM_PLAYERS):
        group = plays[start : start + NUM_PLAYERS]
        cards = tuple(d.chosen for d in group)
        tricks.append(Trick(group[0].player, cards, trick_winner(group[0].player, cards)))
    return tricks


def tricks_taken(trace: SpadesTrace) -> list[int]:
    """How many tricks each player took."""
    taken = [0] * NUM_PLAYERS
    for trick in tricks_of(trace):
        taken[trick.winner] += 1
    return taken


def nil_bonuses(trace: SpadesTrace) -> list[int]:
    """Each player's Nil bonus: +100 for a Nil bid and no trick taken, -100 for a Nil bid and a trick, else 0."""
    taken = tricks_taken(trace)
    return [0 if bid else (NIL_BONUS if taken[p] == 0 else -NIL_BONUS) for p, bid in enumerate(trace.bids)]


def overtricks(trace: SpadesTrace) -> list[int]:
    """Each partnership's overtricks (tricks taken beyond the partners' bids; 0 if the contract failed)."""
    taken, bids = tricks_taken(trace), trace.bids
    return [max(0, taken[s] + taken[s + 2] - bids[s] - bids[s + 2]) for s in (0, 1)]


def count_scores(trace: SpadesTrace) -> list[int]:
    """Each player's hand score counted from the bids and the trick winners, independently of OpenSpiel.

    Per partnership: the contract is the sum of the two bids and the tricks are both partners'
    (a Nil bidder's included). Made: 10 per trick bid plus one per overtrick, and 100 off for
    every ten overtricks (bags; the hand starts from no bags). Missed: 10 off per trick bid. Each
    Nil: +100 if its bidder took no trick, else -100. Partners score the same.
    """
    taken, bids, nils = tricks_taken(trace), trace.bids, nil_bonuses(trace)
    sides = []
    for players in ((0, 2), (1, 3)):
        contract = sum(bids[p] for p in players)
        won = sum(taken[p] for p in players)
        if won >= contract:
            bags = won - contract
            score = POINTS_PER_BID_TRICK * contract + bags - BAG_PENALTY * (bags // BAGS_PER_PENALTY)
        else:
            score = -POINTS_PER_BID_TRICK * contract
        sides.append(score + sum(nils[p] for p in players))
    return [sides[partnership(p)] for p in range(NUM_PLAYERS)]


def expected_bids(bids_so_far: dict[int, int], player: int) -> tuple[str, ...]:
    """The bids open to `player`: 0..13, or 0..13-b once the partner has bid b (sorted names)."""
    top = MAX_BID - bids_so_far.get(partner(player), 0)
    return tuple(sorted(bid_name(b) for b in range(top + 1)))


def expected_plays(hand: Sequence[str], trick: Sequence[str]) -> list[str]:
    """The cards OpenSpiel's rules allow from `hand` with `trick` on the table, as we read them.

    Follow the led suit if possible, else any card. A leader leads any non-spade; only a hand of
    nothing but spades may lead a spade (spades are never broken).
    """
    if trick:
        follow = [c for c in hand if suit_of(c) == suit_of(trick[0])]
    else:
        follow = [c for c in hand if suit_of(c) != TRUMP]
    return follow or list(hand)


def hands_at(trace: SpadesTrace, index: int) -> list[list[str]]:
    """The hands just before decision `index`."""
    hands = [list(h) for h in trace.hands]
    for d in trace.decisions[:index]:
        if d.kind == "play":
            hands[d.player].remove(d.chosen)
    return hands


def lead_indices(trace: SpadesTrace) -> list[int]:
    """Indices of the play decisions that lead a trick."""
    first = next(i for i, d in enumerate(trace.decisions) if d.kind == "play")
    return list(range(first, len(trace.decisions), NUM_PLAYERS))


def check_trace(trace: SpadesTrace) -> list[str]:
    """Where a trace departs from the rules as we read them (empty if nowhere).

    Checks the deal; four bids by players 0..3 from `expected_bids`; 52 plays, player 0 leading
    first and each trick's winner next, from `expected_plays` over the tracked hands; that
    OpenSpiel's hand scores equal `count_scores` (partners alike); and that its returns are the
    scores with `with_win_or_loss_bonus`.
    """
    where = f"seed {trace.seed}"
    deck = sorted(c for h in trace.hands for c in h)
    if deck != sorted(card_id(a) for a in range(NUM_CARDS)) or any(len(h) != HAND_SIZE for h in trace.hands):
        return [f"{where}: the deal is not 4 hands of 13 distinct cards"]
    kinds = [d.kind for d in trace.decisions]
    if kinds != ["bid"] * NUM_PLAYERS + ["play"] * NUM_CARDS:
        return [f"{where}: expected 4 bids then 52 plays, got {kinds}"]
    bids: dict[int, int] = {}
    for i, d in enumerate(trace.decisions[:NUM_PLAYERS]):
        expected = (i, expected_bids(bids, i))
        if (d.player, d.legal) != expected or d.chosen not in d.legal:
            return [f"{where}, decision {i}: bid by {d.player} from {d.legal}; expected player {i} from {expected[1]}"]
        bids[d.player] = bid_value(d.chosen)
    hands = [list(h) for h in trace.hands]
    player = 0
    trick: list[str] = []
    leader = player
    for i, d in enumerate(trace.decisions[NUM_PLAYERS:], NUM_PLAYERS):
        legal = tuple(sorted(expected_plays(hands[player], trick)))
        if (d.player, d.legal) != (player, legal) or d.chosen not in d.legal:
            return [f"{where}, decision {i}: play by {d.player} from {d.legal}; expected player {player} from {legal}"]
        hands[player].remove(d.chosen)
        trick.append(d.chosen)
        if len(trick) == NUM_PLAYERS:
            player = leader = trick_winner(leader, trick)
            trick = []
        else:
            player = (player + 1) % NUM_PLAYERS
    counted = count_scores(trace)
    if trace.points != counted:
        return [f"{where}: OpenSpiel's hand scores {trace.points} (returns {trace.returns}) but counted {counted}"]
    expected_returns = with_win_or_loss_bonus(trace.points, trace.params)
    if [int(r) for r in trace.returns] != expected_returns:
        return [f"{where}: OpenSpiel's returns {trace.returns}; expected {expected_returns} from scores {trace.points}"]
    return []


# ---------------------------------------------------------------- trickrules side


def load_trickrules_spades(spec: str | os.PathLike[str] = SPADES_SPEC) -> trickrules.Game:
    """Our Spades for one hand with spades never broken, the way OpenSpiel plays it."""
    return trickrules.load_game(spec, options=SPADES_OPTIONS)


def _where(trace: SpadesTrace) -> str:
    return f"seed {trace.seed}" + (f" (bids capped at {trace.bid_cap})" if trace.bid_cap is not None else "")


def _points_differ(trace: SpadesTrace, points: list[int]) -> str | None:
    if points == trace.points:
        return None
    return (
        f"hand scores differ: openspiel {trace.points}, trickrules {points} "
        f"(bids {trace.bids}, tricks {tricks_taken(trace)})"
    )


PLUG = Plug(
    where=_where,
    deal=lambda trace: {"hands": trace.hands},
    points_differ=_points_differ,
    refusals=(trickrules.IllegalActionError, ValueError),
)
"""Spades in the replay harness: decisions ``bid``/``play`` (``bid nil``, ``bid 7``, ``play
spades-Q``), each player's hand score compared."""


def replay_in_trickrules(trace: SpadesTrace, game: trickrules.Game) -> list[str]:
    """Replay `trace` in a trickrules game and describe the first place the engines disagree.

    Deals ``trace.hands``, then for each decision compares the current player, the kind of
    decision (``bid``/``play``) and the sorted legal names, and applies OpenSpiel's choice; at
    the end compares terminality and each player's hand score (`openspiel_common.replay` with
    `PLUG`).
    """
    return replay(trace, game, PLUG)
