"""No finished game is lost on a full disk (issue 33): a game the server cannot write stays in
its journal and is written when it can (at the next write, every ``RETRY_SECONDS``, at the
next start), and its clients are told (``result.saved``, the status line)."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

import mancala.server.journal as journal_module
from mancala.record import load_record
from mancala.server.app import create_app
from mancala.server.config import ServerConfig
from mancala.server.journal import JOURNAL_NAME, Journal


class Disk:
    """``write_atomically`` on a disk that is full (``full``) for every file, or for every
    file but the journal (``full_but_journal``), until it is not."""

    def __init__(self, monkeypatch) -> None:
        self.full = False
        self.full_but_journal = False
        self.real = journal_module.write_atomically
        monkeypatch.setattr(journal_module, "write_atomically", self.write)

    def write(self, path, data) -> None:
        if self.full or (self.full_but_journal and Path(path).name != JOURNAL_NAME):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        self.real(path, data)


def results(folder: Path) -> list[Path]:
    """The game files in a results folder."""
    return sorted(f for f in folder.glob("*.json") if f.name != JOURNAL_NAME)


def record(moves: list[str]) -> dict:
    return {"format": "mancala-game", "version": 1, "game": "tictactoe", "players": ["human", "human"], "moves": moves}


def test_a_game_not_written_on_a_full_disk_is_written_at_the_next_write(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    told = []
    journal = Journal(tmp_path, lambda: [], told.append)
    journal.open()
    disk.full = True
    journal.write_result("g1", record(["4"]))
    assert journal.saved("g1") is False and results(tmp_path) == [] and "No space" in journal.problem
    disk.full = False  # space comes back: the next game's file takes the waiting one with it
    journal.write_result("g2", record(["0"]))
    assert journal.saved("g1") and journal.saved("g2") and told == ["g1"]
    assert sorted(json.loads(f.read_text())["moves"] for f in results(tmp_path)) == [["0"], ["4"]]
    assert json.loads((tmp_path / JOURNAL_NAME).read_text())["unwritten"] == []


def test_a_game_still_unwritten_at_stop_is_written_at_the_next_start(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    journal = Journal(tmp_path, lambda: [])
    journal.open()
    disk.full_but_journal = True  # the journal is small and written in place of the old one
    journal.write_result("g1", record(["4"]))
    journal.close()
    kept = json.loads((tmp_path / JOURNAL_NAME).read_text())["unwritten"]
    assert [(e["game_id"], e["record"]["moves"]) for e in kept] == [("g1", ["4"])] and results(tmp_path) == []
    disk.full_but_journal = False
    Journal(tmp_path, lambda: []).open()
    [path] = results(tmp_path)
    assert path.name == kept[0]["file"] and load_record(path).moves[0].cell == 4
    assert json.loads((tmp_path / JOURNAL_NAME).read_text())["unwritten"] == []


def test_an_unwritten_entry_of_the_journal_is_written_in_the_folder_only(tmp_path):
    entry = {"file": "../outside.json", "game_id": "g/1", "record": record(["4"])}
    (tmp_path / JOURNAL_NAME).write_text(
        json.dumps({"format": "mancala-journal", "version": 2, "games": [], "unwritten": [entry]})
    )
    Journal(tmp_path, lambda: []).open()
    assert [f.name for f in results(tmp_path)] == ["g1.json"] and not (tmp_path.parent / "outside.json").exists()


@pytest.mark.processes
def test_the_clients_are_told_and_the_game_is_written_once_space_comes_back(tmp_path, monkeypatch):
    disk = Disk(monkeypatch)
    monkeypatch.setattr(journal_module, "RETRY_SECONDS", 0.05)
    config = ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, results=tmp_path)
    with TestClient(create_app(config)) as c, c.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello()
        conn.create("tictactoe", ["human", "human"])
        conn.ask("move", move="4")
        disk.full = True
        end = conn.ask("resign")
        assert end["result"]["reason"] == "resign" and end["result"]["saved"] is False
        assert "Not saved yet" in end["status"] and "No space left on device" in end["status"]
        assert [g["saved"] for g in c.get("/api/results").json()["results"]] == [False]
        assert results(tmp_path) == []
        disk.full = False  # the server tries again by itself, and says so
        written = conn.settle(lambda s: s["result"] and s["result"]["saved"])
        assert written["status"].startswith("Game over.") and "Not saved" not in written["status"]
        [path] = results(tmp_path)
        assert load_record(path).ending.reason == "resign"
