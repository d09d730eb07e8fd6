"""The game state: phases, decisions and the state API in OpenSpiel's words.

A round runs through phases: choose trumps (when a player chooses them), play tricks, and
after each trick place gained tokens and won cards on the tableau. Dealing, resolving a
trick and scoring need no decision and happen inside `apply_action`. Every decision a player
makes is an action; forced ones (one legal choice) are applied by the engine itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from .errors import IllegalActionError
from .game import Game, TrickTables
from .placement import NO_SUIT, forced_cards, free_token_sections, free_token_spaces, section_for
from .rewards import POINTS
from .ruleset import UNLIMITED, TrumpChoice
from .scoring import PlayerRound, RoundScore, game_winners, score_round

TERMINAL_PLAYER = -4
"""`current_player()` of a finished game (OpenSpiel's value)."""


class Phase(IntEnum):
    """What the game waits for."""

    CHOOSE_TRUMPS = 0
    PLAY = 1
    PLACE_TOKENS = 2
    PLACE_CARDS = 3
    TERMINAL = 4


# Plain integers on the hot path: comparing them is cheaper than comparing enum members.
_CHOOSE_TRUMPS, _PLAY, _PLACE_TOKENS, _PLACE_CARDS, _TERMINAL = (int(p) for p in Phase)


def deal_order(seed: int, round_number: int, num_cards: int) -> list[int]:
    """The shuffled deck of one round: the same on every machine for the same seed.

    Each card gets a key from a generator seeded by the text ``trickrules:SEED:ROUND``; the
    deck is sorted by those keys (ties cannot change the order: the sort is stable).
    """
    uniform = random.Random(f"trickrules:{seed}:{round_number}").random
    keys = [uniform() for _ in range(num_cards)]
    return sorted(range(num_cards), key=keys.__getitem__)


class State:
    """One game in progress. Create it with `Game.new_initial_state(seed)`."""

    def __init__(self, game: Game, seed: int = 0, record: bool = False, _empty: bool = False) -> None:
        self.game = game
        self.seed = seed
        self.events: list[dict[str, Any]] | None = [] if record else None
        if _empty:
            return
        n = game.num_players
        self.round = 0
        self.hand_size = game.ruleset.deal.hand_size
        self.num_players = n
        self.totals = [0] * n
        self.history: list[int] = []
        self._round_scores: list[tuple[int, RoundScore, tuple[int, ...], list[int]]] = []
        self._round_dicts: list[dict[str, Any]] = []
        self._start_round()

    # ------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        game, rules = self.game, self.game.ruleset
        n, deal = game.num_players, rules.deal
        self.dealer = (deal.dealer_first + self.round * deal.dealer_rotation) % n
        order = deal_order(self.seed, self.round, game.num_cards)
        size = deal.hand_size
        self.hands = [sorted(order[p * size : (p + 1) * size]) for p in range(n)]
        self.set_aside = sorted(order[n * size :])
        if self.events is not None:
            self._log("deal", dealer=self.dealer, hands=[list(h) for h in self.hands], set_aside=list(self.set_aside))
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.tricks_won = [0] * n
        self.tricks_played = 0
        self.bonus = [0] * n
        sections = game.num_sections
        self.stacks: list[list[list[int]]] = [[[] for _ in range(sections)] for _ in range(n)]
        self.section_suits = [[NO_SUIT] * sections for _ in range(n)]
        self.section_tokens = [[0] * sections for _ in range(n)]
        self.pool = [[0] * len(rules.tokens) for _ in range(n)]
        self.supply = [kind.supply for kind in rules.tokens]
        self.lost = [0] * len(rules.tokens)  # tokens that left the supply this round unplaced
        self.trick: list[int] = []
        self.trick_players: list[int] = []
        self.led = 0
        self.token_queue: list[tuple[int, int]] = []
        self.place_queue: list[int] = []
        self.place_player = 0
        self._legal: list[int] | None = None
        self.leader = self._first_leader()
        self.current = self.leader
        if isinstance(rules.trumps, TrumpChoice):
            self.trumps: frozenset[int] = frozenset()
            self.tables: TrickTables = game.tables(self.trumps)
            self._phase = _CHOOSE_TRUMPS
            offset = 0 if rules.trumps.by == "dealer" else 1
            self.current = (self.dealer + offset) % n
        else:
            self._set_trumps(rules.trumps)
            self._phase = _PLAY

    def _first_leader(self) -> int:
        deal, n = self.game.ruleset.deal, self.game.num_players
        if deal.first_leader == "dealer":
            return self.dealer
        if deal.first_leader == "seat":
            return deal.first_leader_seat
        return (self.dealer + 1) % n

    def _set_trumps(self, trumps: frozenset[int]) -> None:
        self.trumps = trumps
        self.tables = self.game.tables(trumps)
        if self.events is not None:
            self._log("trumps", trumps=sorted(trumps))

    def _end_round(self) -> None:
        rules = self.game.ruleset
        players = [self.player_round(p) for p in range(self.num_players)]
        score = score_round(rules, players, self.tables.faces)
        points = [sum(p) + b for p, b in zip(score.points, self.bonus)]
        for player, total in enumerate(points):
            self.totals[player] += total
        self._round_scores.append((self.round, score, tuple(self.bonus), points))
        if self.events is not None:
            self._log("round_end", **self.round_results[-1])
        self.round += 1
        if self.round >= rules.rounds:
            self._phase = _TERMINAL
            self._legal = []
            self._log("game_end", totals=list(self.totals), winners=self.winners())
        else:
            self._start_round()

    @property
    def round_results(self) -> list[dict[str, Any]]:
        """Each finished round's score: measures, points by rule, reward points, sections, points."""
        cache = self._round_dicts
        for entry in self._round_scores[len(cache) :]:
            cache.append(self._round_result(*entry))
        return list(cache)

    def _round_result(self, number: int, score: RoundScore, bonus: tuple[int, ...], points: list[int]) -> dict[str, Any]:
        names, labels = self.game.measure_names, self.game.rule_labels
        result: dict[str, Any] = {
            "round": number,
            "measures": [dict(zip(names, m)) for m in score.measures],
            "rules": [dict(zip(labels, p)) for p in score.points],
            "rewards": list(bonus),
            "points": list(points),
        }
        if score.sections:
            result["sections"] = [
                [{"section": s, "case": c, "score": v} for s, c, v in rows] for rows in score.sections
            ]
        return result

    def player_round(self, player: int) -> PlayerRound:
        """What `player` holds now, as scoring sees it."""
        return PlayerRound(
            pile=tuple(self.piles[player]),
            tricks=self.tricks_won[player],
            stacks=tuple(map(tuple, self.stacks[player])),
            section_tokens=tuple(self.section_tokens[player]),
            pool=tuple(self.pool[player]),
        )

    # ------------------------------------------------------------ the state API

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        return Phase(self._phase)

    def current_player(self) -> int:
        """The player to decide now, or `TERMINAL_PLAYER` when the game is over."""
        return _PHASES[self._phase].player(self)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._phase == _TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions the current player may take (empty for anyone else, or at the end)."""
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = _PHASES[self._phase].legal(self)
        return list(legal)

    def apply_action(self, action: int) -> None:
        """Take `action` for the current player; `IllegalActionError` leaves the state unchanged."""
        legal = self._legal
        if legal is None:
            legal = self._legal = _PHASES[self._phase].legal(self)
        if action not in legal or action is True or action is False:
            self._illegal(action, legal)
        self._legal = None  # the phase's apply function may set the next legal actions
        self.history.append(action)
        if self._phase != _PLAY:
            _PHASES[self._phase].apply(self, action)
            return
        # playing a card, inlined: the most frequent action of all
        player = self.current
        self.hands[player].remove(action)
        trick = self.trick
        if not trick:
            self.led = self.tables.faces.group[action]
        trick.append(action)
        self.trick_players.append(player)
        if self.events is not None:
            self._log("play", player=player, card=action, face=self.tables.faces.face[action])
        if len(trick) < self.num_players:
            self.current = (player + 1) % self.num_players
        else:
            self._resolve_trick()

    # ------------------------------------------------------------ one legal and one apply function per phase

    def _legal_play(self) -> list[int]:
        hand = self.hands[self.current]
        return list(hand) if not self.trick else self.tables.legal_follow(hand, self.led)

    def _legal_place_tokens(self) -> list[int]:
        player = self.token_queue[0][0]
        offset = self.game.token_offset
        return [offset + s for s in free_token_sections(self.section_tokens[player], self.game.tokens_needed)]

    def _apply_place_tokens(self, action: int) -> None:
        player, token = self.token_queue.pop(0)
        section = action - self.game.token_offset
        self.section_tokens[player][section] += 1
        if self.events is not None:
            self._log("token", player=player, token=token, section=section)
        if not (self.token_queue and self._auto_place_tokens()):
            self._advance()

    def _legal_place_cards(self) -> list[int]:
        offset = self.game.place_offset
        return [offset + c for c in self.place_queue]

    def _apply_place_cards(self, action: int) -> None:
        self._place_cards(self.place_player, self._suit_group_under(action - self.game.place_offset))
        self._advance()

    def _legal_choose_trumps(self) -> list[int]:
        offset = self.game.trump_offset
        return [offset + s for s in self.game.ruleset.trumps.candidates]  # type: ignore[union-attr]

    def _apply_choose_trumps(self, action: int) -> None:
        self._set_trumps(frozenset([action - self.game.trump_offset]))
        self._phase = _PLAY
        self.current = self.leader

    def _illegal(self, action: Any, legal: list[int]) -> None:
        if self._phase == _TERMINAL:
            reason = "the game is over"
        elif isinstance(action, int) and not isinstance(action, bool) and 0 <= action < self.game.info().num_distinct_actions:
            reason = f"{self.game.action_to_string(action)} is not allowed now"
        else:
            reason = "not an action of this game"
        raise IllegalActionError(action, legal, str(self), reason)

    # ------------------------------------------------------------ playing a trick

    def _resolve_trick(self) -> None:
        tables, cards, players = self.tables, self.trick, self.trick_players
        position = tables.trick_winner(cards, self.led)
        winner = players[position]
        self.tricks_won[winner] += 1
        self.tricks_played += 1
        if self.events is not None:
            self._log("trick", leader=players[0], cards=list(cards), players=list(players), winner=winner)
        if tables.trick_rewards is not None:
            for gain in tables.trick_rewards(cards, players, position, self.led):
                self._gain(*gain)
        if self.game.won_to_pile:
            self.piles[winner].extend(cards)
        else:
            self.place_queue = list(cards)
            self.place_player = winner
        self.leader = winner
        self.trick = []
        self.trick_players = []
        self._advance()

    def _gain(self, player: int, reward: int, token: int, amount: int) -> None:
        if token == POINTS:
            self.bonus[player] += amount
            if self.events is not None:
                self._log("reward", player=player, reward=reward, token=None, amount=amount, taken=amount)
            return
        kind = self.game.ruleset.tokens[token]
        supply = self.supply[token]
        available = amount if supply == UNLIMITED or amount <= supply else supply
        taken = available
        if kind.to == "tableau":
            taken = min(available, self._free_spaces(player, token))
            self.token_queue.extend([(player, token)] * taken)
            if kind.when_no_space == "lost":
                self.lost[token] += available - taken
                self._take(token, available - taken)
        else:
            self.pool[player][token] += taken
        self._take(token, taken)
        if self.events is not None:
            self._log("reward", player=player, reward=reward, token=token, amount=amount, taken=taken)

    def _take(self, token: int, count: int) -> None:
        if self.supply[token] != UNLIMITED:
            self.supply[token] -= count

    def _free_spaces(self, player: int, token: int) -> int:
        queued = self.token_queue.count((player, token)) if self.token_queue else 0
        return free_token_spaces(self.section_tokens[player], self.game.tokens_needed) - queued

    # ------------------------------------------------------------ placements

    def _advance(self) -> None:
        """Apply forced placements, then wait for the next decision (or end the round)."""
        if self.token_queue and self._auto_place_tokens():
            return
        queue = self.place_queue
        if queue:
            player = self.place_player
            self._place_cards(player, forced_cards(queue, self.tables.faces.suit, self.section_suits[player]))
            if len(queue) == 1:
                self._place_cards(player, queue[:])
            if queue:
                self._phase = _PLACE_CARDS
                offset = self.game.place_offset
                self._legal = [offset + c for c in queue]
                return
        if self.tricks_played == self.hand_size:
            self._end_round()
            return
        self._phase = _PLAY
        self.current = self.leader

    def _auto_place_tokens(self) -> bool:
        """Place queued tokens that have one possible section; True if a choice remains."""
        needed = self.game.tokens_needed
        while self.token_queue:
            player, _ = self.token_queue[0]
            free = free_token_sections(self.section_tokens[player], needed)
            if len(free) > 1:
                offset = self.game.token_offset
                self._legal = [offset + f for f in free]
                self._phase = _PLACE_TOKENS
                return True
            self._put_token(free[0])
        return False

    def _put_token(self, section: int) -> None:
        player, token = self.token_queue.pop(0)
        self.section_tokens[player][section] += 1
        if self.events is not None:
            self._log("token", player=player, token=token, section=section)

    def _suit_group_under(self, card: int) -> list[int]:
        """The cards of `card`'s suit still to be laid, in play order, with `card` last (on top).

        Only a stack's top card and its set of cards ever count, so laying a card decides the
        order of its whole suit in this trick: the others go beneath it in the order played.
        """
        suit_of = self.tables.faces.suit
        suit = suit_of[card]
        return [c for c in self.place_queue if suit_of[c] == suit and c != card] + [card]

    def _place_cards(self, player: int, cards: list[int]) -> None:
        """Lay won cards on the player's tableau in order (the pile when no section is left)."""
        queue, suit_of = self.place_queue, self.tables.faces.suit
        row, stacks = self.section_suits[player], self.stacks[player]
        for card in cards:
            queue.remove(card)
            suit = suit_of[card]
            section = row.index(suit) if suit in row else section_for(suit, row)
            if section < 0:
                self.piles[player].append(card)
            else:
                row[section] = suit
                stacks[section].append(card)
            if self.events is not None:
                self._log("place", player=player, card=card, section=section)

    # ------------------------------------------------------------ results

    def returns(self) -> list[float]:
        """Each player's total points (so far, or final)."""
        return [float(t) for t in self.totals]

    def winners(self) -> list[int]:
        """The players with the best total (the game's winners once it is over)."""
        return game_winners(self.game.ruleset.scoring.winner, self.totals)

    def action_to_string(self, action: int) -> str:
        """The text form of an action, e.g. ``play red-5``."""
        return self.game.action_to_string(action)

    def _log(self, kind: str, **fields: Any) -> None:
        if self.events is not None:
            self.events.append({"type": kind, **fields})

    # ------------------------------------------------------------ copies and views

    def clone(self) -> State:
        """An independent copy: the same actions applied to both give the same states."""
        other = State(self.game, self.seed, False, _empty=True)
        for name, value in self.__dict__.items():
            if name in ("game", "seed"):
                continue
            other.__dict__[name] = _copy(value)
        return other

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` sees: own hand, the table, tokens and scores; no other hand."""
        from .views import observation

        return observation(self, player)

    def __str__(self) -> str:
        from .views import debug_text

        return debug_text(self)

    def __repr__(self) -> str:
        return f"<State {self.game.ruleset.id} seed={self.seed} round={self.round} phase={self.phase.name}>"


@dataclass(frozen=True)
class PhaseRules:
    """What a phase does: whose decision it is, which actions are legal, what one does.

    A new kind of phase (passing cards, bidding) is a `Phase` member and one entry here.
    """

    player: Callable[[State], int]
    legal: Callable[[State], list[int]]
    apply: Callable[[State, int], None]


def _no_action(state: State, action: int) -> None:
    raise AssertionError("no action is legal in this phase")


_PHASES: dict[int, PhaseRules] = {
    _CHOOSE_TRUMPS: PhaseRules(lambda s: s.current, State._legal_choose_trumps, State._apply_choose_trumps),
    _PLAY: PhaseRules(lambda s: s.current, State._legal_play, _no_action),  # apply is inlined in apply_action
    _PLACE_TOKENS: PhaseRules(lambda s: s.token_queue[0][0], State._legal_place_tokens, State._apply_place_tokens),
    _PLACE_CARDS: PhaseRules(lambda s: s.place_player, State._legal_place_cards, State._apply_place_cards),
    _TERMINAL: PhaseRules(lambda s: TERMINAL_PLAYER, lambda s: [], _no_action),
}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
