"""The names a card or a face goes by: its id, and the same id with rank numbers.

With `rank_names` a card's id uses the rank's name (``spades-Q``); the id with the rank's
number (``spades-12``) names the same card. `card_names` lists both spellings of every card,
so that wherever a card is named (a deal, an examples file, a record, an action text) either
form is accepted, while the named form is the one printed. A copy keeps the suffix of its
copy number in both forms (``hearts-A#2``, ``hearts-14#2``).

    >>> from trickrules.rules.ruleset import Card, Deck, Face
    >>> deck = Deck(("spades",), (), (Card(0, "spades-Q", (Face(0, 12),), ()),), ((12, "Q"),))
    >>> card_names(deck)
    {'spades-Q': 0, 'spades-12': 0}
    >>> face_text(deck, "spades 12")
    'spades Q'
"""

from __future__ import annotations

from trickrules.rules.ruleset import Card, Deck

__all__ = ["COPY_MARK", "card_names", "copy_id", "face_text", "numbered_id", "rank_numbers"]

COPY_MARK = "#"
"""Separates a copy's number from the id of the card it copies: ``hearts-A#2``."""


def copy_id(card_id: str, copy: int) -> str:
    """The id of copy number `copy` (from 1) of a card: the first copy keeps the plain id."""
    return card_id if copy <= 1 else f"{card_id}{COPY_MARK}{copy}"


def numbered_id(card: Card, deck: Deck) -> str:
    """The card's id with each ``<suit>-<rank name>`` part written with the rank's number,
    read off the card's own faces (``spades-Q`` -> ``spades-12``); parts that name no face
    of the card stay as they are."""
    base, mark, copy = card.id.partition(COPY_MARK)
    parts = []
    for part in base.split("/"):
        suit, _, name = part.rpartition("-")
        number = next(
            (face.rank for face in card.faces if deck.suits[face.suit] == suit and deck.rank_name(face.rank, face.suit) == name),
            None,
        )
        parts.append(part if number is None else f"{suit}-{number}")
    return "/".join(parts) + mark + copy


def card_names(deck: Deck) -> dict[str, int]:
    """Every accepted name of every card, to its index: the ids first, then the ids written
    with rank numbers (an id always wins over another card's numbered form)."""
    names = {card.id: card.index for card in deck.cards}
    for card in deck.cards:
        names.setdefault(numbered_id(card, deck), card.index)
    return names


def face_text(deck: Deck, text: str) -> str:
    """A face written ``<suit> <rank>``, with the rank as a number or a name, in its printed
    form (the rank's name when it has one): ``hearts 15`` -> ``hearts LB``."""
    suit, _, rank = text.strip().rpartition(" ")
    if rank.lstrip("-").isdigit():
        index = deck.suits.index(suit) if suit in deck.suits else -1
        return f"{suit} {deck.rank_name(int(rank), index)}"
    return text.strip()


def rank_numbers(deck: Deck, rank: int | str) -> frozenset[int]:
    """The rank numbers a rank stands for: a number itself, a name every rank with that name."""
    if isinstance(rank, int):
        return frozenset((rank,))
    named = [deck.rank_names, *(names for _, names in deck.suit_rank_names)]
    return frozenset(value for names in named for value, name in names if name == rank)
