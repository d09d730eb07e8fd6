"""Refused input: what an action or a player number that the state cannot take is, and the
error that says so. A refusal changes nothing."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, NoReturn

from trickrules.engine.phases.kinds import TERMINAL_KIND
from trickrules.errors import IllegalActionError, OutOfRangeError

if TYPE_CHECKING:
    from trickrules.engine.state import State


def action_integer(state: State, action: Any, legal: list[int]) -> int:
    """The plain integer an action stands for; refuses bools and non-integers (floats too)."""
    if isinstance(action, bool):
        refuse(state, action, legal, f"a {type(action).__name__} is not an action (actions are integers)")
    try:
        return operator.index(action)
    except Exception:  # whatever the object's __index__ raises, the action is refused
        kind = "None" if action is None else f"a {type(action).__name__}"
        refuse(state, action, legal, f"{kind} is not an action (actions are integers)")


def refuse(state: State, action: Any, legal: list[int], reason: str = "") -> NoReturn:
    """Raise `IllegalActionError` for `action`, saying why and what is legal instead."""
    game = state.game
    if reason:
        pass
    elif state._kind is TERMINAL_KIND:
        reason = "the game is over"
    elif 0 <= action < game.num_distinct_actions():
        who = f"player {state.current_player()}"
        reason = f"{game.action_to_string(action)} is not allowed now for {who} (phase {state.phase.name.lower()})"
    else:
        reason = f"not an action of this game (actions are 0 to {game.num_distinct_actions() - 1})"
    names = [game.action_to_string(a) for a in legal]
    raise IllegalActionError(action, legal, str(state), reason, names)


def number(value: Any, size: int, what: str) -> int:
    """`value` as an integer in ``0 .. size - 1``; `OutOfRangeError` otherwise."""
    if not isinstance(value, bool):
        try:
            found = operator.index(value)
        except Exception:  # not an integer, whatever its __index__ raises
            found = -1
        if 0 <= found < size:
            return found
    raise OutOfRangeError(f"no {what} {value!r} in this game ({what}s are 0 to {size - 1})")
