"""What the compiler makes of an auction step: each key's default and its given value, and the
problems of a table of bids with no bid or too many."""

from __future__ import annotations

import pytest

from helpers import BASE4, round_with
from trickrules.errors import SpecError
from trickrules.rules.auction import AuctionPhase
from trickrules.spec.limits import MAX_BIDS
from trickrules.spec.loader import load_ruleset_text

STRAINS = "strains: [{name: R, trumps: red}, {name: B, trumps: blue}, {name: G, trumps: green}, {name: N}]"


def auction_rules(keys: str) -> AuctionPhase:
    """The auction of the four-player base spec, with teams, whose step has `STRAINS` and `keys`."""
    ruleset = load_ruleset_text(BASE4 + "teams: [[0, 2], [1, 3]]\n" + round_with(f"auction: {{{STRAINS}{keys}}}"))
    [step] = [step for step in ruleset.round if step.kind == "auction"]
    return step.rules


def problem(keys: str) -> tuple[str, str]:
    with pytest.raises(SpecError) as raised:
        auction_rules(keys)
    return raised.value.problems[0].code, raised.value.problems[0].message


def test_a_bare_auction_bids_seven_levels_with_doubling_and_the_first_to_name_the_strain_declares() -> None:
    rules = auction_rules("")
    assert rules.levels == (1, 2, 3, 4, 5, 6, 7)
    assert [(s.name, s.trumps) for s in rules.strains] == [("R", 0), ("B", 1), ("G", 2), ("N", -1)]
    assert (rules.first, rules.first_seat, rules.doubling, rules.declarer, rules.dummy) == ("left_of_dealer", 0, True, "first_to_name_strain", False)


def test_every_key_of_an_auction_is_kept() -> None:
    rules = auction_rules(", levels: {from: 2, to: 3}, first: {seat: 2}, doubling: false, declarer: last_bidder, dummy: true")
    assert rules.levels == (2, 3)
    assert (rules.first, rules.first_seat, rules.doubling, rules.declarer, rules.dummy) == ("seat", 2, False, "last_bidder", True)
    assert auction_rules(", levels: {from: 3, to: 3}").levels == (3,)


def test_levels_must_hold_a_bid_and_at_most_the_most_bids() -> None:
    assert problem(", levels: {from: 3, to: 2}") == ("TR331", "levels from 3 to 2 hold no bid")
    most = MAX_BIDS // 4  # four strains
    assert len(auction_rules(f", levels: {{from: 1, to: {most}}}").levels) == most
    assert problem(f", levels: {{from: 1, to: {most + 1}}}") == ("TR332", f"{(most + 1) * 4} bids; an auction holds at most {MAX_BIDS}")
    assert problem(f", levels: {{from: 2, to: {most + 2}}}") == ("TR332", f"{(most + 1) * 4} bids; an auction holds at most {MAX_BIDS}")
