"""The compiled ruleset: a spec's rules as frozen, typed data.

A `Ruleset` is what the compiler makes of a checked spec for one player count and one set of option values. Suits, attributes,
sections, tokens and measures are referred to by index, so the engine never looks a name up while a game runs. Everything here
is pure data (comparable, hashable); `Game` compiles it."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any, Final, Literal, Union

from trickrules.rules.declaring import DeclarePhase
from trickrules.rules.expressions import Expression
from trickrules.rules.kept import KeptCards
from trickrules.rules.measures import Holding, Measure

TRUMP_GROUP: Final = -1
"""The follow group of every card whose counting suit is a trump."""
FIRST_BIDDER: Final = -2  # a bid phase's `precedence_seat` that stands for the first to bid (Skat's forehand)


# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class DealCondition:
    """A condition on the deal's state, used to choose a card's counting face.

    Every field that is set must hold (`None` means "not asked").
    """

    trump: bool | None = None
    trumps_include: int | None = None
    no_trumps: bool | None = None
    negate: DealCondition | None = None
    all_of: tuple[DealCondition, ...] = ()
    any_of: tuple[DealCondition, ...] | None = None


@dataclass(frozen=True)
class AttributeTest:
    """A test on one numeric card attribute."""

    attribute: int
    at_least: int | None = None
    at_most: int | None = None
    equals: int | None = None


@dataclass(frozen=True)
class TrickCondition:
    """A condition on the whole trick, an expression of the trick's names (`rules.whole_trick`);
    `ranking` orders the trick for `place`, `constants` are the option values it may read."""

    expression: Expression
    ranking: tuple[RankingStep, ...] = ()
    constants: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class CardCondition:
    """A condition on a played card (its counting face) and, in rewards and ranking, on the
    trick (`trick`: the whole trick, once complete).

    Every field that is set must hold (`None` means "not asked").
    """

    ranks: frozenset[int] | None = None
    suits: frozenset[int] | None = None
    trump: bool | None = None
    led: bool | None = None
    attribute: AttributeTest | None = None
    same_suit_as_winner: bool | None = None
    winner: CardCondition | None = None
    trick: TrickCondition | None = None
    negate: CardCondition | None = None
    all_of: tuple[CardCondition, ...] = ()
    any_of: tuple[CardCondition, ...] | None = None


# ---------------------------------------------------------------- deck


def face_id(suit: str, rank: int, rank_names: Mapping[str, str] | None = None) -> str:
    """The id part of one face, ``<suit>-<rank>`` with the rank's display name if it has one
    (``red-5``, ``hearts-Q``); a card's id joins its faces' ids with ``/``."""
    name = (rank_names or {}).get(str(rank), rank)
    return f"{suit}-{name}"


@dataclass(frozen=True)
class Face:
    """One face of a card: a suit (by index) and a rank, counting while `when` holds."""

    suit: int
    rank: int
    when: DealCondition | None = None


@dataclass(frozen=True)
class Card:
    """A card of the deck: a stable id, its faces in order, its attribute values."""

    index: int
    id: str
    faces: tuple[Face, ...]
    attributes: tuple[int, ...]


@dataclass(frozen=True)
class Deck:
    """Suits, attribute names, rank display names and every card of the deck."""

    suits: tuple[str, ...]
    attributes: tuple[str, ...]
    cards: tuple[Card, ...]
    rank_names: tuple[tuple[int, str], ...] = ()
    suit_rank_names: tuple[tuple[int, tuple[tuple[int, str], ...]], ...] = ()  # by suit index: names over rank_names
    columns: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        # attribute values by attribute, then card: what scoring sums up
        columns = tuple(tuple(card.attributes[a] for card in self.cards) for a in range(len(self.attributes)))
        object.__setattr__(self, "columns", columns)

    def rank_name(self, rank: int, suit: int = -1) -> str:
        """The display name of a rank (of `suit`, where it names its own ranks; its number
        unless `rank_names` names it)."""
        for index, names in self.suit_rank_names:
            if index == suit:
                for value, name in names:
                    if value == rank:
                        return name
        for value, name in self.rank_names:
            if value == rank:
                return name
        return str(rank)

    def face_text(self, face: Face) -> str:
        """A face as text, e.g. ``red 5``."""
        return f"{self.suits[face.suit]} {self.rank_name(face.rank, face.suit)}"


# ---------------------------------------------------------------- deal and trumps


@dataclass(frozen=True)
class Deal:
    """How each round is dealt and who leads."""

    hand_size: int
    dealer_first: int = 0
    dealer_rotation: int = 1
    first_leader: Literal["left_of_dealer", "dealer", "left_of_declarer", "declarer", "seat", "holder"] = "left_of_dealer"
    first_leader_seat: int = 0
    first_leader_card: int = 0  # with "holder": the card whose holder leads
    hand_sizes: Schedule | None = None  # by round or by chance; hand_size is then the largest
    dealer_random: bool = False  # the dealer of each round is drawn at random
    first_stage: int = 0  # dealt in two stages: this many cards each at the deal, the rest (to hand_size) at complete_deal


@dataclass(frozen=True)
class ChooseRound:
    """One round of choosing trumps in turn: each player passes or names a suit.

    `suits`: ``turned_up`` (only the turned-up card's suit), ``others`` (any but that one) or
    ``listed`` (`listed`). With `dealer_must_choose` the dealer, last in the round, may not
    pass. A choice here may make the dealer take the turned-up card and discard one
    (`may_discard_turned_up`: whether it may be that card), or the chooser take it, no discard.
    """

    suits: Literal["turned_up", "others", "listed"] = "listed"
    listed: tuple[int, ...] = ()
    dealer_must_choose: bool = False
    dealer_takes_turned_up: bool = False
    may_discard_turned_up: bool = True
    declarer_takes_turned_up: bool = False


@dataclass(frozen=True)
class TrumpChoice:
    """Trumps are chosen at the start of each round: one player picks a suit from
    `candidates`, or, with `rounds`, the players in turn from `by` pass or choose, round after
    round; whoever chooses is the round's declarer. When everyone passes in every round the
    round is scored without play."""

    by: Literal["dealer", "left_of_dealer", "declarer"]  # declarer: the winner of a bid phase before (else the dealer)
    candidates: tuple[int, ...]
    rounds: tuple[ChooseRound, ...] = ()


@dataclass(frozen=True)
class TurnedUp:
    """The suit of the card turned up after the deal is trump (none if no card is left)."""


@dataclass(frozen=True)
class FirstLed:
    """The suit of the round's first card led is trump for the rest of the round (none before)."""


Trumps = Union[frozenset[int], TrumpChoice, TurnedUp, FirstLed]


# ---------------------------------------------------------------- follow and ranking


@dataclass(frozen=True)
class FollowRule:
    """One follow rule; `kind` names an entry of `trickrules.rules.follow`'s tables; with
    `unless_partner_winning` it binds only while no partner is winning."""

    kind: str
    unless_partner_winning: bool = False
    condition: CardCondition | None = None  # play_if_able: the cards it asks for; exempt: the cards free of every rule


@dataclass(frozen=True)
class RankingStep:
    """One step of the trick-ranking ladder.

    kind: ``prefer`` (keep the cards matching `condition`, or the trump / led group),
    ``highest`` / ``lowest`` (by rank, or by `attribute` when set), ``order`` (keep the cards
    whose rank comes last in an order), ``first_played`` / ``last_played`` (the final tie-break).
    An order is a list of (condition, ((rank, place), ...)): the first entry whose condition
    holds (None: always) gives a card its place, from 1 up; a rank it does not list, place 0.
    """

    kind: Literal["prefer", "highest", "lowest", "order", "first_played", "last_played"]
    group: Literal["trump", "led", "condition", ""] = ""
    condition: CardCondition | None = None
    attribute: int | None = None
    order: tuple[tuple[CardCondition | None, tuple[tuple[int, int], ...]], ...] = ()


# ---------------------------------------------------------------- rewards and tokens


@dataclass(frozen=True)
class Amount:
    """How many tokens or points a reward gives, read off the subject card's counting face."""

    constant: int = 0
    by_rank: tuple[tuple[int, int], ...] | None = None
    attribute: int | None = None


@dataclass(frozen=True)
class Reward:
    """A trick reward: tokens or points to the winner, or to each loser whose card matches."""

    name: str
    to: Literal["winner", "losers"]
    when: CardCondition | None
    token: int | None  # None: points
    amount: Amount
    winner_is_partner: bool | None = None  # the subject card's player is (not) on the winner's side


UNLIMITED: Final = -1


@dataclass(frozen=True)
class TokenKind:
    """A kind of token: its supply for this player count and where gained tokens go."""

    name: str
    supply: int  # UNLIMITED or a count
    to: Literal["player", "tableau"] = "player"
    when_no_space: Literal["stays_in_supply", "lost"] = "stays_in_supply"
    plural: str | None = field(default=None, compare=False)
    """The name for any count but one, as logs and rulebooks print it; None: the name itself.
    Only words: it changes no rule (nor the rules' digest)."""

    @property
    def many(self) -> str:
        """The name for any count but one: `plural`, or the name as the spec gives it."""
        return self.plural if self.plural is not None else self.name


# ---------------------------------------------------------------- tableau


@dataclass(frozen=True)
class Section:
    """A section of a player's tableau: tokens it needs (and spaces it has), printed value."""

    name: str
    tokens_needed: int = 0
    value: int = 0


@dataclass(frozen=True)
class SectionValue:
    """What a section scores in one of its four cases.

    kind: ``top_rank``, ``sum_ranks``, ``card_count``, ``value`` (printed), ``constant``,
    ``per_missing_token`` (`number` per missing token).
    """

    kind: Literal["top_rank", "sum_ranks", "card_count", "value", "constant", "per_missing_token"]
    number: int = 0


@dataclass(frozen=True)
class Tableau:
    """The sections in front of each player where won cards and tokens go."""

    sections: tuple[Section, ...]
    token: int | None
    cards_staffed: SectionValue = SectionValue("top_rank")
    cards_understaffed: SectionValue = SectionValue("constant", 0)
    empty_staffed: SectionValue = SectionValue("value")
    empty_understaffed: SectionValue = SectionValue("constant", 0)


# ---------------------------------------------------------------- scoring


@dataclass(frozen=True)
class RankKey:
    """One key of an award's ranking: most or fewest of a measure."""

    measure: int
    most: bool = True


@dataclass(frozen=True)
class PointRule:
    """A round's point rule: add a measure (times a factor), or award points to the best."""

    kind: Literal["add", "award", "expression"]
    measure: int = 0
    times: int = 1
    points: int = 0
    keys: tuple[RankKey, ...] = ()
    expression: Expression | None = None
    name: str = ""
    per: Literal["player", "team"] = "player"  # an expression rule for each player, or each team


@dataclass(frozen=True)
class Scoring:
    """Measures, the round's point rules and how the game's winner is found."""

    measures: tuple[Measure, ...]
    round_rules: tuple[PointRule, ...]
    winner: Literal["most_points", "fewest_points"] = "most_points"
    pool: bool = True  # partners pool their points; False: each keeps its own (a team rule gives each seat its points)


# ---------------------------------------------------------------- phases of a round, counters, restrictions


@dataclass(frozen=True)
class Schedule:
    """A value that may change from round to round.

    `values[round % len(values)]` in round `round` (a constant is a schedule of one value);
    with `chance`, one of `values` is drawn at random, each as likely, at the start of a round.
    """

    values: tuple[Any, ...]
    chance: bool = False
    ramp: tuple[int, str, bool] | None = field(default=None, compare=False)
    """The range it was written as (from, the `to` expression, and back), if it was one."""

    def at(self, round_number: int) -> Any:
        """The value in round `round_number` (counted from 0); not for a chance schedule."""
        return self.values[round_number % len(self.values)]


@dataclass(frozen=True)
class PassPhase:
    """Each player passes cards to another; the cards arrive once everyone has passed.

    `to` holds seat offsets (1: to the left, players - 1: to the right, 0: no passing) and
    `to_names` their words; players pass in seat order from `first`.
    """

    cards: Schedule
    to: Schedule
    to_names: tuple[str, ...]
    first: Literal["left_of_dealer", "dealer", "seat"] = "left_of_dealer"
    first_seat: int = 0


@dataclass(frozen=True)
class BidPhase:
    """Each player bids once, in seat order from `first`: a number from `lowest` to `highest`
    (an expression of `hand_size` and `players`), where `allow` holds for the candidate.
    `names` gives some values a word (0: nil); `allow` reads `bid` (the candidate), `hand_size`,
    `players`, `bids_total` and `bids_made` (so far), `last` (the last to bid), `partner_bid`
    (-1 while the partner has not bid, or without teams), options and counters."""

    lowest: int
    highest: Expression
    allow: Expression | None = None
    names: tuple[tuple[int, str], ...] = ()
    first: Literal["left_of_dealer", "dealer", "seat"] = "left_of_dealer"
    first_seat: int = 0
    bidding: Literal["once", "precedence"] = "once"  # precedence: bid up until one is left (see `phases.bid`)
    precedence_seat: int = -1  # by precedence: the seat that may match any bid, then those after it (-1: none; FIRST_BIDDER)
    speaking: Literal["in_turn", "duels"] = "in_turn"  # by precedence: round the table, or two at a time (see `phases.bid`)

    def name(self, value: int) -> str:
        """A bid's word: its name, else the number."""
        return dict(self.names).get(value, str(value))


@dataclass(frozen=True)
class RoundStep:
    """One phase of a round, in order: deal, the steps of kinds of phase, play, score."""
    kind: str  # deal, score, or the step of a kind of phase (`trickrules.engine.phases.STEPS`)
    passing: PassPhase | None = None
    bidding: BidPhase | None = None
    declaring: DeclarePhase | None = None
    rules: Any = None  # the step's own rules, for kinds of phase added since language 2


@dataclass(frozen=True)
class Counter:
    """A named value per table or per player, read by expressions.

    It starts at `initial` each round (`reset: round`) or once a game (`reset: game`). When a
    card matching `on_play` is played, the counter (the player's own, for a player counter) is
    set to `set_to`, or raised by `add`; at the end of each round `on_round_end` (evaluated
    for each player, for a player counter) is added to it.
    """

    name: str
    scope: Literal["table", "player", "team"] = "table"
    reset: Literal["round", "game"] = "round"
    initial: int = 0
    on_play: CardCondition | None = None
    set_to: int | None = None
    add: int = 0
    on_round_end: Expression | None = None


@dataclass(frozen=True)
class Restriction:
    """A play restriction: narrows the legal cards while `when` holds.

    `allow` keeps only the cards that match it; `forbid` takes away those that match it. When
    nothing would be left, the restriction does not apply ("unless the hand holds nothing
    else"). `lead`: True for the leader only, False for the followers only, None for both.
    """

    name: str
    lead: bool | None = None
    when: Expression | None = None
    allow: CardCondition | None = None
    forbid: CardCondition | None = None


# ---------------------------------------------------------------- the whole ruleset


@dataclass(frozen=True)
class Ruleset:
    """Every rule of a spec, compiled for one player count and one set of options."""

    id: str
    title: str
    description: str
    version: str
    players: int
    allowed_players: tuple[int, ...]
    options: tuple[tuple[str, object], ...]
    deck: Deck
    deal: Deal
    rounds: int
    trumps: Trumps
    follow: tuple[FollowRule, ...]
    ranking: tuple[RankingStep, ...]
    rewards: tuple[Reward, ...]
    tokens: tuple[TokenKind, ...]
    won_cards: Literal["pile", "tableau"]
    tableau: Tableau | None
    scoring: Scoring
    round: tuple[RoundStep, ...] = ()
    counters: tuple[Counter, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    until: Expression | None = None  # with it, `rounds` is the cap on rounds
    play_ends_when: Expression | None = None  # checked after each trick: the play ends when it holds
    open_hand: bool = False  # the declarer's hand lies open on the table from the start of the play
    set_aside_per_trick: int = 0  # the winner of each trick takes this many set-aside cards, while any are left
    called_takes_set_aside: bool = False  # a trick won by the called card, which lay aside, takes the rest
    kept: KeptCards | None = None  # cards that go back to their owner's won cards (`kept_cards`)
    constants: tuple[tuple[str, object], ...] = ()  # option values as expressions read them
    teams: tuple[tuple[int, ...], ...] = ()  # partnerships: seats of each team; () for none
    partner_cards: tuple[int, ...] = ()  # teams by the deal: the holders of these cards against the rest
    contracts: tuple[Contract, ...] = ()
    declarer_alone: bool = False  # in a contract: the declarer plays against all the others
    definitions: tuple[tuple[str, str], ...] = field(default=(), compare=False)  # `define`, as written
    source_file: str = field(default="", compare=False)
    source_digest: str = field(default="", compare=False)

    def option(self, name: str) -> object:
        """The value of option `name` in this ruleset."""
        return dict(self.options)[name]


@dataclass(frozen=True)
class Contract:
    """A named partial spec (trumps, ranking, follow, restrictions, scoring, teams) that a
    declare phase applies to one round, compiled merged over the whole spec."""

    name: str
    description: str
    ruleset: Ruleset


def default_round(trumps: Trumps) -> tuple[RoundStep, ...]:
    """The phases of a round when the spec lists none: deal, (turn up), (choose trumps), play, score."""
    choose = (RoundStep("choose_trumps"),) if isinstance(trumps, TrumpChoice) else ()
    turn = (RoundStep("turn_up"),) if isinstance(trumps, TurnedUp) else ()
    return (RoundStep("deal"), *turn, *choose, RoundStep("play"), RoundStep("score"))
