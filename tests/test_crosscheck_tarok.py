"""Tarok against OpenSpiel: decision by decision, specs/tarok.yaml agrees with pyspiel's "tarok",
for three players and for four.

OpenSpiel deals (its own generator, seeded) are replayed in trickrules from the same hands and
the same talon in its dealt order: at every bid, king called, talon group taken, buried card and
card played the current player and the legal set must be the same, and so must the returns.
``TRICKRULES_CROSSCHECK_GAMES`` raises the number of games per player count (at least 500: the
coverage test needs them). Each game aims its bidding at a contract drawn at random and plays in
one of a few styles (tests/openspiel_tarok.py), so that every contract, klop's outcomes, the
called king's three places, the emperor's trick, the Mond penalty and the ultimos come up. A few
events are rarer than that (the kings bonus as OpenSpiel scores it, a Mond penalty cancelled
by the called king taking the talon); games holding them are looked for past the first seeds.
Last, corrupted traces and deliberately broken rules show that the replay notices a difference.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from openspiel_common import (
    assert_a_replay_differs,
    assert_check_notices,
    assert_replay_notices,
    broken_text,
    dropped_legal_card,
    first_corrupted,
    swapped_dealt_cards,
)
from openspiel_tarok import (
    OPENSPIEL_OPTIONS,
    TAROK_SPEC,
    TarokTrace,
    check_trace,
    contracts_for,
    crosscheck_trace,
    games_from_env,
    replay_in_trickrules,
    traces_with,
)

import trickrules

COVERAGE_GAMES = 500
BROKEN_GAMES = 200
RARE_SEEDS = 2000
"""How far past seed 0 the rare events are looked for (each is found well before)."""
PLAYER_COUNTS = (3, 4)


@pytest.fixture(scope="module", params=PLAYER_COUNTS, ids=lambda n: f"{n} players")
def traces(request: pytest.FixtureRequest) -> list[TarokTrace]:
    """The cross-check's OpenSpiel games of seeds 0.. (at least `COVERAGE_GAMES`) for one player count."""
    players: int = request.param
    return [crosscheck_trace(seed, players) for seed in range(max(games_from_env(COVERAGE_GAMES), COVERAGE_GAMES))]


def test_openspiel_reads_as_our_account_of_its_rules(traces: list[TarokTrace]) -> None:
    """Our reading (who speaks, the talon exchange, who leads, when the play ends, the scores
    with the Mond penalty, the ultimos and the kings bonus) agrees with every game."""
    problems = [(t.seed, p) for t in traces for p in check_trace(t)]
    assert problems == []


def test_openspiel_games_replay_identically_in_trickrules(traces: list[TarokTrace]) -> None:
    differences = [d for trace in traces for d in replay_in_trickrules(trace)]
    assert differences == [], f"{len(differences)} games differ; first: {differences[:3]}"
    played = sum(d.kind == "play" for t in traces for d in t.decisions)
    assert played > 20 * len(traces)


def test_every_contract_is_played(traces: list[TarokTrace]) -> None:
    first = traces[:COVERAGE_GAMES]
    played = Counter(t.contract for t in first)
    players = first[0].players
    assert set(played) == set(contracts_for(players)) and min(played.values()) >= 10, played
    assert {t.declarer for t in first if t.contract not in ("klop", "three")} == set(range(players))
    assert sum("declarer won" in t.facts for t in first) >= 20
    assert sum("ended early" in t.facts for t in first) >= 50  # beggars won by a trick, valats lost by one


def test_klop_the_emperor_s_trick_the_mond_penalty_and_the_ultimo_come_up(traces: list[TarokTrace]) -> None:
    facts = Counter(f for t in traces[:COVERAGE_GAMES] for f in t.facts)
    wanted = ["klop: a player over 35", "klop: a player without a trick", "klop: everyone pays", "emperor's trick",
              "pagat forced onto mond and skis", "mond captured", "mond left in the talon", "pagat ultimo",
              "ultimo against the declarer"]
    assert all(facts[f] for f in wanted), {f: facts[f] for f in wanted}


def test_the_called_king_is_held_by_a_partner_by_the_declarer_or_lies_in_the_talon(traces: list[TarokTrace]) -> None:
    first = traces[:COVERAGE_GAMES]
    facts = Counter(f for t in first for f in t.facts)
    if first[0].players == 3:
        assert not any(t.called for t in first) and not any(f.startswith("king") for f in facts)
        return
    wanted = ["king called: held by a partner", "king called: held by the declarer", "king called: in the talon",
              "called king taken from the talon", "called king took the rest of the talon", "king ultimo",
              "valat lost (-250)"]
    assert all(facts[f] for f in wanted), {f: facts[f] for f in wanted}


@pytest.mark.parametrize(("players", "fact"), [(3, "kings bug for the declarer"), (4, "kings bug against the declarer"),
                                               (4, "mond penalty cancelled")])
def test_rare_events_replay_identically(players: int, fact: str) -> None:
    """OpenSpiel's kings bonus counts any four cards won as the four kings (three players: the
    declarer's one buried card and one trick; four: the others' one trick), and a called king
    taking the rest of the talon with Mond in it cancels the declarer's Mond penalty."""
    found = traces_with(fact, players, 2, RARE_SEEDS)
    assert len(found) == 2, fact
    assert [p for t in found for p in check_trace(t)] == []
    assert [d for t in found for d in replay_in_trickrules(t)] == []


def test_corrupted_traces_are_noticed(traces: list[TarokTrace]) -> None:
    """A dealt card moved to another hand, a legal card dropped from OpenSpiel's set, the talon
    turned over (its groups change), returns off by the kings bonus: each gives exactly one
    difference, naming the seed; a wrong first leader and the wrong returns fail our reading."""
    for name, mutation in (("swapped dealt cards", swapped_dealt_cards), ("dropped legal card", dropped_legal_card),
                           ("talon turned over", _talon_turned_over), ("returns off by 10", _returns_off)):
        original, mutated = first_corrupted(mutation, traces)
        assert_replay_notices(name, original, mutated, replay_in_trickrules)
    original, mutated = first_corrupted(_returns_off, traces)
    assert_check_notices("returns off by 10", original, mutated, check_trace)
    original = traces[0]
    tricks = list(original.tricks)
    tricks[0] = dataclasses.replace(tricks[0], leader=(tricks[0].leader + 1) % original.players)
    assert_check_notices("leader moved", original, dataclasses.replace(original, tricks=tricks), check_trace)


def _talon_turned_over(trace: TarokTrace) -> TarokTrace | None:
    """The talon in reverse order, where the declarer takes one of two groups of three."""
    if trace.contract not in ("three", "solo_three"):
        return None
    return dataclasses.replace(trace, talon=trace.talon[::-1])


def _returns_off(trace: TarokTrace) -> TarokTrace | None:
    return dataclasses.replace(trace, returns=[r + 10 for r in trace.returns])


# ---------------------------------------------------------------- broken rules are noticed


_KINGS_BONUS = 'bonuses: "four_cards if openspiel_bonuses'

BROKEN_SPECS: dict[str, tuple[tuple[str, str], int, str | None, str]] = {
    "no emperor's trick": (('ranking:\n  - prefer: {suit: taroks, rank: 1, trick: "sum(trula) == 3"}\n', "ranking:\n"),
                           3, "emperor's trick", ""),
    "pagat is not forced onto mond and skis": (('  - play_if_able: {suit: taroks, rank: 1, trick: "sum(trula) == 3"}\n', ""),
                                               4, "pagat forced onto mond and skis", "only openspiel: ['pagat']"),
    "klop takes no talon cards": (("    set_aside_in_play: {per_trick: 1}\n", ""), 3, None, "returns differ"),
    "mond taken costs nothing": (("give: {points: -20}", "give: {points: 0}"), 4, "mond captured", "returns differ"),
    "mond left in the talon costs nothing": (('add: "-20 * mond_left"', 'add: "0"'), 3, "mond left in the talon",
                                             "returns differ"),
    "no kings bonus for four cards": ((_KINGS_BONUS, 'bonuses: "0 if openspiel_bonuses'), 3, "kings bug for the declarer", "returns differ"),
    "the called king leaves the talon lying": (("set_aside_in_play: {called_card_takes_rest: true}\n", ""),
                                               4, "called king took the rest of the talon", "returns differ"),
    "player 0 leads a beggar": (("    first_leader: declarer\n", ""), 4, None, "current player"),
}
"""Each broken rule: (the words as shipped, the broken words), the player count it is played
with, the fact the games must hold (None: the cross-check's first `BROKEN_GAMES`, else the first
two games holding it), and what every difference it causes says ("" where the differences may say
anything)."""


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str) -> None:
    change, players, fact, says = BROKEN_SPECS[name]
    text = broken_text(TAROK_SPEC.read_text(encoding="utf-8"), name, change)
    game = trickrules.load_game(trickrules.load_ruleset_text(text, players=players, options=OPENSPIEL_OPTIONS))
    if fact is None:
        games = [crosscheck_trace(seed, players) for seed in range(BROKEN_GAMES)]
    else:
        games = traces_with(fact, players, 2, RARE_SEEDS)
    replays = {t.seed: replay_in_trickrules(t, game) for t in games}
    assert_a_replay_differs(name, games, lambda t: replays[t.seed])
    differences = [d for found in replays.values() for d in found]
    assert all(says in d for d in differences), (name, differences[:3])
