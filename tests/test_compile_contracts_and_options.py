"""The spec compiler (`trickrules.spec.compiler`, `trickrules.spec.compile_round`), continued:
contracts compiled over the spec, option values given at load time, the ruleset's own fields,
card attributes, rewards, tokens, the tableau and award keys. Written against mutation
testing's survivors; helpers and the base spec come from test_compile_keys."""

from __future__ import annotations

import pytest
from helpers import BASE, compiled, first_problem, round_with

from trickrules.errors import Problem, SpecError
from trickrules.rules.ruleset import Amount, AttributeTest, RankKey, Schedule, SectionValue, TokenKind
from trickrules.spec.checks import load_spec_text
from trickrules.spec.loader import load_ruleset_text

# ------------------------------------------------------------ contracts

CONTRACTS = """\
options:
  n: {type: integer, default: 2, min: 1, max: 9}
rounds: {option: n}
contracts:
  grand:
    description: "  Only the top.  "
    declarer: alone
    scoring:
      round:
        - {add: tricks, per: team}
  plain: {trumps: [red]}
""" + round_with("declare: {}")
"""Two contracts over a spec whose rounds are an option: ``grand`` (declarer alone, scored per
team without teams, a padded description) and ``plain`` (red trumps, no description)."""


def test_contracts_are_compiled_in_order_with_their_names_and_ids() -> None:
    """Each contract keeps its name, in spec order, and its ruleset's id is the spec's id, a colon and the name."""
    ruleset = compiled(CONTRACTS)
    assert ruleset.id == "tiny"
    assert [c.name for c in ruleset.contracts] == ["grand", "plain"]
    assert [c.ruleset.id for c in ruleset.contracts] == ["tiny:grand", "tiny:plain"]


def test_contract_descriptions_are_stripped_and_default_to_empty() -> None:
    """A contract's description loses its outer spaces; without one it is the empty string."""
    grand, plain = compiled(CONTRACTS).contracts
    assert grand.description == "Only the top."
    assert plain.description == ""


def test_a_contract_declared_alone_is_marked_and_may_score_per_team() -> None:
    """`declarer: alone` marks the contract's ruleset (teams come from the declarer), so `per: team` compiles without teams; other contracts are not marked."""
    grand, plain = compiled(CONTRACTS).contracts
    assert grand.ruleset.declarer_alone is True
    assert plain.ruleset.declarer_alone is False
    (rule,) = grand.ruleset.scoring.round_rules
    assert (rule.kind, rule.per) == ("expression", "team")


def test_a_contract_changes_only_its_own_keys() -> None:
    """The plain contract has red trumps; the spec itself and the other contract have none."""
    ruleset = compiled(CONTRACTS)
    grand, plain = ruleset.contracts
    assert plain.ruleset.trumps == frozenset({0})
    assert grand.ruleset.trumps == frozenset()
    assert ruleset.trumps == frozenset()


def test_contracts_read_the_option_values_given_at_load_time() -> None:
    """An option the spec reads (rounds) takes the value given at load time in every contract too."""
    ruleset = compiled(CONTRACTS, options={"n": 4})
    assert ruleset.rounds == 4
    assert [c.ruleset.rounds for c in ruleset.contracts] == [4, 4]


# ------------------------------------------------------------ option values given at load time

SUITS_OPTION = "options:\n  s: {type: suits, default: [red]}\ntrumps: {option: s}\n"
"""Trumps chosen by a suits option, red by default."""


def test_a_suits_option_given_at_load_time_sets_the_trumps() -> None:
    """A list of suits given for a suits option becomes the trumps, by suit index, and the recorded option value."""
    ruleset = compiled(SUITS_OPTION, options={"s": ["blue", "green"]})
    assert ruleset.trumps == frozenset({1, 2})
    assert ruleset.options == (("s", ("blue", "green")),)
    assert compiled(SUITS_OPTION).trumps == frozenset({0})


def test_an_unknown_suit_for_a_suits_option_is_reported_at_the_option() -> None:
    """TR307 at the option's definition, naming the unknown suit and the deck's suits."""
    problem = first_problem(SUITS_OPTION, options={"s": ["bleu"]})
    assert (problem.code, problem.message) == ("TR307", "option 's': unknown suit 'bleu' (suits: red, blue, green)")
    assert (problem.line, problem.column, problem.path) == (18, 3, "$.options.s")


def test_an_unknown_option_for_a_spec_without_options_lists_none() -> None:
    """TR304 says the spec has no options; the spec has no `options` key, so it points at the file's start."""
    problem = first_problem(options={"x": 1})
    assert (problem.code, problem.message) == ("TR304", "unknown option 'x' (options: none)")
    assert (problem.line, problem.column, problem.path) == (1, 1, "$.options")


def test_a_misspelt_option_suggests_the_nearest_name_at_options() -> None:
    """TR304 at the `options` key, with a did-you-mean for a near name."""
    problem = first_problem("options:\n  fast: {type: boolean, default: false}\n", options={"fsat": True})
    assert (problem.code, problem.message) == ("TR304", "unknown option 'fsat'; did you mean 'fast'? (options: fast)")
    assert (problem.line, problem.column, problem.path) == (17, 1, "$.options")


def test_an_option_value_over_a_limit_is_reported_where_the_spec_reads_it() -> None:
    """TR332 for a rounds option given 5000 at load time (the limit is 1000), at `rounds`."""
    problem = first_problem("options:\n  n: {type: integer, default: 3, min: 1}\nrounds: {option: n}\n", options={"n": 5000})
    assert (problem.code, problem.message) == ("TR332", "a game of 5000 rounds: over the limit of 1000 rounds")
    assert (problem.line, problem.path) == (19, "$.rounds")


def test_an_option_case_may_name_another_option() -> None:
    """A case of `{option, cases}` that is itself an option reference takes that option's value."""
    extra = (
        "options:\n  m: {type: choice, choices: [a, b], default: b}\n"
        "  d: {type: choice, choices: [left, right], default: right}\n"
        + round_with("pass: {to: {option: m, cases: {a: left, b: {option: d}}}}")
    )
    step = compiled(extra).round[1]
    assert step.passing is not None
    assert (step.passing.to, step.passing.to_names) == (Schedule((-1,)), ("right",))


def test_option_values_are_the_ruleset_constants() -> None:
    """Every option value, given or default, is a constant expressions read, sorted by name."""
    extra = "options:\n  z: {type: integer, default: 2, min: 1}\n  a: {type: boolean, default: true}\nrounds: {option: z}\n"
    assert compiled(extra, options={"z": 7}).constants == (("a", True), ("z", 7))


# ------------------------------------------------------------ the ruleset's own fields


def test_description_and_version_default_to_empty() -> None:
    """Without `description` and `version`, both are the empty string."""
    ruleset = compiled()
    assert (ruleset.description, ruleset.version) == ("", "")


def test_description_is_stripped_and_version_is_kept() -> None:
    """A description loses its outer whitespace; a version is kept as written."""
    ruleset = compiled('description: "  Small game.  "\nversion: "2.0"\n')
    assert (ruleset.description, ruleset.version) == ("Small game.", "2.0")


def test_rounds_until_is_the_ruleset_end_condition() -> None:
    """`rounds: {until: ...}` gives the ruleset its end expression."""
    ruleset = compiled("rounds: {until: round >= 3}\n")
    assert ruleset.until is not None and ruleset.until.text == "round >= 3"


def test_the_ruleset_records_its_source_digest() -> None:
    """The ruleset carries the digest of the spec it came from."""
    text = BASE + 'version: "1"\n'
    assert load_ruleset_text(text).source_digest == load_spec_text(text).digest


def test_passing_is_checked_against_the_smallest_hand_of_a_schedule() -> None:
    """With hand sizes 2 then 5 by round, passing 3 cards is TR322 against the 2 held."""
    text = BASE.replace("  hand_size: 5", "  hand_size: {by_round: [2, 5]}") + round_with("pass: {cards: 3}")
    problem = first_problem_text(text)
    assert (problem.code, problem.message) == ("TR322", "a player passes 3 cards but holds 2")
    assert (problem.line, problem.column, problem.path) == (19, 19, "$.round[1].pass.cards")


def first_problem_text(text: str) -> Problem:
    """The first problem loading the whole spec `text` reports."""
    with pytest.raises(SpecError) as info:
        load_ruleset_text(text)
    return info.value.problems[0]


# ------------------------------------------------------------ passing cards by the number of players


def test_pass_cards_by_players_takes_the_table_count() -> None:
    """`cards: {by_players: ...}` passes the number given for the table's player count."""
    phase = "pass: {cards: {by_players: {'3': 2, '4': 4}}}"
    for players, cards in ((3, 2), (4, 4)):
        step = compiled(round_with(phase), players=players).round[1]
        assert step.passing is not None and step.passing.cards == Schedule((cards,))


# ------------------------------------------------------------ card attributes, rewards and tokens

ATTRIBUTES = BASE.replace(
    "  generate:\n    - {suits: all, ranks: {from: 1, to: 8}}",
    "  attributes:\n    weight: {default: 1}\n    fame: {default: 0}\n"
    "  generate:\n    - {suits: all, ranks: {from: 1, to: 8}, attributes: {fame: {by_rank: {8: 3}, default: 0}}}",
)
"""The base deck with two attributes: weight (index 0) and fame (index 1, 3 for rank 8)."""


def test_attribute_tests_read_at_most_and_equals() -> None:
    """A condition's attribute test keeps its name's index and its at_most and equals bounds."""
    extra = "restrictions:\n  - {forbid: {attribute: {name: fame, at_most: 2}}}\n  - {forbid: {attribute: {name: fame, equals: 3}}}\n"
    first, second = load_ruleset_text(ATTRIBUTES + extra).restrictions
    assert first.forbid is not None and first.forbid.attribute == AttributeTest(1, None, 2, None)
    assert second.forbid is not None and second.forbid.attribute == AttributeTest(1, None, None, 3)


REWARDS = """\
rewards:
  - {name: top, to: winner, give: {points: {by_rank: {8: 2, 7: 1}}}}
  - {name: more, to: winner, give: {points: {by_rank: {8: 2}, default: 4}}}
  - {name: famous, to: losers, give: {points: {attribute: fame}}}
  - {name: firsts, to: winner, when: {trick: place == 1}, give: {points: 1}}
"""


def test_reward_amounts_by_rank_default_to_zero_or_the_given_default() -> None:
    """A by-rank amount is a sorted table; ranks not in it give 0 or the given default."""
    top, more, _, _ = load_ruleset_text(ATTRIBUTES + REWARDS).rewards
    assert top.amount == Amount(constant=0, by_rank=((7, 1), (8, 2)))
    assert more.amount == Amount(constant=4, by_rank=((8, 2),))


def test_a_reward_amount_may_be_an_attribute() -> None:
    """`{attribute: fame}` gives as much as the card's fame (attribute index 1)."""
    famous = load_ruleset_text(ATTRIBUTES + REWARDS).rewards[2]
    assert famous.amount == Amount(attribute=1)
    assert (famous.name, famous.to, famous.token) == ("famous", "losers", None)


def test_a_reward_trick_condition_reads_the_place_and_the_ranking() -> None:
    """A reward's `trick` condition may read `place`, and ranks the trick by the spec's ranking."""
    ruleset = load_ruleset_text(ATTRIBUTES + REWARDS)
    when = ruleset.rewards[3].when
    assert when is not None and when.trick is not None
    assert when.trick.expression.text == "place == 1"
    assert when.trick.ranking == ruleset.ranking
    assert len(ruleset.ranking) == 3


def test_an_unknown_name_in_a_reward_trick_case_is_reported_there() -> None:
    """An option's case the checks never saw: TR141 at the reward's `trick` key, listing the reward's names."""
    extra = (
        "options:\n  m: {type: choice, choices: [a, b], default: b}\n"
        "rewards:\n  - name: odd\n    to: winner\n    when:\n"
        "      trick: {option: m, cases: {a: place == 1, b: placce == 1}}\n"
        "    give: {points: 1}\n"
    )
    problem = first_problem(extra)
    assert problem.code == "TR141"
    assert problem.message.startswith("unknown name 'placce'; did you mean 'place'? (names here: ")
    assert "winner_rank" in problem.message
    assert (problem.line, problem.column, problem.path) == (23, 7, "$.rewards[0].when.trick")


TOKENS = """\
tokens:
  gem: {supply: 7, to: tableau, when_no_space: lost}
  chip: {supply: {by_players: {'3': 4, '4': 6}}}
tableau:
  token: gem
  sections:
    - {name: A, tokens_needed: 1, value: 2}
  score:
    cards_understaffed: -3
"""


def test_token_kinds_read_when_no_space_and_default_to_staying_in_supply() -> None:
    """`when_no_space: lost` is kept; without it a token stays in the supply; supply by players."""
    assert compiled(TOKENS, players=4).tokens == (
        TokenKind("gem", 7, "tableau", "lost"),
        TokenKind("chip", 6, "player", "stays_in_supply"),
    )


def test_a_constant_section_score_keeps_its_number() -> None:
    """A number for a tableau case is a constant of that number; omitted cases keep their defaults."""
    tableau = compiled(TOKENS).tableau
    assert tableau is not None
    assert tableau.cards_understaffed == SectionValue("constant", -3)
    assert tableau.empty_understaffed == SectionValue("constant", 0)
    assert (tableau.cards_staffed, tableau.empty_staffed) == (SectionValue("top_rank"), SectionValue("value"))


def test_award_keys_read_most_and_fewest() -> None:
    """`fewest` ranks by the fewest of a measure, `most` by the most."""
    text = BASE.replace("    - add: tricks\n", "    - award: {points: 5, to_best_by: [{fewest: tricks}, {most: cards}]}\n")
    (rule,) = load_ruleset_text(text).scoring.round_rules
    assert (rule.kind, rule.points) == ("award", 5)
    assert rule.keys == (RankKey(0, most=False), RankKey(1, most=True))
