"""The server's engine warm-up: each engine compiled into numba's disk cache by a background
process (:func:`mancala.engine.readiness.start_compile`), one at a time, in the order the
engines registered, except that a game a person has just chosen goes first (issue 32, item
1): its compile starts next, and a compile under way for a game nobody plays is stopped for it
(numba keeps what it compiled so far; it is taken up again after)."""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from mancala.engine import readiness
from mancala.engine.support import EngineSupport, engine_support


class WarmUp:
    """The compiles still to do, the next first, and the one under way.

    ``start(record)`` starts a compile (False: one already runs or it is ready),
    ``on_ready(game)`` hears of each engine compiled,
    ``ready(record)`` says whether the engine is compiled, ``running(record)`` whether its
    compile runs, ``stop(record)`` stops it; they default to
    :mod:`mancala.engine.readiness`'s (tests give fakes)."""

    def __init__(
        self,
        games: list[str],
        *,
        start: Callable[[EngineSupport], bool] = readiness.start_compile,
        ready: Callable[[EngineSupport], bool] = readiness.engine_ready,
        running: Callable[[EngineSupport], bool] = lambda r: readiness.compiling_since(r) is not None,
        stop: Callable[[EngineSupport], None] = lambda r: readiness.stop_compile(r.game),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_ready: Callable[[str], None] = lambda game: None,
    ) -> None:
        self.queue = list(games)
        self.start, self.ready, self.running, self.stop, self.sleep = start, ready, running, stop, sleep
        self.on_ready = on_ready
        #: the game whose compile runs now (None: none)
        self.current: str | None = None
        #: the games people have chosen (their compiles are never stopped for another)
        self.wanted: set[str] = set()
        #: the games compiled by this warm-up, in order (what the tests read)
        self.started: list[str] = []
        #: the games whose compile was stopped for a chosen one (taken up again after it)
        self.stopped: set[str] = set()

    def first(self, game: str) -> None:
        """A person chose ``game``: compile its engine next, stopping a compile under way for a
        game nobody chose."""
        record = engine_support(game)
        if record is None or self.ready(record):
            return
        self.wanted.add(game)
        if game == self.current:
            return
        if game in self.queue:
            self.queue.remove(game)
        self.queue.insert(0, game)
        if self.current is not None and self.current not in self.wanted and self.current not in self.stopped:
            current = engine_support(self.current)
            if current is not None:
                self.stopped.add(self.current)
                self.stop(current)

    async def run(self) -> None:
        """Compile the engines in the queue's order until every one is ready."""
        while self.queue:
            game = self.queue.pop(0)
            record = engine_support(game)
            if record is None or record.warm_up is None or self.ready(record):
                continue
            self.current = game
            self.started.append(game)
            self.start(record)
            while self.running(record) and not self.ready(record):
                await self.sleep(0.5)
            self.current = None
            if self.ready(record):
                self.on_ready(game)
            if game in self.stopped:  # stopped for a game a person chose: taken up again after it
                self.stopped.discard(game)
                self.queue.insert(1, game)
