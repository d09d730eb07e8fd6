"""Phase: the declarer takes the set-aside cards and buries as many (``take group 2``, ``bury <card>``).

Where the rules allow a hand game, the declarer first says ``pick-up`` or ``hand``: playing
from the hand as dealt, it leaves the pile face down, unseen, counting for it at the end
where buried cards do (Skat's hand games).

The cards not dealt lie face down (`State.stock`, in dealt order). When the round reaches its
`take` step and someone declared, the declarer takes them into the hand: the whole pile, or
one of the groups it is split into (``take group N``, the pile shown to everyone while the
declarer chooses where the rules say so). Then the declarer lays away (buries) cards one by
one (``bury <card>``) until the hand is back to its size; a card the rules forbid may be
buried only when the hand holds nothing else. The buried cards stay known to the declarer
alone and count, where the rules say so, among the declarer's won cards when the round is
scored (`scored_piles`). `trickrules.rules.take` has the rules.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from trickrules.engine.actions import ActionBlock, Texts, cards, words
from trickrules.rules.conditions import card_holds
from trickrules.rules.take import MAX_GROUPS, TakePhase

from . import declare
from .kinds import PhaseKind, enter

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.engine.tensors import SegmentSpec
    from trickrules.rules.ruleset import RoundStep, Ruleset

TAKE: Final = 11
"""This kind's `Phase` number."""


@dataclass
class Taking:
    """The take phase's own state, kept for the round: its rules, the taker, the pile as it
    lay (dealt order), the groups it is split into, the cards taken, the cards buried, how many
    are still to bury, and whether the taker is still choosing a group."""

    rules: TakePhase
    taker: int
    pile: list[int]
    groups: int
    taken: list[int]
    buried: list[int]
    left: int = 0
    choosing: bool = False
    asking: bool = False  # the taker is still choosing between picking up and a hand game
    hand: bool = False  # a hand game: the pile left face down

    def __reduce__(self) -> tuple[type[Taking], tuple[Any, ...]]:
        """Pickle by the constructor's arguments (as the compiled engine's classes need)."""
        return (type(self), (self.rules, self.taker, self.pile, self.groups, self.taken, self.buried, self.left, self.choosing,
                             self.asking, self.hand))

    def copy(self) -> Taking:
        return Taking(self.rules, self.taker, list(self.pile), self.groups, list(self.taken), list(self.buried),
                      self.left, self.choosing, self.asking, self.hand)


def taking(state: State) -> Taking | None:
    """The round's taking of the set-aside cards, once it has begun."""
    own: Taking | None = state.parts[TAKE]
    return own


def _from_hand(state: State) -> dict[str, int]:
    """`from_hand` for a declare phase's `when`: 1 once the declarer chose a hand game."""
    own = taking(state)
    return {"from_hand": int(own is not None and own.hand)}


declare.WHEN_NAMES.append(_from_hand)


def buried(state: State) -> list[int]:
    """The cards buried this round (the state's own list; empty before any)."""
    own: Taking | None = state.parts[TAKE]
    return own.buried if own is not None else []


def scored_piles(state: State) -> list[list[int]]:
    """Each player's won cards as the round's scoring counts them: with the buried cards among
    the taker's, where the rules count them so, and so the pile of a hand game (the state's own
    lists when nothing changes)."""
    own: Taking | None = state.parts[TAKE]
    if own is None or not (own.buried or own.hand) or own.rules.buried_count_for != "taker":
        return state.piles
    piles = [list(pile) for pile in state.piles]
    piles[own.taker].extend(own.buried if not own.hand else state.stock)
    return piles


def _rules(game: Game) -> TakePhase | None:
    return next((step.rules for step in game.steps if step.kind == "take"), None)


class Take(PhaseKind):
    """The declarer takes the set-aside cards and buries as many."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Begin when someone declared a contract that takes (else the phase is skipped)."""
        rules: TakePhase = step.rules
        contract = declare.contract(state)
        if state.declarer < 0 or not state.stock or (rules.contracts and contract not in rules.contracts):
            return False
        groups = rules.groups_in(contract)
        own = Taking(rules, state.declarer, list(state.stock), groups, [], [], asking=rules.hand)
        state.parts[TAKE] = own
        state.current = own.taker
        if own.asking:
            enter(state, self)
            return True
        return self.pick_up(state, own)

    def pick_up(self, state: State, own: Taking) -> bool:
        """The taker picks the pile up: chooses a group where it is split, else takes it all;
        whether the phase waits for a decision."""
        if own.groups > 1:
            own.choosing = True
            if state.events is not None and own.rules.shown:
                state.log("set_aside_shown", cards=list(own.pile), groups=own.groups)
            enter(state, self)
            return True
        self.take(state, own, list(own.pile), 0)
        return own.left > 0  # nothing to bury: the round goes on

    def take(self, state: State, own: Taking, cards: list[int], group: int) -> None:
        """Put `cards` into the taker's hand; then the taker buries as many (or as the rules say)."""
        hand = state.hands[own.taker]
        hand.extend(cards)
        hand.sort()
        for card in cards:
            state.stock.remove(card)
            if card in state.set_aside:
                state.set_aside.remove(card)
        own.taken = list(cards)
        own.choosing = False
        # never more than taken: the hand does not shrink below its size (a fixed `bury` larger
        # than a group would leave the taker short of cards for the play)
        own.left = min(own.rules.bury, len(cards)) if own.rules.bury >= 0 else len(cards)
        if state.events is not None:
            state.log("take_set_aside", player=own.taker, cards=list(cards), shown=own.rules.shown, group=group)
        enter(state, self)

    def legal(self, state: State) -> list[int]:
        own: Taking = state.parts[TAKE]
        if own.asking:
            offset = state.game.action_start["hand"]
            return [offset, offset + 1]
        if own.choosing:
            offset = state.game.action_start["take group"]
            return [offset + i for i in range(own.groups)]
        offset = state.game.action_start["bury"]
        hand = state.hands[own.taker]
        ruleset, faces = state.play_game.ruleset, state.tables.faces
        for forbid in own.rules.forbid:  # each condition in turn, until one leaves some card
            allowed = [c for c in hand if not card_holds(forbid, c, ruleset.deck, faces)]
            if allowed:
                return [offset + c for c in allowed]
        return [offset + c for c in hand]

    def apply(self, state: State, action: int) -> None:
        own: Taking = state.parts[TAKE]
        if own.asking:
            own.asking = False
            own.hand = action == state.game.action_start["hand"] + 1
            own.pile = list(state.stock)  # unseen until now: a resampled state deals it anew
            if state.events is not None:
                state.log("hand", player=own.taker, hand=own.hand)
            if own.hand or not self.pick_up(state, own):
                state.next_step()
            return
        if own.choosing:
            index = action - state.game.action_start["take group"]
            size = len(own.pile) // own.groups
            self.take(state, own, own.pile[index * size : (index + 1) * size], index)
            if own.left == 0:
                state.next_step()
            return
        card = action - state.game.action_start["bury"]
        state.hands[own.taker].remove(card)
        own.buried.append(card)
        own.left -= 1
        if state.events is not None:
            state.log("bury", player=own.taker, card=card)
        if own.left == 0:
            state.next_step()

    def used(self, game: Game) -> bool:
        return _rules(game) is not None

    def most_decisions(self, game: Game, step: RoundStep) -> int:
        """A hand game or not, a choice of group, then a card buried for each card taken (the
        whole pile at most)."""
        rules: TakePhase = step.rules
        pile = game.num_cards - game.ruleset.deal.hand_size * game.num_players
        return 1 + rules.hand + max(rules.bury, pile)

    def figures(self, game: Game) -> list[tuple[str, str, str]]:
        """Rounds in which the declarer took the set-aside cards, and which group where the pile
        is split; with the cards buried in them."""
        names = ["taken", *[f"group {number}" for number in range(1, _groups(game) + 1)]]
        hand = [("take", "hand game", "fired")] if _hand_size(game) else []
        return [("take", name, measure) for name in names for measure in ("fired", "buried")] + hand

    def count(self, event: dict[str, Any], values: dict[tuple[str, str, str], int], memory: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "hand" and event["hand"]:
            values["take", "hand game", "fired"] += 1
        elif kind == "take_set_aside":
            group = f"group {event['group'] + 1}"
            names = ["taken"] + ([group] if ("take", group, "fired") in values else [])  # groups where the pile is split
            for name in names:
                values["take", name, "fired"] += 1
            memory["take"] = names
        elif kind == "bury":
            for name in memory.get("take", ()):
                values["take", name, "buried"] += 1

    # ------------------------------------------------------------ what the rest shows of it

    def observe(self, state: State, player: int, view: dict[str, Any]) -> None:
        own = taking(state)
        if own is None:
            return
        view["taker"] = own.taker
        if own.rules.hand and not own.asking:
            view["hand_game"] = own.hand
        ids = state.game.card_ids  # cards by id, as the rest of the observation names them
        if own.rules.shown:
            view["set_aside_shown"] = [ids[c] for c in own.pile]
            if not own.choosing:  # which of the shown cards the declarer took is seen too
                view["set_aside_taken"] = [ids[c] for c in own.taken]
        if player == own.taker:
            view["buried"] = [ids[c] for c in own.buried]

    def segments(self, game: Game) -> list[SegmentSpec]:
        if _rules(game) is None:
            return []
        n, size = game.num_players, game.num_cards
        hand: list[SegmentSpec] = [("hand_game", (1,), 0, 1, "1 once the taker chose a hand game (where one may be chosen)", _hand_game)]
        return [
            ("taker", (n,), 0, 1, "1 at the player who took the set-aside cards, once taken", _taker),
            ("set_aside_shown", (size,), 0, 1, "the set-aside cards, where they are shown to everyone", _shown),
            ("own_buried", (size,), 0, 1, "the cards this player buried (others see none)", _own_buried),
        ] + (hand if _hand_size(game) else [])

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        taken = entry.setdefault("take", {"player": event.get("player", -1), "cards": [], "buried": []})
        if event["type"] == "hand":
            taken["hand"] = event["hand"]
        elif event["type"] == "take_set_aside":
            taken["player"] = event["player"]
            taken["cards"] = [game.card_ids[c] for c in event["cards"]]
        elif event["type"] == "bury":
            taken["buried"].append(game.card_ids[event["card"]])

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        taken = entry.get("take")
        if taken and taken.get("hand"):
            return [f"Set-aside cards: P{taken['player']} plays a hand game, leaving them face down"]
        if not taken or not taken["cards"]:
            return []
        line = f"Set-aside cards: P{taken['player']} takes {', '.join(taken['cards'])}"
        if taken["buried"]:
            line += f" and buries {', '.join(taken['buried'])}"
        return [line]

    def words(self, event: dict[str, Any], game: Game) -> str:
        kind = event["type"]
        if kind == "hand":
            return f"P{event['player']} " + ("plays a hand game: the set-aside cards stay face down" if event["hand"] else "picks up the set-aside cards")
        if kind == "set_aside_shown":
            return f"The set-aside cards are shown: {', '.join(game.card_ids[c] for c in event['cards'])}"
        if kind == "take_set_aside":
            count = len(event["cards"])
            return f"P{event['player']} takes the {'set-aside card' if count == 1 else f'{count} set-aside cards'}"
        return f"P{event['player']} buries a card"

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        rules: TakePhase = step.rules
        pile = len(ruleset.deck.cards) - ruleset.deal.hand_size * ruleset.players
        text = ["## Taking the set-aside cards", ""]
        lines = [f"The {pile} cards not dealt lie face down."]
        if rules.contracts:
            names = ", ".join(ruleset.contracts[i].name for i in rules.contracts)
            lines.append(f"When the declarer plays one of these contracts ({names}), the declarer takes them:")
        else:
            lines.append("The declarer takes them:")
        if rules.hand:
            where = "count for the declarer" if rules.buried_count_for == "taker" else "count for nobody"
            lines[-1] = (lines[-1][:-1] + ", unless it chooses to play a hand game, leaving them face down, unseen "
                         f"(they {where} at the end); otherwise:")
        if rules.groups > 1 or rules.groups_by_contract:
            lines.append("they are split, in the order they were dealt, into groups of equal size, and the declarer "
                         "takes one group" + (" (the cards are shown to everyone first)." if rules.shown else "."))
        else:
            lines.append("all of them, into the hand.")
        count = "as many cards as taken" if rules.bury < 0 else f"{rules.bury} card{'s' if rules.bury != 1 else ''}"
        lines.append(f"Then the declarer buries {count}, face down, seen by no one else.")
        if rules.forbid:
            lines.append("Some cards may not be buried (see the spec) unless the hand holds nothing else.")
        where = "count as won by the declarer" if rules.buried_count_for == "taker" else "count for nobody"
        lines.append(f"The buried cards {where} when the round is scored; the cards not taken count for nobody.")
        return "\n".join(text) + "\n" + " ".join(lines)


def _taker(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = taking(state)
    if own is not None and not own.choosing and not own.asking:
        out[at + own.taker] = 1.0


def _hand_game(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = taking(state)
    if own is not None and own.hand:
        out[at] = 1.0


def _shown(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = taking(state)
    if own is not None and own.rules.shown:
        for card in own.pile:
            out[at + card] = 1.0


def _own_buried(state: State, player: int, out: MutableSequence[float], at: int) -> None:
    own = taking(state)
    if own is not None and player == own.taker:
        for card in own.buried:
            out[at + card] = 1.0


def _group_texts(game: Game) -> Texts:
    def parse(said: str, rest: str) -> int:
        if said != "take" or not rest.startswith("group "):
            raise KeyError(said)
        number = int(rest[len("group "):])
        if not 1 <= number <= MAX_GROUPS:
            raise ValueError(rest)
        return number - 1

    return (lambda index: f"take group {index + 1}"), parse


def _groups(game: Game) -> int:
    rules = _rules(game)
    if rules is None:
        return 0
    most = max([rules.groups, *[g for _, g in rules.groups_by_contract]])
    return most if most > 1 else 0


def _bury_size(game: Game) -> int:
    return game.num_cards if _rules(game) is not None else 0


def _hand_size(game: Game) -> int:
    rules = _rules(game)
    return 2 if rules is not None and rules.hand else 0


KIND: Final[Take] = Take(TAKE, "take", (
    ActionBlock(11, "take group", _groups, _group_texts),
    ActionBlock(12, "bury", _bury_size, cards("bury")),
    ActionBlock(14, "hand", _hand_size, words("pick-up", "hand")),
), events=("set_aside_shown", "take_set_aside", "bury", "hand"))
