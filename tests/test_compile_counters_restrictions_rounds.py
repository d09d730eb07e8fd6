"""The spec compiler's language-2 keys, continued (`trickrules.spec.compile_round`): counters,
play restrictions, the number of rounds and hand sizes by round, each key's default and errors.
Helpers and the base spec come from test_compile_keys."""

from __future__ import annotations

import pytest
from helpers import SPECS
from helpers import BASE, BASE4, compiled, first_problem

from trickrules.engine.game import load_game
from trickrules.errors import SpecError
from trickrules.rules.ruleset import Schedule
from trickrules.spec.loader import load_ruleset_text

# ------------------------------------------------------------ counters


def test_a_counter_without_keys_uses_every_default() -> None:
    """A bare counter: per table, reset each round, from 0, no card, set or add, no round-end term."""
    (counter,) = compiled("counters:\n  seen: {}\n").counters
    assert counter.name == "seen"
    assert (counter.scope, counter.reset, counter.initial) == ("table", "round", 0)
    assert (counter.on_play, counter.set_to, counter.add, counter.on_round_end) == (None, None, 0, None)


def test_counter_keys_are_read() -> None:
    """Every counter key given replaces its default."""
    extra = "counters:\n  seen:\n    scope: player\n    reset: game\n    initial: 2\n    on_play: {card: {suit: blue}, add: 3}\n    on_round_end: seen + tricks\n"
    (counter,) = compiled(extra).counters
    assert (counter.scope, counter.reset, counter.initial, counter.add, counter.set_to) == ("player", "game", 2, 3, None)
    assert counter.on_play is not None and counter.on_play.suits == frozenset({1})
    assert counter.on_round_end is not None and counter.on_round_end.text == "seen + tricks"


def test_counter_set_is_read_and_add_stays_zero() -> None:
    """`on_play: {set: N}` sets the counter to N and adds nothing."""
    (counter,) = compiled("counters:\n  broken:\n    on_play: {card: {suit: red}, set: 1}\n").counters
    assert (counter.set_to, counter.add) == (1, 0)
    assert counter.on_play is not None and counter.on_play.suits == frozenset({0})


def test_counters_are_readable_by_name_in_expressions() -> None:
    """A counter's name may be read by a restriction's `when`."""
    extra = "counters:\n  broken: {}\nrestrictions:\n  - {when: not broken, forbid: {suit: red}}\n"
    (restriction,) = compiled(extra).restrictions
    assert restriction.when is not None and restriction.when.text == "not broken"


def test_a_team_counter_without_teams_is_reported_at_scope() -> None:
    """TR323 at the counter's `scope` value."""
    problem = first_problem("counters:\n  seen: {scope: team}\n")
    assert (problem.code, problem.message) == ("TR323", "a team counter needs teams")
    assert (problem.line, problem.column, problem.path) == (18, 17, "$.counters.seen.scope")


def test_a_team_counter_with_teams_compiles() -> None:
    """With teams, `scope: team` is kept."""
    (counter,) = load_ruleset_text(BASE4 + "teams: [[0, 2], [1, 3]]\ncounters:\n  seen: {scope: team}\n").counters
    assert counter.scope == "team"


def test_an_unknown_name_in_a_round_end_term_is_reported_there() -> None:
    """An expression error in `on_round_end` is at that value, with its path."""
    problem = first_problem("counters:\n  seen: {on_round_end: trickz}\n")
    assert problem.path == "$.counters.seen.on_round_end"
    assert (problem.line, problem.column) == (18, 24)


# ------------------------------------------------------------ restrictions


def test_a_restriction_without_keys_is_numbered_and_applies_to_all() -> None:
    """A bare restriction is named by its place and applies to leader and followers, always."""
    first, second = compiled("restrictions:\n  - {forbid: {suit: red}}\n  - {allow: {suit: blue}}\n").restrictions
    assert (first.name, first.lead, first.when, first.allow) == ("restriction 1", None, None, None)
    assert first.forbid is not None and first.forbid.suits == frozenset({0})
    assert (second.name, second.forbid) == ("restriction 2", None)
    assert second.allow is not None and second.allow.suits == frozenset({1})


@pytest.mark.parametrize(("who", "lead"), [("leader", True), ("followers", False), ("all", None)])
def test_a_restriction_for_leader_or_followers(who: str, lead: bool | None) -> None:
    """`for` maps leader to True, followers to False, all to None."""
    (restriction,) = compiled(f"restrictions:\n  - {{name: no red, for: {who}, forbid: {{suit: red}}}}\n").restrictions
    assert (restriction.name, restriction.lead) == ("no red", lead)


def test_an_unknown_name_in_a_restriction_when_is_reported_there() -> None:
    """An expression error in `when` is at that value, with its path."""
    problem = first_problem("restrictions:\n  - {when: trikc == 0, forbid: {suit: red}}\n")
    assert problem.path == "$.restrictions[0].when"
    assert (problem.line, problem.column) == (18, 12)


# ------------------------------------------------------------ the number of rounds


def test_rounds_default_to_one_with_no_end_condition() -> None:
    """Without `rounds`: one round, no `until`."""
    ruleset = compiled()
    assert (ruleset.rounds, ruleset.until) == (1, None)


def test_rounds_until_defaults_to_at_most_a_thousand() -> None:
    """`rounds: {until: ...}` without `at_most` stops after 1000 rounds at most."""
    ruleset = compiled('rounds: {until: "max(totals) >= 10"}\n')
    assert ruleset.rounds == 1000
    assert ruleset.until is not None and ruleset.until.text == "max(totals) >= 10"


def test_rounds_at_most_is_read() -> None:
    """A given `at_most` replaces the default."""
    assert compiled('rounds: {until: "round == 3", at_most: 7}\n').rounds == 7


def test_rounds_until_reads_a_player_counter_as_a_list_and_a_table_counter_as_a_number() -> None:
    """A counter kept per player is everyone's values in `until` (max() of it compiles); one
    kept for the table, by default or by name, is a single number (TR144 there)."""
    ruleset = compiled('counters:\n  seen: {scope: player, initial: 2}\nrounds: {until: "max(seen) >= 5"}\n')
    assert ruleset.until is not None and ruleset.until.text == "max(seen) >= 5"
    for counter in ("{initial: 1}", "{scope: table}"):
        problem = first_problem(f'counters:\n  flag: {counter}\nrounds: {{until: "max(flag) >= 5"}}\n')
        assert (problem.code, problem.path, problem.message) == ("TR144", "$.rounds.until", "max() of one value needs a list, and this is a number")


def test_an_unknown_name_in_rounds_until_is_reported_there() -> None:
    """An expression error in `until` is at that value, with its path."""
    problem = first_problem('rounds: {until: "rund == 3"}\n')
    assert problem.path == "$.rounds.until"
    assert problem.line == 17


# ------------------------------------------------------------ hand sizes by round


def hand_sizes(hand_size: str, players: int | None = None) -> Schedule | None:
    """The hand-size schedule of the base spec with `deal.hand_size` replaced."""
    text = (BASE4 if players == 4 else BASE).replace("hand_size: 5", f"hand_size: {hand_size}")
    return load_ruleset_text(text, players=players).deal.hand_sizes


def test_a_plain_hand_size_has_no_schedule() -> None:
    """A number is one size, not a schedule."""
    assert compiled().deal.hand_sizes is None
    assert compiled().deal.hand_size == 5


def test_hand_size_by_round_list_is_kept() -> None:
    """`{by_round: [...]}` keeps the sizes in order, not by chance; the deal holds the largest."""
    assert hand_sizes("{by_round: [2, 5, 3]}") == Schedule((2, 5, 3), False)


def test_hand_size_ramp_from_defaults_to_one() -> None:
    """`{by_round: {to: N}}` counts from 1 up to N."""
    sizes = hand_sizes("{by_round: {to: 4}}")
    assert sizes == Schedule((1, 2, 3, 4), False)
    assert sizes.ramp == (1, "4", False)


def test_hand_size_ramp_and_back_returns_without_repeating_the_top() -> None:
    """`and_back` goes up from `from` to `to` and down again, the top once."""
    sizes = hand_sizes('{by_round: {from: 2, to: "24 // players", and_back: true}}', players=4)
    assert sizes == Schedule((2, 3, 4, 5, 6, 5, 4, 3, 2), False)
    assert sizes.ramp == (2, "24 // players", True)


def test_hand_size_ramp_by_chance() -> None:
    """A ramp under `chance` gives its range, drawn by chance."""
    sizes = hand_sizes("{chance: {from: 3, to: 5}}")
    assert sizes == Schedule((3, 4, 5), True)


def test_hand_size_list_by_chance_is_drawn() -> None:
    """`{chance: [...]}` lists the sizes to draw from each round, not a fixed order, and the
    rounds of a game get both sizes."""
    sizes = hand_sizes("{chance: [4, 2]}")
    assert sizes == Schedule((4, 2), True)
    game = load_game(load_ruleset_text(BASE.replace("hand_size: 5", "hand_size: {chance: [4, 2]}"), players=3))
    first_hands = {len(game.new_initial_state(seed).hands[0]) for seed in range(20)}
    assert first_hands == {4, 2}


def test_an_empty_hand_size_ramp_is_reported() -> None:
    """TR305 when `from` is above `to`, naming both, at the ramp's `to`."""
    with pytest.raises(SpecError) as info:
        hand_sizes('{by_round: {from: 5, to: "players - 1"}}', players=4)
    problem = info.value.problems[0]
    assert (problem.code, problem.message) == ("TR305", "no hand size from 5 to 3")
    assert problem.path == "$.deal.hand_size.by_round.to"


def test_an_unknown_name_in_a_hand_size_ramp_is_reported_there() -> None:
    """An expression error in the ramp's `to` is at that value, with its path."""
    with pytest.raises(SpecError) as info:
        hand_sizes('{chance: {to: "playerz"}}')
    problem = info.value.problems[0]
    assert problem.path == "$.deal.hand_size.chance.to"
    assert problem.line == 9


# ------------------------------------------------------------ the round's phases

EVERY_PHASE = """round:
  - deal
  - turn_up
  - {pass: {cards: 1, to: left}}
  - choose_trumps
  - go_alone
  - {bid: {values: {from: 0, to: 5}}}
  - {declare: {contracts: [big]}}
  - play
  - score
contracts:
  big:
    description: One contract, scoring a point.
    scoring:
      round:
        - {name: big, add: "1"}
"""


def test_a_round_may_hold_every_kind_of_phase_between_deal_and_play() -> None:
    """Euchre's round with a pass, a bid and a declare phase added: each middle kind once, all at once."""
    euchre = (SPECS / "euchre.yaml").read_text()
    start = euchre.index("round:\n")
    end = euchre.index("  - score\n", start) + len("  - score\n")
    ruleset = load_ruleset_text(euchre[:start] + EVERY_PHASE + euchre[end:])
    assert [step.kind for step in ruleset.round] == [
        "deal", "turn_up", "pass", "choose_trumps", "go_alone", "bid", "declare", "play", "score"]
