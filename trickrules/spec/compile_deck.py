"""Compiling a spec's deck (`deck`): generated and listed cards, their ids, faces and
attributes, and the rank names they are printed with. A part of the spec's compiler
(`trickrules.spec.compiler`), which holds the resolved data and the deal conditions."""

from __future__ import annotations

from typing import Any

from trickrules.rules.cards import copy_id
from trickrules.rules.ruleset import Card, DealCondition, Deck, Face, face_id


def rank_names(deck: dict[str, Any]) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The deck's rank names, and each suit's own (`rank_names_by_suit`), as written."""
    plain = {str(k): str(v) for k, v in (deck.get("rank_names") or {}).items()}
    by_suit = {str(suit): {str(k): str(v) for k, v in (names or {}).items()} for suit, names in (deck.get("rank_names_by_suit") or {}).items()}
    return plain, by_suit


class DeckCompiler:
    """Builds the `Deck` from the resolved data (the compiler's first part)."""

    data: dict
    suits: tuple[str, ...]
    attributes: tuple[str, ...]
    rank_names: dict[str, str]
    suit_rank_names: dict[str, dict[str, str]]

    def deal_condition(self, raw: dict | None) -> DealCondition | None:
        raise NotImplementedError  # the compiler's

    # ------------------------------------------------------------ deck

    def deck(self) -> Deck:
        raw = self.data["deck"]
        cards: list[Card] = []
        for generator in raw.get("generate") or []:
            cards.extend(self.generated(generator, len(cards)))
        for entry in raw.get("cards") or []:
            for copy in range(1, entry.get("copies", 1) + 1):
                cards.append(self.explicit(entry, len(cards), copy))
        rank_names = tuple(sorted((int(k), str(v)) for k, v in (raw.get("rank_names") or {}).items()))
        by_suit = tuple(sorted((self.suits.index(suit), tuple(sorted((int(k), v) for k, v in names.items())))
                               for suit, names in self.suit_rank_names.items() if suit in self.suits))
        return Deck(self.suits, self.attributes, tuple(cards), rank_names, by_suit)

    def names_in(self, suit: str) -> dict[str, str]:
        """The rank names of `suit`: its own over the deck's."""
        return {**self.rank_names, **self.suit_rank_names.get(suit, {})}

    def generated(self, generator: dict, start: int) -> list[Card]:
        suits = self.suits if generator["suits"] == "all" else tuple(generator["suits"])
        ranks = generator["ranks"]
        if isinstance(ranks, dict):
            ranks = list(range(ranks["from"], ranks["to"] + 1))
        cards: list[Card] = []
        copies = range(1, generator.get("copies", 1) + 1)
        for suit in suits:
            for rank in ranks:
                face = Face(self.suits.index(suit), rank)
                values = self.generated_attributes(generator.get("attributes") or {}, rank)
                card_id = face_id(suit, rank, self.names_in(suit))
                for copy in copies:  # copies side by side: hearts-A, hearts-A#2
                    cards.append(Card(start + len(cards), copy_id(card_id, copy), (face,), values))
        return cards

    def generated_attributes(self, spec: dict, rank: int) -> tuple[int, ...]:
        values = []
        for name in self.attributes:
            value = spec.get(name, self.attribute_default(name))
            if isinstance(value, dict):
                value = value.get("by_rank", {}).get(str(rank), value.get("default", self.attribute_default(name)))
            values.append(int(value))
        return tuple(values)

    def attribute_default(self, name: str) -> int:
        body = (self.data["deck"].get("attributes") or {}).get(name) or {}
        return int(body.get("default", 0))

    def explicit(self, entry: dict, index: int, copy: int = 1) -> Card:
        faces = tuple(
            Face(self.suits.index(f["suit"]), f["rank"], self.deal_condition(f.get("when"))) for f in entry["faces"]
        )
        card_id = entry.get("id") or "/".join(face_id(f["suit"], f["rank"], self.names_in(f["suit"])) for f in entry["faces"])
        given = entry.get("attributes") or {}
        values = tuple(int(given.get(name, self.attribute_default(name))) for name in self.attributes)
        return Card(index, copy_id(card_id, copy), faces, values)
