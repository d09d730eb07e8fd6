"""The Markdown rulebook: complete for every spec, in the spec's own words, generic in code."""

from __future__ import annotations

import ast
import re
from itertools import takewhile
from pathlib import Path

import pytest

from trickrules.tools.cli import main
from trickrules.spec.loader import load_ruleset, load_ruleset_text
from trickrules.tools.rulebook import rulebook_markdown
from trickrules.tools.rulebook_words import (
    card_condition_words,
    deal_condition_words,
    join_words,
    plural,
    rank_span,
    ranking_step_words,
)
from trickrules.rules.ruleset import CardCondition, DealCondition, RankingStep

ROOT = Path(__file__).resolve().parent.parent
KINGDOMS = ROOT / "specs" / "kingdoms.yaml"
MEADOWS = ROOT / "specs" / "meadows.yaml"
SPECS = [KINGDOMS, MEADOWS, *sorted((ROOT / "docs" / "examples" / "tutorial").glob("step?.yaml"))]
SPECS += sorted(p for p in (ROOT / "docs" / "examples" / "howto").glob("*.yaml") if not p.name.endswith(".examples.yaml"))
HEADINGS = (
    "## Components", "## Players and the deal", "## Trumps", "## Playing a trick",
    "## Who wins a trick", "## Won cards and tokens", "## Scoring", "## End of the game",
)  # fmt: skip


CASES = [(spec, players) for spec in SPECS for players in load_ruleset(spec).allowed_players]


@pytest.mark.parametrize(("spec", "players"), CASES, ids=[f"{s.stem}-{p}" for s, p in CASES])
def test_rulebook_is_complete(spec: Path, players: int) -> None:
    rules = load_ruleset(spec, players=players)
    text = rulebook_markdown(rules)
    assert text.startswith(f"# {rules.title}\n")
    for heading in HEADINGS:
        assert f"\n{heading}\n" in text, heading
    for suit in rules.deck.suits:
        assert suit in text
    for reward in rules.rewards:
        assert f"**{reward.name}**" in text
    for kind in rules.tokens:
        assert f"**{kind.name}**" in text
    for section in rules.tableau.sections if rules.tableau else ():
        assert f"| {section.name} |" in text
    for name, _ in rules.options:
        assert f"| `{name}` |" in text
    assert f"for {players} players" in text
    assert f"deal {rules.deal.hand_size} to each player" in text


@pytest.mark.parametrize(("spec", "players"), CASES, ids=[f"{s.stem}-{p}" for s, p in CASES])
def test_rulebook_tables_are_well_formed(spec: Path, players: int) -> None:
    lines = rulebook_markdown(load_ruleset(spec, players=players)).splitlines()
    for index, line in enumerate(lines):
        if line.startswith("|---"):
            header = lines[index - 1]
            assert lines[index - 2] == "", "a table needs a blank line before it"
            for row in takewhile(lambda line: line.startswith("|"), lines[index + 1 :]):
                assert row.count("|") == header.count("|"), row


def test_kingdoms_rewards_in_words() -> None:
    text = rulebook_markdown(load_ruleset(KINGDOMS, players=4))
    assert "The winner gains 2 peasants when the winning card's rank is 3, 4 or 5 and 1 peasant when it is 6 or 7" in text
    assert "gains 2 peasants when the card they played has rank 1 and another suit than the winning card" in text
    assert "| **With cards** | the rank of the top card of its stack | -5 for each missing peasant |" in text
    assert "(12 with 2 players, 36 with 3 players, 36 with 4 players)" in text
    assert "1. Keep only the cards with the highest rank, whatever their suit." in text
    assert "2. If any of them is in the led group, keep only those." in text


def test_meadows_faces_attributes_and_trumps() -> None:
    rules = load_ruleset(MEADOWS, players=3)
    text = rulebook_markdown(rules)
    assert "| `lila-14/red-5` | lila 14 while its suit is a trump; red 5 otherwise |" in text
    assert "| 11 | red 8, green 8, yellow 8, blue 8 |" in text
    assert "The trump suits are blue, orange and lila." in text
    assert "deal 10 to each player. The other 2 cards are set aside unseen." in text
    assert "4 players get 8 cards each" in text
    assert "scores 1 point; a tie goes to the one with the most **tricks**" in text
    assert text.count("- **tricks**:") == 1


def test_options_change_the_rulebook() -> None:
    text = rulebook_markdown(load_ruleset(MEADOWS, options={"trumps": [], "rounds": 2}))
    assert "There are no trumps." in text
    assert "The game ends after 2 rounds." in text
    assert "| `trumps` | orange, lila, blue | none | `trumps` |" in text


def test_cli_prints_the_rulebook(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", str(MEADOWS), "--players", "3", "--set", "trumps=orange"]) == 0
    printed = capsys.readouterr().out
    assert printed.rstrip("\n") == rulebook_markdown(load_ruleset(MEADOWS, players=3, options={"trumps": "orange"})).rstrip("\n")


def test_rulebook_of_a_spec_without_a_file() -> None:
    text = (ROOT / "docs" / "examples" / "tutorial" / "step2.yaml").read_text("utf-8")
    rules = load_ruleset_text(text)
    book = rulebook_markdown(rules)
    assert "| `trumps` |  | yellow |" in book  # no definitions to read: no default shown
    assert "The trump suit is yellow." in book


# docgen.py links reference topics to the tutorial's headings, which name the tutorial's game
ENGINE_FILES = sorted(p for p in (ROOT / "trickrules").rglob("*.py") if p.name != "docgen.py")


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_no_game_words_in_the_package(path: Path) -> None:
    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):  # docstrings may show an example with a shipped spec
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body.pop(0)
    code = ast.unparse(tree).lower()
    for word in ("kingdom", "peasant", "meadow", "sheep", "lila", "orange", "ugo", "plain tricks", "crown"):
        assert word not in code, word


# ---------------------------------------------------------------- words


def test_join_plural_and_ranks() -> None:
    rules = load_ruleset(KINGDOMS)
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b", "c"], "or") == "a, b or c"
    assert plural("peasant", 1) == "1 peasant"
    assert plural("peasant", 3) == "3 peasants"
    assert plural("points", 2) == "2 points"
    assert rank_span(rules.deck, [3, 4, 5]) == "3, 4 or 5"
    assert rank_span(rules.deck, range(9), "and") == "0 to 8"


def test_condition_words() -> None:
    rules = load_ruleset(MEADOWS)
    deck = rules.deck
    red, lila = deck.suits.index("red"), deck.suits.index("lila")
    condition = CardCondition(ranks=frozenset({7, 8}), suits=frozenset({red}), winner=CardCondition(trump=True))
    words = card_condition_words(condition, deck, "the card")
    assert words == "the card has rank 7 or 8 and is red and the winning card is a trump"
    either = CardCondition(any_of=(CardCondition(led=True), CardCondition(trump=False)))
    assert card_condition_words(either, deck, "it") == "(it is in the led group or it is not a trump)"
    assert deal_condition_words(DealCondition(trumps_include=lila), deck) == "lila is a trump"
    assert deal_condition_words(DealCondition(no_trumps=True), deck) == "the round has no trumps"


def test_ranking_step_words() -> None:
    deck = load_ruleset(MEADOWS).deck
    sheep = deck.attributes.index("sheep")
    assert ranking_step_words(RankingStep("lowest", attribute=sheep), deck, True) == "Keep only the cards with the lowest sheep."
    assert ranking_step_words(RankingStep("last_played"), deck, True).endswith("the one played last wins.")
    step = RankingStep("prefer", group="condition", condition=CardCondition(ranks=frozenset({1})))
    assert ranking_step_words(step, deck, False) == "If any card has rank 1, keep only those."


def test_every_follow_kind_has_words() -> None:
    from trickrules.rules.follow import CONDITION_RULES, FOLLOW_RULES, TRICK_RULES
    from trickrules.tools.rulebook_words import FOLLOW_WORDS, SECTION_VALUE_WORDS
    from trickrules.rules.ruleset import SectionValue

    assert set(FOLLOW_WORDS) == set(FOLLOW_RULES) | set(TRICK_RULES) | set(CONDITION_RULES)
    kinds = SectionValue.__annotations__["kind"]
    assert all(re.search(rf"\b{kind}\b", str(kinds)) for kind in SECTION_VALUE_WORDS)
