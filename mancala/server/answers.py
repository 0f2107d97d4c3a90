"""The answers the server shares between every client: each position's table of move values
(the hint, the analysis, the evaluation bar and the review all read it) and each search
tree and explorer answer, computed once in a worker process and given to every equal
request, in any tab of any client.

A table answers any later request of no larger budget (:meth:`Table.serves`), so a hint
after an analysis of the same position names the analysis' best move, and two reviews of
one game read the same tables.  A request equal to one still running waits for it instead
of running twice; the work is cancelled when the last request waiting for it is.  Both
kinds of answer are kept newest last, up to a bound.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Hashable

from mancala.analysis import Table, position_values
from mancala.analysis.values import KeptTables, position_key

#: how many position tables and other answers the server keeps (a table is a few hundred bytes
#: a move; a search tree up to about a megabyte)
MAX_TABLES = 20_000
MAX_ANSWERS = 64

#: runs ``fn(*args)`` in a worker and awaits its result (the hub's ``run``)
Runner = Callable[..., Awaitable[Any]]


class _Shared:
    """One computation several requests wait for: cancelled when the last of them leaves."""

    def __init__(self, task: asyncio.Task, nodes: int) -> None:
        self.task = task
        self.nodes = nodes
        self.waiting = 0

    async def wait(self) -> Any:
        """The computation's result, for one more waiter."""
        self.waiting += 1
        try:
            return await asyncio.shield(self.task)
        finally:
            self.waiting -= 1
            if self.waiting == 0 and not self.task.done():
                self.task.cancel()


class SharedAnswers:
    """The server's shared tables and answers (see the module doc)."""

    def __init__(self, run: Runner) -> None:
        self.run = run
        self.tables = KeptTables(MAX_TABLES)
        self.answers: OrderedDict[Hashable, Any] = OrderedDict()
        self._tables_running: dict[Hashable, _Shared] = {}
        self._answers_running: dict[Hashable, _Shared] = {}

    async def table(self, game: Any, state: Any, nodes: int, **where: Any) -> Table:
        """The position's table for a request of ``nodes`` nodes: a kept one that serves it, a
        running one of at least as many nodes, else one searched in a worker (``where``: the
        hub's ``prefer``/``urgent``)."""
        kept = self.tables.find(game, state, nodes)
        if kept is not None:
            return kept
        key = position_key(game, state)
        running = self._tables_running.get(key)
        if running is None or running.nodes < nodes:
            running = self._start(self._tables_running, key, nodes, self._search(game, state, nodes, where))
        return await running.wait()

    async def _search(self, game: Any, state: Any, nodes: int, where: dict) -> Table:
        return self.tables.keep(game, state, await self.run(position_values, game, state, nodes, **where))

    async def answer(self, key: Hashable, fn: Callable[..., Any], *args: Any, **where: Any) -> Any:
        """``fn(*args)``'s answer (a search tree, the explorer), computed once in a worker for
        every request of the same ``key``."""
        if key in self.answers:
            self.answers.move_to_end(key)
            return self.answers[key]
        running = self._answers_running.get(key)
        if running is None:
            running = self._start(self._answers_running, key, 0, self._compute(key, fn, args, where))
        return await running.wait()

    async def _compute(self, key: Hashable, fn: Callable[..., Any], args: tuple, where: dict) -> Any:
        result = await self.run(fn, *args, **where)
        self.answers[key] = result
        while len(self.answers) > MAX_ANSWERS:
            self.answers.popitem(last=False)
        return result

    @staticmethod
    def _start(running: dict[Hashable, _Shared], key: Hashable, nodes: int, work: Awaitable[Any]) -> _Shared:
        """Run ``work`` as the shared computation of ``key`` (forgotten once it ends)."""
        task: asyncio.Task = asyncio.get_running_loop().create_task(work)  # type: ignore[arg-type]
        shared = _Shared(task, nodes)
        running[key] = shared

        def done(_: asyncio.Task) -> None:
            if running.get(key) is shared:
                del running[key]

        task.add_done_callback(done)
        return shared


__all__ = ["SharedAnswers", "MAX_TABLES", "MAX_ANSWERS"]
