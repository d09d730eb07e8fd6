"""Skat against OpenSpiel: decision by decision, specs/skat.yaml agrees with pyspiel's "skat".

OpenSpiel deals are replayed in trickrules from the same hands: at every bid, buried card and
card played the current player and the legal set must be the same, and so must the returns
(OpenSpiel's times 240). ``TRICKRULES_CROSSCHECK_GAMES`` raises the number of deals (at least
500: the coverage test needs them). The bids are drawn by two policies, uniform and one that
passes more often, so that every game, null won and lost, and deals all pass come up. Last,
deliberately broken rules show that the replay notices a difference.
"""

from __future__ import annotations

from collections import Counter

import pytest
from openspiel_common import assert_check_notices, assert_replay_notices, broken_text, dropped_legal_card, first_corrupted, swapped_dealt_cards
from openspiel_skat import GAMES, SKAT_SPEC, SkatTrace, check_trace, crosscheck_trace, games_from_env, replay_in_trickrules

import trickrules

COVERAGE_GAMES = 500
BROKEN_GAMES = 150


@pytest.fixture(scope="module")
def traces() -> list[SkatTrace]:
    """The cross-check's OpenSpiel deals of seeds 0.. (at least `COVERAGE_GAMES`)."""
    return [crosscheck_trace(seed) for seed in range(max(games_from_env(COVERAGE_GAMES), COVERAGE_GAMES))]


def test_openspiel_reads_as_our_account_of_its_rules(traces: list[SkatTrace]) -> None:
    problems = [(t.seed, p) for t in traces for p in check_trace(t)]
    assert problems == []


def test_openspiel_deals_replay_identically_in_trickrules(traces: list[SkatTrace]) -> None:
    differences = [d for trace in traces for d in replay_in_trickrules(trace)]
    assert differences == [], f"{len(differences)} deals differ; first: {differences[:3]}"
    buried = sum(d.kind == "bury" for t in traces for d in t.decisions)
    played = sum(d.kind == "play" for t in traces for d in t.decisions)
    assert buried == 2 * sum(t.game is not None for t in traces) and played > 20 * len(traces)


def test_the_deals_cover_every_game_won_and_lost_and_all_passing(traces: list[SkatTrace]) -> None:
    first = traces[:COVERAGE_GAMES]
    outcomes = Counter((t.game, _soloist_won(t)) for t in first if t.game is not None)
    assert {(game, won) for game in GAMES for won in (True, False)} <= set(outcomes), outcomes
    assert sum(t.game is None for t in first) >= 10
    assert {_soloist(t) for t in first if t.game is not None} == {0, 1, 2}
    lost_nulls = [t for t in first if t.game == "null" and not _soloist_won(t)]
    assert any(sum(d.kind == "play" for d in t.decisions) < 30 for t in lost_nulls)  # ended early


def _soloist(trace: SkatTrace) -> int:
    return next(d.player for d in trace.decisions if d.kind == "declare" and d.chosen != "pass")


def _soloist_won(trace: SkatTrace) -> bool:
    return trace.returns[_soloist(trace)] > 0


def test_corrupted_traces_are_noticed(traces: list[SkatTrace]) -> None:
    """A dealt card moved to another hand, and a legal card dropped from OpenSpiel's set, each
    give exactly one difference, naming the seed; a wrong first leader fails our reading."""
    played = [t for t in traces if t.game is not None]
    for name, mutation in (("swapped dealt cards", swapped_dealt_cards), ("dropped legal card", dropped_legal_card)):
        original, mutated = first_corrupted(mutation, played)
        assert_replay_notices(name, original, mutated, replay_in_trickrules)
    original = played[0]
    first_play = next(i for i, d in enumerate(original.decisions) if d.kind == "play")
    decisions = list(original.decisions)
    decisions[first_play] = type(decisions[first_play])(1, "play", decisions[first_play].legal, decisions[first_play].chosen)
    assert_check_notices("leader moved", original, type(original)(**{**original.__dict__, "decisions": decisions}), check_trace)


# ---------------------------------------------------------------- broken rules are noticed


BROKEN_SPECS: dict[str, tuple[tuple[str, str], str]] = {
    "the skat counts for nobody": (("buried_count_for: taker", "buried_count_for: nobody"), "returns differ"),
    "a null is played to the end": (("    play_ends_when: makers_tricks > 0\n", ""), "hand is over after"),
    "the soloist leads": (("first_leader: {seat: 0}", "first_leader: left_of_declarer"), "current player"),
    "jacks are not trumps in clubs": (("trumps: [jacks, clubs]", "trumps: [clubs]"), ""),
}
"""Each broken rule: (the words as shipped, the broken words), and what every difference it
causes says ("" where the differences may say anything)."""


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str, traces: list[SkatTrace]) -> None:
    change, says = BROKEN_SPECS[name]
    game = trickrules.load_game(trickrules.load_ruleset_text(broken_text(SKAT_SPEC.read_text(encoding="utf-8"), name, change)))
    differences = [d for t in traces[:BROKEN_GAMES] for d in replay_in_trickrules(t, game)]
    assert differences and all(says in d for d in differences), (name, differences[:3])
