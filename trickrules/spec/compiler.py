"""Compile a checked spec into a `Ruleset` for one player count and one set of options.

The spec's data has passed the schema and the semantic checks (`trickrules.spec.checks`), so the
compiler trusts its shape. What it still checks are the choices made at load time: the
player count and option overrides, and what they imply (enough cards for every hand), and
what only shows with them: expressions, round phases, seats, teams, contracts.

The compiler collects every problem it finds and raises them together in one `SpecError`
(by file, line and column). It stops early only where a problem makes the rest meaningless:
a player count the spec does not allow, or an option it does not have or a value it cannot
take (TR310, TR304, TR307; each reported, nothing compiled, as every rule is read with them),
and a hand size that cannot be worked out (TR14x in a ramp's `to`, or TR305 for an empty
ramp; reported with what came before), as the later checks measure against the hand sizes.
Elsewhere compiling goes on: an expression that does not compile stands in as 0 and the bid
range it ends is not checked; a bid range is reported at its first failing hand size; a
declare phase without contracts once, not again per contract it names; a problem a contract
shares with the spec merged under it, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NoReturn

from trickrules.errors import Problem, SpecError
from trickrules.rules.cards import card_names
from trickrules.rules.conditions import is_static
from trickrules.rules.follow import CONDITION_RULES, EXEMPT
from trickrules.rules.kept import KeptCards
from trickrules.rules.whole_trick import trick_lists, trick_names
from trickrules.spec.options import OptionDef, OptionValueError, coerce, option_defs
from trickrules.rules.ruleset import (
    UNLIMITED,
    Amount,
    AttributeTest,
    ChooseRound,
    Contract,
    CardCondition,
    Deal,
    DealCondition,
    FollowRule,
    Measure,
    PointRule,
    RankingStep,
    RankKey,
    Reward,
    default_round,
    Ruleset,
    Scoring,
    Section,
    SectionValue,
    Tableau,
    TokenKind,
    TrickCondition,
    TrumpChoice,
    Trumps,
    TurnedUp,
    FirstLed,
)
from trickrules.spec import compile_partners
from trickrules.spec.compile_deck import DeckCompiler, rank_names
from trickrules.spec.compile_round import RoundCompiler, hand_size_schedule
from trickrules.spec.deal_stages import deal_stage_problems
from trickrules.rules import contexts
from trickrules.spec.limits import ruleset_limit_problems
from trickrules.spec.measures import compile_measure
from trickrules.spec.names import did_you_mean
from trickrules.spec.contracts import contract_source
from trickrules.spec.source import SpecSource, json_path

BUILTIN_MEASURES = ("tricks", "cards")
SCORE_NAMES = tuple(name for name in contexts.SCORE.names if name not in contexts.PLAY.names)
"""Names a scoring expression reads besides measures, options, counters and the play names."""


def compile_ruleset(
    source: SpecSource, players: int | None = None, options: Mapping[str, Any] | None = None
) -> Ruleset:
    """Compile `source` for `players` (default: the largest allowed count) and `options`;
    raise `SpecError` with every problem found (see the module's docstring)."""
    data = source.data
    allowed = tuple(data["players"])
    found: list[Problem] = []
    if players is None:
        players = max(allowed)
    if players not in allowed:
        found.append(_problem(source, ("players",), "TR310", f"{players} players not allowed (allowed: {_join(allowed)})"))
    values = _option_values(source, options or {}, found)
    if found:  # the choices every rule is read with: nothing to compile
        _stop(found)
    resolved = _resolve_options(data, values)
    base = _Compiler(source, resolved, players, values, found).ruleset()
    found += ruleset_limit_problems(source, base)  # option values given now, too
    contracts = []
    for name, overlay in (resolved.get("contracts") or {}).items():
        located = contract_source(source, name, resolved)
        merged = dict(located.data)
        if overlay.get("declarer") == "alone":
            merged["declarer_alone"] = True  # teams come from the declarer, in play
        ruleset = _Compiler(located, merged, players, values, found).ruleset()
        ruleset = replace(ruleset, id=f"{base.id}:{name}", declarer_alone=overlay.get("declarer") == "alone")
        contracts.append(Contract(name, str(overlay.get("description", "")).strip(), ruleset))
    if found:
        _stop(found)
    if not contracts:
        return base
    return replace(base, contracts=tuple(contracts))


def _problem(source: SpecSource, path: tuple, code: str, message: str) -> Problem:
    """A problem at the node of `path`."""
    file, line, column = source.locate(path)
    return Problem(code, message, file, line, column, json_path(path))


def _stop(found: list[Problem]) -> NoReturn:
    """Raise the problems found, each once."""
    raise SpecError(list(dict.fromkeys(found)))


def _join(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _option_values(source: SpecSource, overrides: Mapping[str, Any], found: list[Problem]) -> dict[str, Any]:
    """The options' values: the defaults, with `overrides`; a problem with one is added to `found`."""
    defs = option_defs(source.data)
    suits = source.data["deck"]["suits"]
    values = {name: _default(d) for name, d in defs.items()}
    for name, value in overrides.items():
        if name not in defs:
            known = _join(defs) or "none"
            found.append(_problem(source, ("options",), "TR304", f"unknown option '{name}'{did_you_mean(name, defs)} (options: {known})"))
            continue
        try:
            values[name] = coerce(defs[name], value, suits)
        except OptionValueError as error:
            found.append(_problem(source, ("options", name), "TR307", str(error)))
    return values


def _default(option: OptionDef) -> Any:
    return tuple(option.default) if option.type == "suits" else option.default


def _resolve_options(node: Any, values: Mapping[str, Any]) -> Any:
    """Replace every ``{option: NAME}`` reference by the option's value."""
    if isinstance(node, dict):
        if set(node) == {"option"} and isinstance(node["option"], str):
            return values[node["option"]]
        if set(node) == {"option", "cases"} and isinstance(node["option"], str) and isinstance(node["cases"], dict):
            return _resolve_options(node["cases"][str(values[node["option"]])], values)
        return {key: _resolve_options(value, values) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolve_options(value, values) for value in node]
    return node


def _by_players(value: Any, players: int) -> int:
    if isinstance(value, dict) and "by_players" in value:
        return int(value["by_players"][str(players)])
    return int(value)


class _Compiler(DeckCompiler):
    """Walks the resolved data once, turning names into indices."""

    def __init__(self, source: SpecSource, data: dict, players: int, values: dict, found: list[Problem]) -> None:
        self.source = source
        self.found = found  # the problems found so far, shared by the compilers of one ruleset
        self.data = data
        self.players = players
        self.values = values
        deck = data["deck"]
        self.suits: tuple[str, ...] = tuple(deck["suits"])
        self.attributes: tuple[str, ...] = tuple(deck.get("attributes") or {})
        self.token_names: tuple[str, ...] = tuple(data.get("tokens") or {})
        self.rank_names, self.suit_rank_names = rank_names(deck)
        measures = (data.get("scoring") or {}).get("measures") or {}
        self.measure_names: tuple[str, ...] = BUILTIN_MEASURES + tuple(measures)

    def ruleset(self) -> Ruleset:
        data = self.data
        deck = self.deck()
        self.card_ids = tuple(card.id for card in deck.cards)
        self.card_names = card_names(deck)
        deal = self.deal()
        if deal.hand_size * self.players > len(deck.cards):
            message = (
                f"{self.players} hands of {deal.hand_size} need {deal.hand_size * self.players} "
                f"cards, the deck has {len(deck.cards)}"
            )
            self.found.append(_problem(self.source, ("deal", "hand_size"), "TR305", message))
        for path, message in deal_stage_problems(data, deal):
            self.found.append(_problem(self.source, path, "TR373", message))
        constants = {name: _constant(value) for name, value in self.values.items()}
        self.later = RoundCompiler(self.source, data, self.players, constants, self.card_condition, self.found)
        self.later.hand_size = deal.hand_size if deal.hand_sizes is None else min(deal.hand_sizes.values)
        self.later.hand_sizes = (deal.hand_size,) if deal.hand_sizes is None else (deal.hand_size, *deal.hand_sizes.values)
        self.later.deck_size = len(deck.cards)
        self.later.card_names = self.card_names
        self.later.everyones = tuple(f"all_{m}" for m in self.measure_names)
        self.later.score_names = (*self.measure_names, *self.later.everyones, *SCORE_NAMES, *self.later.step_names())
        taken = (*constants, *self.later.counter_names, *self.later.score_names, *contexts.MEANINGS, *trick_names(deck, rewards=True))
        self.later.check_definitions(taken)
        scoring = self.scoring(data["scoring"])
        trumps = self.trumps(data.get("trumps", "none"))
        rounds, until = self.later.rounds()
        self.deck_made = deck
        self.ranking = tuple(self.ranking_step(s, ("ranking", i)) for i, s in enumerate(data["ranking"]))
        return Ruleset(
            id=data["id"],
            title=data["title"],
            description=data.get("description", "").strip(),
            version=str(data.get("version", "")),
            players=self.players,
            allowed_players=tuple(sorted(data["players"])),
            options=tuple(sorted(self.values.items())),
            deck=deck,
            deal=deal,
            rounds=rounds,
            trumps=trumps,
            follow=tuple(self.follow_rule(r, ("follow", i)) for i, r in enumerate(data.get("follow", ["follow_led"]))),
            ranking=self.ranking,
            rewards=tuple(self.reward(r, i) for i, r in enumerate(data.get("rewards") or [])),
            tokens=tuple(self.token_kind(n, t) for n, t in (data.get("tokens") or {}).items()),
            won_cards=data.get("won_cards", "pile"),
            tableau=self.tableau(data.get("tableau")),
            scoring=scoring,
            round=self.later.round(default_round(trumps)),
            counters=self.later.counters(),
            restrictions=self.later.restrictions(),
            until=until,
            play_ends_when=self.later.play_ends(),
            open_hand=data.get("open_hand") == "declarer",
            definitions=tuple(self.later.definitions.items()),
            set_aside_per_trick=int((data.get("set_aside_in_play") or {}).get("per_trick", 0)),
            called_takes_set_aside=bool((data.get("set_aside_in_play") or {}).get("called_card_takes_rest", False)),
            kept=self.kept_cards(),
            constants=tuple(sorted(constants.items())),
            teams=self.later.teams(),
            partner_cards=compile_partners.partner_cards(data, self.source, self.found, deck, self.card_names),
            source_file=self.source.file,
            source_digest=self.source.digest,
        )

    # ------------------------------------------------------------ conditions

    def deal_condition(self, raw: dict | None) -> DealCondition | None:
        if raw is None:
            return None
        include = raw.get("trumps_include")
        return DealCondition(
            trump=raw.get("trump"),
            trumps_include=None if include is None else self.suits.index(include),
            no_trumps=raw.get("no_trumps"),
            negate=self.deal_condition(raw.get("not")),
            all_of=tuple(self.deal_condition(c) for c in raw.get("all", [])),  # type: ignore[misc]
            any_of=None if "any" not in raw else tuple(self.deal_condition(c) for c in raw["any"]),  # type: ignore[misc]
        )

    def card_condition(self, raw: dict | None, path: tuple = (), whole: str = "") -> CardCondition | None:
        """A condition; `whole` (``reward`` or ``ranking``) where it may read the whole trick
        (`trick`), `path` where it is written."""
        if raw is None:
            return None
        attribute = raw.get("attribute")
        nested = lambda key, value: self.card_condition(value, (*path, *key), whole)  # noqa: E731
        return CardCondition(
            ranks=self.rank_set(raw.get("rank")),
            suits=None if "suit" not in raw else frozenset(self.suits.index(s) for s in _as_list(raw["suit"])),
            trump=raw.get("trump"),
            led=raw.get("led"),
            attribute=None if attribute is None else self.attribute_test(attribute),
            same_suit_as_winner=raw.get("same_suit_as_winner"),
            winner=self.card_condition(raw.get("winner")),
            trick=None if "trick" not in raw else self.trick_condition(raw["trick"], (*path, "trick"), whole),
            negate=nested(("not",), raw.get("not")),
            all_of=tuple(nested(("all", i), c) for i, c in enumerate(raw.get("all", []))),  # type: ignore[misc]
            any_of=None if "any" not in raw else tuple(nested(("any", i), c) for i, c in enumerate(raw["any"])),  # type: ignore[misc]
        )

    def card_alone(self, raw: dict, path: tuple, what: str) -> CardCondition:
        """A card condition that reads the card alone (not the trick: `led`, a winner)."""
        condition = self.card_condition(raw, path)
        assert condition is not None
        if not is_static(condition):
            self.found.append(_problem(self.source, path, "TR374", f"{what} is named by the card alone: a condition on the trick (led, winner) cannot name it"))
        return condition

    def kept_cards(self) -> KeptCards | None:
        """The cards kept by their owner (`kept_cards`), with won cards taken by piles only."""
        raw = self.data.get("kept_cards")
        if raw is None:
            return None
        if self.data.get("won_cards") == "tableau":
            self.found.append(_problem(self.source, ("kept_cards",), "TR374", "kept cards go back to their owner's won cards: with won_cards: tableau there are none to go back to"))
        exchange = raw.get("exchange")
        return KeptCards(self.card_alone(raw["cards"], ("kept_cards", "cards"), "a kept card"),
                         None if exchange is None else self.card_alone(exchange, ("kept_cards", "exchange"), "the card given in exchange"))

    def trick_condition(self, raw: Any, path: tuple, whole: str) -> TrickCondition:
        """A condition on the whole trick: an expression of the trick's names and the options."""
        names = (*self.values, *trick_names(self.deck_made, rewards=whole == "reward"))
        lists = (*trick_lists(self.deck_made), *(name for name, value in self.values.items() if isinstance(value, list)))
        expression = self.later.expression(raw, path, names, lists)
        constants = tuple(sorted((name, _constant(value)) for name, value in self.values.items()))
        return TrickCondition(expression, self.ranking if whole == "reward" else (), constants)

    def rank_set(self, value: Any) -> frozenset[int] | None:
        """The rank numbers a condition's `rank` names: numbers, or names of `rank_names`."""
        if value is None:
            return None
        return frozenset(number for v in _as_list(value) for number in self.rank_numbers(v))

    def rank_numbers(self, value: int | str) -> list[int]:
        """A rank number, or every rank number a rank name stands for."""
        if isinstance(value, int):
            return [value]
        named = [self.rank_names, *self.suit_rank_names.values()]
        return sorted({int(number) for names in named for number, name in names.items() if name == value})

    def rank_places(self, ranks: list) -> tuple[tuple[int, int], ...]:
        """An order of ranks, lowest first, as (rank number, place from 1) pairs."""
        return tuple(sorted((number, place) for place, rank in enumerate(ranks, 1) for number in self.rank_numbers(rank)))

    def attribute_test(self, raw: dict) -> AttributeTest:
        return AttributeTest(
            self.attributes.index(raw["name"]), raw.get("at_least"), raw.get("at_most"), raw.get("equals")
        )

    # ------------------------------------------------------------ deal, trumps, trick rules

    def deal(self) -> Deal:
        raw = self.data["deal"]
        dealer = raw.get("dealer") or {}
        raw_leader = raw.get("first_leader", "left_of_dealer")
        try:
            sizes = hand_size_schedule(raw["hand_size"], self.players, self.source)
        except SpecError as error:  # the later checks measure against the hand sizes: stop here
            _stop([*self.found, *error.problems])
        size = max(sizes.values) if sizes is not None else _by_players(raw["hand_size"], self.players)
        card = 0
        if isinstance(raw_leader, str):
            leader, seat = raw_leader, 0
        elif "holder" in raw_leader:
            leader, seat, card = "holder", 0, self.card_index(raw_leader["holder"], ("deal", "first_leader", "holder"))
        else:
            leader, seat = "seat", int(raw_leader["seat"]) % self.players
        return Deal(
            hand_size=size,
            hand_sizes=sizes,
            dealer_random=bool(dealer.get("random", False)),
            dealer_first=int(dealer.get("first", 0)) % self.players,
            dealer_rotation=int(dealer.get("rotation", 1)),
            first_leader=leader,  # type: ignore[arg-type]  # the schema allows only these words
            first_leader_seat=seat,
            first_leader_card=card,
            first_stage=int(raw.get("first_stage", 0)),
        )

    def card_index(self, card_id: str, path: tuple) -> int:
        if card_id not in self.card_names:
            self.found.append(_problem(self.source, path, "TR315", f"no card '{card_id}' in the deck{did_you_mean(card_id, self.card_ids)}"))
            return 0
        return self.card_names[card_id]

    def trumps(self, raw: Any) -> Trumps:
        if raw == "none" or raw is None:
            return frozenset()
        if raw == "turned_up":
            return TurnedUp()
        if raw == "first_led":
            return FirstLed()
        if isinstance(raw, dict):
            choose = raw["choose"]
            candidates = tuple(self.suits.index(s) for s in choose.get("from", self.suits))
            return TrumpChoice(choose.get("by", "dealer"), candidates, tuple(self.choose_round(r) for r in choose.get("rounds", ())))
        return frozenset(self.suits.index(s) for s in raw)

    def choose_round(self, raw: dict) -> ChooseRound:
        suits = raw.get("from", "turned_up")
        listed = () if isinstance(suits, str) else tuple(self.suits.index(s) for s in suits)
        return ChooseRound(
            suits="listed" if not isinstance(suits, str) else suits,  # type: ignore[arg-type]  # the schema allows only these words
            listed=listed,
            dealer_must_choose=bool(raw.get("dealer_must_choose", False)),
            dealer_takes_turned_up=bool(raw.get("dealer_takes_turned_up", False)),
            may_discard_turned_up=bool(raw.get("may_discard_turned_up", True)),
            declarer_takes_turned_up=bool(raw.get("declarer_takes_turned_up", False)),
        )

    def follow_rule(self, raw: Any, path: tuple = ()) -> FollowRule:
        kind = raw if isinstance(raw, str) else next(iter(raw))
        parameters = {} if isinstance(raw, str) else raw[kind] or {}
        if kind in CONDITION_RULES:  # its value is the card condition, which may read the trick with the card played
            return FollowRule(kind, condition=self.card_condition(parameters, (*path, kind), "ranking"))
        if kind == EXEMPT:  # the cards free of every rule: named by the card alone
            return FollowRule(kind, condition=self.card_alone(parameters, (*path, kind), "an exempt card"))
        return FollowRule(kind, bool(parameters.get("unless_partner_winning", False)))

    def ranking_step(self, raw: Any, path: tuple = ()) -> RankingStep:
        if isinstance(raw, str):
            return RankingStep(raw)  # type: ignore[arg-type]  # the schema allows only the step kinds
        kind, value = next(iter(raw.items()))
        if kind == "order":
            cases = value if isinstance(value[0], dict) else [{"ranks": value}]
            order = tuple((self.card_condition(case.get("when")), self.rank_places(case["ranks"])) for case in cases)
            return RankingStep("order", order=order)
        if kind == "prefer":
            if value in ("trump", "led"):
                return RankingStep("prefer", group=value)
            return RankingStep("prefer", group="condition", condition=self.card_condition(value, (*path, "prefer"), "ranking"))
        if isinstance(value, dict):
            return RankingStep(kind, attribute=self.attributes.index(value["attribute"]))
        return RankingStep(kind)

    # ------------------------------------------------------------ rewards and tokens

    def reward(self, raw: dict, index: int) -> Reward:
        give = raw["give"]
        token = None if "points" in give else self.token_names.index(give["token"])
        amount = give["points"] if "points" in give else give["amount"]
        partner, raw_when = compile_partners.reward_partner(raw, index, self.data, self.source, self.found)
        when = self.card_condition(raw_when, ("rewards", index, "when"), "reward")
        return Reward(raw["name"], raw["to"], when, token, self.amount(amount), partner)

    def amount(self, raw: Any) -> Amount:
        if isinstance(raw, dict) and "by_rank" in raw:
            table = tuple(sorted((int(k), int(v)) for k, v in raw["by_rank"].items()))
            return Amount(constant=int(raw.get("default", 0)), by_rank=table)
        if isinstance(raw, dict) and "attribute" in raw:
            return Amount(attribute=self.attributes.index(raw["attribute"]))
        return Amount(constant=int(raw))

    def token_kind(self, name: str, raw: dict) -> TokenKind:
        supply = raw.get("supply", "unlimited")
        count = UNLIMITED if supply == "unlimited" else _by_players(supply, self.players)
        return TokenKind(name, count, raw.get("to", "player"), raw.get("when_no_space", "stays_in_supply"), raw.get("plural"))

    def tableau(self, raw: dict | None) -> Tableau | None:
        if raw is None:
            return None
        sections = tuple(
            Section(s["name"], int(s.get("tokens_needed", 0)), int(s.get("value", 0))) for s in raw["sections"]
        )
        score = raw.get("score") or {}
        token = raw.get("token")
        return Tableau(
            sections=sections,
            token=None if token is None else self.token_names.index(token),
            cards_staffed=_section_value(score.get("cards_staffed", "top_rank")),
            cards_understaffed=_section_value(score.get("cards_understaffed", 0)),
            empty_staffed=_section_value(score.get("empty_staffed", "value")),
            empty_understaffed=_section_value(score.get("empty_understaffed", 0)),
        )

    # ------------------------------------------------------------ scoring

    def scoring(self, raw: dict) -> Scoring:
        measures = tuple(Measure(name, name) for name in BUILTIN_MEASURES)  # type: ignore[arg-type]
        measures += tuple(self.measure(n, m) for n, m in (raw.get("measures") or {}).items())
        rules = tuple(self.point_rule(r, i) for i, r in enumerate(raw["round"]))
        return Scoring(measures, rules, (raw.get("game") or {}).get("winner", "most_points"), bool(raw.get("pool", True)))

    def measure(self, name: str, raw: dict) -> Measure:
        return compile_measure(self, name, raw)

    def point_rule(self, raw: dict, index: int = 0) -> PointRule:
        if "add" in raw and raw["add"] in self.measure_names and raw.get("per", "player") == "player":
            measure = self.measure_names.index(raw["add"])
            return PointRule("add", measure=measure, times=int(raw.get("times", 1)), name=raw.get("name", ""))
        if "add" in raw:
            names = (*self.later.play_names(), *self.measure_names, *(f"all_{m}" for m in self.measure_names), *SCORE_NAMES,
                     *self.later.step_names())
            expression = self.later.expression(raw["add"], ("scoring", "round", index, "add"), names, self.later.score_lists())
            per = raw.get("per", "player")
            if per == "team" and not self.data.get("teams") and not self.data.get("declarer_alone"):
                self.found.append(_problem(self.source, ("scoring", "round", index, "per"), "TR323", "per: team needs teams"))
            return PointRule("expression", expression=expression, name=raw.get("name", ""), per=per)
        award = raw["award"]
        keys = tuple(self.rank_key(k) for k in award["to_best_by"])
        return PointRule("award", points=int(award["points"]), keys=keys)

    def rank_key(self, raw: dict) -> RankKey:
        direction, name = next(iter(raw.items()))
        return RankKey(self.measure_names.index(name), most=direction == "most")


def _constant(value: Any) -> Any:
    """An option's value as expressions read it (a list of suits becomes a tuple)."""
    return tuple(value) if isinstance(value, list) else value


def _section_value(raw: Any) -> SectionValue:
    if isinstance(raw, dict):
        return SectionValue("per_missing_token", int(raw["per_missing_token"]))
    if isinstance(raw, int):
        return SectionValue("constant", raw)
    return SectionValue(raw)


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]
