"""Phase: play the round's tricks, one card per action (``play <card>``).

The leader plays any card; the others play what the follow rules allow (a free card led sets
no led group: the next card does). When the trick is full it is resolved: the ranking names
the winner, rewards are gained, and the won cards go to the winner's pile (a kept card back to
its owner's, owing an exchange made when the play ends) or wait to be laid on the tableau.
Playing a card is the most frequent action of all: `Play.apply` is written for speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.conditions import card_holds
from trickrules.rules.follow import NOT_LED, TrickNow
from trickrules.rules.scoring import held

from trickrules.engine import partners
from trickrules.engine.actions import ActionBlock, cards

from . import call, place_cards, place_tokens, show_melds
from . import turns
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game, Matching
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep


PLAY: Final = 1
"""This kind's `Phase` number."""


class Play(PhaseKind):
    """Play the round's tricks (action ``play <card>``)."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin the round's tricks: the first leader leads (the next seat if the leader sits out)."""
        leader = first_leader(state)
        if leader in state.sitting_out:
            leader = state.next_seat[leader]
        state.leader = state.current = leader
        enter(state, self)
        return True

    def used(self, game: Game) -> bool:
        return True

    def player(self, state: State) -> int:
        return state.deciders[state.current]  # the declarer, on its dummy's turns

    def legal(self, state: State) -> list[int]:
        return legal(state)

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        """A kept card back to its owner (``kept``), a card given for one (``exchanged``)."""
        key = "kept" if event["type"] == "kept" else "exchanged"
        entry.setdefault(key, []).append({"player": event["player"], "card": game.card_ids[event["card"]], "winner": event["winner"]})

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        return ([f"Kept: P{k['player']} takes back {k['card']} from P{k['winner']}'s trick" for k in entry.get("kept", ())]
                + [f"Exchange: P{k['player']} gives P{k['winner']} {k['card']}" for k in entry.get("exchanged", ())])

    def words(self, event: dict[str, Any], game: Game) -> str:
        card = game.card_ids[event["card"]]
        if event["type"] == "kept":
            return f"P{event['player']} keeps {card}: it goes back to its own won cards, not P{event['winner']}'s"
        return f"P{event['player']} gives P{event['winner']} {card} in exchange for its kept card"

    def apply(self, state: State, action: int) -> None:
        player = state.current
        state.hands[player].remove(action)
        trick, tables = state.trick, state.tables
        if not trick:
            if state.play_game.trumps_first_led and state.tricks_played == 0:
                state.set_trumps(frozenset([tables.faces.suit[action]]))  # the first card led names trumps
                tables = state.tables
            state.led = NOT_LED if action in tables.free else tables.faces.group[action]
        elif state.led == NOT_LED and action not in tables.free:  # led by a free card: this card leads
            state.led = tables.faces.group[action]
        trick.append(action)
        state.trick_players.append(player)
        if state.events is not None:
            state.log("play", player=player, card=action, face=tables.faces.face[action])
        shown = state.parts[show_melds.SLOT]
        if shown is not None and action in shown.waiting:  # a meld announced as its first card is played
            show_melds.announce(state, player, action)
        if tables.on_play is not None and tables.on_play[action]:
            count(state, player, action)
        if len(trick) < state.trick_size:
            state.current = state.next_seat[player]
        else:
            resolve_trick(state)


KIND: Final[Play] = Play(PLAY, "play", (ActionBlock(0, "play", lambda g: g.num_cards, cards("play")),), events=("kept", "exchange"))


def first_leader(state: State) -> int:
    """Who leads the round's first trick: as the deal says, or the holder of a card."""
    deal = state.play_game.ruleset.deal  # a contract may name its own
    if deal.first_leader == "holder":
        holders = [p for p, hand in enumerate(state.hands) if deal.first_leader_card in hand]
        if holders:
            return holders[0]
    if deal.first_leader == "left_of_declarer" and state.declarer >= 0:
        return (state.declarer + 1) % state.num_players
    if deal.first_leader == "declarer" and state.declarer >= 0:
        return state.declarer
    return turns.starting_seat(deal.first_leader, deal.first_leader_seat, state.dealer, state.num_players)


def legal(state: State) -> list[int]:
    """The cards the current player may play: what the follow rules allow, narrowed by the
    restrictions that bind now."""
    tables = state.tables
    hand = state.hands[state.current]
    trick = state.trick
    if not trick or state.led == NOT_LED:  # leading, or following a free card led
        cards = list(hand)
    elif tables.follow_in_trick is not None:  # rules that read the trick as it stands
        cards = tables.follow_in_trick(hand, state.led, trick_now(state))
    else:
        cards = tables.legal_follow(hand, state.led)
    if not tables.restrictions[not trick]:
        return cards
    for allow, matching in active_restrictions(state, not trick):
        if isinstance(matching, frozenset):
            narrowed = [c for c in cards if c in matching] if allow else [c for c in cards if c not in matching]
        else:  # the condition reads the led group: a lead leads its own group
            group = tables.faces.group
            narrowed = [c for c in cards if matching(c, state.led if trick else group[c]) == allow]
        if narrowed:
            cards = narrowed
    return cards


def trick_now(state: State) -> TrickNow:
    """The trick as it stands, for the follow rules that read it."""
    player, number = state.current, state.tricks_played + 1
    partners = next((team for team in state.round_teams if player in team), ())
    last = number == state.hand_size
    winner = state.tables.trick_winner
    led = state.led
    return TrickNow(state.trick, state.trick_players, [p for p in partners if p != player],
                    lambda cards: winner(cards, led, number, last), number, last)


def active_restrictions(state: State, lead: bool) -> tuple[tuple[bool, Matching], ...]:
    """The restrictions that bind the current player now (the leader's if `lead`), as
    (allow, matching) pairs: those whose `when` holds. Kept until the names expressions read
    change (`State.changed`), the trick ends or the trumps change."""
    key = 2 * state.current + lead if state.game.player_counters else lead
    cache = state._active
    if cache is None:
        cache = state._active = {}
    else:
        known = cache.get(key)
        if known is not None:
            return known
    env = None
    active = []
    for when, allow, matching in state.tables.restrictions[lead]:
        if when is not None:
            if env is None:
                env = state.env(state.current)
            try:
                if not when(env):
                    continue
            except (ArithmeticError, IndexError, TypeError, ValueError):
                _explain(state, env)
                raise
        active.append((allow, matching))
    found = cache[key] = tuple(active)
    return found


def _explain(state: State, env: dict) -> None:
    """Raise the readable error of the restriction whose expression fails on these values."""
    for rule in state.game.ruleset.restrictions:
        if rule.when is not None:
            rule.when(env)  # raises ExpressionValueError naming the expression


def count(state: State, player: int, card: int) -> None:
    """Change the counters that playing `card` changes (expressions see the change)."""
    game = state.play_game
    counters = game.ruleset.counters
    values = state.counters
    for index in state.tables.on_play[card]:  # type: ignore[index]
        counter = counters[index]
        if index in game.counters_reading_trick:
            condition = counter.on_play
            assert condition is not None
            if not card_holds(condition, card, game.ruleset.deck, state.tables.faces, led=state.led):
                continue
        if counter.scope == "table":
            old = values[counter.name]
            new = counter.set_to if counter.set_to is not None else held(old + counter.add)
            values[counter.name] = new
        else:
            row = values[counter.name]
            at = player if counter.scope == "player" else state.game.team_of[player]
            old = row[at]
            new = row[at] = counter.set_to if counter.set_to is not None else held(old + counter.add)
        if new != old:
            state.changed()


def resolve_trick(state: State) -> None:
    """Find the trick's winner, gain its rewards, and send the won cards on their way."""
    tables, cards, players = state.tables, state.trick, state.trick_players
    number = state.tricks_played + 1
    last = number == state.hand_size
    position = tables.trick_winner(cards, state.led, number, last)
    winner = players[position]
    state.tricks_won[winner] += 1
    state.tricks_played = number
    if state.events is not None:
        state.log("trick", leader=players[0], cards=list(cards), players=list(players), winner=winner)
    if tables.trick_rewards is not None:
        sides = partners.sides(state) if state.play_game.partner_rewards else ()
        for gain in tables.trick_rewards(cards, players, position, state.led, number, last, sides):
            place_tokens.gain(state, *gain)
    if state.game.won_to_pile:
        state.piles[winner].extend(cards if not tables.kept else _keep(state, cards, players, winner))
        if state.stock and state.play_game.takes_set_aside_in_play:
            take_set_aside(state, winner, cards[position])
    else:
        place_cards.start(state, winner, cards)
    state.leader = winner
    cache = state._env
    if cache:  # the names expressions read stay, but for the number of the trick
        for env in cache.values():
            env["trick"] = state.tricks_played + 1
    state._active = None
    state.tricks.append((cards, players))  # kept as they are: the state takes new lists below
    state.trick = []
    state.trick_players = []
    after_trick(state)


def take_set_aside(state: State, winner: int, card: int) -> None:
    """The set-aside cards a trick's winner takes in play: the next ones for each trick
    (`set_aside_per_trick`), or all that are left when the trick is won by the called card and
    that card lay among them at the deal (`called_takes_set_aside`)."""
    rules = state.play_game.ruleset
    if rules.set_aside_per_trick:
        taken = state.stock[: rules.set_aside_per_trick]
    elif rules.called_takes_set_aside and (own := call.calling(state)) is not None and own.set_aside and card == own.card:
        taken = list(state.stock)
    else:
        return
    del state.stock[: len(taken)]
    state.set_aside[:] = [c for c in state.set_aside if c not in taken]
    state.piles[winner].extend(taken)
    if state.events is not None:
        state.log("set_aside_won", player=winner, cards=list(taken))


@dataclass
class Kept:
    """The kept cards of the round that went back to their owners: (owner, the trick's winner)
    for each, the exchanges still to make when the play ends."""

    owed: list[tuple[int, int]]

    def __reduce__(self) -> tuple[type[Kept], tuple[list[tuple[int, int]]]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.owed,))

    def copy(self) -> Kept:
        return Kept(list(self.owed))


def _keep(state: State, cards: list[int], players: list[int], winner: int) -> list[int]:
    """Send each kept card of a won trick back to its owner's won cards (noting the exchange
    it owes the winner); the rest go to the winner."""
    kept = state.tables.kept
    won = []
    for card, owner in zip(cards, players):
        if card not in kept or owner == winner:
            won.append(card)
            continue
        state.piles[owner].append(card)
        own: Kept | None = state.parts[PLAY]
        if own is None:
            own = state.parts[PLAY] = Kept([])
        own.owed.append((owner, winner))
        if state.events is not None:
            state.log("kept", player=owner, card=card, winner=winner)
    return won


def exchange_kept(state: State) -> None:
    """When the play ends: each owner of a kept card whose trick another side won gives that
    winner the first card it won that the exchange names, if it won one."""
    own: Kept | None = state.parts[PLAY]
    if own is None:
        return
    exchange = state.tables.exchange
    for owner, winner in own.owed:
        if winner in next((team for team in state.round_teams if owner in team), (owner,)):
            continue  # a partner won it: the side keeps its card
        given = next((card for card in state.piles[owner] if card in exchange), None)
        if given is None:
            continue
        state.piles[owner].remove(given)
        state.piles[winner].append(given)
        if state.events is not None:
            state.log("exchange", player=owner, card=given, winner=winner)
    state.parts[PLAY] = None


def after_trick(state: State) -> None:
    """Make the forced placements, then wait for the next decision or end the round."""
    if place_tokens.waiting(state) and place_tokens.auto_place(state):
        return
    if place_cards.waiting(state) and place_cards.place_forced(state):
        return
    if state.tricks_played == state.hand_size or (state.play_game.ruleset.play_ends_when is not None and play_ends(state)):
        if state.tables.kept:
            exchange_kept(state)
        state.next_step()
        return
    enter(state, KIND)
    state.current = state.leader


def play_ends(state: State) -> bool:
    """Whether the round's `play_ends_when` holds after this trick (its names: `contexts.PLAY_ENDS`)."""
    ends = state.play_game.ruleset.play_ends_when
    assert ends is not None
    declarer = state.declarer
    env = dict(state.env(max(declarer, 0)))
    side = next((team for team in state.round_teams if declarer in team), (declarer,)) if declarer >= 0 else ()
    makers = sum(state.tricks_won[p] for p in side)
    env.update(declarer=declarer, makers_tricks=makers, defenders_tricks=state.tricks_played - makers,
               tricks_played=state.tricks_played)
    return bool(ends(env))
