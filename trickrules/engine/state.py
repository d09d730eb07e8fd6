"""The game state: what every phase shares, and the state API in OpenSpiel's words.

A round runs through phases (`trickrules.engine.phases`, one module each): pass cards, bid,
choose trumps, declare, play tricks, and after each trick place gained tokens and won cards
on the tableau. Dealing, resolving a trick and scoring need no decision and happen inside
`apply_action`. Every decision a player makes is an action; forced ones (one legal choice)
are applied by the engine itself. `State` holds what the whole table shares (hands, the
trick, won cards, the tableau, scores, trumps, the declarer, who sits out and so whose turn
follows whose); each phase keeps its own part in `parts`, a small dataclass per kind.
The state waits in one kind of phase (`_kind`) and asks it about every decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from trickrules.engine import views
from trickrules.engine import cloning, partners, refusals, resample, round_end
from trickrules.engine.deals import GivenDeal, deal_order, deal_round
from trickrules.engine.phases import PARTS, TERMINAL_PLAYER, Phase, new_round, play, start_next_step
from trickrules.engine.phases.kinds import TERMINAL_KIND, PhaseKind, enter
from trickrules.errors import GameNotOverError
from trickrules.rules.placement import NO_SUIT
from trickrules.rules.scoring import PlayerRound, RoundScore, game_winners, held

if TYPE_CHECKING:
    from trickrules.engine.game import Game, Matching, TrickTables

__all__ = ["TERMINAL_PLAYER", "Phase", "State", "deal_order"]


_FIELDS: Final = (
    "_active", "_env", "_kind", "_legal", "_round_dicts", "_round_scores", "_step", "bonus",
    "counters", "current", "dealer", "dealt", "deals", "deciders", "declarer", "events",
    "game", "given", "hand_size", "hands", "history", "leader", "led", "next_seat",
    "num_players", "parts", "piles", "play_game", "pool",
    "round", "round_teams", "section_suits", "section_tokens", "seed", "set_aside",
    "sitting_out", "stacks", "stock", "tables", "totals", "trick",
    "trick_players", "trick_size", "tricks", "tricks_played", "tricks_won", "trumps",
)
"""Every field of a `State` (its slots): what `clone` copies and a pickle keeps."""


class State:
    """One game in progress. Create it with `Game.new_initial_state(seed)`."""

    __slots__ = _FIELDS  # not a per-instance dict: attribute reads stay fast with this many fields

    # set by the deal (see `trickrules.engine.deals.deal_round`)
    given: GivenDeal | None  # the round's given deal, if any
    dealer: int
    hands: list[list[int]]
    set_aside: list[int]
    stock: list[int]
    dealt: tuple[tuple[int, ...], ...]  # each seat's hand as dealt, then the cards dealt to no one
    _kind: PhaseKind  # the kind of phase the game waits in (see `trickrules.engine.phases`)

    def __init__(
        self, game: Game, seed: int = 0, record: bool = False, _empty: bool = False, deals: tuple[GivenDeal, ...] = ()
    ) -> None:
        self.game = game
        self.seed = seed
        self.events: list[dict[str, Any]] | None = [] if record else None
        if _empty:
            return
        n = game.num_players
        self.round = 0
        self.hand_size = game.ruleset.deal.hand_size  # of this round (see deals.deal_round)
        self.num_players = n
        self.totals = [0] * n
        self.history: list[int] = []
        self._round_scores: list[tuple[int, RoundScore, tuple[int, ...], list[int], Game]] = []
        self._round_dicts: list[dict[str, Any]] = []
        self.deals = deals
        self.counters: dict[str, Any] = {}
        self.parts: list[Any] = [None] * PARTS  # each phase's own part (a small dataclass with copy()), by Phase number
        self._env: dict[int, dict[str, Any]] | None = None  # by player, see `env`
        self._active: dict[int, tuple[tuple[bool, Matching], ...]] | None = None  # see play.active_restrictions
        self.reset_counters("game")
        self._start_round()

    # ------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        game, rules = self.game, self.game.ruleset
        n = game.num_players
        self.play_game = game  # the game whose rules play and score this round (a contract's, once declared)
        self.given = self.deals[self.round] if self.round < len(self.deals) else None
        deal_round(self)
        self.dealt = (*[tuple(hand) for hand in self.hands], tuple(self.set_aside))  # read by scoring alone
        if self.events is not None:
            self.log("deal", dealer=self.dealer, hands=[list(h) for h in self.hands], set_aside=list(self.set_aside))
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.tricks_played = 0
        self.bonus = [0] * n
        sections = game.num_sections
        self.stacks: list[list[list[int]]] = [[[] for _ in range(sections)] for _ in range(n)]
        self.section_suits = [[NO_SUIT] * sections for _ in range(n)]
        self.section_tokens = [[0] * sections for _ in range(n)]
        self.pool = [[0] * len(rules.tokens) for _ in range(n)]
        self.parts = [None] * PARTS
        new_round(self)
        self.trick: list[int] = []
        self.trick_players: list[int] = []
        self.tricks: list[tuple[list[int], list[int]]] = []  # the round's finished tricks: cards, players
        self.led = 0
        self._legal: list[int] | None = None
        self.reset_counters("round")
        self.changed()
        self.leader = self.current = (self.dealer + 1) % n
        self.declarer = -1  # who chose trumps or declared a contract (-1: no one)
        self.sitting_out: list[int] = []  # seats that sit the round out (see sit_out)
        self.trick_size = n
        self.next_seat = self.game.next_seats
        self.deciders = self.game.own_seats  # who chooses each seat's cards (see decide_for)
        self.round_teams = partners.teams_at_deal(self) if rules.partner_cards else rules.teams
        if isinstance(rules.trumps, frozenset):
            self.set_trumps(rules.trumps)
        else:  # chosen or turned up later: no trumps until then
            self.set_trumps(frozenset(), log=False)
        self._step = 0  # the deal, done
        self.next_step()

    def next_step(self) -> None:
        """Start the round's next phase (skipping one that has nothing to do)."""
        start_next_step(self)

    def reset_counters(self, reset: str, game: Game | None = None) -> None:
        """Set to their initial values the counters of `game` (the spec's, by default) that reset
        at `reset` ("game" or "round"), and any it declares that have no value yet."""
        rules = (game or self.game).ruleset
        for counter in rules.counters:
            if counter.reset == reset or counter.name not in self.counters:
                value = counter.initial
                if counter.scope == "player":
                    self.counters[counter.name] = [value] * self.num_players
                elif counter.scope == "team":
                    self.counters[counter.name] = [value] * len(rules.teams)
                else:
                    self.counters[counter.name] = value

    def env(self, player: int) -> dict[str, Any]:
        """The values expressions read, as `player` sees them: counters, trick and round numbers.

        The mapping is kept until the next change (a card that changes a counter, a finished
        trick or round) and must not be changed; `changed()` drops it after an edit.
        """
        key = player if self.play_game.player_counters else 0  # one mapping for all, without player counters
        cache = self._env
        if cache is None:
            cache = self._env = {}
        else:
            env = cache.get(key)
            if env is not None:
                return env
        game = self.play_game
        env = {**game.constants, **self.counters}
        env["trick"] = self.tricks_played + 1
        env["round"] = self.round + 1
        env["totals"] = tuple(self.totals)
        env["players"] = self.num_players
        env["hand_size"] = self.hand_size
        if game.player_counters:
            team = self.game.team_of[player] if self.game.team_of else 0
            for name, scope in game.player_counters:
                env[name] = self.counters[name][team if scope == "team" else player]
        cache[key] = env
        return env

    def sit_out(self, players: list[int]) -> None:
        """`players` sit out the rest of the round: tricks have fewer cards, the turn skips them."""
        n = self.num_players
        self.sitting_out = sorted(players)
        self.trick_size = n - len(players)
        # every seat's next seat is the next one taking part (a seat sitting out is never asked)
        self.next_seat = tuple(next((p + k) % n for k in range(1, n + 1) if (p + k) % n not in players) for p in range(n))

    def decide_for(self, seat: int, by: int) -> None:
        """For the rest of the round `by` chooses the cards `seat` plays (bridge's dummy): the
        current player on `seat`'s turns is `by`, and `seat`'s hand is shown to all from the
        opening lead on."""
        self.deciders = tuple(by if p == seat else d for p, d in enumerate(self.deciders))

    def exposed(self) -> list[int]:
        """The seats whose hands everyone sees now: those another seat plays, once the round's
        first card is on the table, and a declarer whose hand lies open (`open_hand`) once the
        play has begun."""
        begun = bool(self.tricks or self.trick)
        shown = [p for p, d in enumerate(self.deciders) if d != p] if begun else []
        declarer = self.declarer
        if self.play_game.ruleset.open_hand and declarer >= 0 and declarer not in shown and (begun or self._kind.phase == play.PLAY):
            shown.append(declarer)
        return shown

    def changed(self) -> None:
        """Forget what expressions read, after counters, tricks, rounds or totals changed."""
        self._env = None
        self._active = None

    def set_trumps(self, trumps: frozenset[int], log: bool = True) -> None:
        """Make `trumps` the round's trump suits, with the trick tables compiled for them."""
        self.trumps = trumps
        self.tables: TrickTables = self.play_game.tables(trumps)
        self._active = None  # restrictions are compiled per trumps
        if log and self.events is not None:
            self.log("trumps", trumps=sorted(trumps))

    def after_trick(self) -> None:
        """Make the forced placements, then wait for the next decision or end the round."""
        play.after_trick(self)

    def end_round(self) -> None:
        """Score the round, then deal the next one or end the game."""
        game = self.play_game
        score, points, known = round_end.score_now(self)
        for player, total in enumerate(points):
            self.totals[player] = held(self.totals[player] + total)
        self.changed()
        self._round_scores.append((self.round, score, tuple(self.bonus), points, game))
        if self.events is not None:
            self.log("round_end", **cloning.deep(self.round_results[-1]))  # the log's own copy: clones share it
        if game.counts_round_end:
            round_end.count_round_end(self, known)
        rules = self.game.ruleset
        self.round += 1
        if self.round >= rules.rounds or (rules.until is not None and rules.until(round_end.game_env(self))):
            enter(self, TERMINAL_KIND, [])
            if self.events is not None:
                self.log("game_end", totals=list(self.totals), winners=self.winners())
        else:
            self._start_round()

    def score_envs(self, only: list[int] | None = None) -> list[dict[str, Any]]:
        """What each player's scoring expressions read besides the measures (see `round_end`)."""
        return round_end.score_envs(self, only)

    @property
    def round_results(self) -> list[dict[str, Any]]:
        """Each finished round's score: measures, points by rule, reward points, sections, points."""
        cache = self._round_dicts
        for entry in self._round_scores[len(cache) :]:
            cache.append(round_end.round_result(*entry))
        return list(cache)

    def player_round(self, player: int) -> PlayerRound:
        """What `player` holds now, as scoring sees it."""
        return PlayerRound(
            tuple(self.piles[player]),
            self.tricks_won[player],
            tuple(map(tuple, self.stacks[player])) if self.stacks[player] else (),
            tuple(self.section_tokens[player]),
            tuple(self.pool[player]),
        )

    # ------------------------------------------------------------ the state API

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        return Phase(self._kind.phase)

    @property
    def _phase(self) -> int:
        """The `Phase` number of what the game waits for now."""
        return self._kind.phase

    def current_player(self) -> int:
        """The player to decide now, or `TERMINAL_PLAYER` when the game is over."""
        return self._kind.player(self)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._kind is TERMINAL_KIND

    def legal_actions(self, player: Any = None) -> list[int]:
        """The actions the current player may take (empty for anyone else, or at the end)."""
        if player is not None and player != self.current_player():
            return []
        return list(self.legal_view())

    def legal_view(self) -> list[int]:
        """The current player's legal actions as the state keeps them: not a copy, never to be
        changed (for tight loops, see `trickrules.engine.playouts`); `legal_actions` copies."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._kind.legal(self)
        return legal

    def apply_action(self, action: Any) -> None:
        """Take `action` for the current player; `IllegalActionError` leaves the state unchanged.

        An action is an integer (numpy integers and other objects with ``__index__`` count as
        their value); anything else (floats, bools, strings, None) is refused before anything
        changes, as is an integer that is not legal now.
        """
        legal = self.legal_view()
        if type(action) is not int:
            action = refusals.action_integer(self, action, legal)
        if action not in legal:
            refusals.refuse(self, action, legal)
        self.apply_legal(action)

    def apply_legal(self, action: int) -> None:
        """Take `action`, known to be legal (one of `legal_actions()`), without checking it.

        For tight loops that pick from the legal actions themselves (see
        `trickrules.engine.playouts`); anything else may leave the state broken. Use `apply_action`.
        """
        self._legal = None  # the phase's apply may set the next legal actions
        self.history.append(action)
        self._kind.apply(self, action)

    # ------------------------------------------------------------ results

    def returns(self) -> list[float]:
        """Each player's total points (so far, or final)."""
        return [float(t) for t in self.totals]

    def winners(self) -> list[int]:
        """The players with the best final total; `GameNotOverError` before the game is over.

        Mid-game, `returns()` gives the totals so far.
        """
        if self._kind is not TERMINAL_KIND:
            raise GameNotOverError(
                f"the game is not over (round {self.round + 1} of {self.game.ruleset.rounds}): "
                "winners are known at the end; returns() gives the totals so far"
            )
        return game_winners(self.game.ruleset.scoring.winner, self.totals)

    def action_to_string(self, action: Any) -> str:
        """The text form of an action, e.g. ``play red-5``; `OutOfRangeError` if the game has none."""
        return self.game.action_to_string(refusals.number(action, self.game.num_distinct_actions(), "action"))

    def string_to_action(self, text: str) -> int:
        """The action whose text is `text` here: the legal one that reads so when there is one
        (an auction and a bid or declare phase each have their own ``pass``), else the game's
        (`Game.string_to_action`, ValueError if no action reads so)."""
        action = self.game.string_to_action(text)
        legal = self.legal_actions()
        if action not in legal:
            said = self.game.action_to_string(action)
            action = next((other for other in legal if self.game.action_to_string(other) == said), action)
        return action

    def log(self, kind: str, **fields: Any) -> None:
        """Add an event to the game's log (when the state keeps one)."""
        if self.events is not None:
            self.events.append({"type": kind, **fields})

    # ------------------------------------------------------------ copies and views

    def clone(self) -> State:
        """An independent copy: the same actions applied to both give the same states."""
        return cloning.clone(self, State(self.game, self.seed, False, _empty=True), _FIELDS)

    def observation(self, player: Any) -> dict[str, Any]:
        """What `player` sees: own hand, the table, tokens and scores; no other hand.

        `OutOfRangeError` for a player the game does not seat (players are 0 to n - 1).
        """
        return views.observation(self, refusals.number(player, self.num_players, "player"))

    def observation_tensor(self, player: Any) -> list[float]:
        """What `player` sees as a flat list of numbers, laid out by `Game.observation_layout()`."""
        return self.game.observation_layout().tensor(self, refusals.number(player, self.num_players, "player"))

    def information_state_string(self, player: Any) -> str:
        """What `player` knows as text: the round's tricks by seat, own hand, passes and discards."""
        return views.information_state_text(self, refusals.number(player, self.num_players, "player"))

    def resample_from_infostate(self, player: Any, rng: Any) -> State:
        """A new state `player` cannot tell from this one, the cards hidden from it dealt again at
        random (`rng`: a `random.Random` or a seed); see `trickrules.engine.resample`."""
        generator = rng if isinstance(rng, resample.random.Random) else resample.random.Random(rng)
        return resample.resample(self, refusals.number(player, self.num_players, "player"), generator)

    # ------------------------------------------------------------ copies and pickles

    def __copy__(self) -> State:
        """`copy.copy` gives an independent state, as `clone` does."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """`copy.deepcopy` gives an independent state (the game, never changed, is shared)."""
        other = self.clone()
        memo[id(self)] = other
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Pickle without the trick tables (compiled functions): rebuilt from the trumps."""
        state = {name: getattr(self, name) for name in _FIELDS if hasattr(self, name)}
        state.pop("tables", None)
        state.pop("_active", None)  # holds compiled functions too; found again on first use
        return state

    def __reduce__(self) -> tuple[Any, tuple[Game, dict[str, Any]]]:
        """Pickle as the game and the fields (see `__getstate__`); `_unpickle` builds it again."""
        return (_unpickle, (self.game, self.__getstate__()))

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle, compiling the trick tables for the trumps again."""
        for name, value in state.items():
            setattr(self, name, value)
        self._active = None
        if "trumps" in state:
            self.tables = state.get("play_game", self.game).tables(self.trumps)

    def __str__(self) -> str:
        return views.debug_text(self)

    def __repr__(self) -> str:
        return f"<State {self.game.ruleset.id} seed={self.seed} round={self.round} phase={self.phase.name}>"


def _unpickle(game: Game, fields: dict[str, Any]) -> State:
    """A pickled state again (`State.__reduce__`)."""
    state = State(game, 0, False, _empty=True)
    state.__setstate__(fields)
    return state
