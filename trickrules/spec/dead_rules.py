"""Dead rules: warnings for rules a spec states that can never apply (TR5xx).

A spec that loads can still hold rules no game will ever use: a reward no card can trigger, a
ranking step that can never decide a trick, a card face that can never count, an option nothing
uses, a measure no rule reads, a tableau section no card can reach, a card turned up after a
deal that leaves no card to turn up. Each is reported as a
warning (a `Problem` with ``severity="warning"``), at the line and column of the rule.

The reasoning is over the compiled deck and rules and over every set of trumps the spec can
have in a round, so a warning is never wrong: a rule is called dead only when no deal, no trick
and no option value can make it apply. Whatever this module cannot reason about (keys of the
language it does not know, trumps chosen in rounds, contracts) it skips: it then warns about
less, never wrongly. Rules that may apply but rarely are `simulate`'s to find.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from trickrules.errors import Problem
from trickrules.rules.conditions import is_static
from trickrules.rules.faces import Faces, counting_faces, deal_condition_holds
from trickrules.rules.rewards import amount_table
from trickrules.rules.ranking import order_place, step_is_static
from trickrules.rules.ruleset import AttributeTest, CardCondition, Deck, RankingStep, Reward, Ruleset
from trickrules.spec.source import SpecSource, json_path

__all__ = ["dead_rule_warnings"]

KNOWN_KEYS = frozenset({
    "language", "id", "title", "description", "version", "players", "options", "deck", "deal", "rounds",
    "trumps", "follow", "ranking", "rewards", "tokens", "won_cards", "tableau", "scoring", "round",
    "counters", "restrictions", "teams",
})  # fmt: skip
"""Top-level keys whose effect on cards, trumps, tricks and rewards this module knows."""
KNOWN_PHASES = frozenset({"deal", "turn_up", "choose_trumps", "play", "score", "go_alone", "pass", "bid", "show_melds"})
MAX_TRUMP_SUITS = 8
"""A suits option for trumps with more suits than this is not enumerated (2**8 trump sets)."""
BUILTIN_MEASURES = ("tricks", "cards")
_TEXT_KEYS = frozenset({"name", "description", "title", "id", "version", "names", "rank_names"})
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

NodePath = tuple[str | int, ...]


def dead_rule_warnings(source: SpecSource, ruleset: Ruleset) -> list[Problem]:
    """Every rule of a loaded spec that can never apply, as warnings, in file order.

    `ruleset` is the spec compiled with its defaults (any player count: the deck, trumps,
    ranking and rewards do not depend on it)."""
    found = _Found(source)
    _unused_options(found)
    _unused_measures(found)
    _nothing_to_turn_up(found, ruleset)
    cards = _CardReasoning.of(source, ruleset)
    if cards is not None:
        cards.faces(found)
        cards.rewards(found)
        cards.ranking(found)
        cards.sections(found)
    return sorted(found.problems, key=lambda p: (p.file, p.line, p.column))


class _Found:
    """The warnings found so far."""

    def __init__(self, source: SpecSource) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def add(self, code: str, message: str, path: NodePath) -> None:
        file, line, column = self.source.locate(path)
        self.problems.append(Problem(code, message, file, line, column, json_path(path), "warning"))


# ---------------------------------------------------------------- names nothing reads


def _words(node: Any, skip: frozenset[NodePath] = frozenset(), path: NodePath = ()) -> Iterator[str]:
    """Every identifier in the spec's text values (expressions, names of measures and so on)
    and keys, leaving out titles, descriptions, names of things, and the paths in `skip`."""
    if path in skip:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in _TEXT_KEYS:
                yield key
                yield from _words(value, skip, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _words(value, skip, path + (index,))
    elif isinstance(node, str):
        yield from _WORD.findall(node)


def _option_references(node: Any) -> Iterator[str]:
    """Every option named by an {option: NAME} (with or without cases) anywhere."""
    if isinstance(node, dict):
        if isinstance(node.get("option"), str) and set(node) <= {"option", "cases"}:
            yield node["option"]
        for value in node.values():
            yield from _option_references(value)
    elif isinstance(node, list):
        for value in node:
            yield from _option_references(value)


def _unused_options(found: _Found) -> None:
    """TR504: an option no {option: NAME} names and no expression reads."""
    data = found.source.data
    options = data.get("options") or {}
    if not options:
        return
    used = set(_option_references(data)) | set(_words(data, frozenset({("options",)})))
    for name in options:
        if name not in used:
            message = f"option '{name}' is declared but nothing uses it: no {{option: {name}}} names it and no expression reads it"
            found.add("TR504", message, ("options", name))


def _unused_measures(found: _Found) -> None:
    """TR505: a declared measure no point rule adds, no award ranks by, no expression reads."""
    data = found.source.data
    measures = (data.get("scoring") or {}).get("measures") or {}
    words = set(_words(data, frozenset({("scoring", "measures"), ("options",)})))
    used = words | {word[len("all_"):] for word in words if word.startswith("all_")}
    for name in measures:
        if name not in used and name not in BUILTIN_MEASURES and not (measures[name] or {}).get("report"):
            message = (f"measure '{name}' is worked out every round but no rule reads it: no point rule adds it, "
                       f"no award ranks by it and no expression names it (report: true keeps it for the logs "
                       f"and records, shown but not scored)")
            found.add("TR505", message, ("scoring", "measures", name))


# ---------------------------------------------------------------- a card to turn up


def _nothing_to_turn_up(found: _Found, ruleset: Ruleset) -> None:
    """TR507: a turn_up phase (``trumps: turned_up``, or a round that lists ``turn_up``) after
    a deal that uses the whole deck at every player count and hand size: no card is ever
    turned up, so the round has no trumps (or none is proposed)."""
    from trickrules.errors import SpecError
    from trickrules.rules.ruleset import default_round
    from trickrules.spec.compiler import compile_ruleset

    data = found.source.data
    steps = [step for step in ruleset.round or default_round(ruleset.trumps) if step.kind == "turn_up"]
    if not steps or any(step.rules == "dealer" for step in steps):  # none, or one of the dealer's cards
        return
    if _has_option(data.get("deal")) or _has_option(data.get("deck")):
        return  # the hand size or the deck changes with an option: not followed here
    deals = []
    for players in sorted(set(data.get("players") or ())):
        try:
            rules = ruleset if players == ruleset.players else compile_ruleset(found.source, players)
        except SpecError:
            return
        sizes = set(rules.deal.hand_sizes.values) if rules.deal.hand_sizes is not None else {rules.deal.first_stage or rules.deal.hand_size}
        deck = len(rules.deck.cards)
        if any(players * size < deck for size in sizes):
            return  # a card is left in some deal
        deals.append(f"{players} hands of {min(sizes)}{' or more' if len(sizes) > 1 else ''} cards from {deck}")
    rounds = data.get("round")
    where: NodePath = ("trumps",)
    if data.get("trumps") != "turned_up" and isinstance(rounds, list) and "turn_up" in rounds:
        where = ("round", rounds.index("turn_up"))
    effect = "so no round has trumps" if data.get("trumps") == "turned_up" else "so no card is ever shown (nor its suit offered for trumps)"
    message = (f"a card is turned up after the deal, but the deal uses the whole deck ({', '.join(deals)}): "
               f"there is never a card to turn up, {effect}")
    found.add("TR507", message, where)


# ---------------------------------------------------------------- cards, trumps, tricks


def _has_option(node: Any) -> bool:
    """Whether an {option: ...} reference sits anywhere in `node`."""
    return any(True for _ in _option_references(node))


def _trump_sets(raw: Any, suits: int, index: dict[str, int]) -> list[frozenset[int]] | None:
    """Every set of trump suits a round can have, or None when this module cannot tell."""
    if raw is None or raw == "none":
        return [frozenset()]
    if raw in ("turned_up", "first_led"):  # any suit a card can show, or none (no card left; before the lead)
        return [frozenset(), *(frozenset([suit]) for suit in range(suits))]
    if isinstance(raw, list):
        return [frozenset(index[suit] for suit in raw)]
    if isinstance(raw, dict) and set(raw) == {"option"}:  # a suits option: any set of suits
        if suits > MAX_TRUMP_SUITS:
            return None
        return [frozenset(chosen) for size in range(suits + 1) for chosen in combinations(range(suits), size)]
    if isinstance(raw, dict) and set(raw) == {"choose"} and set(raw["choose"]) <= {"by", "from"}:
        return [frozenset([index[suit]]) for suit in raw["choose"].get("from", index)]  # without from: any suit
    return None


def _reasonable(data: dict[str, Any]) -> bool:
    """Whether the spec uses only what this module can reason about."""
    if set(data) - KNOWN_KEYS:
        return False
    for phase in data.get("round") or ():
        kind = phase if isinstance(phase, str) else next(iter(phase), "") if isinstance(phase, dict) else ""
        if kind not in KNOWN_PHASES:
            return False
    rewards = [reward.get("when") for reward in data.get("rewards") or ()]
    return not any(_has_option(part) for part in (data["deck"], data["ranking"], rewards, data.get("tableau"),
                                                  data.get("won_cards"), data.get("follow")))


@dataclass(frozen=True)
class _Context:
    """What a condition is read against: the deck, the counting faces, and whether the card
    it is about is the trick's winning card."""

    deck: Deck
    faces: Faces
    is_winner: bool


def _attribute_holds(test: AttributeTest, value: int) -> bool:
    if test.at_least is not None and value < test.at_least:
        return False
    if test.at_most is not None and value > test.at_most:
        return False
    return test.equals is None or value == test.equals


def _all(results: Sequence[bool | None]) -> bool | None:
    """And of three-valued results: False if any is False, True if all are True, else unknown."""
    if any(result is False for result in results):
        return False
    return True if all(result is True for result in results) else None


def maybe_holds(condition: CardCondition, card: int, context: _Context) -> bool | None:
    """Whether `condition` holds for `card` in some trick: True (always), False (never) or
    None (it depends on the trick). Over-approximates: "never" is only said when sure."""
    faces, deck = context.faces, context.deck
    results: list[bool | None] = []
    if condition.ranks is not None:
        results.append(faces.rank[card] in condition.ranks)
    if condition.suits is not None:
        results.append(faces.suit[card] in condition.suits)
    if condition.trump is not None:
        results.append(faces.is_trump[card] == condition.trump)
    if condition.attribute is not None:
        test = condition.attribute
        results.append(_attribute_holds(test, deck.cards[card].attributes[test.attribute]))
    if condition.led is not None or condition.trick is not None:
        results.append(None)
    if condition.same_suit_as_winner is not None:  # the winning card has its own suit
        results.append(condition.same_suit_as_winner if context.is_winner else None)
    if condition.winner is not None:
        if context.is_winner:
            results.append(maybe_holds(condition.winner, card, context))
        else:
            winner = _Context(deck, faces, True)
            can = any(maybe_holds(condition.winner, other, winner) is not False for other in range(len(deck.cards)))
            results.append(None if can else False)
    if condition.negate is not None:
        inner = maybe_holds(condition.negate, card, context)
        results.append(None if inner is None else not inner)
    results += [maybe_holds(part, card, context) for part in condition.all_of]
    if condition.any_of is not None:
        parts = [maybe_holds(part, card, context) for part in condition.any_of]
        results.append(True if any(p is True for p in parts) else False if all(p is False for p in parts) else None)
    return _all(results)


def _step_text(raw: Any) -> str:
    """A ranking step as the spec writes it, on one line."""
    if isinstance(raw, dict):
        key, value = next(iter(raw.items()))
        return f"{key}: {_flow(value)}"
    return str(raw)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


class _CardReasoning:
    """The deck's counting faces under every possible set of trumps, and what they allow."""

    def __init__(self, source: SpecSource, ruleset: Ruleset, trump_sets: list[frozenset[int]]) -> None:
        self.source = source
        self.data = source.data
        self.ruleset = ruleset
        self.deck = ruleset.deck
        self.trump_sets = trump_sets
        self.all_faces = [counting_faces(self.deck, trumps) for trumps in trump_sets]

    @classmethod
    def of(cls, source: SpecSource, ruleset: Ruleset) -> _CardReasoning | None:
        """The reasoning for a spec, or None when it uses what this module cannot reason about."""
        data = source.data
        if not _reasonable(data):
            return None
        suits = ruleset.deck.suits
        trump_sets = _trump_sets(data.get("trumps", "none"), len(suits), {s: i for i, s in enumerate(suits)})
        return None if trump_sets is None else cls(source, ruleset, trump_sets)

    # ------------------------------------------------------------ faces

    def faces(self, found: _Found) -> None:
        """TR503: a face of a card that counts under no possible set of trumps."""
        raw_cards = self.data["deck"].get("cards") or []
        first = len(self.deck.cards) - len(raw_cards)
        for number, raw in enumerate(raw_cards):
            card = self.deck.cards[first + number]
            counted = {faces.face[card.index] for faces in self.all_faces}
            for index, face in enumerate(card.faces):
                if index in counted:
                    continue
                before = next((i for i in range(index) if card.faces[i].when is None), None)
                holds = face.when is None or any(deal_condition_holds(face.when, face, t) for t in self.trump_sets)
                if before is not None:
                    why = f"face {before + 1} before it has no 'when', so it always counts"
                elif not holds:
                    why = "its 'when' holds with none of the trumps this spec can have"
                else:
                    why = "whenever its 'when' holds, an earlier face counts instead"
                message = f"face '{self.deck.face_text(face)}' of card '{card.id}' can never count: {why}"
                found.add("TR503", message, ("deck", "cards", number, "faces", index))

    # ------------------------------------------------------------ rewards

    def rewards(self, found: _Found) -> None:
        """TR501: a reward no card can trigger, or that never gives anything."""
        raw_rewards = self.data.get("rewards") or []
        for index, (reward, raw) in enumerate(zip(self.ruleset.rewards, raw_rewards)):
            why = self.reward_dead(reward, raw)
            if why:
                found.add("TR501", f"reward '{reward.name}' can never be given: {why}", ("rewards", index))

    def reward_dead(self, reward: Reward, raw: dict[str, Any]) -> str:
        """Why a reward can never give anything, or "" when it might."""
        when, give = reward.when, raw["give"]
        token = "token" in give
        amount = give["amount"] if token else give["points"]
        if token and self.no_supply(give["token"]):
            return f"the supply of '{give['token']}' tokens is always 0"
        option = amount.get("option") if isinstance(amount, dict) and set(amount) == {"option"} else None
        if option is not None and not self.option_nonzero(option, token):
            return f"option '{option}' only allows amounts that give nothing"
        matched = False
        for faces in self.all_faces:
            context = _Context(self.deck, faces, reward.to == "winner")
            table = None if option is not None else amount_table(reward.amount, self.deck, faces)
            for card in range(len(self.deck.cards)):
                if when is not None and maybe_holds(when, card, context) is False:
                    continue
                matched = True
                if table is None or (table[card] > 0 if token else table[card] != 0):
                    return ""
        if not matched:
            return "no card of the deck can meet its condition, with any trumps the spec can have"
        return "its amount is 0 for every card that meets its condition"

    def option_nonzero(self, name: str, positive: bool) -> bool:
        """Whether an integer option may hold a value that gives something (> 0 for tokens)."""
        option = (self.data.get("options") or {}).get(name) or {}
        low, high = option.get("min"), option.get("max")
        if positive:
            return high is None or high > 0
        return low is None or high is None or low != 0 or high != 0

    def no_supply(self, token: str) -> bool:
        """Whether a token kind's supply is 0 at every player count and option value."""
        supply = (self.data.get("tokens") or {}).get(token, {}).get("supply", "unlimited")
        if isinstance(supply, int):
            return supply == 0
        if isinstance(supply, dict) and isinstance(supply.get("by_players"), dict):
            return all(int(v) == 0 for v in supply["by_players"].values())
        if isinstance(supply, dict) and set(supply) == {"option"}:
            return (self.data.get("options") or {}).get(supply["option"], {}).get("max", 1) == 0
        return False

    # ------------------------------------------------------------ ranking

    def ranking(self, found: _Found) -> None:
        """TR502: a ranking step that never narrows the cards still in the running."""
        steps = self.ruleset.ranking
        raws = self.data["ranking"]
        reasons: dict[int, str] = {}
        for index, step in enumerate(steps):
            final = next((i for i in range(index) if steps[i].kind in ("first_played", "last_played")), None)
            if final is not None:
                reasons[index] = f"'{_step_text(raws[final])}' before it always decides"
            elif step in steps[:index]:
                earlier = steps.index(step)
                reasons[index] = f"it repeats step {earlier + 1}, after which the cards left are all alike for it"
        verdicts = [self.ranking_under(faces) for faces in self.all_faces]
        for index in range(len(steps)):
            if index in reasons:
                continue
            kinds = {verdict.get(index) for verdict in verdicts}
            if kinds == {"alike"}:
                reasons[index] = "every card of the deck is alike for it, with any trumps the spec can have"
            elif kinds == {"decided"}:
                reasons[index] = "the steps before it already tell every two cards of the deck apart"
            elif kinds <= {"alike", "decided"}:
                reasons[index] = ("with any trumps the spec can have, either every card is alike for it or "
                                  "the steps before it already tell every two cards apart")
        for index, why in sorted(reasons.items()):
            found.add("TR502", f"ranking step '{_step_text(raws[index])}' can never decide a trick: {why}", ("ranking", index))

    def ranking_under(self, faces: Faces) -> dict[int, str]:
        """For one set of trumps: the steps every card is alike for, and the steps reached only
        once every two cards are told apart."""
        cards = range(len(self.deck.cards))
        verdict: dict[int, str] = {}
        keys: list[tuple[int, ...]] = [() for _ in cards]
        for index, step in enumerate(self.ruleset.ranking):
            if len(set(keys)) == len(keys):
                verdict[index] = "decided"
                continue
            values = self.step_values(step, faces)
            if values is None:
                continue
            if len(set(values)) <= 1:
                verdict[index] = "alike"
            if step.kind in ("highest", "lowest", "order") or (step.kind == "prefer" and step.group != "led"):
                keys = [key + (value,) for key, value in zip(keys, values)]
        return verdict

    def step_values(self, step: RankingStep, faces: Faces) -> list[int] | None:
        """Each card's value for a step, or None when it depends on the trick."""
        cards = range(len(self.deck.cards))
        if step.kind == "prefer":
            if step.group == "led":
                return [faces.group[card] for card in cards]  # alike only if every card is in one group
            if step.group == "trump":
                return [int(faces.is_trump[card]) for card in cards]
            condition = step.condition
            if condition is None or not is_static(condition):
                return None
            context = _Context(self.deck, faces, False)
            return [int(bool(maybe_holds(condition, card, context))) for card in cards]
        if step.kind == "order":
            if not step_is_static(step):
                return None
            return [order_place(step, card, self.deck, faces) for card in cards]
        if step.kind in ("highest", "lowest"):
            if step.attribute is None:
                return list(faces.rank)
            return [card.attributes[step.attribute] for card in self.deck.cards]
        return None

    # ------------------------------------------------------------ sections

    def sections(self, found: _Found) -> None:
        """TR506: a tableau section past the number of suits the deck's cards can count as."""
        tableau = self.ruleset.tableau
        raw = self.data.get("tableau") or {}
        if tableau is None or self.ruleset.won_cards != "tableau":
            return
        if raw.get("stack_by", "suit") != "suit" or raw.get("open", "next_free") != "next_free":
            return  # another way to lay cards: not reasoned about here
        suits = {suit for faces in self.all_faces for suit in faces.suit}
        for index, section in enumerate(tableau.sections):
            if index >= len(suits):
                message = (f"section '{section.name}' can never hold a card: won cards go one suit to a section, "
                           f"and the deck's cards count as {len(suits)} suit{'s' if len(suits) != 1 else ''} at most")
                found.add("TR506", message, ("tableau", "sections", index))
