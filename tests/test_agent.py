"""``mancala agent``: our players as remote agents of a real ``mancala serve`` (uvicorn on a
free loopback port): two agents in two processes play a full game, the record lands in the
server's results folder, and an agent whose connection is cut mid-game comes back."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import stop_server

from mancala.errors import BadInput
from mancala.games import make_game
from mancala.record import load_record
from mancala.server.agent import websocket_url

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parent.parent
TOKEN = "s3cret-test-token"
ENV = dict(os.environ, PYTHONPATH=str(REPO), MANCALA_TOKEN="")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real `mancala serve` on a free port with a token; yields (url, results folder)."""
    results = tmp_path_factory.mktemp("results")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mancala",
            "serve",
            "--port",
            "0",
            "--results",
            str(results),
            "--workers",
            "1",
            "--token",
            TOKEN,
            "--grace",
            "30",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("mancala server at http://127.0.0.1:"), line + proc.stderr.read()
        yield line.split()[3], results
    finally:
        stop_server(proc)


def agent(url: str, *options: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mancala", "agent", "--server", url, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )


def created_game_id(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline()
    assert line.startswith("created game "), line + proc.stderr.read()
    return line.split()[2]


def finish(proc: subprocess.Popen, first: str = "") -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=240)
    return proc.returncode, first + out, err


def result_file(results: Path, game_id: str) -> dict:
    files = list(results.glob(f"*-{game_id}.json"))
    assert len(files) == 1, sorted(p.name for p in results.iterdir())
    return json.loads(files[0].read_text())


def test_server_addresses():
    assert websocket_url("127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert websocket_url("http://localhost:8000/") == "ws://localhost:8000/ws"
    assert websocket_url("https://example.org") == "wss://example.org/ws"
    assert websocket_url("ws://h:1/custom") == "ws://h:1/custom"
    with pytest.raises(BadInput):
        websocket_url("ftp://h:1")


def test_two_agents_in_two_processes_play_a_full_game(server):
    url, results = server
    first = agent(url, "--player", "random:seed=1", "--game", "kalah(preset=mankalah)", "--token", TOKEN)
    game_id = created_game_id(first)
    second = agent(url, "--player", "greedy", "--join", game_id, "--token", TOKEN, "--name", "  Deep   Greedy ")
    code1, out1, err1 = finish(first)
    code2, out2, err2 = finish(second)
    assert (code1, err1) == (0, "") and (code2, err2) == (0, "")
    data = result_file(results, game_id)
    assert data["game"] == "kalah(pits=7,seeds=7,pie_rule=true,no_first_extra_turn=true)"
    assert data["result"]["finished"] and data["result"]["reason"] == "rules"
    assert [s["client"] for s in data["server"]["seats"]] == ["mancala agent random:seed=1", "mancala agent greedy"]
    # the second agent gave its seat a name (trimmed as the server trims names)
    assert [s.get("name") for s in data["server"]["seats"]] == [None, "Deep Greedy"]
    assert data["names"] == [None, "Deep Greedy"]
    record = load_record(next(results.glob(f"*-{game_id}.json")))
    final = record.final_state()
    assert final.finished and record.game == make_game("kalah(preset=mankalah)")
    # the agents played the moves their players choose in our own arena
    from mancala.arena.match import play_game
    from mancala.players import make_player

    local = play_game(record.game, [make_player("random:seed=1"), make_player("greedy")])
    assert [str(m) for m in local.moves] == data["moves"]
    winner = data["result"]["winner"]
    assert out1.splitlines()[-1].startswith("we won" if winner == 0 else "we lost")
    assert out2.splitlines()[-1].startswith("we won" if winner == 1 else "we lost")


class CuttingProxy:
    """A TCP relay to the server that cuts its first connection after forwarding
    ``cut_after`` chunks from the server, and relays every later connection whole."""

    def __init__(self, upstream: int, cut_after: int) -> None:
        self.upstream = upstream
        self.cut_after = cut_after
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections = 0
        self.cut = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            upstream = socket.create_connection(("127.0.0.1", self.upstream))
            first = self.connections == 1
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, first), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, cutting: bool) -> None:
        chunks = 0
        try:
            while data := src.recv(65536):
                dst.sendall(data)
                chunks += 1
                if cutting and chunks >= self.cut_after:
                    self.cut.set()
                    break
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.listener.close()


def test_an_agent_cut_off_mid_game_reconnects_and_finishes(server):
    url, results = server
    port = int(url.rsplit(":", 1)[1].strip("/"))
    proxy = CuttingProxy(port, cut_after=12)
    try:
        cut_off = agent(
            f"127.0.0.1:{proxy.port}",
            "--player",
            "alphabeta:depth=2",
            "--token",
            TOKEN,
            "--game",
            "kalah(pits=6,seeds=4)",
        )
        game_id = created_game_id(cut_off)
        other = agent(url, "--player", "random:seed=7", "--join", game_id, "--token", TOKEN)
        code1, out1, err1 = finish(cut_off)
        code2, out2, err2 = finish(other)
    finally:
        proxy.close()
    assert proxy.cut.is_set() and proxy.connections >= 2
    assert (code1, err1) == (0, "") and (code2, err2) == (0, "")
    assert "connection lost" in out1 and f"reconnected to game {game_id}" in out1
    data = result_file(results, game_id)
    assert data["result"]["reason"] == "rules" and data["result"]["finished"]
    assert load_record(next(results.glob(f"*-{game_id}.json"))).final_state().finished


def test_agent_errors_are_one_line(server):
    url, _ = server
    code, out, err = finish(agent(url, "--player", "greedy", "--token", "wrong"))
    assert code == 2 and err.count("\n") == 1 and "bad_token" in err
    code, out, err = finish(agent(url, "--player", "greedy", "--token", TOKEN, "--join", "nosuchgame"))
    assert code == 2 and err.count("\n") == 1 and "no game 'nosuchgame'" in err
    with socket.create_server(("127.0.0.1", 0)) as s:
        closed = s.getsockname()[1]
    code, out, err = finish(agent(f"127.0.0.1:{closed}", "--player", "greedy"))
    assert code == 2 and err.count("\n") == 1 and "cannot connect" in err
    code, out, err = finish(agent(url, "--player", "human"))
    assert code == 2 and "not human" in err
    code, out, err = finish(agent(url, "--player", "greedy", "--name", "x" * 41))
    assert code == 2 and err.count("\n") == 1 and "--name must be 1-40 printable characters" in err
