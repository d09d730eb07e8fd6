"""Compile the language-2 parts of a spec: the round's phases, counters, play restrictions,
expressions and the end of a game.

Expressions are compiled here, once, when the spec loads (`trickrules.rules.expressions`); an error inside one is reported at its file, line and column, with the names that exist.
Problems are added to the compiler's list (`found`) and compiling goes on, as the module `trickrules.spec.compiler`
describes; only `hand_size_schedule` raises, as the deal's hand sizes are what the later checks measure."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from trickrules.errors import Problem, SpecError
from trickrules.rules import auction, contexts
from trickrules.rules.auction import AuctionPhase, Strain
from trickrules.rules.call import CallPhase
from trickrules.rules.take import TakePhase
from trickrules.rules.measures import MeldShowing
from trickrules.rules.expressions import Expression, ExpressionError, compile_expression
from trickrules.spec import definitions, round_order
from trickrules.spec.measures import pattern_melds
from trickrules.rules.declaring import DeclarePhase
from trickrules.rules.ruleset import FIRST_BIDDER, BidPhase, CardCondition, Counter, PassPhase, Restriction, RoundStep, Schedule
from trickrules.spec.names import did_you_mean
from trickrules.spec.limits import MAX_BIDS
from trickrules.spec.source import VALUE, SpecSource, json_path

DIRECTIONS = {"left": 1, "right": -1, "none": 0}
"""Pass directions as seat offsets; ``across`` is half the table (even player counts only)."""

PLAY_NAMES = contexts.PLAY.names
"""Names every expression may read besides options and counters (`contexts.PLAY`)."""
PLAY_LISTS = contexts.PLAY.lists
"""The names among `PLAY_NAMES` that hold a list (by seat); the others hold numbers."""
SCORE_LISTS = tuple(name for name in contexts.SCORE.lists if name not in PLAY_LISTS)
"""The scoring names that hold a list (by seat), besides ``all_<measure>``."""
UNCOMPILED = compile_expression(0, ())
"""What stands for an expression that does not compile while the compiler looks on for more
problems; a ruleset holding it is never handed out."""


STEP_NAMES: dict[str, dict[str, str]] = {"auction": auction.NAMES}
"""By a round step's key: the names its phase gives scoring expressions, and their meanings."""


class RoundCompiler:
    """Compiles the language-2 keys of a spec whose options are already resolved."""

    def __init__(
        self,
        source: SpecSource,
        data: dict,
        players: int,
        constants: dict[str, Any],
        card_condition: Callable[[dict | None], CardCondition | None],
        found: list[Problem],
    ) -> None:
        self.source = source
        self.found = found  # the problems found so far, shared with the compiler
        self.data = data
        self.players = players
        self.constants = constants
        self.card_condition = card_condition
        self.counter_names = tuple((data.get("counters") or {}))
        self.hand_size = 0  # set by the compiler once the deal is known: the smallest hand
        self.hand_sizes: tuple[int, ...] = ()  # and every hand size the deal gives
        self.deck_size = 0  # set by the compiler once the deck is known
        self.card_names: Mapping[str, int] = {}  # card ids (and their other names), set with the deck
        self.definitions: dict[str, str] = {}  # named sub-expressions (`define`), set by `check_definitions`
        self.unusable: set[str] = set()  # definitions in a chain that reads itself
        self.score_names: tuple[str, ...] = ()  # measures etc., set by the compiler
        self.everyones: tuple[str, ...] = ()  # all_<measure>: everyone's values, set by the compiler

    # ------------------------------------------------------------ expressions

    def expression(self, raw: Any, path: tuple, names: Iterable[str], lists: Iterable[str] | None = None) -> Expression:
        """Compile the expression at `path`; a problem there is added to `found`, at its
        position, and the expression stands in as the constant 0 (`UNCOMPILED`).

        `lists`: the names that hold lists (by default those of `play_lists`); every other
        name holds a number, and the expression's value must be one (TR144 otherwise).
        """
        lists = self.play_lists() if lists is None else lists
        used = definitions.used_by(raw, self.definitions)
        try:
            if not used:
                return compile_expression(raw, names, lists)
            compile_expression(raw, (*names, *used), lists)  # the text as written, its defined names as numbers
        except ExpressionError as error:
            self._expression_problem(error, path)
            return UNCOMPILED
        if self.unusable & set(used):
            return UNCOMPILED
        for name in used:  # each definition it reads, with the names this place offers
            try:
                compile_expression(self.definitions[name], (*names, *used), lists)
            except ExpressionError as error:
                error.message = f"{error.message} (in the definition of '{name}', read at {json_path(path)})"
                self._expression_problem(error, ("define", name))
                return UNCOMPILED
        try:
            expanded = compile_expression(definitions.expand(str(raw), self.definitions), names, lists, definitions.MAX_WRITTEN_OUT)
            return dataclasses.replace(expanded, written=str(raw))
        except ExpressionError as error:
            error.message = f"{error.message}, with the definitions it reads written out"
            error.column = 0
            self._expression_problem(error, path)
            return UNCOMPILED

    def _expression_problem(self, error: ExpressionError, path: tuple) -> None:
        file, line, column = self.source.locate((*path, VALUE))
        column += error.column
        self.found.append(Problem(error.code, error.message, file, line, column, json_path(path)))

    def check_definitions(self, taken: Iterable[str]) -> None:
        """Read `define` (`definitions.check`): the definitions that pass are kept."""
        self.definitions, self.unusable = definitions.check(self.data.get("define"), taken, self.fail)

    def play_names(self) -> tuple[str, ...]:
        return (*self.constants, *self.counter_names, *PLAY_NAMES)

    def play_lists(self) -> tuple[str, ...]:
        """The names of `play_names` that hold lists: `totals` and options of several suits."""
        return (*PLAY_LISTS, *(name for name, value in self.constants.items() if isinstance(value, tuple)))

    def score_lists(self) -> tuple[str, ...]:
        """What scoring reads as lists: `play_lists`, `bids` and ``all_<measure>``."""
        return (*self.play_lists(), *SCORE_LISTS, *self.everyones)

    def game_lists(self) -> tuple[str, ...]:
        """What `until` reads as lists: besides `play_lists`, each player and team counter
        (everyone's values, in seat or team order)."""
        scoped = (name for name, raw in (self.data.get("counters") or {}).items() if (raw or {}).get("scope", "table") != "table")
        return (*self.play_lists(), *scoped)

    # ------------------------------------------------------------ the round

    def step_names(self) -> tuple[str, ...]:
        """The names the round's phases give scoring expressions (`STEP_NAMES`)."""
        return tuple(name for entry in self.data.get("round") or () if isinstance(entry, dict)
                     for key in entry for name in STEP_NAMES.get(key, {}))

    def round(self, default: Sequence[RoundStep]) -> tuple[RoundStep, ...]:
        raw = self.data.get("round")
        if raw is None:
            return ()
        steps = []
        for index, entry in enumerate(raw):
            path = ("round", index)
            if entry == "show_melds":
                steps.append(RoundStep("show_melds", rules=self.melds_shown({}, path)))
            elif isinstance(entry, str):
                steps.append(RoundStep(entry))  # type: ignore[arg-type]  # the schema allows only phase kinds
            elif "bid" in entry:
                steps.append(RoundStep("bid", bidding=self.bidding(entry["bid"], (*path, "bid"))))
            elif "declare" in entry:
                steps.append(RoundStep("declare", declaring=self.declaring(entry["declare"] or {}, (*path, "declare"))))
            elif "auction" in entry:
                steps.append(RoundStep("auction", rules=self.auction(entry["auction"], (*path, "auction"))))
            elif "take" in entry:
                steps.append(RoundStep("take", rules=self.taking(entry["take"] or {}, (*path, "take"))))
            elif "call" in entry:
                steps.append(RoundStep("call", rules=self.calling(entry["call"], (*path, "call"))))
            elif "turn_up" in entry:
                steps.append(RoundStep("turn_up", rules=(entry["turn_up"] or {}).get("from", "pile")))
            elif "show_melds" in entry:
                steps.append(RoundStep("show_melds", rules=self.melds_shown(entry["show_melds"] or {}, (*path, "show_melds"))))
            else:
                steps.append(RoundStep("pass", passing=self.passing(entry["pass"], (*path, "pass"))))
        default_kinds = [s.kind for s in default]
        round_order.check_order([s.kind for s in steps], default_kinds, bool(self.data.get("teams")), self.fail, staged=bool(self.data["deal"].get("first_stage")),
                                precedence=any(s.bidding is not None and s.bidding.bidding == "precedence" for s in steps))
        for index, step in enumerate(steps):
            if step.declaring is not None and step.declaring.bidding == "declarer" and not {"bid", "auction"} & {s.kind for s in steps[:index]}:
                self.fail(("round", index, "declare", "bidding"), "TR371", "with bidding: declarer the winner of the bidding names the contract: a bid phase must come before it")
        return tuple(steps)

    def melds_shown(self, raw: dict, path: tuple) -> MeldShowing:
        """The meld measures a show_melds step shows before play (by default every one not announced as played), and those announced."""
        measures = (self.data.get("scoring") or {}).get("measures") or {}
        melds = pattern_melds(measures)
        names, as_played = None if raw.get("measures") is None else tuple(raw["measures"]), tuple(raw.get("as_played") or ())
        for key, listed in (("measures", names or ()), ("as_played", as_played)):
            for index, name in enumerate(listed):
                if name not in melds:
                    self.fail((*path, key, index), "TR370", f"show_melds shows meld measures; {name!r} is not one (meld measures: {', '.join(melds) or 'none'})")
                elif key == "as_played" and name in (names or ()):
                    self.fail((*path, key, index), "TR370", f"{name!r} is shown before play (measures) and announced as played: list it in one of them")
        if not melds:
            self.fail(path, "TR370", "show_melds shows meld measures, and the scoring has none")
        return MeldShowing(names, as_played)

    def passing(self, raw: dict, path: tuple) -> PassPhase:
        cards = self.cards_schedule(raw.get("cards", 3))
        hand_size = self.hand_size
        if max(cards.values) > hand_size:
            message = f"a player passes {max(cards.values)} cards but holds {hand_size}"
            self.fail((*path, "cards"), "TR322", message)
        to_raw = raw.get("to", "left")
        chance = isinstance(to_raw, dict) and "chance" in to_raw
        values: list[Any] = to_raw["chance"] if chance else to_raw.get("by_round") or [] if isinstance(to_raw, dict) else [to_raw]
        if not values:  # an option's case can stand for a mapping the schema never saw
            self.fail((*path, "to"), "TR204", "a pass direction is a direction, {by_round: [...]} or {chance: [...]}")
        offsets = tuple(self.direction(v, (*path, "to")) for v in values)
        kind, seat = self.first(raw, path)
        return PassPhase(cards, Schedule(offsets, chance), tuple(str(v) for v in values), kind, seat)  # type: ignore[arg-type]

    def bidding(self, raw: dict, path: tuple) -> BidPhase:
        values = raw.get("values") or {}
        names = (*self.constants, *self.counter_names, *contexts.BID_RANGE.names)
        before = len(self.found)
        highest = self.expression(values.get("to", "hand_size"), (*path, "values", "to"), names)
        allow_names = (*self.constants, *self.counter_names, *contexts.BID.names)
        allow = raw.get("allow")
        kind, seat = self.first(raw, path)
        if len(self.found) == before:  # a range whose end did not compile is not measured
            self.check_bid_range(int(values.get("from", 0)), highest, (*path, "values"))
        if raw.get("speaking") == "duels" and raw.get("bidding") != "precedence":
            self.fail((*path, "speaking"), "TR376", "players speak in duels only when they bid up until one is left: add bidding: precedence")
        return BidPhase(
            lowest=int(values.get("from", 0)),
            highest=highest,
            allow=None if allow is None else self.expression(allow, (*path, "allow"), allow_names),
            names=tuple(sorted((int(k), str(v)) for k, v in (raw.get("names") or {}).items())),
            first=kind,  # type: ignore[arg-type]
            first_seat=seat,
            bidding=raw.get("bidding", "once"),
            precedence_seat=-1 if "precedence" not in raw else FIRST_BIDDER if raw["precedence"] == "first_bidder" else self.seat(raw["precedence"]["seat"], (*path, "precedence", "seat")),
            speaking=raw.get("speaking", "in_turn"),
        )

    def seat(self, seat: int, path: tuple) -> int:
        """A seat the table has (TR321 otherwise, and 0)."""
        if seat >= self.players:
            self.fail(path, "TR321", f"seat {seat} does not exist with {self.players} players")
            return 0
        return int(seat)

    def check_bid_range(self, lowest: int, highest: Expression, path: tuple) -> None:
        """A bid range offers at least one bid and at most `MAX_BIDS`, at every hand size the deal
        gives (counters at their initial values): TR331 for an empty range, TR332 over the limit;
        one problem at most, at the first hand size that shows it."""
        counters = {name: (c or {}).get("initial", 0) for name, c in (self.data.get("counters") or {}).items()}
        for size in sorted(set(self.hand_sizes)):
            env = {**self.constants, **counters, "hand_size": size, "players": self.players}
            top = int(highest(env))
            if top < lowest:
                self.fail(path, "TR331", f"the bids run from {lowest} to {top} with a hand of {size}: no bid at all")
                return
            if top - lowest + 1 > MAX_BIDS:
                self.fail(path, "TR332", f"the bids run from {lowest} to {top} with a hand of {size}: {top - lowest + 1} bids, over the limit of {MAX_BIDS} bids")
                return

    def declaring(self, raw: dict, path: tuple) -> DeclarePhase:
        names = list(self.data.get("contracts") or {})
        kind, seat = self.first(raw, path)
        if not names:  # the names the phase lists have nothing to be checked against
            self.fail(path, "TR325", "a declare phase needs contracts")
            return DeclarePhase(contracts=(), first=kind, first_seat=seat, otherwise=-1)  # type: ignore[arg-type]
        chosen = raw.get("contracts", names)
        for index, name in enumerate(chosen):
            if name not in names:
                self.fail((*path, "contracts", index), "TR325", f"no contract '{name}'{did_you_mean(name, names)} (contracts: {', '.join(names)})")
        otherwise = raw.get("otherwise", "score")
        if otherwise != "score" and otherwise not in names:
            self.fail((*path, "otherwise"), "TR325", f"no contract '{otherwise}'{did_you_mean(otherwise, names)} (contracts: {', '.join(names)})")
        allow = []
        when_names = (*self.constants, *self.counter_names, *contexts.DECLARE.names)
        for name, expression in (raw.get("when") or {}).items():
            if name not in chosen:
                self.fail((*path, "when", name), "TR325", f"no contract '{name}' in this phase{did_you_mean(name, chosen)} (contracts: {', '.join(chosen)})")
                continue
            allow.append((names.index(name), self.expression(expression, (*path, "when", name), when_names)))
        bidding = raw.get("bidding", "first")
        precedence = raw.get("precedence") or {"seat": 0}
        if int(precedence["seat"]) >= self.players:
            self.fail((*path, "precedence"), "TR321", f"seat {precedence['seat']} does not exist with {self.players} players")
        if bidding == "precedence" and "otherwise" in raw:
            self.fail((*path, "otherwise"), "TR343", "with bidding: precedence someone always declares (the last player left may not pass): otherwise never applies")
        if bidding == "declarer" and "otherwise" in raw:
            self.fail((*path, "otherwise"), "TR371", "with bidding: declarer the declarer always names a contract: otherwise never applies")
        return DeclarePhase(
            contracts=tuple(names.index(n) for n in chosen if n in names),
            first=kind,  # type: ignore[arg-type]
            first_seat=seat,
            otherwise=names.index(otherwise) if otherwise in names else -1,
            bidding=bidding,
            precedence_seat=int(precedence["seat"]) % self.players,
            allow=tuple(allow),
        )

    def auction(self, raw: dict, path: tuple) -> AuctionPhase:
        """An auction's rules: its table of bids (levels by strains), who calls first, doubling,
        who declares, a dummy."""
        suits = list(self.data["deck"]["suits"])
        levels = raw.get("levels") or {}
        low, high = int(levels.get("from", 1)), int(levels.get("to", 7))
        if high < low:
            self.fail((*path, "levels"), "TR331", f"levels from {low} to {high} hold no bid")
        strains = []
        for index, entry in enumerate(raw["strains"]):
            trumps = entry.get("trumps")
            if trumps is not None and trumps not in suits:
                self.fail((*path, "strains", index, "trumps"), "TR301", f"undefined suit '{trumps}' (deck.suits has {', '.join(suits)})")
            strains.append(Strain(str(entry["name"]), suits.index(trumps) if trumps in suits else -1))
        names = [s.name for s in strains]
        for index, name in enumerate(names):
            if name in names[:index]:
                self.fail((*path, "strains", index, "name"), "TR307", f"strain '{name}' is named twice")
        if (high - low + 1) * len(strains) > MAX_BIDS:
            self.fail((*path, "levels"), "TR332", f"{(high - low + 1) * len(strains)} bids; an auction holds at most {MAX_BIDS}")
        if raw.get("dummy") and not self.data.get("teams"):
            self.fail((*path, "dummy"), "TR320", "a dummy is the declarer's partner: the spec needs teams")
        kind, seat = self.first(raw, path)
        return AuctionPhase(
            levels=tuple(range(low, high + 1)),
            strains=tuple(strains),
            first=kind,  # type: ignore[arg-type]  # the schema allows only these words
            first_seat=seat,
            doubling=bool(raw.get("doubling", True)),
            declarer=raw.get("declarer", "first_to_name_strain"),
            dummy=bool(raw.get("dummy", False)),
        )

    def taking(self, raw: dict, path: tuple) -> TakePhase:
        """Taking the set-aside cards: in which contracts, in how many groups, how many cards
        are buried, which may not be, and whom they count for."""
        names = list(self.data.get("contracts") or {})
        contracts = []
        for index, name in enumerate(raw.get("contracts") or ()):
            if name in names:
                contracts.append(names.index(name))
            else:
                self.fail((*path, "contracts", index), "TR325", f"no contract '{name}'{did_you_mean(name, names)} (contracts: {', '.join(names) or 'none'})")
        groups_raw = raw.get("groups", 1)
        groups, by_contract = 1, []
        if isinstance(groups_raw, dict):
            for name, count in (groups_raw.get("by_contract") or {}).items():
                if name not in names:
                    self.fail((*path, "groups", "by_contract", name), "TR325", f"no contract '{name}'{did_you_mean(name, names)} (contracts: {', '.join(names) or 'none'})")
                else:
                    by_contract.append((names.index(name), int(count)))
        else:
            groups = int(groups_raw)
        for size in sorted(set(self.hand_sizes)):
            pile = self.deck_size - size * self.players
            if pile <= 0:
                self.fail(path, "TR341", f"no card is set aside: {self.players} hands of {size} take the whole deck of {self.deck_size}")
                break
            bad = [count for count in (groups, *(g for _, g in by_contract)) if pile % count]
            if bad:
                where = (*path, "groups")
                self.fail(where, "TR342", f"the {pile} set-aside cards do not split into {bad[0]} groups of equal size")
                break
        bury = int(raw.get("bury", -1))
        return TakePhase(
            groups=groups,
            groups_by_contract=tuple(by_contract),
            shown=bool(raw.get("shown", False)), bury=bury, hand=bool(raw.get("hand", False)),
            forbid=tuple(c for c in map(self.card_condition, _listed(raw.get("forbid"))) if c is not None),
            buried_count_for=raw.get("buried_count_for", "taker"),
            contracts=tuple(contracts),
        )

    def calling(self, raw: dict, path: tuple) -> CallPhase:
        """A call phase: the cards the declarer may call, in which contracts, and when."""
        names = list(self.data.get("contracts") or {})
        contracts = []
        for index, name in enumerate(raw.get("contracts") or ()):
            if name in names:
                contracts.append(names.index(name))
            else:
                self.fail((*path, "contracts", index), "TR325", f"no contract '{name}'{did_you_mean(name, names)} (contracts: {', '.join(names) or 'none'})")
        cards = []
        for index, name in enumerate(raw.get("cards") or ()):
            if name not in self.card_names:
                self.fail((*path, "cards", index), "TR367", f"no card '{name}' in the deck{did_you_mean(name, list(self.card_names))}")
            elif self.card_names[name] in cards:
                self.fail((*path, "cards", index), "TR367", f"the card '{name}' is listed twice")
            else:
                cards.append(self.card_names[name])
        when = raw.get("when")
        names_read = (*self.constants, *self.counter_names, *contexts.PLAY.names)
        return CallPhase(
            cards=tuple(sorted(cards)),
            contracts=tuple(contracts),
            when=None if when is None else self.expression(when, (*path, "when"), names_read),
        )

    def first(self, raw: dict, path: tuple) -> tuple[str, int]:
        """Who starts a phase (`first`): a word, or ("seat", N) for a seat the table has."""
        first = raw.get("first", "left_of_dealer")
        kind, seat = (first, 0) if isinstance(first, str) else ("seat", int(first["seat"]))
        if seat >= self.players:
            self.fail((*path, "first"), "TR321", f"seat {seat} does not exist with {self.players} players")
        return kind, seat

    def teams(self) -> tuple[tuple[int, ...], ...]:
        raw = self.data.get("teams")
        if not raw or isinstance(raw, dict):  # none, or by the deal (`compile_partners`)
            return ()
        seats = sorted(s for team in raw for s in team)
        if seats != list(range(self.players)):
            self.fail(("teams",), "TR324", f"teams must hold every seat 0..{self.players - 1} exactly once")
        return tuple(tuple(team) for team in raw)

    def direction(self, value: Any, path: tuple) -> int:
        if isinstance(value, int):
            return value
        if value == "across":
            if self.players % 2:
                self.fail(path, "TR321", f"no seat is across the table with {self.players} players")
            return self.players // 2
        if not isinstance(value, str) or value not in DIRECTIONS:  # an option's case the schema never saw
            self.fail(path, "TR204", f"a pass direction is left, right, across, none or a number of seats, not {value!r}")
            return 0
        return DIRECTIONS[value]

    def cards_schedule(self, raw: Any) -> Schedule:
        """A number of cards: one number, by round, or by the number of players."""
        if isinstance(raw, dict) and "by_round" in raw:
            return Schedule(tuple(int(v) for v in raw["by_round"]))
        if isinstance(raw, dict) and "by_players" in raw:
            return Schedule((int(raw["by_players"][str(self.players)]),))
        return Schedule((int(raw),))

    # ------------------------------------------------------------ counters and restrictions

    def counters(self) -> tuple[Counter, ...]:
        result = []
        for name, raw in (self.data.get("counters") or {}).items():
            path = ("counters", name)
            on_play = raw.get("on_play") or {}
            end = raw.get("on_round_end")
            if raw.get("scope") == "team" and not self.data.get("teams"):
                self.fail((*path, "scope"), "TR323", "a team counter needs teams")
            result.append(
                Counter(
                    name=name,
                    scope=raw.get("scope", "table"),
                    reset=raw.get("reset", "round"),
                    initial=int(raw.get("initial", 0)),
                    on_play=self.card_condition(on_play.get("card")) if on_play else None,
                    set_to=int(on_play["set"]) if "set" in on_play else None,
                    add=int(on_play.get("add", 0)),
                    on_round_end=None if end is None else self.expression(
                        end, (*path, "on_round_end"), (*self.play_names(), *self.score_names), self.score_lists()
                    ),
                )
            )
        return tuple(result)

    def restrictions(self) -> tuple[Restriction, ...]:
        result = []
        for index, raw in enumerate(self.data.get("restrictions") or []):
            path = ("restrictions", index)
            when = raw.get("when")
            result.append(
                Restriction(
                    name=raw.get("name", f"restriction {index + 1}"),
                    lead={"leader": True, "followers": False, "all": None}[raw.get("for", "all")],
                    when=None if when is None else self.expression(when, (*path, "when"), self.play_names()),
                    allow=self.card_condition(raw.get("allow")),
                    forbid=self.card_condition(raw.get("forbid")),
                )
            )
        return tuple(result)

    def play_ends(self) -> Expression | None:
        """The condition that ends a round's play early (`play_ends_when`), if any."""
        raw = self.data.get("play_ends_when")
        if raw is None:
            return None
        names = (*self.constants, *self.counter_names, *contexts.PLAY_ENDS.names)
        return self.expression(raw, ("play_ends_when",), names)

    # ------------------------------------------------------------ the end of a game

    def rounds(self) -> tuple[int, Expression | None]:
        raw = self.data.get("rounds", 1)
        if not isinstance(raw, dict):
            return int(raw), None
        until = self.expression(raw["until"], ("rounds", "until"), self.play_names(), self.game_lists())
        return int(raw.get("at_most", 1000)), until

    def fail(self, path: tuple, code: str, message: str) -> None:
        """Add a problem to `found`, at the value of `path` where it is a scalar; compiling
        goes on."""
        file, line, column = self.source.locate((*path, VALUE))  # the value, where it is a scalar
        self.found.append(Problem(code, message, file, line, column, json_path(path)))


def _listed(raw: Any) -> list[Any]:
    """A value written as one item or a list of items, as a list."""
    return [] if raw is None else list(raw) if isinstance(raw, list) else [raw]


def hand_size_schedule(raw: Any, players: int, source: SpecSource) -> Schedule | None:
    """The hand size by round or by chance, or None for one size (a number or by_players)."""
    if not isinstance(raw, dict) or not ({"by_round", "chance"} & set(raw)):
        return None
    chance = "chance" in raw
    spec = raw["chance"] if chance else raw["by_round"]
    if isinstance(spec, list):
        return Schedule(tuple(int(v) for v in spec), chance)
    path = ("deal", "hand_size", "chance" if chance else "by_round", "to")
    try:
        top = int(compile_expression(spec["to"], contexts.HAND_SIZE_RAMP.names, ())({"players": players}))
    except ExpressionError as error:
        file, line, column = source.locate((*path, VALUE))
        raise SpecError([Problem(error.code, error.message, file, line, column + error.column, json_path(path))]) from None
    low = int(spec.get("from", 1))
    values = list(range(low, top + 1))
    if spec.get("and_back"):
        values += values[-2::-1]
    if not values:
        file, line, column = source.locate(path)
        raise SpecError([Problem("TR305", f"no hand size from {low} to {top}", file, line, column, json_path(path))])
    return Schedule(tuple(values), chance, ramp=(low, str(spec["to"]), bool(spec.get("and_back"))))
