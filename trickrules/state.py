"""The game state: phases, decisions and the state API in OpenSpiel's words.

A round runs through phases: choose trumps (when a player chooses them), play tricks, and
after each trick place gained tokens and won cards on the tableau. Dealing, resolving a
trick and scoring need no decision and happen inside `apply_action`. Every decision a player
makes is an action; forced ones (one legal choice) are applied by the engine itself.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Any

from .errors import IllegalActionError
from .game import Game, TrickTables
from .placement import NO_SUIT, forced_card, free_token_sections, free_token_spaces, section_for
from .rewards import POINTS
from .ruleset import UNLIMITED, TrumpChoice
from .scoring import PlayerRound, describe_rule, game_winners, measure_value, round_points, section_scores

TERMINAL_PLAYER = -4
"""`current_player()` of a finished game (OpenSpiel's value)."""


class Phase(IntEnum):
    """What the game waits for."""

    CHOOSE_TRUMPS = 0
    PLAY = 1
    PLACE_TOKENS = 2
    PLACE_CARDS = 3
    TERMINAL = 4


def deal_order(seed: int, round_number: int, num_cards: int) -> list[int]:
    """The shuffled deck of one round: the same on every machine for the same seed."""
    order = list(range(num_cards))
    random.Random(f"trickrules:{seed}:{round_number}").shuffle(order)
    return order


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
        self.totals = [0] * n
        self.history: list[int] = []
        self.round_results: list[dict[str, Any]] = []
        self.lost = [0] * len(game.ruleset.tokens)
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
            self.phase = Phase.CHOOSE_TRUMPS
            offset = 0 if rules.trumps.by == "dealer" else 1
            self.current = (self.dealer + offset) % n
        else:
            self._set_trumps(rules.trumps)
            self.phase = Phase.PLAY
        self._log("deal", dealer=self.dealer, hands=[list(h) for h in self.hands], set_aside=list(self.set_aside))

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
        self._log("trumps", trumps=sorted(trumps))

    def _end_round(self) -> None:
        rules = self.game.ruleset
        players = [self.player_round(p) for p in range(self.game.num_players)]
        faces = self.tables.faces
        measures = [[measure_value(m, rules, pr, faces) for m in rules.scoring.measures] for pr in players]
        points = round_points(rules.scoring.round_rules, measures)
        result = self._round_result(players, measures, points)
        for player, total in enumerate(result["points"]):
            self.totals[player] += total
        self.round_results.append(result)
        self._log("round_end", **result)
        self.round += 1
        if self.round >= rules.rounds:
            self.phase = Phase.TERMINAL
            self._legal = []
            self._log("game_end", totals=list(self.totals), winners=self.winners())
        else:
            self._start_round()

    def _round_result(self, players: list[PlayerRound], measures: list[list[int]], points: list[list[int]]) -> dict:
        rules = self.game.ruleset
        names = [m.name for m in rules.scoring.measures]
        labels = [describe_rule(r, rules.scoring.measures) for r in rules.scoring.round_rules]
        result: dict[str, Any] = {
            "round": self.round,
            "measures": [dict(zip(names, m)) for m in measures],
            "rules": [dict(zip(labels, p)) for p in points],
            "rewards": list(self.bonus),
            "points": [sum(p) + b for p, b in zip(points, self.bonus)],
        }
        if rules.tableau is not None:
            result["sections"] = [
                [{"section": s, "case": c, "score": v} for s, c, v in section_scores(rules.tableau, pr, self.tables.faces)]
                for pr in players
            ]
        return result

    def player_round(self, player: int) -> PlayerRound:
        """What `player` holds now, as scoring sees it."""
        return PlayerRound(
            pile=tuple(self.piles[player]),
            tricks=self.tricks_won[player],
            stacks=tuple(tuple(s) for s in self.stacks[player]),
            section_tokens=tuple(self.section_tokens[player]),
            pool=tuple(self.pool[player]),
        )

    # ------------------------------------------------------------ the state API

    def current_player(self) -> int:
        """The player to decide now, or `TERMINAL_PLAYER` when the game is over."""
        phase = self.phase
        if phase == Phase.PLAY or phase == Phase.CHOOSE_TRUMPS:
            return self.current
        if phase == Phase.PLACE_TOKENS:
            return self.token_queue[0][0]
        if phase == Phase.PLACE_CARDS:
            return self.place_player
        return TERMINAL_PLAYER

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == Phase.TERMINAL

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions the current player may take (empty for anyone else, or at the end)."""
        if player is not None and player != self.current_player():
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        if phase == Phase.PLAY:
            hand = self.hands[self.current]
            return list(hand) if not self.trick else self.tables.legal_follow(hand, self.led)
        if phase == Phase.PLACE_TOKENS:
            player = self.token_queue[0][0]
            needed = [s.tokens_needed for s in self.game.ruleset.tableau.sections]  # type: ignore[union-attr]
            offset = self.game.token_offset
            return [offset + s for s in free_token_sections(self.section_tokens[player], needed)]
        if phase == Phase.PLACE_CARDS:
            offset = self.game.place_offset
            return [offset + c for c in self.place_queue]
        if phase == Phase.CHOOSE_TRUMPS:
            offset = self.game.trump_offset
            return [offset + s for s in self.game.ruleset.trumps.candidates]  # type: ignore[union-attr]
        return []

    def apply_action(self, action: int) -> None:
        """Take `action` for the current player; `IllegalActionError` leaves the state unchanged."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal or type(action) is bool:
            self._illegal(action, legal)
        self._legal = None
        self.history.append(action)
        phase = self.phase
        if phase == Phase.PLAY:
            self._play(action)
        elif phase == Phase.PLACE_TOKENS:
            self._place_token(action - self.game.token_offset)
        elif phase == Phase.PLACE_CARDS:
            self._place_card(self.place_player, action - self.game.place_offset)
            self._advance()
        else:
            self._set_trumps(frozenset([action - self.game.trump_offset]))
            self.phase = Phase.PLAY
            self.current = self.leader

    def _illegal(self, action: Any, legal: list[int]) -> None:
        if self.phase == Phase.TERMINAL:
            reason = "the game is over"
        elif isinstance(action, int) and not isinstance(action, bool) and 0 <= action < self.game.info().num_distinct_actions:
            reason = f"{self.game.action_to_string(action)} is not allowed now"
        else:
            reason = "not an action of this game"
        raise IllegalActionError(action, legal, str(self), reason)

    # ------------------------------------------------------------ playing a trick

    def _play(self, card: int) -> None:
        player = self.current
        self.hands[player].remove(card)
        if not self.trick:
            self.led = self.tables.faces.group[card]
        self.trick.append(card)
        self.trick_players.append(player)
        if self.events is not None:
            self._log("play", player=player, card=card, face=self.tables.faces.face[card])
        if len(self.trick) < self.game.num_players:
            self.current = (player + 1) % self.game.num_players
        else:
            self._resolve_trick()

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
        if self.game.ruleset.won_cards == "pile":
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
            self._log("reward", player=player, reward=reward, token=None, amount=amount, taken=amount)
            return
        kind = self.game.ruleset.tokens[token]
        available = amount if self.supply[token] == UNLIMITED else min(amount, self.supply[token])
        taken = available
        if kind.to == "tableau":
            taken = min(available, self._free_spaces(player))
            self.token_queue.extend([(player, token)] * taken)
            if kind.when_no_space == "lost":
                self.lost[token] += available - taken
                self._take(token, available - taken)
        else:
            self.pool[player][token] += taken
        self._take(token, taken)
        self._log("reward", player=player, reward=reward, token=token, amount=amount, taken=taken)

    def _take(self, token: int, count: int) -> None:
        if self.supply[token] != UNLIMITED:
            self.supply[token] -= count

    def _free_spaces(self, player: int) -> int:
        tableau = self.game.ruleset.tableau
        assert tableau is not None
        needed = [s.tokens_needed for s in tableau.sections]
        queued = sum(1 for p, _ in self.token_queue if p == player)
        return free_token_spaces(self.section_tokens[player], needed) - queued

    # ------------------------------------------------------------ placements

    def _advance(self) -> None:
        """Apply forced placements, then wait for the next decision (or end the round)."""
        if self._auto_place_tokens():
            self.phase = Phase.PLACE_TOKENS
            return
        if self.place_queue:
            suits = self.tables.faces.suit
            row = self.section_suits[self.place_player]
            card = forced_card(self.place_queue, suits, row)
            while card is not None:
                self._place_card(self.place_player, card)
                card = forced_card(self.place_queue, suits, row) if self.place_queue else None
            if self.place_queue:
                self.phase = Phase.PLACE_CARDS
                return
        if self.tricks_played == self.game.ruleset.deal.hand_size:
            self._end_round()
            return
        self.phase = Phase.PLAY
        self.current = self.leader

    def _auto_place_tokens(self) -> bool:
        """Place queued tokens that have one possible section; True if a choice remains."""
        tableau = self.game.ruleset.tableau
        while self.token_queue:
            assert tableau is not None
            player, _ = self.token_queue[0]
            needed = [s.tokens_needed for s in tableau.sections]
            free = free_token_sections(self.section_tokens[player], needed)
            if len(free) > 1:
                return True
            self._put_token(free[0])
        return False

    def _place_token(self, section: int) -> None:
        self._put_token(section)
        self._advance()

    def _put_token(self, section: int) -> None:
        player, token = self.token_queue.pop(0)
        self.section_tokens[player][section] += 1
        self._log("token", player=player, token=token, section=section)

    def _place_card(self, player: int, card: int) -> None:
        self.place_queue.remove(card)
        suit = self.tables.faces.suit[card]
        row = self.section_suits[player]
        section = section_for(suit, row)
        if section < 0:
            self.piles[player].append(card)
        else:
            row[section] = suit
            self.stacks[player][section].append(card)
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


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
