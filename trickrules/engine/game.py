"""A game: a compiled ruleset plus the tables the engine reads while it plays.

`load_game` is the entry point: it reads, checks and compiles a spec, and returns a `Game`
whose `new_initial_state(seed)` starts a game. The Game keeps, for every set of trumps it
meets, the counting faces and the follow, ranking and reward functions compiled for them.
"""

from __future__ import annotations

import bisect
import operator
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, SupportsIndex, Union

from trickrules.errors import OutOfRangeError
from trickrules.rules.faces import Faces, counting_faces
from trickrules.rules.follow import LegalCards, TrickLegal, compile_follow, compile_follow_in_trick, free_cards
from trickrules.rules.ranking import TrickWinner, compile_ranking
from trickrules.rules.rewards import TrickRewards, compile_rewards
from trickrules.engine.actions import action_ranges
from trickrules.engine.deals import given_deals
from trickrules.engine.phases import STEPS, blocks as phase_blocks, showing
from trickrules.engine.state import State
from trickrules.engine.tensors import ObservationLayout
from trickrules.rules.cards import card_names
from trickrules.rules.conditions import card_holds, is_static, static_table
from trickrules.rules.ruleset import BidPhase, CardCondition, Deck, FirstLed, Ruleset, TrumpChoice, default_round
from trickrules.rules.scoring import describe_rule


@dataclass(frozen=True)
class GameInfo:
    """Sizes of a game, computed from its ruleset (OpenSpiel's `GameInfo`)."""

    num_players: int
    num_distinct_actions: int
    max_game_length: int
    num_cards: int
    num_rounds: int
    hand_size: int


@dataclass(frozen=True, slots=True)
class TrickTables:
    """Everything the engine needs per trick, compiled for one set of trumps."""

    faces: Faces
    legal_follow: LegalCards
    trick_winner: TrickWinner
    trick_rewards: TrickRewards | None
    restrictions: tuple[tuple[Restricting, ...], tuple[Restricting, ...]] = ((), ())
    """The play restrictions that bind a follower, and those that bind the leader, each as (its
    `when` function or None, True for `allow` and False for `forbid`, the cards its condition
    matches: a set, or for a condition that reads the trick (led) a function of the card and
    the led group)."""
    on_play: tuple[tuple[int, ...], ...] | None = None
    """By card: the counters that playing it changes (None: no counter changes on a play)."""
    follow_in_trick: TrickLegal | None = None
    """The follow rules that read the trick as it stands, with the others (None: no rule reads it)."""
    free: frozenset[int] = frozenset()
    """The cards free of every follow rule (`exempt`): led, they set no led group."""
    kept: frozenset[int] = frozenset()
    """The cards that go back to their owner's won cards (`kept_cards`)."""
    exchange: frozenset[int] = frozenset()
    """The won cards an owner of a kept card gives in exchange for it."""


Matching = Union[frozenset[int], Callable[[int, int], bool]]
Restricting = tuple[Union[Callable[[Mapping[str, Any]], Any], None], bool, Matching]


def _matching_cards(condition: CardCondition | None, deck: Deck, faces: Faces) -> frozenset[int]:
    """The cards a condition of the card alone matches (none for no condition)."""
    return frozenset() if condition is None else frozenset(c for c, hit in enumerate(static_table(condition, deck, faces)) if hit)


def _matching(condition: CardCondition | None, deck: Deck, faces: Faces) -> Matching:
    """The cards a restriction's condition matches: a set, or a test of (card, led group)."""
    if condition is None or is_static(condition):
        return frozenset(c for c, hit in enumerate(static_table(condition, deck, faces)) if hit)
    return lambda card, led: card_holds(condition, card, deck, faces, led=led)


class Game:
    """A ruleset ready to play: action numbering, game info and per-trumps tables.

    Actions are integers in blocks, one per kind of decision (`action_ranges`, laid out by
    `trickrules.engine.actions`): ``card`` plays a card, ``N + card`` places a won card on the
    tableau, ``2N + section`` places a token on a section, ``2N + S + suit`` chooses a trump
    suit, then passes, bids, a passed turn, discards, going alone and contracts, for the games
    that ask them (N cards, S sections, U suits).
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset: Ruleset = ruleset
        self.num_players = ruleset.players
        self.num_cards: int = len(ruleset.deck.cards)
        self.num_sections: int = len(ruleset.tableau.sections) if ruleset.tableau else 0
        self.steps = ruleset.round or default_round(ruleset.trumps)
        self.constants = dict(ruleset.constants)
        self.scores_expressions = any(r.kind == "expression" for r in ruleset.scoring.round_rules)
        self.counters_reading_trick = frozenset(
            i for i, c in enumerate(ruleset.counters) if c.on_play is not None and not is_static(c.on_play)
        )
        self.player_counters = tuple((c.name, c.scope) for c in ruleset.counters if c.scope != "table")
        self.counts_round_end = any(c.on_round_end is not None for c in ruleset.counters)
        self.team_envs_only = self.scores_expressions and not self.counts_round_end and all(
            r.per == "team" for r in ruleset.scoring.round_rules if r.kind == "expression"
        )
        """Scoring reads only teams' names: each team's names start from its first seat's."""
        read = [r.expression for r in ruleset.scoring.round_rules] + [c.on_round_end for c in ruleset.counters]
        self.scoring_reads = tuple(sorted(frozenset().union(*[e.names for e in read if e is not None])))
        """Every name the round's scoring expressions and round-end counters read."""
        self.partner_rewards = any(r.winner_is_partner is not None for r in ruleset.rewards)
        """Some reward reads whether a loser is on the winner's side (`Reward.winner_is_partner`)."""
        self.team_of = tuple(next(i for i, team in enumerate(ruleset.teams) if p in team) for p in range(ruleset.players)) if ruleset.teams else ()
        self.passes: bool = any(step.kind == "pass" for step in self.steps)
        self.bidding: BidPhase | None = next((step.bidding for step in self.steps if step.bidding is not None), None)
        self.num_bids: int = self._most_bid() + 1 if self.bidding is not None else 0
        allow = self.bidding.allow if self.bidding is not None else None
        self.bid_reads = tuple(sorted(allow.names - {"bid"})) if allow is not None else ()
        """The names the bid phase's `allow` reads besides the bid itself."""
        self.bid_allowed: dict[tuple[Any, ...], tuple[int, ...]] = {}
        """Legal bids by the bid range and the values of `bid_reads` (see phases.bid)."""
        trumps = ruleset.trumps
        self.trump_choice = trumps if isinstance(trumps, TrumpChoice) else None
        """How trumps are chosen, when they are (read per action while choosing)."""
        self.num_suits = len(ruleset.deck.suits)
        self.chooses_in_rounds = isinstance(trumps, TrumpChoice) and bool(trumps.rounds)
        self.trumps_first_led = isinstance(trumps, FirstLed)
        self.discards: bool = self.chooses_in_rounds and any(r.dealer_takes_turned_up for r in trumps.rounds)  # type: ignore[union-attr]
        self.goes_alone: bool = any(step.kind == "go_alone" for step in self.steps)
        self.declares: bool = any(step.kind == "declare" for step in self.steps)
        self.turn_passes: bool = self.chooses_in_rounds or self.declares or any(
            step.bidding is not None and step.bidding.bidding == "precedence" for step in self.steps)
        self.contract_names: tuple[str, ...] = tuple(c.name for c in ruleset.contracts)
        self.contract_games = tuple(Game(c.ruleset) for c in ruleset.contracts)
        self.next_seats = tuple((p + 1) % self.num_players for p in range(self.num_players))
        self.own_seats = tuple(range(self.num_players))  # every seat chooses its own cards
        sections = ruleset.tableau.sections if ruleset.tableau else ()
        self.tokens_needed = tuple(s.tokens_needed for s in sections)
        scoring = ruleset.scoring
        self.measure_names = tuple(m.name for m in scoring.measures)
        self.rule_labels = tuple(describe_rule(r, scoring.measures) for r in scoring.round_rules)
        self.won_to_pile = ruleset.won_cards == "pile"
        self.takes_set_aside_in_play = bool(ruleset.set_aside_per_trick or ruleset.called_takes_set_aside)
        self.has_tokens = bool(ruleset.tokens)
        naming = showing("names")
        self.naming = tuple([kind for kind in [STEPS.get(step.kind) for step in self.steps] if kind in naming])
        """The round's kinds of phase that give scoring expressions names (`PhaseKind.names`)."""
        self.card_ids: tuple[str, ...] = tuple(card.id for card in ruleset.deck.cards)
        self._card_index = card_names(ruleset.deck)  # ids, and ids with rank numbers
        self.action_ranges = action_ranges(self, phase_blocks())
        """Each kind of decision's block of action integers, in numbering order (`engine.actions`)."""
        self.action_start: dict[str, int] = {r.kind: r.start for r in self.action_ranges}
        """Where each block of actions starts, by its name."""
        start = self.action_start
        self.place_offset, self.token_offset, self.trump_offset = start["place"], start["token"], start["trumps"]
        self.pass_offset, self.bid_offset, self.discard_offset = start["pass"], start["bid"], start["discard"]
        self.choose_pass_action = start["pass a turn"]  # 'pass' while choosing trumps or declaring
        self.alone_offset, self.contract_offset = start["alone"], start["contract"]
        self.end_offset = self.action_ranges[-1].start + self.action_ranges[-1].size
        self._used_ranges = tuple(r for r in self.action_ranges if r.size)
        self._range_starts = [r.start for r in self._used_ranges]
        self._tables: dict[frozenset[int], TrickTables] = {}
        self._layout: ObservationLayout | None = None

    def _most_bid(self) -> int:
        """The largest bid any round allows: `highest` at the largest hand size."""
        assert self.bidding is not None
        env = {**self.constants, "hand_size": self.ruleset.deal.hand_size, "players": self.num_players}
        env.update({c.name: c.initial for c in self.ruleset.counters})
        return int(self.bidding.highest(env))

    def __repr__(self) -> str:
        return f"<Game {self.ruleset.id} players={self.num_players}>"

    def __reduce__(self) -> tuple[type[Game], tuple[Ruleset]]:
        """Pickle as the ruleset: the rest, trick tables included, is built from it again."""
        return (Game, (self.ruleset,))

    # ------------------------------------------------------------ tables

    def tables(self, trumps: frozenset[int]) -> TrickTables:
        """The trick tables for `trumps`, compiled on first use."""
        tables = self._tables.get(trumps)
        if tables is None:
            tables = self._compile_tables(trumps)
            self._tables[trumps] = tables
        return tables

    def _compile_tables(self, trumps: frozenset[int]) -> TrickTables:
        rules, deck = self.ruleset, self.ruleset.deck
        faces = counting_faces(deck, trumps)
        rewards = compile_rewards(rules.rewards, deck, faces) if rules.rewards else None
        compiled = [
            (r.lead, (None if r.when is None else r.when.function, r.allow is not None, _matching(r.allow or r.forbid, deck, faces)))
            for r in rules.restrictions
        ]
        restrictions = (
            tuple(rule for lead, rule in compiled if lead is not True),  # bind a follower
            tuple(rule for lead, rule in compiled if lead is not False),  # bind the leader
        )
        on_play = None
        if any(c.on_play is not None for c in rules.counters):
            # the card-only part here; a part that reads the trick (led) is checked in play
            tables = [(i, static_table(c.on_play, deck, faces)) for i, c in enumerate(rules.counters) if c.on_play]
            on_play = tuple(tuple(i for i, hit in tables if hit[card]) for card in range(self.num_cards))
        return TrickTables(
            faces=faces,
            legal_follow=compile_follow(rules.follow, faces, deck),
            follow_in_trick=compile_follow_in_trick(rules.follow, faces, rules.deck),
            trick_winner=compile_ranking(rules.ranking, deck, faces),
            trick_rewards=rewards,
            restrictions=restrictions,
            on_play=on_play,
            free=free_cards(rules.follow, deck, faces),
            kept=_matching_cards(rules.kept.cards if rules.kept else None, deck, faces),
            exchange=_matching_cards(rules.kept.exchange if rules.kept else None, deck, faces),
        )

    # ------------------------------------------------------------ the state API

    def new_initial_state(self, seed: SupportsIndex | None = 0, record: bool = False, deal: Any = None) -> State:
        """A new game, shuffled and dealt from `seed`; `record` keeps an event log.

        `seed` is an integer (numpy integers too); None draws a fresh random seed, which the
        state keeps (``state.seed``, and a record's ``seed``) so that the game replays. Any
        other seed (text, a float, a bool) is a `TypeError`.

        `deal` gives the deal instead: a mapping with each player's hand (``hands``: lists of
        card ids) and any chance outcome of the round (e.g. ``pass: left``), or a list of such
        mappings, one per round from the first; rounds past the list are dealt from `seed`.
        A bad deal raises `trickrules.errors.DealError`.
        """
        # SupportsIndex, not int: the compiled engine checks declared types on entry, and the
        # checks below give the error that names the argument (numpy integers pass)
        return State(self, as_seed(seed), record, deals=given_deals(self, deal) if deal is not None else ())

    def info(self) -> GameInfo:
        """Numbers of players and actions, and an upper bound on the game's length."""
        rules = self.ruleset
        deal = rules.deal.hand_size * self.num_players
        per_round = deal + (1 if isinstance(rules.trumps, TrumpChoice) else 0)
        if isinstance(rules.trumps, TrumpChoice):
            per_round += self.num_players * len(rules.trumps.rounds) + int(self.discards) + int(self.goes_alone)
        if self.declares:
            per_round += self.num_players
        for step in self.steps:
            if step.passing is not None:
                per_round += max(step.passing.cards.values) * self.num_players
            if step.bidding is not None:
                per_round += self.num_players
        for step in self.steps:  # the kinds of phase that count their own decisions
            kind = STEPS.get(step.kind)
            per_round += kind.most_decisions(self, step) if kind is not None else 0
        if rules.won_cards == "tableau":
            per_round += deal
        if rules.tableau is not None and rules.tableau.token is not None:
            per_round += sum(s.tokens_needed for s in rules.tableau.sections) * self.num_players
        return GameInfo(
            num_players=self.num_players,
            num_distinct_actions=self.end_offset,
            max_game_length=per_round * rules.rounds,
            num_cards=self.num_cards,
            num_rounds=rules.rounds,
            hand_size=rules.deal.hand_size,
        )

    def num_distinct_actions(self) -> int:
        """Number of distinct action integers."""
        return self.info().num_distinct_actions

    def observation_layout(self) -> ObservationLayout:
        """The named segments of `State.observation_tensor`, laid out from the spec once."""
        if self._layout is None:
            self._layout = ObservationLayout(self)
        return self._layout

    def observation_tensor_size(self) -> int:
        """The length of every observation tensor of this game (OpenSpiel's name)."""
        return self.observation_layout().size

    def observation_tensor_shape(self) -> list[int]:
        """The shape of an observation tensor: one flat axis (OpenSpiel's name)."""
        return [self.observation_layout().size]

    # ------------------------------------------------------------ text forms

    def card_index(self, card_id: str) -> int:
        """The index of the card with id `card_id`, written with rank names or numbers
        (``spades-Q`` or ``spades-12``); KeyError if there is none."""
        return self._card_index[card_id]

    def action_to_string(self, action: int) -> str:
        """The one text form of an action, e.g. ``play red-5``, ``token C``, ``trumps blue``."""
        if not 0 <= action < self.end_offset:
            raise OutOfRangeError(f"no action {action!r} in this game (actions are 0 to {self.num_distinct_actions() - 1})")
        block = self._used_ranges[bisect.bisect_right(self._range_starts, action) - 1]
        return block.text(action - block.start)

    def string_to_action(self, text: str) -> int:
        """Parse the text form of an action back to its integer (ValueError if unknown)."""
        verb, _, rest = text.strip().partition(" ")
        rest = rest.strip()
        for block in self._used_ranges:
            try:
                index = block.parse(verb, rest)
            except (KeyError, ValueError):
                continue
            if 0 <= index < block.size:
                return block.start + index
        raise ValueError(f"not an action of this game: {text!r}")


def as_seed(seed: Any, name: str = "seed") -> int:
    """`seed` as an int: an integer (numpy integers too) as it is, None a fresh random seed;
    `TypeError` naming `name` for anything else (text, floats, bools)."""
    if seed is None:
        return secrets.randbits(63)
    if not isinstance(seed, bool) and type(seed).__name__ != "bool_":
        try:
            return operator.index(seed)
        except TypeError:
            pass
    shown = repr(seed) if len(repr(seed)) <= 40 else repr(seed)[:37] + "..."
    raise TypeError(f"{name} must be an integer, or None for a fresh random one, not {type(seed).__name__} ({shown})")


def load_game(
    spec: str | os.PathLike[str] | Ruleset,
    players: SupportsIndex | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Load a spec file (or take a compiled ruleset) and return a playable `Game`.

    A `spec`, `players` or `options` of the wrong type is a `TypeError` naming the argument;
    `players` or `options` given with a compiled ruleset that has others, a `ValueError`.

    >>> game = load_game("specs/kingdoms.yaml", players=4, options={"rounds": "2"})
    >>> state = game.new_initial_state(seed=7)
    """
    from trickrules.spec.loader import checked_options, checked_players, checked_spec, load_ruleset

    players, options = checked_players(players), checked_options(options)
    if isinstance(spec, Ruleset):
        if players is not None and players != spec.players:
            raise ValueError(f"load_game: the ruleset is compiled for {spec.players} players, not players={players}")
        if options:
            raise ValueError("load_game: a compiled ruleset has its options already: load the spec with options=")
        return Game(spec)
    return Game(load_ruleset(checked_spec(spec, ruleset=True), players=players, options=options))
