"""Bridge against OpenSpiel: decision by decision, specs/bridge.yaml agrees with pyspiel's "bridge"
played out card by card (``use_double_dummy_result=false``).

OpenSpiel deals are replayed in trickrules from the same hands: at every call and every card
the current player (the declarer on the dummy's turns) and the legal set must be the same, and
so must the returns. ``TRICKRULES_CROSSCHECK_GAMES`` raises the number of deals (at least 500:
the coverage test needs them). Calls are drawn by two policies, uniform and one that passes more
often and bids low, so that every level, doubles, redoubles, passed-out deals and made
contracts all come up; crafted deals add made slams and redoubled contracts, made and down.
Last, deliberately broken rules show that the replay notices a difference.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from openspiel_common import assert_replay_notices, dropped_legal_card, first_corrupted, swapped_dealt_cards
from openspiel_bridge import (
    BRIDGE_SPEC,
    BridgeTrace,
    crosscheck_trace,
    games_from_env,
    load_trickrules_bridge,
    openspiel_game,
    play_openspiel_game,
    replay_in_trickrules,
)

import trickrules
from trickrules.engine import phases

COVERAGE_GAMES = 500
BROKEN_GAMES = 120

SUITED = [
    [f"{suit}-{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    for suit in ("spades", "hearts", "diamonds", "clubs")
]
"""Seat 0 holds the spades, 1 the hearts, 2 the diamonds, 3 the clubs: in a spades contract
seat 0 takes every trick, in notrump the leader's suit runs, in clubs seat 3 takes every trick."""

CRAFTED = {
    # calls (seat 0 first): (declaring side's score not vulnerable, vulnerable), by our reading
    "7S redoubled, made": (["bid 7S", "double", "redouble", "pass", "pass", "pass"], (2240, 2940)),
    "1S redoubled, six overtricks": (["bid 1S", "double", "redouble", "pass", "pass", "pass"], (1720, 3120)),
    "6S, one overtrick": (["bid 6S", "pass", "pass", "pass"], (1010, 1460)),
    "7NT doubled, down 13": (["bid 7NT", "double", "pass", "pass", "pass"], (-3500, -3800)),
    "7NT redoubled, down 13": (["bid 7NT", "double", "redouble", "pass", "pass", "pass"], (-7000, -7600)),
    "3C by seat 3, four overtricks": (["pass", "pass", "pass", "bid 3C", "pass", "pass", "pass"], (190, 190)),
    "4H doubled by seat 1, made with overtricks": (["pass", "bid 4H", "double", "pass", "pass", "pass"], (890, 1390)),
    "passed out": (["pass"] * 4, (0, 0)),
}
"""Crafted auctions over `SUITED`, and the declaring side's score worked out by hand."""


@pytest.fixture(scope="module")
def traces() -> list[BridgeTrace]:
    """The cross-check's OpenSpiel deals of seeds 0.. (at least `COVERAGE_GAMES`)."""
    return [crosscheck_trace(seed) for seed in range(max(games_from_env(COVERAGE_GAMES), COVERAGE_GAMES))]


def test_openspiel_deals_replay_identically_in_trickrules(traces: list[BridgeTrace]) -> None:
    differences = [d for trace in traces for d in replay_in_trickrules(trace)]
    assert differences == [], f"{len(differences)} deals differ; first: {differences[:3]}"
    calls = sum(len(t.calls) for t in traces)
    cards = sum(len(t.decisions) - len(t.calls) for t in traces)
    assert calls > 3 * len(traces) and cards > 26 * len(traces)


def test_the_deals_cover_every_level_doubling_passed_out_and_made(traces: list[BridgeTrace]) -> None:
    first = traces[:COVERAGE_GAMES]
    contracts = [t.contract for t in first]
    levels = Counter(c.level for c in contracts if c is not None)
    assert set(levels) == set(range(1, 8)), levels
    doubling = Counter((c.doubled, t.made) for t, c in zip(first, contracts) if c is not None)
    assert {(0, True), (0, False), (1, True), (1, False), (2, False)} <= set(doubling), doubling
    assert sum(c is None for c in contracts) >= 10  # passed out
    assert {c.strain for c in contracts if c is not None} == set(range(5))
    assert {c.declarer for c in contracts if c is not None} == {0, 1, 2, 3}
    assert {(t.policy, t.dealer_vul, t.non_dealer_vul) for t in first if t.made} >= {("passing", False, False), ("passing", True, True)}
    assert any(t.returns[0] != 0 and t.contract is not None and t.contract.declarer % 2 == 1 for t in first)


@pytest.mark.parametrize("vulnerable", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["none", "dealer", "non-dealer", "both"])
@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_deals_score_slams_redoubles_and_undertricks_alike(name: str, vulnerable: tuple[bool, bool]) -> None:
    calls, expected = CRAFTED[name]
    trace = play_openspiel_game(7, "uniform", *vulnerable, deal=SUITED, calls=calls)
    assert replay_in_trickrules(trace) == []
    contract = trace.contract
    if contract is None:
        assert trace.returns == [0, 0, 0, 0]
        return
    side = contract.declarer % 2
    assert trace.returns[contract.declarer] == expected[int(vulnerable[side])]
    assert trace.returns[side] == -trace.returns[1 - side] == trace.returns[side + 2] != 0


def test_corrupted_traces_are_noticed(traces: list[BridgeTrace]) -> None:
    """A dealt card moved to another hand, and a legal card dropped from OpenSpiel's set, each
    give exactly one difference, naming the seed."""
    for name, mutation in (("swapped dealt cards", swapped_dealt_cards), ("dropped legal card", dropped_legal_card)):
        original, mutated = first_corrupted(mutation, [t for t in traces if t.contract is not None])
        assert_replay_notices(name, original, mutated, replay_in_trickrules)


# ---------------------------------------------------------------- broken rules are noticed


def _variant(tmp_path: Path, old: str, new: str) -> trickrules.Game:
    text = BRIDGE_SPEC.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "bridge.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return trickrules.load_game(path)


def _differences(traces: list[BridgeTrace], game: trickrules.Game) -> list[str]:
    """Differences over the first deals that are neither vulnerable (the variant has defaults)."""
    plain = [t for t in traces if not t.dealer_vul and not t.non_dealer_vul][:BROKEN_GAMES]
    return [d for t in plain for d in replay_in_trickrules(t, game)]


def test_a_declarer_by_the_last_bid_is_noticed(traces: list[BridgeTrace], tmp_path: Path) -> None:
    game = _variant(tmp_path, "declarer: first_to_name_strain", "declarer: last_bidder")
    differences = _differences(traces, game)
    assert differences and all("current player" in d for d in differences), differences[:3]


def test_a_smaller_insult_bonus_is_noticed(traces: list[BridgeTrace], tmp_path: Path) -> None:
    game = _variant(tmp_path, "(1 if makers else -1) * 50 * doubled", "(1 if makers else -1) * 25 * doubled")
    differences = _differences(traces, game)
    assert differences and all("returns differ" in d for d in differences), differences[:3]


@pytest.mark.patches_engine
def test_a_redouble_by_the_doubling_side_is_noticed(traces: list[BridgeTrace], monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal set that also lets the doublers redouble their own double is caught at that call."""
    honest = phases.auction.Auction.legal

    def lenient(self: phases.auction.Auction, state: trickrules.State) -> list[int]:
        legal = honest(self, state)
        own = phases.auction.calling(state)
        redouble = state.game.action_start["call"] + 2
        if own is not None and own.doubled == 1 and redouble not in legal:
            legal.insert(1, redouble)
        return legal

    monkeypatch.setattr(phases.auction.Auction, "legal", lenient)
    game = load_trickrules_bridge.__wrapped__(False, False)
    differences = _differences(traces, game)
    assert differences and all("only trickrules: ['redouble']" in d for d in differences), differences[:3]


# ---------------------------------------------------------------- the longest deal


def longest_auction() -> list[str]:
    """The longest auction: three passes, then every bid doubled and redoubled, with two passes
    after each call and three after the last: 3 + 35 * 9 + 1 = 319 calls."""
    bids = [f"bid {level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")]
    calls = ["pass"] * 3
    for bid in bids:
        calls += [bid, "pass", "pass", "double", "pass", "pass", "redouble", "pass", "pass"]
    return calls + ["pass"]


def test_the_longest_deal_fits_the_games_stated_length() -> None:
    """OpenSpiel's longest bridge deal is 319 calls and 52 cards; trickrules' `max_game_length`
    must bound the deal the same way (it counts the cards alone)."""
    game = load_trickrules_bridge()
    trace = play_openspiel_game(0, "uniform", deal=SUITED, calls=longest_auction())
    assert len(trace.decisions) == openspiel_game().max_game_length() == 371
    assert replay_in_trickrules(trace, game) == []
    stated = game.info().max_game_length
    assert stated >= len(trace.decisions), f"max_game_length is {stated}; this deal takes {len(trace.decisions)} decisions"
