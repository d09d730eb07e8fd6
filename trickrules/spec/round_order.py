"""The order rules of a round's phases: deal first, play and score last, each kind of phase in
the middle at most once (pass may repeat), and what a phase needs before it.

`check_order` reports each broken rule through `fail(path, code, message)`, as the compiler
does for every problem, and goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

MIDDLE: Final = ("pass", "choose_trumps", "turn_up", "bid", "declare", "go_alone", "auction", "take", "call", "complete_deal", "show_melds")
"""The kinds of phase that may stand between the deal and play."""

ONCE: Final = ("bid", "turn_up", "declare", "auction", "take", "call", "complete_deal", "show_melds")
"""The kinds of phase a round has once at most."""

Fail = Callable[[tuple, str, str], None]


def check_order(kinds: Sequence[str], default_kinds: Sequence[str], teams: bool, fail: Fail, staged: bool = False,
                precedence: bool = False) -> None:
    """Check the round's phase kinds, in order; `default_kinds`: the phases the trumps rule asks
    for (a turn_up or choose_trumps step), `teams`: whether the spec has teams, `staged`:
    whether the deal comes in two stages (`deal.first_stage`), `precedence`: whether its bid
    phase bids by precedence (and so finds a declarer)."""
    kinds = list(kinds)
    if staged and "complete_deal" not in kinds:
        fail(("deal", "first_stage"), "TR373", "a deal in two stages is completed by a complete_deal phase: the round has none")
    if "complete_deal" in kinds and not staged:
        fail(("round", kinds.index("complete_deal")), "TR373", "complete_deal deals the rest of a deal in two stages: deal.first_stage says how many cards come first")
    middle = kinds[1:-2]
    if kinds[:1] != ["deal"] or kinds[-2:] != ["play", "score"] or not set(middle) <= set(MIDDLE):
        message = "a round is deal, then any turn_up, pass, choose_trumps, bid, declare, auction, call, take, go_alone, complete_deal or show_melds phases, then play and score, once each"
        fail(("round",), "TR320", message)
    if any(middle.count(kind) > 1 for kind in ONCE):
        fail(("round",), "TR320", "a round has one bid, one declare, one auction, one call, one take, one turn_up, one complete_deal and one show_melds phase at most")
    if "show_melds" in middle and middle[-1] != "show_melds":
        fail(("round", kinds.index("show_melds")), "TR370", "melds are shown once trumps and hands are settled: show_melds is the last phase before play")
    if "call" in kinds and not {"declare", "auction"} & set(kinds[: kinds.index("call")]):
        fail(("round", kinds.index("call")), "TR366", "the declarer calls a partner: a call phase needs a declare or auction phase before it")
    declaring = {"declare", "auction", "choose_trumps"} | ({"bid"} if precedence else set())
    if "take" in kinds and not declaring & set(kinds[: kinds.index("take")]):
        fail(("round", kinds.index("take")), "TR340", "the declarer takes the set-aside cards: a take phase needs a declare, auction, "
             "choose_trumps or precedence bid phase before it")
    if "turn_up" in default_kinds and "turn_up" not in kinds:
        fail(("round",), "TR320", "trumps: turned_up needs a turn_up phase")
    if "go_alone" in kinds and (not teams or "choose_trumps" not in kinds[: kinds.index("go_alone")]):
        fail(("round",), "TR320", "go_alone needs teams and a choose_trumps phase before it")
    if "choose_trumps" in kinds and "choose_trumps" not in default_kinds:
        fail(("round",), "TR320", "choose_trumps needs trumps: {choose: ...}")
    if "choose_trumps" not in kinds and "choose_trumps" in default_kinds:
        fail(("round",), "TR320", "trumps: {choose: ...} needs a choose_trumps phase in the round")
