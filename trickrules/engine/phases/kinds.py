"""What a kind of phase is (`PhaseKind`), and the finished game's kind.

A kind of phase is one `PhaseKind` object, made in its own module: whose decision it is
(`player`), which actions are legal (`legal`), what an action does (`apply`), how the phase
begins when the round reaches its step (`start`), what it sets up for the round
(`new_round`), and the blocks of action integers it owns (`blocks`). The state dispatches
through the kind it waits in (`State._kind`), never by comparing phase numbers.

A kind also says what the rest of the system shows of it: what a player sees (`observe`, and
`segments` of the observation tensor), what its events write into a game record (`events`,
`record`) and into the text of a game (`record_lines`, `words`), and its paragraph of the
rulebook (`rulebook`). The phases of languages 1 and 2 keep those in the modules that show
them (`views`, `tensors`, `tools.record`, `tools.textlog`, `tools.rulebook_round`), where
every recorded text and layout stays as it was; a kind added since writes them here, and
they are shown after the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from trickrules.engine.actions import ActionBlock
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset


TERMINAL: Final = 4
"""The phase number of a finished game (each kind's module defines its own number)."""
NEVER_WAITS: Final = -1
"""The phase number of a step that never waits for a decision (turning up a card)."""


class PhaseKind:
    """One kind of phase. Each phase module subclasses it once and makes one instance (`KIND`).

    `phase` is its `Phase` number, defined in its module (`NEVER_WAITS` for a step that never waits); `step` the
    round step (``RoundStep.kind``) that starts it ("" for a phase that only other phases
    start, such as laying won cards); `blocks` the action blocks it owns; `events` the types
    of event it logs and shows itself (`record`, `words`).
    """

    def __init__(self, phase: int, step: str = "", blocks: tuple[ActionBlock, ...] = (), events: tuple[str, ...] = ()) -> None:
        self.phase = phase
        self.step = step
        self.blocks = blocks
        self.events = events

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin the phase at its step of the round; False when it has nothing to decide this
        round (the round goes on to its next step)."""
        return False

    def new_round(self, state: State) -> None:
        """Set up at the start of each round the part of the state this phase alone keeps."""

    def player(self, state: State) -> int:
        """Whose decision it is."""
        return state.current

    def legal(self, state: State) -> list[int]:
        """The legal actions (a new list; the state keeps it until the next action)."""
        return []

    def apply(self, state: State, action: int) -> None:
        """Take `action`, one of `legal(state)`."""
        raise AssertionError(f"no action is legal in phase {self.phase}")

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        """The most decisions this phase can ask for in a round, beyond what `Game.info` counts
        for the phases of languages 1 and 2 (0 for those)."""
        return 0

    def used(self, game: Game) -> bool:
        """Whether a game of these rules can wait in this phase."""
        return any(block.size(game) for block in self.blocks)

    # ------------------------------------------------------------ what the rest shows of it

    def names(self, state: State) -> dict[str, Any]:
        """The values this kind gives the round's scoring expressions (their names are the
        ones its rules declare to the compiler)."""
        return {}

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        """Add what `player` sees of this phase to the observation `view`."""

    def segments(self, game: Game) -> list[SegmentSpec]:
        """Segments of the observation tensor (name, shape, low, high, meaning, writer)."""
        return []

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        """Write one of its `events` into the round's `entry` of a game record."""

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        """The lines of a round's text (`trickrules.tools.textlog`) about this phase."""
        return []

    def words(self, event: dict[str, Any], game: Game) -> str:
        """One of its `events` as a line of the game's log (the browser page)."""
        return str(event["type"]).replace("_", " ")

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        """The per-game figures `simulate` tallies for this kind: (kind, name, measure) keys."""
        return []

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        """Tally one event of a recorded game into `values` (`figures`' keys); `memory` holds
        what the kind keeps between the events of one game."""

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        """The rulebook's paragraph on this phase at `step` ("" for none)."""
        return ""

    def __reduce__(self) -> str:
        """Pickle by name: a state unpickles with its module's registered kind itself (each
        kind's module holds it as `KIND`)."""
        return "TERMINAL_KIND" if self.phase == TERMINAL else "KIND"

    def __repr__(self) -> str:
        return f"<PhaseKind {self.step or self.phase}>"


class Terminal(PhaseKind):
    """The game is over: no one decides, nothing is legal."""

    def used(self, game: Game) -> bool:
        return True

    def player(self, state: State) -> int:
        return TERMINAL_PLAYER


TERMINAL_PLAYER: Final = -4
"""`current_player()` of a finished game (OpenSpiel's value)."""

TERMINAL_KIND: Final[PhaseKind] = Terminal(TERMINAL)


def enter(state: State, kind: PhaseKind, legal: list[int] | None = None) -> None:
    """Make the state wait in `kind` (its legal actions worked out on first use, or `legal`)."""
    state._kind = kind
    state._legal = legal


__all__ = ["NEVER_WAITS", "TERMINAL", "PhaseKind", "TERMINAL_KIND", "TERMINAL_PLAYER", "enter"]
