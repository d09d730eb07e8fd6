"""Card ids, generated and listed: unique, with rank ranges of a reasonable size (a check of
meaning, `trickrules.spec.meaning`). A generated id is ``<suit>-<rank>``, the rank by its name
in its suit (`rank_names_by_suit`, then `rank_names`) where it has one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from trickrules.rules.cards import copy_id
from trickrules.rules.ruleset import face_id
from trickrules.spec.compile_deck import rank_names
from trickrules.spec.limits import MAX_CARDS, MAX_RANKS
from trickrules.spec.source import json_path

if TYPE_CHECKING:
    from trickrules.spec.meaning import Meaning

NodePath = tuple[str | int, ...]


def rank_count(ranks: Any) -> int:
    """Return the number of ranks a generator makes."""
    if isinstance(ranks, list):
        return len(ranks)
    return max(0, ranks["to"] - ranks["from"] + 1)


def check_card_ids(spec: Meaning) -> None:
    """Card ids, generated and explicit, are unique; rank ranges stay reasonable."""
    deck = spec.data["deck"]
    made: dict[str, NodePath] = {}
    plain, by_suit = rank_names(deck)
    names = lambda suit: {**plain, **by_suit.get(suit, {})}  # noqa: E731
    for index, generator in enumerate(deck.get("generate", ())):
        path = ("deck", "generate", index)
        if rank_count(generator["ranks"]) > MAX_RANKS:
            spec.add("TR204", f"the rank range makes more than {MAX_RANKS} ranks", path + ("ranks",))
            continue
        if generator.get("copies", 1) > MAX_CARDS:
            continue  # the deck's size is over the limit (TR332): its ids are not made one by one
        _claim(spec, made, _generated_ids(generator, deck["suits"], names), path)
    for index, card in enumerate(deck.get("cards", ())):
        card_id = card.get("id") or "/".join(face_id(face["suit"], face["rank"], names(face["suit"])) for face in card["faces"])
        card_path: NodePath = ("deck", "cards", index, "id") if "id" in card else ("deck", "cards", index)
        if card.get("copies", 1) > MAX_CARDS:
            continue  # over the limit of the deck's size (TR332)
        _claim(spec, made, [copy_id(card_id, copy) for copy in range(1, card.get("copies", 1) + 1)], card_path)


def _generated_ids(generator: dict[str, Any], deck_suits: list[str], names: Callable[[str], dict[str, str]]) -> list[str]:
    """Return the ids a generator makes, <suit>-<rank> (the rank's display name if it has one),
    and <suit>-<rank>#<n> for copy n from the second."""
    suits = deck_suits if generator["suits"] == "all" else generator["suits"]
    ranks = generator["ranks"]
    numbers = ranks if isinstance(ranks, list) else range(ranks["from"], ranks["to"] + 1)
    copies = range(1, generator.get("copies", 1) + 1)
    return [copy_id(face_id(suit, rank, names(suit)), copy) for suit in suits for rank in numbers for copy in copies]


def _claim(spec: Meaning, made: dict[str, NodePath], card_ids: list[str], path: NodePath) -> None:
    """Record card ids as made at a path; report the ones already made, once per path."""
    repeats = [card_id for card_id in card_ids if card_id in made]
    if repeats:
        first = json_path(made[repeats[0]])
        more = f" and {len(repeats) - 1} more" if len(repeats) > 1 else ""
        spec.add("TR306", f"duplicate card id '{repeats[0]}'{more}, first made at {first}", path)
    for card_id in card_ids:
        made.setdefault(card_id, path)
