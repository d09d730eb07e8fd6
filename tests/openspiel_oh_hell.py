"""OpenSpiel's Oh Hell as a reference: random traces from pyspiel, and their replay in trickrules.

A trace is one hand of Oh Hell played by OpenSpiel (``pyspiel.load_game("oh_hell")``, 3 players)
with random chance outcomes and random decisions: the number of tricks, the dealer, the hands as
dealt, the turned-up trump card, every decision (who decided, whether it was a bid or a play, the
legal bids or cards, the one chosen) and each player's points. `replay_in_trickrules` plays the
same hand in a trickrules game and lists where the two engines disagree, decision by decision.

OpenSpiel's encoding, in our words (read from pyspiel and open_spiel/games/oh_hell/oh_hell.cc):

- A card is the action ``rank * 4 + suit``, ranks 2..A as 0..12 and suits in the order clubs,
  diamonds, **spades, hearts** (OpenSpiel's "CDSH"; its Hearts game orders them CDHS): 0 is
  ``clubs-2``, 2 is ``spades-2``, 3 is ``hearts-2``, 42 is ``spades-Q``, 51 is ``hearts-A``.
- A bid of ``b`` tricks is the action ``52 + b`` (OpenSpiel's text is just ``"b"``).
- Chance nodes, in order: the number of tricks ``k`` (outcome ``k``, uniform over
  1..(52 - 1) // players, i.e. 1..17 for 3 players); the dealer (outcome = seat, uniform); then
  ``players * k`` cards dealt one per node, the ``i``-th card to player ``i % players`` whoever the
  dealer is (player 0 always gets the first card); then one more card, the turn-up, whose suit is
  trump. Every deal node is uniform over the cards not yet dealt.
- Bidding: the player left of the dealer (``dealer + 1``) bids first, then clockwise; the dealer
  bids last and may not bid ``k - (sum of the other bids)`` (no restriction when that is negative).
  Bids range over 0..k.
- Play: the player left of the dealer leads the first trick; follow the led suit if able, else any
  card; the highest trump wins, else the highest card of the led suit; the winner leads next.
- Returns: with the default parameters, each player's tricks, plus 10 if they took exactly their
  bid. So our points are exactly OpenSpiel's returns (whole numbers). With ``off_bid_penalty`` a
  missed bid scores ``-points_per_trick * |tricks - bid|`` instead.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pyspiel
from openspiel_common import Decision, GAMES_ENV, Plug, Trick, full_parameters, games_from_env, legal_sets_text, loaded_game, replay, split_actions  # noqa: F401

if TYPE_CHECKING:
    import trickrules

ROOT = Path(__file__).resolve().parent.parent
OH_HELL_SPEC = ROOT / "specs" / "oh-hell.yaml"
OH_HELL_OPTIONS: dict[str, Any] = {"hand_size": "random", "dealer": "random", "single_hand": True}
"""Options of specs/oh-hell.yaml for one hand with a random number of tricks and a random dealer,
as OpenSpiel plays it."""

SUITS = ("clubs", "diamonds", "spades", "hearts")
"""Suit names in OpenSpiel's Oh Hell suit order (``action % 4``): C, D, S, H."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names in OpenSpiel's rank order (``action // 4``), lowest first."""

DECK_SIZE = 52
BID_OFFSET = DECK_SIZE
"""OpenSpiel's action for a bid of ``b`` tricks is ``BID_OFFSET + b``."""
MADE_BID_BONUS = 10

NUM_PLAYERS = 3
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 3,
    "num_suits": 4,
    "num_cards_per_suit": 13,
    "num_tricks_fixed": -1,
    "off_bid_penalty": False,
    "points_per_trick": 1,
}
"""OpenSpiel's default parameters of "oh_hell"."""
SUPPORTED_PARAMS = ("players", "num_tricks_fixed", "off_bid_penalty", "points_per_trick")
"""The parameters traces may vary; a smaller deck would change the card encoding."""

Kind = Literal["bid", "play"]


# ---------------------------------------------------------------- cards and bids


def card_id(action: int) -> str:
    """Our id of the card that OpenSpiel encodes as `action` (0..51), e.g. 42 -> ``spades-Q``."""
    if not 0 <= action < DECK_SIZE:
        raise ValueError(f"not an OpenSpiel Oh Hell card: {action!r}")
    return f"{SUITS[action % 4]}-{RANKS[action // 4]}"


def card_action(card: str) -> int:
    """OpenSpiel's action of the card with our id `card`, e.g. ``spades-Q`` -> 42."""
    suit, _, rank = card.partition("-")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def bid_action(bid: int | str) -> int:
    """OpenSpiel's action of a bid of `bid` tricks."""
    return BID_OFFSET + int(bid)


def bid_of(action: int) -> int:
    """The number of tricks bid by OpenSpiel's bid action `action`."""
    if action < BID_OFFSET:
        raise ValueError(f"not an OpenSpiel Oh Hell bid: {action!r}")
    return action - BID_OFFSET


def suit_of(card: str) -> str:
    """The suit of a card id."""
    return card.partition("-")[0]


def rank_of(card: str) -> int:
    """The rank of a card id as 0 (two) .. 12 (ace)."""
    return RANKS.index(card.partition("-")[2])


def max_num_tricks(players: int = NUM_PLAYERS) -> int:
    """The most tricks a hand can have: every player needs k cards and one card is turned up."""
    return (DECK_SIZE - 1) // players


def sorted_legal(kind: str, names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A legal set in the trace's canonical order: bids by number ("2" before "10"), cards by id."""
    if kind == "bid" and all(n.isdigit() for n in names):
        return tuple(sorted(names, key=int))
    return tuple(sorted(names))


# ---------------------------------------------------------------- traces


# A Decision (openspiel_common): bids are numbers as text ("0", "1", ...), cards are card ids;
# `legal` is in the order of `sorted_legal` (bids ascending by number, cards sorted by id).


@dataclass
class OhHellTrace:
    """One hand of Oh Hell as OpenSpiel played it."""

    num_tricks: int
    dealer: int
    hands: list[list[str]]
    """Each player's hand as dealt, in dealing order."""
    turn_up: str
    """The card turned up after the deal; its suit is trump."""
    decisions: list[Decision]
    points: list[int]
    """Each player's points for the hand (OpenSpiel's returns)."""
    seed: int = 0
    params: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    """OpenSpiel's full parameters of the game played."""
    returns: list[float] = field(default_factory=list)
    """OpenSpiel's returns, from which `points` derive."""
    history: list[int] = field(default_factory=list)
    """OpenSpiel's whole action history, chance actions included."""

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def trump(self) -> str:
        return suit_of(self.turn_up)

    @property
    def bids(self) -> list[int]:
        """Each player's bid."""
        bids = [-1] * self.players
        for d in self.decisions:
            if d.kind == "bid":
                bids[d.player] = int(d.chosen)
        return bids


def openspiel_game(params: dict[str, Any] | None = None) -> Any:
    """OpenSpiel's "oh_hell" with `params` over its defaults (cached per parameter set)."""
    full = full_parameters("oh_hell", DEFAULT_PARAMS, params)
    changed = {k for k in full if full[k] != DEFAULT_PARAMS[k]} - set(SUPPORTED_PARAMS)
    if changed:
        raise ValueError(f"traces assume the full 52-card deck; cannot vary {sorted(changed)}")
    return loaded_game(pyspiel.load_game, "oh_hell", full)


def points_from_returns(returns: list[float]) -> list[int]:
    """Points from OpenSpiel's returns, which are the points themselves (always whole numbers)."""
    points = [int(round(r)) for r in returns]
    if any(p != r for p, r in zip(points, returns)):
        raise ValueError(f"OpenSpiel returns are not whole numbers: {returns}")
    return points


def play_openspiel_game(seed: int, params: dict[str, Any] | None = None) -> OhHellTrace:
    """Play one random hand in OpenSpiel and return its trace.

    ``random.Random(seed)`` picks uniformly among the chance outcomes (every OpenSpiel Oh Hell
    chance node is uniform) and among the legal actions at every decision.
    """
    game = openspiel_game(params)
    players = game.num_players()
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance: list[int] = []
    decisions: list[Decision] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.random() * len(outcomes))][0]
            chance.append(action)
            state.apply_action(action)
            continue
        player = state.current_player()
        actions = state.legal_actions()
        action = actions[int(rng.random() * len(actions))]
        if len(decisions) < players:
            legal = sorted_legal("bid", [str(bid_of(a)) for a in actions])
            decisions.append(Decision(player, "bid", legal, str(bid_of(action))))
        else:
            decisions.append(Decision(player, "play", sorted_legal("play", [card_id(a) for a in actions]), card_id(action)))
        state.apply_action(action)
    num_tricks, dealer, *cards = chance
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, action in enumerate(cards[:-1]):
        hands[i % players].append(card_id(action))
    returns = list(state.returns())
    return OhHellTrace(
        num_tricks=num_tricks,
        dealer=dealer,
        hands=hands,
        turn_up=card_id(cards[-1]),
        decisions=decisions,
        points=points_from_returns(returns),
        seed=seed,
        params=dict(game.get_parameters()),
        returns=returns,
        history=list(state.history()),
    )


def openspiel_history(trace: OhHellTrace) -> list[int]:
    """The OpenSpiel action history that `trace` describes, rebuilt from its fields.

    Equal to ``trace.history`` exactly when the trace's reading of the chance nodes (number of
    tricks, dealer, deal order, turn-up) and of the action encoding is right.
    """
    history = [trace.num_tricks, trace.dealer]
    for i in range(trace.num_tricks):
        history += [card_action(hand[i]) for hand in trace.hands]
    history.append(card_action(trace.turn_up))
    for d in trace.decisions:
        history.append(bid_action(d.chosen) if d.kind == "bid" else card_action(d.chosen))
    return history


# ---------------------------------------------------------------- our own reading of the rules


def bidding_order(dealer: int, players: int = NUM_PLAYERS) -> list[int]:
    """Who bids, in order: left of the dealer first, the dealer last."""
    return [(dealer + 1 + i) % players for i in range(players)]


def hooked_bid(num_tricks: int, earlier_bids: list[int]) -> int | None:
    """The bid the last bidder may not make (the one making the bids add up to the tricks)."""
    hooked = num_tricks - sum(earlier_bids)
    return hooked if 0 <= hooked <= num_tricks else None


def expected_bids(num_tricks: int, earlier_bids: list[int], last: bool) -> list[int]:
    """The bids allowed: 0..num_tricks, without the hooked bid for the last bidder."""
    hooked = hooked_bid(num_tricks, earlier_bids) if last else None
    return [b for b in range(num_tricks + 1) if b != hooked]


def expected_plays(hand: list[str], trick: list[str]) -> list[str]:
    """The cards allowed from `hand` with `trick` on the table: follow suit if able, else any."""
    if trick:
        follow = [c for c in hand if suit_of(c) == suit_of(trick[0])]
        if follow:
            return follow
    return list(hand)


def trick_winner(leader: int, cards: list[str] | tuple[str, ...], trump: str, players: int = NUM_PLAYERS) -> int:
    """Who wins a trick led by `leader`: the highest trump, else the highest card of the led suit."""
    led = suit_of(cards[0])
    best_suit = trump if any(suit_of(c) == trump for c in cards) else led
    best = max((i for i, c in enumerate(cards) if suit_of(c) == best_suit), key=lambda i: rank_of(cards[i]))
    return (leader + best) % players


def tricks_of(trace: OhHellTrace, trump: str | None = None) -> list[Trick]:
    """The tricks of a trace's play decisions (under `trump`, else the trace's trump suit)."""
    trump = trace.trump if trump is None else trump
    plays = [d for d in trace.decisions if d.kind == "play"]
    tricks = []
    for start in range(0, len(plays), trace.players):
        group = plays[start : start + trace.players]
        cards = tuple(d.chosen for d in group)
        tricks.append(Trick(group[0].player, cards, trick_winner(group[0].player, cards, trump, trace.players)))
    return tricks


def tricks_won(trace: OhHellTrace) -> list[int]:
    """How many tricks each player took."""
    won = [0] * trace.players
    for trick in tricks_of(trace):
        won[trick.winner] += 1
    return won


def count_points(trace: OhHellTrace) -> list[int]:
    """Each player's points counted from the bids and trick winners, independently of OpenSpiel.

    ``points_per_trick`` per trick taken, plus 10 for taking exactly the bid. With
    ``off_bid_penalty`` a missed bid scores ``-points_per_trick`` per trick over or under instead.
    """
    per_trick = int(trace.params.get("points_per_trick", 1))
    penalty = bool(trace.params.get("off_bid_penalty", False))
    points = []
    for bid, won in zip(trace.bids, tricks_won(trace)):
        if won == bid:
            points.append(per_trick * won + MADE_BID_BONUS)
        elif penalty:
            points.append(-per_trick * abs(won - bid))
        else:
            points.append(per_trick * won)
    return points


def hands_at(trace: OhHellTrace, index: int) -> list[list[str]]:
    """The hands just before decision `index`."""
    hands = [list(h) for h in trace.hands]
    for d in trace.decisions[:index]:
        if d.kind == "play":
            hands[d.player].remove(d.chosen)
    return hands


def check_trace(trace: OhHellTrace) -> list[str]:
    """Where a trace departs from the rules as we read them (empty if nowhere).

    Checks the chance outcomes (number of tricks in range, dealer a seat, hands of that many
    distinct cards, a turn-up card that nobody holds), who decides when, every legal set (bids:
    0..k with the dealer's hook; plays: `expected_plays` from the tracked hands), the trick winners
    with trump (through who leads next), and that OpenSpiel's points equal `count_points`.
    """
    where = f"seed {trace.seed}"
    players, k = trace.players, trace.num_tricks
    if players != int(trace.params.get("players", NUM_PLAYERS)):
        return [f"{where}: {players} hands for {trace.params.get('players')} players"]
    fixed = int(trace.params.get("num_tricks_fixed", -1))
    if not 1 <= k <= max_num_tricks(players) or (fixed > 0 and k != fixed):
        return [f"{where}: {k} tricks is out of range (fixed {fixed}, most {max_num_tricks(players)})"]
    if not 0 <= trace.dealer < players:
        return [f"{where}: dealer {trace.dealer} is no seat"]
    dealt = [c for h in trace.hands for c in h] + [trace.turn_up]
    if any(len(h) != k for h in trace.hands) or len(set(dealt)) != len(dealt):
        return [f"{where}: the deal is not {players} hands of {k} distinct cards and a turn-up: {trace.hands}"]
    kinds = [d.kind for d in trace.decisions]
    if kinds != ["bid"] * players + ["play"] * (players * k):
        return [f"{where}: expected {players} bids then {players * k} plays, got {kinds}"]
    bids: list[int] = []
    for i, (d, player) in enumerate(zip(trace.decisions, bidding_order(trace.dealer, players))):
        legal = tuple(str(b) for b in expected_bids(k, bids, last=i == players - 1))
        if (d.player, d.legal) != (player, legal) or d.chosen not in d.legal:
            return [f"{where}, decision {i}: bid by {d.player} from {d.legal}; expected player {player} from {legal}"]
        bids.append(int(d.chosen))
    hands = [list(h) for h in trace.hands]
    player = leader = (trace.dealer + 1) % players
    trick: list[str] = []
    for i, d in enumerate(trace.decisions[players:], players):
        legal = sorted_legal("play", expected_plays(hands[player], trick))
        if (d.player, d.legal) != (player, legal) or d.chosen not in d.legal:
            return [f"{where}, decision {i}: play by {d.player} from {d.legal}; expected player {player} from {legal}"]
        hands[player].remove(d.chosen)
        trick.append(d.chosen)
        if len(trick) == players:
            player = leader = trick_winner(leader, trick, trace.trump, players)
            trick = []
        else:
            player = (player + 1) % players
    counted = count_points(trace)
    if trace.points != counted:
        return [f"{where}: OpenSpiel's points {trace.points} (returns {trace.returns}) but counted {counted}"]
    return []


# ---------------------------------------------------------------- trickrules side


def load_trickrules_oh_hell(spec: str | os.PathLike[str] = OH_HELL_SPEC) -> trickrules.Game:
    """Our Oh Hell for one hand, 3 players, random number of tricks and dealer, as OpenSpiel plays it."""
    import trickrules

    return trickrules.load_game(spec, players=NUM_PLAYERS, options=OH_HELL_OPTIONS)


def deal_of(trace: OhHellTrace) -> dict[str, Any]:
    """The trace's chance outcomes as a trickrules deal (the number of tricks is the hand length)."""
    return {"hands": [list(h) for h in trace.hands], "dealer": trace.dealer, "turn_up": trace.turn_up}



def _split(texts: list[str]) -> tuple[set[str], tuple[str, ...]]:
    """The verbs and the canonically ordered objects of action strings (``bid 2``, ``play hearts-10``)."""
    verbs, names = split_actions(texts, order=tuple)
    return verbs, sorted_legal(next(iter(verbs)) if len(verbs) == 1 else "", names)


def _sets(ours: tuple[str, ...], theirs: tuple[str, ...]) -> str:
    return legal_sets_text(ours, theirs, order=lambda names: tuple(sorted_legal("bid", sorted(names))))


def _bids_so_far(trace: OhHellTrace, index: int) -> str:
    return f", bids so far {[int(e.chosen) for e in trace.decisions[:index] if e.kind == 'bid']}"


def _points_differ(trace: OhHellTrace, points: list[int]) -> str | None:
    if points == trace.points:
        return None
    return f"points differ: openspiel {trace.points}, trickrules {points} (bids {trace.bids}, tricks won {tricks_won(trace)})"


PLUG = Plug(
    where=lambda trace: f"seed {trace.seed} ({trace.num_tricks} tricks, dealer {trace.dealer}, turn-up {trace.turn_up})",
    deal=deal_of,
    points_differ=_points_differ,
    names=_split,
    sets=_sets,
    so_far=_bids_so_far,
    refusals=(ValueError,),  # trickrules' IllegalActionError is a ValueError
    deal_refusals=(ValueError,),  # trickrules' DealError is a ValueError
)
"""Oh Hell in the replay harness: bids in number order, cards by id, the bids so far in every
decision's message, the points compared."""


def replay_in_trickrules(trace: OhHellTrace, game: trickrules.Game | Any) -> list[str]:
    """Replay `trace` in a trickrules game and describe the first place the engines disagree.

    `game` is a `trickrules.Game`, or anything with the same API (the tests use a stand-in).

    Deals ``trace.hands`` with ``trace.dealer`` and ``trace.turn_up``, then for each decision
    compares the current player, the kind of decision (``bid``/``play``) and the legal bids or
    cards, and applies the one OpenSpiel chose; at the end compares terminality and the points
    (`openspiel_common.replay` with `PLUG`).
    """
    return replay(trace, game, PLUG)
