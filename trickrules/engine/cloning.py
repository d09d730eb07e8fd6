"""Copies of a state, for search: every field copied as deep as it is ever changed in place.

`clone` names each field of a `State` and copies it by its shape: numbers, tuples, frozensets
and the game are shared (never changed in place); lists of numbers or tuples are copied; lists
of lists are copied one level down; mappings and lists of mappings are copied all the way down
(`deep`); the log and the finished rounds' results are lists of mappings never changed once
made, shared item by item. A state missing a field (one unpickled from an older version) is copied field by
field by name instead. ``tests/test_state.py`` checks both ways give equal, unshared copies of
states of every shipped spec.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trickrules.engine.state import State


def clone(state: State, empty: State, fields: tuple[str, ...]) -> State:
    """Fill `empty` (a new state with only its game and seed) with copies of `state`'s
    `fields` (all of a state's fields)."""
    try:
        _fill(state, empty)
    except AttributeError:  # a field not set: copy those that are, by name
        fill_by_name(state, empty, fields)
    return empty


def _fill(s: State, o: State) -> None:
    # shared: never changed in place
    o._kind, o._step, o.current, o.dealer = s._kind, s._step, s.current, s.dealer
    o.deals, o.dealt, o.declarer, o.given, o.hand_size, o.leader = s.deals, s.dealt, s.declarer, s.given, s.hand_size, s.leader
    o.deciders, o.led, o.next_seat, o.num_players = s.deciders, s.led, s.next_seat, s.num_players
    o.play_game, o.round, o.round_teams, o.tables = s.play_game, s.round, s.round_teams, s.tables
    o.trick_size, o.tricks_played, o.trumps = s.trick_size, s.tricks_played, s.trumps
    # lists of numbers or of tuples
    legal = s._legal
    o._legal = None if legal is None else list(legal)
    o._round_scores = list(s._round_scores)
    o.bonus, o.history, o.set_aside = list(s.bonus), list(s.history), list(s.set_aside)
    o.sitting_out, o.stock, o.totals = list(s.sitting_out), list(s.stock), list(s.totals)
    o.trick, o.trick_players = list(s.trick), list(s.trick_players)
    o.tricks, o.tricks_won = list(s.tricks), list(s.tricks_won)
    # lists of lists
    o.hands = [list(hand) for hand in s.hands]
    o.piles = [list(pile) for pile in s.piles]
    o.pool = [list(tokens) for tokens in s.pool]
    o.section_suits = [list(suits) for suits in s.section_suits]
    o.section_tokens = [list(tokens) for tokens in s.section_tokens]
    o.stacks = [[list(stack) for stack in stacks] for stacks in s.stacks]
    # mappings, and lists of them
    o._active = None if s._active is None else dict(s._active)
    o._env = deep(s._env)
    o._round_dicts = list(s._round_dicts)  # finished rounds' results: never changed once made
    o.counters = deep(s.counters)
    o.parts = [None if part is None else part.copy() for part in s.parts]  # phases' own parts
    events = s.events  # the log: appended to, each event never changed once logged
    o.events = None if events is None else list(events)


def fill_by_name(state: State, empty: State, fields: tuple[str, ...]) -> None:
    """Copy each of `fields` that `state` has into `empty`, all the way down (`deep`)."""
    for name in fields:
        if name not in ("game", "seed") and hasattr(state, name):
            setattr(empty, name, deep(getattr(state, name)))


def deep(value: Any) -> Any:
    """`value` with its lists and mappings copied all the way down (the rest shared)."""
    if isinstance(value, list):
        return [deep(v) for v in value]
    if isinstance(value, dict):
        return {k: deep(v) for k, v in value.items()}
    return value
