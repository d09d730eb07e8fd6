"""Hearts against OpenSpiel: decision by decision, our specs/hearts.yaml agrees with pyspiel's "hearts".

OpenSpiel's side is checked on its own first (our reading of its encoding and rules, and points
derived from its returns). Then random OpenSpiel hands are replayed in trickrules, comparing every
legal set and the points; ``TRICKRULES_CROSSCHECK_GAMES`` sets how many (default 500). Last,
deliberately corrupted traces show that the replay notices a difference.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

import pyspiel
import pytest
from openspiel_common import (
    assert_a_replay_differs,
    assert_check_notices,
    assert_replay_notices,
    broken_text,
    dropped_legal_card,
    first_corrupted,
    swapped_dealt_cards,
    with_decision,
)
from openspiel_hearts import (
    DEFAULT_PARAMS,
    HEARTS_OPTIONS,
    HEARTS_SPEC,
    QUEEN_OF_SPADES,
    HeartsTrace,
    card_action,
    card_id,
    check_trace,
    count_points,
    games_from_env,
    hands_at,
    hearts_broken_at,
    load_trickrules_hearts,
    moon_shooter,
    play_openspiel_game,
    replay_in_trickrules,
    suit_of,
)

import trickrules

SANITY_GAMES = 400
VARIANT_GAMES = 100
SHOWN = 5


@pytest.fixture(scope="module")
def traces() -> list[HeartsTrace]:
    """OpenSpiel hands of seeds 0.. with the default parameters."""
    return [play_openspiel_game(seed) for seed in range(SANITY_GAMES)]


@pytest.fixture(scope="module")
def hearts() -> trickrules.Game:
    """Our Hearts, one hand with a random pass direction."""
    return load_trickrules_hearts()


# ---------------------------------------------------------------- OpenSpiel on its own


def test_openspiel_defaults_are_the_ones_cross_checked():
    assert pyspiel.load_game("hearts").get_parameters() == DEFAULT_PARAMS


def test_card_ids_follow_openspiel_rank_major_encoding():
    assert [card_id(a) for a in (0, 1, 2, 3, 4, 34, 37, 43, 50, 51)] == [
        "clubs-2",
        "diamonds-2",
        "hearts-2",
        "spades-2",
        "clubs-3",
        "hearts-10",
        "diamonds-J",
        "spades-Q",
        "hearts-A",
        "spades-A",
    ]
    assert len({card_id(a) for a in range(52)}) == 52
    assert all(card_action(card_id(a)) == a for a in range(52))
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(0)
    names = {"T": "10"}
    for a in range(52):  # OpenSpiel's own text, e.g. "QS", read into our id
        text = state.action_to_string(a)
        suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[text[1]]
        assert card_id(a) == f"{suit}-{names.get(text[0], text[0])}"


def test_traces_have_the_shape_of_a_hand(traces):
    directions = Counter(t.pass_direction for t in traces)
    assert set(directions) == {"none", "left", "across", "right"}
    for trace in traces:
        passes = 0 if trace.pass_direction == "none" else 12
        assert [d.kind for d in trace.decisions] == ["pass"] * passes + ["play"] * 52
        assert sorted(len(h) for h in trace.hands) == [13] * 4
        assert all(d.chosen in d.legal and list(d.legal) == sorted(d.legal) for d in trace.decisions)


def test_traces_follow_our_reading_of_openspiel_rules(traces):
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])


def test_points_add_up_to_26_or_78_after_a_moon_shot(traces):
    moons = 0
    for trace in traces:
        assert trace.points == count_points(trace)
        shooter = moon_shooter(trace)
        if shooter is None:
            assert sum(trace.points) == 26 and min(trace.points) >= 0
        else:
            moons += 1
            assert sum(trace.points) == 78
            assert trace.points == [0 if p == shooter else 26 for p in range(4)]
    assert moons > 0, "no moon shot among the sanity games: the moon rule went unchecked"


@pytest.mark.parametrize(
    "params",
    [
        {"pass_cards": False},
        {"jd_bonus": True},
        {"avoid_all_tricks_bonus": True},
        {"jd_bonus": True, "avoid_all_tricks_bonus": True},
        {"can_lead_any_club": True},
        {"must_break_hearts": False},
        {"qs_breaks_hearts": False},
        {"can_lead_hearts_instead_of_qs": True},
        {"no_pts_on_first_trick": False},
    ],
    ids=lambda params: ",".join(f"{k}={v}" for k, v in params.items()),
)
def test_other_openspiel_parameters_follow_our_reading_too(params):
    traces = [play_openspiel_game(seed, params) for seed in range(VARIANT_GAMES)]
    assert all(t.params == {**DEFAULT_PARAMS, **params} for t in traces)
    problems = [p for t in traces for p in check_trace(t)]
    assert not problems, "\n".join(problems[:SHOWN])
    if params.get("pass_cards") is False:
        assert {t.pass_direction for t in traces} == {"none"}


def test_games_from_env(monkeypatch):
    monkeypatch.delenv("TRICKRULES_CROSSCHECK_GAMES", raising=False)
    assert games_from_env(7) == 7
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "20")
    assert games_from_env(7) == 20
    monkeypatch.setenv("TRICKRULES_CROSSCHECK_GAMES", "many")
    with pytest.raises(ValueError):
        games_from_env(7)


# ---------------------------------------------------------------- the cross-check


def test_trickrules_agrees_with_openspiel_decision_by_decision(hearts):
    games = games_from_env(500)
    differences = [m for seed in range(games) for m in replay_in_trickrules(play_openspiel_game(seed), hearts)]
    shown = "\n".join(differences[:SHOWN])
    assert not differences, f"{len(differences)} of {games} games differ; first ones:\n{shown}"


# ---------------------------------------------------------------- the cross-check catches a broken rule

Mutation = Callable[[HeartsTrace], HeartsTrace | None]


def _leads(trace: HeartsTrace) -> list[int]:
    """Indices of the play decisions that lead a trick after the first."""
    first = next(i for i, d in enumerate(trace.decisions) if d.kind == "play")
    return list(range(first + 4, len(trace.decisions), 4))


def heart_lead_before_hearts_are_broken(trace: HeartsTrace) -> HeartsTrace | None:
    """A leader holding a heart is told hearts could be led although they are not broken."""
    for i in _leads(trace):
        d = trace.decisions[i]
        hearts = [c for c in hands_at(trace, i)[d.player] if suit_of(c) == "hearts" and c not in d.legal]
        if hearts and not hearts_broken_at(trace, i):
            return with_decision(trace, i, dataclasses.replace(d, legal=tuple(sorted(d.legal + (hearts[0],)))))
    return None


def queen_of_spades_does_not_break_hearts(trace: HeartsTrace) -> HeartsTrace | None:
    """After the queen of spades but before any heart, a leader is told hearts are still closed."""
    for i in _leads(trace):
        d = trace.decisions[i]
        played = [e.chosen for e in trace.decisions[:i] if e.kind == "play"]
        if QUEEN_OF_SPADES in played and not any(suit_of(c) == "hearts" for c in played):
            others = tuple(c for c in d.legal if suit_of(c) != "hearts")
            if others != d.legal and d.chosen in others:
                return with_decision(trace, i, dataclasses.replace(d, legal=others))
    return None


def flipped_pass_direction(trace: HeartsTrace) -> HeartsTrace | None:
    """The cards go the other way (across becomes left)."""
    flipped = {"left": "right", "right": "left", "across": "left"}.get(trace.pass_direction)
    return dataclasses.replace(trace, pass_direction=flipped) if flipped else None


def moved_point(trace: HeartsTrace) -> HeartsTrace | None:
    """One penalty point is booked to the wrong player."""
    giver = next((p for p, n in enumerate(trace.points) if n > 0), None)
    if giver is None:
        return None
    points = list(trace.points)
    points[giver] -= 1
    points[(giver + 1) % 4] += 1
    return dataclasses.replace(trace, points=points)


MUTATIONS: list[Mutation] = [
    heart_lead_before_hearts_are_broken,
    queen_of_spades_does_not_break_hearts,
    flipped_pass_direction,
    swapped_dealt_cards,
    dropped_legal_card,
    moved_point,
]


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_a_corrupted_trace_breaks_openspiel_rules_as_we_read_them(mutation, traces):
    original, mutated = first_corrupted(mutation, traces)
    assert_check_notices(mutation.__name__, original, mutated, check_trace)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.__name__)
def test_the_replay_reports_a_corrupted_trace(mutation, traces, hearts):
    original, mutated = first_corrupted(mutation, traces)
    assert_replay_notices(mutation.__name__, original, mutated, lambda t: replay_in_trickrules(t, hearts))


# ---------------------------------------------------------------- a broken spec is caught

SPEC_TEXT = HEARTS_SPEC.read_text(encoding="utf-8")

BROKEN_SPECS = {
    "hearts led before broken": ("    when: not broken\n", "    when: \"False\"\n"),
    "points allowed on the first trick": ("  - name: no hearts or queen of spades on the first trick\n    when: trick == 1\n",
                                          "  - name: no hearts or queen of spades on the first trick\n    when: trick == 0\n"),
    "queen of spades does not break hearts": ("{card: {any: [{suit: hearts}, {suit: spades, rank: 12}]}, set: 1}",
                                              "{card: {suit: hearts}, set: 1}"),
    "any club may lead": ("    allow: {suit: clubs, rank: 2}\n", "    allow: {suit: clubs}\n"),
    "no moon shot": ("add: \"0 if penalty == 26 else 26 if max(all_penalty) == 26 else penalty\"", "add: penalty"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_SPECS))
def test_the_cross_check_catches_a_broken_rule_in_the_spec(name: str, traces: list[HeartsTrace]) -> None:
    broken = trickrules.load_ruleset_text(broken_text(SPEC_TEXT, name, BROKEN_SPECS[name]), options=HEARTS_OPTIONS)
    game = trickrules.load_game(broken)
    assert_a_replay_differs(name, traces, lambda t: replay_in_trickrules(t, game))
