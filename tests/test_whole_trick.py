"""Conditions on the whole trick (`trick:` in rewards and ranking conditions): they fire
exactly when the trick says so, keep the table fast paths of specs without them, and are
checked when the spec loads. The examples file examples/runner-up.examples.yaml shows each
condition firing and not firing."""

from __future__ import annotations

import random

import pytest
from helpers import ROOT, game

from trickrules.errors import SpecError
from trickrules.rules.faces import counting_faces
from trickrules.rules.ranking import compile_ranking, trick_places
from trickrules.rules.rewards import compile_rewards
from trickrules.spec.dump import dump_yaml
from trickrules.spec.loader import load_ruleset, load_ruleset_text

RUNNER_UP = ROOT / "examples" / "runner-up.yaml"


def test_each_reward_fires_exactly_when_its_trick_condition_holds():
    g = game(RUNNER_UP)
    rules, deck = g.ruleset, g.ruleset.deck
    faces = counting_faces(deck, frozenset())
    rewards = compile_rewards(rules.rewards, deck, faces)
    winner_of = compile_ranking(rules.ranking, deck, faces)
    hearts, court = deck.suits.index("hearts"), deck.attributes.index("court")
    rng = random.Random(5)
    fired = {"runner-up": 0, "hearts": 0, "heavy": 0}
    for _ in range(2000):
        cards = rng.sample(range(len(deck.cards)), 4)
        led = faces.group[cards[0]]
        position = winner_of(cards, led)
        gains = rewards(cards, [0, 1, 2, 3], position, led)
        names = {(rules.rewards[index].name, player) for player, index, _, _ in gains}
        places = trick_places(rules.ranking, cards, led, deck, faces)
        assert places[position] == 1 and sorted(places) == [1, 2, 3, 4]
        expected = {("runner-up", places.index(2))}
        if sum(faces.suit[c] == hearts for c in cards) >= 3:
            expected.add(("hearts", position))
        if sum(deck.cards[c].attributes[court] for c in cards) >= 8:
            expected.add(("heavy", position))
        assert names == expected, [g.card_ids[c] for c in cards]
        for name, _ in names:
            fired[name] += 1
    assert min(fired.values()) > 20  # every condition fired, and not always


def test_the_deuce_upsets_only_a_trick_everyone_followed():
    g = game(RUNNER_UP)
    deck = g.ruleset.deck
    faces = counting_faces(deck, frozenset())
    winner_of = compile_ranking(g.ruleset.ranking, deck, faces)
    rng = random.Random(7)
    for _ in range(2000):
        cards = rng.sample(range(len(deck.cards)), 4)
        led = faces.group[cards[0]]
        followed = [p for p, c in enumerate(cards) if faces.group[c] == led]
        deuce = [p for p in followed if faces.rank[cards[p]] == 2]
        if len(followed) == 4 and deuce:
            assert winner_of(cards, led) == deuce[0]
        else:
            assert winner_of(cards, led) == max(followed, key=lambda p: faces.rank[cards[p]])


def _name(function: object) -> str:
    """A compiled function's name: its qualified name, or its class's in the compiled engine."""
    return getattr(function, "__qualname__", None) or type(function).__name__


def test_specs_without_trick_conditions_keep_their_fast_paths():
    for name in ("hearts", "kingdoms", "meadows"):
        rules = game(ROOT / "specs" / f"{name}.yaml").ruleset
        faces = counting_faces(rules.deck, frozenset())
        if rules.rewards:
            rewards = _name(compile_rewards(rules.rewards, rules.deck, faces))
            assert "trick_rewards" in rewards and "whole_trick" not in rewards
        ranking = _name(compile_ranking(rules.ranking, rules.deck, faces))
        assert "trick_winner" in ranking and "lambda" not in ranking
    rules = game(RUNNER_UP).ruleset
    faces = counting_faces(rules.deck, frozenset())
    assert "whole_trick" in _name(compile_rewards(rules.rewards, rules.deck, faces))


def test_a_spec_with_trick_conditions_round_trips():
    ruleset = load_ruleset(RUNNER_UP)
    assert load_ruleset_text(dump_yaml(ruleset)) == ruleset


TINY = """\
id: tiny
title: Tiny
players: [2]
deck:
  suits: [red, blue]
  attributes: {points: {default: 1}}
  generate:
    - {suits: all, ranks: {from: 1, to: 6}}
deal:
  hand_size: 6
ranking:
  - prefer: led
  - highest: rank
scoring:
  round:
    - add: tricks
"""


@pytest.mark.parametrize(
    "extra, code, line, column",
    [
        ("rewards:\n  - {name: r, to: winner, when: {trick: \"sum(point) > 1\"}, give: {points: 1}}\n", "TR141", 15, 46),
        ("ranking:\n  - prefer: {trick: \"place == 2\"}\n", "TR141", 15, 22),
        ("restrictions:\n  - {forbid: {trick: \"cards > 1\"}}\n", "TR201", 15, 15),
        # a list (each card's points) is not a condition: sum(points) > 0 or len(points) is
        ("rewards:\n  - {name: r, to: winner, when: {trick: \"points\"}, give: {points: 1}}\n", "TR144", 15, 42),
    ],
)
def test_trick_conditions_are_checked_where_they_are_written(extra, code, line, column):
    text = TINY.replace("ranking:\n  - prefer: led\n  - highest: rank\n", "") + extra
    if "ranking" not in extra:
        text += "ranking:\n  - prefer: led\n  - highest: rank\n"
    with pytest.raises(SpecError) as raised:
        load_ruleset_text(text, "tiny.yaml")
    problem = raised.value.problems[0]
    assert (problem.code, problem.line, problem.column) == (code, line, column), str(problem)
