"""Measures: the per-player quantities of a round, and those read from the cards a player was
dealt, held or won (counts of matching cards, runs from the top, card points less a share per
card).

A plain measure (`Measure` without `holding`) is taken by `trickrules.rules.scoring`; a measure
with a `Holding` is taken at scoring from the cards the holding names (`holding_value`), once
the round is over: a measure of another player's dealt cards is never read mid-round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from trickrules.rules.ruleset import CardCondition


@dataclass(frozen=True)
class Meld:
    """A pattern of cards a hand holds, counted as how many times it is held (copies count).

    `ranks` (each entry the rank numbers a name stands for): the ranks held together in one suit
    (a marriage K Q, a run A 10 K Q J), counted in each suit of `suits` (None: every suit;
    `trump`: the round's trump suits) and summed; with `across`, one suit's worth in every suit
    of `suits` (aces around), counted as the fewest any suit holds. `cards` (each entry every
    copy of one card): the cards held together (Pinochle's queen of spades and jack of diamonds),
    counted as the fewest held of any of them. `sequence` (shortest, longest; longest 0: no
    limit): the runs of ranks in a row (by rank number) held in one suit, each run as long as it
    goes, counted when its length is in those bounds (Belote's tierce 3-3, quarte 4-4, quinte
    5-0). With `times`, the count is divided by it, rounded down (2: the doubled melds that
    score apart).

    `best` (tiers of named melds, strongest tier first) compares declarations instead of
    counting one: its value is 0 when the hand holds none of the melds, else a packed key of
    its best one (`best_key`): the strongest tier held, then the best held meld's top rank,
    then whether it is in trumps. Higher keys are better declarations.
    """

    ranks: tuple[frozenset[int], ...] = ()
    suits: tuple[int, ...] | None = None
    trump: bool = False
    across: bool = False
    cards: tuple[tuple[int, ...], ...] = ()
    times: int = 1  # the pattern counts once for each `times` it is held (2: a double run, double aces)
    sequence: tuple[int, int] = (0, 0)  # (shortest, longest; 0: no limit): runs of ranks in a row
    best: tuple[tuple[tuple[str, Meld], ...], ...] = ()  # tiers of (measure name, meld), strongest first


@dataclass(frozen=True)
class MeldShowing:
    """A show_melds step's rules: the meld measures laid on the table before play
    (`measures`, in order; None: every meld measure not announced as played), and those each
    player announces as it plays the first card of one (`as_played`: Belote's belote-rebelote)."""

    measures: tuple[str, ...] | None = None
    as_played: tuple[str, ...] = ()


def meld_count(meld: Meld, cards: Sequence[int], suit_of: Sequence[int], rank_of: Sequence[int],
               trumps: frozenset[int], suits: int) -> int:
    """How many times `cards` hold `meld` (`suit_of`, `rank_of`: each card's counting face);
    for a comparison of melds (`Meld.best`), the key of the best one held (`best_key`)."""
    if meld.best:
        return best_key(meld.best, cards, suit_of, rank_of, trumps, suits)
    return _held(meld, cards, suit_of, rank_of, trumps, suits) // meld.times


def best_key(tiers: tuple[tuple[tuple[str, Meld], ...], ...], cards: Sequence[int], suit_of: Sequence[int],
             rank_of: Sequence[int], trumps: frozenset[int], suits: int) -> int:
    """The key of the best meld `cards` hold among `tiers` (strongest tier first), packed into
    one integer: its tier counted from the weakest (1) times 2 * (ranks + 1), plus its
    `meld_top`; 0 when none is held. Within a tier the best meld is the one with the highest
    top rank, then one in trumps (`meld_top`)."""
    ranks = max(rank_of, default=0) + 1
    for place, tier in enumerate(tiers):
        top = max((meld_top(meld, cards, suit_of, rank_of, trumps, suits) for _, meld in tier), default=0)
        if top:
            return (len(tiers) - place) * (ranks + 1) * 2 + top
    return 0


def meld_top(meld: Meld, cards: Sequence[int], suit_of: Sequence[int], rank_of: Sequence[int],
             trumps: frozenset[int], suits: int) -> int:
    """The best time `cards` hold `meld`, as (its top rank + 1) * 2 + 1 if it lies in a trump
    suit (a run or ranks in one suit; never for melds across suits or of given cards); 0 when
    it is not held."""
    if not meld_count(meld, cards, suit_of, rank_of, trumps, suits):
        return 0
    if meld.sequence[0]:
        return max((rank_of[run[-1]] + 1) * 2 + (suit in trumps)
                   for suit in _places(meld, trumps, suits) for run in _runs(meld, [c for c in cards if suit_of[c] == suit], rank_of))
    shown = meld_cards(meld, cards, suit_of, rank_of, trumps, suits)
    if meld.ranks and not meld.across:  # in one suit: the best suit holding it
        return max((max(rank_of[c] for c in shown if suit_of[c] == suit) + 1) * 2 + (suit in trumps)
                   for suit in {suit_of[c] for c in shown})
    return (max(rank_of[card] for card in shown) + 1) * 2


def _runs(meld: Meld, in_suit: Sequence[int], rank_of: Sequence[int]) -> list[list[int]]:
    """The runs of ranks in a row among `in_suit` (one card of each rank, the first held) whose
    length `meld.sequence` counts, longest runs first in rank order."""
    by_rank: dict[int, int] = {}
    for card in in_suit:
        by_rank.setdefault(rank_of[card], card)
    shortest, longest = meld.sequence
    runs: list[list[int]] = []
    run: list[int] = []
    for rank in sorted(by_rank):
        if run and rank != rank_of[run[-1]] + 1:
            runs.append(run)
            run = []
        run.append(by_rank[rank])
    if run:
        runs.append(run)
    return [r for r in runs if len(r) >= shortest and (not longest or len(r) <= longest)]


def _places(meld: Meld, trumps: frozenset[int], suits: int) -> Sequence[int]:
    if meld.trump:
        return sorted(trumps)
    return meld.suits if meld.suits is not None else range(suits)


def _held(meld: Meld, cards: Sequence[int], suit_of: Sequence[int], rank_of: Sequence[int],
          trumps: frozenset[int], suits: int) -> int:
    if meld.sequence[0]:
        return sum(len(_runs(meld, [c for c in cards if suit_of[c] == suit], rank_of)) for suit in _places(meld, trumps, suits))
    if meld.cards:
        held = set(cards)
        return min(sum(1 for card in cards if card in copies) for copies in meld.cards) if held else 0
    if meld.trump:
        places: Sequence[int] = sorted(trumps)
    else:
        places = meld.suits if meld.suits is not None else range(suits)
    per_suit = []
    for suit in places:
        in_suit = [rank_of[card] for card in cards if suit_of[card] == suit]
        per_suit.append(min((sum(1 for rank in in_suit if rank in ranks) for ranks in meld.ranks), default=0))
    if meld.across:
        return min(per_suit, default=0)
    return sum(per_suit)


def meld_cards(meld: Meld, cards: Sequence[int], suit_of: Sequence[int], rank_of: Sequence[int],
               trumps: frozenset[int], suits: int) -> tuple[int, ...]:
    """The cards of `cards` that make up the times `meld` is counted (`meld_count`), as shown
    to the table: for each time, one card of each rank (or card) of the pattern, the first
    held in hand order; nothing when it is not held."""
    count = meld_count(meld, cards, suit_of, rank_of, trumps, suits) * meld.times
    if not count:
        return ()
    if meld.cards:
        return tuple(c for copies in meld.cards for c in [card for card in cards if card in copies][:count])
    if meld.sequence[0]:
        runs = [run for suit in _places(meld, trumps, suits) for run in _runs(meld, [c for c in cards if suit_of[c] == suit], rank_of)]
        return tuple(card for run in runs[:count] for card in run)
    if meld.trump:
        places: Sequence[int] = sorted(trumps)
    else:
        places = meld.suits if meld.suits is not None else range(suits)
    shown: list[int] = []
    left = count  # sets still to show (across: each suit shows `count` sets)
    for suit in places:
        in_suit = [card for card in cards if suit_of[card] == suit]
        sets = min((sum(1 for card in in_suit if rank_of[card] in ranks) for ranks in meld.ranks), default=0)
        take = count if meld.across else min(sets, left)
        if not meld.across:
            left -= take
        for ranks in meld.ranks:
            shown += [card for card in in_suit if rank_of[card] in ranks][:take]
    return tuple(dict.fromkeys(shown))


@dataclass(frozen=True)
class Holding:
    """Which cards a measure reads, and how it counts them.

    of: ``won`` (the player's won cards), ``dealt`` (its hand at the deal, before any passing,
    taking or discarding), ``held`` (the hand it played the round with: its cards at scoring
    and those it played to tricks), ``last_trick`` (the last cards the winner of the round's
    last trick took, as many as a trick holds: the trick's cards, or, when set-aside cards
    were won with it, those after the trick's last cards) or ``left`` (the set-aside cards no one took, read for the declarer). `matching`: the cards counted (a count) or ordered by the
    round's ranking (a run without `order`); `order`: a run's cards by index, top first.
    `counting` (a run): ``either`` (the run of the top card's kind, held or missing), ``with``
    (held from the top; 0 if the top card is missing) or ``without`` (missing from the top; 0
    if it is held). `per`: ``team`` reads the cards of the player's whole team (the value goes
    to the team's first seat, where a team's points are written; its other seats read 0).
    `set_aside`: the cards dealt to no one count among the declarer's. `less`: a share taken
    off per card, (numerator, denominator), the result rounded half away from zero.
    """

    of: Literal["won", "dealt", "held", "last_trick", "left"] = "won"
    matching: CardCondition | None = None
    order: tuple[int, ...] | None = None
    counting: Literal["either", "with", "without"] = "either"
    per: Literal["player", "team"] = "player"
    set_aside: bool = False
    less: tuple[int, int] = (0, 1)
    meld: Meld | None = None


@dataclass(frozen=True)
class Measure:
    """A per-player quantity at the end of a round.

    kind: ``sum_attribute`` (of `attribute` over won cards), ``tricks``, ``cards``,
    ``tableau`` (sum of section scores), ``tokens`` (of token kind `token`), ``count`` (of the
    cards `holding` matches), ``run`` (from the top, see `Holding`). With a `holding`, the cards
    read are the holding's (`holding_value`).
    """

    name: str
    kind: Literal["sum_attribute", "tricks", "cards", "tableau", "tokens", "count", "run", "called", "meld"]
    attribute: int | None = None
    token: int | None = None
    holding: Holding | None = None


def round_half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to the nearest integer, a half away from zero."""
    magnitude = (2 * abs(numerator) + denominator) // (2 * denominator)
    return magnitude if numerator >= 0 else -magnitude


def less_per_card(total: int, cards: int, less: tuple[int, int]) -> int:
    """`total` less `less` (numerator, denominator) per card, rounded half away from zero:
    round(total - cards * numerator / denominator)."""
    numerator, denominator = less
    return round_half_away(total * denominator - cards * numerator, denominator)


def run_length(order: Sequence[int], cards: Sequence[int], counting: str) -> int:
    """How many of `order` (top first) in a row from the top are in `cards` (``with``) or not
    (``without``); ``either``: the run of whichever the top card is."""
    if not order:
        return 0
    have = set(cards)
    top_held = order[0] in have
    if (counting == "with" and not top_held) or (counting == "without" and top_held):
        return 0
    length = 0
    for card in order:
        if (card in have) != top_held:
            break
        length += 1
    return length


def holding_value(
    measure: Measure,
    cards: Sequence[int],
    matches: Callable[[int], bool],
    order: Sequence[int],
    attribute: Sequence[int] | None,
) -> int:
    """A measure with a holding, over `cards` (the cards the holding reads): `matches` tells a
    card the holding's condition matches, `order` is a run's cards top first, `attribute` the
    summed attribute's values by card."""
    holding = measure.holding
    assert holding is not None
    if measure.kind == "run":
        return run_length(order, cards, holding.counting)
    if measure.kind in ("count", "called"):
        return sum(map(matches, cards))
    if measure.kind == "cards":
        return len(cards)
    assert attribute is not None
    return less_per_card(sum(map(attribute.__getitem__, cards)), len(cards), holding.less)
