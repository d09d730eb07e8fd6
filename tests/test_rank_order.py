"""The `order` ranking step: an explicit order of ranks gives the same winners as the
equivalent ladder of `prefer` steps (a property test over random tricks), compiles from rank
numbers or names, is checked, dumped and written out in the rulebook."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, game
from hypothesis import given, settings
from hypothesis import strategies as st

from trickrules.errors import SpecError
from trickrules.rules.faces import counting_faces
from trickrules.rules.ranking import compile_ranking, ladder_winner
from trickrules.rules.ruleset import CardCondition, RankingStep
from trickrules.spec.dump import dump_yaml
from trickrules.spec.loader import load_ruleset, load_ruleset_text
from trickrules.tools.rulebook import rulebook_markdown as rulebook

EUCHRE = ROOT / "specs" / "euchre.yaml"
DECK = game(EUCHRE).ruleset.deck
RANKS = sorted({face.rank for card in DECK.cards for face in card.faces})
PREFIXES = [(), (RankingStep("prefer", group="trump"),), (RankingStep("prefer", group="led"),),
            (RankingStep("prefer", group="trump"), RankingStep("prefer", group="led"))]


def order_step(ranks: list[int]) -> RankingStep:
    return RankingStep("order", order=((None, tuple((rank, place) for place, rank in enumerate(ranks, 1))),))


def prefer_ladder(ranks: list[int]) -> tuple[RankingStep, ...]:
    return tuple(RankingStep("prefer", group="condition", condition=CardCondition(ranks=frozenset({r}))) for r in reversed(ranks))


@settings(max_examples=300, deadline=None)
@given(
    order=st.lists(st.sampled_from(RANKS), min_size=1, unique=True),
    trick=st.lists(st.integers(0, len(DECK.cards) - 1), min_size=2, max_size=5, unique=True),
    trumps=st.sampled_from([frozenset()] + [frozenset({s}) for s in range(4)]),
    prefix=st.sampled_from(PREFIXES),
    last=st.sampled_from(["first_played", "last_played"]),
)
def test_an_order_gives_the_winners_of_its_prefer_ladder(order, trick, trumps, prefix, last):
    faces = counting_faces(DECK, trumps)
    led = faces.group[trick[0]]
    tie = (RankingStep(last),)  # type: ignore[arg-type]
    by_order = (*prefix, order_step(order), *tie)
    by_ladder = (*prefix, *prefer_ladder(order), *tie)
    winner = compile_ranking(by_ladder, DECK, faces)(trick, led)
    assert compile_ranking(by_order, DECK, faces)(trick, led) == winner
    assert ladder_winner(by_order, trick, led, DECK, faces) == winner


@settings(max_examples=200, deadline=None)
@given(
    trump_order=st.lists(st.sampled_from(RANKS), min_size=1, unique=True),
    other_order=st.lists(st.sampled_from(RANKS), min_size=1, unique=True),
    trick=st.lists(st.integers(0, len(DECK.cards) - 1), min_size=2, max_size=4, unique=True),
    trump=st.integers(0, 3),
)
def test_an_order_per_condition_ranks_each_card_by_its_own_order(trump_order, other_order, trick, trump):
    faces = counting_faces(DECK, frozenset({trump}))
    places = lambda ranks: tuple((rank, place) for place, rank in enumerate(ranks, 1))  # noqa: E731
    step = RankingStep("order", order=((CardCondition(trump=True), places(trump_order)), (None, places(other_order))))
    packed = compile_ranking((step, RankingStep("first_played")), DECK, faces)(trick, faces.group[trick[0]])

    def place(card: int) -> int:
        ranks = trump_order if faces.is_trump[card] else other_order
        return ranks.index(faces.rank[card]) + 1 if faces.rank[card] in ranks else 0

    best = max(place(card) for card in trick)
    assert packed == next(position for position, card in enumerate(trick) if place(card) == best)


ORDERED = """\
extends: {euchre}
ranking:
  - prefer: trump
  - prefer: led
  - order: {order}
"""


def overlay(tmp_path: Path, order: str) -> Path:
    path = tmp_path / "ordered.yaml"
    path.write_text(ORDERED.format(euchre="euchre", order=order), encoding="utf-8")
    return path


def test_names_and_numbers_compile_alike_and_round_trip(tmp_path):
    by_name = load_ruleset(overlay(tmp_path, "[9, 10, J, Q, K, A, LB, RB]"))
    by_number = load_ruleset(overlay(tmp_path, "[9, 10, 11, 12, 13, 14, 15, 16]"))
    assert by_name == by_number
    assert by_name.ranking[2].order == ((None, tuple((rank, rank - 8) for rank in range(9, 17))),)
    assert load_ruleset_text(dump_yaml(by_name)) == by_name
    cases = "[{when: {trump: true}, ranks: [9, 10, Q, K, A, LB, RB]}, {ranks: [9, 10, J, Q, K, A]}]"
    ruleset = load_ruleset(overlay(tmp_path, cases))
    assert load_ruleset_text(dump_yaml(ruleset)) == ruleset


def test_the_euchre_order_plays_the_euchre_examples(tmp_path):
    from trickrules.tools.examples import load_examples, run_examples

    cases = "[{when: {trump: true}, ranks: [9, 10, Q, K, A, LB, RB]}, {ranks: [9, 10, J, Q, K, A]}]"
    results = run_examples(overlay(tmp_path, cases), load_examples(ROOT / "specs" / "euchre.examples.yaml"))
    assert [r.line() for r in results if not r.passed] == []


def test_the_rulebook_prints_the_order_of_ranks(tmp_path):
    text = rulebook(load_ruleset(overlay(tmp_path, "[9, 10, J, Q, K, A, LB, RB]")))
    assert "from the lowest: 9, 10, J (11), Q (12), K (13), A (14), LB (15), RB (16)" in text
    plain = rulebook(game(EUCHRE).ruleset)
    assert "ranks from the highest: RB (16), LB (15), A (14), K (13)" in plain


@pytest.mark.parametrize(
    "order, code, line, column",
    [("[9, 10, Jack, Q]", "TR330", 5, 20), ("[9, 10, 17]", "TR330", 5, 20), ("[9, 9]", "TR204", 5, 16), ("[]", "TR204", 5, 5)],
)
def test_an_unknown_rank_in_an_order_is_an_error_at_its_place(tmp_path, order, code, line, column):
    with pytest.raises(SpecError) as raised:
        load_ruleset(overlay(tmp_path, order))
    problem = raised.value.problems[0]
    assert (problem.code, problem.line, problem.column) == (code, line, column), str(problem)
    assert problem.file.endswith("ordered.yaml")
