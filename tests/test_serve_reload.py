"""The designer loop of `trickrules serve`: the server watches the spec (and the files it
extends); a save starts a new game with the new rules, or shows the problems with their file,
line, column and code, and the next good save recovers."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from serve_helpers import SHIPPED, served, wait_for

HEARTS = SHIPPED[0].parent / "hearts.yaml"

pytestmark = pytest.mark.not_compiled  # the server and the page, not the engine


def save(path: Path, text: str) -> None:
    """Write `text` as an editor saves it (the size or the time changes)."""
    path.write_text(text, encoding="utf-8")


def test_a_broken_save_shows_the_problems_and_a_good_one_starts_a_new_game(tmp_path: Path) -> None:
    spec = tmp_path / "hearts.yaml"
    good = HEARTS.read_text(encoding="utf-8")
    save(spec, good)
    with served(spec, seats="human,random", seed=8, pace=0) as (session, client):
        first = client.state(0)
        assert first["errors"] == [] and first["spec"]["title"] == "Hearts"
        client.post("/api/action", {"seat": 0, "action": first["decisions"][0]["action"]})
        broken = good.replace("follow: [follow_led]", "follow: [follow_nothing]")
        assert broken != good
        save(spec, broken)
        view = wait_for(client, lambda v: v["errors"] != [])
        problem = view["errors"][0]
        assert Path(problem["file"]).name == "hearts.yaml"
        line = broken.splitlines().index("follow: [follow_nothing]") + 1
        assert problem["line"] == line and problem["column"] >= 1 and problem["code"].startswith("TR")
        status, answer = client.post("/api/action", {"seat": 0, "action": 0})
        assert status == 409 and "problems" in answer["error"]
        save(spec, good.replace("title: Hearts", "title: Hearts, edited"))
        view = wait_for(client, lambda v: v["errors"] == [])
        assert view["spec"]["title"] == "Hearts, edited"
        assert view["length"] == 0 and view["seed"] == 8 and view["seats"] == first["seats"]
        assert view["message"]


def test_a_spec_broken_from_the_start_is_served_with_its_problems(tmp_path: Path) -> None:
    spec = tmp_path / "mine.yaml"
    save(spec, "id: mine\nplayers: [4]\ndeck: 12\n")
    with served(spec, seats="human,greedy", seed=1, pace=0) as (session, client):
        view = client.state(0)
        assert view["errors"] and "deck" not in view
        assert all({"file", "line", "column", "code", "message"} <= set(e) for e in view["errors"])
        save(spec, HEARTS.read_text(encoding="utf-8"))
        view = wait_for(client, lambda v: v["errors"] == [] and "deck" in v)
        assert view["spec"]["id"] == "hearts" and view["seats"][0] == "human"


def test_an_edit_of_the_file_a_spec_extends_reloads_it(tmp_path: Path) -> None:
    shutil.copy(HEARTS, tmp_path / "hearts.yaml")
    overlay = tmp_path / "short.yaml"
    save(overlay, "extends: hearts.yaml\nid: short-hearts\ntitle: Short hearts\n")
    with served(overlay, seats="human,random", seed=2, pace=0) as (session, client):
        view = client.state(0)
        assert view["spec"]["title"] == "Short hearts" and view["table"]["hand_sizes"] == [13] * 4
        base = (tmp_path / "hearts.yaml").read_text(encoding="utf-8")
        save(tmp_path / "hearts.yaml", base.replace("hand_size: 13", "hand_size: 12"))
        view = wait_for(client, lambda v: "reloaded" in v["message"])
        assert view["errors"] == [] and view["table"]["hand_sizes"] == [12] * 4


def test_reloading_waits_for_no_request(tmp_path: Path) -> None:
    spec = tmp_path / "hearts.yaml"
    save(spec, HEARTS.read_text(encoding="utf-8"))
    with served(spec, seats="human,random", seed=8, pace=0) as (session, client):
        before: dict[str, Any] = client.state(0)
        time.sleep(0.2)
        assert client.state(0)["version"] == before["version"]  # nothing changed: no reload


def test_a_save_made_while_the_spec_is_read_is_loaded_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trickrules.serve import session as session_module
    from trickrules.serve.session import Session

    spec = tmp_path / "hearts.yaml"
    good = HEARTS.read_text(encoding="utf-8")
    save(spec, good.replace("follow: [follow_led]", "follow: [follow_nothing]"))
    table = Session(str(spec), seats="random", seed=1, pace=0)
    assert table.errors
    real = session_module.load_game

    def saved_while_read(*args: Any, **kwargs: Any) -> Any:
        try:
            return real(*args, **kwargs)  # reads the broken text
        finally:
            save(spec, good)  # the editor's next save lands before the load is done

    monkeypatch.setattr(session_module, "load_game", saved_while_read)
    save(spec, good.replace("follow: [follow_led]", "follow: [follow_nothing]  # still broken"))
    assert table.check_spec() and table.errors
    monkeypatch.setattr(session_module, "load_game", real)
    assert table.check_spec() and table.errors == []  # the save made during the read is not lost
