"""How schema problems are explained: each kind of schema error on a tiny spec built in the test,
with the exact message, code and position a designer sees."""

from __future__ import annotations

from helpers import SCHEMA_TINY as TINY, problems

from pathlib import Path

import pytest

from trickrules.errors import Problem, SpecError
from trickrules.spec.checks import (
    check_spec,
    load_spec,
    load_spec_text,
    pattern_words,
    spec_schema,
    spec_warnings,
)
from trickrules.spec.compiler import compile_ruleset
from trickrules.spec.source import read_spec_text

RANKING = "  - highest: rank"




def first(text: str) -> tuple[str, int, int, str, str]:
    """The first problem loading a spec text raises."""
    return problems(text)[0]


def test_the_tiny_spec_loads() -> None:
    """The base of every broken spec below has no problems."""
    assert load_spec_text(TINY).data["id"] == "tiny"


# --- the schema itself ------------------------------------------------------------------------


def test_spec_schema_is_a_deep_copy() -> None:
    """Changing a nested part of the returned schema leaves the next copy (and checking) alone."""
    schema = spec_schema()
    schema["$defs"]["name"]["pattern"] = "^.*$"
    schema["properties"]["players"]["items"]["maximum"] = 99
    fresh = spec_schema()
    assert fresh["$defs"]["name"]["pattern"] == "^[a-z][a-z0-9_]*$"
    assert fresh["properties"]["players"]["items"]["maximum"] == 10
    assert first(TINY.replace("players: [3]", "players: [11]")) == (
        "TR204", 3, 11, "$.players[0]", "item 0 of 'players': 11 is too large; the maximum is 10")


# --- sizes of mappings (minProperties / maxProperties) ---------------------------------------


def test_a_ladder_step_with_no_key_must_have_exactly_one() -> None:
    """An empty one-key mapping (min 1, max 1) says how many keys it has."""
    assert problems(TINY.replace(RANKING, "  - {}")) == [
        ("TR204", 12, 5, "$.ranking[0]", "item 0 of 'ranking': must have exactly one key, not 0")]


def test_a_ladder_step_with_two_keys_must_have_exactly_one() -> None:
    """Two keys in a one-key mapping are counted in the message."""
    assert problems(TINY.replace(RANKING, "  - {highest: rank, lowest: rank}")) == [
        ("TR204", 12, 5, "$.ranking[0]", "item 0 of 'ranking': must have exactly one key, not 2")]


def test_a_follow_rule_parameter_it_does_not_take_names_the_one_it_takes() -> None:
    """A follow rule takes one parameter (unless_partner_winning): another is named, with it."""
    assert first(TINY + "follow: [{follow_led: {x: 1}}]\n") == (
        "TR201", 16, 24, "$.follow[0].follow_led.x", "unknown key 'x'; allowed: unless_partner_winning")


def test_an_empty_by_players_must_not_be_empty() -> None:
    """A mapping with only a minimum of one key says it must not be empty."""
    assert problems(TINY.replace("hand_size: 4", "hand_size: {by_players: {}}")) == [
        ("TR204", 10, 15, "$.deal.hand_size.by_players", "'by_players': must not be an empty mapping")]


def test_an_empty_preference_must_not_be_empty() -> None:
    """An empty card condition (min 1, no max) says it must not be empty."""
    assert first(TINY.replace(RANKING, "  - prefer: {}\n" + RANKING)) == (
        "TR204", 12, 5, "$.ranking[0].prefer", "'prefer': must not be an empty mapping")


# --- repeated items ---------------------------------------------------------------------------


def test_a_repeated_player_count_is_named_at_the_repeat() -> None:
    """uniqueItems names the list, the repeated value and points at the second one."""
    assert problems(TINY.replace("players: [3]", "players: [3, 4, 3, 4]")) == [
        ("TR204", 3, 17, "$.players[2]", "'players': 3 appears more than once")]


def test_a_repeated_seat_in_a_team_is_named_by_its_list() -> None:
    """A repeat inside a nested list names the item of the outer list."""
    assert first(TINY + "teams: [[0, 0], [1]]\n") == (
        "TR204", 16, 13, "$.teams[0][1]", "item 0 of 'teams': 0 appears more than once")


# --- values: enum, const, bounds, sizes, patterns, not ----------------------------------------


def test_an_enum_near_miss_suggests_the_close_choice() -> None:
    """A misspelt choice lists the choices and the close one."""
    assert first(TINY.replace(RANKING, "  - prefer: trum\n" + RANKING)) == (
        "TR204", 12, 5, "$.ranking[0].prefer",
        "'prefer': 'trum' is not allowed; expected 'trump' or 'led'; did you mean 'trump'?")


def test_an_enum_far_miss_only_lists_the_choices() -> None:
    """A choice nothing like the allowed ones gets no suggestion."""
    assert first(TINY + "won_cards: zzzz\n") == (
        "TR204", 16, 1, "$.won_cards", "'won_cards': 'zzzz' is not allowed; expected 'pile' or 'tableau'")


def test_a_list_of_three_choices_is_joined_with_commas_and_or() -> None:
    """Three or more choices read 'a, b or c'."""
    assert first(TINY + "round: [deal, shuffle, play, score]\n") == (
        "TR204", 16, 15, "$.round[1]",
        "item 1 of 'round': 'shuffle' is not allowed; expected 'deal', 'turn_up', 'choose_trumps', 'play', 'score', "
        "'go_alone', 'show_melds' or 'complete_deal'")


def test_a_number_below_the_minimum() -> None:
    """minimum names the value and the minimum."""
    assert first(TINY.replace("players: [3]", "players: [1]")) == (
        "TR204", 3, 11, "$.players[0]", "item 0 of 'players': 1 is too small; the minimum is 2")


def test_an_empty_list_with_at_least_one_item() -> None:
    """minItems 1 says the list must not be empty."""
    assert first(TINY.replace("players: [3]", "players: []")) == (
        "TR204", 3, 1, "$.players", "'players': must not be an empty list")


def test_a_short_list_with_at_least_several_items() -> None:
    """minItems above 1 names how many items are needed."""
    assert first(TINY + "round: [deal, play]\n") == ("TR204", 16, 1, "$.round", "'round': needs at least 3 items")
    assert first(TINY + "teams: [[0]]\n") == ("TR204", 16, 1, "$.teams", "'teams': needs at least 2 items")


def test_an_empty_string() -> None:
    """minLength says the text must not be empty."""
    assert first(TINY.replace("title: Tiny", "title: ''")) == ("TR204", 2, 1, "$.title", "'title': must not be empty")


def test_an_id_that_breaks_its_pattern_is_explained_in_words() -> None:
    """A pattern is told in words, never as a regular expression."""
    assert first(TINY.replace("id: tiny", "id: My Game")) == (
        "TR204", 1, 1, "$.id",
        "'id': 'My Game' is not allowed: use lower-case letters, digits, '_' and '-', starting with a letter")


def test_a_suit_name_pattern_in_words() -> None:
    """A name pattern says lower-case letters, digits and '_'."""
    assert first(TINY.replace("[red, blue, green]", "[red, Blue, green]")) == (
        "TR204", 5, 16, "$.deck.suits[1]",
        "item 1 of 'suits': 'Blue' is not allowed: use lower-case letters, digits and '_', starting with a letter")


def test_a_card_id_pattern_in_words() -> None:
    """The card id pattern mentions the #N of copies."""
    text = TINY.replace("  generate:\n    - suits: all\n      ranks: {from: 1, to: 4}",
                        "  cards:\n    - faces: [{suit: red, rank: 1}]\n      id: '-x'")
    assert first(text) == (
        "TR204", 8, 7, "$.deck.cards[0].id",
        "'id': '-x' is not allowed: use letters, digits, '_', '/' and '-', starting with a letter or digit "
        "(and #N at the end for a copy)")


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("^[a-z][a-z0-9_]*$", "use lower-case letters, digits and '_', starting with a letter"),
        ("^[a-z][a-z0-9_-]*$", "use lower-case letters, digits, '_' and '-', starting with a letter"),
        ("^-?[0-9]+$", "write a whole number"),
        ("^[0-9]+$", "write a whole number, 0 or more"),
        ("^x+$", "it is not written in the form this key takes (see the spec reference)"),
    ],
)
def test_pattern_words(pattern: str, words: str) -> None:
    """Every schema pattern has its words, and an unknown one a general hint."""
    assert pattern_words(pattern) == words


def test_a_not_rule_gives_its_description() -> None:
    """A 'not' in the schema explains itself by its description."""
    assert first(TINY + "options:\n  mode: {type: choice, choices: [a, b], default: a, min: 1}\n") == (
        "TR204", 17, 53, "$.options.mode.min", "'min': min is only for options of type integer")


def test_a_dependent_schema_gives_its_description() -> None:
    """when_no_space without to: tableau is explained by the dependent schema's words."""
    assert problems(TINY + "tokens:\n  coin:\n    to: player\n    when_no_space: lost\n") == [
        ("TR204", 18, 5, "$.tokens.coin.to", "when_no_space is only for tokens with to: tableau")]


def test_a_dependent_schema_without_description_gives_the_schema_message() -> None:
    """A dependent schema's required key with no description falls back to jsonschema's words."""
    assert problems(TINY + "tokens:\n  coin:\n    when_no_space: lost\n") == [
        ("TR204", 17, 3, "$.tokens.coin", "'to' is a required property")]


# --- mapping keys (propertyNames) -------------------------------------------------------------


def test_a_token_kind_with_a_bad_name() -> None:
    """A key that is not a name is reported at the key, with the name hint."""
    assert problems(TINY + "tokens:\n  Coin: {}\n") == [
        ("TR204", 17, 3, "$.tokens.Coin", "invalid name 'Coin': use lower-case letters, digits and '_', starting with a letter")]


def test_a_rank_name_key_must_be_a_whole_number() -> None:
    """A key that must be a number says so."""
    assert first(TINY.replace("[red, blue, green]", "[red, blue, green]\n  rank_names: {x: J}")) == (
        "TR204", 6, 16, "$.deck.rank_names.x", "key 'x' must be a whole number")


def test_a_bid_name_key_must_be_a_whole_number() -> None:
    """The non-negative number pattern of bid names is also a whole number."""
    text = TINY + "round: [deal, {bid: {names: {x: nil}}}, play, score]\n"
    assert first(text) == ("TR204", 16, 30, "$.round[1].bid.names.x", "key 'x' must be a whole number")


def test_an_empty_rank_name() -> None:
    """A value under a number key is named by its key."""
    assert first(TINY.replace("[red, blue, green]", "[red, blue, green]\n  rank_names: {3: ''}")) == (
        "TR204", 6, 16, "$.deck.rank_names['3']", "'3': must not be empty")


# --- unknown keys -----------------------------------------------------------------------------


def test_an_unknown_top_level_key_suggests_the_close_one() -> None:
    """A near miss gets 'did you mean'."""
    assert problems(TINY + "trumpz: [red]\n") == [
        ("TR201", 16, 1, "$.trumpz", "unknown key 'trumpz', did you mean 'trumps'?")]


def test_an_unknown_top_level_key_lists_the_allowed_keys() -> None:
    """A key like no other lists every allowed key, sorted."""
    assert problems(TINY + "zzzzzz: 1\n") == [
        ("TR201", 16, 1, "$.zzzzzz",
         "unknown key 'zzzzzz'; allowed: contracts, counters, deal, deck, define, description, extends, follow, id, "
         "kept_cards, language, open_hand, options, play_ends_when, players, ranking, restrictions, rewards, round, rounds, scoring, set_aside_in_play, tableau, teams, "
         "title, tokens, trumps, version, won_cards")]


def test_every_unknown_key_of_a_mapping_is_reported() -> None:
    """Two unknown keys give two problems, each at its key."""
    assert problems(TINY.replace("hand_size: 4", "hand_size: 4\n  hand_sise: 4\n  zzzz: 1")) == [
        ("TR201", 11, 3, "$.deal.hand_sise", "unknown key 'hand_sise', did you mean 'hand_size'?"),
        ("TR201", 12, 3, "$.deal.zzzz", "unknown key 'zzzz'; allowed: dealer, first_leader, first_stage, hand_size, next_leader"),
    ]


def test_an_unknown_key_of_an_alternative_suggests_the_close_one() -> None:
    """Under anyOf, a key no fitting alternative knows is reported at the key."""
    assert problems(TINY.replace(RANKING, "  - prefer: {rnk: 3}\n" + RANKING)) == [
        ("TR201", 12, 14, "$.ranking[0].prefer.rnk", "unknown key 'rnk', did you mean 'rank'?")]


def test_unknown_keys_of_an_alternative_list_the_allowed_keys() -> None:
    """Under anyOf, a key like no other lists the alternative's keys, and a known key is not reported."""
    assert problems(TINY.replace(RANKING, "  - prefer: {rank: 3, bogus: 1}\n" + RANKING)) == [
        ("TR201", 12, 23, "$.ranking[0].prefer.bogus",
         "unknown key 'bogus'; allowed: all, any, attribute, led, not, rank, suit, trick, trump")]


# --- missing keys and types -------------------------------------------------------------------


def test_missing_required_keys_are_each_reported_at_the_mapping() -> None:
    """Two missing keys give two problems at the mapping."""
    assert problems(TINY.replace("id: tiny\ntitle: Tiny\n", "")) == [
        ("TR202", 1, 1, "$", "missing required key 'id'"),
        ("TR202", 1, 1, "$", "missing required key 'title'"),
    ]


def test_missing_one_of_two_alternative_keys() -> None:
    """Alternatives that each only require a key list both keys."""
    text = TINY.replace("  generate:\n    - suits: all\n      ranks: {from: 1, to: 4}\n", "")
    assert problems(text) == [("TR202", 4, 1, "$.deck", "missing required key: 'generate' or 'cards'")]


def test_both_of_two_keys_of_which_one_is_allowed_are_named() -> None:
    restriction = "restrictions:\n  - {name: x, allow: {suit: red}, forbid: {suit: blue}}\n"
    assert problems(TINY + restriction) == [("TR204", 17, 5, "$.restrictions[0]", "has 'allow' and 'forbid'; give only one of 'allow' or 'forbid'")]


def test_a_value_of_the_wrong_type_where_one_of_some_keys_is_required_is_one_problem() -> None:
    """A string where a mapping with `allow` or `forbid` belongs is reported as a string, with
    no word of keys that a string cannot have (even when its text holds their names)."""
    assert problems(TINY + "restrictions:\n  - allow forbid\n") == [
        ("TR203", 17, 5, "$.restrictions[0]", "item 0 of 'restrictions' should be a mapping, not a string ('allow forbid')")]


def test_missing_one_of_four_alternative_keys() -> None:
    """A measure that names no kind lists the four kinds, 'a, b, c or d'."""
    text = TINY.replace("scoring:\n", "scoring:\n  measures:\n    m: {report: true}\n")
    assert problems(text) == [
        ("TR202", 15, 5, "$.scoring.measures.m", "missing required key: 'sum_attribute', 'count', 'tableau', 'tokens', 'run' or 'meld'")]


def test_a_wrong_type_names_the_expected_type() -> None:
    """A type error names what was expected and what was found."""
    assert first(TINY.replace("players: [3]", "players: 3")) == (
        "TR203", 3, 1, "$.players", "'players' should be a list, not an integer (3)")
    assert first(TINY.replace("players: [3]", "players: [3.5]")) == (
        "TR203", 3, 11, "$.players[0]", "item 0 of 'players' should be an integer, not a number (3.5)")
    assert first(TINY.replace("players: [3]", "players: [true]")) == (
        "TR203", 3, 11, "$.players[0]", "item 0 of 'players' should be an integer, not a boolean (True)")


def test_a_wrong_type_under_alternatives_names_every_alternative() -> None:
    """A value no alternative fits lists them all: types, consts and enums."""
    assert first(TINY.replace(RANKING, "  - prefer: 3\n" + RANKING)) == (
        "TR203", 12, 5, "$.ranking[0].prefer", "'prefer' should be 'trump' or 'led' or a mapping, not an integer (3)")
    assert first(TINY.replace(RANKING, "  - highest: 3")) == (
        "TR203", 12, 5, "$.ranking[0].highest", "'highest' should be 'rank' or a mapping, not an integer (3)")
    assert first(TINY.replace("hand_size: 4", "hand_size: five")) == (
        "TR203", 10, 3, "$.deal.hand_size", "'hand_size' should be an integer or a mapping, not a string ('five')")
    assert first(TINY.replace("hand_size: 4", "hand_size: 5.0")) == (
        "TR203", 10, 3, "$.deal.hand_size", "'hand_size' should be an integer or a mapping, not a number (5.0)")


def test_a_wrong_type_for_a_mapping_with_alternative_keys() -> None:
    """A deck that is no mapping says so, though the deck's alternatives are about its keys."""
    deck = "deck:\n  suits: [red, blue, green]\n  generate:\n    - suits: all\n      ranks: {from: 1, to: 4}\n"
    assert problems(TINY.replace(deck, "deck: 3\n")) == [("TR203", 4, 1, "$.deck", "'deck' should be a mapping, not an integer (3)")]


def test_a_wrong_type_among_nested_alternatives_names_each_type() -> None:
    """Alternatives that are themselves alternatives are named by every type inside them."""
    assert problems(TINY.replace(RANKING, "  - prefer: {rank: {}}\n" + RANKING)) == [
        ("TR203", 12, 14, "$.ranking[0].prefer.rank", "'rank' should be an integer or a string or a list, not a mapping")]
    assert problems(TINY + "round: [deal, {pass: {cards: 1, to: 1.5}}, play, score]\n") == [
        ("TR203", 16, 33, "$.round[1].pass.to",
         "'to' should be 'left', 'right', 'across' or 'none' or an integer or a mapping, not a number (1.5)")]


def test_a_fitting_alternative_is_explained_by_its_own_problem() -> None:
    """When one alternative fits the type, its own problem is reported, not the anyOf."""
    assert problems(TINY.replace("hand_size: 4", "hand_size: 0")) == [
        ("TR204", 10, 3, "$.deal.hand_size", "'hand_size': 0 is too small; the minimum is 1")]
    assert problems(TINY.replace("hand_size: 4", "hand_size: {by_players: {3: 0}}")) == [
        ("TR204", 10, 28, "$.deal.hand_size.by_players['3']", "'3': 0 is too small; the minimum is 1")]


# --- overlays ---------------------------------------------------------------------------------

PARENT = """id: tiny
title: Tiny
players: [2, 3]
deck:
  suits: [red, blue]
  generate:
    - {suits: all, ranks: {from: 1, to: 10}}
deal:
  hand_size: 5
ranking:
  - prefer: led
  - highest: rank
scoring:
  round:
    - add: tricks
"""


def _overlay(tmp_path: Path, child: str) -> list[Problem]:
    """Problems of an overlay of PARENT, both written to tmp_path."""
    (tmp_path / "parent.yaml").write_text(PARENT, "utf-8")
    (tmp_path / "child.yaml").write_text("extends: parent.yaml\n" + child, "utf-8")
    with pytest.raises(SpecError) as raised:
        load_spec(tmp_path / "child.yaml")
    return list(raised.value.problems)


def test_an_overlay_that_changes_a_kind_names_the_parent(tmp_path: Path) -> None:
    """A wrong type an overlay brought names where its parent set the value."""
    [problem] = _overlay(tmp_path, "deal: 6\n")
    assert (problem.code, problem.line, problem.column, problem.path) == ("TR203", 2, 1, "$.deal")
    assert problem.message == (
        f"'deal' should be a mapping, not an integer (6); the overlay replaces a mapping that its parent sets at "
        f"{tmp_path / 'parent.yaml'}:8:1")


def test_an_overlay_kind_change_above_the_problem_is_named(tmp_path: Path) -> None:
    """A type error under a value whose kind the overlay changed names the changed value's place."""
    [problem] = _overlay(tmp_path, "deal:\n  hand_size: {by_players: {2: many}}\n")
    assert (problem.code, problem.line, problem.column) == ("TR203", 3, 28)
    assert problem.message == (
        f"'2' should be an integer, not a string ('many'); the overlay replaces a number that its parent sets at "
        f"{tmp_path / 'parent.yaml'}:9:3")


def test_an_overlay_kind_change_just_above_the_problem_is_named(tmp_path: Path) -> None:
    """A type error one level under the value whose kind the overlay changed names that value."""
    [problem] = _overlay(tmp_path, "deal:\n  hand_size: {by_players: 5}\n")
    assert (problem.code, problem.line, problem.column, problem.path) == ("TR203", 3, 15, "$.deal.hand_size.by_players")
    assert problem.message == (
        f"'by_players' should be a mapping, not an integer (5); the overlay replaces a number that its parent sets at "
        f"{tmp_path / 'parent.yaml'}:9:3")


def test_an_overlay_value_problem_has_no_note(tmp_path: Path) -> None:
    """Only wrong types get the overlay note; a bad value of the same kind does not."""
    [problem] = _overlay(tmp_path, "deal:\n  hand_size: 0\n")
    assert (problem.code, problem.line, problem.column, problem.message) == (
        "TR204", 3, 3, "'hand_size': 0 is too small; the minimum is 1")


def test_a_type_error_without_an_overlay_has_no_note() -> None:
    """A spec with no parent never mentions an overlay."""
    assert first(TINY.replace("deal:\n  hand_size: 4", "deal: 6"))[4] == "'deal' should be a mapping, not an integer (6)"


# --- the order of checks ----------------------------------------------------------------------


def test_problems_are_sorted_by_position() -> None:
    """Problems come in file order whatever order the schema finds them in."""
    text = TINY.replace("players: [3]", "players: [1]") + "zzzz: 1\n"
    text = text.replace("title: Tiny\n", "")
    assert [(p[0], p[1]) for p in problems(text)] == [("TR202", 1), ("TR204", 2), ("TR201", 15)]


def test_meaning_is_checked_only_once_the_schema_passes() -> None:
    """An undefined suit is not reported while there is a schema problem."""
    bad_meaning = TINY.replace(RANKING, "  - prefer: {suit: purple}\n" + RANKING)
    assert [p[0] for p in problems(bad_meaning)] == ["TR301"]
    assert [p[0] for p in problems(bad_meaning + "zzzz: 1\n")] == ["TR201"]


def test_a_compile_problem_is_reported_once_for_every_player_count() -> None:
    """A bad expression is found by compiling and reported once, not once per player count."""
    text = TINY.replace("players: [3]", "players: [3, 4]").replace("to: 4}", "to: 8}")
    assert problems(text.replace("add: tricks", "add: 'tricks +'")) == [
        ("TR140", 15, 21, "$.scoring.round[0].add", "syntax error: invalid syntax")]


def test_every_player_count_is_compiled() -> None:
    """A seat across the table exists with four players but not three; every count is compiled."""
    four_or_three = TINY.replace("players: [3]", "players: [4, 3]").replace("to: 4}", "to: 8}")
    across = four_or_three + "round: [deal, {pass: {cards: 1, to: across}}, play, score]\n"
    assert problems(across) == [("TR321", 16, 37, "$.round[1].pass.to", "no seat is across the table with 3 players")]
    assert problems(four_or_three + "teams: [[0, 2], [1]]\n" + across.removeprefix(four_or_three)) == [
        ("TR324", 16, 1, "$.teams", "teams must hold every seat 0..3 exactly once"),
        ("TR321", 17, 37, "$.round[1].pass.to", "no seat is across the table with 3 players"),
    ]


def test_check_spec_of_a_good_spec_is_empty() -> None:
    """check_spec returns no problems for a spec that loads."""
    assert check_spec(read_spec_text(TINY, "tiny.yaml")) == []
    assert spec_warnings(load_spec_text(TINY)) == []


def test_a_contract_is_checked_for_meaning_once_the_spec_is() -> None:
    """An undefined suit in a contract is found at the contract's key."""
    text = TINY + "round: [deal, {declare: {contracts: [grand]}}, play, score]\ncontracts:\n  grand:\n    trumps: [purple]\n"
    assert problems(text) == [("TR301", 19, 14, "$.trumps[0]", "undefined suit 'purple' (deck.suits has red, blue, green)")]
    with_meaning_problem = text.replace(RANKING, "  - prefer: {suit: pink}\n" + RANKING)
    assert [p[0] for p in problems(with_meaning_problem)] == ["TR301"]
    assert "'pink'" in problems(with_meaning_problem)[0][4]


def test_every_contract_is_checked_not_only_the_last() -> None:
    """A problem in the first of two contracts is kept, and each contract's problems are listed."""
    text = (TINY + "round: [deal, {declare: {contracts: [grand, nil]}}, play, score]\n"
            "contracts:\n  grand:\n    trumps: [purple]\n  nil:\n    trumps: %s\n")
    assert problems(text % "none") == [
        ("TR301", 19, 14, "$.trumps[0]", "undefined suit 'purple' (deck.suits has red, blue, green)")]
    assert problems(text % "[pink]") == [
        ("TR301", 19, 14, "$.trumps[0]", "undefined suit 'purple' (deck.suits has red, blue, green)"),
        ("TR301", 21, 14, "$.trumps[0]", "undefined suit 'pink' (deck.suits has red, blue, green)"),
    ]


def test_ranges_are_checked_once_the_meaning_passes() -> None:
    """A rank no card has is a range problem, found only when the meaning checks pass."""
    rank_nine = TINY.replace(RANKING, "  - prefer: {rank: 9}\n" + RANKING)
    assert problems(rank_nine) == [
        ("TR330", 12, 14, "$.ranking[0].prefer.rank", "rank 9: no card of the deck has it (ranks: 1 to 4)")]
    small = rank_nine.replace("hand_size: 4", "hand_size: 5")
    assert problems(small) == [
        ("TR305", 10, 3, "$.deal.hand_size", "deck too small: 3 players x 5 cards = 15, but the deck has 12")]
    assert [p[0] for p in problems(small + "zzzz: 1\n")] == ["TR201"]


def test_meaning_problems_come_in_file_order() -> None:
    """A deck too small and an undefined suit later in the file come by line."""
    text = TINY.replace("hand_size: 4", "hand_size: 5").replace(RANKING, "  - prefer: {suit: pink}\n" + RANKING)
    assert [(p[0], p[1], p[2]) for p in problems(text)] == [("TR305", 10, 3), ("TR301", 12, 14)]


def test_compiling_waits_for_the_ranges() -> None:
    """A bad expression is not reported while the deck is too small for a player count."""
    text = TINY.replace("players: [3]", "players: [4, 3]").replace("add: tricks", "add: 'tricks +'")
    assert problems(text) == [("TR305", 10, 3, "$.deal.hand_size", "deck too small: 4 players x 4 cards = 16, but the deck has 12")]


def test_a_limit_problem_is_reported() -> None:
    """A rank range past the limit is refused."""
    assert first(TINY.replace("to: 4}", "to: 2000}")) == (
        "TR204", 8, 7, "$.deck.generate[0].ranks", "the rank range makes more than 1000 ranks")


# --- alternatives: which one was meant --------------------------------------------------------

ROUND = TINY + "round: [deal, %s, play, score]\n"


def test_a_phase_with_a_misspelt_key_inside_is_explained_by_its_phase() -> None:
    """A mapping that is clearly a bid phase is explained as one."""
    assert problems(ROUND % "{bid: {valuez: 1}}") == [
        ("TR201", 16, 22, "$.round[1].bid.valuez", "unknown key 'valuez', did you mean 'values'?")]
    assert problems(ROUND % "{bid: 3}") == [
        ("TR203", 16, 16, "$.round[1].bid", "'bid' should be a mapping, not an integer (3)")]
    assert problems(ROUND % "{bid: {first: {seat: x}}}") == [
        ("TR203", 16, 30, "$.round[1].bid.first.seat", "'seat' should be an integer, not a string ('x')")]


def test_a_misspelt_phase_suggests_the_phase() -> None:
    """A key no phase knows is reported at the key, with the closest phase."""
    assert problems(ROUND % "{bidd: {}}") == [
        ("TR201", 16, 16, "$.round[1].bidd", "unknown key 'bidd', did you mean 'bid'?")]


def test_a_phase_that_is_no_phase_lists_the_named_phases() -> None:
    """An empty mapping or two phases at once fall back to the best match."""
    words = "is not allowed; expected 'deal', 'turn_up', 'choose_trumps', 'play', 'score', 'go_alone', 'show_melds' or 'complete_deal'"
    assert problems(ROUND % "{}") == [("TR204", 16, 15, "$.round[1]", f"item 1 of 'round': {{}} {words}")]
    assert problems(ROUND % "{bid: {}, pass: {}}") == [
        ("TR204", 16, 15, "$.round[1]", f"item 1 of 'round': {{'bid': {{}}, 'pass': {{}}}} {words}")]


def test_a_phase_of_the_wrong_type_lists_every_kind() -> None:
    """A number where a phase goes lists the named phases and a mapping."""
    assert problems(ROUND % "7") == [
        ("TR203", 16, 15, "$.round[1]", "item 1 of 'round' should be 'deal', 'turn_up', 'choose_trumps', 'play', "
         "'score', 'go_alone', 'show_melds' or 'complete_deal' or a mapping, not an integer (7)")]


REWARD = TINY + "tokens:\n  coin: {supply: 5}\nrewards:\n  - {name: r, to: winner, give: %s}\n"


def test_a_gift_is_explained_by_the_kind_of_gift_it_names() -> None:
    """A gift of tokens with a wrong amount, a misspelt key or a points key is explained as tokens."""
    assert problems(REWARD % "{token: coin, amount: x}") == [
        ("TR203", 19, 47, "$.rewards[0].give.amount", "'amount' should be an integer or a mapping, not a string ('x')")]
    assert problems(REWARD % "{tokn: coin, amount: 1}") == [
        ("TR201", 19, 34, "$.rewards[0].give.tokn", "unknown key 'tokn', did you mean 'token'?")]
    assert problems(REWARD % "{token: coin, points: 1}") == [
        ("TR201", 19, 47, "$.rewards[0].give.points", "unknown key 'points'; allowed: amount, token")]


def test_an_empty_gift_misses_its_keys() -> None:
    """An empty gift is explained as the first kind, with each missing key."""
    assert problems(REWARD % "{}") == [
        ("TR202", 19, 27, "$.rewards[0].give", "missing required key 'token'"),
        ("TR202", 19, 27, "$.rewards[0].give", "missing required key 'amount'"),
    ]


def test_a_const_names_the_one_value_allowed() -> None:
    """A key with a single allowed value says which."""
    assert problems(TINY.replace("hand_size: 4", "hand_size: 4\n  next_leader: winner")) == [
        ("TR204", 11, 3, "$.deal.next_leader", "'next_leader': expected 'trick_winner', not 'winner'")]


def test_a_text_among_alternatives_is_explained_by_the_text_alternative() -> None:
    """Text where a const or a mapping goes is compared with the const."""
    assert problems(TINY + "trumps: nonee\n") == [("TR204", 16, 1, "$.trumps", "'trumps': expected 'none', not 'nonee'")]
    assert problems(TINY.replace(RANKING, "  - highest: rnk")) == [
        ("TR204", 12, 5, "$.ranking[0].highest", "'highest': expected 'rank', not 'rnk'")]
    assert problems(TINY + "tokens:\n  coin: {supply: lots}\n") == [
        ("TR204", 17, 10, "$.tokens.coin.supply", "'supply': expected 'unlimited', not 'lots'")]


def test_a_number_among_alternatives_is_explained_by_the_number_alternative() -> None:
    """A negative supply is checked against the integer alternative's minimum."""
    assert problems(TINY + "tokens:\n  coin: {supply: -1}\n") == [
        ("TR204", 17, 10, "$.tokens.coin.supply", "'supply': -1 is too small; the minimum is 0")]


def test_a_wrong_type_among_consts_lists_and_mappings() -> None:
    """Consts, a referenced list and a mapping are each named once."""
    assert problems(TINY + "trumps: 3\n") == [
        ("TR203", 16, 1, "$.trumps", "'trumps' should be 'none', 'turned_up', 'first_led', a list or a mapping, not an integer (3)")]


def test_a_mapping_among_alternatives_with_a_misspelt_key() -> None:
    """A mapping where the mapping alternative goes is checked for unknown keys."""
    assert problems(TINY + "trumps: {chose: 1}\n") == [
        ("TR201", 16, 10, "$.trumps.chose", "unknown key 'chose', did you mean 'choose'?")]


def test_a_bad_name_inside_an_alternative() -> None:
    """A name in a mapping alternative is checked against its pattern."""
    assert problems(TINY.replace(RANKING, "  - highest: {attribute: Gems}")) == [
        ("TR204", 12, 15, "$.ranking[0].highest.attribute",
         "'attribute': 'Gems' is not allowed: use lower-case letters, digits and '_', starting with a letter")]


def test_an_enum_given_a_number_has_no_suggestion() -> None:
    """A number where a choice goes lists the choices without 'did you mean'."""
    assert problems(TINY + "won_cards: 3\n") == [
        ("TR204", 16, 1, "$.won_cards", "'won_cards': 3 is not allowed; expected 'pile' or 'tableau'")]
    assert problems(TINY + "won_cards: tablea\n") == [
        ("TR204", 16, 1, "$.won_cards",
         "'won_cards': 'tablea' is not allowed; expected 'pile' or 'tableau'; did you mean 'tableau'?")]


# --- the value of each case of an option -----------------------------------------------------

CHOICES = "options:\n  m: {type: choice, choices: [a, b], default: a}\n  d: {type: choice, choices: [x, y], default: x}\n  e: {type: choice, choices: [p, q], default: p}\n"


@pytest.mark.parametrize(("cases", "column", "path", "message"), [
    ("b: -3", 40, "$.deal.hand_size.cases.b", "'b': -3 is too small; the minimum is 1"),
    ("b: {option: d, cases: {x: 2, y: -3}}", 69, "$.deal.hand_size.cases.b.cases.y", "'y': -3 is too small; the minimum is 1"),
    ("b: {option: d, cases: {x: 2, y: {option: e, cases: {p: 1, q: -3}}}}", 98, "$.deal.hand_size.cases.b.cases.y.cases.q", "'q': -3 is too small; the minimum is 1"),
])
def test_a_case_is_checked_as_if_it_stood_in_its_options_place_however_deep(cases: str, column: int, path: str, message: str) -> None:
    """A case's value is checked where its option stands, and the problem is reported at the
    case: at the case of a case, and of a case of a case, too."""
    text = TINY.replace("hand_size: 4", "hand_size: {option: m, cases: {a: 4, %s}}" % cases) + CHOICES
    assert problems(text) == [("TR204", 10, column, path, message)]


def test_a_case_in_an_item_of_a_list_is_checked_in_that_item() -> None:
    reward = "rewards:\n  - {name: r, to: winner, when: {trick: {option: m, cases: {a: 'place == 1', b: [1]}}}, give: {points: 1}}\n"
    assert problems(TINY + reward + CHOICES) == [
        ("TR203", 17, 78, "$.rewards[0].when.trick.cases.b", "'b' should be a string, an integer, a boolean or a mapping, not a list")]


def test_a_case_under_a_name_that_is_cases_is_checked_like_any_other() -> None:
    """A defined expression may be named `cases`; only an option's own `cases` holds cases."""
    define = "define:\n  cases: {option: m, cases: {a: '1', b: [1]}}\n"
    assert problems(TINY + define + CHOICES) == [
        ("TR203", 17, 38, "$.define.cases.cases.b", "'b' should be a string, an integer, a boolean or a mapping, not a list")]


# --- warnings ---------------------------------------------------------------------------------

DEAD = TINY + "tokens:\n  coin: {supply: 5}\nrewards:\n  - {name: trumped, to: winner, when: {trump: true}, give: {token: coin, amount: 1}}\n"


def test_a_reward_no_card_can_meet_is_a_warning_not_an_error() -> None:
    """The spec loads, and its warnings name the dead reward at its place."""
    source = load_spec_text(DEAD, "tiny.yaml")
    [warning] = spec_warnings(source)
    assert (warning.code, warning.line, warning.column, warning.path, warning.severity) == (
        "TR501", 19, 5, "$.rewards[0]", "warning")
    assert warning.message == (
        "reward 'trumped' can never be given: no card of the deck can meet its condition, with any trumps the spec can have")


def test_warnings_use_the_ruleset_given() -> None:
    """Given a compiled ruleset, spec_warnings reads that ruleset rather than compiling again."""
    source = load_spec_text(DEAD, "tiny.yaml")
    assert spec_warnings(source, compile_ruleset(source)) == spec_warnings(source)
    assert spec_warnings(source, compile_ruleset(load_spec_text(TINY))) == []
