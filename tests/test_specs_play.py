"""A spec that validates plays: specs drawn from the shipped JSON Schema are either refused
with coded, placed problems, or play `specgen.GAMES` random games to their end."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from specgen import play_or_refuse, spec_strategy
from strategies import scaled


def test_a_generated_spec_is_refused_with_a_placed_problem_or_plays_to_the_end() -> None:
    outcomes: Counter[str] = Counter()

    @settings(max_examples=scaled(300))
    @given(spec_strategy())
    def refused_or_played(case: tuple[str, int]) -> None:
        text, players = case
        outcomes[play_or_refuse(text, players)] += 1

    refused_or_played()
    # both halves of the property are reached: some specs are refused and some play (20 of each
    # at least under the default profile, as many tenths under the mutation run's)
    assert outcomes["played"] >= scaled(20) and outcomes["refused"] >= scaled(20), outcomes
