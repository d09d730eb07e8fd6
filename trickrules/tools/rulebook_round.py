"""The language-2 parts of a rulebook in words: the round's phases (passing), counters, play
restrictions, expression scoring and the end of a game played until a condition holds."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from trickrules.engine.phases import STEPS
from trickrules.rules.cards import COPY_MARK
from trickrules.rules.ruleset import FIRST_BIDDER, BidPhase, Counter, Deal, PassPhase, Restriction, RoundStep, Ruleset, TrumpChoice
from trickrules.tools.rulebook_words import card_condition_words, join_words, plural

DIRECTION_WORDS = {"left": "to the left (the next seat)", "right": "to the right (the previous seat)", "across": "across the table", "none": "nowhere (no passing)"}


def direction_words(name: str) -> str:
    if name in DIRECTION_WORDS:
        return DIRECTION_WORDS[name]
    return f"to the player {name} seats on"


def passing_words(passing: PassPhase) -> str:
    """The pass phase as a paragraph."""
    cards = passing.cards.values
    count = plural("card", cards[0]) if len(cards) == 1 else f"{join_words(map(str, cards))} cards (by round, in turn)"
    names = passing.to_names
    if passing.to.chance:
        where = f"in a direction drawn at random at the start of the round, each as likely: {join_words((direction_words(n) for n in names), 'or')}"
    elif len(names) == 1:
        where = direction_words(names[0])
    else:
        where = "by round, in turn: " + join_words((direction_words(n) for n in names), "then")
    first = {"dealer": "the dealer", "left_of_dealer": "the player after the dealer"}.get(passing.first, f"seat {passing.first_seat}")
    return (
        f"After the deal each player passes {count} {where}. Players choose in seat order from {first}; "
        "each passed card is one decision, and the passed cards arrive only after everyone has passed."
    )


def bidding_words(bid: BidPhase) -> str:
    """The bid phase as a paragraph."""
    first = {"dealer": "the dealer", "left_of_dealer": "the player after the dealer"}.get(bid.first, f"seat {bid.first_seat}")
    names = "".join(f" A bid of {value} is called *{word}*." for value, word in bid.names)
    if bid.bidding == "precedence" and bid.speaking == "duels":
        text = (
            f"Before the first trick the players bid two at a time. {first[0].upper()}{first[1:]} listens and the next player "
            f"speaks: the speaker passes or bids a number from {bid.lowest} to `{bid.highest.text}` above the highest bid, "
            "and after each bid the listener holds it (bids the same) or passes. A pass is final. The one left listens "
            "to the next player in turn, until everyone has spoken; the last one left is the declarer at its bid, or, "
            f"without a bid, may still bid or pass. When everyone passes, the round is not played.{names}"
        )
    elif bid.bidding == "precedence":
        start = "the first to bid" if bid.precedence_seat == FIRST_BIDDER else f"seat {bid.precedence_seat}"
        matching = (f" or match it from a seat with precedence over its holder ({start} first, then the seats after it)"
                    if bid.precedence_seat != -1 else "")
        text = (
            f"Before the first trick the players bid in turn from {first}, each passing or bidding a number from "
            f"{bid.lowest} to `{bid.highest.text}` that beats the highest bid{matching}. A pass is final. When every "
            "other player has passed, the holder of the highest bid is the declarer, at that bid; when everyone "
            f"passes, the round is not played.{names}"
        )
    else:
        text = (
            f"Before the first trick each player bids once, in seat order from {first}: a number of tricks "
            f"from {bid.lowest} to `{bid.highest.text}`.{names}"
        )
    if bid.allow is not None:
        text += (
            f" A bid is allowed only where `{bid.allow.text}` holds (`bid` is the bid, `bids_total` and "
            "`bids_made` the sum and number of bids so far, `last` whether the bidder bids last, "
            "`partner_bid` the partner's bid or -1)."
        )
    return text + " Every player sees every bid."


def round_section(ruleset: Ruleset, after_trumps: bool = False) -> str:
    """## Before the tricks: the phases between the deal and the play, if any; those that come
    after trumps are chosen in rounds of speaking (`after_trumps`: only those, told after the
    trumps), as the round orders them."""
    steps = list(ruleset.round)
    chosen = next((i for i, step in enumerate(steps) if step.kind == "choose_trumps"), len(steps))
    if isinstance(ruleset.trumps, TrumpChoice) and ruleset.trumps.rounds and after_trumps:
        return "\n\n".join(words for step in steps[chosen + 1:] if (words := _own_words(step, ruleset)))
    if isinstance(ruleset.trumps, TrumpChoice) and ruleset.trumps.rounds:
        steps = steps[:chosen]
    elif after_trumps:
        return ""
    parts = []
    passes = [passing_words(step.passing) for step in steps if step.passing is not None]
    if passes:
        parts.append("\n".join(["## Passing", "", *passes]))
    bids = [bidding_words(step.bidding) for step in steps if step.bidding is not None]
    if bids:
        parts.append("\n".join(["## Bidding", "", *bids]))
    parts += [words for step in steps if (words := _own_words(step, ruleset))]  # kinds that write their own paragraph
    if ruleset.play_ends_when is not None:
        parts.append("## The play ends early\n\n" + play_ends_words(ruleset))
    if ruleset.open_hand:
        parts.append("## An open hand\n\n" + OPEN_HAND)
    return "\n\n".join(parts)


OPEN_HAND = "When the play begins the declarer lays its hand open on the table: every player sees it until the round ends."


def _own_words(step: RoundStep, ruleset: Ruleset) -> str:
    """The paragraph a kind of phase writes for its step ("" for none)."""
    kind = STEPS.get(step.kind)
    return kind.rulebook(step, ruleset) if kind is not None else ""


def play_ends_words(ruleset: Ruleset) -> str:
    """When the play of a round stops before the hands are played out (`play_ends_when`)."""
    assert ruleset.play_ends_when is not None
    return (
        f"After each trick, if `{ruleset.play_ends_when.text}` holds, the play of the round ends at once "
        "and the round is scored, the cards left in the hands unplayed (`makers_tricks` are the tricks "
        "won so far by the declarer's side, `defenders_tricks` those of the other players, "
        "`tricks_played` all the tricks played)."
    )


def hand_size_words(deal: Deal) -> str:
    """How many cards each player gets: a number, a schedule by round, or drawn at random."""
    sizes = deal.hand_sizes
    if sizes is None:
        return str(deal.hand_size)
    values = sizes.values
    shown = join_words(map(str, values)) if len(values) <= 8 else f"{', '.join(map(str, values[:5]))} ... {values[-1]}"
    if sizes.chance:
        return f"a number of cards drawn at random each round, each as likely ({shown})"
    return f"a number of cards by round, in turn: {shown} (then again from the start)"


def teams_words(ruleset: Ruleset) -> str:
    """Who plays with whom."""
    if ruleset.partner_cards:
        deck = ruleset.deck
        names = join_words(sorted({deck.cards[c].id.partition(COPY_MARK)[0] for c in ruleset.partner_cards}), "or")
        return (f"Partners are found in play: each round, the players dealt {names} (any copy) play as a team (the "
                "makers) against the others; partners pool their points. The teams are hidden: each player knows "
                "its own side from its hand, and learns another player's side when that player plays one of "
                "these cards (or when every copy is accounted for). A player dealt every copy plays alone.")
    teams = "; ".join(join_words(f"seat {p}" for p in team) for team in ruleset.teams)
    return f"Partners play as teams ({teams}): partners pool their points and share a win."


def counter_words(counter: Counter, ruleset: Ruleset) -> str:
    whose = {"player": "each player's own", "team": "each team's own"}.get(counter.scope, "one for the table")
    when = "at the start of each round" if counter.reset == "round" else "at the start of the game"
    text = f"**{counter.name}** ({whose}) starts at {counter.initial} {when}"
    if counter.on_play is not None:
        change = f"becomes {counter.set_to}" if counter.set_to is not None else f"goes up by {counter.add}"
        text += f"; it {change} when {card_condition_words(counter.on_play, ruleset.deck, 'a card')} is played"
    if counter.on_round_end is not None:
        text += f"; at the end of each round it goes up by `{counter.on_round_end.text}`"
    return text + "."


def restriction_words(rule: Restriction, ruleset: Ruleset) -> str:
    who = {True: "The leader", False: "A player following", None: "A player"}[rule.lead]
    when = f" while `{rule.when.text}`" if rule.when is not None else ""
    if rule.allow is not None:
        what = f"must play a card where {card_condition_words(rule.allow, ruleset.deck, 'the card')}"
    else:
        assert rule.forbid is not None
        what = f"may not play a card where {card_condition_words(rule.forbid, ruleset.deck, 'the card')}"
    return f"**{rule.name}**: {who} {what}{when}, unless the hand holds nothing else the rules allow."


def restrictions_section(ruleset: Ruleset) -> str:
    """## Restrictions, and the counters they read."""
    if not ruleset.restrictions and not ruleset.counters:
        return ""
    lines = ["## Restrictions and counters", ""]
    if ruleset.counters:
        lines += ["Counters:", ""] + [f"- {counter_words(c, ruleset)}" for c in ruleset.counters] + [""]
    if ruleset.restrictions:
        lines += [
            "After the follow rules, these restrictions apply in order (`trick` is the number of the",
            "trick being played, from 1):",
            "",
        ]
        lines += [f"{n}. {restriction_words(r, ruleset)}" for n, r in enumerate(ruleset.restrictions, 1)]
    return "\n".join(lines)


def game_end_words(ruleset: Ruleset) -> str:
    """The sentence that says when the game ends."""
    if ruleset.until is None:
        return f"The game ends after {plural('round', ruleset.rounds)}."
    return (
        f"After each round the game ends if `{ruleset.until.text}` holds (`totals` are the players' totals, "
        f"`round` the rounds played), and after {plural('round', ruleset.rounds)} at most."
    )


DECLARER_ALONE = (
    "The declarer plays alone against all the other players, who play as one side for the round "
    "(whatever the partnerships): the defenders' points of the round are added up, and each "
    "defender scores that sum."
)
"""What `declarer: alone` does, in a contract's section of the rulebook."""

DECLARER_ALONE_TEAM_RULES = (
    " A rule scored for each team is scored once for the declarer and once for the defenders, "
    "from their values added up."
)
"""Added to `DECLARER_ALONE` where the contract scores a rule per team."""


def contracts_section(ruleset: Ruleset, parts_of: Callable[[Ruleset], Sequence[str]]) -> str:
    """## Contracts: each contract's own trumps, trick winner and points (`parts_of` writes
    them for a contract's ruleset), with its headings moved two levels down."""
    if not ruleset.contracts:
        return ""
    lines = ["## Contracts", "", "A declared contract applies to the rest of its round, in place of the rules above where it differs."]
    for contract in ruleset.contracts:
        lines += ["", f"### {contract.name}", ""]
        if contract.description:
            lines += [contract.description, ""]
        if contract.ruleset.declarer_alone:
            per_team = any(rule.per == "team" for rule in contract.ruleset.scoring.round_rules)
            lines += [DECLARER_ALONE + (DECLARER_ALONE_TEAM_RULES if per_team else ""), ""]
        ends = contract.ruleset.play_ends_when
        if ends is not None and (ruleset.play_ends_when is None or ends.text != ruleset.play_ends_when.text):
            lines += [play_ends_words(contract.ruleset), ""]
        if contract.ruleset.open_hand and not ruleset.open_hand:
            lines += [OPEN_HAND, ""]
        for part in parts_of(contract.ruleset):
            lines += [re.sub(r"^(#+) ", lambda m: "#" * min(6, len(m[1]) + 2) + " ", part, flags=re.MULTILINE), ""]
    return "\n".join(lines).rstrip()


def choosing_words(choice: TrumpChoice, suits: Sequence[str], ruleset: Ruleset) -> str:
    """Trumps chosen in rounds: who speaks, what each round allows, the discard, going alone."""
    first = "the dealer" if choice.by == "dealer" else "the player after the dealer"
    text = [
        f"Trumps are chosen in up to {len(choice.rounds)} rounds. In each round the players speak in turn, "
        f"starting with {first}: each passes or names a trump suit the round allows, and the first to name "
        "one is the declarer."
    ]
    for number, rules in enumerate(choice.rounds, 1):
        if rules.suits == "turned_up":
            allowed = "only the suit of the turned-up card"
        elif rules.suits == "others":
            allowed = "any suit but that of the turned-up card"
        else:
            allowed = join_words((suits[s] for s in rules.listed), "or")
        line = f"Round {number}: {allowed}."
        if rules.dealer_takes_turned_up:
            line += " A suit named here makes the dealer take the turned-up card into the hand and discard a card"
            line += "." if rules.may_discard_turned_up else " other than the one taken."
        if rules.declarer_takes_turned_up:
            line += " The player who names a suit here takes the turned-up card into the hand."
        if rules.dealer_must_choose:
            line += " The dealer, speaking last, may not pass (stick the dealer)."
        text.append(line)
    text.append("If everyone passes in every round, the round is scored without play.")
    if any(step.kind == "go_alone" for step in ruleset.round):
        text.append(
            "The declarer then chooses to play alone or with the partner; alone, the partner sits out the "
            "round, tricks have one card fewer and the lead passes over the partner."
        )
    return " ".join(text)
