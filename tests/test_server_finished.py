"""A finished game freed from the server's memory (docs/protocol.md, "A finished game's link"):
its link still opens it, read-only, from the bounded store of kept records
(:mod:`mancala.server.finished`); an id the server does not know is told apart by case."""

from __future__ import annotations

import json

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.cli.main import build_parser
from mancala.errors import BadInput
from mancala.server.app import create_app
from mancala.server.command import _config
from mancala.server.config import ServerConfig
from mancala.server.finished import KEPT_BYTES, FinishedGames

pytestmark = pytest.mark.processes


def server(**options):
    """A test client around a fresh server with ``options`` (games freed as soon as left)."""
    options = {"warm": False, "workers": 1, "hosts": TEST_HOSTS, "idle_grace": 0.0, **options}
    return TestClient(create_app(ServerConfig(**options)))


def hot_seat_game(conn: Conn, moves=("0", "3", "1", "4", "2")) -> str:
    """A tic-tac-toe game on one connection, played through ``moves``, then left: its id."""
    joined, _ = conn.create("tictactoe", ["human", "human"])
    for move in moves:
        conn.ask("move", move=move)
    assert conn.ask("leave", "left")["type"] == "left"
    return joined["game_id"]


def test_a_finished_match_freed_from_memory_opens_read_only_from_its_link():
    with server() as c:
        with c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
            ann, bob = Conn(w1), Conn(w2)
            ann.hello(name="Ann")
            bob.hello(name="Bob")
            joined, _ = ann.create("tictactoe", ["human", "remote"])
            gid = joined["game_id"]
            bob.ask("join", game_id=gid)
            for move, who in (("0", ann), ("3", bob), ("1", ann), ("4", bob), ("2", ann)):
                who.ask("move", move=move)
            end = bob.settle(lambda s: s["result"] is not None)
            for who in (ann, bob):
                assert who.ask("leave", "left")["type"] == "left"
        with c.websocket_connect("/ws") as w3:
            carl = Conn(w3)
            assert carl.hello()["limits"]["finished_games"] == 100
            assert gid not in {g["game_id"] for g in carl.ask("list", "games")["games"]}  # freed
            refused = carl.ask("join", game_id=gid)
            assert refused["code"] == "game_over" and "watch it instead" in refused["message"]
            rid = carl.send("watch", game_id=gid)
            assert carl.wait("joined", rid) | {"id": None} == {
                "v": 1,
                "type": "joined",
                "id": None,
                "game_id": gid,
                "seats": [],
                "resume": None,
                "role": "watcher",
            }
            state = carl.wait("state", rid)
            assert state["game_id"] == gid and state["you"] == [] and state["legal"] == []
            assert [h["move"] for h in state["history"]] == ["0", "3", "1", "4", "2"]
            assert state["board"] == end["board"] and state["position"] == end["position"]
            assert state["result"]["text"] == end["result"]["text"] and end["result"]["text"].startswith("X (Ann) wins")
            assert [p["person"] for p in state["players"]] == ["Ann", "Bob"]
            assert state["status"] == "Game over. " + end["result"]["text"]
            assert carl.ask("move", move="5")["type"] == "error"  # read-only: a watcher moves nothing
            assert carl.ask("undo")["type"] == "error"
            assert carl.ask("leave", "left")["type"] == "left"
            # freed again, and kept again: the link opens it a second time
            again = carl.ask("watch", game_id=gid)
            assert again["type"] == "state" and again["result"]["text"] == end["result"]["text"]


def test_a_resume_of_a_freed_finished_game_is_told_it_is_over():
    with server() as c, c.websocket_connect("/ws") as w:
        ann = Conn(w)
        ann.hello()
        joined, _ = ann.create("tictactoe", ["human", "human"])
        for move in ("0", "3", "1", "4", "2"):
            ann.ask("move", move=move)
        ann.ask("leave", "left")
        refused = ann.ask("join", game_id=joined["game_id"], resume=joined["resume"])
        assert refused["code"] == "game_over"


def test_the_server_keeps_only_the_last_finished_games_and_says_which_case_an_unknown_id_is():
    with server(finished_games=2) as c, c.websocket_connect("/ws") as w:
        ann = Conn(w)
        assert ann.hello()["limits"]["finished_games"] == 2
        first, second, third = (hot_seat_game(ann) for _ in range(3))
        unfinished = hot_seat_game(ann, moves=("0",))
        for gid in (second, third):
            state = ann.ask("watch", game_id=gid)
            assert state["type"] == "state" and state["result"] is not None
            ann.ask("leave", "left")
        words = {
            first: "finished too long ago to be kept: this server keeps the last 2 finished games",
            unfinished: "was left unfinished and closed when its players left",
            "gdeadbeef": "no game 'gdeadbeef' on this server: it never existed here",
        }
        for gid, text in words.items():
            for kind in ("watch", "join"):
                err = ann.ask(kind, game_id=gid)
                assert err["code"] == "no_game" and text in err["message"], (kind, err)
                assert err["message"].count("\n") == 0


def test_the_store_is_bounded_in_games_ids_and_bytes():
    record = {"format": "mancala-game", "version": 3, "game": "tictactoe", "players": ["human", "human"]}
    store = FinishedGames(keep=2, remember=3)
    for i in range(4):
        store.freed(f"g{i}", dict(record, moves=["0"]), "start", "end")
    assert len(store) == 2 and store.get("g0") is None and store.get("g3") is not None
    assert "finished too long ago" in store.unknown("g0")
    for i in range(4, 8):
        store.freed(f"u{i}", None, "start", None)
    assert store.known("u7") and not store.known("g0")  # only the 3 newest ids are remembered
    assert "never existed" in store.unknown("g0") and "unfinished" in store.unknown("u7")
    # a record too large is kept without its side lines, a larger one not at all
    side = [{"from": 0, "moves": ["1"] * 9}] * (KEPT_BYTES // 40)
    store.freed("big", dict(record, moves=["0"], variations=side), "start", "end")
    kept = store.get("big")
    assert kept is not None and "variations" not in json.loads(kept.text)
    assert [str(m) for m in kept.record().moves] == ["0"]
    store.freed("huge", dict(record, moves=["0"], names=["x" * KEPT_BYTES, None]), "start", "end")
    assert store.get("huge") is None and "finished too long ago" in store.unknown("huge")


def test_mancala_web_and_serve_take_how_many_finished_games_to_keep():
    assert _config(build_parser().parse_args(["web"]), None, None).finished_games == 100
    assert _config(build_parser().parse_args(["serve", "--finished-games", "0"]), None, None).finished_games == 0
    with pytest.raises(BadInput, match="--finished-games must be 0 \\(keep none\\) or more, got -1"):
        _config(build_parser().parse_args(["web", "--finished-games", "-1"]), None, None)
