"""Who may send what (issue 17, item 4): watchers watch — only a game's seats and its creator
steer it — and a request for a host name the server does not answer to (DNS rebinding) is
refused on every HTTP and WebSocket route."""

from __future__ import annotations

import argparse

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mancala.server.app import create_app, host_name
from mancala.server.command import server_names
from mancala.server.config import LOOPBACK_NAMES, ServerConfig

pytestmark = pytest.mark.processes


@pytest.fixture(scope="module")
def client():
    """One server for the file's tests."""
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0))
    with TestClient(app) as c:
        yield c


def _ai_game(conn: Conn) -> str:
    """An AI-vs-AI game created (and so steerable) by ``conn``, paused; its id."""
    joined, _ = conn.create(game="tictactoe", players=["random:seed=1", "random:seed=2"], move_delay=5.0)
    state = conn.ask("pause")
    assert state["type"] == "state" and state["paused"], state
    return joined["game_id"]


@pytest.mark.parametrize(
    "intent, fields",
    [
        ("pause", {}),
        ("resume", {}),
        ("step", {}),
        ("settings", {"move_delay": 0.0}),
        ("undo", {}),
        ("redo", {}),
        ("resign", {}),
    ],
)
def test_a_watcher_cannot_steer_an_ai_game(client, intent, fields):
    with client.websocket_connect("/ws") as w1, client.websocket_connect("/ws") as w2:
        owner, watcher = Conn(w1), Conn(w2)
        owner.hello(), watcher.hello()
        gid = _ai_game(owner)
        before = owner.ask("view", "view", ply=0)
        watched = watcher.ask("watch", "state", game_id=gid)
        assert watched["type"] == "state"
        answer = watcher.ask(intent, **fields)
        assert answer["type"] == "error" and answer["code"] == "not_allowed", answer
        assert "watching" in answer["message"]
        # one wording for every intent ("may settings it" read wrong)
        assert answer["message"].endswith("only its players and the one who created it may do that")
        # nothing changed: still paused, same delay, no result, the same first position
        state = owner.ask("ping", "pong") and owner.ask("view", "view", ply=0)
        assert state["board"] == before["board"]
        now = watcher.ask("list", "games")
        mine = next(g for g in now["games"] if g["game_id"] == gid)
        assert mine.get("result") is None


def test_a_watcher_cannot_slow_a_clocked_game_to_make_it_lose_on_time(client):
    with client.websocket_connect("/ws") as w1, client.websocket_connect("/ws") as w2:
        owner, watcher = Conn(w1), Conn(w2)
        owner.hello(), watcher.hello()
        joined, state = owner.create(game="tictactoe", players=["greedy", "greedy"], move_delay=0.0)
        watcher.ask("watch", "state", game_id=joined["game_id"])
        refused = watcher.ask("settings", move_delay=10.0)
        assert refused["code"] == "not_allowed"
        final = owner.settle(lambda s: s.get("result") is not None)
        assert final["result"]["reason"] != "time"


def test_the_creator_and_the_players_may_steer(client):
    with client.websocket_connect("/ws") as ws:
        owner = Conn(ws)
        owner.hello()
        _ai_game(owner)
        assert owner.ask("settings", move_delay=0.0)["type"] == "state"
        stepped = owner.ask("step")
        assert stepped["type"] == "state", stepped
        assert owner.ask("resume")["type"] == "state"
    with client.websocket_connect("/ws") as ws:
        player = Conn(ws)
        player.hello()
        player.create(game="tictactoe", players=["human", "random:seed=3"])
        moved = player.ask("move", move="5")
        assert moved["type"] == "state"
        player.settle(lambda s: len(s["history"]) >= 2)
        assert player.ask("undo")["type"] == "state"
        assert player.ask("resign")["result"]["reason"] == "resign"


def test_the_creator_who_comes_back_with_its_token_may_steer_again(client):
    with client.websocket_connect("/ws") as ws:
        owner = Conn(ws)
        owner.hello()
        joined, _ = owner.create(game="tictactoe", players=["random:seed=1", "random:seed=2"], move_delay=5.0)
        token, gid = joined["resume"], joined["game_id"]
        with client.websocket_connect("/ws") as ws2:
            back = Conn(ws2)
            back.hello()
            assert back.ask("join", "joined", game_id=gid, resume=token)["role"] == "player"
            assert back.ask("pause")["paused"] is True


@pytest.mark.parametrize(
    "path", ["/", "/api/results", "/api/status", "/api/players", "/api/games", "/static/index.html"]
)
def test_a_foreign_host_name_is_refused_on_every_http_route(client, path):
    refused = client.get(path, headers={"host": "evil.example:8000"})
    assert refused.status_code == 421, (path, refused.status_code)
    assert client.get(path, headers={"host": "localhost:8000"}).status_code in (200, 404)


def test_a_foreign_host_name_cannot_open_the_websocket(client):
    headers = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws", headers=headers) as ws:
            ws.send_text('{"v": 1, "type": "hello"}')
            ws.receive_text()  # a welcome, were the handshake accepted


@pytest.mark.parametrize(
    "header, name",
    [
        ("localhost:8000", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("[::1]:8000", "::1"),
        ("EVIL.example:80", "evil.example"),
        ("", ""),
    ],
)
def test_host_name_reads_the_header(header, name):
    assert host_name(header) == name


def test_the_names_a_server_answers_to():
    def names(host: str, *allow: str) -> tuple[str, ...]:
        return server_names(argparse.Namespace(host=host, allow_host=list(allow)))

    assert names("127.0.0.1") == LOOPBACK_NAMES
    wide = names("0.0.0.0", "mancala.example.org")
    assert "mancala.example.org" in wide and "0.0.0.0" not in wide and "localhost" in wide
    assert "192.0.2.7" in names("192.0.2.7")
    assert "evil.example" not in wide


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "0.0.0.0", "::", "192.0.2.7"])
def test_the_server_answers_at_the_address_it_prints(host):
    from urllib.parse import urlsplit

    from mancala.server.command import address

    names = server_names(argparse.Namespace(host=host, allow_host=[]))
    printed = address(host, 8000)
    assert host_name(urlsplit(printed).netloc) in names, (printed, names)
    if host in ("0.0.0.0", "::"):
        assert host not in names and host_name(urlsplit(printed).netloc) != host  # a wildcard names no machine
    with TestClient(create_app(ServerConfig(hosts=names, warm=False, workers=1)), base_url=printed) as client:
        assert client.get("/api/games").status_code == 200  # not 421


# --- what a waiting person is told (issue 17, item 8) ------------------------------------


def test_an_engine_player_waiting_for_the_warm_up_is_told_what_and_how_long(monkeypatch):
    from mancala.engine import readiness
    from mancala.games import make_game
    from mancala.server.hub import Hub
    from mancala.server.session import _seat

    monkeypatch.setattr(readiness, "engine_ready", lambda record: False)  # as on an empty cache
    hub = Hub(ServerConfig(hosts=TEST_HOSTS, warm=True))
    assert not hub.engine_ready
    kalah, bao = make_game("kalah"), make_game("bao")
    expert = hub.expectation(_seat("expert", kalah))
    assert expert["doing"] == readiness.NOTE and expert["estimate"] >= 1 and expert["engine_left"] >= 1
    assert hub.expectation(_seat("medium", kalah)) == {"doing": "searching", "estimate": None, "budget": None}
    assert hub.expectation(_seat("medium", bao))["doing"] == readiness.NOTE  # Bao's levels use its engine
    assert hub.expectation(_seat("best:time=2", kalah))["budget"] == 2.0
    monkeypatch.setattr(readiness, "engine_ready", lambda record: True)
    assert hub.expectation(_seat("best:time=2", kalah)) == {"doing": "searching", "estimate": 2.0, "budget": 2.0}


def test_every_message_type_of_the_protocol_has_one_handler():
    from mancala.server.app import GAME_HANDLERS, HANDLERS
    from mancala.server.protocol import MESSAGES

    assert set(HANDLERS) | set(GAME_HANDLERS) == set(MESSAGES)
    assert not set(HANDLERS) & set(GAME_HANDLERS)


@pytest.mark.parametrize(
    "spec, allowed",
    [
        ("best:depth=2", True),
        ("best:nodes=20000", True),
        ("best:time=60", True),
        ("best:time=61", False),
        ("best:depth=21", False),
        ("best:nodes=60000000", False),
    ],
)
def test_the_server_bounds_best_by_its_own_budget(spec, allowed):
    from mancala.errors import BadInput
    from mancala.games import make_game
    from mancala.server.session import _seat

    if allowed:
        assert _seat(spec, make_game("kalah")).kind == "ai"
    else:
        with pytest.raises(BadInput, match="this server"):
            _seat(spec, make_game("kalah"))
