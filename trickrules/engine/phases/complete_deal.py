"""Phase: the rest of a deal in two stages (`deal.first_stage`); no decision.

The deal step gave each player its first cards; the others lie face down in order (the
stock). When the round reaches its `complete_deal` step, the next cards of the stock go to
each player in turn from the dealer's left, as many as its hand lacks of a full hand
(`hand_size`): a player who took the turned-up card gets one card fewer. A turned-up card
still lying where it was turned is not dealt; the cards left over stay set aside. From then
on the hands as dealt (`State.dealt`, which measures of dealt cards read) are the completed
hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from . import turn_up
from .kinds import NEVER_WAITS, PhaseKind

if TYPE_CHECKING:
    from trickrules.engine.game import Game
    from trickrules.engine.state import State
    from trickrules.rules.ruleset import RoundStep, Ruleset


class CompleteDeal(PhaseKind):
    """Deal the rest of each hand from the stock; no decision."""

    def start(self, state: State, step: RoundStep) -> bool:
        """Fill every hand from the stock, from the dealer's left; never waits."""
        n = state.num_players
        turned = turn_up.card(state)
        lying = [card for card in state.stock if card != turned]
        received: list[list[int]] = [[] for _ in range(n)]
        for turn in range(1, n + 1):
            player = (state.dealer + turn) % n
            lack = max(state.hand_size - len(state.hands[player]), 0)
            received[player], lying = lying[:lack], lying[lack:]
            state.hands[player].extend(received[player])
            state.hands[player].sort()
        state.stock[:] = [card for card in state.stock if card == turned or card in lying]
        state.set_aside = sorted(state.stock)
        state.dealt = (*[tuple(hand) for hand in state.hands], tuple(state.set_aside))
        if state.events is not None:
            state.log("complete_deal", cards=[list(cards) for cards in received])
        state.changed()
        return False

    # ------------------------------------------------------------ what the rest shows of it

    def record(self, event: dict[str, Any], entry: dict[str, Any], game: Game) -> None:
        ids = game.card_ids
        entry["complete_deal"] = [[ids[c] for c in cards] for cards in event["cards"]]

    def record_lines(self, entry: dict[str, Any]) -> list[str]:
        received = entry.get("complete_deal")
        if received is None:
            return []
        return ["Rest of the deal: " + "; ".join(f"P{seat} {' '.join(cards) or '-'}" for seat, cards in enumerate(received))]

    def words(self, event: dict[str, Any], game: Game) -> str:
        counts = ", ".join(f"P{seat} {len(cards)}" for seat, cards in enumerate(event["cards"]))
        return f"The rest of the deal: cards to {counts}"

    def rulebook(self, step: RoundStep, ruleset: Ruleset) -> str:
        deal = ruleset.deal
        return ("## The rest of the deal\n\n"
                f"The deal gives each player {deal.first_stage} cards first. At this point the rest is dealt from the top "
                f"of the pile, to each player in turn from the dealer's left, until every hand holds {deal.hand_size} "
                "cards: a player who took the turned-up card gets one fewer. A turned-up card nobody took is not dealt.")


KIND: Final[CompleteDeal] = CompleteDeal(NEVER_WAITS, "complete_deal", events=("complete_deal",))
