"""The shuffle of a round is the one `random.Random("trickrules:SEED:ROUND")` gives: records
and recorded playthroughs from every earlier version replay with it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from trickrules.engine.deals import deal_order


def _reference(seed: int, round_number: int, num_cards: int) -> list[int]:
    uniform = random.Random(f"trickrules:{seed}:{round_number}").random
    keys = [uniform() for _ in range(num_cards)]
    return sorted(range(num_cards), key=keys.__getitem__)


@given(st.integers(min_value=-(2**80), max_value=2**80), st.integers(min_value=0, max_value=500), st.integers(min_value=1, max_value=120))
def test_deal_order_is_the_seeded_shuffle(seed: int, round_number: int, num_cards: int) -> None:
    assert deal_order(seed, round_number, num_cards) == _reference(seed, round_number, num_cards)


def test_a_known_deal() -> None:
    assert deal_order(1, 0, 12) == _reference(1, 0, 12)
    assert sorted(deal_order(1, 0, 52)) == list(range(52))
    assert deal_order(1, 0, 52) != deal_order(2, 0, 52) != deal_order(1, 1, 52)
