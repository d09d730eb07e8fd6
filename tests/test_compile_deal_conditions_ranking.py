"""The spec compiler, continued: the deal's dealer and first leader, condition combinators
(`not`, `all`, `any`) of cards and of counting faces, where nested conditions are written, the
ranking's `order` and condition steps, and the names and defaults of point rules.
Helpers and the base spec come from test_compile_keys."""

from __future__ import annotations

import pytest
from helpers import BASE, BASE4, compiled, first_problem

from trickrules.engine.game import load_game
from trickrules.errors import SpecError
from trickrules.rules.ruleset import CardCondition, Deal, DealCondition, PointRule, RankingStep
from trickrules.spec.loader import load_ruleset_text

RED, BLUE, GREEN = 0, 1, 2

# ------------------------------------------------------------ the deal


def test_an_omitted_dealer_and_first_leader_take_every_default() -> None:
    assert compiled(players=3).deal == Deal(hand_size=5)


@pytest.mark.parametrize(("seat", "players", "expected"), [(2, 3, 2), (1, 3, 1), (2, 4, 2), (0, 4, 0)])
def test_a_first_leader_seat_counts_round_the_table(seat: int, players: int, expected: int) -> None:
    text = BASE.replace("  hand_size: 5", f"  hand_size: 5\n  first_leader: {{seat: {seat}}}")
    deal = load_ruleset_text(text, players=players).deal
    assert deal == Deal(hand_size=5, first_leader="seat", first_leader_seat=expected)


def test_a_first_leader_by_holder_names_the_card() -> None:
    text = BASE.replace("  hand_size: 5", "  hand_size: 5\n  first_leader: {holder: blue-3}")
    deal = load_ruleset_text(text, players=3).deal
    assert deal == Deal(hand_size=5, first_leader="holder", first_leader_card=8 + 2)


def test_a_first_leader_word_and_a_random_dealer_are_read() -> None:
    text = BASE.replace("  hand_size: 5", "  hand_size: 5\n  first_leader: dealer\n  dealer: {random: true}")
    deal = load_ruleset_text(text, players=3).deal
    assert deal == Deal(hand_size=5, first_leader="dealer", dealer_random=True)


# ------------------------------------------------------------ combinators of card conditions

COMBINED = """rewards:
  - name: mixed
    to: winner
    when:
      not: {suit: red}
      all: [{rank: 1}, {trick: "winner_rank > 1"}]
      any: [{suit: blue}, {suit: green, rank: 2}]
    give: {points: 1}
"""


def test_a_conditions_not_all_and_any_are_read_each_in_place() -> None:
    (reward,) = compiled(COMBINED).rewards
    when = reward.when
    assert when is not None
    assert when.negate == CardCondition(suits=frozenset({RED}))
    assert when.all_of[0] == CardCondition(ranks=frozenset({1}))
    assert when.all_of[1].trick is not None and when.all_of[1].trick.expression.text == "winner_rank > 1"
    assert when.any_of == (CardCondition(suits=frozenset({BLUE})), CardCondition(ranks=frozenset({2}), suits=frozenset({GREEN})))


def test_a_nested_trick_condition_of_a_reward_reads_the_winner_and_the_ranking() -> None:
    """Nested in `all`, a reward's trick condition still has the reward's names and ranking."""
    (reward,) = compiled(COMBINED).rewards
    assert reward.when is not None
    trick = reward.when.all_of[1].trick
    assert trick is not None and trick.ranking == compiled().ranking


def test_a_conditions_without_combinators_have_none() -> None:
    (reward,) = compiled("rewards:\n  - {name: plain, to: winner, when: {suit: red}, give: {points: 1}}\n").rewards
    assert reward.when == CardCondition(suits=frozenset({RED}))
    assert reward.when.negate is None and reward.when.all_of == () and reward.when.any_of is None


@pytest.mark.parametrize(
    ("when", "column", "path"),
    [
        ('{not: {trick: "nope > 1"}}', 48, "$.rewards[0].when.not.trick"),
        ('{all: [{rank: 1}, {trick: "nope > 1"}]}', 60, "$.rewards[0].when.all[1].trick"),
        ('{any: [{trick: "nope > 1"}]}', 49, "$.rewards[0].when.any[0].trick"),
        ("{not: {suit: purple}}", 40, "$.rewards[0].when.not.suit"),
    ],
)
def test_a_problem_in_a_nested_condition_is_reported_where_it_is_written(when: str, column: int, path: str) -> None:
    """An unknown name in a nested trick condition (the compiler's problem) and an unknown suit
    (the semantic checks') each at the nested key."""
    problem = first_problem(f"rewards:\n  - {{name: x, to: winner, when: {when}, give: {{points: 1}}}}\n")
    assert (problem.line, problem.column, problem.path) == (18, column, path)


# ------------------------------------------------------------ counting faces by the deal

FACES = """  cards:
    - id: joker
      faces:
        - {suit: red, rank: 20, when: {not: {trump: true}}}
        - {suit: blue, rank: 20, when: {all: [{no_trumps: true}], any: [{trumps_include: green}, {trump: false}]}}
        - {suit: green, rank: 20}
"""


def test_a_faces_deal_conditions_combine_not_all_and_any() -> None:
    ruleset = load_ruleset_text(BASE.replace("  generate:\n", FACES + "  generate:\n"), players=3)
    joker = next(card for card in ruleset.deck.cards if card.id == "joker")
    assert [face.when for face in joker.faces] == [
        DealCondition(negate=DealCondition(trump=True)),
        DealCondition(all_of=(DealCondition(no_trumps=True),), any_of=(DealCondition(trumps_include=GREEN), DealCondition(trump=False))),
        None,
    ]


# ------------------------------------------------------------ ranking steps

BASE_RANKING = "ranking:\n  - prefer: trump\n  - prefer: led\n  - highest: rank\n"


def with_ranking(steps: str) -> tuple[RankingStep, ...]:
    """The ranking of the base spec with its steps replaced by `steps`, compiled."""
    assert BASE_RANKING in BASE
    return load_ruleset_text(BASE.replace(BASE_RANKING, "ranking:\n" + steps), players=3).ranking


def test_an_order_of_ranks_is_one_case_for_every_card() -> None:
    """Ranks listed alone: one case, no condition; (rank, place) pairs by rank, places from 1."""
    ranking = with_ranking("  - order: [3, 1, 2]\n")
    assert ranking == (RankingStep("order", order=((None, ((1, 2), (2, 3), (3, 1))),)),)


def test_an_order_by_cases_keeps_each_cases_condition() -> None:
    ranking = with_ranking("  - order: [{when: {suit: red}, ranks: [2, 1]}, {ranks: [1, 2]}]\n")
    assert ranking == (
        RankingStep("order", order=((CardCondition(suits=frozenset({RED})), ((1, 2), (2, 1))), (None, ((1, 1), (2, 2))))),
    )


def test_a_prefer_condition_is_a_condition_group_that_may_read_the_trick() -> None:
    (prefer, highest) = with_ranking("  - prefer: {suit: green, trick: \"cards == 3\"}\n  - highest: rank\n")
    assert (prefer.kind, prefer.group, highest) == ("prefer", "condition", RankingStep("highest"))
    assert prefer.condition is not None and prefer.condition.suits == frozenset({GREEN})
    assert prefer.condition.trick is not None and prefer.condition.trick.ranking == ()


def test_a_ranking_trick_condition_may_not_read_a_rewards_names() -> None:
    with pytest.raises(SpecError) as raised:
        with_ranking("  - prefer: {trick: \"winner_rank > 1\"}\n  - highest: rank\n")
    problem = raised.value.problems[0]
    assert problem.code == "TR141" and "winner_rank" in problem.message and problem.path == "$.ranking[0].prefer.trick"


# ------------------------------------------------------------ point rules


def test_point_rules_keep_their_names_and_defaults() -> None:
    extra = "teams: [[0, 2], [1, 3]]\n"
    scoring = """scoring:
  round:
    - add: tricks
    - {name: doubled, add: cards, times: 2}
    - add: "tricks + 1"
    - {name: sides, per: team, add: "tricks * 2"}
"""
    text = BASE4.replace("scoring:\n  round:\n    - add: tricks\n", scoring) + extra
    rules = load_ruleset_text(text, players=4).scoring.round_rules
    assert [(r.kind, r.name, r.per) for r in rules] == [
        ("add", "", "player"), ("add", "doubled", "player"), ("expression", "", "player"), ("expression", "sides", "team")]
    assert rules[0] == PointRule("add", measure=0, times=1)
    assert rules[1] == PointRule("add", measure=1, times=2, name="doubled")


def test_an_unknown_name_in_a_point_rule_is_reported_at_its_index() -> None:
    text = BASE.replace("    - add: tricks\n", "    - add: tricks\n    - add: trix\n")
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text, players=3)
    problem = raised.value.problems[0]
    assert (problem.code, problem.path, problem.line) == ("TR309", "$.scoring.round[1].add", 17)


# ------------------------------------------------------------ the round


def test_a_spec_without_a_round_deals_plays_and_scores() -> None:
    """No `round` key: the ruleset keeps none, and the game takes the default steps."""
    ruleset = compiled()
    assert ruleset.round == ()
    assert [step.kind for step in load_game(ruleset).steps] == ["deal", "play", "score"]
