"""Views of a state: a player's observation, what a player knows (the round's tricks by seat,
own passes and discards) and its information state as text, and the full debug text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trickrules.engine import partners
from trickrules.engine.phases import bid, declare, discard, pass_cards, place_tokens, showing, turn_up

if TYPE_CHECKING:
    from trickrules.engine.state import State


def card_text(state: State, card: int) -> str:
    """A card as it counts now, e.g. ``gold-14/red-5 (as gold 14)`` for a many-faced card."""
    deck = state.game.ruleset.deck
    entry = deck.cards[card]
    if len(entry.faces) == 1:
        return entry.id
    face = entry.faces[state.tables.faces.face[card]]
    return f"{entry.id} (as {deck.face_text(face)})"


def _ids(state: State, cards: list[int]) -> list[str]:
    return [state.game.card_ids[c] for c in cards]


def _tableau(state: State, player: int) -> list[dict[str, Any]]:
    tableau = state.game.ruleset.tableau
    if tableau is None:
        return []
    return [
        {"section": s.name, "cards": _ids(state, state.stacks[player][i]), "tokens": state.section_tokens[player][i]}
        for i, s in enumerate(tableau.sections)
    ]


def public_view(state: State) -> dict[str, Any]:
    """Everything every player sees."""
    rules = state.game.ruleset
    n = state.game.num_players
    return {
        "round": state.round,
        "phase": state.phase.name.lower(),
        "dealer": getattr(state, "dealer", 0),
        "trumps": [rules.deck.suits[s] for s in sorted(state.trumps)],
        "current_player": state.current_player(),
        "hand_sizes": [len(h) for h in state.hands],
        "trick": [{"player": p, "card": card_text(state, c)} for p, c in zip(state.trick_players, state.trick)],
        "tricks_won": list(state.tricks_won),
        "cards_won": [len(state.piles[p]) + sum(len(s) for s in state.stacks[p]) for p in range(n)],
        "tableau": [_tableau(state, p) for p in range(n)],
        "tokens": [dict(zip((t.name for t in rules.tokens), state.pool[p])) for p in range(n)],
        "supply": {t.name: place_tokens.tokens(state).supply[i] for i, t in enumerate(rules.tokens)},
        "totals": list(state.totals),
    } | _language2_view(state)


def _language2_view(state: State) -> dict[str, Any]:
    """Bids, teams and the turned-up card, where the game has them."""
    game = state.game
    view: dict[str, Any] = {}
    if game.bidding is not None:
        view["bids"] = [None if b is None else game.bidding.name(b) for b in bid.bids(state)]
        passed = bid.passed(state)
        if passed is not None:  # bidding by precedence: who has passed (a pass is final)
            view["passed_bidding"] = passed
    if game.ruleset.teams:
        view["teams"] = [list(team) for team in game.ruleset.teams]
    if any(step.kind == "turn_up" for step in game.steps):
        card = turn_up.card(state)
        view["turned_up"] = game.card_ids[card] if card >= 0 else None
    if game.contract_names:
        index = declare.contract(state)
        view["contract"] = game.contract_names[index] if index >= 0 else None
    if game.chooses_in_rounds or game.declares:
        view["declarer"] = state.declarer if state.declarer >= 0 else None
    if game.goes_alone:
        view["sitting_out"] = list(state.sitting_out)
    if state.counters:
        view["counters"] = {k: list(v) if isinstance(v, list) else v for k, v in state.counters.items()}
    return view


def observation(state: State, player: int) -> dict[str, Any]:
    """What `player` sees: the public view and their own hand only."""
    view = public_view(state)
    view["player"] = player
    view["hand"] = _ids(state, state.hands[player])
    shown = state.exposed()
    if shown:  # hands laid open on the table (a dummy's), seen by all
        view["exposed"] = {seat: _ids(state, state.hands[seat]) for seat in shown}
    if state.current_player() == player:
        view["legal_actions"] = [state.game.action_to_string(a) for a in state.legal_actions()]
    if state.game.ruleset.partner_cards:  # teams by the deal: only what the player can tell
        view["sides"] = [None if side == partners.UNKNOWN else ("own" if side == 0 else "other") for side in partners.known_sides(state, player)]
    for kind in _OBSERVING:
        kind.observe(state, player, view)
    return view


_OBSERVING = showing("observe")
"""The kinds of phase that add what a player sees of them (after the rest)."""


def debug_text(state: State) -> str:
    """The full state as text, every hand included."""
    rules = state.game.ruleset
    view = public_view(state)
    trumps = ", ".join(view["trumps"]) or "none"
    lines = [
        f"{rules.title}: round {state.round + 1} of {rules.rounds}, phase {view['phase']}, "
        f"dealer {view['dealer']}, trumps {trumps}, to move {view['current_player']}"
    ]
    for p in range(state.game.num_players):
        hand = " ".join(card_text(state, c) for c in state.hands[p])
        lines.append(f"  player {p}: hand [{hand}] tricks {state.tricks_won[p]} total {state.totals[p]}")
        for section in view["tableau"][p]:
            lines.append(f"    {section['section']}: {' '.join(section['cards']) or '-'} tokens {section['tokens']}")
    trick = " ".join(f"{t['player']}:{t['card']}" for t in view["trick"])
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)


# ---------------------------------------------------------------- what a player knows


def played_by_seat(state: State) -> list[list[int]]:
    """The cards each seat played this round, in play order (finished tricks, then the current)."""
    played: list[list[int]] = [[] for _ in range(state.num_players)]
    for cards, players in [*state.tricks, (state.trick, state.trick_players)]:
        for card, player in zip(cards, players):
            played[player].append(card)
    return played


def passed_cards(state: State, player: int) -> list[int]:
    """The cards `player` passed this round (its own choice: no one else sees them on the way)."""
    return [card for own in pass_cards.every_pass(state) for card in own.passed[player]]


def received_cards(state: State, player: int) -> list[int]:
    """The cards passed to `player` this round, once they have arrived."""
    return [
        card
        for own in pass_cards.finished(state)
        for giver, cards in enumerate(own.passed)
        if own.receivers[giver] == player
        for card in cards
    ]


def own_discards(state: State, player: int) -> list[int]:
    """The cards `player` laid away face down this round (the dealer's discards; others see none)."""
    return list(discard.discarded(state)) if player == getattr(state, "dealer", -1) else []


def information_state_text(state: State, player: int) -> str:
    """What `player` knows, as text: the public view, every trick of the round by seat, and its
    own hand, passes and discards; never a card another player holds or laid away unseen."""
    view = observation(state, player)
    game, ids = state.game, state.game.card_ids
    lines = [f"{game.ruleset.id}: seat {player} of {game.num_players}, round {state.round + 1}, phase {view['phase']}"]
    lines.append(f"dealer {view['dealer']}, to move {view['current_player']}, trumps {' '.join(view['trumps']) or '-'}")
    lines.append("hand: " + (" ".join(view["hand"]) or "-"))
    if game.passes:
        passing = pass_cards.every_pass(state)
        to = f" (to seat {passing[-1].receivers[player]})" if passing else ""
        lines.append(f"passed{to}: " + (" ".join(ids[c] for c in passed_cards(state, player)) or "-"))
        lines.append("received: " + (" ".join(ids[c] for c in received_cards(state, player)) or "-"))
    if game.discards:
        lines.append("discarded: " + (" ".join(ids[c] for c in own_discards(state, player)) or "-"))
    for number, (cards, players) in enumerate(state.tricks, 1):
        plays = " ".join(f"{p}:{card_text(state, c)}" for c, p in zip(cards, players))
        lines.append(f"trick {number}: {plays}")
    trick = " ".join(f"{t['player']}:{t['card']}" for t in view["trick"])
    lines.append(f"trick {len(state.tricks) + 1} (now): {trick or '-'}")
    shown = ("hand", "trick", "phase", "dealer", "current_player", "trumps", "legal_actions", "round")
    lines += [f"{key}: {value}" for key, value in view.items() if key not in shown]
    lines += [f"round {r['round'] + 1} points: {r['points']}" for r in state.round_results]
    return "\n".join(lines)
