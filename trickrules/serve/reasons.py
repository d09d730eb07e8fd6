"""Why a card may not be played now, in the rulebook's words.

The engine's refusal (`IllegalActionError.reason`, see `trickrules.engine.refusals`) says that
a card is not allowed; it does not say which rule forbids it. The rules apply in order: the
follow rules, then the restrictions, each narrowing the cards the one before left. So the
rule that forbids a card is the first one whose narrowing drops it. This module finds it by
playing the game's actions so far under the rules cut after each rule (a game with the follow
rules up to one, then with every follow rule and the restrictions up to one): the first cut
whose legal cards leave the card out names the rule. Every earlier action stays legal under
fewer rules (a rule only ever narrows), so each replay reaches the same position.

A follow rule is given in the rulebook's words (`trickrules.tools.rulebook_words`), a
restriction by its name; the engine's own refusal is the answer when no cut finds the rule
(a contract's rules, for one).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from trickrules.engine.game import Game
from trickrules.engine.state import Phase, State
from trickrules.errors import IllegalActionError, TrickrulesError
from trickrules.tools.rulebook_words import follow_words

if TYPE_CHECKING:
    from trickrules.serve.session import Session


def _cuts(game: Game) -> list[tuple[str, Game]]:
    """(the words of the rule last kept, a game with the rules up to it) for each rule in order."""
    cache = getattr(game, "_serve_cuts", None)
    if cache is not None:
        return cache
    rules = game.ruleset
    cuts: list[tuple[str, Game]] = []
    for n, rule in enumerate(rules.follow, 1):
        ruleset = dataclasses.replace(rules, follow=rules.follow[:n], restrictions=())
        cuts.append((f"follow rule: {follow_words(rule)}", Game(ruleset)))
    for n, restriction in enumerate(rules.restrictions, 1):
        ruleset = dataclasses.replace(rules, restrictions=rules.restrictions[:n])
        cuts.append((f"restriction: {restriction.name}", Game(ruleset)))
    try:
        game._serve_cuts = cuts  # type: ignore[attr-defined]
    except AttributeError:  # a compiled Game without a dict: compute again next time
        pass
    return cuts


def engine_reason(state: State, action: int) -> str:
    """The engine's own words for refusing `action` (never the full state text it also keeps)."""
    try:
        state.clone().apply_action(action)
    except IllegalActionError as error:
        return error.reason
    return ""


def refusal_reasons(session: Session, state: State, seat: int) -> dict[str, str]:
    """For each card in `seat`'s hand that it may not play now, why (by card id); empty unless
    `seat` is to play a card."""
    game = state.game
    if state.is_terminal() or state.phase != Phase.PLAY or state.current_player() != seat:
        return {}
    legal = set(state.legal_view())
    refused = [card for card in state.hands[seat] if card not in legal]
    if not refused:
        return {}
    reasons: dict[str, str] = {}
    left = set(refused)
    history = list(state.history)
    try:
        for words, cut in _cuts(game):
            if not left:
                break
            trial = cut.new_initial_state(state.seed, deal=session.deal)
            for action in history:
                trial.apply_action(action)
            if trial.current_player() != seat or trial.phase != Phase.PLAY:
                break  # not the same position: leave the rest to the engine's words
            allowed = set(trial.legal_view())
            text = words[0].upper() + words[1:]
            if text.startswith("Follow") and state.trick:
                text = f"{game.card_ids[state.trick[0]]} was led. {text}"
            for card in sorted(left):
                if card not in allowed:
                    reasons[game.card_ids[card]] = text
                    left.discard(card)
    except (TrickrulesError, ValueError, TypeError, AttributeError):
        pass
    for card in left:
        reasons[game.card_ids[card]] = engine_reason(state, card)
    return reasons
