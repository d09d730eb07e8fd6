"""The invariant checkers' reading of scores, counters and the course of a round
(tests/invariants.py plays the game): `ScoreBook` scores a round from the event log,
`CounterBook` replays the counters, `RoundScores` follows what a round's end reads, `RoundWatch`
follows passing, hands, counters and `until` after every action, and `check_scores` recomputes
every round's results, the totals and the winners."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from invariants_rules import Faces, card_matches, faces_for, ladder_winner, trick_gains
from trickrules.engine import phases
from trickrules.engine.state import Phase, State
from trickrules.rules.ruleset import UNLIMITED, Ruleset, TrumpChoice


class ScoreBook:
    """Replays a round's events from the log and scores it by the rules' words."""

    def __init__(self, rules: Ruleset, faces: Faces, num_players: int) -> None:
        n = num_players
        self.rules, self.faces = rules, faces
        sections = len(rules.tableau.sections) if rules.tableau else 0
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.stacks = [[[] for _ in range(sections)] for _ in range(n)]
        self.placed = [[0] * sections for _ in range(n)]
        self.placed_kind = [[0] * len(rules.tokens) for _ in range(n)]
        self.pool = [[0] * len(rules.tokens) for _ in range(n)]
        self.tricks, self.bonus = [0] * n, [0] * n
        self.supply = [kind.supply for kind in rules.tokens]
        self.pending = [0] * n
        self.gains: list[tuple] = []
        self.dealt: list[list[int]] = [[] for _ in range(n)]  # the hands as dealt (`check_scores` sets them)
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.last: tuple[int, list[int]] = (-1, [])  # the last trick's winner and cards
        kept = rules.kept
        self.kept = {c for c in range(len(rules.deck.cards)) if kept and card_matches(kept.cards, c, faces, rules.deck, -2)}
        self.exchange = [c for c in range(len(rules.deck.cards)) if kept and kept.exchange and card_matches(kept.exchange, c, faces, rules.deck, -2)]
        self.owed: list[tuple[int, int]] = []  # (owner, winner) of each kept card, until the exchanges

    def exchanges(self) -> None:
        """When the play ends, each owner of a kept card gives the winner, on another side, the
        first card it won that the exchange names."""
        teams = teams_of(self.rules) if self.rules.teams else list(range(len(self.tricks)))
        for owner, winner in self.owed:
            given = next((c for c in self.piles[owner] if c in self.exchange), None)
            if teams[owner] != teams[winner] and given is not None:
                self.piles[owner].remove(given)
                self.piles[winner].append(given)
        self.owed = []

    def trick(self, event: dict[str, Any]) -> None:
        winner, cards, players = event["winner"], event["cards"], event["players"]
        self.tricks[winner] += 1
        self.last = (winner, list(cards))
        for card, player in zip(cards, players):
            self.played[player].append(card)
        if self.rules.won_cards == "pile":
            for card, player in zip(cards, players):  # a kept card goes back to its owner, who owes the winner
                if card in self.kept and player != winner:
                    self.piles[player].append(card)
                    self.owed.append((player, winner))
                else:
                    self.piles[winner].append(card)
        self.gains = trick_gains(self.rules, cards, players, players.index(winner), self.faces)
        self.pending = [0] * len(self.tricks)

    def reward(self, event: dict[str, Any]) -> None:
        assert self.gains, f"a reward no rule gives: {event}"
        player, index, token, amount = self.gains.pop(0)
        assert (event["player"], event["reward"], event["token"], event["amount"]) == (player, index, token, amount)
        if token is None:
            self.bonus[player] += amount
            taken = amount
        else:
            taken = self._take(player, token, amount)
        assert event["taken"] == taken, f"took {event['taken']} tokens, expected {taken}: {event}"

    def _take(self, player: int, token: int, amount: int) -> int:
        kind, supply = self.rules.tokens[token], self.supply[token]
        available = amount if supply == UNLIMITED else min(amount, supply)
        taken = available
        if kind.to == "tableau":
            needed = sum(s.tokens_needed for s in self.rules.tableau.sections)  # type: ignore[union-attr]
            taken = min(available, needed - sum(self.placed[player]) - self.pending[player])
            self.pending[player] += taken
        else:
            self.pool[player][token] += taken
        gone = available if kind.when_no_space == "lost" and kind.to == "tableau" else taken
        if supply != UNLIMITED:
            self.supply[token] -= gone
        return taken

    def token(self, event: dict[str, Any]) -> None:
        player, section = event["player"], event["section"]
        self.placed[player][section] += 1
        self.placed_kind[player][event["token"]] += 1
        needed = self.rules.tableau.sections[section].tokens_needed  # type: ignore[union-attr]
        assert self.placed[player][section] <= needed, f"too many tokens on section {section}"

    def place(self, event: dict[str, Any]) -> None:
        player, card, section = event["player"], event["card"], event["section"]
        suit = self.faces.suit[card]
        row = self.stacks[player]
        home = [i for i, stack in enumerate(row) if stack and self.faces.suit[stack[0]] == suit]
        free = [i for i, stack in enumerate(row) if not stack]
        expected = home[0] if home else (free[0] if free else -1)
        assert section == expected, f"card {card} placed on section {section}, its place is {expected}"
        (self.piles[player] if section < 0 else row[section]).append(card)

    def sections(self, player: int) -> list[tuple[str, str, int]]:
        tableau = self.rules.tableau
        assert tableau is not None
        rows = []
        for section, stack, tokens in zip(tableau.sections, self.stacks[player], self.placed[player]):
            staffed = "staffed" if tokens >= section.tokens_needed else "understaffed"
            case = f"{'cards' if stack else 'empty'}_{staffed}"
            value = getattr(tableau, case)
            score = {
                "top_rank": lambda: self.faces.rank[stack[-1]] if stack else 0,
                "sum_ranks": lambda: sum(self.faces.rank[c] for c in stack),
                "card_count": lambda: len(stack),
                "value": lambda: section.value,
                "per_missing_token": lambda: value.number * max(0, section.tokens_needed - tokens),
                "constant": lambda: value.number,
            }[value.kind]()
            rows.append((section.name, case, score))
        return rows

    def measure(self, player: int, measure: Any) -> int:
        won = self.piles[player] + [c for stack in self.stacks[player] for c in stack]
        holding = measure.holding
        if holding is not None:  # the cards it reads: won, as dealt, or played (a round played out holds no card at its end)
            assert not holding.set_aside, "the checker does not follow the declarer"
            side = next((tuple(t) for t in self.rules.teams if player in t), (player,)) if holding.per == "team" else (player,)
            if side[0] != player:  # a team's value is its first seat's
                return 0
            by_seat = [self.piles[p] + [c for stack in self.stacks[p] for c in stack] for p in range(len(self.tricks))]
            won = [c for p in side for c in self._holding_cards(holding.of, p, by_seat[p])]
            if measure.kind == "meld" and holding.meld.best:  # each hand apart, a team its best
                return max(best_declaration(holding.meld.best, list(self._holding_cards(holding.of, p, by_seat[p])), self.faces, len(self.rules.deck.suits))
                           for p in side)
            if measure.kind == "meld":
                return meld_held(holding.meld, won, self.faces, len(self.rules.deck.suits))
            if measure.kind == "run":
                return self._run(holding, set(won))
            if measure.kind == "count":
                return sum(1 for c in won if card_matches(holding.matching, c, self.faces, self.rules.deck, led=-99))
            if measure.kind == "sum_attribute":
                total = sum(self.rules.deck.cards[c].attributes[measure.attribute] for c in won)
                exact = Fraction(total) - Fraction(len(won) * holding.less[0], holding.less[1])
                whole = int(abs(exact) + Fraction(1, 2))  # a half rounds away from zero
                return whole if exact >= 0 else -whole
        if measure.kind == "tricks":
            return self.tricks[player]
        if measure.kind == "cards":
            return len(won)
        if measure.kind == "sum_attribute":
            return sum(self.rules.deck.cards[c].attributes[measure.attribute] for c in won)
        if measure.kind == "tokens":
            return self.pool[player][measure.token] + self.placed_kind[player][measure.token]
        return sum(score for _, _, score in self.sections(player))

    def _holding_cards(self, of: str, player: int, won: list[int]) -> list[int]:
        """The cards a holding reads for one seat: won, as dealt, played, or the last trick's
        cards for its winner (`left`, the declarer's set-aside cards, is not followed here)."""
        if of == "last_trick":
            return self.last[1] if self.last[0] == player else []
        held = self.played[player] or list(self.dealt[player])  # a hand thrown in before play is held as dealt
        return {"won": won, "dealt": self.dealt[player], "held": held}[of]

    def _run(self, holding: Any, cards: set[int]) -> int:
        """A run from the top, the order by the ladder (the best of the cards left, in turn)."""
        order = list(holding.order or ())
        if holding.order is None:
            left = [c for c in range(len(self.rules.deck.cards)) if card_matches(holding.matching, c, self.faces, self.rules.deck, led=-99)]
            while left:
                order.append(left.pop(ladder_winner(self.rules.ranking, left, self.faces, self.rules.deck, led=-99)))
        if not order or (holding.counting == "with") != (order[0] in cards) and holding.counting != "either":
            return 0
        length = 0
        while length < len(order) and (order[length] in cards) == (order[0] in cards):
            length += 1
        return length

    def result(self, names_of: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
        """The round's measures, points by rule, rewards and points, as the engine reports them;
        `names_of`: each player's values of the other names expressions read (counters, round, totals)."""
        scoring, players = self.rules.scoring, range(len(self.tricks))
        self.exchanges()
        measures = [[self.measure(p, m) for m in scoring.measures] for p in players]
        points = [[0] * len(scoring.round_rules) for _ in players]
        names = [m.name for m in scoring.measures]
        for index, rule in enumerate(scoring.round_rules):
            if rule.kind == "add":
                for p in players:
                    points[p][index] = measures[p][rule.measure] * rule.times
                continue
            if rule.kind == "expression" and getattr(rule, "per", "player") == "team":
                assert rule.expression is not None  # a team's points go to its first seat (unpooled: to each seat)
                _, team_envs = expression_envs(self.rules, measures, names_of)
                for team, team_env in zip(self.rules.teams, team_envs):
                    for seat in team[:1] if self.rules.scoring.pool else team:
                        points[seat][index] = int(rule.expression(team_env))
                continue
            if rule.kind == "expression":
                assert rule.expression is not None
                for p in players:
                    env: dict[str, Any] = dict(self.rules.constants)
                    env.update(names_of[p] if names_of else {})
                    env.update({f"all_{n}": tuple(row[i] for row in measures) for i, n in enumerate(names)})
                    env.update(zip(names, measures[p]))
                    points[p][index] = int(rule.expression(env))
                continue
            best = list(players)
            for key in rule.keys:
                values = [measures[p][key.measure] for p in best]
                target = max(values) if key.most else min(values)
                best = [p for p in best if measures[p][key.measure] == target]
            for p in best:
                points[p][index] = rule.points
        names = [m.name for m in scoring.measures]
        pooled = [sum(row) + bonus for row, bonus in zip(points, self.bonus)]
        for team in self.rules.teams if self.rules.scoring.pool else ():  # partners pool their points
            pooled = [sum(pooled[q] for q in team) if p in team else v for p, v in enumerate(pooled)]
        result = {
            "measures": [dict(zip(names, row)) for row in measures],
            "points": pooled,
            "rewards": list(self.bonus),
            "by_rule": points,
            "measure_rows": measures,  # by measure, as the rules list them (names may repeat)
        }
        if self.rules.tableau is not None:
            result["sections"] = [
                [{"section": s, "case": c, "score": v} for s, c, v in self.sections(p)] for p in players
            ]
        return result


def meld_held(meld: Any, hand: Sequence[int], faces: Faces, suits: int) -> int:
    """How many times `hand` holds a meld, counted plainly: of `cards`, the fewest copies the
    hand holds of any card named; of `ranks`, in each suit read (the trumps, the suits named,
    or all) the fewest cards of any one rank entry, summed over the suits (`across`: the fewest
    in any suit); either count divided by `times`, rounded down."""
    if meld.cards:
        held = min(sum(1 for card in hand if card in set(copies)) for copies in meld.cards)
        return held // meld.times
    if meld.sequence[0]:
        return len(runs_held(meld, hand, faces, suits)) // meld.times
    have = Counter((faces.suit[card], faces.rank[card]) for card in hand)
    if meld.trump:
        read = sorted(faces.trumps)
    else:
        read = list(range(suits)) if meld.suits is None else list(meld.suits)
    per_suit = [min((sum(have[suit, rank] for rank in ranks) for ranks in meld.ranks), default=0) for suit in read]
    held = min(per_suit, default=0) if meld.across else sum(per_suit)
    return held // meld.times


def runs_held(meld: Any, hand: Sequence[int], faces: Faces, suits: int) -> list[tuple[int, int, int]]:
    """The runs of ranks in a row a sequence meld counts, as (suit, length, top rank): in each
    suit read, every rank held, walked up from the lowest."""
    read = sorted(faces.trumps) if meld.trump else list(range(suits)) if meld.suits is None else list(meld.suits)
    shortest, longest = meld.sequence
    found = []
    for suit in read:
        ranks = sorted({faces.rank[c] for c in hand if faces.suit[c] == suit})
        start = 0
        for i in range(1, len(ranks) + 1):
            if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
                length = i - start
                if length >= shortest and (not longest or length <= longest):
                    found.append((suit, length, ranks[i - 1]))
                start = i
    return found


def best_declaration(tiers: Any, hand: Sequence[int], faces: Faces, suits: int) -> int:
    """The standing of a hand's best declaration among `tiers` (strongest first), as the
    language packs it: tier from the weakest (1) * 2 * (ranks + 1) + (top rank + 1) * 2 + 1 in
    trumps; a run's top is its highest rank, ranks in a suit their highest in the best suit,
    melds across suits or of given cards their highest card (never in trumps); 0 for none."""
    ranks = max(faces.rank) + 1
    for place, tier in enumerate(tiers):
        tops = []
        for _, meld in tier:
            if not meld_held(meld, hand, faces, suits):
                continue
            if meld.sequence[0]:
                tops += [(top + 1) * 2 + (suit in faces.trumps) for suit, _, top in runs_held(meld, hand, faces, suits)]
            elif meld.ranks and not meld.across:
                read = sorted(faces.trumps) if meld.trump else list(range(suits)) if meld.suits is None else list(meld.suits)
                for suit in read:
                    in_suit = [faces.rank[c] for c in hand if faces.suit[c] == suit]
                    if all(any(r in ranks_ for r in in_suit) for ranks_ in meld.ranks):
                        tops.append((max(r for r in in_suit if any(r in ranks_ for ranks_ in meld.ranks)) + 1) * 2 + (suit in faces.trumps))
            else:
                pattern = set().union(*meld.ranks) if meld.ranks else {faces.rank[c] for copies in meld.cards for c in copies}
                tops.append((max(faces.rank[c] for c in hand if faces.rank[c] in pattern) + 1) * 2)
        if tops:
            return (len(tiers) - place) * 2 * (ranks + 1) + max(tops)
    return 0


PASS_WORDS = {"left": 1, "right": -1, "none": 0}


def pass_offset_of(word: str, num_players: int) -> int:
    """The seat offset a pass direction's word names: left, right, across, none or a number."""
    if word == "across":
        return num_players // 2
    return (PASS_WORDS[word] if word in PASS_WORDS else int(word)) % num_players


def teams_of(rules: Ruleset) -> list[int]:
    """Each seat's team (0 for every seat without teams)."""
    return [next((t for t, team in enumerate(rules.teams) if p in team), 0) for p in range(rules.players)]


def expression_envs(
    rules: Ruleset, measures: Sequence[Sequence[int]], names_of: Sequence[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What each player's and each team's round-end expressions read: options, `names_of` (the
    player's counters, round, totals, bid ...), own measures and everyone's (``all_<measure>``).
    A team reads its members' measures and bids summed, and its first seat's other names."""
    names = [m.name for m in rules.scoring.measures]

    def envs(rows: Sequence[Sequence[int]], bases: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        columns = {f"all_{m}": tuple(row[i] for row in rows) for i, m in enumerate(names)}
        return [{**dict(rules.constants), **base, **columns, **dict(zip(names, row))} for row, base in zip(rows, bases)]

    bases = [dict(names_of[p]) if names_of else {} for p in range(len(measures))]
    players = envs(measures, bases)
    team_rows = [[sum(measures[p][i] for p in team) for i in range(len(names))] for team in rules.teams]
    team_bases = [dict(bases[team[0]]) for team in rules.teams]
    for team, base in zip(rules.teams, team_bases):
        if "bid" in base:
            base["bid"] = sum(bases[p]["bid"] for p in team)
    return players, envs(team_rows, team_bases)


class CounterBook:
    """The counters, replayed from the event log by the rules' words: reset at the start of the
    game and of each round as `reset` says; changed by each play whose card matches `on_play`
    (in the trick as it is then, with the counting faces of the round's trumps), for the
    player's own or team's value of a player or team counter; raised by `on_round_end` after
    each round, every amount read before any is added, with what the round's scoring reads
    (`expression_envs`; a table counter's amount reads no one player's names).
    """

    def __init__(self, rules: Ruleset, num_players: int) -> None:
        self.rules, self.n = rules, num_players
        self.team_of = teams_of(rules)
        self.values: dict[str, Any] = {}
        self.faces: Faces | None = None
        self.faces_cache: dict[frozenset[int], Faces] = {}
        self.led, self.in_trick = 0, 0
        self.changes = 0  # plays that changed a counter's value
        self.reset("game")
        self.reset("round")

    def reset(self, when: str) -> None:
        size = {"player": self.n, "team": len(self.rules.teams)}
        for counter in self.rules.counters:
            if counter.reset == when:
                value = counter.initial
                self.values[counter.name] = [value] * size[counter.scope] if counter.scope in size else value

    def feed(self, event: dict[str, Any]) -> None:
        """Follow one event (a round's end needs the round's scores: see `round_end`)."""
        kind = event["type"]
        if kind == "deal":
            self.reset("round")
            self.in_trick = 0
        elif kind == "trumps":
            trumps = frozenset(event["trumps"])
            self.faces = self.faces_cache.setdefault(trumps, faces_for(self.rules.deck, trumps))
        elif kind == "play":
            self.play(event["player"], event["card"])
        elif kind == "trick":
            self.in_trick = 0

    def index(self, scope: str, player: int) -> int:
        return self.team_of[player] if scope == "team" else player

    def play(self, player: int, card: int) -> None:
        assert self.faces is not None, "a card played before the round's trumps are known"
        if self.in_trick == 0:
            self.led = self.faces.group(card)
        self.in_trick += 1
        for counter in self.rules.counters:
            when = counter.on_play
            if when is None or not card_matches(when, card, self.faces, self.rules.deck, self.led):
                continue
            name, values = counter.name, self.values
            if counter.scope == "table":
                old = values[name]
                values[name] = new = counter.set_to if counter.set_to is not None else old + counter.add
            else:
                row, at = list(values[name]), self.index(counter.scope, player)
                old = row[at]
                row[at] = new = counter.set_to if counter.set_to is not None else old + counter.add
                values[name] = row
            self.changes += new != old

    def env(self, player: int | None, **names: Any) -> dict[str, Any]:
        """Counters (a player or team counter as `player`'s own; left out for None) and `names`."""
        env: dict[str, Any] = {}
        for counter in self.rules.counters:
            value = self.values[counter.name]
            if counter.scope == "table":
                env[counter.name] = value
            elif player is not None:
                env[counter.name] = value[self.index(counter.scope, player)]
        env.update(names)
        return env

    def round_end(self, players: Sequence[dict[str, Any]], teams: Sequence[dict[str, Any]], table: dict[str, Any]) -> None:
        """Add each `on_round_end` amount, read in `players`', `teams`' or the `table`'s names."""
        gains: list[tuple[str, int | None, int]] = []
        for counter in self.rules.counters:
            amount = counter.on_round_end
            if amount is None:
                continue
            if counter.scope == "table":
                gains.append((counter.name, None, int(amount(table))))
            else:
                envs = players if counter.scope == "player" else teams
                gains += [(counter.name, index, int(amount(env))) for index, env in enumerate(envs)]
        for name, index, gain in gains:
            if index is None:
                self.values[name] += gain
            else:
                row = list(self.values[name])
                row[index] += gain
                self.values[name] = row

    def until_env(self, **names: Any) -> dict[str, Any]:
        """What `until` reads: options, a player or team counter as everyone's values, `names`."""
        env = {**dict(self.rules.constants), **self.env(None, **names)}
        env.update((c.name, tuple(self.values[c.name])) for c in self.rules.counters if c.scope != "table")
        return env

    def check(self, state: State) -> None:
        for name, value in self.values.items():
            assert state.counters.get(name) == value, f"counter {name}: engine {state.counters.get(name)}, the plays give {value}"


class RoundScores:
    """What a round's end reads besides the measures, followed through the events: the round,
    the totals before it, the hand size dealt, the bids made, and (bidding by precedence) the
    declarer, the last to bid: the one left holding the highest bid (no one when all pass);
    `makers` is 1 for the declarer's side."""

    def __init__(self, rules: Ruleset, num_players: int) -> None:
        self.rules, self.n = rules, num_players
        self.totals = [0] * num_players
        self.rounds = 0
        self.hand_size = 0
        self.bids = [0] * num_players
        self.declarer = -1
        self.precedence = any(s.bidding is not None and s.bidding.bidding == "precedence" for s in rules.round)

    def feed(self, event: dict[str, Any]) -> None:
        if event["type"] == "deal":
            self.hand_size = self.rules.deal.hand_size if self.rules.deal.first_stage else len(event["hands"][0])
            self.bids = [0] * self.n
            self.declarer = -1
        elif event["type"] == "bid" and event["bid"] is not None:  # a pass by precedence keeps the last bid
            self.bids[event["player"]] = event["bid"]
            self.declarer = event["player"] if self.precedence else -1  # a bid by precedence beats the highest, or takes it over
        elif event["type"] == "choose" and event["suit"] is not None and isinstance(self.rules.trumps, TrumpChoice):
            self.declarer = event["player"]  # trumps chosen in rounds: the first to name a suit

    def makers(self) -> tuple[int, ...]:
        """The declarer's side (no one when no one declared)."""
        if self.declarer < 0:
            return ()
        return next((tuple(team) for team in self.rules.teams if self.declarer in team), (self.declarer,))

    def names_of(self, counters: CounterBook) -> list[dict[str, Any]]:
        """Each player's names for the round's expressions (before its points are added)."""
        common = {"round": self.rounds + 1, "totals": tuple(self.totals), "players": self.n, "hand_size": self.hand_size}
        common.update(bids=tuple(self.bids), declarer=self.declarer)
        return [counters.env(p, **common, bid=self.bids[p], makers=int(p in self.makers())) for p in range(self.n)]

    def end(self, counters: CounterBook, measures: Sequence[Sequence[int]], names_of: Sequence[dict[str, Any]], points: Sequence[int]) -> bool:
        """Count the round's end: counters, then totals; whether the game ends now (at `until`'s
        first hold, or at the cap)."""
        players, teams = expression_envs(self.rules, measures, names_of)
        table = dict(self.rules.constants)
        table.update(counters.env(None, round=self.rounds + 1, totals=tuple(self.totals), players=self.n))
        table.update(hand_size=self.hand_size, bids=tuple(self.bids))
        table.update((key, value) for key, value in players[0].items() if key.startswith("all_"))
        counters.round_end(players, teams, table)
        self.totals = [t + p for t, p in zip(self.totals, points)]
        self.rounds += 1
        if self.rounds >= self.rules.rounds:
            return True
        until = self.rules.until
        env = counters.until_env(round=self.rounds, totals=tuple(self.totals), players=self.n, hand_size=self.hand_size)
        return until is not None and bool(until(env))


KNOWN_EVENTS = frozenset(
    "deal trumps pass_direction pass passed play trick reward token place round_end game_end bid turn_up "
    "choose take discard alone declare contract kept exchange complete_deal announce".split()
)
"""Events the hand model reads, or knows to leave the hands as they are."""


class RoundWatch:
    """The language-2 parts of a game, followed through its event log after every action:

    - passing: the direction and number of cards are the ones the pass phase's schedule gives
      for the round (for a chance schedule: one of its entries), the passers take turns from
      the first passer, each passing all their cards, each card from their own hand; while the
      phase runs hand + cards passed so far = the hand dealt and the passed cards are the
      engine's; when it ends each seat has received the cards of the seat `offset` to its right;
    - hands: every hand is what the deal, the passes and the plays leave;
    - counters: as `CounterBook` replays them (a round's end from the measures and points the
      engine reports; `check_scores` recomputes those);
    - the end: the game ends right after the first round after which `until` holds (or at
      `at_most`), and not before.
    """

    def __init__(self, state: State, reader: Ruleset | None = None) -> None:
        self.rules, self.n = reader or state.game.ruleset, state.game.num_players
        self.passes = [step.passing for step in self.rules.round if step.kind == "pass"]
        self.counters = CounterBook(self.rules, self.n)
        self.scores = RoundScores(self.rules, self.n)
        self.seen, self.round = 0, -1
        self.hands: list[list[int]] = []
        self.dealt: list[int] = []
        self.dealer, self.pass_index = 0, 0
        self.passing: dict[str, Any] | None = None
        self.delivered: list[list[int]] | None = None
        self.ends: bool | None = None  # after a round: whether the game ends now
        self.cards_passed = 0
        self.early_ends = 0  # games ended by `until` before `at_most`
        self.hands_known = True

    def feed(self, state: State) -> None:
        """Follow the events since the last call, then compare with the state."""
        assert state.events is not None
        received = False
        for event in state.events[self.seen :]:
            received |= self.event(event)
        self.seen = len(state.events)
        if not self.hands_known and (self.passing is None or self.passing["turn"] == 0):
            self.hands, self.hands_known = [sorted(hand) for hand in state.hands], True  # start again from here
        self.check(state, received)

    def event(self, event: dict[str, Any]) -> bool:
        """Follow one event; True when it ends a pass phase."""
        kind = event["type"]
        self.counters.feed(event)
        self.scores.feed(event)
        if kind == "deal":
            assert self.ends in (None, False), f"until: the game goes on after round {self.round + 1}, the rules end it"
            self.round += 1
            self.hands = [sorted(hand) for hand in event["hands"]]
            self.dealt = [len(hand) for hand in self.hands]
            self.dealer, self.pass_index, self.passing, self.ends = event["dealer"], 0, None, None
            self.hands_known = True
        elif kind == "pass_direction":
            self.pass_direction(event)
        elif kind == "pass":
            return self.pass_card(event["player"], event["card"])
        elif kind == "passed":
            assert event["cards"] == self.delivered, f"passing: the record's passed cards {event['cards']}"
        elif kind == "play":
            player, card = event["player"], event["card"]
            assert card in self.hands[player], f"seat {player} played {card}, which is not in the hand"
            self.hands[player].remove(card)
        elif kind == "take":
            self.hands[event["player"]] = sorted(self.hands[event["player"]] + [event["card"]])
        elif kind == "complete_deal":
            self.hands = [sorted(hand + cards) for hand, cards in zip(self.hands, event["cards"])]
        elif kind == "discard":
            assert event["card"] in self.hands[event["player"]], f"discarded {event['card']}, not in the hand"
            self.hands[event["player"]].remove(event["card"])
        elif kind not in KNOWN_EVENTS:
            self.hands_known = False  # an event that may change hands in ways not read here
        if kind == "round_end":
            names = [m.name for m in self.rules.scoring.measures]
            measures = [[row[name] for name in names] for row in event["measures"]]
            names_of = self.scores.names_of(self.counters)
            self.ends = self.scores.end(self.counters, measures, names_of, event["points"])
            self.early_ends += int(self.ends and self.round + 1 < self.rules.rounds)
        if kind == "game_end":
            assert self.ends, f"until: the game ended after round {self.round + 1}, the rules go on"
        return False

    def pass_direction(self, event: dict[str, Any]) -> None:
        assert self.passing is None, "a pass phase began before the last one ended"
        assert self.pass_index < len(self.passes), "a pass phase the round does not have"
        rules = self.passes[self.pass_index]
        assert rules is not None
        self.pass_index += 1
        names, direction = rules.to_names, event["direction"]
        if rules.to.chance:
            assert direction in names, f"pass direction: {direction} drawn, the rules draw from {list(names)}"
        else:
            expected = names[self.round % len(names)]
            assert direction == expected, f"pass direction: round {self.round + 1} passes {expected}, not {direction}"
        offset, count = pass_offset_of(direction, self.n), rules.cards.at(self.round)
        assert event["offset"] == offset, f"pass direction: {direction} is offset {offset}, not {event['offset']}"
        assert event["cards"] == count, f"pass: round {self.round + 1} passes {count} cards, not {event['cards']}"
        if offset == 0 or count == 0:
            return
        first = {"seat": rules.first_seat, "dealer": self.dealer}.get(rules.first, self.dealer + 1)
        self.passing = {"offset": offset, "count": count, "first": first % self.n, "turn": 0}
        self.passing["passed"] = [[] for _ in range(self.n)]

    def next_passer(self) -> int:
        passing = self.passing
        assert passing is not None
        return (passing["first"] + passing["turn"] // passing["count"]) % self.n

    def pass_card(self, player: int, card: int) -> bool:
        passing = self.passing
        assert passing is not None, "a card passed where the rules pass nothing"
        expected = self.next_passer()
        assert player == expected, f"pass order: seat {player} passed, it is seat {expected}'s turn"
        assert card in self.hands[player], f"seat {player} passed {card}, which is not in the hand"
        self.hands[player].remove(card)
        passing["passed"][player].append(card)
        passing["turn"] += 1
        if passing["turn"] < passing["count"] * self.n:
            return False
        for giver, cards in enumerate(passing["passed"]):
            receiver = (giver + passing["offset"]) % self.n
            self.hands[receiver] = sorted(self.hands[receiver] + cards)
        self.cards_passed += passing["turn"]
        self.delivered, self.passing = passing["passed"], None
        return True

    def check(self, state: State, received: bool) -> None:
        for player, hand in enumerate(self.hands):
            held = sorted(state.hands[player])
            if received:
                assert held == hand, f"passing: seat {player} received the wrong cards: holds {held}, should hold {hand}"
            assert held == hand, f"hands: seat {player} holds {held}, the deal, passes and plays leave {hand}"
        passing = self.passing
        if state.phase == Phase.PASS:
            assert passing is not None, "passing: a pass phase the rules do not have (or skip)"
            expected = self.next_passer()
            assert state.current_player() == expected, f"pass order: seat {state.current_player()} to pass, it is seat {expected}'s turn"
            assert phases.pass_cards.running(state).passed == passing["passed"], "passing: the cards passed so far differ"
            for player, hand in enumerate(state.hands):
                so_far = len(passing["passed"][player])
                assert len(hand) + so_far == self.dealt[player], f"passing: seat {player} holds {len(hand)} and passed {so_far} of {self.dealt[player]}"
        else:
            assert passing is None, "passing: the phase ended before everyone had passed"
        self.counters.check(state)
        if state.is_terminal():
            assert self.ends, f"until: the game is over after round {self.round + 1}, the rules go on"


def check_scores(state: State, reader: Ruleset | None = None) -> None:
    """Rewards, round results, totals and winners, recomputed from the event log (by `reader`'s rules)."""
    rules, game = reader or state.game.ruleset, state.game
    assert state.events is not None
    book: ScoreBook | None = None
    rounds: list[dict[str, Any]] = []
    counters, scores = CounterBook(rules, game.num_players), RoundScores(rules, game.num_players)
    last_round: int | None = None  # the round after which the rules end the game
    dealt: list[list[int]] = []
    for event in state.events:
        kind = event["type"]
        counters.feed(event)
        scores.feed(event)
        if kind in ("deal", "trumps"):  # trumps follow the deal, or never come (everyone passed)
            dealt = [list(hand) for hand in event["hands"]] if kind == "deal" else dealt
            assert book is None or kind == "deal" or not any(book.tricks), "trumps named mid-round"
            book = ScoreBook(rules, faces_for(rules.deck, frozenset(event.get("trumps", ()))), game.num_players)
            book.dealt = dealt
        elif kind == "take" and rules.deal.first_stage:  # the turned-up card, into a hand the deal completes
            dealt[event["player"]].append(event["card"])
        elif kind == "complete_deal":  # the hands as dealt are the completed ones
            for hand, cards in zip(dealt, event["cards"]):
                hand.extend(cards)
        elif kind in ("trick", "reward", "token", "place"):
            assert book is not None
            if kind == "trick":
                assert not book.gains, f"rewards never handed out: {book.gains}"
            getattr(book, kind)(event)
        elif kind == "round_end":
            assert book is not None and not book.gains
            names_of = scores.names_of(counters)
            rounds.append(book.result(names_of))
            measures = rounds[-1]["measure_rows"]
            if scores.end(counters, measures, names_of, rounds[-1]["points"]) and last_round is None:
                last_round = len(rounds)
    assert len(rounds) == len(state.round_results)
    assert len(rounds) == rules.rounds or (rules.until is not None and 1 <= len(rounds) < rules.rounds)
    assert len(rounds) == last_round, f"until: {len(rounds)} rounds played, the rules end the game after {last_round}"
    totals = [0] * game.num_players
    for mine, theirs in zip(rounds, state.round_results):
        assert theirs["measures"] == mine["measures"], f"measures {theirs['measures']} != {mine['measures']}"
        by_rule = [dict(zip(game.rule_labels, row)) for row in mine["by_rule"]]
        assert theirs["rules"] == by_rule, f"rule points {theirs['rules']} != {by_rule}"
        assert theirs["rewards"] == mine["rewards"], f"reward points {theirs['rewards']} != {mine['rewards']}"
        assert theirs["points"] == mine["points"], f"round points {theirs['points']} != {mine['points']}"
        assert theirs.get("sections") == mine.get("sections"), "section scores differ"
        totals = [t + p for t, p in zip(totals, mine["points"])]
    assert state.totals == totals, f"totals {state.totals} != {totals}"
    target = max(totals) if rules.scoring.winner == "most_points" else min(totals)
    assert state.winners() == [p for p, t in enumerate(totals) if t == target]
