"""Action numbering: each kind of decision owns one block of consecutive action integers.

`action_ranges(game)` lays the blocks out in a fixed order (`RANGES`), each with its verb, its
size in this game (0 where the game never asks that decision), the text of each action and the
parse back from text. `Game` takes its offsets, `action_to_string` and `string_to_action` from
this one table, so a new kind of decision is one more entry here (at the end, so that the
numbers of the games before stay as they are).

    play <card>      N        every card of the deck
    place <card>     N        a won card laid on the tableau
    token <section>  S        a token laid on a section
    trumps <suit>    U        a trump suit chosen
    pass <card>      N        a card passed (games that pass)
    bid <value>      B        a bid (games that bid: 0 to the highest bid any round allows)
    pass             1        a turn passed while choosing trumps or declaring
    discard <card>   N        a card laid away by the dealer who took the turned-up card
    alone, partner   2        going alone or with the partner
    contract <name>  C        a contract declared
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trickrules.engine.game import Game

__all__ = ["ActionRange", "RANGES", "action_ranges"]


@dataclass(frozen=True)
class ActionRange:
    """One block of action integers: ``start`` to ``start + size - 1``."""

    kind: str
    start: int
    size: int
    text: Callable[[int], str]
    """The text of action ``start + index``, given the index."""
    parse: Callable[[str, str], int]
    """The index of the action whose text is verb and rest (KeyError or ValueError if none)."""


def _no(verb: str, rest: str) -> int:
    raise KeyError(verb)


Texts = tuple[Callable[[int], str], Callable[[str, str], int]]
"""A block's text of each index, and its parse of verb and rest back to an index."""


def _listed(verb: str, names: Callable[[Game], tuple[str, ...]],
            find: Callable[[Game, tuple[str, ...]], Callable[[str], int]]) -> Callable[[Game], Texts]:
    """A block of one action per name, written ``<verb> <name>``; `find` reads a name back."""

    def make(game: Game) -> Texts:
        listed = names(game)
        index_of = find(game, listed)

        def parse(said: str, rest: str) -> int:
            if said != verb:
                raise KeyError(said)
            return index_of(rest)

        return (lambda index: f"{verb} {listed[index]}"), parse

    return make


def _cards(verb: str) -> Callable[[Game], Texts]:
    """One action per card (a card read back by its id, with rank names or numbers)."""
    return _listed(verb, lambda game: game.card_ids, lambda game, _: game.card_index)


def _named(verb: str, names: Callable[[Game], tuple[str, ...]]) -> Callable[[Game], Texts]:
    """One action per name: a section, a suit, a contract."""
    return _listed(verb, names, lambda _, listed: listed.index)


def _words(*words: str) -> Callable[[Game], Texts]:
    """A block of one-word actions (``pass``; ``alone``, ``partner``)."""

    def make(game: Game) -> Texts:
        def parse(said: str, rest: str) -> int:
            if rest:
                raise ValueError(rest)
            return words.index(said)

        return (lambda index: words[index]), parse

    return make


def _bids(game: Game) -> Texts:
    bidding = game.bidding
    if bidding is None:
        return str, _no
    words = {word: value for value, word in bidding.names}

    def parse(said: str, rest: str) -> int:
        if said != "bid":
            raise KeyError(said)
        value = words[rest] if rest in words else int(rest)
        if value < bidding.lowest or bidding.name(value) != rest:
            raise ValueError(rest)
        return value

    return (lambda value: f"bid {bidding.name(value)}"), parse


def _sections(game: Game) -> tuple[str, ...]:
    tableau = game.ruleset.tableau
    return tuple(s.name for s in tableau.sections) if tableau is not None else ()


Sizer = Callable[["Game"], int]
Maker = Callable[["Game"], Texts]

RANGES: tuple[tuple[str, Sizer, Maker], ...] = (
    ("play", lambda g: g.num_cards, _cards("play")),
    ("place", lambda g: g.num_cards, _cards("place")),
    ("token", lambda g: g.num_sections, _named("token", _sections)),
    ("trumps", lambda g: len(g.ruleset.deck.suits), _named("trumps", lambda g: tuple(g.ruleset.deck.suits))),
    ("pass", lambda g: g.num_cards if g.passes else 0, _cards("pass")),
    ("bid", lambda g: g.num_bids, _bids),
    ("pass a turn", lambda g: 1 if g.turn_passes else 0, _words("pass")),
    ("discard", lambda g: g.num_cards if g.discards else 0, _cards("discard")),
    ("alone", lambda g: 2 if g.goes_alone else 0, _words("alone", "partner")),
    ("contract", lambda g: len(g.contract_names) if g.declares else 0, _named("contract", lambda g: g.contract_names)),
)
"""Every kind of decision's block, in numbering order: (kind, its size in a game, its texts)."""


def action_ranges(game: Game) -> tuple[ActionRange, ...]:
    """The game's blocks of actions, in numbering order (a block a game never uses has size 0)."""
    ranges = []
    start = 0
    for kind, size_of, make in RANGES:
        size = size_of(game)
        text, parse = make(game) if size else (str, _no)
        ranges.append(ActionRange(kind, start, size, text, parse))
        start += size
    return tuple(ranges)
