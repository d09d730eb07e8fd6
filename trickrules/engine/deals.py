"""Deals: shuffled from a seed, or given (a real game, a puzzle, a cross-check).

A given deal is a mapping with each player's hand as card ids (``hands``), optionally the
cards not dealt in the order they lie (``set_aside``: a talon taken in groups is split in this
order; by default the deck's order), and the chance outcome of each chance phase of the round,
named by the phase kind (``pass: left``). A list
of such mappings gives the first rounds in order; later rounds are shuffled from the seed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.errors import DealError

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State


@dataclass(frozen=True)
class GivenDeal:
    """One round's given deal: hands as card indices, and chance outcomes by phase kind."""

    hands: tuple[tuple[int, ...], ...]
    outcomes: tuple[tuple[str, str], ...] = ()
    set_aside: tuple[int, ...] = ()
    """The cards not dealt, in the order they lie (empty: the deck's order)."""

    def outcome(self, kind: str) -> str | None:
        return dict(self.outcomes).get(kind)

    def __reduce__(self) -> tuple[type[GivenDeal], tuple[tuple[tuple[int, ...], ...], tuple[tuple[str, str], ...], tuple[int, ...]]]:
        """Pickle by the constructor's arguments: the compiled engine's frozen dataclass cannot
        have its fields set one by one, as the default unpickling does."""
        return (type(self), (self.hands, self.outcomes, self.set_aside))


def deal_order(seed: int, round_number: int, num_cards: int) -> list[int]:
    """The shuffled deck of one round: the same on every machine for the same seed.

    Each card gets a key from a generator seeded by the text ``trickrules:SEED:ROUND``; the
    deck is sorted by those keys (ties cannot change the order: the sort is stable).
    """
    uniform = _generator(f"trickrules:{seed}:{round_number}").random
    keys = [uniform() for _ in range(num_cards)]
    return sorted(range(num_cards), key=keys.__getitem__)


_SEED_BY_INTEGER: Final[Callable[[random.Random, int], None]] = getattr(random.Random.__mro__[1], "seed")
"""The generator's own seeding by an integer, under `random.Random.seed`'s handling of text."""


def _generator(text: str) -> random.Random:
    """``random.Random(text)``, the same generator made without the pure-Python steps of
    `random.Random.seed`: the text becomes the integer of its UTF-8 bytes followed by their
    SHA-512 digest (what ``seed`` does with a string, version 2), which seeds the generator."""
    data = text.encode()
    generator = random.Random.__new__(random.Random)
    _SEED_BY_INTEGER(generator, int.from_bytes(data + hashlib.sha512(data).digest(), "big"))
    return generator


def chance_index(seed: int, round_number: int, kind: str, count: int) -> int:
    """A chance outcome of a round (one of `count`, each as likely), the same on every machine.

    It is a 64-bit BLAKE2 hash of ``trickrules:SEED:ROUND:KIND`` modulo `count` (the bias is
    below 2**-58 for any count a spec can have).
    """
    digest = hashlib.blake2b(f"trickrules:{seed}:{round_number}:{kind}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


def given_deals(game: Game, deal: Any) -> tuple[GivenDeal, ...]:
    """Check and convert the `deal` argument of `Game.new_initial_state`."""
    if deal is None:
        return ()
    rounds = [deal] if isinstance(deal, Mapping) else deal
    if not isinstance(rounds, (list, tuple)):
        raise DealError("a deal is a mapping with 'hands', or a list of them (one per round)")
    return tuple(_one(game, d, i) for i, d in enumerate(rounds))


def _one(game: Game, deal: Any, number: int) -> GivenDeal:
    where = f"deal of round {number + 1}"
    if not isinstance(deal, Mapping) or "hands" not in deal:
        raise DealError(f"{where}: a mapping with 'hands' (one list of card ids per player)")
    hands = deal["hands"]
    n, spec_deal = game.num_players, game.ruleset.deal
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise DealError(f"{where}: 'hands' needs {n} lists of card ids, one per player")
    # a given deal may choose any hand size the spec's schedule (or chance) has
    schedule = spec_deal.hand_sizes
    sizes = (spec_deal.hand_size,) if schedule is None else schedule.values
    if spec_deal.first_stage:  # a deal in two stages gives the hands of its first stage
        sizes = (spec_deal.first_stage,)
    size = len(hands[0]) if isinstance(hands[0], (list, tuple)) else -1
    if size not in sizes:
        raise DealError(f"{where}: a hand has {' or '.join(map(str, sorted(set(sizes))))} cards in this game, not {size}")
    seen: set[int] = set()
    converted = []
    for player, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)) or len(hand) != size:
            raise DealError(f"{where}: player {player} needs {size} cards")
        cards = []
        for card_id in hand:
            try:
                card = game.card_index(str(card_id))
            except KeyError:
                raise DealError(f"{where}: no card {card_id!r} in the deck") from None
            if card in seen:
                raise DealError(f"{where}: {card_id} is dealt twice")
            seen.add(card)
            cards.append(card)
        converted.append(tuple(sorted(cards)))
    outcomes = []
    set_aside: tuple[int, ...] = ()
    for key, value in deal.items():
        if key == "hands":
            continue
        if key == "set_aside":
            set_aside = _set_aside(game, value, seen, where)
            continue
        choices = _chance_choices(game, str(key))
        if choices is None:
            raise DealError(f"{where}: '{key}' is not a chance outcome of this game")
        if str(value) not in choices:
            raise DealError(f"{where}: {key} {value!r} is not one of {', '.join(choices)}")
        if key == "turn_up" and _dealers_card(game):
            rules = game.ruleset.deal
            dealer = int(deal["dealer"]) if "dealer" in deal else -1 if rules.dealer_random else (rules.dealer_first + number * rules.dealer_rotation) % n
            held = [p for p, hand in enumerate(converted) if game.card_index(str(value)) in hand]
            if not held or (dealer >= 0 and held != [dealer]):
                raise DealError(f"{where}: the turned-up card {value} is one of the dealer's cards: it must be in the dealer's hand")
        elif key == "turn_up" and game.card_index(str(value)) in seen:
            raise DealError(f"{where}: the turned-up card {value} is in a hand")
        outcomes.append((str(key), str(value)))
    return GivenDeal(tuple(converted), tuple(outcomes), set_aside)


def _set_aside(game: Game, value: Any, dealt: set[int], where: str) -> tuple[int, ...]:
    """The given order of the cards not dealt: every one of them, once."""
    if not isinstance(value, (list, tuple)):
        raise DealError(f"{where}: 'set_aside' is a list of the card ids not dealt, in the order they lie")
    cards = []
    for card_id in value:
        try:
            cards.append(game.card_index(str(card_id)))
        except KeyError:
            raise DealError(f"{where}: no card {card_id!r} in the deck") from None
    rest = sorted(c for c in range(game.num_cards) if c not in dealt)
    if sorted(cards) != rest:
        raise DealError(f"{where}: 'set_aside' must list the {len(rest)} cards not dealt, each once")
    return tuple(cards)


def _dealers_card(game: Game) -> bool:
    """Whether the turned-up card is one of the dealer's own (`{turn_up: {from: dealer}}`)."""
    return any(step.kind == "turn_up" and step.rules == "dealer" for step in game.steps)


def _chance_choices(game: Game, kind: str) -> tuple[str, ...] | None:
    if kind == "dealer":
        return tuple(str(p) for p in range(game.num_players))
    if kind == "turn_up" and any(step.kind == "turn_up" for step in game.steps):
        return game.card_ids
    for step in game.steps:
        if step.kind == kind == "pass" and step.passing is not None:
            return step.passing.to_names
    return None


def deal_round(state: State) -> None:
    """Choose the round's dealer and hand size, and deal: from the given deal or the seed.

    Sets `dealer`, `hand_size`, `hands`, `set_aside` (sorted) and `stock` (the cards not
    dealt, in deck order: the next card is `stock[0]`). A deal in two stages
    (`Deal.first_stage`) gives each hand its first cards here; `hand_size` is the full hand.
    """
    game, deal, number = state.game, state.game.ruleset.deal, state.round
    n, given, seed = game.num_players, state.given, state.seed
    dealer = given.outcome("dealer") if given is not None else None
    if dealer is not None:
        state.dealer = int(dealer)
    elif deal.dealer_random:
        state.dealer = chance_index(seed, number, "dealer", n)
    else:
        state.dealer = (deal.dealer_first + number * deal.dealer_rotation) % n
    if given is not None:
        state.hands = [list(h) for h in given.hands]
        state.hand_size = deal.hand_size if deal.first_stage else len(given.hands[0])
        dealt = {c for h in state.hands for c in h}
        state.stock = list(given.set_aside) or [c for c in range(game.num_cards) if c not in dealt]
        state.set_aside = sorted(state.stock)
        return
    sizes = deal.hand_sizes
    if sizes is None:
        size = deal.hand_size
    elif sizes.chance:
        size = sizes.values[chance_index(seed, number, "hand_size", len(sizes.values))]
    else:
        size = sizes.at(number)
    state.hand_size = size
    order = deal_order(seed, number, game.num_cards)
    size = deal.first_stage or size  # in two stages: the rest of each hand at complete_deal
    state.hands = [sorted(order[p * size : (p + 1) * size]) for p in range(n)]
    state.stock = order[n * size :]
    state.set_aside = sorted(state.stock)
