"""Fair clocks (issue 33): no AI loses on time because its engine is compiling.  An AI of the
compiled engine's clock waits while the server warms the engine up, and its move's time does
not count what its worker reports as the engine's preparation (compiling, loading); its flag
waits for that move.  Everything here runs on a fake clock (no test reads the wall clock)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import mancala.analysis.moves as moves
from mancala.games import make_game
from mancala.server.clock import Clock
from mancala.server.config import ServerConfig
from mancala.server.journal import Journal
from mancala.server.session import ENGINE_PATIENCE, Client, GameSession

GAME = "kalah(pits=3,seeds=2)"


class FakeTime:
    """The clocks' time and timers, moved on by the test."""

    def __init__(self) -> None:
        self.t = 0.0
        self.timers: list[list[Any]] = []  # [due, order, fn, args, live]

    def now(self) -> float:
        return self.t

    def later(self, delay: float, fn, *args):
        timer = [self.t + delay, len(self.timers), fn, args, True]
        self.timers.append(timer)

        class Handle:
            def cancel(self) -> None:
                timer[4] = False

        return Handle()

    def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, calling the timers due on the way, in order."""
        end = self.t + seconds
        while True:
            due = sorted((t for t in self.timers if t[4] and t[0] <= end), key=lambda t: (t[0], t[1]))
            if not due:
                break
            timer = due[0]
            timer[4] = False
            self.t = timer[0]
            timer[2](*timer[3])
        self.t = end


@pytest.fixture
def fake(monkeypatch) -> FakeTime:
    clock = FakeTime()
    monkeypatch.setattr(Clock, "now", staticmethod(clock.now))
    monkeypatch.setattr(Clock, "later", lambda self, delay, fn, *args: clock.later(delay, fn, *args))
    return clock


class FakeHost:
    """The server as a game sees it; an AI's move is a future the test answers."""

    config = ServerConfig(warm=False)

    def __init__(self) -> None:
        self.journal = Journal(None, lambda: [])
        self.sessions: dict[str, GameSession] = {}
        self.engine_ready = True
        self.asked: list[asyncio.Future] = []

    def new_id(self) -> str:
        return "g1"

    def preparing_what(self) -> str:
        return "compiling it for this machine (first run only)"

    def engine_detail(self, game) -> dict | None:
        return None

    def expectation(self, seat) -> dict:
        return {"doing": "searching", "estimate": seat.budget}

    def want_table(self, game) -> None:  # (Kalah's strongest reads a database built in the background)
        self.wanted = game

    def broadcast(self, session, request_from=None, request_id=None) -> None:
        pass

    def run(self, fn, *args, affinity=None, urgent=True, **shares):
        assert fn is moves.think_prepared and args[0] is True  # the AI's engine is made ready first
        self.asked.append(asyncio.get_running_loop().create_future())
        return self.asked[-1]

    def free(self, session) -> None:
        pass


async def settle() -> None:
    """Let the AI's task take its answer."""
    for _ in range(5):
        await asyncio.sleep(0)


def start_game(host: FakeHost) -> GameSession:
    """The engine's best player (South, to move) against a person, 3 s a move."""
    session = GameSession(host, make_game(GAME), ["best:time=1", "human"], creator=None, clock={"move": 3})
    assert session.seats[0].engine
    session.attach(Client(host, "127.0.0.1", lambda m: None, lambda c, r: None), [1])
    session.start_clock()
    return session


def first_move(session: GameSession):
    return session.game.legal_moves(session.state)[0]


def test_an_ai_whose_first_move_compiles_the_engine_does_not_lose_on_time(fake):
    async def scenario() -> None:
        host = FakeHost()
        session = start_game(host)
        await settle()  # the AI asks a worker for its move
        assert session.clock.running == 0 and len(host.asked) == 1
        fake.advance(3.5)  # its 3 s are up while the engine compiles: the flag waits for the move
        assert not session.over() and session.clock.overdue
        fake.advance(88.5)  # 92 s in all, 90 of them compiling, as the worker reports
        host.asked[0].set_result((first_move(session), None, 90.0))
        await settle()
        assert len(session.record.moves) == 1 and not session.over()
        assert session.clock.running == 1 and not session.clock.overdue  # the person's turn, 3 s

    asyncio.run(scenario())


def test_an_ai_too_slow_without_compiling_still_loses_on_time(fake):
    async def scenario() -> None:
        host = FakeHost()
        session = start_game(host)
        await settle()  # the AI asks a worker for its move
        fake.advance(5.0)
        host.asked[0].set_result((first_move(session), None, 0.5))  # 4.5 s of thinking
        await settle()
        assert session.record.moves == [] and session.result()["reason"] == "time"
        assert "ran out of time (3 s per move)" in session.result()["text"]

    asyncio.run(scenario())


def test_an_ai_that_never_answers_loses_once_the_patience_is_over(fake):
    async def scenario() -> None:
        host = FakeHost()
        session = start_game(host)
        await settle()  # the AI asks a worker for its move
        fake.advance(3.0 + ENGINE_PATIENCE - 1)
        assert not session.over()
        fake.advance(1.0)
        assert session.result()["reason"] == "time"

    asyncio.run(scenario())


def test_the_ai_clock_waits_while_the_server_warms_the_engine_up(fake):
    async def scenario() -> None:
        host = FakeHost()
        host.engine_ready = False  # the server's warm-up compiles the engine
        session = start_game(host)
        await settle()  # the AI asks a worker for its move
        assert session.clock.running is None
        fake.advance(100.0)
        assert not session.over()
        host.engine_ready = True  # what Hub._warm does once it is ready
        session.start_clock()
        assert session.clock.running == 0
        fake.advance(2.0)
        host.asked[0].set_result((first_move(session), None, 0.0))
        await settle()
        assert len(session.record.moves) == 1 and not session.over()

    asyncio.run(scenario())


def test_the_game_clock_is_charged_the_thinking_only(fake):
    clock = Clock(None, 10.0)
    clock.start(0, lambda player, why: None, patience=60)
    fake.advance(12.0)  # past the game clock, 9 s of it preparing the engine
    assert clock.charge(0, excluded=9.0) is None and clock.remaining[0] == pytest.approx(7.0)
    clock.start(0, lambda player, why: None, patience=60)
    fake.advance(8.0)
    assert clock.charge(0) == "ran out of time (10 s per game)" and clock.remaining[0] == 0


def test_the_worker_reports_the_engine_preparation(monkeypatch):
    prepared = iter([90.0, 0.001])
    monkeypatch.setattr(moves, "ready_engine", lambda game: next(prepared))
    state = make_game(GAME).initial_state()
    move, memory, first = moves.think_prepared(True, GAME, state, "random:seed=1", None, "g/0")
    assert first == 90.0 and move in make_game(GAME).legal_moves(state)
    assert moves.think_prepared(True, GAME, state, "random:seed=1", memory, "g/0")[2] == 0.001
    assert moves.think_prepared(False, GAME, state, "random:seed=1", memory, "g/0")[2] == 0.0
