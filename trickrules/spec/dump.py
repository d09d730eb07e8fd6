"""A compiled `Ruleset` back to spec data: the inverse of the compiler, for one player count.

The data lists every card explicitly and declares each option with its value as the default,
so that loading it (with the same player count) gives a `Ruleset` equal to the one dumped::

    >>> from trickrules import load_ruleset, load_ruleset_text
    >>> ruleset = load_ruleset("specs/kingdoms.yaml", players=3)
    >>> load_ruleset_text(dump_yaml(ruleset), players=3) == ruleset
    True

Option references are gone from a compiled ruleset, so the options are declared only to keep `Ruleset.options`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml

from trickrules.rules.expressions import Expression
from trickrules.rules.cards import COPY_MARK
from trickrules.rules.auction import AuctionPhase
from trickrules.rules.take import TakePhase
from trickrules.rules.ruleset import (
    ChooseRound, Contract, Counter, Restriction, RoundStep, UNLIMITED, FIRST_BIDDER,
    Amount,
    Card,
    CardCondition,
    DealCondition,
    Deck,
    Face,
    FollowRule,
    Measure,
    PointRule,
    RankingStep,
    Reward,
    Ruleset,
    Scoring,
    SectionValue,
    Tableau,
    TokenKind,
    TrumpChoice,
    TurnedUp,
    FirstLed,
)
from trickrules.spec.measures import dump_measure

__all__ = ["dump_spec", "dump_yaml"]

_BUILTIN_MEASURES = 2  # `tricks` and `cards` come first in every compiled scoring


def dump_spec(ruleset: Ruleset) -> dict[str, Any]:
    """Spec data (plain dicts, lists and scalars) that compiles back to `ruleset`."""
    deck = ruleset.deck
    language2 = bool(ruleset.round or ruleset.counters or ruleset.restrictions or ruleset.teams or ruleset.partner_cards or ruleset.contracts
                     or ruleset.until is not None or any(rule.kind == "expression" for rule in ruleset.scoring.round_rules))
    data: dict[str, Any] = {"language": 2 if language2 else 1, "id": ruleset.id, "title": ruleset.title}
    if ruleset.description:
        data["description"] = ruleset.description
    if ruleset.version:
        data["version"] = ruleset.version
    data["players"] = list(ruleset.allowed_players)
    if ruleset.options:
        data["options"] = {name: _option(value, deck) for name, value in ruleset.options}
    if ruleset.definitions:
        data["define"] = dict(ruleset.definitions)
    data["deck"] = _deck(deck)
    data["deal"] = _deal(ruleset)
    data["rounds"] = ruleset.rounds if ruleset.until is None else {"until": _expr(ruleset.until), "at_most": ruleset.rounds}
    if ruleset.round:
        contract_names = tuple(c.name for c in ruleset.contracts)
        data["round"] = [_round_step(step, contract_names, ruleset.deck.suits, deck) for step in ruleset.round]
    if ruleset.contracts:
        data["contracts"] = {c.name: _contract(c, ruleset) for c in ruleset.contracts}
    if ruleset.play_ends_when is not None:
        data["play_ends_when"] = _expr(ruleset.play_ends_when)
    data |= {"open_hand": "declarer"} if ruleset.open_hand else {}
    if _set_aside_in_play(ruleset):
        data["set_aside_in_play"] = _set_aside_in_play(ruleset)
    if ruleset.counters:
        data["counters"] = {c.name: _counter(c, deck) for c in ruleset.counters}
    if ruleset.teams:
        data["teams"] = [list(team) for team in ruleset.teams]
    if ruleset.partner_cards:  # the first copy of each card names them all
        data["teams"] = {"holders_of": [deck.cards[c].id for c in ruleset.partner_cards if COPY_MARK not in deck.cards[c].id]}
    if ruleset.restrictions:
        data["restrictions"] = [_restriction(r, deck) for r in ruleset.restrictions]
    data["trumps"] = _trumps(ruleset, deck)
    data["follow"] = [_follow(rule, deck) for rule in ruleset.follow]
    data["ranking"] = [_ranking_step(step, deck) for step in ruleset.ranking]
    if ruleset.rewards:
        data["rewards"] = [_reward(reward, ruleset) for reward in ruleset.rewards]
    if ruleset.tokens:
        data["tokens"] = {kind.name: _token_kind(kind) for kind in ruleset.tokens}
    data["won_cards"] = ruleset.won_cards
    if ruleset.kept is not None:
        data["kept_cards"] = {"cards": _card_condition(ruleset.kept.cards, deck)}
        data["kept_cards"] |= {} if ruleset.kept.exchange is None else {"exchange": _card_condition(ruleset.kept.exchange, deck)}
    if ruleset.tableau is not None:
        data["tableau"] = _tableau(ruleset.tableau, ruleset)
    data["scoring"] = _scoring(ruleset.scoring, ruleset)
    return data


def _expr(expression: Expression) -> str:
    """An expression as the spec wrote it (with its named sub-expressions, where it read some)."""
    return expression.written or expression.text


def dump_yaml(ruleset: Ruleset) -> str:
    """`dump_spec` as YAML text, keys in the spec's usual order."""
    return yaml.safe_dump(dump_spec(ruleset), sort_keys=False, allow_unicode=True, width=100)


# ---------------------------------------------------------------- options


def _option(value: object, deck: Deck) -> dict[str, Any]:
    # The compiled ruleset keeps values only; declare the narrowest option that holds the value.
    if isinstance(value, bool):
        return {"type": "boolean", "default": value}
    if isinstance(value, int):
        return {"type": "integer", "default": value}
    if isinstance(value, str):
        return {"type": "choice", "default": value, "choices": [value]}
    return {"type": "suits", "default": list(value)}  # type: ignore[call-overload]


# ---------------------------------------------------------------- deck


def _deck(deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {"suits": list(deck.suits)}
    if deck.rank_names:
        data["rank_names"] = {rank: name for rank, name in deck.rank_names}
    if deck.suit_rank_names:
        data["rank_names_by_suit"] = {deck.suits[suit]: dict(names) for suit, names in deck.suit_rank_names}
    if deck.attributes:
        data["attributes"] = {name: {"default": 0} for name in deck.attributes}
    data["cards"] = [_card(card, deck) for card in deck.cards]
    return data


def _card(card: Card, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {"id": card.id, "faces": [_face(face, deck) for face in card.faces]}
    if deck.attributes:
        data["attributes"] = dict(zip(deck.attributes, card.attributes))
    return data


def _face(face: Face, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {"suit": deck.suits[face.suit], "rank": face.rank}
    if face.when is not None:
        data["when"] = _deal_condition(face.when, deck)
    return data


def _logic(condition: Any, dump: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """The `not`, `all` and `any` parts of a deal or card condition, each part dumped by `dump`."""
    data: dict[str, Any] = {}
    if condition.negate is not None:
        data["not"] = dump(condition.negate)
    if condition.all_of:
        data["all"] = [dump(c) for c in condition.all_of]
    if condition.any_of is not None:
        data["any"] = [dump(c) for c in condition.any_of]
    return data


def _deal_condition(condition: DealCondition, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if condition.trump is not None:
        data["trump"] = condition.trump
    if condition.trumps_include is not None:
        data["trumps_include"] = deck.suits[condition.trumps_include]
    if condition.no_trumps is not None:
        data["no_trumps"] = condition.no_trumps
    return data | _logic(condition, lambda c: _deal_condition(c, deck))


# ---------------------------------------------------------------- deal and trumps


def _deal(ruleset: Ruleset) -> dict[str, Any]:
    deal = ruleset.deal
    leader: Any = deal.first_leader
    if leader == "seat":
        leader = {"seat": deal.first_leader_seat}
    elif leader == "holder":
        leader = {"holder": ruleset.deck.cards[deal.first_leader_card].id}
    dealer: dict[str, Any] = {"first": deal.dealer_first, "rotation": deal.dealer_rotation}
    if deal.dealer_random:
        dealer["random"] = True
    sizes = deal.hand_sizes
    hand_size: Any = _hand_size(ruleset)
    if sizes is not None:
        low, top, back = sizes.ramp if sizes.ramp is not None else (0, "", False)
        values: Any = {"from": low, "to": top, "and_back": back} if sizes.ramp is not None else list(sizes.values)
        hand_size = {"chance" if sizes.chance else "by_round": values}
    return {
        "hand_size": hand_size,
        **({"first_stage": deal.first_stage} if deal.first_stage else {}),
        "dealer": dealer,
        "first_leader": leader,
        "next_leader": "trick_winner",
    }


def _hand_size(ruleset: Ruleset) -> Any:
    # Only the compiled count's hand size is known; the other allowed counts get one that fits
    # the deck, so the dump passes the deck-size check (the spec's own sizes may differ).
    size, cards = ruleset.deal.hand_size, len(ruleset.deck.cards)
    if all(size * players <= cards for players in ruleset.allowed_players):
        return size
    sizes = {players: min(size, cards // players) for players in ruleset.allowed_players}
    sizes[ruleset.players] = size
    return {"by_players": sizes}


def _trumps(ruleset: Ruleset, deck: Deck) -> Any:
    trumps = ruleset.trumps
    if isinstance(trumps, TrumpChoice) and trumps.rounds:
        return {"choose": {"by": trumps.by, "rounds": [_choose_round(r, deck) for r in trumps.rounds]}}
    if isinstance(trumps, TrumpChoice):
        return {"choose": {"by": trumps.by, "from": [deck.suits[s] for s in trumps.candidates]}}
    if isinstance(trumps, TurnedUp):
        return "turned_up"
    if isinstance(trumps, FirstLed):
        return "first_led"
    return [deck.suits[s] for s in sorted(trumps)] if trumps else "none"


# ---------------------------------------------------------------- ranking and conditions


def _ranking_step(step: RankingStep, deck: Deck) -> Any:
    if step.kind in ("first_played", "last_played"):
        return step.kind
    if step.kind == "prefer":
        if step.group in ("trump", "led"):
            return {"prefer": step.group}
        assert step.condition is not None
        return {"prefer": _card_condition(step.condition, deck)}
    if step.kind == "order":
        cases = [_order_case(condition, places, deck) for condition, places in step.order]
        return {"order": cases[0]["ranks"] if len(cases) == 1 and "when" not in cases[0] else cases}
    by: Any = "rank" if step.attribute is None else {"attribute": deck.attributes[step.attribute]}
    return {step.kind: by}


def _order_case(condition: CardCondition | None, places: tuple[tuple[int, int], ...], deck: Deck) -> dict[str, Any]:
    """One case of an order step: ranks at one place (a name standing for several) by their name."""
    by_place: dict[int, list[int]] = {}
    for rank, place in places:
        by_place.setdefault(place, []).append(rank)
    ranks = [numbers[0] if len(numbers) == 1 else deck.rank_name(numbers[0]) for _, numbers in sorted(by_place.items())]
    case: dict[str, Any] = {"ranks": ranks}
    if condition is not None:
        case = {"when": _card_condition(condition, deck), **case}
    return case


def _card_condition(condition: CardCondition, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if condition.ranks is not None:
        data["rank"] = sorted(condition.ranks)
    if condition.suits is not None:
        data["suit"] = [deck.suits[s] for s in sorted(condition.suits)]
    for key in ("trump", "led", "same_suit_as_winner"):
        if getattr(condition, key) is not None:
            data[key] = getattr(condition, key)
    test = condition.attribute
    if test is not None:
        attribute: dict[str, Any] = {"name": deck.attributes[test.attribute]}
        for key in ("at_least", "at_most", "equals"):
            if getattr(test, key) is not None:
                attribute[key] = getattr(test, key)
        data["attribute"] = attribute
    if condition.winner is not None:
        data["winner"] = _card_condition(condition.winner, deck)
    if condition.trick is not None:
        data["trick"] = _expr(condition.trick.expression)
    return data | _logic(condition, lambda c: _card_condition(c, deck))


# ---------------------------------------------------------------- rewards and tokens


def _reward(reward: Reward, ruleset: Ruleset) -> dict[str, Any]:
    deck = ruleset.deck
    data: dict[str, Any] = {"name": reward.name, "to": reward.to}
    if reward.when is not None:
        data["when"] = _card_condition(reward.when, deck)
    if reward.winner_is_partner is not None:
        data["when"] = {**data.get("when", {}), "winner_is_partner": reward.winner_is_partner}
    amount = _amount(reward.amount, deck)
    if reward.token is None:
        data["give"] = {"points": amount}
    else:
        data["give"] = {"token": ruleset.tokens[reward.token].name, "amount": amount}
    return data


def _amount(amount: Amount, deck: Deck) -> Any:
    if amount.attribute is not None:
        return {"attribute": deck.attributes[amount.attribute]}
    if amount.by_rank is not None:
        return {"by_rank": {rank: value for rank, value in amount.by_rank}, "default": amount.constant}
    return amount.constant


def _token_kind(kind: TokenKind) -> dict[str, Any]:
    data: dict[str, Any] = {"supply": "unlimited" if kind.supply == UNLIMITED else kind.supply, "to": kind.to}
    if kind.to == "tableau":
        data["when_no_space"] = kind.when_no_space
    return data


# ---------------------------------------------------------------- tableau and scoring


def _tableau(tableau: Tableau, ruleset: Ruleset) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if tableau.token is not None:
        data["token"] = ruleset.tokens[tableau.token].name
    data["sections"] = [
        {"name": s.name, "tokens_needed": s.tokens_needed, "value": s.value} for s in tableau.sections
    ]
    data["stack_by"] = "suit"
    data["open"] = "next_free"
    cases = ("cards_staffed", "cards_understaffed", "empty_staffed", "empty_understaffed")
    data["score"] = {case: _section_value(getattr(tableau, case)) for case in cases}
    return data


def _section_value(value: SectionValue) -> Any:
    if value.kind == "constant":
        return value.number
    if value.kind == "per_missing_token":
        return {"per_missing_token": value.number}
    return value.kind


def _scoring(scoring: Scoring, ruleset: Ruleset) -> dict[str, Any]:
    declared = scoring.measures[_BUILTIN_MEASURES:]
    data: dict[str, Any] = {}
    if declared:
        data["measures"] = {m.name: _measure(m, ruleset) for m in declared}
    data["round"] = [_point_rule(rule, scoring.measures) for rule in scoring.round_rules]
    data["game"] = {"winner": scoring.winner}
    if not scoring.pool:
        data["pool"] = False
    return data


def _measure(measure: Measure, ruleset: Ruleset) -> dict[str, Any]:
    return dump_measure(measure, ruleset, _card_condition)


def _point_rule(rule: PointRule, measures: tuple[Measure, ...]) -> dict[str, Any]:
    if rule.kind == "expression":
        assert rule.expression is not None
        return {"add": _expr(rule.expression), "per": rule.per} | ({"name": rule.name} if rule.name else {})
    if rule.kind == "add":
        return {"add": measures[rule.measure].name, "times": rule.times} | ({"name": rule.name} if rule.name else {})
    keys = [{"most" if key.most else "fewest": measures[key.measure].name} for key in rule.keys]
    return {"award": {"points": rule.points, "to_best_by": keys}}


# ---------------------------------------------------------------- phases, counters, restrictions


def _choose_round(rules: ChooseRound, deck: Deck) -> dict[str, Any]:
    suits: Any = [deck.suits[s] for s in rules.listed] if rules.suits == "listed" else rules.suits
    return {
        "from": suits,
        "dealer_must_choose": rules.dealer_must_choose,
        "dealer_takes_turned_up": rules.dealer_takes_turned_up,
        "may_discard_turned_up": rules.may_discard_turned_up,
        **({"declarer_takes_turned_up": True} if rules.declarer_takes_turned_up else {}),
    }


def _follow(rule: FollowRule, deck: Deck) -> Any:
    """A follow rule: its kind, with its parameters where it has any."""
    if rule.condition is not None:
        return {rule.kind: _card_condition(rule.condition, deck)}
    return {rule.kind: {"unless_partner_winning": True}} if rule.unless_partner_winning else rule.kind


def _set_aside_in_play(rules: Ruleset) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if rules.set_aside_per_trick:
        data["per_trick"] = rules.set_aside_per_trick
    if rules.called_takes_set_aside:
        data["called_card_takes_rest"] = True
    return data


def _contract(contract: Contract, base: Ruleset) -> dict[str, Any]:
    """A contract as a partial spec: the keys a contract may change, written out in full."""
    rules, deck = contract.ruleset, contract.ruleset.deck
    data: dict[str, Any] = {"description": contract.description} if contract.description else {}
    if rules.declarer_alone:
        data["declarer"] = "alone"
    data["trumps"] = _trumps(rules, deck)
    if rules.deal.first_leader != base.deal.first_leader or rules.deal.first_leader_seat != base.deal.first_leader_seat:
        data["first_leader"] = _deal(rules)["first_leader"]
    if rules.play_ends_when is not None and rules.play_ends_when != base.play_ends_when:
        data["play_ends_when"] = _expr(rules.play_ends_when)
    data |= {"open_hand": "declarer"} if rules.open_hand and not base.open_hand else {}
    data["follow"] = [_follow(rule, deck) for rule in rules.follow]
    if rules.rewards != base.rewards:
        data["rewards"] = [_reward(reward, rules) for reward in rules.rewards]
    if _set_aside_in_play(rules) != _set_aside_in_play(base):
        data["set_aside_in_play"] = _set_aside_in_play(rules) or None
    data["ranking"] = [_ranking_step(step, deck) for step in rules.ranking]
    data["restrictions"] = [_restriction(r, deck) for r in rules.restrictions]
    data["scoring"] = _scoring(rules.scoring, rules)
    return data


def _round_step(step: RoundStep, contracts: tuple[str, ...], suits: tuple[str, ...], deck: Deck) -> Any:
    if step.kind == "auction":
        return {"auction": _auction(step.rules, suits)}
    if step.kind == "take":
        return {"take": _take(step.rules, contracts, deck)}
    if step.kind == "call":
        call: dict[str, Any] = {"cards": [deck.cards[c].id for c in step.rules.cards]}
        call |= {"contracts": [contracts[i] for i in step.rules.contracts]} if step.rules.contracts else {}
        return {"call": call | ({"when": _expr(step.rules.when)} if step.rules.when is not None else {})}
    if step.declaring is not None:
        declare = step.declaring
        speaker: Any = {"seat": declare.first_seat} if declare.first == "seat" else declare.first
        written: dict[str, Any] = {"contracts": [contracts[i] for i in declare.contracts], "first": speaker}
        if declare.bidding != "first":  # by precedence, or the bidding's winner names it (no otherwise)
            written |= {"bidding": declare.bidding} | ({"precedence": {"seat": declare.precedence_seat}} if declare.bidding == "precedence" else {})
        else:
            written["otherwise"] = "score" if declare.otherwise < 0 else contracts[declare.otherwise]
        if declare.allow:
            written["when"] = {contracts[index]: _expr(condition) for index, condition in declare.allow}
        return {"declare": written}
    if step.bidding is not None:
        bid = step.bidding
        data: dict[str, Any] = {"values": {"from": bid.lowest, "to": _expr(bid.highest)}}
        if bid.allow is not None:
            data["allow"] = _expr(bid.allow)
        if bid.names:
            data["names"] = {value: word for value, word in bid.names}
        data["first"] = {"seat": bid.first_seat} if bid.first == "seat" else bid.first
        if bid.bidding == "precedence":
            data["bidding"] = "precedence"
            if bid.precedence_seat != -1:
                data["precedence"] = "first_bidder" if bid.precedence_seat == FIRST_BIDDER else {"seat": bid.precedence_seat}
            data |= {"speaking": "duels"} if bid.speaking == "duels" else {}
        return {"bid": data}
    if step.kind == "turn_up" and step.rules == "dealer":
        return {"turn_up": {"from": "dealer"}}
    if step.kind == "show_melds" and (step.rules.measures is not None or step.rules.as_played):
        shown = {"measures": list(step.rules.measures)} if step.rules.measures is not None else {}
        return {"show_melds": shown | ({"as_played": list(step.rules.as_played)} if step.rules.as_played else {})}
    if step.passing is None:
        return step.kind
    passing = step.passing
    names: list[Any] = [int(n) if n.lstrip("-").isdigit() else n for n in passing.to_names]
    cards = passing.cards.values
    to: Any = {"chance": names} if passing.to.chance else names[0] if len(names) == 1 else {"by_round": names}
    first: Any = {"seat": passing.first_seat} if passing.first == "seat" else passing.first
    return {"pass": {"cards": cards[0] if len(cards) == 1 else {"by_round": list(cards)}, "to": to, "first": first}}


def _take(rules: TakePhase, contracts: tuple[str, ...], deck: Deck) -> dict[str, Any]:
    """Taking the set-aside cards, every key written out."""
    groups: Any = {"by_contract": {contracts[i]: n for i, n in rules.groups_by_contract}} if rules.groups_by_contract else rules.groups
    data: dict[str, Any] = {"groups": groups, "shown": rules.shown, "buried_count_for": rules.buried_count_for, **({"hand": True} if rules.hand else {})}
    if rules.bury >= 0:
        data["bury"] = rules.bury
    if rules.forbid:
        data["forbid"] = [_card_condition(c, deck) for c in rules.forbid]
    if rules.contracts:
        data["contracts"] = [contracts[i] for i in rules.contracts]
    return data


def _auction(rules: AuctionPhase, suits: tuple[str, ...]) -> dict[str, Any]:
    """An auction's rules, every key written out."""
    strains = [{"name": s.name, **({"trumps": suits[s.trumps]} if s.trumps >= 0 else {})} for s in rules.strains]
    return {
        "levels": {"from": rules.levels[0], "to": rules.levels[-1]},
        "strains": strains,
        "first": {"seat": rules.first_seat} if rules.first == "seat" else rules.first,
        "doubling": rules.doubling,
        "declarer": rules.declarer,
        "dummy": rules.dummy,
    }


def _counter(counter: Counter, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {"scope": counter.scope, "reset": counter.reset, "initial": counter.initial}
    if counter.on_play is not None:
        change = {"set": counter.set_to} if counter.set_to is not None else {"add": counter.add}
        data["on_play"] = {"card": _card_condition(counter.on_play, deck), **change}
    if counter.on_round_end is not None:
        data["on_round_end"] = _expr(counter.on_round_end)
    return data


def _restriction(rule: Restriction, deck: Deck) -> dict[str, Any]:
    data: dict[str, Any] = {"name": rule.name, "for": {True: "leader", False: "followers", None: "all"}[rule.lead]}
    if rule.when is not None:
        data["when"] = _expr(rule.when)
    if rule.allow is not None:
        data["allow"] = _card_condition(rule.allow, deck)
    if rule.forbid is not None:
        data["forbid"] = _card_condition(rule.forbid, deck)
    return data
