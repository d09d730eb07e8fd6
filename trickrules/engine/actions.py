"""Action numbering: each kind of decision owns one block of consecutive action integers.

Each kind of phase names its blocks (`PhaseKind.blocks`, an `ActionBlock` each: its place in
the numbering, its size in a game, its texts); `action_ranges` lays every registered kind's
blocks out in their order. `Game` takes its offsets, `action_to_string` and `string_to_action`
from the result, so a new kind of decision is one more block in its phase's module, with the
next free `order` (the numbers of the games before stay as they are). The blocks so far:

    0 play <card>      N        every card of the deck                       (play)
    1 place <card>     N        a won card laid on the tableau               (place_cards)
    2 token <section>  S        a token laid on a section                    (place_tokens)
    3 trumps <suit>    U        a trump suit chosen                          (choose_trumps)
    4 pass <card>      N        a card passed (games that pass)              (pass_cards)
    5 bid <value>      B        a bid (0 to the highest bid any round allows) (bid)
    6 pass             1        a turn passed while choosing trumps or declaring (shared: here)
    7 discard <card>   N        a card laid away by the dealer who took the turned-up card (discard)
    8 alone, partner   2        going alone or with the partner              (go_alone)
    9 contract <name>  C        a contract declared                          (declare)

This module holds the ways of writing a block's texts (`cards`, `named`, `words`) and the one
block two kinds share (`PASS_TURN`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from trickrules.engine.game import Game

__all__ = ["PASS_TURN", "ActionBlock", "ActionRange", "Texts", "action_ranges", "cards", "named", "words"]

Texts = tuple[Callable[[int], str], Callable[[str, str], int]]
"""A block's text of each action (by index in the block), and its parse of verb and rest back
to an index (KeyError or ValueError when the text is not one of the block's)."""


@dataclass(frozen=True)
class ActionBlock:
    """A block of action integers a kind of phase owns.

    `order` places it among every kind's blocks (numbering runs in this order, so a new block
    takes the next number and the games before keep theirs); `size` says how many actions it
    has in a game (0 where the game never asks that decision); `texts` makes their texts.
    """

    order: int
    name: str
    size: Callable[[Game], int]
    texts: Callable[[Game], Texts]


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


def cards(verb: str) -> Callable[[Game], Texts]:
    """One action per card (a card read back by its id, with rank names or numbers)."""
    return _listed(verb, lambda game: game.card_ids, lambda game, _: game.card_index)


def named(verb: str, names: Callable[[Game], tuple[str, ...]]) -> Callable[[Game], Texts]:
    """One action per name: a section, a suit, a contract."""
    return _listed(verb, names, lambda _, listed: listed.index)


def words(*words: str) -> Callable[[Game], Texts]:
    """A block of one-word actions (``pass``; ``alone``, ``partner``)."""

    def make(game: Game) -> Texts:
        def parse(said: str, rest: str) -> int:
            if rest:
                raise ValueError(rest)
            return words.index(said)

        return (lambda index: words[index]), parse

    return make


PASS_TURN: Final = ActionBlock(6, "pass a turn", lambda g: 1 if g.turn_passes else 0, words("pass"))
"""``pass``: a turn passed while choosing trumps in rounds or declaring (both kinds own it)."""


def action_ranges(game: Game, blocks: Iterable[ActionBlock]) -> tuple[ActionRange, ...]:
    """The game's blocks of actions, in numbering order (a block a game never uses has size 0)."""
    ranges = []
    start = 0
    for block in sorted(set(blocks), key=lambda b: b.order):
        size = block.size(game)
        text, parse = block.texts(game) if size else (str, _no)
        ranges.append(ActionRange(block.name, start, size, text, parse))
        start += size
    return tuple(ranges)
