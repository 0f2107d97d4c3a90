"""Network play on the game server (issue 9): remote seats joined by id, out-of-turn moves,
reconnecting with a resume token within the grace period, forfeits on disconnect and on
time, results written atomically, interrupted games listed after a restart, the token
required off loopback, and a real ``mancala serve`` process stopped by Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mancala.cli.main import main
from mancala.record import load_record
from mancala.server.app import create_app
from mancala.server.config import ServerConfig

pytestmark = pytest.mark.processes


def server(**options):
    """A test client around a fresh server with ``options``."""
    options.setdefault("warm", False)
    options.setdefault("workers", 1)
    return TestClient(create_app(ServerConfig(**{"hosts": TEST_HOSTS, **options})))


def connect(c: TestClient, **hello) -> tuple:
    ws = c.websocket_connect("/ws")
    session = ws.__enter__()
    conn = Conn(session)
    conn.hello(**hello)
    return ws, conn


def test_a_remote_agent_joins_a_seat_and_plays():
    with server() as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        host, agent = Conn(w1), Conn(w2)
        host.hello()
        agent.hello(client="test-agent")
        joined, state = host.create("kalah(pits=3,seeds=2)", ["human", "remote"])
        gid = joined["game_id"]
        assert state["players"][1] == {
            "player": 1,
            "name": "North",
            "spec": "remote",
            "title": "remote",
            "kind": "remote",
            "connected": False,
            "person": None,
            "held": None,
        }
        assert "Waiting for the remote player" in state["status"] and state["waiting"]
        assert state["legal"] == []
        assert host.ask("move", move="1")["code"] == "refused"  # not before the opponent is here
        games = agent.ask("list", "games")["games"]
        assert {
            "game_id": gid,
            "game": "kalah(pits=3,seeds=2)",
            "players": ["human", "remote"],
            "seats_free": [1],
            "moves": 0,
            "finished": False,
        } in games
        assert agent.ask("join", "joined", game_id=gid, seat=0)["code"] == "seat_taken"
        mine = agent.ask("join", "joined", game_id=gid)
        assert mine["seats"] == [1] and mine["resume"] and mine["role"] == "player"
        seen = host.settle(lambda s: s["players"][1]["connected"])
        assert seen["players"][1]["client"] == "test-agent"
        assert agent.ask("move", move="1")["code"] == "not_your_turn"
        host.ask("move", move="1")  # 2 seeds: pits 2, 3; North to move
        turn = agent.settle(lambda s: s["to_move"] == 1)
        assert not turn["waiting"]
        assert [m["move"] for m in turn["legal"]] == ["1", "2", "3"]
        agent.ask("move", move="3")
        back = host.settle(lambda s: s["ply"] == 2)
        assert (
            back["history"][1]
            == {"ply": 2, "player": 1, "name": "North", "move": "3", "text": "North plays 3: extra turn."}
            or back["history"][1]["move"] == "3"
        )
        assert host.ask("undo")["code"] == "refused"  # a match: no take-backs
        assert host.ask("hint", "hint")["code"] == "refused"
        with c.websocket_connect("/ws") as w3:
            third = Conn(w3)
            third.hello()
            assert third.ask("join", "joined", game_id=gid)["code"] == "seat_taken"
            watching = third.ask("watch", "joined", game_id=gid)
            assert watching["seats"] == [] and watching["role"] == "watcher"


def test_reconnect_within_the_grace_period_resumes_the_seat():
    with server(grace=30) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"])
        ws, agent = connect(c)
        token = agent.ask("join", "joined", game_id=joined["game_id"])["resume"]
        host.ask("move", move="4")
        ws.__exit__(None, None, None)  # the agent's connection drops
        gone = host.settle(lambda s: not s["players"][1]["connected"])
        assert gone["result"] is None and "disconnected" in gone["status"]
        ws2, again = connect(c)
        assert again.ask("join", "joined", game_id=joined["game_id"], resume="wrong")["code"] == "seat_taken"
        back = again.ask("join", "joined", game_id=joined["game_id"], resume=token)
        assert back["seats"] == [1]
        turn = again.wait("state", until=lambda s: s["to_move"] == 1 and s["legal"])
        assert turn["board"]["cells"][4] == "X"
        again.ask("move", move="0")
        assert host.settle(lambda s: s["ply"] == 2)["players"][1]["connected"]
        ws2.__exit__(None, None, None)


def test_a_player_who_does_not_come_back_forfeits(tmp_path):
    with server(grace=0.2, results=tmp_path) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"])
        ws, agent = connect(c)
        agent.ask("join", "joined", game_id=joined["game_id"])
        host.ask("move", move="4")
        ws.__exit__(None, None, None)
        end = host.settle(lambda s: s["result"] is not None)
        assert end["result"]["reason"] == "disconnect" and end["result"]["winner"] == 0
        files = list(tmp_path.glob("*.json"))
        written = [f for f in files if f.name != "journal.json"]
        assert len(written) == 1
        data = json.loads(written[0].read_text())
        assert data["result"]["reason"] == "disconnect" and data["moves"] == ["4"]


def test_forfeit_on_time_and_the_result_file(tmp_path):
    with server(results=tmp_path) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("kalah(pits=3,seeds=2)", ["human", "remote"], clock={"move": 0.3, "game": 60})
        ws, agent = connect(c, client="sleepy")
        agent.ask("join", "joined", game_id=joined["game_id"])
        state = host.ask("move", move="1")
        assert state["clock"]["move"] == 0.3 and state["clock"]["running"] == 1
        end = host.settle(lambda s: s["result"] is not None)
        assert end["result"]["reason"] == "time" and end["result"]["winner"] == 0
        assert "ran out of time (0.3 s per move)" in end["result"]["text"]
        [path] = [f for f in tmp_path.glob("*.json") if f.name != "journal.json"]
        data = json.loads(path.read_text())
        assert data["server"]["seats"][1] == {"spec": "remote", "kind": "remote", "client": "sleepy", "name": None}
        assert data["server"]["clock"]["move"] == 0.3
        record = load_record(path)  # the CLI reads a result file like a saved game
        assert [str(m) for m in record.moves] == ["1"] and record.players == ["human", "human"]
        ws.__exit__(None, None, None)
    journal = json.loads((tmp_path / "journal.json").read_text())
    assert journal["games"] == []


def test_games_in_progress_are_listed_as_interrupted_after_a_restart(tmp_path):
    with server(results=tmp_path) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"])
        ws, agent = connect(c)
        agent.ask("join", "joined", game_id=joined["game_id"])
        host.ask("move", move="4")
        ws.__exit__(None, None, None)
    journal = json.loads((tmp_path / "journal.json").read_text())  # flushed when the server stopped
    assert [g["game_id"] for g in journal["games"]] == [joined["game_id"]]
    assert journal["games"][0]["moves"] == ["4"]
    # the server stopped with the game running; the next start lists it
    with server(results=tmp_path) as c, c.websocket_connect("/ws") as w:
        conn = Conn(w)
        conn.hello()
        listing = conn.ask("list", "games")
        [entry] = listing["interrupted"]
        assert entry["game_id"] == joined["game_id"] and entry["moves"] == 1
        saved = json.loads((tmp_path / entry["file"]).read_text())
        assert saved["result"]["reason"] == "interrupted" and saved["moves"] == ["4"]
        assert c.get("/api/results").json()["interrupted"] == listing["interrupted"]


def test_the_token_is_required_when_set():
    with server(token="s3cret") as c:
        with c.websocket_connect("/ws") as ws:
            conn = Conn(ws)
            err = conn.ask("hello", "welcome", token="guess")
            assert err["code"] == "bad_token"
            with pytest.raises((ConnectionError, WebSocketDisconnect)):
                conn.recv(timeout=10)
        with c.websocket_connect("/ws") as ws:
            assert Conn(ws).hello(token="s3cret")["type"] == "welcome"
        assert c.get("/api/results").status_code == 401


def test_serving_off_loopback_needs_a_token(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MANCALA_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--results", str(tmp_path)]) == 2
    assert "token" in capsys.readouterr().err
    assert main(["web", "--host", "192.168.1.7", "--no-browser"]) == 2
    assert main(["web", "--port", "70000", "--no-browser"]) == 2
    assert "--port must be 0-65535" in capsys.readouterr().err


def test_mancala_serve_plays_over_a_real_socket_and_stops_cleanly_on_ctrl_c(tmp_path):
    websockets = pytest.importorskip("websockets.sync.client")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mancala", "serve", "--port", "0", "--results", str(tmp_path), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("mancala server at http://127.0.0.1:"), line
        url = line.split()[3].replace("http://", "ws://") + "ws"
        with websockets.connect(url, open_timeout=30) as ws:
            ws.send(json.dumps({"v": 1, "type": "hello"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
            ws.send(json.dumps({"v": 1, "type": "create", "game": "tictactoe", "players": ["human", "greedy"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "joined"
            assert json.loads(ws.recv(timeout=30))["to_move"] == 0
            ws.send(json.dumps({"v": 1, "type": "move", "move": "4"}))
            while True:
                state = json.loads(ws.recv(timeout=60))
                if state["type"] == "state" and state["ply"] == 2:
                    break
            assert state["board"]["cells"].count("O") == 1
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "Server stopped." in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_a_slow_reader_is_disconnected_and_the_server_goes_on():
    with server(max_queue=1) as c:
        with c.websocket_connect("/ws") as ws:
            conn = Conn(ws)
            conn.hello()
            conn.send("create", game="tictactoe", players=["human", "human"])  # joined + state: 2 queued
            with pytest.raises((ConnectionError, WebSocketDisconnect)) as closed:
                for _ in range(3):
                    conn.recv(timeout=10)
            assert "4408" in str(closed.value) or getattr(closed.value, "code", None) == 4408
        with c.websocket_connect("/ws") as ws:
            assert Conn(ws).hello()["type"] == "welcome"


def test_a_match_nobody_joined_is_dropped_without_a_result(tmp_path):
    with server(results=tmp_path, idle_grace=0.0) as c, c.websocket_connect("/ws") as w1:
        host = Conn(w1)
        host.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"])
        assert host.ask("leave", "left")["type"] == "left"
        assert joined["game_id"] not in {g["game_id"] for g in host.ask("list", "games")["games"]}
        assert [f.name for f in tmp_path.glob("*.json")] == ["journal.json"]
    assert json.loads((tmp_path / "journal.json").read_text())["games"] == []


def test_an_ai_thinking_does_not_hold_up_other_games():
    with server(workers=1) as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        slow, quick = Conn(w1), Conn(w2)
        slow.hello()
        quick.hello()
        _, state = slow.create("kalah", ["alphabeta:depth=12", "alphabeta:depth=12"], move_delay=0)
        assert state["thinking"]["spec"] == "alphabeta:depth=12"
        quick.create("tictactoe", ["human", "human"])
        for cell in (0, 4, 8, 2, 6, 3, 5, 7, 1):
            state = quick.ask("move", move=str(cell))
        assert state["result"]["text"] == "Draw."
        # all the while the other game's AI was still on its first move
        assert slow.ask("ping", "pong")["type"] == "pong"
        assert not [m for m in slow.seen if m["type"] == "state" and m["ply"] > 0]


def test_a_match_cannot_be_swapped_for_a_loaded_game():
    with server() as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        host, agent = Conn(w1), Conn(w2)
        host.hello()
        agent.hello()
        joined, _ = host.create("tictactoe", ["human", "remote"])
        agent.ask("join", "joined", game_id=joined["game_id"])
        record = {
            "format": "mancala-game",
            "version": 1,
            "game": "tictactoe",
            "players": ["human", "human"],
            "moves": [],
        }
        assert host.ask("load", record=record)["code"] == "refused"
        assert host.ask("new")["code"] == "refused"
        assert host.ask("review", "review")["code"] == "refused"
        assert host.ask("resign")["result"]["reason"] == "resign"
        assert host.ask("review", "review")["code"] == "refused"  # no move played yet
        assert host.ask("load", record=record)["type"] == "state"


def test_serve_options(tmp_path, monkeypatch):
    from mancala.cli.main import build_parser
    from mancala.server.command import serve_config

    monkeypatch.setenv("MANCALA_TOKEN", "from-env")
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--results", str(tmp_path / "r")])
    config = serve_config(args)
    assert config.token == "from-env" and config.clock == {"move": 120.0} and (tmp_path / "r").is_dir()
    args = build_parser().parse_args(
        ["serve", "--results", str(tmp_path), "--move-time", "0", "--game-time", "300", "--token", "t"]
    )
    config = serve_config(args)
    assert config.clock == {"game": 300.0} and config.token == "t"


def test_a_taken_port_is_reported_and_the_default_port_moves_on():
    import socket

    from mancala.errors import BadInput
    from mancala.server.command import DEFAULT_PORT, bind

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(BadInput, match="choose another --port"):
            bind("127.0.0.1", taken.getsockname()[1])
        sock = bind("127.0.0.1", None)
        assert DEFAULT_PORT <= sock.getsockname()[1] < DEFAULT_PORT + 20
        sock.close()
    finally:
        taken.close()


def test_undo_while_the_ai_thinks_abandons_its_search():
    with server(workers=1) as c, c.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello()
        conn.create("kalah", ["human", "alphabeta:depth=12"])
        thinking = conn.ask("move", move="1")
        assert thinking["thinking"]["player"] == 1
        pool = c.app.state.hub.pool
        [busy] = [w.process.pid for w in pool.workers if w.future is not None]
        back = conn.ask("undo")
        assert back["ply"] == 0 and back["thinking"] is None and back["to_move"] == 0 and back["can_redo"]
        for _ in range(600):  # the abandoned search is ended within a second or so
            conn.ask("ping", "pong")
            if busy not in [w.process.pid for w in pool.workers]:
                break
            time.sleep(0.05)
        assert busy not in [w.process.pid for w in pool.workers] and len(pool.workers) == 1
        assert pool.busy() == 0  # a fresh worker took its place
        again = conn.ask("move", move="2")
        assert again["history"] == [{"ply": 1, "player": 0, "name": "South", "move": "2", "text": "South plays 2."}]


def test_the_game_clock_runs_out_for_an_ai_too():
    with server() as c, c.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello()
        _, state = conn.create("kalah", ["human", "alphabeta:depth=12"], clock={"game": 0.3})
        assert state["clock"]["remaining"] == [0.3, 0.3] and state["clock"]["running"] == 0
        conn.ask("move", move="1")
        end = conn.settle(lambda s: s["result"] is not None)
        assert end["result"]["reason"] == "time" and end["result"]["winner"] == 0
        assert "North (Alpha-beta AI, depth 12) ran out of time (0.3 s per game)" in end["result"]["text"]
        assert end["clock"]["remaining"][1] == 0


def test_a_worker_that_dies_costs_only_its_own_game():
    with server(workers=2) as c, c.websocket_connect("/ws") as w1, c.websocket_connect("/ws") as w2:
        doomed, other = Conn(w1), Conn(w2)
        doomed.hello()
        other.hello()
        doomed.create("kalah", ["human", "alphabeta:depth=12"])
        doomed.ask("move", move="1")
        pool = c.app.state.hub.pool
        [pid] = [w.process.pid for w in pool.workers if w.future is not None]
        os.kill(pid, signal.SIGKILL)
        err = doomed.wait("error")
        assert err["code"] == "internal" and "worker process stopped" in err["message"]
        paused = doomed.settle(lambda s: s["paused"])
        assert paused["ply"] == 1
        again = doomed.ask("resume")
        assert not again["paused"] and again["thinking"]["player"] == 1
        other.create("tictactoe", ["human", "greedy"])
        other.ask("move", move="4")
        assert other.settle(lambda s: s["ply"] == 2)["board"]["cells"].count("O") == 1


def test_the_creator_of_an_ai_game_resumes_it_after_a_reload():
    with server(idle_grace=30) as c:
        ws, first = connect(c)
        joined, _ = first.create("tictactoe", ["random:seed=1", "random:seed=2"], move_delay=0.2)
        assert joined["seats"] == [] and joined["role"] == "player" and joined["resume"]
        ws.__exit__(None, None, None)  # the page reloads
        ws2, again = connect(c)
        back = again.ask("join", "joined", game_id=joined["game_id"], resume=joined["resume"])
        assert back["seats"] == [] and back["role"] == "player" and back["resume"] == joined["resume"]
        assert again.settle(lambda s: s["result"] is not None)["to_move"] is None
        ws2.__exit__(None, None, None)
