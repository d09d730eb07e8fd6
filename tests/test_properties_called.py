"""Property tests for partners named by a called card (`call`) and set-aside cards won in
play (`set_aside_in_play`): generated specs and the shipped Tarok, played at random and checked
after every action: every card in exactly one place (hands, trick, piles, the set-aside cards,
the buried ones); no player shown another seat's side before the called card is played, unless
it holds the card; what is shown is the truth; and the observation and its tensor are the same
in a state resampled from the player's knowledge, whose teams follow the called card's holder."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import as_yaml, scaled
from trickrules.engine.game import Game
from trickrules.engine.phases import call, take
from trickrules.engine.resample import resample
from trickrules.engine.state import Phase, State
from trickrules.spec.loader import load_ruleset_text

ROOT = Path(__file__).resolve().parent.parent
TAROK = ROOT / "specs" / "tarok.yaml"


def check_cards_through_piles(state: State) -> None:
    """Every card is in exactly one place: a hand, the trick, a pile, aside, or buried."""
    buried = take.buried(state)
    places = [*state.hands, state.trick, *state.piles, state.stock, buried]
    held = sorted(card for place in places for card in place)
    assert held == list(range(state.game.num_cards)), f"cards gained, lost or doubled: {held}"


def check_called_partners(state: State, rng: random.Random) -> int:
    """No side shown before the called card is played (but to its holder, and to everyone when
    it lay among set-aside cards shown to all); what is shown is the truth; the observation and tensor do not depend
    on the hidden cards, and a resampled state's teams follow its holder. Returns how many
    other seats' sides were shown besides the declarer's."""
    own = call.calling(state)
    if own is None:
        return 0
    played = any(own.card in cards for cards, _ in state.tricks) or own.card in state.trick
    side = next(team for team in state.round_teams if state.declarer in team)
    shown = 0
    for player in range(state.num_players):
        sides = state.observation(player)["sides"]
        taking = take.taking(state)
        shown_aside = own.set_aside and taking is not None and taking.rules.shown and own.card in taking.pile
        knows = played or own.card in state.hands[player] or shown_aside
        for seat, seen in enumerate(sides):
            if seat == player:
                assert seen == "own"
                continue
            if not knows and seat != state.declarer:
                assert seen is None, f"player {player} sees seat {seat}'s side before the called card is played"
            if seen is not None:
                shown += seat != state.declarer
                assert seen == ("own" if (seat in side) == (player in side) else "other"), f"player {player} is shown seat {seat} wrongly"
        if state.phase == Phase.PLAY:
            world = resample(state, player, rng)
            assert world.observation(player) == state.observation(player), f"player {player}'s observation depends on hidden cards"
            assert world.observation_tensor(player) == state.observation_tensor(player), "the tensor depends on hidden cards"
            holder = next((p for p in range(world.num_players) if p != world.declarer and (
                own.card in world.hands[p] or any(c == own.card and q == p for cards, ps in [*world.tricks, (world.trick, world.trick_players)]
                                                  for c, q in zip(cards, ps)))), -1)
            team = tuple(sorted({world.declarer, holder} - {-1}))
            assert team in world.round_teams, f"resampled teams {world.round_teams} do not follow the holder {holder}"
    return shown


def play_checked(game: Game, seed: int, passing: float = 0.0) -> tuple[State, int]:
    state = game.new_initial_state(seed)
    chooser = random.Random(seed)
    shown = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        texts = [state.action_to_string(a) for a in legal]
        if "pass" in texts and chooser.random() < passing:
            action = legal[texts.index("pass")]
        else:
            action = legal[chooser.randrange(len(legal))]
        state.apply_action(action)
        check_cards_through_piles(state)
        shown += check_called_partners(state, random.Random(len(state.history)))
    return state, shown


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """A 4-player spec with cards set aside, a declared contract in which the declarer calls
    one of two or three cards (optionally after taking the set-aside cards, or with them won in
    play), and a zero-sum score by side."""
    ranks = draw(st.integers(4, 6))
    aside = draw(st.integers(1, 3))
    hand = draw(st.integers(1, (3 * ranks - aside) // 4))
    cards = draw(st.lists(st.sampled_from([f"red-{ranks}", f"blue-{ranks}", f"green-{ranks}", "red-1"]), min_size=1, max_size=3, unique=True))
    total = 3 * ranks
    aside = total - 4 * hand
    rounds: list[Any] = ["deal", {"declare": {"first": {"seat": draw(st.integers(0, 3))}, "otherwise": "score"}},
                         {"call": {"cards": cards, "contracts": ["partners"]}}]
    if draw(st.booleans()):
        hand_game = {"hand": True} if draw(st.booleans()) else {}  # the declarer may leave the pile face down
        rounds.append({"take": {"contracts": ["partners"], "shown": draw(st.booleans()), **hand_game}})
    rounds += ["play", "score"]
    in_play = draw(st.sampled_from([{}, {"per_trick": 1}, {"called_card_takes_rest": True}]))
    spec: dict[str, Any] = {
        "language": 2, "id": "generated", "title": "Generated", "players": [4],
        "deck": {"suits": ["red", "blue", "green"], "generate": [{"suits": "all", "ranks": {"from": 1, "to": ranks}}]},
        "deal": {"hand_size": hand, "first_leader": {"seat": 0}},
        "round": rounds,
        "trumps": draw(st.sampled_from([["red"], "none"])),
        "follow": ["follow_led"],
        "ranking": [{"prefer": "trump"}, {"prefer": "led"}, {"highest": "rank"}],
        "scoring": {"pool": draw(st.booleans()), "round": [{"name": "none", "add": "0"}]},
        "contracts": {
            "partners": {"description": "With the called card's holder.", "declarer": "alone",
                         "scoring": {"round": [{"name": "net", "per": "team", "add": "2 * cards - sum(all_cards)"}]}},
        },
    }
    if aside and in_play:
        spec["set_aside_in_play"] = in_play
    return spec


@given(spec=specs(), seed=st.integers(0, 2**20))
@settings(max_examples=scaled(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_called_partners_stay_hidden_and_no_card_is_lost(spec: dict[str, Any], seed: int) -> None:
    game = Game(load_ruleset_text(as_yaml(spec)))
    state, _ = play_checked(game, seed)
    assert state.is_terminal()


def test_tarok_hides_the_called_partner_and_keeps_every_card() -> None:
    game = Game(load_ruleset_text(TAROK.read_text(encoding="utf-8"), players=4))
    shown = calls = 0
    for seed in range(60):  # scaled(12) games at least, and on until a call and a reveal were seen
        if seed >= scaled(12) and calls and shown:
            break
        state, seen = play_checked(game, seed, passing=0.8)
        shown += seen
        calls += call.calling(state) is not None
    assert calls > 0 and shown > 0  # kings were called, and partners were revealed in play
