"""Deals: shuffled from a seed, or given (a real game, a puzzle, a cross-check).

A given deal is a mapping with each player's hand as card ids (``hands``) and the chance
outcome of each chance phase of the round, named by the phase kind (``pass: left``). A list
of such mappings gives the first rounds in order; later rounds are shuffled from the seed.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from trickrules.errors import DealError

if TYPE_CHECKING:
    from trickrules.engine.game import Game


@dataclass(frozen=True)
class GivenDeal:
    """One round's given deal: hands as card indices, and chance outcomes by phase kind."""

    hands: tuple[tuple[int, ...], ...]
    outcomes: tuple[tuple[str, str], ...] = ()

    def outcome(self, kind: str) -> str | None:
        return dict(self.outcomes).get(kind)


def deal_order(seed: int, round_number: int, num_cards: int) -> list[int]:
    """The shuffled deck of one round: the same on every machine for the same seed.

    Each card gets a key from a generator seeded by the text ``trickrules:SEED:ROUND``; the
    deck is sorted by those keys (ties cannot change the order: the sort is stable).
    """
    uniform = random.Random(f"trickrules:{seed}:{round_number}").random
    keys = [uniform() for _ in range(num_cards)]
    return sorted(range(num_cards), key=keys.__getitem__)


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
    n, size = game.num_players, game.ruleset.deal.hand_size
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise DealError(f"{where}: 'hands' needs {n} lists of card ids, one per player")
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
    for key, value in deal.items():
        if key == "hands":
            continue
        choices = _chance_choices(game, str(key))
        if choices is None:
            raise DealError(f"{where}: '{key}' is not a chance outcome of this game")
        if str(value) not in choices:
            raise DealError(f"{where}: {key} {value!r} is not one of {', '.join(choices)}")
        outcomes.append((str(key), str(value)))
    return GivenDeal(tuple(converted), tuple(outcomes))


def _chance_choices(game: Game, kind: str) -> tuple[str, ...] | None:
    for step in game.steps:
        if step.kind == kind == "pass" and step.passing is not None:
            return step.passing.to_names
    return None
