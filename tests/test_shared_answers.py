"""The server shares its analysis answers between every client (issue 28, item 2): equal
requests run one search, a table answers any request of no larger budget, the work stops
when the last request waiting for it is cancelled; on a real server two tabs see the same
table, a hint names the analysis' best move, and two reviews of one game agree."""

from __future__ import annotations

import asyncio

import pytest
from server_helpers import TEST_HOSTS, Conn
from starlette.testclient import TestClient

from mancala.analysis import Table, budget
from mancala.games import make_game
from mancala.server.answers import SharedAnswers
from mancala.server.app import create_app, shared_answers
from mancala.server.config import ServerConfig


class FakeWorkers:
    """Stands for the hub's ``run``: each call is counted and answers once the test opens
    its gate (an event), with a table of as many nodes as asked."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.gate = asyncio.Event()
        self.cancelled = 0

    async def run(self, fn, *args, **where):
        self.calls.append((fn.__name__, *args[2:]))
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        nodes = args[2]
        return Table(({"move": "1", "value": nodes, "exact": False, "depth": 3},), ("1",), nodes)


def _answers_and_position():
    """Fake workers, the shared answers over them, and a small Kalah game's start."""
    workers = FakeWorkers()
    game = make_game("kalah(pits=3,seeds=2)")
    return workers, SharedAnswers(workers.run), game, game.initial_state()


def test_equal_requests_share_one_search_and_a_larger_table_serves_a_smaller_one():
    async def scenario():
        workers, answers, game, state = _answers_and_position()
        first = asyncio.ensure_future(answers.table(game, state, 1000))
        second = asyncio.ensure_future(answers.table(game, state, 1000))
        smaller = asyncio.ensure_future(answers.table(game, state, 500))
        await asyncio.sleep(0)
        workers.gate.set()
        tables = await asyncio.gather(first, second, smaller)
        assert len(workers.calls) == 1  # one search for the three requests
        assert tables[0] is tables[1] is tables[2]
        assert await answers.table(game, state, 800) is tables[0]  # kept: no new search
        bigger = await answers.table(game, state, 5000)  # more than kept: searched again
        assert len(workers.calls) == 2 and bigger.nodes == 5000
        assert await answers.table(game, state, 1000) is bigger  # the larger one serves from now on

    asyncio.run(scenario())


def test_the_search_stops_when_the_last_request_waiting_for_it_is_cancelled():
    async def scenario():
        workers, answers, game, state = _answers_and_position()
        one = asyncio.ensure_future(answers.table(game, state, 1000))
        two = asyncio.ensure_future(answers.table(game, state, 1000))
        await asyncio.sleep(0)
        one.cancel()
        await asyncio.sleep(0)
        assert workers.cancelled == 0  # another request still waits for it
        two.cancel()
        for _ in range(3):
            await asyncio.sleep(0)
        assert workers.cancelled == 1
        workers.gate.set()
        again = await answers.table(game, state, 1000)  # a later request searches afresh
        assert again.nodes == 1000 and len(workers.calls) == 2

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def server():
    app = create_app(ServerConfig(hosts=TEST_HOSTS, warm=False, workers=2, idle_grace=0.0))
    with TestClient(app) as client:
        yield app, client


def _connect(client):
    ws = client.websocket_connect("/ws")
    conn = Conn(ws.__enter__())
    conn.hello(client="pytest")
    return ws, conn


def _play(conn, spec: str, moves: list[str]) -> None:
    conn.create(spec, ["human", "human"])
    for move in moves:
        conn.ask("move", move=move)


@pytest.mark.processes
def test_two_tabs_see_one_table_and_the_hint_and_the_reviews_agree_with_it(server):
    app, client = server
    spec, moves = "oware", ["C", "a", "E", "a", "A", "d", "F", "a"]  # issue 28's two tabs
    (ws1, one), (ws2, two) = _connect(client), _connect(client)
    try:
        _play(one, spec, moves)
        _play(two, spec, moves)
        answers = shared_answers(app.state.hub)
        searches = []
        run = answers.run

        async def counted(fn, *args, **where):
            searches.append(fn.__name__)
            return await run(fn, *args, **where)

        answers.run = counted
        first = one.ask("analyse", "analysis")  # the default budget: the hint's too
        second = two.ask("analyse", "analysis")
        assert first["moves"] == second["moves"] and first["line"] == second["line"]
        assert searches == ["position_values"]  # the second tab's table was the first's
        for row in first["moves"]:
            assert row["exact"] or row["depth"] >= 1  # every estimate names its depth
        hint = two.ask("hint", "hint")
        assert (hint["move"], hint["value"], hint["exact"]) == tuple(
            first["moves"][0][k] for k in ("move", "value", "exact")
        )
        reviews = [one.ask("review", "review", seconds=0.05) for _ in range(2)]
        assert reviews[0]["moves"] == reviews[1]["moves"]  # the same values and classes
        last = reviews[0]["moves"][-1]
        assert last["move"] == moves[-1] and last["class"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert searches.count("position_values") == 1 + len(
            moves
        )  # the hint read the table; the second review, the first's
        game = make_game(spec)
        assert first["nodes"] == budget(game, 2.0)
    finally:
        ws1.__exit__(None, None, None)
        ws2.__exit__(None, None, None)
