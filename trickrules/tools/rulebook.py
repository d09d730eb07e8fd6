"""A compiled ruleset written out as a Markdown rulebook that players can follow.

Every word of the rulebook comes from the ruleset: suit, token, section, attribute, reward
and measure names are the spec's own, and each rule kind has one small function that says
it in words. The rulebook describes one player count and one set of option values, the ones
the ruleset was compiled for; the option table says what else may be chosen.

>>> from trickrules import load_ruleset
>>> text = rulebook_markdown(load_ruleset("specs/kingdoms.yaml", players=4))
>>> text.splitlines()[0]
'# Kingdoms'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from trickrules.spec.options import OptionDef, option_defs
from trickrules.rules.ruleset import (
    Measure,
    RankingStep,
    Ruleset,
    Tableau,
    TokenKind,
    TrumpChoice,
    TurnedUp,
    FirstLed,
)

from trickrules.tools.rulebook_round import (
    choosing_words,
    contracts_section,
    game_end_words,
    hand_size_words,
    restrictions_section,
    round_section,
    teams_words,
)
from trickrules.tools.rulebook_words import (
    SECTION_VALUE_WORDS,
    found_trumps_words, kept_words,
    join_words,
    plural,
    rank_span,
    card_name,
    option_value_text,
    deal_condition_words,
    follow_words,
    ranking_step_words,
    trick_names_note,
    reward_words,
    measure_words,
    point_rule_words,
)

__all__ = ["rulebook_markdown"]


def rulebook_markdown(ruleset: Ruleset, spec_data: Mapping[str, Any] | None = None) -> str:
    """Return the rulebook of `ruleset` as Markdown.

    `spec_data` is the spec's checked data; it adds the option definitions and the values
    for other player counts. Without it the spec file named in the ruleset is read, if any.
    """
    data = spec_data if spec_data is not None else _read_spec_data(ruleset)
    book = _Book(ruleset, data or {})
    sections = (
        book.title, book.components, book.deal, book.passing, book.trumps, lambda: round_section(ruleset, after_trumps=True), book.following, book.restrictions, book.trick_winner,
        book.rewards, book.won_cards, book.scoring, book.contracts, book.game_end, book.options,
    )  # fmt: skip
    return "\n\n".join(text for text in (section() for section in sections) if text).rstrip() + "\n"


def _read_spec_data(ruleset: Ruleset) -> Mapping[str, Any] | None:
    """The checked data of the spec file the ruleset came from (None if there is none)."""
    if not ruleset.source_file or not Path(ruleset.source_file).is_file():
        return None
    from trickrules.spec.checks import load_spec

    return load_spec(ruleset.source_file).data

# ---------------------------------------------------------------- the book


COPY_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}
"""How many copies of each card a deck has, in words."""


class _Book:
    """The sections of one rulebook; each method returns Markdown, or '' when it has nothing to say."""

    def __init__(self, ruleset: Ruleset, data: Mapping[str, Any]) -> None:
        self.rules = ruleset
        self.deck = ruleset.deck
        self.data = data
        self.option_defs: dict[str, OptionDef] = option_defs(data) if data else {}

    def token_word(self, token: int | None, count: int = 2) -> str:
        if token is None:
            return plural("token", count)[len(str(count)) + 1 :]
        kind = self.rules.tokens[token]
        return plural(kind.name, count, kind.many)[len(str(count)) + 1 :]

    # ------------------------------------------------------------ title and components

    def title(self) -> str:
        rules = self.rules
        lines = [f"# {rules.title}"]
        if rules.description:
            lines += ["", rules.description]
        version = f" version {rules.version}" if rules.version else ""
        lines += ["", f"*Rules of the spec `{rules.id}`{version}, for {rules.players} players.*"]
        return "\n".join(lines)

    def components(self) -> str:
        parts = ["## Components", self.cards()]
        parts += [self.multi_face_cards(), self.attributes(), self.tokens(), self.tableau()]
        return "\n\n".join(p for p in parts if p)

    def cards(self) -> str:
        deck = self.deck
        suits = join_words(deck.suits)
        lines = [f"The deck has {len(deck.cards)} cards in {len(deck.suits)} suits: {suits}.", ""]
        by_suit: dict[int, list[int]] = {}
        for card in deck.cards:
            if len(card.faces) == 1:
                by_suit.setdefault(card.faces[0].suit, []).append(card.faces[0].rank)
        rank_sets = {tuple(sorted(ranks)) for ranks in by_suit.values()}
        if len(rank_sets) == 1 and by_suit:
            ranks = list(next(iter(rank_sets)))
            span = sorted(set(ranks))
            copies = {ranks.count(rank) for rank in span}
            each = COPY_WORDS.get(len(ranks) // len(span), str(len(ranks) // len(span))) if len(copies) == 1 else "one or more"
            names = join_words(deck.suits[s] for s in sorted(by_suit))
            count = len(ranks) * len(by_suit)
            lines.append(f"- Single cards: {each} of each rank {rank_span(deck, span, 'and')} in each of {names} ({count} cards).")
        else:
            for suit, ranks in sorted(by_suit.items()):
                copies_note = "" if len(set(ranks)) == len(ranks) else ", some in several copies"
                lines.append(f"- {deck.suits[suit]}: ranks {rank_span(deck, sorted(set(ranks)), 'and')} ({len(ranks)} cards{copies_note}).")
        multi = sum(1 for card in deck.cards if len(card.faces) > 1)
        if multi:
            lines.append(f"- Cards with several faces: {multi} (below).")
        return "\n".join(lines)

    def multi_face_cards(self) -> str:
        deck = self.deck
        cards = [card for card in deck.cards if len(card.faces) > 1]
        if not cards:
            return ""
        lines = [
            "### Cards with several faces",
            "",
            "In each round such a card counts as exactly one of its faces: the first one whose",
            "condition holds, else its last face. The counting face gives the card its suit and",
            "rank for following, winning the trick, rewards and scoring.",
            "",
            "| Card | Counts as |",
            "|---|---|",
        ]
        for card in cards:
            lines.append(f"| `{card.id}` | {self.face_words(card.faces)} |")
        return "\n".join(lines)

    def face_words(self, faces: Sequence[Any]) -> str:
        parts = []
        for face in faces[:-1]:
            when = "always" if face.when is None else f"while {deal_condition_words(face.when, self.deck)}"
            parts.append(f"{self.deck.face_text(face)} {when}")
        parts.append(f"{self.deck.face_text(faces[-1])} otherwise" if parts else self.deck.face_text(faces[-1]))
        return "; ".join(parts)

    def attributes(self) -> str:
        deck = self.deck
        if not deck.attributes:
            return ""
        described = (self.data.get("deck") or {}).get("attributes") or {}
        lines = ["### Card attributes", "", "Every card carries these numbers:"]
        for index, name in enumerate(deck.attributes):
            about = (described.get(name) or {}).get("description", "")
            lines += ["", f"**{name}**{': ' + about if about else ''}", "", f"| {name} | Cards |", "|---|---|"]
            for value, cards in self.cards_by_value(index):
                lines.append(f"| {value} | {', '.join(card_name(deck, c) for c in cards)} |")
        return "\n".join(lines)

    def cards_by_value(self, attribute: int) -> list[tuple[int, list[int]]]:
        groups: dict[int, list[int]] = {}
        for card in self.deck.cards:
            groups.setdefault(card.attributes[attribute], []).append(card.index)
        return sorted(groups.items(), reverse=True)

    def tokens(self) -> str:
        if not self.rules.tokens:
            return ""
        lines = ["### Tokens", ""]
        for index, kind in enumerate(self.rules.tokens):
            lines.append(f"- **{kind.name}**: {self.supply_words(index, kind)}")
        return "\n".join(lines)

    def supply_words(self, index: int, kind: TokenKind) -> str:
        if kind.supply < 0:
            return "as many as needed (the supply is unlimited)."
        text = f"{kind.supply} in a common supply"
        raw = ((self.data.get("tokens") or {}).get(kind.name) or {}).get("supply")
        if isinstance(raw, dict) and "by_players" in raw:
            counts = ", ".join(f"{v} with {k} players" for k, v in sorted(raw["by_players"].items(), key=lambda i: int(i[0])))
            text += f" ({counts})"
        return text + ". The supply is filled again at the start of each round."

    def tableau(self) -> str:
        tableau = self.rules.tableau
        if tableau is None:
            return ""
        token = self.token_word(tableau.token, 2)
        lines = [
            "### Tableau",
            "",
            f"Each player has a row of {len(tableau.sections)} sections, in this order:",
            "",
            f"| Section | {token.capitalize()} needed (and spaces) | Printed value |",
            "|---|---|---|",
        ]
        lines += [f"| {s.name} | {s.tokens_needed} | {s.value} |" for s in tableau.sections]
        return "\n".join(lines)

    # ------------------------------------------------------------ the deal

    def deal(self) -> str:
        rules, deal = self.rules, self.rules.deal
        allowed = join_words((str(p) for p in rules.allowed_players), "or")
        dealt = (deal.first_stage or deal.hand_size) * rules.players
        rest = len(self.deck.cards) - dealt
        left = f"The other {plural('card', rest)[len(str(rest)) + 1:] if rest == 1 else str(rest) + ' cards'} are set aside unseen." if rest else "No card is left over."
        if deal.first_stage:  # the rest of each hand comes later in the round
            left = f"The other {rest} cards lie face down in a pile: the hands are completed to {deal.hand_size} cards later in the round."
        lines = [
            "## Players and the deal",
            "",
            f"- This rulebook is for **{rules.players} players**; the game allows {allowed}.",
            f"- A game has {plural('round', rules.rounds)}." if rules.until is None else f"- A game has rounds until `{rules.until.text}` holds, {plural('round', rules.rounds)} at most.",
            f"- At the start of each round, shuffle all {len(self.deck.cards)} cards and deal "
            f"{deal.first_stage or hand_size_words(deal)} to each player. {left if deal.hand_sizes is None else 'The cards not dealt are set aside unseen.'}",
        ]
        if self.rules.teams or self.rules.partner_cards:
            lines.append(f"- {teams_words(self.rules)}")
        other = self.other_hand_sizes()
        if other:
            lines.append(f"- With other player counts: {other}.")
        rotation = deal.dealer_rotation
        moves = "stays with that player" if rotation % rules.players == 0 else f"moves on by {plural('seat', rotation)} each round"
        if deal.dealer_random:
            lines.append("- The dealer of each round is drawn at random, each seat as likely.")
        else:
            lines.append(f"- Seat {deal.dealer_first} deals the first round; the deal {moves}.")
        lines.append(f"- {self.first_leader_words()} leads the first trick of a round; the winner of each trick leads the next.")
        return "\n".join(lines)

    def other_hand_sizes(self) -> str:
        raw = (self.data.get("deal") or {}).get("hand_size")
        if not (isinstance(raw, dict) and "by_players" in raw):
            return ""
        items = sorted((int(k), int(v)) for k, v in raw["by_players"].items() if int(k) != self.rules.players)
        return "; ".join(f"{count} players get {size} cards each" for count, size in items)

    def passing(self) -> str:
        return round_section(self.rules)

    def restrictions(self) -> str:
        return restrictions_section(self.rules)

    def first_leader_words(self) -> str:
        deal, words = self.rules.deal, {"dealer": "The dealer", "declarer": "The declarer (the player after the dealer when no one declared)",
                                        "left_of_declarer": "The player after the declarer (after the dealer when no one declared)"}
        if deal.first_leader == "seat":
            return f"Seat {deal.first_leader_seat}"
        if deal.first_leader in words:
            return words[deal.first_leader]
        if deal.first_leader == "holder":
            return f"The holder of {self.rules.deck.cards[deal.first_leader_card].id} (after any passing), leading it,"
        return "The player after the dealer (the next seat)"

    # ------------------------------------------------------------ trumps and tricks

    def trumps(self) -> str:
        trumps, suits = self.rules.trumps, self.deck.suits
        lines = ["## Trumps", ""]
        if isinstance(trumps, TrumpChoice) and trumps.rounds:
            lines.append(choosing_words(trumps, suits, self.rules))
        elif isinstance(trumps, TrumpChoice):
            chooser = {"dealer": "the dealer", "declarer": "the declarer (the dealer when no one declared)"}.get(trumps.by, "the player after the dealer")
            lines.append(
                f"At the start of each round, before the first trick, {chooser} chooses one trump suit "
                f"from {join_words((suits[s] for s in trumps.candidates), 'or')}."
            )
        elif isinstance(trumps, (FirstLed, TurnedUp)):
            lines.append(found_trumps_words(trumps, self.rules.round))
        elif not trumps:  # unless an auction's contract names them
            lines.append("The contract's strain names the trumps (see Auction): none in a contract without trumps." if any(s.kind == "auction" for s in self.rules.round) else "There are no trumps.")
        else:
            names = join_words(suits[s] for s in sorted(trumps))
            lines.append(f"The trump {'suit is' if len(trumps) == 1 else 'suits are'} {names}.")
            if len(trumps) > 1:
                lines.append("All trump suits together form one group, *trump*, for following and for winning tricks.")
        option = self.option_setting("trumps")
        if option:
            lines += ["", option]
        return "\n".join(lines)

    def option_setting(self, key: str) -> str:
        raw = self.data.get(key)
        if isinstance(raw, dict) and set(raw) == {"option"}:
            return f"The option `{raw['option']}` sets this (see [Options](#options))."
        return ""

    def following(self) -> str:
        lines = ["## Playing a trick", "", "The leader plays any card from their hand. Then each other player, in seat order, plays one card."]
        follow = self.rules.follow
        if not follow:
            return "\n".join(lines + ["", "Players may play any card."])
        lines += ["", "When you play to a trick someone else led:", ""]
        lines += [f"{n}. {follow_words(rule, self.deck).capitalize()}." for n, rule in enumerate(follow, 1)]
        lines += ["", "A player who holds no card a rule asks for may play any card."]
        lines += ["", self.group_words()]
        return "\n".join(lines)

    def group_words(self) -> str:
        text = "A card's *group* is its counting suit"
        if isinstance(self.rules.trumps, TrumpChoice) or self.rules.trumps:
            text += ", or *trump* when that suit is a trump"
        return text + ". The led group is the group of the first card of the trick."

    def trick_winner(self) -> str:
        lines = ["## Who wins a trick", "", "Start with every card of the trick and take these steps in order:", ""]
        narrowed = False
        steps = list(self.rules.ranking)
        if not any(s.kind in ("first_played", "last_played") for s in steps):
            steps.append(RankingStep("first_played"))
        for number, step in enumerate(steps, 1):
            lines.append(f"{number}. {ranking_step_words(step, self.deck, narrowed)}")
            narrowed = True
            if step.kind in ("first_played", "last_played"):
                break
        lines += ["", "The player of the card that is left wins the trick."]
        note = trick_names_note((s.condition for s in steps), self.deck)
        return "\n".join(lines + (["", note] if note else []))

    def rewards(self) -> str:
        rewards = self.rules.rewards
        if not rewards:
            return ""
        lines = ["## Rewards", "", "After each trick, before its cards are taken:", ""]
        lines += [f"- **{reward.name}**: {reward_words(reward, self.rules)}" for reward in rewards]
        lines += [
            "",
            "Rewards are handed out to the winner first, then to the losers in the order they played, "
            "each player's rewards in the order listed above.",
        ]
        if any(kind.supply >= 0 for kind in self.rules.tokens):
            lines[-1] += " When a supply runs short, whoever comes first takes what is left; with an empty supply nobody gains."
        note = trick_names_note((reward.when for reward in rewards), self.deck)
        return "\n".join(lines + (["", note] if note else []))

    # ------------------------------------------------------------ won cards and tokens

    def won_cards(self) -> str:
        lines = ["## Won cards and tokens", ""]
        tableau = self.rules.tableau
        if self.rules.won_cards == "pile" or tableau is None:
            lines.append("The winner of a trick puts its cards face down on their own pile." + kept_words(self.rules.kept, self.deck))
        else:
            lines += self.tableau_placement(tableau)
        for index, kind in enumerate(self.rules.tokens):
            lines += ["", self.token_placement(index, kind)]
        return "\n".join(lines)

    def tableau_placement(self, tableau: Tableau) -> list[str]:
        order = ", ".join(s.name for s in tableau.sections)
        lines = [
            "The winner of a trick lays its cards on their own tableau, one by one:",
            "",
            "- Cards of one counting suit share a section: a card whose suit already lies in a section goes on top of that stack.",
            f"- A card of a new suit opens the next section that has no cards yet, in the order {order}.",
            "- A card that finds no free section goes to the winner's pile.",
            "- When several cards of one suit are to be laid, the winner chooses which lies on top; the others go beneath it in the order they were played (only the top card and the set of cards of a stack ever count).",
            "- When cards of several new suits are to be laid, the winner chooses which suit opens a section first.",
        ]
        if "top_rank" in {tableau.cards_staffed.kind, tableau.cards_understaffed.kind}:
            lines.append("- Only the top card of a stack counts for the section's score.")
        return lines

    def token_placement(self, index: int, kind: TokenKind) -> str:
        many = self.token_word(index)
        if kind.to == "player":
            return f"Gained {many} go to the player's own stock and stay there until the round ends."
        tableau = self.rules.tableau
        spaces = ", ".join(f"{s.name} {s.tokens_needed}" for s in tableau.sections if s.tokens_needed) if tableau else ""
        no_space = "stays in the supply" if kind.when_no_space == "stays_in_supply" else "is lost for the round"
        return (
            f"The player places each gained {kind.name} at once on a free space of their own sections "
            f"(spaces: {spaces}), choosing the section when there is a choice. Placed {many} stay until the round ends. "
            f"A {kind.name} with no free space left {no_space}."
        )

    # ------------------------------------------------------------ scoring and the end

    def contracts(self) -> str:
        return contracts_section(self.rules, lambda rules: (lambda b: (b.trumps(), b.trick_winner(), b.points()))(_Book(rules, self.data)))

    def scoring(self) -> str:
        parts = ["## Scoring", "At the end of each round:"]
        parts += [self.section_scores(), self.measures(), self.points()]
        return "\n\n".join(p for p in parts if p)

    def section_scores(self) -> str:
        tableau = self.rules.tableau
        if tableau is None:
            return ""
        token = tableau.token
        word = self.token_word(token, 1)
        say = lambda value: SECTION_VALUE_WORDS[value.kind](value, word)  # noqa: E731
        if token is None or not any(s.tokens_needed for s in tableau.sections):
            return "\n".join([
                "### Sections", "", "Each section of each player's tableau scores:", "",
                f"- with cards: {say(tableau.cards_staffed)};", f"- without cards: {say(tableau.empty_staffed)}.",
            ])  # fmt: skip
        return "\n".join([
            "### Sections",
            "",
            f"Each section of each player's tableau scores by whether it holds cards and whether it is "
            f"*staffed* (holds all the {self.token_word(token)} it needs):",
            "",
            "| | Staffed | Understaffed |",
            "|---|---|---|",
            f"| **With cards** | {say(tableau.cards_staffed)} | {say(tableau.cards_understaffed)} |",
            f"| **Without cards** | {say(tableau.empty_staffed)} | {say(tableau.empty_understaffed)} |",
        ])  # fmt: skip

    def used_measures(self) -> list[Measure]:
        scoring = self.rules.scoring
        used = {r.measure for r in scoring.round_rules if r.kind == "add"}
        used |= {k.measure for r in scoring.round_rules for k in r.keys}
        read = {name for r in scoring.round_rules if r.expression is not None for name in r.expression.names}
        used |= {i for i, m in enumerate(scoring.measures) if m.name in read or f"all_{m.name}" in read}
        declared = set((self.data.get("scoring") or {}).get("measures") or {})
        shown: dict[str, Measure] = {}
        for index, measure in enumerate(scoring.measures):
            if index in used or measure.name in declared:
                shown.setdefault(measure.name, measure)
        return list(shown.values())

    def measures(self) -> str:
        if not self.used_measures():
            return ""
        lines = ["### Measures", "", "Each player counts:", ""]
        lines += [f"- **{m.name}**: {measure_words(m, self.rules)}." for m in self.used_measures()]
        return "\n".join(lines)

    def points(self) -> str:
        scoring = self.rules.scoring
        lines = ["### Points", ""]
        counters = [c.name for c in self.rules.counters if c.scope == "player"]
        lines += [f"- {point_rule_words(rule, scoring.measures, counters)}" for rule in scoring.round_rules]
        if any(r.token is None for r in self.rules.rewards):
            lines.append("- Points gained from trick rewards during the round count too.")
        lines += ["", "Add each player's points to their total; then the cards and tokens go back for the next round."]
        return "\n".join(lines)

    def game_end(self) -> str:
        rules = self.rules
        best = "most" if rules.scoring.winner == "most_points" else "fewest"
        return "\n".join([
            "## End of the game",
            "",
            f"{game_end_words(rules)} The player with the {best} points in total wins; equal totals share the win.",
        ])  # fmt: skip

    # ------------------------------------------------------------ options

    def options(self) -> str:
        values = dict(self.rules.options)
        if not values:
            return ""
        lines = [
            "## Options",
            "",
            "Set an option with `--set NAME=VALUE` on the command line. This rulebook uses the values in the third column.",
            "",
            "| Option | Default | In this rulebook | Sets | Description |",
            "|---|---|---|---|---|",
        ]
        uses = self.option_uses()
        for name, value in sorted(values.items()):
            definition = self.option_defs.get(name)
            default = option_value_text(definition.default) if definition else ""
            about = definition.description if definition else ""
            sets = ", ".join(f"`{path}`" for path in uses.get(name, []))
            lines.append(f"| `{name}` | {default} | {option_value_text(value)} | {sets} | {about} |")
        return "\n".join(lines)

    def option_uses(self) -> dict[str, list[str]]:
        uses: dict[str, list[str]] = {}
        for name, path in _option_references(self.data, ""):
            uses.setdefault(name, []).append(path)
        return uses


def _option_references(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """(option name, dotted path) of every ``{option: NAME}`` in spec data."""
    if isinstance(node, dict):
        if set(node) == {"option"} and isinstance(node["option"], str):
            yield node["option"], path
            return
        for key, value in node.items():
            if key != "options":
                yield from _option_references(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _option_references(value, f"{path}[{index}]")
