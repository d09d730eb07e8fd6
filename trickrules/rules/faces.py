"""Counting faces: which face of every card counts, for one set of trump suits.

A card's counting face depends only on the deal's trumps, so the engine works it out once
per trump set (`Faces`) and afterwards reads suits, ranks and follow groups from tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from trickrules.rules.ruleset import TRUMP_GROUP, DealCondition, Deck, Face


@dataclass(frozen=True, slots=True)
class Faces:
    """The counting face of every card of a deck (by card index) under one set of trumps."""

    trumps: frozenset[int]
    face: tuple[int, ...]
    suit: tuple[int, ...]
    rank: tuple[int, ...]
    group: tuple[int, ...]
    is_trump: tuple[bool, ...]


def deal_condition_holds(condition: DealCondition, face: Face, trumps: frozenset[int]) -> bool:
    """Whether `condition` holds for `face` in a deal with `trumps`."""
    if condition.trump is not None and (face.suit in trumps) != condition.trump:
        return False
    if condition.trumps_include is not None and condition.trumps_include not in trumps:
        return False
    if condition.no_trumps is not None and (not trumps) != condition.no_trumps:
        return False
    if condition.negate is not None and deal_condition_holds(condition.negate, face, trumps):
        return False
    if not all(deal_condition_holds(c, face, trumps) for c in condition.all_of):
        return False
    if condition.any_of is not None:
        return any(deal_condition_holds(c, face, trumps) for c in condition.any_of)
    return True


def counting_face(faces: tuple[Face, ...], trumps: frozenset[int]) -> int:
    """Index of the face that counts: the first whose `when` holds, else the last."""
    for index, face in enumerate(faces):
        if face.when is None or deal_condition_holds(face.when, face, trumps):
            return index
    return len(faces) - 1


def counting_faces(deck: Deck, trumps: frozenset[int]) -> Faces:
    """The counting face of every card of `deck` under `trumps`."""
    chosen = [counting_face(card.faces, trumps) for card in deck.cards]
    faces = [card.faces[i] for card, i in zip(deck.cards, chosen)]
    return Faces(
        trumps=trumps,
        face=tuple(chosen),
        suit=tuple(f.suit for f in faces),
        rank=tuple(f.rank for f in faces),
        group=tuple(TRUMP_GROUP if f.suit in trumps else f.suit for f in faces),
        is_trump=tuple(f.suit in trumps for f in faces),
    )
