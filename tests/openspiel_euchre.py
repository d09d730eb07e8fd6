"""OpenSpiel's Euchre as a reference: random traces from pyspiel, and their replay in trickrules.

A trace is one hand of Euchre played by OpenSpiel (``pyspiel.load_game("euchre")``) with random
chance outcomes and random decisions: the dealer, the four hands as dealt, the up card, every
decision (who decided, what kind of decision, the legal choices, the one chosen) and OpenSpiel's
returns. `replay_in_trickrules` (tests/openspiel_euchre_reading.py, with our own reading of the
rules) plays the same hand in a trickrules game and lists where the two engines disagree,
decision by decision.

OpenSpiel's encoding, in our words (read from pyspiel and open_spiel/games/euchre/euchre.cc):

- A card is the action ``rank * 4 + suit``, ranks 9, 10, J, Q, K, A as 0..5 and suits in the order
  clubs, diamonds, hearts, spades ("CDHS"): 0 is ``clubs-9``, 3 is ``spades-9``, 8 is ``clubs-J``,
  10 is ``hearts-J``, 23 is ``spades-A`` (OpenSpiel's text: suit letter first, "HJ", "T" for ten).
- 24 is Pass; 25, 26, 27, 28 name clubs, diamonds, hearts, spades as trumps (text "Clubs" ..
  "Spades"; in the first round the only suit offered is the up card's, i.e. ordering it up);
  29 is Alone, 30 Partner. The dealer's discard is a card action, like a play.
- Chance nodes, in order: the dealer (outcome = seat, uniform over 0..3); 20 deal nodes, the
  ``k``-th card (k = 0..19) to player ``(dealer + k) % 4``, so the dealer gets the first card;
  then the up card. Every deal node is uniform over the cards not yet dealt. Three cards stay
  undealt (OpenSpiel never shows them).
- Bidding, round 1: from the left of the dealer (``dealer + 1``), each of the four players passes
  or orders up (names the up card's suit). Round 2, after four passes: the same order, pass or
  name one of the three other suits (never the up card's). With ``stick_the_dealer`` (default) the
  dealer, eighth to speak, may not pass; without it, eight passes end the hand at once with
  returns of 0 for everyone.
- After an order-up in round 1 the dealer takes the up card and discards one of the five cards
  they were dealt: never the up card itself. After a suit named in round 2 there is no discard.
- Then the declarer (the player who named trumps) chooses Alone or Partner; the discard comes
  first, even when the dealer is the partner who will sit out. A lone declarer's partner sits
  out: tricks have three cards and the rotation skips them. With ``allow_lone_defender`` (not
  the default) the defenders then choose Alone or Partner too, the one nearer the dealer's left
  first and the other only if the first chose Partner; a lone defender's partner sits out too.
- Play: the player left of the dealer leads, or the next one if that player sits out. Follow the
  led suit if able, else play any card. The jack of the trump suit (right bower) and the other
  jack of the same colour (left bower) are the highest trumps, then A K Q 10 9; the left bower
  belongs to the trump suit, for following (it must follow a trump lead; it does not follow its
  printed suit) and for winning; other suits rank A K Q J 10 9. The highest trump wins, else the
  highest card of the led suit; the winner leads next.
- Scoring, for the makers (declarer and partner) by the tricks they took together: 3 or 4 score 1;
  all 5 score 2, or 4 if the declarer went alone; 0..2 (euchred) score -2, or -4 if a defender
  went alone. Returns are zero-sum: the makers get the score, the defenders its negative.

Our standard scoring gives points only to the side that scores (makers 1, 2 or 4; defenders 2 for
a euchre), the same to both partners. The two meet through the zero-sum relation: OpenSpiel's
return of player ``p`` is ``ours[p] - ours[p + 1]`` (``p + 1`` is an opponent), and ours are
``max(0, return)``; `replay_in_trickrules` checks both (see `openspiel_returns` and
`standard_points`).

A decision's legal set and choice are in our words, sorted as plain strings: ``pass`` and
``trumps hearts`` (kind ``bid``), ``discard clubs-9`` (kind ``discard``), ``alone`` and
``partner`` (kind ``alone``), and bare card ids such as ``hearts-10`` for plays (kind ``play``,
as in the Spades and Oh Hell traces). So every name is trickrules' action string, except that a
play's lacks its ``play`` verb (`action_text` restores it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pyspiel
from openspiel_common import Decision, GAMES_ENV, full_parameters, games_from_env, loaded_game  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
EUCHRE_SPEC = ROOT / "specs" / "euchre.yaml"
EUCHRE_OPTIONS: dict[str, Any] = {"dealer": "random", "single_hand": True}
"""Options of specs/euchre.yaml for one hand with a random dealer, as OpenSpiel plays it."""
NO_STICK_OPTIONS: dict[str, Any] = {**EUCHRE_OPTIONS, "stick_the_dealer": False}
"""The same without stick-the-dealer (OpenSpiel's ``stick_the_dealer=false``)."""


SUITS = ("clubs", "diamonds", "hearts", "spades")
"""Suit names in OpenSpiel's Euchre suit order (``action % 4``): C, D, H, S."""
RANKS = ("9", "10", "J", "Q", "K", "A")
"""Rank names in OpenSpiel's rank order (``action // 4``), lowest first."""
SAME_COLOUR = {"clubs": "spades", "spades": "clubs", "diamonds": "hearts", "hearts": "diamonds"}
TRUMP_RANKS = ("9", "10", "Q", "K", "A")
"""The trumps below the bowers, lowest first."""

NUM_PLAYERS = 4
HAND_SIZE = 5
NUM_TRICKS = 5
NUM_CARDS = 24
PASS_ACTION = 24
TRUMP_ACTION_BASE = 25
"""OpenSpiel's action naming ``SUITS[i]`` as trumps is ``25 + i``."""
ALONE_ACTION = 29
PARTNER_ACTION = 30

PASS = "pass"
ALONE = "alone"
PARTNER = "partner"

HESITANT_PASS_RATE = 0.8
"""`crosscheck_trace` passes with this chance when it may, in every fourth hand (seed % 4 == 1)."""
PASS_RATES: dict[int, float] = {1: HESITANT_PASS_RATE, 3: 1.0}
"""Pass rates by ``seed % 4`` in `crosscheck_trace`: uniform random bids order up in 15 hands of
16, so the second round is rare and a stuck dealer rarer still; these hands reach them."""

DEFAULT_PARAMS: dict[str, Any] = {"allow_lone_defender": False, "stick_the_dealer": True}
"""OpenSpiel's default parameters of "euchre"."""

Kind = Literal["bid", "discard", "alone", "play"]
KIND_OF_VERB: dict[str, Kind] = {
    "pass": "bid",
    "trumps": "bid",
    "discard": "discard",
    "alone": "alone",
    "partner": "alone",
    "play": "play",
}
"""The kind of decision of each verb of our action strings."""


# ---------------------------------------------------------------- cards and actions


def card_id(action: int) -> str:
    """Our id of the card that OpenSpiel encodes as `action` (0..23), e.g. 10 -> ``hearts-J``."""
    if not 0 <= action < NUM_CARDS:
        raise ValueError(f"not an OpenSpiel Euchre card: {action!r}")
    return f"{SUITS[action % 4]}-{RANKS[action // 4]}"


def card_action(card: str) -> int:
    """OpenSpiel's action of the card with our id `card`, e.g. ``hearts-J`` -> 10."""
    suit, _, rank = card.partition("-")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def suit_of(card: str) -> str:
    """The printed suit of a card id."""
    return card.partition("-")[0]


def rank_name(card: str) -> str:
    """The rank of a card id: ``9``, ``10``, ``J``, ``Q``, ``K`` or ``A``."""
    return card.partition("-")[2]


def trumps(suit: str) -> str:
    """Our name of the bid naming `suit` as trumps, e.g. ``trumps hearts``."""
    if suit not in SUITS:
        raise ValueError(f"not a suit: {suit!r}")
    return f"trumps {suit}"


def discard(card: str) -> str:
    """Our name of the dealer's discard of `card`, e.g. ``discard clubs-9``."""
    return f"discard {card}"


def action_name(action: int, *, discarding: bool = False) -> tuple[Kind, str]:
    """The kind and our name of one of OpenSpiel's non-chance actions.

    A card action is a discard when `discarding` (the dealer's decision right after an order-up),
    else a play.
    """
    if action < NUM_CARDS:
        return ("discard", discard(card_id(action))) if discarding else ("play", card_id(action))
    if action == PASS_ACTION:
        return "bid", PASS
    if TRUMP_ACTION_BASE <= action < TRUMP_ACTION_BASE + 4:
        return "bid", trumps(SUITS[action - TRUMP_ACTION_BASE])
    if action == ALONE_ACTION:
        return "alone", ALONE
    if action == PARTNER_ACTION:
        return "alone", PARTNER
    raise ValueError(f"not an OpenSpiel Euchre action: {action!r}")


def name_action(name: str) -> int:
    """OpenSpiel's action of one of our decision names (the inverse of `action_name`)."""
    verb, _, rest = name.partition(" ")
    if name == PASS:
        return PASS_ACTION
    if verb == "trumps":
        return TRUMP_ACTION_BASE + SUITS.index(rest)
    if name == ALONE:
        return ALONE_ACTION
    if name == PARTNER:
        return PARTNER_ACTION
    if verb == "discard":
        return card_action(rest)
    return card_action(name)


def action_text(kind: Kind | str, name: str) -> str:
    """trickrules' action string of a decision name: ``play hearts-10`` for a play, else the name."""
    return f"play {name}" if kind == "play" else name


def partner(player: int) -> int:
    return (player + 2) % NUM_PLAYERS


# ---------------------------------------------------------------- scores and returns


def openspiel_returns(points: Sequence[int]) -> list[int]:
    """OpenSpiel's zero-sum returns from standard points: ``points[p] - points[p + 1]`` for each `p`."""
    return [points[p] - points[(p + 1) % NUM_PLAYERS] for p in range(NUM_PLAYERS)]


def standard_points(returns: Sequence[int]) -> list[int]:
    """Our standard points from OpenSpiel's returns: only the scoring side scores, ``max(0, return)``."""
    return [max(0, int(r)) for r in returns]


def makers_score(makers_tricks: int, *, alone: bool, lone_defender: bool) -> int:
    """The makers' score in OpenSpiel: 1 for 3 or 4 tricks, 2 for 5 (4 alone), -2 for 0..2 (-4 if a defender went alone)."""
    if not 0 <= makers_tricks <= NUM_TRICKS:
        raise ValueError(f"not a number of tricks: {makers_tricks!r}")
    if makers_tricks <= 2:
        return -4 if lone_defender else -2
    if makers_tricks < NUM_TRICKS:
        return 1
    return 4 if alone else 2


# ---------------------------------------------------------------- traces


@dataclass(frozen=True)
class Trick:
    """One trick: the players in playing order (three when someone sits out), their cards, the winner."""

    players: tuple[int, ...]
    cards: tuple[str, ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.players[0]


@dataclass
class EuchreTrace:
    """One hand of Euchre as OpenSpiel played it."""

    dealer: int
    hands: list[list[str]]
    """Each player's hand as dealt (before any order-up), by seat, in dealing order."""
    turn_up: str
    """The up card."""
    decisions: list[Decision]
    returns: list[int]
    """OpenSpiel's returns (whole numbers, zero-sum)."""
    seed: int = 0
    params: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_PARAMS))
    """OpenSpiel's full parameters of the game played."""
    history: list[int] = field(default_factory=list)
    """OpenSpiel's whole action history, chance actions included."""
    pass_rate: float | None = None
    """The chance that the random bidders passed when they could, if not uniform over the legal bids."""

    @property
    def up_suit(self) -> str:
        return suit_of(self.turn_up)

    @property
    def bids(self) -> list[Decision]:
        return [d for d in self.decisions if d.kind == "bid"]

    @property
    def declarer(self) -> int | None:
        """The player who named trumps (None if everyone passed)."""
        return next((d.player for d in self.bids if d.chosen != PASS), None)

    @property
    def trump(self) -> str | None:
        """The trump suit (None if everyone passed)."""
        return next((d.chosen.partition(" ")[2] for d in self.bids if d.chosen != PASS), None)

    @property
    def ordered_up(self) -> bool:
        """Whether trumps were named in the first round (the up card ordered up)."""
        return self.trump is not None and len(self.bids) <= NUM_PLAYERS

    @property
    def alone(self) -> bool:
        """Whether the declarer went alone."""
        return any(d.kind == "alone" and d.player == self.declarer and d.chosen == ALONE for d in self.decisions)

    @property
    def lone_defender(self) -> int | None:
        """The defender who went alone (only with ``allow_lone_defender``), if any."""
        lone = (d.player for d in self.decisions if d.kind == "alone" and d.chosen == ALONE)
        return next((p for p in lone if p != self.declarer), None)

    @property
    def sitting_out(self) -> set[int]:
        """The partners of lone players."""
        lone = [d.player for d in self.decisions if d.kind == "alone" and d.chosen == ALONE]
        return {partner(p) for p in lone}

    @property
    def makers(self) -> tuple[int, int] | None:
        declarer = self.declarer
        return None if declarer is None else (declarer, partner(declarer))

    @property
    def points(self) -> list[int]:
        """Our standard points for the hand (see `standard_points`)."""
        return standard_points(self.returns)


def openspiel_game(params: dict[str, Any] | None = None) -> Any:
    """OpenSpiel's "euchre" with `params` over its defaults (cached per parameter set)."""
    full = full_parameters("euchre", DEFAULT_PARAMS, params)
    return loaded_game(pyspiel.load_game, "euchre", full)


def whole_returns(returns: Sequence[float]) -> list[int]:
    """OpenSpiel's returns as whole numbers (they always are)."""
    whole = [int(round(r)) for r in returns]
    if any(w != r for w, r in zip(whole, returns)):
        raise ValueError(f"OpenSpiel returns are not whole numbers: {list(returns)}")
    return whole


def dealing_position(dealer: int, player: int, index: int) -> int:
    """Which deal node (0..19) gives `player` their `index`-th card: ``4 * index + (player - dealer) % 4``."""
    return NUM_PLAYERS * index + (player - dealer) % NUM_PLAYERS


def play_openspiel_game(
    seed: int,
    params: dict[str, Any] | None = None,
    *,
    pass_rate: float | None = None,
    deal: dict[str, Any] | None = None,
    script: Sequence[str] = (),
) -> EuchreTrace:
    """Play one hand in OpenSpiel and return its trace.

    ``random.Random(seed)`` picks uniformly among the chance outcomes (every Euchre chance node is
    uniform) and among the legal actions at every decision. With `pass_rate`, a bidder who may
    pass does so with that chance, else names a suit uniformly at random (the legal sets recorded
    are OpenSpiel's). `deal` fixes the chance outcomes (``dealer``, ``hands`` by seat, ``turn_up``)
    and `script` the first decisions (our names, e.g. ``trumps hearts``, ``discard clubs-9``,
    ``alone``, ``hearts-A``); a scripted name that is not legal raises ValueError.
    """
    game = openspiel_game(params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance: list[int] = []
    decisions: list[Decision] = []
    while not state.is_terminal():
        if state.is_chance_node():
            if deal is not None:
                n = len(chance)
                if n == 0:
                    action = deal["dealer"]
                elif n <= NUM_PLAYERS * HAND_SIZE:
                    k = n - 1
                    action = card_action(deal["hands"][(deal["dealer"] + k) % NUM_PLAYERS][k // NUM_PLAYERS])
                else:
                    action = card_action(deal["turn_up"])
            else:
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.random() * len(outcomes))][0]
            chance.append(action)
            state.apply_action(action)
            continue
        player = state.current_player()
        actions = state.legal_actions()
        # A card decision right after a bid is the dealer's discard (after a round-2 bid the
        # declarer decides Alone or Partner; after a discard too).
        discarding = actions[0] < NUM_CARDS and bool(decisions) and decisions[-1].kind == "bid"
        named = {action_name(a, discarding=discarding)[1]: a for a in actions}
        kind = action_name(actions[0], discarding=discarding)[0]
        if len(decisions) < len(script):
            wanted = script[len(decisions)]
            if wanted not in named:
                raise ValueError(f"scripted decision {len(decisions)} {wanted!r} is not among {sorted(named)}")
            action = named[wanted]
        elif pass_rate is not None and PASS_ACTION in actions and len(actions) > 1:
            others = [a for a in actions if a != PASS_ACTION]
            action = PASS_ACTION if rng.random() < pass_rate else others[int(rng.random() * len(others))]
        else:
            action = actions[int(rng.random() * len(actions))]
        decisions.append(Decision(player, kind, tuple(sorted(named)), action_name(action, discarding=discarding)[1]))
        state.apply_action(action)
    dealer, *cards = chance
    hands: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    for k, action in enumerate(cards[:-1]):
        hands[(dealer + k) % NUM_PLAYERS].append(card_id(action))
    return EuchreTrace(
        dealer=dealer,
        hands=hands,
        turn_up=card_id(cards[-1]),
        decisions=decisions,
        returns=whole_returns(state.returns()),
        seed=seed,
        params=dict(game.get_parameters()),
        history=list(state.history()),
        pass_rate=pass_rate,
    )


def crosscheck_trace(seed: int, params: dict[str, Any] | None = None) -> EuchreTrace:
    """The cross-check's hand of `seed`: random, with bidders passing more often when ``seed % 4`` is 1 or 3.

    Seeds 4k+1 pass with chance `HESITANT_PASS_RATE` when they may (the second round comes up in
    about four hands of ten); seeds 4k+3 always pass when they may, so the dealer is stuck (or,
    without stick-the-dealer, the hand is thrown in). The others bid uniformly at random.
    """
    return play_openspiel_game(seed, params, pass_rate=PASS_RATES.get(seed % 4))


def openspiel_history(trace: EuchreTrace) -> list[int]:
    """The OpenSpiel action history that `trace` describes, rebuilt from its fields.

    Equal to ``trace.history`` exactly when the trace's reading of the chance nodes (dealer, deal
    order, up card) and of the action encoding is right.
    """
    history = [trace.dealer]
    for k in range(NUM_PLAYERS * HAND_SIZE):
        history.append(card_action(trace.hands[(trace.dealer + k) % NUM_PLAYERS][k // NUM_PLAYERS]))
    history.append(card_action(trace.turn_up))
    return history + [name_action(d.chosen) for d in trace.decisions]
