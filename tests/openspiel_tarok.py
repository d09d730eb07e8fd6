"""OpenSpiel's Slovenian Tarok as a reference: its deals, played by a policy, and their replay in
trickrules.

A trace is one game of ``pyspiel.load_game("tarok", {"players": n, "rng_seed": seed})``: the
hands and the talon OpenSpiel dealt, every decision (who acted, the legal choices, the one
chosen), the tricks and the returns, and the things that happened on the way (`TarokTrace.facts`:
the emperor's trick, a called king in the talon, the Mond penalty ...). `replay_in_trickrules`
plays the same deal in specs/tarok.yaml and lists where the two engines disagree, decision by
decision.

OpenSpiel's tarok, in our words (what the adapter relies on):

- A card is an action 0..53: the taroks from Pagat (0) through XX (19), Mond (20) and Skis
  (21); then hearts, diamonds, spades and clubs, eight each, lowest first (4 3 2 1 or 7 8 9 10,
  then jack, knight, queen, king). Our card ids are in the same order, so a card's index in
  the spec is its OpenSpiel action.
- The deal is one chance action (0); OpenSpiel's own generator, seeded by ``rng_seed``, puts
  six cards in the talon and deals the rest, dealing again until every hand holds a tarok.
  We read the hands and the talon (in its order) after it, and give trickrules the same.
- Bidding: action 0 passes, 1..12 bid the contracts of `CONTRACTS`; player 1 speaks first.
  Klop and three are open only to player 0, on its first turn, when everyone else passed.
- With four players, three, two and one call a king (the card action of the king).
- The contracts that exchange the talon pick one of its consecutive groups (action ``i`` is
  group ``i + 1``) and then bury as many cards, one card action each.
- Play: player 0 leads the first trick in klop .. solo one, the declarer from beggar up.
- Returns are whole numbers.

The policy. Uniform bids nearly always end in valat without, so each game aims at a contract
drawn uniformly among those its player count has: a player passes more often than not and
otherwise bids the aim (now and then any legal contract), and klop and three come up when
everyone else passes. Kings in the talon are called, and their group taken, more often than
chance would; the cards are played in one of a few styles (`STYLES`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyspiel

import trickrules
from openspiel_common import Decision, Plug, Trick, games_from_env, replay  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
TAROK_SPEC = ROOT / "specs" / "tarok.yaml"

CONTRACTS = ("klop", "three", "two", "one", "solo_three", "solo_two", "solo_one", "beggar", "solo_without",
             "open_beggar", "colour_valat_without", "valat_without")
"""The contracts in OpenSpiel's order of bids 1..12 (our contracts' names)."""
VALUES = dict(zip(CONTRACTS, (70, 10, 20, 30, 40, 50, 60, 70, 80, 90, 125, 500)))
"""What each contract is worth (klop's 70 is what a player over 35, or without a trick, scores)."""
TALON_TAKEN = {"three": 3, "two": 2, "one": 1, "solo_three": 3, "solo_two": 2, "solo_one": 1}
"""The contracts that exchange the talon, and how many cards they take (and bury)."""
KING_CALLING = ("three", "two", "one")
"""With four players these contracts call a king."""
NEGATIVE = ("klop", "beggar", "open_beggar")
DECLARER_LEADS = CONTRACTS[CONTRACTS.index("beggar"):]
"""The declarer leads the first trick in these contracts; player 0 in the others."""
SOLO_ONLY_WITH_FOUR = ("solo_three", "solo_two", "solo_one")
PASS = 0

SUITS = ("hearts", "diamonds", "spades", "clubs")
TAROKS = ("pagat", "II", "III", "IIII", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
          "XVI", "XVII", "XVIII", "XIX", "XX", "mond", "skis")
_PIPS = {"hearts": ("4", "3", "2", "1"), "diamonds": ("4", "3", "2", "1"),
         "spades": ("7", "8", "9", "10"), "clubs": ("7", "8", "9", "10")}
_FACES = ("J", "Kn", "Q", "K")
CARDS = TAROKS + tuple(f"{suit}-{rank}" for suit in SUITS for rank in _PIPS[suit] + _FACES)
"""Our card ids, indexed by OpenSpiel's card action."""
PAGAT, MOND, SKIS = 0, 20, 21
KINGS = (29, 37, 45, 53)
TRULA = (PAGAT, MOND, SKIS)

# ---------------------------------------------------------------- the policy

PASSING_CHANCE = 0.6
"""A player who may pass passes with this chance (else it bids the deal's aim, when it may)."""
STRAY_BID_CHANCE = 0.15
"""A player who bids picks any legal contract with this chance, instead of the deal's aim."""
KING_IN_TALON_CHANCE = 0.3
"""The declarer calls a king lying in the talon with this chance (when one does)."""
KING_GROUP_CHANCE = 0.7
"""The declarer takes the talon group holding the called king with this chance (when it can)."""
TRULA_CHANCE = 0.3
"""A player who may play Pagat, Mond or Skis plays one of them with this chance."""
STYLES = ("random", "pagat kept", "declarer strong", "declarer weak")
"""How a game's cards are played, drawn per game: at random (the trula now and then, see
`TRULA_CHANCE`); at random but Pagat only when it is the one legal card (so that it ends in
the last trick); or one side (the declarer and its partner, or the others) plays its highest
legal card and the other side its lowest, so that won contracts and bare tricks come up."""


def contracts_for(players: int) -> tuple[str, ...]:
    """The contracts that exist with `players` players (the solos three, two and one need four)."""
    return tuple(c for c in CONTRACTS if players == 4 or c not in SOLO_ONLY_WITH_FOUR)


def card_value(card: int) -> int:
    """A card's value: the trula and the kings 5, queens 4, knights 3, jacks 2, the rest 1."""
    if card < 22:
        return 5 if card in TRULA else 1
    return (1, 1, 1, 1, 2, 3, 4, 5)[(card - 22) % 8]


def counted(pile: Sequence[int]) -> int:
    """What a pile of cards counts: its values less two thirds a card, rounded (never a half)."""
    return round((3 * sum(card_value(c) for c in pile) - 2 * len(pile)) / 3)


def _suit(card: int) -> int:
    return -1 if card < 22 else (card - 22) // 8


def trick_winner(cards: Sequence[int], contract: str) -> int:
    """The index in `cards` (playing order) of the card that wins: the emperor's trick (Pagat
    with Mond and Skis) goes to Pagat except in colour valat without led by a suit card; else the
    highest tarok (taroks are an ordinary suit in colour valat without), else the highest card
    of the led suit."""
    colour_valat = contract == "colour_valat_without"
    if set(TRULA) <= set(cards) and (not colour_valat or _suit(cards[0]) < 0):
        return list(cards).index(PAGAT)
    best = 0
    for i, card in enumerate(cards):
        top = cards[best]
        if _suit(card) == _suit(top):
            if card > top:
                best = i
        elif _suit(card) < 0 and not colour_valat:
            best = i
    return best


@dataclass(frozen=True)
class TarokTrace:
    """One game played by OpenSpiel: its seed and player count, the hands and the talon dealt,
    every decision, the tricks (winners by `trick_winner`), the returns, and `facts`."""

    seed: int
    players: int
    hands: list[list[str]]
    talon: list[str]
    decisions: list[Decision]
    returns: list[int]
    tricks: list[Trick] = field(default_factory=list)
    facts: frozenset[str] = frozenset()
    """What happened, in words (`FACTS`), found while OpenSpiel played."""

    @property
    def contract(self) -> str:
        """The contract played (the last bid)."""
        return next(d.chosen.split()[1] for d in reversed(self.decisions) if d.kind == "declare" and d.chosen != "pass")

    @property
    def declarer(self) -> int:
        """Who made the last bid."""
        return next(d.player for d in reversed(self.decisions) if d.kind == "declare" and d.chosen != "pass")

    @property
    def called(self) -> str | None:
        """The king called, if any."""
        return next((d.chosen for d in self.decisions if d.kind == "call"), None)


FACTS = (
    "klop: a player over 35", "klop: a player without a trick", "klop: everyone pays",
    "king called: held by a partner", "king called: held by the declarer", "king called: in the talon",
    "called king taken from the talon", "called king took the rest of the talon",
    "mond left in the talon", "mond captured", "mond penalty cancelled",
    "emperor's trick", "pagat forced onto mond and skis",
    "king ultimo", "pagat ultimo", "ultimo against the declarer",
    "kings bug for the declarer", "kings bug against the declarer",
    "valat won (250)", "valat lost (-250)",
    "declarer won", "declarer lost", "ended early",
)
"""Every fact a trace may hold."""


def _bid(action: int) -> str:
    return "pass" if action == PASS else f"contract {CONTRACTS[action - 1]}"


def _choose_bid(rng: random.Random, legal: list[int], aim: int) -> int:
    """Pass if allowed and the dice say so (or the aim is out of reach); else the aim, or now and
    then any legal contract."""
    bids = [a for a in legal if a != PASS]
    may_pass = PASS in legal
    if may_pass and rng.random() < PASSING_CHANCE:
        return PASS
    if bids and rng.random() < STRAY_BID_CHANCE:
        return rng.choice(bids)
    if aim in bids:
        return aim
    return PASS if may_pass else min(bids)


def _rank(card: int) -> int:
    """A card's rank for the strong and weak styles: taroks above suit cards, then by order."""
    return 8 + card if card < 22 else (card - 22) % 8


def _choose_card(rng: random.Random, legal: list[int], style: str, on_declarer_side: bool) -> int:
    if style in ("declarer strong", "declarer weak"):
        strong = on_declarer_side == (style == "declarer strong")
        return (max if strong else min)(legal, key=_rank)
    if style == "pagat kept" and len(legal) > 1:
        return rng.choice([a for a in legal if a != PAGAT])
    trula = [a for a in legal if a in TRULA]
    if trula and rng.random() < TRULA_CHANCE:
        return rng.choice(trula)
    return rng.choice(legal)


def play_openspiel_game(seed: int, players: int) -> TarokTrace:
    """Play one game in OpenSpiel: ``rng_seed`` `seed` deals; ``random.Random(seed)`` draws the
    deal's aimed contract, its style of play and every decision (see the policy's constants)."""
    rng = random.Random(seed)
    aim = 1 + CONTRACTS.index(rng.choice(contracts_for(players)))
    style = rng.choice(STYLES)
    state = pyspiel.load_game("tarok", {"players": players, "rng_seed": seed}).new_initial_state()
    state.apply_action(0)  # the deal
    hands = [[CARDS[c] for c in state.player_cards(p)] for p in range(players)]
    talon = [int(c) for c in state.talon()]
    decisions: list[Decision] = []
    tricks: list[Trick] = []
    facts: Counter[str] = Counter()
    phases = pyspiel.TarokGamePhase
    contract, called, leader = "", -1, 0
    trick: list[int] = []
    side: set[int] = set()
    while not state.is_terminal():
        phase, player, legal = state.current_game_phase(), state.current_player(), state.legal_actions()
        if phase == phases.BIDDING:
            action = _choose_bid(rng, legal, aim)
            decisions.append(Decision(player, "declare", tuple(sorted(map(_bid, legal))), _bid(action)))
            state.apply_action(action)
            if state.current_game_phase() != phases.BIDDING:
                contract, side = CONTRACTS[action - 1], {player}
            continue
        if phase == phases.KING_CALLING:
            in_talon = [k for k in legal if k in talon]
            action = rng.choice(in_talon) if in_talon and rng.random() < KING_IN_TALON_CHANCE else rng.choice(legal)
            called = action
            side |= {p for p in range(players) if called in state.player_cards(p)}
            holder = "in the talon" if called in talon else (
                "held by the declarer" if called in state.player_cards(player) else "held by a partner")
            facts[f"king called: {holder}"] += 1
            decisions.append(Decision(player, "call", tuple(sorted(CARDS[a] for a in legal)), CARDS[action]))
            state.apply_action(action)
            continue
        if phase == phases.TALON_EXCHANGE and len(state.talon()) == 6:
            sets = [list(s) for s in state.talon_sets()]
            with_king = [i for i, s in enumerate(sets) if called in s]
            action = with_king[0] if with_king and rng.random() < KING_GROUP_CHANCE else rng.choice(legal)
            if called in sets[action]:
                facts["called king taken from the talon"] += 1
            if MOND in talon and MOND not in sets[action]:
                facts["mond left in the talon"] += 1
            decisions.append(Decision(player, "take", tuple(sorted(f"group {a + 1}" for a in legal)),
                                      f"group {action + 1}"))
            state.apply_action(action)
            continue
        if phase == phases.TALON_EXCHANGE:
            action = rng.choice(legal)
            decisions.append(Decision(player, "bury", tuple(sorted(CARDS[a] for a in legal)), CARDS[action]))
            state.apply_action(action)
            continue
        # a card is played
        if not trick:
            leader = player
        action = _choose_card(rng, legal, style, player in side)
        if legal == [PAGAT] and {MOND, SKIS} <= set(trick) and len(state.player_cards(player)) > 1:
            facts["pagat forced onto mond and skis"] += 1
        decisions.append(Decision(player, "play", tuple(sorted(CARDS[a] for a in legal)), CARDS[action]))
        talon_before = len(state.talon())
        state.apply_action(action)
        trick.append(action)
        if len(trick) == players:
            won = trick_winner(trick, contract)
            if set(TRULA) <= set(trick) and won == trick.index(PAGAT):
                facts["emperor's trick"] += 1
            if contract != "klop" and talon_before and not state.talon():
                facts["called king took the rest of the talon"] += 1
            tricks.append(Trick(leader, tuple(CARDS[c] for c in trick), (leader + won) % players))
            trick = []
    returns = [int(r) for r in state.returns()]
    trace = TarokTrace(seed, players, hands, [CARDS[c] for c in talon], decisions, returns, tricks)
    facts.update(_outcome_facts(trace))
    return TarokTrace(seed, players, hands, trace.talon, decisions, returns, tricks, frozenset(facts))


def crosscheck_trace(seed: int, players: int) -> TarokTrace:
    """The cross-check's game of `seed` with `players` players."""
    return play_openspiel_game(seed, players)


@lru_cache(maxsize=None)
def traces_with(fact: str, players: int, count: int, seeds: int) -> list[TarokTrace]:
    """The first `count` cross-check games among seeds ``0 .. seeds - 1`` whose facts hold `fact`."""
    if fact not in FACTS:
        raise ValueError(f"unknown fact {fact!r}")
    found = []
    for seed in range(seeds):
        trace = crosscheck_trace(seed, players)
        if fact in trace.facts:
            found.append(trace)
            if len(found) == count:
                break
    return found


# ---------------------------------------------------------------- our reading of the scores


@dataclass
class _Piles:
    """The cards each player won, in the order they came (tricks, burials, talon cards), the
    talon still lying, and who pays the Mond penalty."""

    won: list[list[int]]
    talon: list[int]
    mond_payer: int | None = None
    events: list[str] = field(default_factory=list)


def _card(name: str) -> int:
    return CARDS.index(name)


def _piles(trace: TarokTrace) -> _Piles:
    """Follow the trace's cards into the players' piles as OpenSpiel does: the burials to the
    declarer, klop's first six tricks each with the next talon card, the called king winning
    a trick after it came from the talon with all the talon left, and who pays for Mond."""
    contract, declarer = trace.contract, trace.declarer
    piles = _Piles([[] for _ in range(trace.players)], [_card(c) for c in trace.talon])
    called = _card(trace.called) if trace.called else None
    king_in_talon = called is not None and called in piles.talon
    for d in trace.decisions:
        if d.kind == "take":
            size = TALON_TAKEN[contract]
            start = (int(d.chosen.split()[1]) - 1) * size
            group = piles.talon[start:start + size]
            if MOND in piles.talon and MOND not in group:
                piles.mond_payer = declarer
            del piles.talon[start:start + size]
        elif d.kind == "bury":
            piles.won[declarer].append(_card(d.chosen))
    for trick in trace.tricks:
        cards = [_card(c) for c in trick.cards]
        pile = piles.won[trick.winner]
        pile.extend(cards)
        top = cards[trick_winner(cards, contract)]
        if contract == "klop" and piles.talon:
            pile.append(piles.talon.pop(0))
        elif king_in_talon and top == called:
            if MOND in piles.talon:
                piles.mond_payer = None
                piles.events.append("mond penalty cancelled")
            pile.extend(piles.talon)
            piles.talon = []
        elif (contract in TALON_TAKEN or contract == "solo_without") and top in (SKIS, PAGAT) and MOND in cards:
            piles.mond_payer = (trick.leader + cards.index(MOND)) % trace.players
            piles.events.append("mond captured")
    return piles


def _partner(trace: TarokTrace) -> int | None:
    if trace.called is None or trace.called in trace.talon:
        return None
    return next((p for p, hand in enumerate(trace.hands) if trace.called in hand and p != trace.declarer), None)


def expected_returns(trace: TarokTrace) -> tuple[list[int], list[str]]:
    """The returns our reading of OpenSpiel's scoring gives the trace's cards, and what scored."""
    contract, declarer, n = trace.contract, trace.declarer, trace.players
    piles = _piles(trace)
    scores, events = [0] * n, list(piles.events)
    if contract == "klop":
        counts = [counted(pile) for pile in piles.won]
        extremes = [c > 35 or not c for c in counts]
        if any(extremes):
            scores = [(-70 if c > 35 else 70) if x else 0 for c, x in zip(counts, extremes)]
            events += ["klop: a player over 35"] * any(c > 35 for c in counts)
            events += ["klop: a player without a trick"] * any(not c for c in counts)
        else:
            scores = [-c for c in counts]
            events.append("klop: everyone pays")
    elif contract in TALON_TAKEN:
        partner = _partner(trace)
        team = {declarer} | ({partner} if partner is not None else set())
        ours = [c for p in sorted(team) for c in piles.won[p]]
        theirs = [c for p in range(n) if p not in team for c in piles.won[p]]
        if len(ours) == 48:
            score = 250
            events.append("valat won (250)")
        elif len(theirs) == 48:
            score = -250
            events.append("valat lost (-250)")
        else:
            count = counted(ours)
            score = count - 35 + (VALUES[contract] if count > 35 else -VALUES[contract])
            score += _ultimo(trace, piles, team, events) + _kings_bug(ours, theirs, events)
        events.append("declarer won" if score > 0 else "declarer lost")
        scores = [score if p in team else 0 for p in range(n)]
    else:
        won = piles.won[declarer]
        if contract in ("beggar", "open_beggar"):
            made = not won
        elif contract == "solo_without":
            made = counted(won) > 35
        else:
            made = len(won) == 48
        events.append("declarer won" if made else "declarer lost")
        scores[declarer] = VALUES[contract] if made else -VALUES[contract]
    if piles.mond_payer is not None:
        scores[piles.mond_payer] -= 20
    return scores, events


def _ultimo(trace: TarokTrace, piles: _Piles, team: set[int], events: list[str]) -> int:
    """The last trick's bonus: 10 if the called king is among its winner's last cards, else 25
    if Pagat is; the declarer's team gains it when it won the last trick, else loses it."""
    last = trace.tricks[-1].winner
    tail = piles.won[last][-trace.players:]
    called = _card(trace.called) if trace.called else None
    bonus = 10 if called in tail else 25 if PAGAT in tail else 0
    if not bonus:
        return 0
    events.append("king ultimo" if bonus == 10 else "pagat ultimo")
    if last in team:
        return bonus
    events.append("ultimo against the declarer")
    return -bonus


def _kings_bug(ours: list[int], theirs: list[int], events: list[str]) -> int:
    """OpenSpiel's kings and trula bonus as it is written: every card counts as a king and none
    as the trula, so a pile of exactly four cards scores the kings' 10."""
    if len(ours) == 4:
        events.append("kings bug for the declarer")
        return 10
    if len(theirs) == 4:
        events.append("kings bug against the declarer")
        return -10
    return 0


def _outcome_facts(trace: TarokTrace) -> Counter[str]:
    _, events = expected_returns(trace)
    facts = Counter(events)
    if trace.contract in ("beggar", "open_beggar", "colour_valat_without", "valat_without"):
        if sum(d.kind == "play" for d in trace.decisions) < 48 // trace.players * trace.players:
            facts["ended early"] += 1
    return facts


# ---------------------------------------------------------------- our reading, checked on a trace


def check_trace(trace: TarokTrace) -> list[str]:
    """Our reading of OpenSpiel's tarok, checked on its own trace: the deal, who speaks in the
    bidding, king calling, the talon exchange, who leads each trick, when the play ends, and the
    returns our reading of its scoring gives."""
    problems = []
    n, size = trace.players, 48 // trace.players
    if [len(h) for h in trace.hands] != [size] * n or len(trace.talon) != 6:
        problems.append(f"the deal is not {n} hands of {size} and a talon of 6")
    if len({c for h in trace.hands for c in h} | set(trace.talon)) != 54:
        problems.append("a card is dealt twice")
    if not all(any(c in TAROKS for c in h) for h in trace.hands):
        problems.append("a hand without a tarok")
    problems += _bidding_problems(trace)
    contract, declarer = trace.contract, trace.declarer
    calls = [d for d in trace.decisions if d.kind == "call"]
    if len(calls) != (n == 4 and contract in KING_CALLING) or any(d.player != declarer for d in calls):
        problems.append("a king is called when it should not be, or not by the declarer")
    takes = [d for d in trace.decisions if d.kind == "take"]
    buries = [d for d in trace.decisions if d.kind == "bury"]
    taken = TALON_TAKEN.get(contract, 0)
    if len(takes) != bool(taken) or len(buries) != taken or {d.player for d in takes + buries} - {declarer}:
        problems.append("the talon exchange is not the declarer taking one group and burying as many")
    if takes and len(takes[0].legal) != 6 // taken:
        problems.append(f"{len(takes[0].legal)} talon groups for {contract}")
    if any(_card(d.chosen) in KINGS + TRULA for d in buries):
        problems.append("a king or a trula card is buried")
    problems += _play_problems(trace)
    expected, _ = expected_returns(trace)
    if expected != trace.returns:
        problems.append(f"returns {trace.returns}, our reading of the scoring gives {expected}")
    return problems


def _bidding_problems(trace: TarokTrace) -> list[str]:
    bids = [d for d in trace.decisions if d.kind == "declare"]
    problems = []
    passed: set[int] = set()
    expected = 1
    for d in bids:
        if d.player != expected:
            problems.append(f"player {d.player} bids where player {expected} should")
            break
        if d.chosen == "pass":
            passed.add(d.player)
        expected = next(p % trace.players for p in range(d.player + 1, d.player + 1 + trace.players)
                        if p % trace.players not in passed)
    if any(d.chosen != "pass" and d.chosen.split()[1] in ("klop", "three") and d.player != 0 for d in bids):
        problems.append("klop or three is bid by a player other than 0")
    if len(passed) != trace.players - 1:
        problems.append(f"the bidding ends with {trace.players - len(passed)} players not passed")
    return problems


def _play_problems(trace: TarokTrace) -> list[str]:
    problems = []
    contract, declarer = trace.contract, trace.declarer
    first = declarer if contract in DECLARER_LEADS else 0
    leaders = [t.leader for t in trace.tricks]
    if leaders[:1] != [first]:
        problems.append(f"the first trick is led by {leaders[:1]}, not player {first}")
    if leaders[1:] != [t.winner for t in trace.tricks[:-1]]:
        problems.append("a trick is not led by the previous trick's winner (as our reading finds it)")
    ends = [i for i, t in enumerate(trace.tricks)
            if (contract in ("beggar", "open_beggar") and t.winner == declarer)
            or (contract in ("colour_valat_without", "valat_without") and t.winner != declarer)]
    last = ends[0] + 1 if ends else 48 // trace.players
    if len(trace.tricks) != last:
        problems.append(f"{len(trace.tricks)} tricks played, our reading ends the play after {last}")
    return problems


# ---------------------------------------------------------------- replay in trickrules


OPENSPIEL_OPTIONS = {"openspiel_bonuses": True}
"""The spec's options that score as OpenSpiel's returns do."""


@lru_cache(maxsize=4)
def load_trickrules_tarok(players: int, spec: str = str(TAROK_SPEC)) -> trickrules.Game:
    return trickrules.load_game(spec, players=players, options=OPENSPIEL_OPTIONS)


def _names(texts: Sequence[str]) -> tuple[set[str], tuple[str, ...]]:
    """Bidding actions (``pass``, ``contract two``) are one kind, ``declare``, named by the whole
    text; a king call, a talon group, a buried or played card are ``call``, ``take``, ``bury``,
    ``play``, named by what follows the verb."""
    kinds, names = set(), []
    for text in texts:
        verb, _, rest = text.partition(" ")
        if verb in ("pass", "contract"):
            kinds.add("declare")
            names.append(text)
        else:
            kinds.add(verb)
            names.append(rest)
    return kinds, tuple(sorted(names))


def _action(kind: str, name: str) -> str:
    return name if kind == "declare" else f"{kind} {name}"


def _so_far(trace: TarokTrace, index: int) -> str:
    """The contract (once bid) and, during play, the cards of the trick so far."""
    decisions = trace.decisions[:index]
    bids = [d for d in decisions if d.kind == "declare" and d.chosen != "pass"]
    if not bids or any(d.kind == "declare" for d in trace.decisions[index:]):
        return ""
    plays = [d.chosen for d in decisions if d.kind == "play"]
    trick = plays[len(plays) - len(plays) % trace.players:]
    played = f", trick so far {trick}" if trace.decisions[index].kind == "play" else ""
    return f"; {trace.contract} by player {trace.declarer}{played}"


def _returns_differ(trace: TarokTrace, returns: list[int]) -> str | None:
    if returns == trace.returns:
        return None
    return f"returns differ: openspiel {trace.returns}, trickrules {returns} ({trace.contract} by player {trace.declarer})"


PLUG = Plug(
    where=lambda trace: f"seed {trace.seed} ({trace.players} players)",
    deal=lambda trace: {"hands": trace.hands, "set_aside": trace.talon},
    points_differ=_returns_differ,
    names=_names,
    action=_action,
    so_far=_so_far,
)
"""How tarok plugs into the shared replay: the hands and the talon in its dealt order are the
deal; the bidding is one kind (``declare``), calling a king, taking a talon group, burying and
playing the others; the returns must be equal."""


def replay_in_trickrules(trace: TarokTrace, game: trickrules.Game | None = None) -> list[str]:
    """Replay `trace` in trickrules (specs/tarok.yaml for its player count, or `game`) and describe
    the first place the engines disagree; empty when they agree everywhere."""
    return replay(trace, game if game is not None else load_trickrules_tarok(trace.players), PLUG)
