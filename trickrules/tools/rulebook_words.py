"""Rule kinds in words: one small function per kind of rule, used by the rulebook."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from trickrules.rules.kept import KeptCards
from trickrules.rules.measures import Meld
from trickrules.rules.ruleset import (
    Amount,
    CardCondition,
    DealCondition,
    Deck,
    FollowRule,
    Measure,
    PointRule,
    RankingStep,
    RoundStep,
    Reward,
    Ruleset,
    SectionValue,
    TrickCondition,
)


# ---------------------------------------------------------------- words


def join_words(words: Iterable[str], last: str = "and") -> str:
    """``a, b and c``: a list in words."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(word: str, count: int, many: str | None = None) -> str:
    """`word` for `count` things: ``1 round``, ``2 rounds``; `many`, if given, is the word for
    any count but one (a token's name is printed as its spec gives it: ``2 tb``, or with its
    `plural`, ``2 peasants``)."""
    if count == 1 or count == -1:
        return f"{count} {word}"
    if many is not None:
        return f"{count} {many}"
    return f"{count} {word if word.endswith('s') else word + 's'}"


def rank_span(deck: Deck, ranks: Iterable[int], last: str = "or") -> str:
    """Ranks in words: ``0 to 8`` for a run of four or more, else ``3, 4 or 5``."""
    values = sorted(set(ranks))
    if len(values) >= 4 and values == list(range(values[0], values[-1] + 1)):
        return f"{deck.rank_name(values[0])} to {deck.rank_name(values[-1])}"
    return join_words((deck.rank_name(v) for v in values), last)


def card_name(deck: Deck, card: int) -> str:
    """A card by its faces: ``red 5``, ``gold 14 / red 5``."""
    return " / ".join(deck.face_text(face) for face in deck.cards[card].faces)


def option_value_text(value: object) -> str:
    """An option value as a player reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def deal_condition_words(condition: DealCondition, deck: Deck) -> str:
    """When a face counts, in words (``its suit is a trump``)."""
    clauses = []
    if condition.trump is not None:
        clauses.append("its suit is a trump" if condition.trump else "its suit is not a trump")
    if condition.trumps_include is not None:
        clauses.append(f"{deck.suits[condition.trumps_include]} is a trump")
    if condition.no_trumps is not None:
        clauses.append("the round has no trumps" if condition.no_trumps else "the round has trumps")
    if condition.negate is not None:
        clauses.append(f"not ({deal_condition_words(condition.negate, deck)})")
    clauses.extend(deal_condition_words(c, deck) for c in condition.all_of)
    if condition.any_of is not None:
        clauses.append("(" + join_words((deal_condition_words(c, deck) for c in condition.any_of), "or") + ")")
    return join_words(clauses)


def card_condition_words(condition: CardCondition, deck: Deck, subject: str) -> str:
    """A card condition in words about `subject` (``the card they played has rank 1``)."""
    predicates = _merge_has(list(_card_predicates(condition, deck)))
    clauses = [f"{subject} {join_words(predicates)}"] if predicates else []
    clauses += list(_compound_clauses(condition, deck, subject))
    return join_words(clauses)


def _card_predicates(condition: CardCondition, deck: Deck) -> Iterator[str]:
    """What the condition says of the subject card itself (``has rank 1``, ``is a trump``)."""
    if condition.ranks is not None:
        yield f"has rank {rank_span(deck, condition.ranks)}"
    if condition.suits is not None:
        yield f"is {join_words((deck.suits[s] for s in sorted(condition.suits)), 'or')}"
    if condition.trump is not None:
        yield f"is {'a' if condition.trump else 'not a'} trump"
    if condition.led is not None:
        yield f"is {'in' if condition.led else 'not in'} the led group"
    if condition.attribute is not None:
        yield f"has {_attribute_test_words(condition, deck)}"
    if condition.same_suit_as_winner is not None:
        yield f"has {'the same suit as' if condition.same_suit_as_winner else 'another suit than'} the winning card"


def _merge_has(predicates: list[str]) -> list[str]:
    """Drop a repeated leading ``has``: ``has rank 1 and the same suit as ...``."""
    merged = predicates[:1]
    for before, predicate in zip(predicates, predicates[1:]):
        both = before.startswith("has ") and predicate.startswith("has ")
        merged.append(predicate[4:] if both else predicate)
    return merged


def _compound_clauses(condition: CardCondition, deck: Deck, subject: str) -> Iterator[str]:
    """The parts of a condition about the winning card, or built from other conditions."""
    if condition.winner is not None:
        yield card_condition_words(condition.winner, deck, "the winning card")
    if condition.trick is not None:
        yield f"`{condition.trick.expression.text}` holds for the whole trick"
    if condition.negate is not None:
        inner = card_condition_words(condition.negate, deck, subject)
        yield f"{subject} is not one that {inner.removeprefix(subject + ' ')}" if inner.startswith(subject + " ") else f"it is not so that {inner}"
    yield from (card_condition_words(c, deck, subject) for c in condition.all_of)
    if condition.any_of is not None:
        yield "(" + join_words((card_condition_words(c, deck, subject) for c in condition.any_of), "or") + ")"


def _attribute_test_words(condition: CardCondition, deck: Deck) -> str:
    test = condition.attribute
    assert test is not None
    name = deck.attributes[test.attribute]
    if test.equals is not None:
        return f"exactly {test.equals} {name}"
    if test.at_least is not None and test.at_most is not None:
        return f"{test.at_least} to {test.at_most} {name}"
    if test.at_least is not None:
        return f"at least {test.at_least} {name}"
    return f"at most {test.at_most} {name}"


# ---------------------------------------------------------------- rule kinds in words

FOLLOW_WORDS: dict[str, str] = {
    "follow_led": "play a card of the led group if you can: a card of the led suit, or any trump when a trump was led",
    "trump_if_void": "if you cannot follow the led group, play a trump if you can",
    "win_if_able": "play a card that wins the trick as it stands, if you can",
    "overtrump_if_able": "if you play a trump to a trick that holds a trump, play one that beats it, if you can",
    "head_if_able": ("play a card that ranks above every card of its own group in the trick, if you can: above the best "
                     "trump when the trick holds one, else above the best card of the led group"),
    "play_if_able": "play a card that matches the rule's condition (see the spec), if you can",
}
"""What each follow rule kind asks of a player."""

TRUMPS_WORDS: dict[str, str] = {
    "FirstLed": "There are no trumps until the first card of the round is led: its suit is trump for the rest of the round, "
                "that first card included.",
    "TurnedUp": "After the deal the next card of the deck is turned face up: its suit is trump for the round (with no card "
                "left, there are no trumps). The card takes no part in the play.",
    "TurnedUpDealer": "After the deal the dealer turns one of its own cards face up (drawn at random): its suit is trump for "
                      "the round. The card stays in the dealer's hand, seen by all, and is played like any other.",
}
"""Trumps that each round finds for itself, in words, by the kind of `Trumps`."""


def found_trumps_words(trumps: object, steps: Sequence[RoundStep]) -> str:
    """Trumps that the round finds for itself (`TRUMPS_WORDS`), a dealer's own card turned up told apart."""
    dealers = any(step.kind == "turn_up" and step.rules == "dealer" for step in steps)
    return TRUMPS_WORDS[type(trumps).__name__ + ("Dealer" if dealers else "")]

SECTION_VALUE_WORDS: dict[str, Callable[[SectionValue, str], str]] = {
    "top_rank": lambda value, token: "the rank of the top card of its stack",
    "sum_ranks": lambda value, token: "the sum of the ranks of its cards",
    "card_count": lambda value, token: "the number of its cards",
    "value": lambda value, token: "its printed value",
    "constant": lambda value, token: str(value.number),
    "per_missing_token": lambda value, token: f"{value.number} for each missing {token}",
}
"""What a section scores, in words, by `SectionValue.kind`."""


def kept_words(kept: KeptCards | None, deck: Deck) -> str:
    """The kept cards (`kept_cards`), as sentences after the won cards' ("" for none)."""
    if kept is None:
        return ""
    text = (f" A card that {card_condition_words(kept.cards, deck, 'it').removeprefix('it ')} goes back to its owner's pile "
            "when another player wins the trick.")
    if kept.exchange is not None:
        text += (" When the play of the round ends, its owner gives that trick's winner, unless a partner, the first card "
                 f"it won that {card_condition_words(kept.exchange, deck, 'it').removeprefix('it ')} (none if it won none).")
    return text


def follow_words(rule: FollowRule, deck: Deck | None = None) -> str:
    """A follow rule as an instruction (its card condition read from `deck`, where it has one)."""
    words = FOLLOW_WORDS.get(rule.kind, f"obey the rule '{rule.kind}'")
    if rule.condition is not None and deck is not None:
        that = card_condition_words(rule.condition, deck, "it").removeprefix("it ")
        words = (f"a card that {that} may be played at any time, whatever the other rules ask; led, it sets no led group: "
                 "the next card played that is not such a card does") if rule.kind == "exempt" else f"play a card that {that}, if you can"
    return words + (", unless your partner is winning the trick" if rule.unless_partner_winning else "")


def ranking_step_words(step: RankingStep, deck: Deck, narrowed: bool) -> str:
    """One step of the trick ladder as an instruction; `narrowed`: an earlier step kept some cards."""
    if step.kind == "first_played":
        return "Of the cards still in contention, the one played first wins."
    if step.kind == "last_played":
        return "Of the cards still in contention, the one played last wins."
    if step.kind == "prefer":
        return f"If any {'of them' if narrowed else 'card'} {_preferred(step, deck)}, keep only those."
    if step.kind == "order":
        return f"Keep only the cards whose rank comes highest in {_order_words(step, deck)}."
    what = "rank" if step.attribute is None else deck.attributes[step.attribute]
    extreme = "highest" if step.kind == "highest" else "lowest"
    anywhere = "" if narrowed else ", whatever their suit"
    ranks = sorted({face.rank for card in deck.cards for face in card.faces}, reverse=step.kind == "highest")
    shown = f" (ranks from the {extreme}: {rank_order_text(deck, ranks)})" if step.attribute is None and deck.rank_names else ""
    return f"Keep only the cards with the {extreme} {what}{anywhere}{shown}."


def rank_order_text(deck: Deck, ranks: Iterable[int]) -> str:
    """Ranks in the order given, a named rank with its number: ``9, 10, Q (12), LB (15)``."""
    return ", ".join(name if name == str(rank) else f"{name} ({rank})" for rank in ranks for name in [deck.rank_name(rank)])


def _order_words(step: RankingStep, deck: Deck) -> str:
    """An order step's orders in words, each from the lowest rank."""
    texts = []
    for condition, places in step.order:
        ranks = rank_order_text(deck, (rank for rank, _ in sorted(places, key=lambda pair: (pair[1], pair[0]))))
        who = "" if condition is None else f"for a card that {card_condition_words(condition, deck, 'it').removeprefix('it ')}: "
        texts.append(f"{who}{ranks}")
    if len(texts) == 1 and step.order[0][0] is None:
        return f"this order, from the lowest: {texts[0]} (any other rank comes below these)"
    return f"its order, from the lowest ({'; '.join(texts)}; any rank not listed comes below those listed)"


def _preferred(step: RankingStep, deck: Deck) -> str:
    if step.group == "trump":
        return "is a trump"
    if step.group == "led":
        return "is in the led group"
    assert step.condition is not None
    return card_condition_words(step.condition, deck, "it").removeprefix("it ")


def amount_words(amount: Amount, deck: Deck, unit: str, subject: str, many: str | None = None) -> str:
    """How much a reward gives, in words (``2 peasants when the winning card's rank is 3, 4 or 5, ...``);
    `many` is the unit's word for any count but one (see `plural`)."""
    if amount.attribute is not None:
        return f"as many {plural(unit, 2, many)[2:]} as {subject} has {deck.attributes[amount.attribute]}"
    if amount.by_rank is None:
        return plural(unit, amount.constant, many)
    by_amount: dict[int, list[int]] = {}
    for rank, value in amount.by_rank:
        if value != amount.constant:
            by_amount.setdefault(value, []).append(rank)
    parts: list[str] = []
    for value, ranks in by_amount.items():
        whose = f"{subject}'s rank" if not parts else "it"
        parts.append(f"{plural(unit, value, many)} when {whose} is {rank_span(deck, ranks)}")
    rest = f"{plural(unit, amount.constant, many)} for any other rank" if amount.constant else "nothing for any other rank"
    return f"{join_words(parts)} ({rest})"


def reward_words(reward: Reward, ruleset: Ruleset) -> str:
    """A trick reward as one sentence."""
    deck = ruleset.deck
    subject = "the winning card" if reward.to == "winner" else "the card they played"
    who = "The winner gains" if reward.to == "winner" else "Each player who lost the trick gains"
    kind = None if reward.token is None else ruleset.tokens[reward.token]
    unit = "point" if kind is None else kind.name
    amount = amount_words(reward.amount, deck, unit, subject, None if kind is None else kind.many)
    side = {True: "the trick's winner is on the player's side", False: "the trick's winner is on the other side"}
    if reward.when is None:
        return f"{who} {amount}." if reward.winner_is_partner is None else f"{who} {amount} when {side[reward.winner_is_partner]}."
    when = card_condition_words(reward.when, deck, subject)
    if reward.winner_is_partner is not None:
        when += f", and {side[reward.winner_is_partner]}"
    joint = ", provided that" if reward.amount.by_rank is not None else " when"
    return f"{who} {amount}{joint} {when}."


def measure_words(measure: Measure, ruleset: Ruleset) -> str:
    """What a measure counts for a player, in words."""
    if measure.holding is not None:
        return holding_words(measure, ruleset)
    if measure.kind == "sum_attribute":
        assert measure.attribute is not None
        return f"the {ruleset.deck.attributes[measure.attribute]} on the cards the player won"
    if measure.kind == "tricks":
        return "the number of tricks the player won"
    if measure.kind == "cards":
        return "the number of cards the player won"
    if measure.kind == "tokens":
        assert measure.token is not None
        return f"the {ruleset.tokens[measure.token].many} the player holds or has placed"
    return "the sum of the scores of the player's tableau sections"


def point_rule_words(rule: PointRule, measures: Sequence[Measure], player_counters: Sequence[str] = ()) -> str:
    """A round's point rule as one sentence; `player_counters` are the names of the spec's
    per-player counters (a team rule reads them added up over the team, as it reads measures)."""
    if rule.kind == "expression":
        assert rule.expression is not None
        label = f"**{rule.name}**: " if rule.name else ""
        if rule.per == "team":
            read = [name for name in player_counters if name in rule.expression.names]
            summed = "measures and bids" if not read else "measures, bids and " + join_words(f"**{n}**" for n in read)
            return f"{label}each team scores `{rule.expression.text}`, with its members' {summed} added up."
        return f"{label}each player scores `{rule.expression.text}`."
    if rule.kind == "add":
        name = measures[rule.measure].name
        if rule.times == 1:
            return f"Each player scores their **{name}**."
        return f"Each player scores {rule.times} times their **{name}**."
    first, *rest = rule.keys
    best = lambda key: f"the {'most' if key.most else 'fewest'} **{measures[key.measure].name}**"  # noqa: E731
    text = f"The player with {best(first)} scores {plural('point', rule.points)}"
    for key in rest:
        text += f"; a tie goes to the one with {best(key)}"
    return text + "; players still tied all score them."


TRICK_NAME_WORDS = {
    "cards": "the number of cards in the trick",
    "ranks": "their ranks in play order",
    "rank": "the card's own rank",
    "position": "when the card was played (1 for the lead)",
    "trumps_played": "the number of trumps in the trick",
    "led_played": "the number of cards of the led group in it",
    "place": "the card's place in the trick by the ranking (1 for the winning card, 2 for the second best)",
    "winner_rank": "the winning card's rank",
    "winner_position": "when the winning card was played",
    "trick_number": "the trick's number in the round (1 for the first)",
    "last_trick": "true in the round's last trick",
}
"""What each name of a condition on the whole trick means (`trickrules.rules.whole_trick`)."""


def trick_names_note(conditions: Iterable[CardCondition | None], deck: Deck) -> str:
    """One sentence on the names the whole-trick conditions among `conditions` read, or ""."""
    read: list[str] = []
    for condition in conditions:
        for part in _trick_parts(condition):
            read += [name for name in sorted(part.expression.names) if name not in read]
    words = []
    for name in read:
        if name in TRICK_NAME_WORDS:
            words.append(f"`{name}` is {TRICK_NAME_WORDS[name]}")
        elif name.endswith("_played") and name[: -len("_played")] in deck.suits:
            words.append(f"`{name}` is the number of {name[: -len('_played')]} in the trick")
        elif name in deck.attributes:
            words.append(f"`{name}` lists the trick's cards' {name} values")
    return f"In these conditions on the whole trick, {join_words(words)}." if words else ""


def _trick_parts(condition: CardCondition | None) -> Iterator[TrickCondition]:
    if condition is None:
        return
    if condition.trick is not None:
        yield condition.trick
    for part in (condition.negate, *condition.all_of, *(condition.any_of or ())):
        yield from _trick_parts(part)


_CARDS_READ = {
    "won": "the cards {whose} won",
    "dealt": "the cards {whose} was dealt",
    "held": "the cards {whose} played the round with",
    "last_trick": "the cards of the round's last trick, if {whose} won it (the last cards taken, as many as a trick holds)",
    "left": "the set-aside cards no one took, for the declarer",
}


def meld_words(meld: Meld, deck: Deck) -> str:
    """A pattern of cards (`Meld`) in words."""
    if meld.cards:
        return "together " + join_words((deck.cards[copies[0]].id for copies in meld.cards), "and")
    ranks = join_words((deck.rank_name(min(ranks)) for ranks in meld.ranks), "and")
    if meld.sequence[0]:
        shortest, longest = meld.sequence
        length = f"exactly {shortest}" if shortest == longest else f"{shortest} to {longest}" if longest else f"{shortest} or more"
        ranks = f"a run of {length} ranks in a row (each run as long as it goes)"
    listed = None if meld.suits is None else [deck.suits[s] for s in meld.suits]
    if meld.across:
        return f"{ranks} in " + ("every suit" if listed is None else "each of " + join_words(listed, "and"))
    if meld.trump:
        return f"{ranks} of the trump suit"
    if listed is not None and len(listed) == 1:
        return f"{ranks} of {listed[0]}"
    return f"{ranks} of one suit, counted in " + ("each suit" if listed is None else join_words(listed, "and")) + " and added up"


def holding_words(measure: Measure, ruleset: Ruleset) -> str:
    """What a measure that reads cards (`Measure.holding`) counts, in words."""
    holding = measure.holding
    assert holding is not None
    deck = ruleset.deck
    team = holding.per == "team"
    cards = _CARDS_READ[holding.of].format(whose="the player's team" if team else "the player")
    if holding.set_aside:
        cards += " (the declarer's with the cards dealt to no one)"
    if team:
        cards += ", read by the team's first seat"
    if measure.kind == "count":
        assert holding.matching is not None
        return f"how many of {cards} match ({card_condition_words(holding.matching, deck, 'the card')})"
    if measure.kind == "run":
        if holding.order is not None:
            order = ", ".join(deck.cards[c].id for c in holding.order)
        else:
            assert holding.matching is not None
            order = f"the cards that match ({card_condition_words(holding.matching, deck, 'the card')}), highest first,"
        way = {"either": "held or missing", "with": "held (0 without the top card)",
               "without": "missing (0 with the top card)"}[holding.counting]
        return f"how many of {order} are {way} in a row from the top among {cards}"
    if measure.kind == "cards":
        return f"the number of {cards}"
    if measure.kind == "called":
        return f"1 if the card called this round is among {cards}, else 0"
    if measure.kind == "meld" and holding.meld is not None and holding.meld.best:
        tiers = "; ".join(join_words((name for name, _ in tier), "or") for tier in holding.meld.best)
        side = ", a team its best player's" if holding.per == "team" else ""
        return (f"the standing of the best declaration among {cards} (0 for none), each hand read apart{side}: "
                f"by its kind, strongest first ({tiers}), then by its top rank, then a declaration in trumps before one that is not")
    if measure.kind == "meld":
        assert holding.meld is not None
        times = f", once for every {holding.meld.times} times" if holding.meld.times > 1 else ""
        return f"how many times {cards} hold {meld_words(holding.meld, deck)}{times}"
    assert measure.attribute is not None
    total = f"the {deck.attributes[measure.attribute]} on {cards}"
    numerator, denominator = holding.less
    if numerator:
        share = str(numerator) if denominator == 1 else f"{numerator}/{denominator}"
        total += f", less {share} a card, rounded to the nearest (a half away from zero)"
    return total
