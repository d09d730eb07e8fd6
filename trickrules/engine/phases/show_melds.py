"""Phase: every player lays its melds on the table, shown to all; no decision.

When the round reaches its `show_melds` step (once trumps are known), each player shows the
cards of each meld measure it holds (`trickrules.rules.measures.meld_cards`), in the order the
step lists the measures. The cards stay in the hand and are played as usual; until played they
are public: every observation shows them, the log and the record name them, and a resampled
state keeps them in their owner's hand. The measures are scored as ever, at the round's end.

A meld announced as played (`MeldShowing.as_played`: Belote's belote-rebelote) is noted for
its holder at this step, unseen; when the holder plays the first card of it, the meld is
announced (`announce`): shown like the others from then on, its other cards public in the hand.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.rules.measures import MeldShowing, meld_cards

from .kinds import NEVER_WAITS, PhaseKind

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset

SLOT: Final = -2
"""Where the shown melds sit in `State.parts`: the second slot from the end (this step never
waits, so it has no `Phase` number to sit at; the turned-up card has the last)."""


Melds = tuple[tuple[tuple[str, tuple[int, ...]], ...], ...]
"""For each seat, (measure, cards) for each meld."""


@dataclass(frozen=True)
class Shown:
    """The melds shown this round: for each seat, (measure, cards) for each meld it holds;
    and the melds still to announce as played (`waiting`: their cards)."""

    melds: Melds
    pending: Melds = ()
    waiting: frozenset[int] = frozenset()

    def __reduce__(self) -> tuple[type[Shown], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.melds, self.pending, self.waiting))

    def copy(self) -> Shown:
        return self  # never changed: an announcement replaces it


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


def _measures(step: RoundStep, ruleset: Ruleset, as_played: bool = False) -> list[Any]:
    """The meld measures the step shows before play, in its order (every meld measure not
    announced as played, by default); or, `as_played`, those announced as played."""
    rules: MeldShowing = step.rules
    melds = [m for m in ruleset.scoring.measures if m.holding is not None and m.holding.meld is not None and not m.holding.meld.best]
    if as_played:
        return [m for name in rules.as_played for m in melds if m.name == name]
    if rules.measures is not None:
        return [m for name in rules.measures for m in melds if m.name == name]
    return [m for m in melds if m.name not in rules.as_played]


def _held(state: State, measures: list[Any]) -> Melds:
    """For each seat, (measure, cards) for each meld of `measures` its hand holds now."""
    faces, suits = state.tables.faces, len(state.game.ruleset.deck.suits)
    melds = []
    for hand in state.hands:
        mine = []
        for measure in measures:
            cards = meld_cards(measure.holding.meld, hand, faces.suit, faces.rank, state.trumps, suits)
            if cards:
                mine.append((measure.name, cards))
        melds.append(tuple(mine))
    return tuple(melds)


def announce(state: State, player: int, card: int) -> None:
    """`player` plays `card`: announce each meld waiting to be announced that holds it."""
    own: Shown = state.parts[SLOT]
    now = [meld for meld in own.pending[player] if card in meld[1]]
    if not now:
        return
    melds = list(own.melds)
    pending = list(own.pending)
    melds[player] = (*melds[player], *now)
    pending[player] = tuple(meld for meld in own.pending[player] if meld not in now)
    waiting = frozenset(c for mine in pending for _, cards in mine for c in cards)
    state.parts[SLOT] = Shown(tuple(melds), tuple(pending), waiting)
    if state.events is not None:
        for name, cards in now:
            state.log("announce", player=player, meld=name, cards=list(cards))


class ShowMelds(PhaseKind):
    """Each player shows its melds to the table; no decision."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Show each seat's melds of the step's measures, and note those announced as played;
        never waits."""
        before = _measures(step, state.game.ruleset)
        melds = _held(state, before)
        pending: Melds = ()
        waiting: frozenset[int] = frozenset()
        if step.rules.as_played:
            pending = _held(state, _measures(step, state.game.ruleset, as_played=True))
            waiting = frozenset(c for mine in pending for _, cards in mine for c in cards)
        state.parts[SLOT] = Shown(melds, pending, waiting)
        if state.events is not None and before:  # nothing is laid down when every meld waits to be played
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
        if event["type"] == "announce":
            entry.setdefault("announced", []).append({"player": event["player"], "meld": event["meld"], "cards": [ids[c] for c in event["cards"]]})
            return
        entry["melds"] = [[{"meld": m["meld"], "cards": [ids[c] for c in m["cards"]]} for m in mine] for mine in event["melds"]]

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        melds = entry.get("melds")
        lines = [] if melds is None else [f"Melds: P{seat} " + ("; ".join(f"{m['meld']} {' '.join(m['cards'])}" for m in mine) or "none")
                                          for seat, mine in enumerate(melds)]
        return lines + [f"Announced: P{a['player']} {a['meld']} {' '.join(a['cards'])}" for a in entry.get("announced", ())]

    def words(self, event: dict[str, Any], game: Game) -> str:
        ids = game.card_ids
        if event["type"] == "announce":
            return f"P{event['player']} announces {event['meld']} ({' '.join(ids[c] for c in event['cards'])})"
        parts = [f"P{seat} shows " + ("; ".join(f"{m['meld']} ({' '.join(ids[c] for c in m['cards'])})" for m in mine) or "no meld")
                 for seat, mine in enumerate(event["melds"])]
        return ". ".join(parts)

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        """Melds shown, counted by measure (each seat's showing or announcing of one meld measure once)."""
        steps = [step for step in game.steps if step.kind == "show_melds"]
        return [("melds", m.name, "fired") for step in steps for played in (False, True) for m in _measures(step, game.ruleset, played)]

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        if event["type"] == "announce":
            values["melds", event["meld"], "fired"] += 1
        elif event["type"] == "melds":
            for mine in event["melds"]:
                for meld in mine:
                    values["melds", meld["meld"], "fired"] += 1

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        names = ", ".join(m.name for m in _measures(step, ruleset))
        played = ", ".join(m.name for m in _measures(step, ruleset, as_played=True))
        before = ("Once trumps are known, every player lays on the table the cards of each meld it "
                  f"holds ({names}), for all to see, and takes them back into the hand; they are played as usual. ") if names else ""
        announced = (f"A player holding {'a meld' if ',' not in played else 'one of the melds'} {played} announces it "
                     "as it plays the first card of it: from then on all know the rest of it is in that hand. ") if played else ""
        return f"## Showing melds\n\n{before}{announced}The melds score at the end of the round, as the scoring says."


def _shown(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    width = state.game.num_cards
    for seat, cards in enumerate(shown_cards(state)):
        for card in cards:
            out[at + seat * width + card] = 1.0


KIND: Final[ShowMelds] = ShowMelds(NEVER_WAITS, "show_melds", events=("melds", "announce"))
