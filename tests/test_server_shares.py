"""Fair shares on the server (issue 33): one connection that floods the server with studies
does not delay another person's AI reply (a worker is kept for replies), is refused past its bound of waiting
requests, and its queued work is dropped when it leaves."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.analysis import Table
from mancala.server.app import create_app, shared_answers
from mancala.server.config import ServerConfig

pytestmark = pytest.mark.processes

#: the longest a held study waits for its gate, and the test for the server to settle: hang
#: guards, not speed assertions
HOLD_LIMIT = 300.0


def held(gate: str) -> int:
    """A study that ends when the test opens its gate (a file), not after a nap."""
    deadline = time.monotonic() + HOLD_LIMIT
    while not os.path.exists(gate):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the gate {gate} was never opened")
        time.sleep(0.01)
    return os.getpid()


def _settle(check) -> None:
    deadline = time.monotonic() + HOLD_LIMIT
    while not check():
        assert time.monotonic() < deadline, "the server never settled"
        time.sleep(0.01)


def test_a_flood_does_not_delay_a_person_s_reply_is_bounded_and_dropped_when_it_leaves(tmp_path: Path):
    config = ServerConfig(hosts=TEST_HOSTS, warm=False, workers=2, idle_grace=0.0)
    app = create_app(config)
    hub = app.state.hub
    gates = [tmp_path / f"gate{i}" for i in range(config.max_requests)]
    with TestClient(app) as client:
        answers = shared_answers(hub)
        studies: list[int] = []

        async def flood_run(fn, *args, **where):
            """Every study of the flood is a task held in a worker until its gate opens."""
            gate = gates[len(studies)]
            studies.append(len(studies))
            await hub.run(held, str(gate), **where)
            return Table(({"move": "1", "value": 0, "exact": False, "depth": 1},), ("1",), 1)

        answers.run = flood_run
        with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
            flooder, person = Conn(ws1), Conn(ws2)
            flooder.hello(client="flooder")
            person.hello(client="person")
            flooder.create("kalah", ["human", "human"])
            for ply in range(config.max_requests):
                flooder.send("analyse", ply=0, seconds=0.05 + ply / 100)  # all different: no sharing
            refused = flooder.ask("analyse", "analysis", ply=0, seconds=9)
            assert refused["type"] == "error" and refused["code"] == "limit"
            assert f"{config.max_requests} requests waiting" in refused["message"]
            # one study runs, held; the rest wait: studies never take the last free worker
            _settle(lambda: hub.pool is not None and hub.pool.busy() == 1 and len(hub.pool.shares) == 7)

            person.create("kalah", ["human", "greedy"])
            person.ask("move", move="1")
            reply = person.settle(lambda s: s["to_move"] == 0 and bool(s["legal"]) or s["result"] is not None)
            assert reply["ply"] >= 2  # the AI has replied, every study still held
            assert hub.pool.busy() == 1 and len(hub.pool.shares) == 7
            ws1.close()
            # the flooder has left: its queued studies are dropped, the one under way abandoned
            _settle(lambda: len(hub.pool.shares) == 0)
        for gate in gates:
            gate.touch()


#: issue 33's attack: Bao with 1000 seeds in every hole (its moves sow for ever)
HUGE_BAO = "/".join(["-".join(["1000"] * 8)] * 4) + "/0-0/S/-"


def test_a_tree_past_the_worker_memory_bound_is_answered_with_a_limit_and_the_worker_replaced():
    config = ServerConfig(hosts=TEST_HOSTS, warm=False, workers=2, idle_grace=0.0, worker_memory_mb=300)
    app = create_app(config)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello(client="attack")
        conn.create("bao", ["human", "human"], position=HUGE_BAO)
        answer = conn.ask("tree", "tree", depth=3)
        assert answer["type"] == "error" and answer["code"] == "limit", answer
        assert "more than 300 MB of memory" in answer["message"] and "ask for less" in answer["message"]
        conn.create("kalah", ["human", "human"])
        assert conn.ask("tree", "tree", depth=2)["type"] == "tree"  # the server goes on


class FakeClock:
    """Seconds that pass when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_games_started_by_one_client_are_limited_per_minute_on_a_fake_clock():
    config = ServerConfig(hosts=TEST_HOSTS, warm=False, workers=1, idle_grace=0.0, games_per_minute=3)
    app = create_app(config)
    clock = FakeClock()
    app.state.hub.games_rate.clock = clock
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        assert conn.hello(client="attack")["limits"]["games_per_minute"] == 3
        for _ in range(3):  # create, resign, again: issue 33's attack, 538 games in 30 s
            conn.create("kalah", ["human", "human"])
            conn.ask("resign")
        clock.now += 30
        refused = conn.ask("create", "joined", game="kalah", players=["human", "human"])
        assert refused["type"] == "error" and refused["code"] == "limit"
        assert refused["message"] == "you started 3 games in the last minute, the limit per client; try again in 30 s"
        assert conn.ask("new", "joined")["code"] == "limit"  # "play again" starts a game too
        clock.now += 30  # the first game is a minute old: one more may start
        assert conn.ask("create", "joined", game="kalah", players=["human", "human"])["type"] == "joined"


def test_mancala_web_and_serve_limit_games_per_minute_by_default(tmp_path):
    from mancala.cli.main import build_parser
    from mancala.errors import BadInput
    from mancala.server.command import GAMES_PER_MINUTE, _config, serve_config

    assert serve_config(build_parser().parse_args(["serve", "--results", str(tmp_path)])).games_per_minute == 60
    assert _config(build_parser().parse_args(["web"]), None, None).games_per_minute == GAMES_PER_MINUTE == 60
    unlimited = build_parser().parse_args(["serve", "--results", str(tmp_path), "--games-per-minute", "0"])
    assert serve_config(unlimited).games_per_minute is None
    with pytest.raises(BadInput, match="--games-per-minute must be 0 \\(no limit\\) or more, got -1"):
        _config(build_parser().parse_args(["web", "--games-per-minute", "-1"]), None, None)
