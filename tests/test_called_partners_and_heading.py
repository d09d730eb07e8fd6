"""Language-3 rules Tarok needs, pinned on small positions: a called card names the hidden
partner (`call`), `head_if_able` and `play_if_able` follow rules, set-aside cards won in play
(`set_aside_in_play`), measures of the last trick and of the cards left aside, and scores that
partners do not pool (`scoring.pool: false`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickrules
from trickrules.engine.phases import call
from trickrules.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
TAROK = ROOT / "specs" / "tarok.yaml"

SMALL = """\
language: 2
id: small
title: Small
players: [4]
deck:
  suits: [hearts, spades, taroks]
  attributes:
    trula: {default: 0}
  generate:
    - {suits: [hearts, spades], ranks: [1, 2, 3, 4]}
    - {suits: [taroks], ranks: [2, 3, 4, 5, 6]}
  cards:
    - {id: pagat, faces: [{suit: taroks, rank: 1}], attributes: {trula: 1}}
    - {id: mond, faces: [{suit: taroks, rank: 21}], attributes: {trula: 1}}
    - {id: skis, faces: [{suit: taroks, rank: 22}], attributes: {trula: 1}}
deal: {hand_size: 4, first_leader: {seat: 0}}
trumps: [taroks]
follow:
  - play_if_able: {suit: taroks, rank: 1, trick: "sum(trula) == 3"}
  - follow_led
  - trump_if_void
  - head_if_able
ranking:
  - prefer: {suit: taroks, rank: 1, trick: "sum(trula) == 3"}
  - prefer: trump
  - prefer: led
  - highest: rank
scoring:
  measures: {t: {count: tricks}}
  round: [{add: t}]
"""


def small(tmp_path: Path, text: str = SMALL) -> trickrules.Game:
    path = tmp_path / "small.yaml"
    path.write_text(text, encoding="utf-8")
    return trickrules.load_game(path)


def play(state: trickrules.State, *cards: str) -> None:
    for card in cards:
        state.apply_action(state.game.string_to_action(f"play {card}"))


def legal(state: trickrules.State) -> list[str]:
    return sorted(state.action_to_string(a).split()[-1] for a in state.legal_actions())


def test_head_if_able_asks_for_a_card_above_the_best_of_the_led_suit(tmp_path: Path) -> None:
    game = small(tmp_path)
    hands = [["hearts-2", "spades-1", "taroks-2", "taroks-3"], ["hearts-1", "hearts-3", "hearts-4", "spades-2"],
             ["spades-3", "spades-4", "taroks-4", "taroks-5"], ["taroks-6", "pagat", "mond", "skis"]]
    state = game.new_initial_state(seed=0, deal={"hands": hands})
    play(state, "hearts-2")
    assert legal(state) == ["hearts-3", "hearts-4"]  # above the 2; the 1 may not go


def test_head_if_able_has_nothing_to_head_after_a_trump(tmp_path: Path) -> None:
    game = small(tmp_path)
    hands = [["hearts-2", "spades-1", "taroks-2", "taroks-3"], ["spades-2", "spades-3", "taroks-4", "taroks-5"],
             ["hearts-1", "hearts-3", "hearts-4", "spades-4"], ["taroks-6", "pagat", "mond", "skis"]]
    state = game.new_initial_state(seed=0, deal={"hands": hands})
    play(state, "hearts-2", "taroks-4")  # void in hearts: a tarok, any
    assert legal(state) == ["hearts-1", "hearts-3", "hearts-4"]  # following after a trump: any heart


def test_head_if_able_compares_ranks_not_the_winner(tmp_path: Path) -> None:
    """Mond and Pagat in the trick: Skis outranks Mond, so it must go, though with all three
    in the trick Pagat wins (the emperor's trick)."""
    game = small(tmp_path)
    hands = [["mond", "spades-1", "taroks-2", "taroks-3"], ["pagat", "spades-3", "spades-2", "spades-4"],
             ["skis", "taroks-6", "hearts-1", "hearts-2"], ["taroks-4", "taroks-5", "hearts-3", "hearts-4"]]
    state = game.new_initial_state(seed=0, deal={"hands": hands})
    play(state, "mond", "pagat")
    assert legal(state) == ["skis"]
    play(state, "skis", "taroks-4")
    assert state.tricks_won[1] == 1  # Pagat took the emperor's trick


def test_play_if_able_forces_a_card_even_over_following(tmp_path: Path) -> None:
    game = small(tmp_path)
    hands = [["mond", "spades-1", "taroks-2", "taroks-3"], ["skis", "spades-3", "spades-2", "spades-4"],
             ["pagat", "hearts-1", "hearts-2", "taroks-6"], ["taroks-4", "taroks-5", "hearts-3", "hearts-4"]]
    state = game.new_initial_state(seed=0, deal={"hands": hands})
    play(state, "spades-1")
    assert "skis" not in legal(state)
    hands = [["hearts-1", "spades-1", "taroks-2", "taroks-3"], ["mond", "hearts-3", "spades-2", "spades-4"],
             ["skis", "hearts-2", "hearts-4", "taroks-6"], ["pagat", "taroks-5", "spades-3", "taroks-4"]]
    state = game.new_initial_state(seed=0, deal={"hands": hands})
    state.apply_action(game.string_to_action("play taroks-2"))
    play(state, "mond", "skis")
    assert legal(state) == ["pagat"]  # the trick holds Mond and Skis: Pagat must go


def _tarok_deal(players: int) -> dict:
    game = trickrules.load_game(TAROK, players=players)
    state = game.new_initial_state(seed=5)
    return {"hands": [[game.card_ids[c] for c in sorted(h)] for h in state.hands],
            "set_aside": [game.card_ids[c] for c in state.stock]}


def _say(state: trickrules.State, *texts: str) -> None:
    for text in texts:
        state.apply_action(state.game.string_to_action(text))


def test_the_holder_of_the_called_king_is_the_hidden_partner() -> None:
    game = trickrules.load_game(TAROK, players=4)
    deal = _tarok_deal(4)
    king = next(k for k in ("hearts-K", "diamonds-K", "spades-K", "clubs-K") if k in deal["hands"][2])
    state = game.new_initial_state(seed=0, deal=deal)
    _say(state, "pass", "pass", "pass", "contract three")  # seat 0 declares after all passed
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(
        f"call {k}" for k in ("hearts-K", "diamonds-K", "spades-K", "clubs-K"))
    _say(state, f"call {king}")
    assert state.round_teams == ((0, 2), (1, 3))
    assert state.observation(1)["called"] == king
    assert state.observation(1)["sides"] == ["other", "own", None, None]  # who holds it is hidden
    assert state.observation(2)["sides"] == ["own", "other", "own", "other"]  # the holder knows
    assert call.known_sides(state, 3)[2] == call.UNKNOWN


def test_a_declarer_holding_the_called_king_plays_alone() -> None:
    game = trickrules.load_game(TAROK, players=4)
    deal = _tarok_deal(4)
    king = next((k for k in ("hearts-K", "diamonds-K", "spades-K", "clubs-K") if k in deal["hands"][0]), None)
    assert king is not None, "the deal of seed 5 gives seat 0 a king"
    state = game.new_initial_state(seed=0, deal=deal)
    _say(state, "pass", "pass", "pass", "contract three", f"call {king}")
    assert state.round_teams == ((0,), (1, 2, 3))


def test_klop_gives_each_of_the_first_tricks_winners_a_talon_card() -> None:
    game = trickrules.load_game(TAROK, players=3)
    state = game.new_initial_state(seed=0, deal=_tarok_deal(3))
    _say(state, "pass", "pass", "contract klop")
    talon = list(state.stock)
    first = state.legal_actions()[0]
    state.apply_action(first)
    while state.tricks_played == 0:
        state.apply_action(state.legal_actions()[0])
    winner = state.leader
    assert state.piles[winner][-1] == talon[0] and len(state.piles[winner]) == 4
    assert state.stock == talon[1:]


def test_partners_keep_their_own_points_without_pooling(tmp_path: Path) -> None:
    text = SMALL.replace("round: [{add: t}]", "round: [{add: t}, {per: team, add: \"10\"}]\n  pool: false") + "teams: [[0, 2], [1, 3]]\n"
    game = small(tmp_path, text)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert [int(r) for r in state.returns()] == [10 + t for t in state.tricks_won]


@pytest.mark.parametrize(("change", "code"), [
    (("  - call: {cards: [hearts-K", "  - call: {cards: [hearts-X"), "TR367"),
    (("  - call: {cards: [hearts-K, diamonds-K", "  - call: {cards: [hearts-K, hearts-K"), "TR367"),
])
def test_broken_calls_are_refused_with_code_and_position(tmp_path: Path, change: tuple[str, str], code: str) -> None:
    text = TAROK.read_text(encoding="utf-8")
    assert change[0] in text
    path = tmp_path / "tarok.yaml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path, players=4)
    assert code in str(caught.value) and "tarok.yaml:" in str(caught.value)


def test_a_call_needs_a_declarer(tmp_path: Path) -> None:
    text = TAROK.read_text(encoding="utf-8")
    start = text.index("  - declare:")
    end = text.index("  - call:")
    path = tmp_path / "tarok.yaml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        trickrules.load_game(path, players=4)
    assert "TR366" in str(caught.value)
