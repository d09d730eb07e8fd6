"""Phase: every player lays its melds on the table, shown to all; no decision.

When the round reaches its `show_melds` step (once trumps are known), each player shows the
cards of each meld measure it holds (`trickrules.rules.measures.meld_cards`), in the order the
step lists the measures. The cards stay in the hand and are played as usual; until played they
are public: every observation shows them, the log and the record name them, and a resampled
state keeps them in their owner's hand. The measures are scored as ever, at the round's end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.measures import meld_cards

from .kinds import NEVER_WAITS, PhaseKind

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset

SLOT: Final = -2
"""Where the shown melds sit in `State.parts`: the second slot from the end (this step never
waits, so it has no `Phase` number to sit at; the turned-up card has the last)."""


@dataclass(frozen=True)
class Shown:
    """The melds shown this round: for each seat, (measure, cards) for each meld it holds."""

    melds: tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]

    def __reduce__(self) -> tuple[type[Shown], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.melds,))

    def copy(self) -> Shown:
        return self  # never changed once shown


def shown(state: State) -> Shown | None:
    """The melds shown this round (None: none shown yet, or no such step)."""
    own: Shown | None = state.parts[SLOT]
    return own


def shown_cards(state: State) -> list[set[int]]:
    """By seat: the shown cards still in its hand (public until played)."""
    own = shown(state)
    if own is None:
        return [set() for _ in range(state.num_players)]
    return [{card for _, cards in melds for card in cards} & set(hand) for melds, hand in zip(own.melds, state.hands)]


def _measures(step: RoundStep, ruleset: Ruleset) -> list[Any]:
    """The meld measures the step shows, in its order (every meld measure by default)."""
    names: tuple[str, ...] = step.rules or ()
    melds = [m for m in ruleset.scoring.measures if m.holding is not None and m.holding.meld is not None]
    return [m for name in names for m in melds if m.name == name] if names else melds


class ShowMelds(PhaseKind):
    """Each player shows its melds to the table; no decision."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Show each seat's melds of the step's measures; never waits."""
        game = state.game
        faces, suits = state.tables.faces, len(game.ruleset.deck.suits)
        measures = _measures(step, game.ruleset)
        melds = []
        for hand in state.hands:
            mine = []
            for measure in measures:
                cards = meld_cards(measure.holding.meld, hand, faces.suit, faces.rank, state.trumps, suits)
                if cards:
                    mine.append((measure.name, cards))
            melds.append(tuple(mine))
        state.parts[SLOT] = Shown(tuple(melds))
        if state.events is not None:
            state.log("melds", melds=[[{"meld": name, "cards": list(cards)} for name, cards in mine] for mine in melds])
        state.changed()
        return False

    def used(self, game: Game) -> bool:
        return any(step.kind == "show_melds" for step in game.steps)

    # ------------------------------------------------------------ what the rest shows of it

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        own = shown(state)
        if own is None:
            return
        ids = state.game.card_ids
        view["melds"] = [[{"meld": name, "cards": [ids[c] for c in cards]} for name, cards in mine] for mine in own.melds]
        view["shown"] = [sorted(ids[c] for c in cards) for cards in shown_cards(state)]

    def segments(self, game: Game) -> list[SegmentSpec]:
        if not self.used(game):
            return []
        return [("shown", (game.num_players, game.num_cards), 0, 1, "by seat: 1 at each shown meld card still in its hand", _shown)]

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        ids = game.card_ids
        entry["melds"] = [[{"meld": m["meld"], "cards": [ids[c] for c in m["cards"]]} for m in mine] for mine in event["melds"]]

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        melds = entry.get("melds")
        if melds is None:
            return []
        return [f"Melds: P{seat} " + ("; ".join(f"{m['meld']} {' '.join(m['cards'])}" for m in mine) or "none")
                for seat, mine in enumerate(melds)]

    def words(self, event: dict[str, Any], game: Game) -> str:
        ids = game.card_ids
        parts = [f"P{seat} shows " + ("; ".join(f"{m['meld']} ({' '.join(ids[c] for c in m['cards'])})" for m in mine) or "no meld")
                 for seat, mine in enumerate(event["melds"])]
        return ". ".join(parts)

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        """Melds shown, counted by measure (each seat's showing of one meld measure once)."""
        steps = [step for step in game.steps if step.kind == "show_melds"]
        return [("melds", m.name, "fired") for step in steps for m in _measures(step, game.ruleset)]

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        if event["type"] == "melds":
            for mine in event["melds"]:
                for meld in mine:
                    key = ("melds", meld["meld"], "fired")
                    values[key] = values.get(key, 0) + 1

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        names = ", ".join(m.name for m in _measures(step, ruleset))
        return ("## Showing melds\n\nOnce trumps are known, every player lays on the table the cards of each meld it "
                f"holds ({names}), for all to see, and takes them back into the hand; they are played as usual. "
                "The melds score at the end of the round, as the scoring says.")


def _shown(state: State, player: int, out: list[float], at: int) -> None:
    width = state.game.num_cards
    for seat, cards in enumerate(shown_cards(state)):
        for card in cards:
            out[at + seat * width + card] = 1.0


KIND: Final[ShowMelds] = ShowMelds(NEVER_WAITS, "show_melds", events=("melds",))
