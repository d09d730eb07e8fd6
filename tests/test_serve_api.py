"""The HTTP API of `trickrules serve`: whole games of every shipped spec played through it by
bots; refused requests (illegal, malformed) answered with a 4xx and the game unchanged; no
hidden card in any seat's answers; undo, stepping, records; the server answers while a bot
thinks."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from serve_helpers import SHIPPED, Client, card_pattern, leaked, served, wait_for
from trickrules.engine.game import load_game
from trickrules.serve import parse_seats
from trickrules.tools.cli import main as cli_main
from trickrules.tools.record import replay

pytestmark = pytest.mark.not_compiled  # the server and the page, not the engine


def to_human_play(client: Client) -> dict[str, Any]:
    """Pass (seat 0's highest cards) until seat 0 is to play a card; its view then."""
    while True:
        view = wait_for(client, lambda v: v["current"] == 0)
        if view["phase"] == "play":
            return view
        status, view = client.post("/api/action", {"seat": 0, "action": view["decisions"][-1]["action"]})
        assert status == 200, view


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what changes while the game stays the same."""
    return {k: v for k, v in view.items() if k not in ("version", "thinking", "message")}


# ---------------------------------------------------------------- whole games by bots


@pytest.mark.parametrize("spec", SHIPPED, ids=lambda p: p.stem)
def test_bots_play_a_whole_game_of_every_shipped_spec_and_its_record_replays(spec: Path, tmp_path: Path) -> None:
    with served(spec, seats="random,greedy", seed=3, pace=0) as (session, client):
        view = wait_for(client, lambda v: v["terminal"], timeout=120)
        assert view["winners"], view["rounds"][-1:]
        assert view["length"] == view["position"] == view["turn"] > 0
        assert view["decisions"] == []
        assert [line["kind"] for line in view["log"]][-1] == "game_end"
        assert len(view["rounds"]) == len([line for line in view["log"] if line["kind"] == "deal"])
        status, record = client.get("/api/record")
        assert status == 200 and record["winners"] == view["winners"]
        assert record["agents"] == view["seats"]
    game = load_game(spec, players=record["players"], options=record["options"])
    assert replay(record, game).verified
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert cli_main(["replay", str(path), "--spec", str(spec)]) == 0


def test_an_ismcts_seat_plays_and_the_server_answers_while_it_thinks() -> None:
    with served(SHIPPED[0].parent / "hearts.yaml", seats="ismcts:1500,random", seed=1, pace=0) as (session, client):
        answered_while_thinking = 0
        for _ in range(150):  # the server answers while the bot thinks (how fast: benchmarks/bench_serve.py)
            answered_while_thinking += client.state(1)["thinking"] == 0
            if answered_while_thinking >= 3:
                break
            time.sleep(0.02)
        assert answered_while_thinking >= 3
        assert wait_for(client, lambda view: view["length"] > 0)["length"] > 0  # and the bot plays on


# ---------------------------------------------------------------- refused requests


def bad_requests(view: dict[str, Any], session: Any) -> list[tuple[str, str, Any]]:
    """(method, path, body) of requests the server must refuse in this position (seat 0 to move)."""
    state = session.state
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in state.legal_actions())
    legal = view["decisions"][0]["action"]
    return [
        ("POST", "/api/action", {"seat": 0, "action": illegal}),
        ("POST", "/api/action", {"seat": 0, "action": state.action_to_string(illegal)}),
        ("POST", "/api/action", {"seat": 0, "action": -1}),
        ("POST", "/api/action", {"seat": 0, "action": 10**9}),
        ("POST", "/api/action", {"seat": 0, "action": float(legal)}),
        ("POST", "/api/action", {"seat": 0, "action": True}),
        ("POST", "/api/action", {"seat": 0, "action": None}),
        ("POST", "/api/action", {"seat": 0, "action": [legal]}),
        ("POST", "/api/action", {"seat": 0, "action": "play no-such-card"}),
        ("POST", "/api/action", {"seat": 0, "action": "x" * 10000}),
        ("POST", "/api/action", {"seat": 0}),
        ("POST", "/api/action", {"action": legal}),
        ("POST", "/api/action", {"seat": 1, "action": legal}),
        ("POST", "/api/action", {"seat": 7, "action": legal}),
        ("POST", "/api/action", {"seat": "0", "action": legal}),
        ("POST", "/api/action", {"seat": 0, "action": legal, "turn": view["turn"] + 1}),
        ("POST", "/api/action", {"seat": 0, "action": legal, "turn": "now"}),
        ("POST", "/api/action", b"{not json"),
        ("POST", "/api/action", b"\xff\xfe"),
        ("POST", "/api/action", b"[1, 2]"),
        ("POST", "/api/action", b'"play"'),
        ("POST", "/api/new", {"seed": "abc"}),
        ("POST", "/api/new", {"seed": -1}),
        ("POST", "/api/new", {"seed": 1.5}),
        ("POST", "/api/new", {"seed": 2**70}),
        ("POST", "/api/step", {"to": 10**6}),
        ("POST", "/api/step", {"to": "start"}),
        ("POST", "/api/step", {}),
        ("POST", "/api/seats", {"seats": ["human"]}),
        ("POST", "/api/seats", {"seats": ["human", "robot", "greedy", "greedy"]}),
        ("POST", "/api/seats", {"seats": "human"}),
        ("POST", "/api/pace", {"seconds": -1}),
        ("POST", "/api/pace", {"seconds": "fast"}),
        ("POST", "/api/pace", {"seconds": 1e9}),
        ("POST", "/api/record", {}),
        ("POST", "/api/record", {"format": "trickrules-record"}),
        ("POST", "/api/nothing", {}),
        ("GET", "/api/state?seat=4", None),
        ("GET", "/api/state?seat=-1", None),
        ("GET", "/api/state?seat=one", None),
        ("GET", "/api/state?seat=0&since=soon", None),
        ("GET", "/api/nothing", None),
        ("GET", "/static/../session.py", None),
        ("GET", "/static/secret.txt", None),
        ("PUT", "/api/action", {"seat": 0, "action": legal}),
        ("DELETE", "/api/state", None),
    ]


def test_illegal_and_malformed_requests_are_refused_and_change_nothing() -> None:
    with served(SHIPPED[0].parent / "hearts.yaml", seats="human,random", seed=4, pace=0) as (session, client):
        view = to_human_play(client)
        before = [comparable(client.state(seat)) for seat in range(4)]
        for method, path, body in bad_requests(view, session):
            raw = body if isinstance(body, bytes) else None
            status, answer = client.request(method, path, None if raw is not None else body, raw=raw)
            assert 400 <= status < 500, (method, path, body, status, answer)
            assert isinstance(answer, dict) and answer.get("error"), (method, path, answer)
            assert "hand [" not in answer["error"]  # never the engine's full state text
            after = [comparable(client.state(seat)) for seat in range(4)]
            assert after == before, (method, path, body)
        status, _ = client.request("POST", "/api/action", raw=b"{}", headers={"Content-Length": str(10**9)})
        assert status == 413
        assert [comparable(client.state(seat)) for seat in range(4)] == before
        status, _ = client.post("/api/action", {"seat": 0, "action": view["decisions"][0]["action"], "turn": view["turn"]})
        assert status == 200


def test_posts_from_other_sites_and_other_host_names_are_refused() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", seats="human,random", seed=3, pace=0, bots=False) as (session, client):
        before = comparable(client.state(0))
        body = json.dumps({"seed": 99}).encode()
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            status, answer = client.request("POST", "/api/new", raw=body, headers={"Content-Type": kind})
            assert status == 415, (kind, answer)
        status, answer = client.request("GET", "/api/state?seat=0", headers={"Host": "rebound.example:8000"})
        assert status == 403
        status, answer = client.request("POST", "/api/new", {"seed": 99}, headers={"Host": "rebound.example"})
        assert status == 403
        assert comparable(client.state(0)) == before
        status, _ = client.request("GET", "/api/state?seat=0", headers={"Host": "localhost:1234"})
        assert status == 200


def test_an_illegal_card_is_refused_with_the_rule_that_forbids_it() -> None:
    with served(SHIPPED[0].parent / "hearts.yaml", seats="human,random", seed=4, pace=0) as (session, client):
        view = to_human_play(client)
        while all(h["legal"] for h in view["hand"]):
            status, view = client.post("/api/action", {"seat": 0, "action": view["decisions"][0]["action"]})
            view = to_human_play(client)
        refused = next(h for h in view["hand"] if not h["legal"])
        assert refused["reason"] and refused["action"] is None
        status, answer = client.post("/api/action", {"seat": 0, "action": f"play {refused['card']}"})
        assert status == 422
        assert refused["reason"] in answer["error"]


def test_the_reason_names_the_restriction_in_the_specs_words() -> None:
    # seat 0 holds the two of clubs at the start of a deal without passing: only it may lead
    with served(SHIPPED[0].parent / "hearts.yaml", seats="human,random", seed=1, pace=0) as (session, client):
        for attempt in range(40):
            client.post("/api/new", {"seed": attempt + 1})
            view = to_human_play(client)
            if view["trick"]["plays"] == [] and view["table"]["tricks_won"] == [0, 0, 0, 0]:
                break
        assert view["trick"]["plays"] == [] and view["current"] == 0
        reasons = {h["reason"] for h in view["hand"] if not h["legal"]}
        assert "Restriction: the two of clubs leads the first trick" in reasons


# ---------------------------------------------------------------- no hidden card


@pytest.mark.parametrize("spec", SHIPPED, ids=lambda p: p.stem)
def test_no_seat_ever_receives_a_hidden_card(spec: Path) -> None:
    rng = random.Random(7)
    with served(spec, bots=False, seats="human", seed=11, pace=0) as (session, client):
        game = session.game
        pattern = card_pattern(list(game.card_ids))
        players = game.num_players
        status, view = client.post("/api/seats", {"seats": ["human"] * players})
        assert status == 200, view
        steps = 0
        while not view["terminal"] and steps < 260:
            for seat in range(players):
                seen = client.state(seat)
                found = leaked(seen, session.state, seat, pattern)
                assert not found, f"seat {seat} was sent hidden cards {sorted(found)} at step {steps}"
            mover = view["current"]
            view = client.state(mover)
            choice = rng.choice(view["decisions"])
            status, view = client.post("/api/action", {"seat": mover, "action": choice["action"], "turn": view["turn"]})
            assert status == 200, view
            steps += 1
        assert steps > 0


# ---------------------------------------------------------------- undo, stepping, records


def test_undo_takes_back_the_human_move_and_the_bot_moves_after_it() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", seats="human,random", seed=2, pace=0) as (session, client):
        view = wait_for(client, lambda v: v["current"] == 0)
        first = comparable(view)
        status, view = client.post("/api/action", {"seat": 0, "action": view["decisions"][-1]["action"]})
        assert status == 200
        view = wait_for(client, lambda v: v["current"] == 0 or v["terminal"])
        assert view["length"] > first["length"]
        status, view = client.post("/api/undo")
        assert status == 200
        assert comparable(client.state(0)) | {"pace": 0} == first | {"pace": 0}


def test_undo_without_a_human_move_is_refused() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", seats="random", seed=2, pace=0, bots=False) as (session, client):
        status, answer = client.post("/api/undo")
        assert status == 409 and "undo" in answer["error"]


def test_stepping_back_shows_an_earlier_position_and_forward_the_latest() -> None:
    with served(SHIPPED[0].parent / "kingdoms.yaml", seats="random", seed=5, pace=0) as (session, client):
        end = wait_for(client, lambda v: v["terminal"])
        status, view = client.post("/api/step", {"to": 0})
        assert status == 200 and view["position"] == 0 and not view["live"] and not view["terminal"]
        assert view["rounds"] == [] and view["turn"] == 0
        status, view = client.post("/api/step", {"by": 5})
        assert view["position"] == view["turn"] == 5
        status, view = client.post("/api/step", {"by": -100})
        assert view["position"] == 0
        status, view = client.post("/api/step", {"to": "end"})
        assert view["live"] and view["terminal"] and view["winners"] == end["winners"]


def test_a_record_opened_is_watched_step_by_step() -> None:
    with served(SHIPPED[0].parent / "hearts.yaml", seats="greedy,random", seed=9, pace=0) as (session, client):
        end = wait_for(client, lambda v: v["terminal"], timeout=120)
        status, record = client.get("/api/record")
        status, view = client.post("/api/new", {"seed": 10})
        assert view["seed"] == 10 and view["length"] == 0 or not view["terminal"]
        status, view = client.post("/api/record", record)
        assert status == 200, view
        assert view["mode"] == "watch" and view["position"] == 0 and view["length"] == len(record["actions"])
        assert view["decisions"] == []
        status, answer = client.post("/api/action", {"seat": 0, "action": 0})
        assert status == 409
        status, view = client.post("/api/step", {"to": "end"})
        assert view["terminal"] and view["winners"] == end["winners"] and view["seed"] == 9
        status, again = client.get("/api/record")
        assert again == record
        status, view = client.post("/api/new", {"seed": 12})
        assert view["mode"] == "live" and view["seed"] == 12


def test_a_record_that_does_not_replay_is_refused() -> None:
    with served(SHIPPED[0].parent / "hearts.yaml", seats="random", seed=9, pace=0) as (session, client):
        wait_for(client, lambda v: v["terminal"], timeout=120)
        status, record = client.get("/api/record")
        before = comparable(client.state(0))
        broken = dict(record, actions=record["actions"][:5] + ["play clubs-2"] * 3)
        status, answer = client.post("/api/record", broken)
        assert status == 422 and "replay" in answer["error"]
        assert comparable(client.state(0)) == before


def test_new_game_with_a_seed_deals_the_same_hands_again() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", seats="human,random", seed=3, pace=0, bots=False) as (session, client):
        first = client.state(0)["hand"]
        status, view = client.post("/api/new", {"seed": 4})
        assert view["seed"] == 4 and view["hand"] != first
        status, view = client.post("/api/new", {"seed": 3})
        assert view["hand"] == first


def test_seats_and_pace_are_set_from_the_page() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", seats="human,random", seed=3, pace=0, bots=False) as (session, client):
        status, view = client.post("/api/seats", {"seats": ["random", "human", "ismcts:50", "greedy"]})
        assert status == 200 and view["seats"] == ["random", "human", "ismcts:50", "greedy"]
        status, view = client.post("/api/pace", {"seconds": 1.5})
        assert status == 200 and view["pace"] == 1.5


def test_seats_are_read_from_the_command_lines_list() -> None:
    assert parse_seats("human,ismcts:200,greedy,random", 4) == ["human", "ismcts:200", "greedy", "random"]
    assert parse_seats("human", 4) == ["human", "greedy", "greedy", "greedy"]
    assert parse_seats("random", 3) == ["random"] * 3
    assert parse_seats("human,random", 4) == ["human", "random", "random", "random"]
    for bad in ("human,robot", "ismcts:0", "human,greedy,greedy,greedy,greedy", ""):
        with pytest.raises(ValueError):
            parse_seats(bad, 4)


def test_the_page_and_its_files_are_served() -> None:
    with served(SHIPPED[0].parent / "spades.yaml", bots=False) as (session, client):
        for path in ("/", "/static/app.js", "/static/style.css"):
            status, body = client.get(path)
            assert status == 200 and len(body) > 0


def test_the_leak_check_finds_a_hidden_card_named_anywhere() -> None:
    game = load_game(SHIPPED[0].parent / "spades.yaml")
    state = game.new_initial_state(1, record=True)
    pattern = card_pattern(list(game.card_ids))
    other = game.card_ids[state.hands[1][0]]
    own = game.card_ids[state.hands[0][0]]
    assert leaked({"hand": [{"card": own}], "deck": {"cards": {other: {}}}}, state, 0, pattern) == set()
    assert leaked({"log": [{"round": 1, "text": f"P1 passes {other}"}]}, state, 0, pattern) == {other}
    assert leaked({"table": {"deep": [{"x": f"{other} (as spades 3)"}]}}, state, 0, pattern) == {other}


# ---------------------------------------------------------------- taking up the set-aside cards


def test_a_skat_soloist_takes_up_the_skat_and_buries_cards_from_the_hand() -> None:
    with served(SHIPPED[0].parent / "skat.yaml", bots=False, seats="human", seed=5, pace=0) as (session, client):
        status, view = client.post("/api/seats", {"seats": ["human"] * 3})
        assert status == 200 and view["phase"] == "declare"
        grand = next(d for d in view["decisions"] if d["label"] == "contract grand")
        status, view = client.post("/api/action", {"seat": 0, "action": grand["action"], "turn": view["turn"]})
        assert status == 200, view
        view = client.state(0)
        assert view["phase"] == "take" and len(view["hand"]) == 12
        assert {d["label"] for d in view["decisions"]} == {f"bury {h['card']}" for h in view["hand"]}
        assert all(h["legal"] and h["action"] is not None for h in view["hand"]), "every card of the hand is a click to bury"
        card = view["hand"][0]["card"]
        status, view = client.post("/api/action", {"seat": 0, "action": view["hand"][0]["action"], "turn": view["turn"]})
        assert status == 200, view
        mine, other = client.state(0), client.state(1)
        assert mine["table"]["buried"] == [card] and mine["table"]["taker"] == 0
        assert "buried" not in other["table"] and other["table"]["hand_sizes"] == [11, 10, 10]
        pattern = card_pattern(list(session.game.card_ids))
        assert card in leaked(mine, session.state, 1, pattern), "the helper sees the buried card as hidden from seat 1"
        assert leaked(other, session.state, 1, pattern) == set()
        assert [line["text"] for line in other["log"] if line["kind"] in ("take_set_aside", "bury")] == ["P0 takes the 2 set-aside cards", "P0 buries a card"]
