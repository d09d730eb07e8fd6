"""The checks of a deal in two stages (`deal.first_stage`) and of a turned-up card its chooser
takes (`declarer_takes_turned_up`), each a (path, message) problem the compiler reports as TR373.

The round's `complete_deal` step is checked with the round's order (`round_order`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from trickrules.rules.ruleset import Deal


def deal_stage_problems(data: dict[str, Any], deal: Deal) -> Iterator[tuple[tuple, str]]:
    """A first stage smaller than the one hand size, with a round that lists its phases; a
    turned-up card the chooser takes into a hand dealt short, by the chooser or the dealer."""
    path: tuple = ("deal", "first_stage")
    if deal.first_stage and deal.hand_sizes is not None:
        yield path, "a deal in two stages needs one hand size, not one that changes by round"
    elif deal.first_stage and deal.first_stage >= deal.hand_size:
        yield path, f"the first stage of the deal gives fewer cards than a hand holds: {deal.first_stage} is not below {deal.hand_size}"
    elif deal.first_stage and data.get("round") is None:
        yield path, "a deal in two stages is completed by a complete_deal phase: list the round's phases with one"
    trumps = data.get("trumps")
    rounds = ((trumps.get("choose") or {}).get("rounds") or ()) if isinstance(trumps, dict) else ()
    for index, rule in enumerate(rounds):
        path = ("trumps", "choose", "rounds", index, "declarer_takes_turned_up")
        if rule.get("declarer_takes_turned_up") is True and rule.get("dealer_takes_turned_up") is True:
            yield path, "the turned-up card goes to one player: the dealer (dealer_takes_turned_up) or the chooser, not both"
        elif rule.get("declarer_takes_turned_up") is True and not deal.first_stage:
            yield path, "the chooser takes the turned-up card into a hand dealt short: the deal needs two stages (deal.first_stage, complete_deal)"
