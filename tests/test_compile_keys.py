"""The spec compiler (`trickrules.spec.compiler`, `trickrules.spec.compile_round`), key by key:
what an omitted key defaults to, that a given key is read, and the code, message and position
of each error it reports. Written against mutation testing's survivors, one topic per group."""

from __future__ import annotations

from helpers import BASE, BASE4, compiled, first_problem, round_with

from collections.abc import Mapping
from typing import Any

import pytest

from trickrules.errors import Problem, SpecError
from trickrules.rules.ruleset import BidPhase, ChooseRound, PassPhase, Ruleset, Schedule, TrumpChoice
from trickrules.spec.checks import load_spec_text, option_problems
from trickrules.spec.loader import load_ruleset_text









def passing(phase: str, players: int | None = None, options: Mapping[str, Any] | None = None) -> PassPhase:
    """The pass phase of a round of deal, `phase`, play and score."""
    step = compiled(round_with(phase), players, options).round[1]
    assert step.kind == "pass" and step.passing is not None
    return step.passing


def bidding(phase: str) -> BidPhase:
    """The bid phase of a round of deal, `phase`, play and score."""
    step = compiled(round_with(phase)).round[1]
    assert step.kind == "bid" and step.bidding is not None
    return step.bidding


# ------------------------------------------------------------ the pass phase


def test_pass_without_cards_passes_three_every_round() -> None:
    """`cards` defaults to 3, one value for every round."""
    assert passing("pass: {to: right}").cards == Schedule((3,))


def test_pass_cards_by_round_is_read() -> None:
    """A `cards` schedule by round keeps its values in order."""
    assert passing("pass: {cards: {by_round: [1, 2, 0]}}").cards == Schedule((1, 2, 0))


def test_pass_without_to_passes_left_in_a_fixed_order() -> None:
    """`to` defaults to left: one seat on, every round, not drawn by chance."""
    phase = passing("pass: {cards: 2}")
    assert phase.to == Schedule((1,), False)
    assert phase.to.chance is False
    assert phase.to_names == ("left",)


def test_pass_to_right_is_read() -> None:
    """A given direction replaces the default: right is one seat back."""
    phase = passing("pass: {cards: 2, to: right}")
    assert phase.to == Schedule((-1,))
    assert phase.to_names == ("right",)


def test_pass_to_by_round_cycles_its_directions() -> None:
    """`{by_round: [...]}` gives offsets in order (across is half the table), not by chance."""
    text = BASE4 + round_with("pass: {to: {by_round: [left, across, none, right]}}")
    phase = load_ruleset_text(text).round[1].passing
    assert phase is not None
    assert phase.to == Schedule((1, 2, 0, -1), False)
    assert phase.to.chance is False
    assert phase.to_names == ("left", "across", "none", "right")


def test_pass_to_by_chance_draws_from_its_directions() -> None:
    """`{chance: [...]}` gives the listed offsets, drawn by chance each round."""
    phase = passing("pass: {to: {chance: [right, none, left]}}")
    assert phase.to == Schedule((-1, 0, 1), True)
    assert phase.to.chance is True
    assert phase.to_names == ("right", "none", "left")


def test_pass_without_first_starts_left_of_dealer() -> None:
    """`first` defaults to left of the dealer, seat 0 unused."""
    phase = passing("pass: {cards: 1}")
    assert (phase.first, phase.first_seat) == ("left_of_dealer", 0)


def test_pass_first_seat_is_kept() -> None:
    """`first: {seat: N}` starts the passing at seat N."""
    phase = passing("pass: {cards: 1, first: {seat: 2}}")
    assert (phase.first, phase.first_seat) == ("seat", 2)


def test_pass_first_dealer_is_kept() -> None:
    """`first: dealer` starts the passing at the dealer."""
    phase = passing("pass: {cards: 1, first: dealer}")
    assert (phase.first, phase.first_seat) == ("dealer", 0)


def test_passing_more_cards_than_held_is_reported_at_cards() -> None:
    """TR322 at the pass's `cards` value (column 19), naming the count passed and the hand size."""
    problem = first_problem(round_with("pass: {cards: 6}"))
    assert (problem.code, problem.message) == ("TR322", "a player passes 6 cards but holds 5")
    assert (problem.line, problem.column, problem.path) == (19, 19, "$.round[1].pass.cards")


def test_passing_the_whole_hand_is_allowed() -> None:
    """Passing exactly the hand size is no error (the limit is more than held)."""
    assert passing("pass: {cards: 5}").cards == Schedule((5,))


def test_pass_across_with_an_odd_table_is_reported_at_to() -> None:
    """TR321 at the pass's `to` key (a mapping has no scalar value to point at): three players have no seat across the table."""
    problem = first_problem(round_with("pass: {to: {by_round: [left, across]}}"), players=3)
    assert (problem.code, problem.message) == ("TR321", "no seat is across the table with 3 players")
    assert (problem.line, problem.column, problem.path) == (19, 12, "$.round[1].pass.to")


def test_pass_first_seat_beyond_the_table_is_reported_at_first() -> None:
    """TR321 at the pass's `first` key: seat 3 does not exist with three players."""
    problem = first_problem(round_with("pass: {first: {seat: 3}}"), players=3)
    assert (problem.code, problem.message) == ("TR321", "seat 3 does not exist with 3 players")
    assert (problem.line, problem.column, problem.path) == (19, 12, "$.round[1].pass.first")


PASS_OPTION = """\
options:
  passing: {type: choice, choices: [plain, odd], default: plain}
round:
  - deal
  - pass:
      to:
        option: passing
        cases: {plain: right, odd: {by_round: []}}
  - play
  - score
"""
"""A pass direction by option, whose ``odd`` case is a mapping with no direction in it."""


def test_pass_direction_option_case_without_directions_is_reported() -> None:
    """TR204 at the pass's `to` when the chosen case lists no direction; `validate` finds it
    with the default choice too (`option_problems`, with the choice named)."""
    problem = first_problem(PASS_OPTION, options={"passing": "odd"})
    assert problem.code == "TR204"
    assert problem.message == "a pass direction is a direction, {by_round: [...]} or {chance: [...]}"
    assert (problem.line, problem.column, problem.path) == (22, 7, "$.round[1].pass.to")
    (found,) = option_problems(load_spec_text(BASE + PASS_OPTION, "tiny.yaml"))
    assert found.message == problem.message + " (with option passing = odd)"


def test_pass_direction_option_case_with_a_direction_compiles() -> None:
    """The same spec, its odd case given a direction, passes right in the plain case."""
    fixed = PASS_OPTION.replace("odd: {by_round: []}", "odd: {by_round: [left]}")
    assert fixed != PASS_OPTION
    step = compiled(fixed, options={"passing": "plain"}).round[1]
    assert step.passing is not None
    assert (step.passing.to, step.passing.to_names) == (Schedule((-1,)), ("right",))


# ------------------------------------------------------------ the bid phase


def test_bid_without_values_runs_from_zero_to_the_hand_size() -> None:
    """`values` defaults to 0 up to `hand_size`, an expression read at play time."""
    phase = bidding("bid: {}")
    assert phase.lowest == 0
    assert phase.highest.text == "hand_size"
    assert phase.highest({"hand_size": 5, "players": 4}) == 5
    assert phase.highest({"hand_size": 9, "players": 3}) == 9


def test_bid_values_from_without_to_still_ends_at_the_hand_size() -> None:
    """Giving only `values.from` keeps `to` at its default."""
    phase = bidding("bid: {values: {from: 1}}")
    assert phase.lowest == 1
    assert phase.highest({"hand_size": 7, "players": 4}) == 7


def test_bid_without_first_starts_left_of_dealer() -> None:
    """`first` defaults to left of the dealer."""
    phase = bidding("bid: {}")
    assert (phase.first, phase.first_seat) == ("left_of_dealer", 0)


def test_bid_first_seat_is_kept() -> None:
    """`first: {seat: N}` starts the bidding at seat N."""
    phase = bidding("bid: {first: {seat: 2}}")
    assert (phase.first, phase.first_seat) == ("seat", 2)


def test_bid_first_dealer_is_kept() -> None:
    """`first: dealer` starts the bidding at the dealer."""
    phase = bidding("bid: {first: dealer}")
    assert (phase.first, phase.first_seat) == ("dealer", 0)


# ------------------------------------------------------------ choosing trumps in rounds


def choose_rounds(rounds: str) -> tuple[ChooseRound, ...]:
    """The choosing rounds of `trumps: {choose: {by: dealer, rounds: [...]}}` (flow-style items)."""
    trumps = compiled(f"trumps:\n  choose:\n    by: dealer\n    rounds: [{rounds}]\n").trumps
    assert isinstance(trumps, TrumpChoice)
    return trumps.rounds


def test_choose_round_defaults() -> None:
    """An empty choosing round offers the turned-up suit; the dealer need not choose, takes no
    card, and may discard the turned-up card."""
    assert choose_rounds("{}") == (ChooseRound("turned_up", (), False, False, True),)
    (only,) = choose_rounds("{}")
    assert only.may_discard_turned_up is True
    assert only.dealer_must_choose is False and only.dealer_takes_turned_up is False


def test_choose_round_from_a_list_of_suits_is_listed() -> None:
    """`from: [suits]` makes the round offer exactly those suits, by index."""
    (only,) = choose_rounds("{from: [green, red]}")
    assert (only.suits, only.listed) == ("listed", (2, 0))


def test_choose_round_from_a_word_keeps_the_word() -> None:
    """`from: others` is kept as the word, with no listed suits."""
    (only,) = choose_rounds("{from: others}")
    assert (only.suits, only.listed) == ("others", ())


def test_choose_round_flags_are_read() -> None:
    """Each flag given replaces its default."""
    (only,) = choose_rounds("{dealer_must_choose: true, dealer_takes_turned_up: true, may_discard_turned_up: false}")
    assert (only.dealer_must_choose, only.dealer_takes_turned_up, only.may_discard_turned_up) == (True, True, False)


# ------------------------------------------------------------ choices made at compile time


def test_a_player_count_not_allowed_lists_the_allowed_counts() -> None:
    """TR310 names the chosen count and every allowed count, comma-separated, at `players`."""
    problem = first_problem(players=5)
    assert (problem.code, problem.message) == ("TR310", "5 players not allowed (allowed: 3, 4)")
    assert (problem.line, problem.column, problem.path) == (3, 1, "$.players")


def test_an_unknown_option_lists_the_options() -> None:
    """TR304 names the unknown option and every defined option, comma-separated."""
    options = "options:\n  fast: {type: boolean, default: false}\n  slow: {type: boolean, default: true}\n"
    problem = first_problem(options, options={"medium": True})
    assert problem.code == "TR304"
    assert problem.message == "unknown option 'medium' (options: fast, slow)"
    assert problem.path == "$.options"


# ------------------------------------------------------------ the phases of a round


def test_a_spec_without_round_compiles_no_steps() -> None:
    """Without `round`, the ruleset lists no steps (play uses the default round)."""
    assert compiled().round == ()


def test_round_steps_keep_their_order_and_kinds() -> None:
    """Words become steps of that kind; pass and bid entries become their phases."""
    steps = compiled("round:\n  - deal\n  - pass: {cards: 1}\n  - bid: {}\n  - play\n  - score\n").round
    assert [s.kind for s in steps] == ["deal", "pass", "bid", "play", "score"]
    assert steps[1].passing is not None and steps[1].bidding is None
    assert steps[2].bidding is not None and steps[2].passing is None


ROUND_ERRORS = [
    ("round:\n  - deal\n  - play\n  - pass: {cards: 1}\n  - score\n",
     "a round is deal, then any turn_up, pass, choose_trumps, bid, declare, auction, call, take, go_alone, complete_deal or show_melds phases, then play and score, once each"),
    ("round:\n  - deal\n  - bid: {}\n  - bid: {}\n  - play\n  - score\n",
     "a round has one bid, one declare, one auction, one call, one take, one turn_up, one complete_deal and one show_melds phase at most"),
    ("trumps: turned_up\nround:\n  - deal\n  - play\n  - score\n", "trumps: turned_up needs a turn_up phase"),
    ("round:\n  - deal\n  - choose_trumps\n  - play\n  - score\n", "choose_trumps needs trumps: {choose: ...}"),
    ("trumps:\n  choose: {by: dealer}\nround:\n  - deal\n  - play\n  - score\n",
     "trumps: {choose: ...} needs a choose_trumps phase in the round"),
    ("trumps:\n  choose: {by: dealer}\nround:\n  - deal\n  - choose_trumps\n  - go_alone\n  - play\n  - score\n",
     "go_alone needs teams and a choose_trumps phase before it"),
]


@pytest.mark.parametrize(("extra", "message"), ROUND_ERRORS, ids=range(len(ROUND_ERRORS)))
def test_a_wrong_round_is_reported_at_round(extra: str, message: str) -> None:
    """TR320 with the rule the round breaks, at the `round` key."""
    problem = first_problem(extra)
    assert (problem.code, problem.message, problem.path) == ("TR320", message, "$.round")
    assert problem.line == extra.splitlines().index("round:") + 17


def test_go_alone_after_choose_trumps_with_teams_compiles() -> None:
    """go_alone with teams, after choose_trumps, is a valid round."""
    extra = "teams: [[0, 2], [1, 3]]\ntrumps:\n  choose: {by: dealer}\nround:\n  - deal\n  - choose_trumps\n  - go_alone\n  - play\n  - score\n"
    assert [s.kind for s in load_ruleset_text(BASE4 + extra).round][1:3] == ["choose_trumps", "go_alone"]


# ------------------------------------------------------------ the declare phase

CONTRACTS = """\
contracts:
  grand: {trumps: none}
  solo: {trumps: [red]}
  misere: {trumps: none}
"""
"""Three contracts, in this order (indices 0, 1, 2)."""


def declaring(phase: str) -> Any:
    """The declare phase of a round of deal, `phase`, play and score, with CONTRACTS."""
    step = compiled(CONTRACTS + round_with(phase)).round[1]
    assert step.kind == "declare" and step.declaring is not None
    return step.declaring


def test_declare_defaults_offer_every_contract_and_score_when_all_pass() -> None:
    """Without keys: every contract in spec order, left of dealer first, scored unplayed if all pass."""
    phase = declaring("declare: {}")
    assert phase.contracts == (0, 1, 2)
    assert (phase.first, phase.first_seat, phase.otherwise) == ("left_of_dealer", 0, -1)


def test_declare_keys_are_read() -> None:
    """Chosen contracts by index in the order given, a first seat and an `otherwise` contract."""
    phase = declaring("declare: {contracts: [misere, grand], first: {seat: 1}, otherwise: solo}")
    assert phase.contracts == (2, 0)
    assert (phase.first, phase.first_seat, phase.otherwise) == ("seat", 1, 1)


def test_declare_otherwise_score_is_minus_one() -> None:
    """`otherwise: score` means no contract: -1."""
    assert declaring("declare: {first: dealer, otherwise: score}").otherwise == -1


DECLARE_ERRORS = [
    ("round_only", "declare: {}", "a declare phase needs contracts", (19, 5, "$.round[1].declare")),
    ("contracts", "declare: {contracts: [grand, sollo]}",
     "no contract 'sollo'; did you mean 'solo'? (contracts: grand, solo, misere)", (23, 34, "$.round[1].declare.contracts[1]")),
    ("contracts", "declare: {otherwise: grant}",
     "no contract 'grant'; did you mean 'grand'? (contracts: grand, solo, misere)", (23, 26, "$.round[1].declare.otherwise")),
]


@pytest.mark.parametrize(("given", "phase", "message", "where"), DECLARE_ERRORS, ids=["no-contracts", "unknown", "otherwise"])
def test_a_wrong_declare_phase_is_reported(given: str, phase: str, message: str, where: tuple[int, int, str]) -> None:
    """TR325 naming the contract and the ones that exist, at the value that names it."""
    problem = first_problem((CONTRACTS if given == "contracts" else "") + round_with(phase))
    assert (problem.code, problem.message) == ("TR325", message)
    assert (problem.line, problem.column, problem.path) == where


# ------------------------------------------------------------ teams


def test_no_teams_compile_to_none() -> None:
    """Without `teams`, the ruleset has none."""
    assert compiled().teams == ()


def test_teams_are_kept_in_order() -> None:
    """Teams keep their order and their seats' order."""
    assert load_ruleset_text(BASE4 + "teams: [[1, 3], [2, 0]]\n").teams == ((1, 3), (2, 0))


def test_teams_missing_a_seat_are_reported() -> None:
    """TR324 at `teams`, naming the seats of the table."""
    with pytest.raises(SpecError) as info:
        load_ruleset_text(BASE4 + "teams: [[0, 1], [2]]\n")
    problem = info.value.problems[0]
    assert (problem.code, problem.message) == ("TR324", "teams must hold every seat 0..3 exactly once")
    assert (problem.line, problem.column, problem.path) == (17, 1, "$.teams")


def test_an_option_value_of_the_wrong_type_is_reported_at_the_option() -> None:
    """TR307 at the option's definition when an override does not fit its type."""
    problem = first_problem("options:\n  fast: {type: boolean, default: false}\n", options={"fast": 3})
    assert (problem.code, problem.message) == ("TR307", "option 'fast' needs true or false, got 3")
    assert (problem.line, problem.column, problem.path) == (18, 3, "$.options.fast")


def test_a_first_leader_holding_an_unknown_card_is_reported() -> None:
    """TR315 at the `holder` key, naming the card and the nearest card id (ranks go to 8)."""
    text = BASE.replace("  hand_size: 5", "  hand_size: 5\n  first_leader: {holder: red-9}")
    with pytest.raises(SpecError) as info:
        load_ruleset_text(text)
    problem = info.value.problems[0]
    assert (problem.code, problem.message) == ("TR315", "no card 'red-9' in the deck; did you mean 'red-8'?")
    assert (problem.line, problem.column, problem.path) == (10, 18, "$.deal.first_leader.holder")


def test_a_pass_direction_case_that_is_no_direction_is_reported() -> None:
    """An option's case can give `to` a value the schema never checked: TR204 names it, at `to`,
    instead of the compiler failing on it."""
    problem = first_problem(
        "options:\n  passing: {type: choice, choices: [plain, odd], default: odd}\n"
        + round_with("pass: {to: {option: passing, cases: {plain: left, odd: []}}}")
    )
    assert problem.code == "TR204"
    assert problem.message == "a pass direction is left, right, across, none or a number of seats, not []"
    assert problem.path == "$.round[1].pass.to"
