"""Resampling a state from what one player knows (OpenSpiel's ``ResampleFromInfostate``).

A player sees its own hand, every card played this round, the turned-up card, the cards it
passed and received, and its own discards and buried cards. Everything else (the other hands,
the cards not dealt, a discard or burial it did not see, the cards others are passing) is hidden. `resample` deals the
hidden cards again at random, each hidden place keeping its size, under what the player can
tell from play:

- a player who followed the led group with a card the follow rules would not have allowed
  beside some card holds no such card (asked of the game's own follow rules, card by card:
  `Constraints`), e.g. no card of a led suit it did not follow;
- a card the player passed is in the receiver's hand until played;
- a turned-up card taken into a hand is in that hand (or among the taker's discards, where
  the rules let it be discarded);
- cards taken from a set-aside pile shown to everyone are in the taker's hand or among its
  buried cards; what is left of such a pile stays where it is;
- the cards of melds shown to the table stay in their owner's hand until played.

Bids, scores, tricks, the phase and the player to move stay; the hands as dealt (`State.dealt`,
which measures of dealt cards read) are the sample's: the hidden cards renamed as they were
dealt again. Every deal consistent with those
constraints can come out (hidden cards are placed most constrained first, each in a place
with room drawn in proportion to the room left, retrying on a dead end; after a few dead ends
a randomised matching finds a consistent deal). The constraints do not read the play
restrictions (e.g. a leader who led a suit not yet allowed holds nothing else), so a sample
may hold a card a perfect reasoner would rule out, never the other way round.

The sample is a new state: its future rounds are shuffled from a new seed drawn from `rng`, it
keeps no event log, and its `history` is the game's own (hidden actions in it are not
rewritten; nothing in play reads it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trickrules.engine import partners
from trickrules.engine.phases import call, discard, pass_cards, show_melds, take, turn_up

if TYPE_CHECKING:
    from trickrules.engine.state import State

_TRIES = 20
"""Dead ends accepted before the randomised matching places the cards."""


@dataclass(frozen=True)
class Constraints:
    """What one player knows of the hidden cards of a state, worked out once and dealt often.

    `places` names the hidden places (``("hand", p)``, ``("stock", -1)``, ``("discarded", -1)``,
    ``("buried", -1)``, ``("passing", p)``; -1 where no player goes with the place); `room` is the number of hidden cards each holds; `cards` the hidden
    cards with, for each, the places it may be in (indices into `places`).
    """

    player: int
    places: tuple[tuple[str, int], ...]
    room: tuple[int, ...]
    cards: tuple[tuple[int, tuple[int, ...]], ...]


def resample(state: State, player: int, rng: random.Random) -> State:
    """A new state that `player` cannot tell from `state`, the hidden cards dealt again."""
    return deal(state, constraints(state, player), rng)


# ---------------------------------------------------------------- what the player knows


def constraints(state: State, player: int) -> Constraints:
    """The hidden places of `state` for `player`, and where each hidden card may be."""
    fixed = _fixed_cards(state, player)
    places: list[tuple[str, int]] = []
    held: list[list[int]] = []
    for place, cards in _hidden_places(state, player):
        places.append(place)
        held.append([c for c in cards if c not in fixed])
    voids = _voids(state)
    taken = _taken_card(state)
    taking = take.taking(state)
    # cards taken from a pile shown to all stay the taker's, in hand or buried
    shown_taken = set(taking.taken) if taking is not None and taking.rules.shown and player != taking.taker else set()
    takers = (("hand", taking.taker), ("buried", -1)) if taking is not None else ()
    everywhere = tuple(range(len(places)))
    hidden: list[tuple[int, tuple[int, ...]]] = []
    for cards in held:
        for card in cards:
            if card == taken[0]:
                allowed = tuple(i for i in everywhere if places[i] in taken[1])
            elif card in shown_taken:
                allowed = tuple(i for i in everywhere if places[i] in takers)
            else:
                allowed = tuple(i for i in everywhere if not (places[i][0] == "hand" and card in voids[places[i][1]]))
            hidden.append((card, allowed))
    return Constraints(player, tuple(places), tuple(len(c) for c in held), tuple(sorted(hidden)))


def _hidden_places(state: State, player: int) -> list[tuple[tuple[str, int], list[int]]]:
    """Every place holding cards `player` does not see, with the cards it holds now (a hand
    laid open on the table is seen)."""
    exposed = state.exposed()
    places: list[tuple[tuple[str, int], list[int]]] = [
        (("hand", p), state.hands[p]) for p in range(state.num_players) if p != player and p not in exposed
    ]
    places.append((("stock", -1), state.stock))
    if player != state.dealer:
        places.append((("discarded", -1), discard.discarded(state)))
    taking = take.taking(state)
    if taking is not None and player != taking.taker:
        places.append((("buried", -1), taking.buried))
    passing = pass_cards.running(state)
    if passing is not None:
        places += [(("passing", p), cards) for p, cards in enumerate(passing.passed) if p != player]
    return places


def _fixed_cards(state: State, player: int) -> set[int]:
    """Cards in hidden places whose place `player` knows: its passed cards not played yet (in the
    receiver's hand), the turned-up card still shown, a taken card while its taker discards,
    the shown melds' cards."""
    fixed = {card for own in pass_cards.finished(state) for card in own.passed[player]}
    turned = turn_up.card(state)
    if turned >= 0 and turned in state.stock:
        fixed.add(turned)
    if discard.discarding(state):
        fixed.add(state.parts[discard.DISCARD].taken)
    taking = take.taking(state)
    if taking is not None and taking.rules.shown:  # a pile shown to all: what is left of it is known
        fixed.update(card for card in taking.pile if card in state.stock)
    for cards in show_melds.shown_cards(state):  # melds shown to the table, not played yet
        fixed.update(cards)
    return fixed


def _taken_card(state: State) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The turned-up card the dealer (or the chooser) took, and the places it may be in
    ((-1, ()) if none)."""
    card = turn_up.card(state)
    if card < 0 or card in state.stock or discard.discarding(state):
        return -1, ()
    if any(card in cards for cards, _ in state.tricks) or card in state.trick:
        return -1, ()
    choice = state.game.trump_choice
    may_discard = choice is not None and any(
        r.may_discard_turned_up for r in choice.rounds if r.dealer_takes_turned_up
    )
    holder = turn_up.taker(state)
    places: tuple[tuple[str, int], ...] = (("hand", state.dealer if holder < 0 else holder),)
    return card, places + ((("discarded", -1),) if may_discard and holder in (-1, state.dealer) else ())


def _voids(state: State) -> list[set[int]]:
    """By player: the cards its plays this round show it does not hold.

    A card `x` is ruled out for a player who followed with `c` when the follow rules would not
    allow `c` from the hand ``[c, x]``: holding `x` would have forced another card.
    """
    tables = state.tables
    legal_follow, group = tables.legal_follow, tables.faces.group
    all_cards = range(state.game.num_cards)
    voids: list[set[int]] = [set() for _ in range(state.num_players)]
    seen: dict[tuple[int, int], frozenset[int]] = {}
    free = tables.free
    for cards, players in [*state.tricks, (state.trick, state.trick_players)]:
        if free:  # a free card says nothing, and a trick led by one is led by the next card
            players = [p for c, p in zip(cards, players) if c not in free]
            cards = [c for c in cards if c not in free]
        if not cards:
            continue
        led = group[cards[0]]
        for card, who in zip(cards[1:], players[1:]):
            key = (card, led)
            ruled_out = seen.get(key)
            if ruled_out is None:
                ruled_out = seen[key] = frozenset(
                    x for x in all_cards if x != card and card not in legal_follow(sorted((card, x)), led)
                )
            voids[who] |= ruled_out
    return voids


# ---------------------------------------------------------------- dealing again


def deal(state: State, known: Constraints, rng: random.Random) -> State:
    """A new state with the hidden cards of `known` dealt again at random (see `resample`)."""
    placed = _place(known, rng)
    sample = state.clone()
    sample.events = None
    sample.seed = rng.getrandbits(63)
    sample.deals = sample.deals[: sample.round + 1]
    if sample.given is not None:  # a given chance outcome still to come names no hidden card
        sample.given = type(sample.given)(sample.given.hands, tuple(o for o in sample.given.outcomes if o[0] != "turn_up"))
    hidden = frozenset(card for card, _ in known.cards)
    renamed: dict[int, int] = {}  # each hidden card -> the card dealt in its place
    for place, cards in zip(known.places, placed):
        target = _cards_at(sample, place)
        rng.shuffle(cards)
        renamed.update(zip([c for c in target if c in hidden], cards))
        _refill(sample, place, target, [c for c in target if c not in hidden], cards)
    sample.set_aside = sorted(sample.stock)
    sample._legal = None
    passed = [[[renamed.get(c, c) for c in cards] for cards in own.passed] for own in pass_cards.finished(sample)]
    _rewrite_passes(sample, known.player, rng)
    if sample.play_game.ruleset.partner_cards:  # teams by the deal follow the hands dealt again
        sample.round_teams = partners.teams_at_deal(sample)
    called = call.calling(sample)
    if called is not None:  # a called partner is whoever holds the card in the sample
        call.set_teams(sample, called)
    sample.dealt = _dealt_again(sample, renamed, passed)
    return sample


def _dealt_again(state: State, renamed: dict[int, int], passed: list[list[list[int]]]) -> tuple[tuple[int, ...], ...]:
    """The hands as dealt that fit the sample: each hidden card renamed as it was dealt again,
    then, for a pass `_rewrite_passes` drew anew, the cards it now passes exchanged with those it
    passed before (`passed`, renamed) in every hand, so that the giver was dealt what it passes."""
    dealt = [[renamed.get(c, c) for c in hand] for hand in state.dealt]
    for own, before in zip(pass_cards.finished(state), passed):
        for giver, cards in enumerate(own.passed):
            out = [c for c in before[giver] if c not in cards]
            into = [c for c in cards if c not in before[giver]]
            if out:
                swap = {**dict(zip(out, into)), **dict(zip(into, out))}
                dealt = [[swap.get(c, c) for c in hand] for hand in dealt]
    return tuple(tuple(sorted(hand)) for hand in dealt)


def _cards_at(state: State, place: tuple[str, int]) -> list[int]:
    kind = place[0]
    if kind == "hand":
        return state.hands[place[1]]
    if kind == "passing":
        passing = pass_cards.running(state)
        assert passing is not None
        return passing.passed[place[1]]
    if kind == "buried":
        return take.buried(state)
    return state.stock if kind == "stock" else discard.discarded(state)


def _refill(state: State, place: tuple[str, int], target: list[int], kept: list[int], cards: list[int]) -> None:
    """Put `cards` in the hidden slots of `target`, the `kept` (known) cards where they were."""
    if place[0] == "hand":
        target[:] = sorted(kept + cards)
    elif place[0] == "stock":  # a card shown (turned up) keeps its place on top
        fresh = iter(cards)
        target[:] = [c if c in kept else next(fresh) for c in target]
    else:
        target[:] = kept + cards


def _place(known: Constraints, rng: random.Random) -> list[list[int]]:
    """The hidden cards of each place: drawn most constrained first, or matched after dead ends."""
    order = sorted(known.cards, key=lambda entry: (len(entry[1]), rng.random()))
    for _ in range(_TRIES):
        room = list(known.room)
        placed: list[list[int]] = [[] for _ in room]
        for card, allowed in order:
            total = sum(room[i] for i in allowed)
            if total == 0:
                break
            pick = int(rng.random() * total)
            for i in allowed:
                if pick < room[i]:
                    break
                pick -= room[i]
            room[i] -= 1
            placed[i].append(card)
        else:
            return placed
    return _matched(known, rng)


def _matched(known: Constraints, rng: random.Random) -> list[list[int]]:
    """A consistent placement by augmenting paths, cards and slots tried in random orders."""
    slots = [i for i, size in enumerate(known.room) for _ in range(size)]
    holder: list[int] = [-1] * len(slots)  # the card (index into known.cards) in each slot
    choices: list[list[int]] = []
    for _, allowed in known.cards:
        free = [s for s, place in enumerate(slots) if place in allowed]
        rng.shuffle(free)
        choices.append(free)

    def seat(k: int, visited: set[int]) -> bool:
        for s in choices[k]:
            if s not in visited:
                visited.add(s)
                if holder[s] < 0 or seat(holder[s], visited):
                    holder[s] = k
                    return True
        return False

    for k in rng.sample(range(len(known.cards)), len(known.cards)):
        if not seat(k, set()):
            raise ValueError("no deal of the hidden cards fits what the player knows")
    placed: list[list[int]] = [[] for _ in known.room]
    for s, k in enumerate(holder):
        placed[slots[s]].append(known.cards[k][0])
    return placed


def _rewrite_passes(state: State, player: int, rng: random.Random) -> None:
    """Make the finished passes between other players fit the new hands: what a giver passed
    is drawn from what the receiver holds or played this round (not what `player` passed it)."""
    n = state.num_players
    played = [[c for cards, who in [*state.tricks, (state.trick, state.trick_players)] for c, p in zip(cards, who) if p == q] for q in range(n)]
    mine = {card for own in pass_cards.finished(state) for card in own.passed[player]}
    for own in pass_cards.finished(state):
        for giver, cards in enumerate(own.passed):
            receiver = own.receivers[giver]
            if player in (giver, receiver) or not cards:
                continue
            pool = [c for c in state.hands[receiver] + played[receiver] if c not in mine]
            if len(pool) >= len(cards):
                own.passed[giver] = rng.sample(pool, len(cards))
                mine.update(own.passed[giver])
