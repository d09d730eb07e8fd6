"""The invariant checkers of random play: `play_checked` plays a game and checks, after every
action and at the end:

`play_checked` plays the game and checks, after every action and at the end:

- cards: hands + trick + piles + stacks + place queue + set aside hold the deck, each card once;
- tricks: one card per player, in seat order from the leader, each play legal just before it;
- follow: the cards allowed are exactly those the follow rules ask for, recomputed here from
  the counting faces (a player holding the led group may play nothing else), narrowed by the
  play restrictions whose `when` holds (each unless it would leave nothing);
- passing: the direction and count the pass phase's schedule gives for the round, passers in
  turn from the first, hand + passed so far = the hand dealt, and each seat receives exactly
  the cards of the seat at the pass offset (`RoundWatch`); every hand is what the deal, the
  passes and the plays leave;
- counters: replayed from the event log (`CounterBook`) and equal to the engine's after every
  action; the game ends right after the first round after which `until` holds, or at `at_most`;
- winner: the one an independent reading of the ranking ladder picks (`ladder_winner`);
- tokens: supply + placed + pools + queued + lost this round = the round's starting supply;
- scores: rewards, measures (melds counted from the dealt hands, the last trick's cards),
  points (expression rules reading counters, round, totals, bids and the declarer's side too),
  totals and winners recomputed from the event log;
- clone: a clone given the same actions ends in the same state; observations show no other hand;
- hidden partners (teams by the deal): no observation shows a seat's side before it plays a
  partner card (unless every partner card is accounted for), what is shown is true, and each
  player's observation and tensor are the same in a state resampled from what it knows;
- records: the same seed and decisions give the same record, byte for byte.

Each checker raises AssertionError. The rules are read here independently of the engine: the
counting faces, card conditions, ranking ladder, follow rules and rewards in
tests/invariants_rules.py; scores, counters, passing and `until` in tests/invariants_scores.py.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import strategies as st

import trickrules
from invariants_rules import NO_LED, Faces, allowed_cards, card_matches, faces_for, free_cards, ladder_winner, led_of
from invariants_scores import RoundWatch, check_scores, teams_of
from trickrules.errors import IllegalActionError
from trickrules.engine.game import Game
from trickrules.tools.record import build_record, dumps
from trickrules.rules.ruleset import UNLIMITED, Ruleset, TrumpChoice
from trickrules.engine.state import Phase, State
from trickrules.engine import phases
from trickrules.engine.resample import resample

Choose = Callable[[int], int]
"""(number of legal actions) -> the index of the one to take."""

READ_PHASES = frozenset({"deal", "turn_up", "choose_trumps", "complete_deal", "pass", "bid", "show_melds", "play", "score"})
"""The phases of a round the checkers below read (trick sizes, seats, scores assume them)."""


def unread_parts(ruleset: Ruleset) -> list[str]:
    """Parts of a ruleset the checkers do not read yet (a game with them would fail them wrongly):
    phases that take players out of the tricks or change the rules for a round, and teams
    formed by the deal (their scores: tests/test_properties_partners.py)."""
    parts = sorted({step.kind for step in ruleset.round} - READ_PHASES)
    by_deal = ["teams by the deal"] if ruleset.partner_cards else []  # tests/test_properties_partners.py
    # the set-aside cards no one took (`left`) are not followed; nor the last trick when set-aside
    # cards are won with tricks (its cards are then the set-aside ones: the rulebook cases)
    with_set_aside = ruleset.set_aside_per_trick > 0 or ruleset.called_takes_set_aside
    unread = [
        f"measure {m.name}" for m in ruleset.scoring.measures
        if m.holding is not None and (m.holding.of == "left" or (m.holding.of == "last_trick" and with_set_aside))
    ]
    # the declarer (`makers`, `declarer`) is followed from bidding by precedence, or from trumps chosen in rounds
    precedence = any(step.bidding is not None and step.bidding.bidding == "precedence" for step in ruleset.round)
    precedence |= isinstance(ruleset.trumps, TrumpChoice) and bool(ruleset.trumps.rounds)
    reads = {name for rule in ruleset.scoring.round_rules if rule.expression is not None for name in rule.expression.names}
    reads |= {name for c in ruleset.counters if c.on_round_end is not None for name in c.on_round_end.names}
    unread += [] if precedence else [f"scoring reads {name}" for name in sorted(reads & {"makers", "declarer"})]
    return parts + (["contracts"] if getattr(ruleset, "contracts", ()) else []) + by_deal + unread


# ================================================================ the checkers


def check_cards(state: State) -> None:
    """Every card of the deck is in exactly one place."""
    places = [*state.hands, state.trick, *state.piles, phases.place_cards.placing(state).queue, state.set_aside]
    passing = phases.pass_cards.running(state)
    places += passing.passed if passing is not None else []  # passed, not arrived yet
    places.append(phases.discard.discarded(state))  # laid away after taking a card
    places += [stack for row in state.stacks for stack in row]
    held = sorted(card for place in places for card in place)
    assert held == list(range(state.game.num_cards)), f"cards gained, lost or doubled: {held}"


def check_trick_in_progress(state: State) -> None:
    """The trick on the table: one card per player so far, in seat order."""
    n, players = state.game.num_players, state.trick_players
    assert len(state.trick) == len(players) < n
    assert all(b == (a + 1) % n for a, b in zip(players, players[1:])), f"seat order broken: {players}"


def check_refuses(state: State, legal: Sequence[int]) -> None:
    """An action outside `legal` raises IllegalActionError and leaves the state as it was."""
    wrong = [c for hand in state.hands for c in hand if c not in legal][:1] or [-1]
    before = (str(state), list(state.history))
    with pytest.raises(IllegalActionError):
        state.apply_action(wrong[0])
    assert (str(state), list(state.history)) == before, "a refused action changed the state"
    assert state.legal_actions() == list(legal)


def check_trick(event: dict[str, Any], num_players: int) -> None:
    """A finished trick: one card from every player, in seat order from the leader."""
    players, cards = event["players"], event["cards"]
    assert len(cards) == len(players) == num_players, f"trick of {len(cards)} cards: {event}"
    assert players == [(event["leader"] + i) % num_players for i in range(num_players)], event
    assert len(set(cards)) == num_players, f"a card played twice: {event}"


def check_play(event: dict[str, Any], action: int, legal: Sequence[int], player: int) -> None:
    """The card played is the action taken, by the player to move, from the legal actions."""
    assert event["card"] in legal, f"card {event['card']} played though not legal: {list(legal)}"
    assert (event["card"], event["player"]) == (action, player), f"asked {action} of {player}, got {event}"


def check_follow(state: State, legal: Sequence[int], faces: Faces, reader: Ruleset | None = None) -> None:
    """The legal cards are those the follow rules ask for (from the counting faces), narrowed by
    the play restrictions; `reader`: the rules as read here (the game's by default)."""
    if state.phase != Phase.PLAY:
        return
    player = state.current_player()
    hand = state.hands[player]
    rules = reader or state.game.ruleset
    partners = [p for team in state.round_teams if player in team for p in team if p != player]
    expected = allowed_cards(rules, hand, state.trick, faces, state.trick_players, partners)
    if rules.restrictions:
        expected = restricted_cards(rules, expected, state, player, faces)
    assert sorted(legal) == expected, f"follow: legal {sorted(legal)}, the rules allow {expected}"


def restricted_cards(rules: Ruleset, cards: list[int], state: State, player: int, faces: Faces) -> list[int]:
    """The play restrictions read from the rules' words: each narrows while its condition holds,
    unless nothing would be left."""
    env: dict[str, Any] = dict(rules.constants)
    team = teams_of(rules)[player]  # a player counter is the player's own; a team counter the team's
    scopes = {c.name: c.scope for c in rules.counters}
    env.update({k: (v[team if scopes.get(k) == "team" else player] if isinstance(v, list) else v) for k, v in state.counters.items()})
    env.update(trick=state.tricks_played + 1, round=state.round + 1, totals=tuple(state.totals))
    env.update(players=state.num_players, hand_size=state.hand_size)
    leading = not state.trick
    led = led_of(state.trick, free_cards(rules, faces), faces)  # a `led` condition reads the trick's (none led yet: NO_LED)
    for rule in rules.restrictions:
        if (rule.lead is True and not leading) or (rule.lead is False and leading):
            continue
        if rule.when is not None and not rule.when(env):
            continue
        condition = rule.allow if rule.allow is not None else rule.forbid
        assert condition is not None
        keep = [c for c in cards if card_matches(condition, c, faces, rules.deck, led) == (rule.allow is not None)]
        cards = keep or cards
    return sorted(cards)


def check_winner(event: dict[str, Any], reader: Ruleset, faces: Faces) -> None:
    """The trick's winner is the one the ladder picks, read step by step."""
    free = free_cards(reader, faces)
    position = ladder_winner(reader.ranking, event["cards"], faces, reader.deck, led_of(event["cards"], free, faces))
    expected = event["players"][position]
    assert event["winner"] == expected, f"trick {event['cards']}: engine says {event['winner']}, ladder {expected}"
    first = reader.ranking[0].condition
    exempt = [rule.condition for rule in reader.follow if rule.kind == "exempt"]
    if free and first is not None and first.negate is not None and first.negate in exempt:  # ranked never to win
        assert event["cards"][position] not in free or all(card in free for card in event["cards"]), "a free card won the trick"


def check_tokens(state: State, lost_at_round_start: Sequence[int]) -> None:
    """Finite token supplies are conserved within a round."""
    rules = state.game.ruleset
    staff = rules.tableau.token if rules.tableau is not None else None
    for token, kind in enumerate(rules.tokens):
        if kind.supply == UNLIMITED:
            continue
        placed = sum(sum(row) for row in state.section_tokens) if staff == token else 0
        pools = sum(pool[token] for pool in state.pool)
        queued = sum(1 for _, k in phases.place_tokens.tokens(state).queue if k == token)
        lost = phases.place_tokens.tokens(state).lost[token] - lost_at_round_start[token]
        total = phases.place_tokens.tokens(state).supply[token] + placed + pools + queued + lost
        assert phases.place_tokens.tokens(state).supply[token] >= 0 and pools >= 0, f"{kind.name}: negative supply or pool"
        assert total == kind.supply, f"{kind.name}: {total} tokens in play, the supply was {kind.supply}"


def check_observations(state: State) -> None:
    """Each player's observation shows their own hand and no card of another hand, but a hand
    laid open on the table after the opening lead (a dummy's) or from the start of the play (a
    declarer's open hand) and the melds shown to all."""
    ids = state.game.card_ids
    for player in range(state.game.num_players):
        observation = state.observation(player)
        hidden = {ids[c] for other, hand in enumerate(state.hands) if other != player for c in hand}
        running = phases.pass_cards.running(state)
        passed = running.passed if running is not None else []  # on their way: not seen yet
        hidden |= {ids[c] for other, cards in enumerate(passed) if other != player for c in cards}
        hidden -= {ids[c] for c in _turned_up(state)}  # everyone saw it turned up; a player may take it
        # a hand another seat plays (a dummy) lies open once the round's first card is played
        laid_open = [p for p, d in enumerate(state.deciders) if d != p] if state.tricks or state.trick else []
        # a declarer whose contract lays its hand open (`open_hand`), once the play has begun
        if state.play_game.ruleset.open_hand and state.declarer >= 0 and state.declarer not in laid_open and state.phase == phases.Phase.PLAY:
            laid_open.append(state.declarer)
        hidden -= {ids[c] for p in laid_open for c in state.hands[p]}
        melded = phases.show_melds.shown_cards(state)  # laid on the table for all, until played
        hidden -= {ids[c] for cards in melded for c in cards}
        if phases.show_melds.shown(state) is not None:
            assert observation["shown"] == [sorted(ids[c] for c in cards) for cards in melded], "the melds shown are not the ones held"
        if laid_open:
            assert observation["exposed"] == {p: [ids[c] for c in state.hands[p]] for p in laid_open}, "the dummy is not shown"
        shown = set(_words(observation))
        assert not hidden & shown, f"player {player} sees {sorted(hidden & shown)}"
        assert observation["hand"] == [ids[c] for c in state.hands[player]], "not the player's own hand"


def check_hidden_partners(state: State, rng: random.Random) -> int:
    """With teams by the deal (`holders_of`): no player's observation shows another seat's side
    before that seat plays a partner card, unless every partner card is in the player's own
    dealt hand or played; what it shows is the truth; and the observation and its tensor are
    the same in a state dealt again from what the player knows (they hold nothing the hidden
    cards decide). Returns how many other seats' sides were shown (0 without such teams)."""
    cards = set(state.game.ruleset.partner_cards)
    if not cards:
        return 0
    played: list[set[int]] = [set() for _ in range(state.game.num_players)]
    for trick, players in [*state.tricks, (state.trick, state.trick_players)]:
        for card, seat in zip(trick, players):
            played[seat].add(card)
    everything_played = set().union(*played)
    holders = {seat for seat, hand in enumerate(state.hands) if cards & (set(hand) | played[seat])}
    shown = 0
    for player in range(state.game.num_players):
        observation = state.observation(player)
        sides = observation["sides"]
        accounted = cards <= (set(state.hands[player]) | everything_played)
        for seat, side in enumerate(sides):
            if seat == player:
                assert side == "own", f"player {player} does not know its own side"
                continue
            if not (played[seat] & cards) and not accounted:
                assert side is None, f"player {player} sees seat {seat}'s side before it played a partner card"
            if side is not None:
                shown += 1
                same = (seat in holders) == (player in holders)
                assert side == ("own" if same else "other"), f"player {player} is shown seat {seat} on the wrong side"
        if state.phase == Phase.PLAY:
            world = resample(state, player, rng)
            assert world.observation(player) == observation, f"player {player}'s observation depends on hidden cards"
            assert world.observation_tensor(player) == state.observation_tensor(player), "the tensor depends on hidden cards"
            dealt = [set(hand) | {c for t, ps in [*world.tricks, (world.trick, world.trick_players)] for c, p in zip(t, ps) if p == seat}
                     for seat, hand in enumerate(world.hands)]
            holding = tuple(seat for seat, hand in enumerate(dealt) if cards & hand)
            rest = tuple(seat for seat in range(len(dealt)) if seat not in holding)
            assert world.round_teams == tuple(t for t in (holding, rest) if t), "resampled teams do not follow the hands"
    return shown


def _turned_up(state: State) -> list[int]:
    """The cards turned up face up this round (every player has seen them)."""
    shown: list[int] = []
    for event in state.events or ():
        if event["type"] == "deal":
            shown = []
        elif event["type"] == "turn_up" and event["card"] >= 0:
            shown.append(event["card"])
    return shown


def _words(value: Any) -> list[str]:
    """Every word of every text (and key) in a JSON-like value."""
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in _words(k) + _words(v)]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in _words(v)]
    return [w.strip("()[],") for w in value.split()] if isinstance(value, str) else []


def snapshot(state: State) -> tuple:
    """What must agree between a state and its clone."""
    players = range(state.game.num_players)
    return (str(state), [state.observation(p) for p in players], list(state.history), state.returns())


def check_clone(twin: State, tail: Sequence[int], state: State) -> None:
    """The clone, given the actions taken since, is in the same state as the original."""
    try:
        for action in tail:
            twin.apply_action(action)
    except ValueError as error:  # IllegalActionError, or worse: a clone sharing lists with its original
        raise AssertionError(f"the clone diverged: {str(error).splitlines()[0]}") from None
    assert snapshot(twin) == snapshot(state), "the clone ended in another state"
    assert (twin.round_results, twin.totals) == (state.round_results, state.totals)


def check_pass_legal(state: State, legal: Sequence[int]) -> None:
    """A passer may pass any card of their hand, and nothing else."""
    offset = state.game.pass_offset
    expected = sorted(offset + c for c in state.hands[state.current_player()])
    assert sorted(legal) == expected, f"pass: legal {sorted(legal)}, the hand allows {expected}"


def check_pass(event: dict[str, Any], action: int, legal: Sequence[int], player: int, offset: int) -> None:
    """The card passed is the action taken, by the player to move, from the legal actions."""
    assert event["card"] + offset in legal, f"card {event['card']} passed though not legal"
    assert (event["card"] + offset, event["player"]) == (action, player), f"asked {action} of {player}, got {event}"



# ================================================================ playing under the checkers


@dataclasses.dataclass
class Played:
    """A finished, checked game and the decisions that made it."""

    state: State
    choices: list[int]
    narrowed: int = 0  # decisions where a play restriction narrowed the legal cards
    watch: RoundWatch | None = None


def play_checked(game: Game, seed: int, choose: Choose, reader: Ruleset | None = None, clone_at: int = 0) -> Played:
    """Play a game, checking every invariant after every action; `reader`: the rules as the
    checkers read them (the ladder, follow rules and restrictions, passing, counters, scores and
    the end of the game), the game's own by default."""
    reader = reader or game.ruleset
    deck = game.ruleset.deck
    state = game.new_initial_state(seed, record=True)
    assert state.events is not None
    faces_cache: dict[frozenset[int], Faces] = {}
    lost_at_start, round_seen = list(phases.place_tokens.tokens(state).lost), state.round
    twin: tuple[State, int] | None = None
    choices: list[int] = []
    watch, narrowed = RoundWatch(state, reader), 0
    watch.feed(state)  # the first deal, and a pass phase begun
    while not state.is_terminal():
        faces = faces_cache.setdefault(state.trumps, faces_for(deck, state.trumps))
        assert faces.suit == state.tables.faces.suit and faces.rank == state.tables.faces.rank
        legal, player = state.legal_actions(), state.current_player()
        assert legal, "a decision without legal actions"
        check_follow(state, legal, faces, reader)
        if state.phase == Phase.PLAY and reader.restrictions:
            partners = [p for team in state.round_teams if player in team for p in team if p != player]
            narrowed += sorted(legal) != allowed_cards(reader, state.hands[player], state.trick, faces, state.trick_players, partners)
        if state.phase == Phase.PASS:
            check_pass_legal(state, legal)
        if len(state.history) % 7 == 0:
            check_refuses(state, legal)
        if len(state.history) == clone_at:
            twin = (state.clone(), clone_at)
            assert snapshot(twin[0]) == snapshot(state), "a fresh clone differs"
        choices.append(choose(len(legal)))
        action, phase, logged = legal[choices[-1]], state.phase, len(state.events)
        state.apply_action(action)
        for event in state.events[logged:]:
            if event["type"] == "play":
                assert phase == Phase.PLAY
                check_play(event, action, legal, player)
            elif event["type"] == "trick":
                check_trick(event, game.num_players)
                check_winner(event, reader, faces)
            elif event["type"] == "pass":
                assert phase == Phase.PASS
                check_pass(event, action, legal, player, game.pass_offset)
        if state.round != round_seen and not state.is_terminal():  # a new deal: the supply is reset
            lost_at_start, round_seen = list(phases.place_tokens.tokens(state).lost), state.round
        check_cards(state)
        watch.feed(state)
        if state.phase == Phase.PLAY:
            check_trick_in_progress(state)
        check_tokens(state, lost_at_start)
        check_observations(state)
        check_hidden_partners(state, random.Random(len(state.history)))
    assert state.legal_actions() == [] and state.current_player() == trickrules.TERMINAL_PLAYER
    check_scores(state, reader)
    if twin is not None:
        check_clone(twin[0], state.history[twin[1] :], state)
    return Played(state, choices, narrowed, watch)


def replay_choices(game: Game, seed: int, choices: Sequence[int]) -> State:
    """Play again with the same decisions (indices into the legal actions), unchecked."""
    state = game.new_initial_state(seed, record=True)
    for choice in choices:
        if state.is_terminal():
            break  # a broken engine may deal otherwise: the records then differ
        legal = state.legal_actions()
        state.apply_action(legal[choice % len(legal)])
    return state


def check_same_record(game: Game, seed: int, played: Played) -> None:
    """The same seed and decisions give the same record, byte for byte."""
    again = replay_choices(game, seed, played.choices)
    assert dumps(build_record(again)) == dumps(build_record(played.state)), "same seed, another record"


def drawn_choices(data: st.DataObject) -> Choose:
    """Hypothesis picks each decision; a lone legal action needs no draw."""
    return lambda count: 0 if count == 1 else data.draw(st.integers(0, count - 1))


def random_choices(seed: int) -> Choose:
    chooser = random.Random(seed)
    return lambda count: chooser.randrange(count)
