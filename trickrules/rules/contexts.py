"""Where an expression can stand, and the names the engine gives it there: one table.

Each `Context` lists the names the engine provides at a place (besides the spec's options and
counters everywhere, and the round's measures in scoring), which of them hold a list (by seat)
and what each means. The compiler allows exactly these names at each place
(`trickrules.spec.compile_round`, `trickrules.spec.compiler`); the engine gives them at run time
(`State.env` for play, `phases.bid.bid_env`, `round_end.score_envs` and `round_end.game_env`);
the expressions reference names every one (a test keeps it so). A whole trick's conditions read
the names of `trickrules.rules.whole_trick.trick_names`, which depend on the deck.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BID", "BID_RANGE", "CONTEXTS", "Context", "DECLARE", "GAME", "HAND_SIZE_RAMP", "MEANINGS", "PLAY", "PLAY_ENDS", "SCORE"]


@dataclass(frozen=True)
class Context:
    """The names the engine gives expressions at some places of a spec."""

    places: str
    names: tuple[str, ...]
    lists: tuple[str, ...] = ()


MEANINGS: dict[str, str] = {
    "trick": "the trick being played, from 1",
    "round": "the round being played, from 1 (in `until`: the rounds played)",
    "totals": "every seat's total so far, in seat order (a list)",
    "players": "the number of players",
    "hand_size": "the round's hand size",
    "bid": "the candidate bid (in `allow`); the player's bid this round (in scoring and a declare phase's `when`, 0 without one)",
    "bids_total": "the sum of the bids made so far this round",
    "bids_made": "how many players have bid so far this round",
    "last": "true for the player who bids last",
    "partner_bid": "the partner's bid, or -1 while the partner has not bid",
    "bids": "every seat's bid this round, in seat order (a list; 0 without one)",
    "declarer": "the seat that chose trumps or declared, or -1",
    "makers": "true for the declarer and partners (with teams by the deal, `teams: {holders_of: ...}`: the holders)",
    "alone": "true when a player went alone this round",
    "team_size": "the number of seats on the player's team this round (1 without a team)",
    "makers_tricks": "the tricks won so far this round by the declarer and partners (0 when no one declared)",
    "defenders_tricks": "the tricks won so far this round by the players not on the declarer's side",
    "tricks_played": "the tricks played so far this round",
    "seat": "the seat whose turn it is",
    "first_turn": "true on the player's first turn of the phase",
    "others_passed": "true when every other player has passed",
    "from_hand": "true when the declarer plays from the hand, the set-aside cards left face down (a take phase's hand game)",
}
"""What each name the engine gives means."""

PLAY = Context("restrictions' `when`, a counter's `on_round_end` (with the scoring names)",
               ("trick", "round", "totals", "players", "hand_size"), ("totals",))
BID_RANGE = Context("a bid phase's `values.to`", ("hand_size", "players"))
BID = Context("a bid phase's `allow`", (*PLAY.names, "bid", "bids_total", "bids_made", "last", "partner_bid"), PLAY.lists)
SCORE = Context("a round scoring rule's `add`, a counter's `on_round_end`",
                (*PLAY.names, "bid", "bids", "declarer", "makers", "alone", "team_size"), (*PLAY.lists, "bids"))
GAME = Context("`rounds.until` (a player or team counter reads as everyone's values, a list)", PLAY.names, PLAY.lists)
PLAY_ENDS = Context("`play_ends_when`, checked after each trick",
                    (*PLAY.names, "declarer", "makers_tricks", "defenders_tricks", "tricks_played"), PLAY.lists)
DECLARE = Context("a declare phase's `when`", (*PLAY.names, "seat", "first_turn", "others_passed", "bid", "from_hand"), PLAY.lists)
HAND_SIZE_RAMP = Context("the `to` of a hand size by round or by chance", ("players",))

CONTEXTS: dict[str, Context] = {
    "play": PLAY, "bid range": BID_RANGE, "bid": BID, "score": SCORE, "game": GAME, "play ends": PLAY_ENDS, "declare": DECLARE,
    "hand size ramp": HAND_SIZE_RAMP,
}  # fmt: skip
"""Every context, by a short name."""
