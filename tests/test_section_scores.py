"""Tableau sections at their edges: staffed at exactly the tokens needed, each way a section
scores, and a player's won cards from pile and stacks."""

from __future__ import annotations

import pytest
from test_mutants_rules import BLUE, RED, card, tiny

from trickrules.rules.faces import counting_faces
from trickrules.rules.ruleset import Section, SectionValue
from trickrules.rules.scoring import PlayerRound, section_case, section_value

SECTION = Section("C", 2, 7)


@pytest.mark.parametrize(
    ("stack", "tokens", "case"),
    [
        ([1], 2, "cards_staffed"),
        ([1], 3, "cards_staffed"),
        ([1], 1, "cards_understaffed"),
        ([], 2, "empty_staffed"),
        ([], 1, "empty_understaffed"),
    ],
)
def test_staffed_from_exactly_the_tokens_needed(stack: list[int], tokens: int, case: str) -> None:
    assert section_case(SECTION, stack, tokens) == case


@pytest.mark.parametrize(
    ("kind", "number", "stack", "tokens", "value"),
    [
        ("top_rank", 0, [card(RED, 1), card(BLUE, 3)], 0, 3),
        ("top_rank", 0, [], 0, 0),
        ("sum_ranks", 0, [card(RED, 1), card(BLUE, 3)], 0, 4),
        ("card_count", 0, [card(RED, 1), card(BLUE, 3)], 0, 2),
        ("value", 0, [], 0, 7),
        ("per_missing_token", -5, [], 0, -10),
        ("per_missing_token", -5, [], 1, -5),
        ("per_missing_token", -5, [], 3, 0),
        ("constant", 4, [card(RED, 2)], 0, 4),
    ],
)
def test_each_way_a_section_scores(kind: str, number: int, stack: list[int], tokens: int, value: int) -> None:
    faces = counting_faces(tiny().deck, frozenset())
    assert section_value(SectionValue(kind, number), SECTION, stack, tokens, faces) == value  # type: ignore[arg-type]


def test_won_cards_are_the_pile_and_the_stacks() -> None:
    assert PlayerRound((1, 2), 1, (), (), ()).won_cards() == (1, 2)
    assert PlayerRound((1,), 1, ((3, 4), (), (5,)), (0, 0, 0), ()).won_cards() == (1, 3, 4, 5)
