"""Observation tensors and information states: the layout the spec gives, values within their
bounds, and nothing hidden shown.

The leak test deals a game, plays some actions, then deals the same game again with a card of
one hidden hand exchanged for a card of another (or for a card set aside unseen), both cards
still held, and replays the same actions. When the replay is the same game on the table (the
same seats act, every action legal), every other player's tensor and information state must be
the same, and the players whose hands changed must see their own change, in their hand only.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

import trickrules
from strategies import as_yaml, scaled, spec_data
from trickrules.engine.game import Game
from trickrules.engine.state import State
from trickrules.errors import IllegalActionError, OutOfRangeError
from trickrules.engine import phases

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {
    "kingdoms-2": ("kingdoms", {"players": 2}),
    "kingdoms-4": ("kingdoms", {"players": 4}),
    "meadows": ("meadows", {}),
    "hearts": ("hearts", {}),
    "spades": ("spades", {}),
    "oh-hell": ("oh-hell", {"players": 4}),
    "euchre": ("euchre", {}),
    "skat-lite": (str(ROOT / "examples" / "skat-lite.yaml"), {}),
}


def shipped(name: str) -> Game:
    spec, extra = SHIPPED[name]
    return trickrules.load_game(spec, **extra)


# ---------------------------------------------------------------- layout and bounds


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_tensor_fits_the_layout_and_its_bounds(name: str) -> None:
    game = shipped(name)
    layout = game.observation_layout()
    assert layout is game.observation_layout(), "the layout is computed once"
    assert layout.segments[0].start == 0 and layout.segments[-1].stop == layout.size == game.observation_tensor_size()
    assert all(a.stop == b.start for a, b in zip(layout.segments, layout.segments[1:])), "segments are contiguous"
    low, high = layout.low(), layout.high()
    rng = random.Random(5)
    state = game.new_initial_state(5)
    while not state.is_terminal():
        for player in range(game.num_players):
            tensor = state.observation_tensor(player)
            assert len(tensor) == layout.size
            assert all(lo <= v <= hi for lo, v, hi in zip(low, tensor, high)), "a value out of its bounds"
            parts = layout.split(tensor)
            assert parts["seat"][player] == 1 and sum(parts["seat"]) == 1
            assert sorted(i for i, v in enumerate(parts["hand"]) if v) == sorted(state.hands[player])
            assert parts["hand_sizes"] == [len(h) for h in state.hands]
            assert parts["to_move"] == [float(p == state.current_player()) for p in range(game.num_players)]
            assert sum(parts["phase"]) == 1
        state.apply_action(rng.choice(state.legal_actions()))
    final = state.observation_tensor(0)
    assert sum(layout.split(final)["to_move"]) == 0 and layout.split(final)["totals"] == state.returns()


def test_segments_follow_the_spec() -> None:
    names = {name: {s.name for s in shipped(name).observation_layout().segments} for name in SHIPPED}
    assert {"bids", "side", "counter:broken", "counter:bags"} <= names["spades"]
    assert {"passed", "received", "pass_to", "counter:broken"} <= names["hearts"]
    assert {"tokens", "supply", "tokens_waiting", "tableau_tokens", "tableau_cards", "tableau_tops", "to_place", "reward_points"} <= names["kingdoms-4"]
    assert {"turned_up", "declarer", "discarded", "sitting_out", "side"} <= names["euchre"]
    assert {"contract", "declarer", "side"} <= names["skat-lite"]
    for absent in ("bids", "passed", "tokens", "tableau_cards", "contract", "turned_up"):
        assert absent not in names["meadows"]
    spades = shipped("spades").observation_layout()
    assert spades.segment("bids").shape == (4, shipped("spades").num_bids)
    assert "| `hand` |" in spades.describe()
    with pytest.raises(KeyError, match="segments: seat"):
        spades.segment("tableau_cards")


def test_tensor_reads_the_table() -> None:
    """A hearts trick by seat, the cards played and won, and the cards passed and received."""
    game = shipped("hearts")
    state = game.new_initial_state(1)
    layout = game.observation_layout()
    passer = state.current_player()
    state.apply_action(state.legal_actions()[0])
    first_pass = state.history[-1] - game.pass_offset
    assert layout.split(state.observation_tensor(passer))["passed"][first_pass] == 1
    assert sum(layout.split(state.observation_tensor((passer + 1) % 4))["passed"]) == 0
    while state.phase == trickrules.Phase.PASS:
        state.apply_action(state.legal_actions()[0])
    offset = phases.pass_cards.finished(state)[0].offset
    receiver = (passer + offset) % 4
    parts = layout.split(state.observation_tensor(receiver))
    assert parts["received"][first_pass] == 1 and parts["pass_to"][offset] == 1
    for _ in range(6):  # a trick and two cards
        state.apply_action(state.legal_actions()[0])
    parts = layout.split(state.observation_tensor(0))
    (cards, players), = state.tricks
    for card, seat in zip(cards, players):
        assert parts["played"][seat * 52 + card] == 1
    winner = state.leader
    assert [parts["won"][winner * 52 + c] for c in cards] == [1, 1, 1, 1]
    for card, seat in zip(state.trick, state.trick_players):
        assert parts["trick"][seat * 52 + card] == 1 and parts["played"][seat * 52 + card] == 1
    assert parts["trick_leader"][state.trick_players[0]] == 1 and sum(parts["trick"]) == 2


def test_bad_player_is_refused() -> None:
    state = shipped("hearts").new_initial_state(0)
    for bad in (4, -1, "0", None, True):
        with pytest.raises(OutOfRangeError):
            state.observation_tensor(bad)
        with pytest.raises(OutOfRangeError):
            state.information_state_string(bad)


def test_information_state_names_the_round() -> None:
    state = shipped("spades").new_initial_state(3)
    rng = random.Random(3)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.information_state_string(1)
    assert text.splitlines()[0] == "spades: seat 1 of 4, round 1, phase play"
    assert "trick 1: " in text and "bids: " in text
    own = {state.game.card_ids[c] for c in state.hands[1]}
    others = {state.game.card_ids[c] for p in (0, 2, 3) for c in state.hands[p]}
    words = set(text.replace(":", " ").split())
    assert own <= words and not (others & words)


# ---------------------------------------------------------------- nothing hidden leaks


def _ids(game: Game, hands: list[list[int]]) -> dict[str, Any]:
    return {"hands": [[game.card_ids[c] for c in hand] for hand in hands]}


def hidden_swap(game: Game, seed: int, rng: random.Random, steps: int) -> tuple[State, State, set[int]] | None:
    """Two games that differ in one card exchanged between hidden places after `steps` random
    actions of the first round, or None when the same actions do not make the same public game.
    Returns the two states and the seats whose hands differ."""
    dealt = [list(h) for h in game.new_initial_state(seed).hands]
    a = game.new_initial_state(seed, deal=_ids(game, dealt))
    actions: list[int] = []
    movers: list[int] = []
    while len(actions) < steps and not a.is_terminal():
        action = rng.choice(a.legal_actions())
        trial = a.clone()
        trial.apply_action(action)
        if trial.round > 0:
            break
        movers.append(a.current_player())
        actions.append(action)
        a = trial
    held = [[c for c in hand if c in a.hands[p]] for p, hand in enumerate(dealt)]
    seats = [p for p in range(game.num_players) if held[p]]
    if not seats:
        return None
    q = rng.choice(seats)
    x = rng.choice(held[q])
    places = [(r, c) for r in seats if r != q for c in held[r]]
    if not any(step.kind == "turn_up" for step in game.steps):  # the cards set aside stay unseen
        places += [(-1, c) for c in a.set_aside]
    if not places:
        return None
    suit = game.tables(frozenset()).faces.suit
    alike = [(r, c) for r, c in places if suit[c] == suit[x]]  # a swap within a suit replays more often
    r, y = rng.choice(alike or places)
    swapped = [[y if c == x else x if c == y else c for c in hand] for hand in dealt]
    b = game.new_initial_state(seed, deal=_ids(game, swapped))
    for action, mover in zip(actions, movers):
        if b.current_player() != mover:
            return None
        try:
            b.apply_action(action)
        except IllegalActionError:
            return None
    if b.current_player() != a.current_player() or b.history != a.history:
        return None
    return a, b, {q, r} - {-1}


def check_no_leak(game: Game, a: State, b: State, changed: set[int]) -> None:
    layout = game.observation_layout()
    for player in range(game.num_players):
        ta, tb = a.observation_tensor(player), b.observation_tensor(player)
        sa, sb = a.information_state_string(player), b.information_state_string(player)
        if player in changed:
            differ = {name for name, part in layout.split(ta).items() if part != layout.split(tb)[name]}
            assert differ == {"hand"}, f"player {player}'s own hand changed, its tensor in {differ}"
            assert sa != sb, f"player {player}'s own hand changed, its information state did not"
        else:
            differ = {name for name, part in layout.split(ta).items() if part != layout.split(tb)[name]}
            assert not differ, f"player {player} sees another player's hidden cards in {differ}"
            assert sa == sb, f"player {player}'s information state shows a hidden card:\n{sa}\n---\n{sb}"


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_hidden_cards_do_not_leak_in_shipped_specs(name: str) -> None:
    game = shipped(name)
    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        first_round = game.new_initial_state(seed).hand_size * game.num_players
        pair = hidden_swap(game, seed, rng, rng.randrange(0, first_round + 2))
        if pair is not None:
            check_no_leak(game, *pair)
            compared += 1
    assert compared >= 12, f"only {compared} of 40 swaps replayed as the same game"


@settings(max_examples=scaled(60))
@given(data=st.data(), spec=spec_data(), seed=st.integers(0, 2**32 - 1))
def test_hidden_cards_do_not_leak_in_generated_specs(data: st.DataObject, spec: dict[str, Any], seed: int) -> None:
    note(f"spec:\n{as_yaml(spec)}")
    players = data.draw(st.sampled_from(spec["players"]), label="players")
    game = Game(trickrules.load_ruleset_text(yaml.safe_dump(spec), players=players))
    steps = data.draw(st.integers(0, game.info().hand_size * players + 4), label="steps")
    pair = hidden_swap(game, seed, data.draw(st.randoms(use_true_random=False), label="rng"), steps)
    event("compared" if pair is not None else "not the same public game")
    if pair is not None:
        check_no_leak(game, *pair)


@pytest.mark.patches_engine
def test_the_leak_check_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tensor, and an information state, that show the next player's hand fail the check above."""
    from trickrules.engine import tensors, views

    def two_hands(state: State, player: int, out: list[float], at: int) -> None:
        for seat in (player, (player + 1) % state.num_players):
            tensors._bits(out, at, state.hands[seat])

    monkeypatch.setattr(tensors, "_hand", two_hands)
    game = shipped("hearts")
    pair = hidden_swap(game, 2, random.Random(2), 20)
    assert pair is not None
    with pytest.raises(AssertionError, match="sees another player's hidden cards in {'hand'}"):
        check_no_leak(game, *pair)
    monkeypatch.undo()

    text = views.information_state_text
    monkeypatch.setattr(views, "information_state_text", lambda s, p: text(s, p) + str(s.hands[(p + 1) % 4]))
    game = shipped("hearts")
    pair = hidden_swap(game, 2, random.Random(2), 20)
    assert pair is not None
    with pytest.raises(AssertionError, match="information state shows a hidden card"):
        check_no_leak(game, *pair)
