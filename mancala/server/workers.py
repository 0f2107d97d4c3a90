"""Worker processes for the server's CPU work (AI moves, hints, analysis, trees), driven
from the event loop, shared fairly between the clients that ask for it.

Why not ``concurrent.futures.ProcessPoolExecutor``: a search whose answer nobody wants any
more (the player undid the move, the tab closed) must stop, and a worker that dies (killed,
out of memory) must cost only its own task.  Here each worker is one process with one pipe;
a cancelled task still running after a second ends its worker, which a fresh one replaces,
and a dead worker fails only the task it was running.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from typing import Any, Callable, Hashable, Iterator

from mancala.errors import MancalaError

log = logging.getLogger("mancala.server")

#: seconds an abandoned task may still run (a quick one ends by itself and its worker, engine
#: loaded, stays) before its worker is ended and replaced
ABANDON_GRACE = 1.0


#: the most worker processes the server starts by default (each may hold an engine of
#: 512 MB, the server's worker memory bound: eight keep the whole server within about 4 GB)
MAX_DEFAULT_WORKERS = 8


def default_workers() -> int:
    """One worker process a core (at most :data:`MAX_DEFAULT_WORKERS`)."""
    return max(1, min(MAX_DEFAULT_WORKERS, os.cpu_count() or 1))


class WorkerDied(MancalaError, RuntimeError):
    """The worker running a task stopped before answering (killed, or out of memory)."""


class WorkerLimit(WorkerDied):
    """A task went past its worker's bound of memory or of time: the worker was ended and
    replaced, and the task fails with this (a request too large, not a bug)."""


#: seconds between two looks at the busy workers' memory
WATCH_EVERY = 0.25


def resident_bytes(pid: int) -> int | None:
    """The memory process ``pid`` holds (its resident set, from ``/proc``; None where there
    is no ``/proc`` or the process is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _watch_parent(parent: int) -> None:
    """End this worker when the server that started it is gone."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(conn, init: Callable[[], None] | None, parent: int) -> None:
    """A worker's life: run tasks from the pipe until it closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watchdog", daemon=True).start()
    if init is not None:
        try:
            init()
        except Exception:  # noqa: BLE001 (an optional warm-up: the tasks still run)
            pass
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        task_id, fn, args = task
        try:
            reply = (task_id, True, fn(*args))
        except BaseException as e:  # noqa: BLE001 (every failure goes back to the server)
            reply = (task_id, False, e)
        try:
            conn.send(reply)
        except Exception as e:  # noqa: BLE001 (e.g. an exception that cannot be pickled)
            conn.send((task_id, False, RuntimeError(f"{type(reply[2]).__name__}: {e}")))


#: the shares of work, first served first: an AI's reply to a person, work a person waits for
#: (a hint, an analysis), work nobody waits for (AI-vs-AI games, the engine's warm-up)
REPLY, STUDY, BACKGROUND = "reply", "study", "background"


class _Worker:
    """One worker process, its pipe and the task it runs."""

    def __init__(self, process, conn) -> None:
        self.process = process
        self.conn = conn
        self.future: asyncio.Future | None = None
        self.task_id: int | None = None
        #: the share the task it runs comes from (:data:`REPLY`, :data:`STUDY`, :data:`BACKGROUND`)
        self.share = STUDY
        #: the affinity keys of the tasks it has run (their players live in this process)
        self.keys: set[str] = set()
        #: ends the task it runs when its time is up (None: no time limit)
        self.timer: asyncio.TimerHandle | None = None


class _Task:
    """A task waiting for a worker."""

    def __init__(
        self,
        future: asyncio.Future,
        task_id: int,
        fn: Callable,
        args: tuple,
        affinity: str | None,
        prefer: str | None = None,
        owner: Hashable | None = None,
        share: str = STUDY,
        seconds: float | None = None,
    ) -> None:
        self.future, self.task_id, self.fn, self.args, self.affinity = future, task_id, fn, args, affinity
        #: a key whose worker is preferred when idle (what it keeps helps), any worker else
        self.prefer = prefer
        #: whose work it is (a client, a game): workers are shared fairly between owners
        self.owner = owner
        self.share = share
        #: the most seconds it may run in its worker (None: no limit)
        self.seconds = seconds


class Shares:
    """The tasks waiting for a worker, queued by owner, and which of them runs next.

    Replies to people go first; then work a person waits for; then background work.  Within
    each share the owners take turns: the owner served longest ago (or never) is served
    first, so one owner's queue of a hundred tasks delays another owner's one task by at most
    one task, never by the hundred.  An owner's own tasks run in the order they came.
    """

    def __init__(self) -> None:
        self.queues: dict[Hashable | None, deque[_Task]] = {}
        #: when each owner with queued tasks was last served (0: not yet)
        self.stamps: dict[Hashable | None, int] = {}
        self._clock = itertools.count(1)

    def add(self, task: _Task) -> None:
        """Queue ``task`` behind its owner's earlier tasks."""
        self.queues.setdefault(task.owner, deque()).append(task)
        self.stamps.setdefault(task.owner, 0)

    def __len__(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def __iter__(self) -> Iterator[_Task]:
        for queue in list(self.queues.values()):
            yield from list(queue)

    def queued(self, owner: Hashable | None) -> int:
        """How many tasks of ``owner`` wait."""
        return len(self.queues.get(owner, ()))

    def remove(self, task: _Task) -> None:
        """Forget ``task`` (taken by a worker, or no longer wanted)."""
        queue = self.queues.get(task.owner)
        if queue is not None and task in queue:
            queue.remove(task)
            if not queue:
                del self.queues[task.owner]
                self.stamps.pop(task.owner, None)

    def clear(self) -> list[_Task]:
        """Forget every task; returns them."""
        tasks = list(self)
        self.queues.clear()
        self.stamps.clear()
        return tasks

    def pick(
        self, worker_for: Callable[[_Task], _Worker | None], allowed: Callable[[str], bool]
    ) -> tuple[_Task, _Worker] | None:
        """The task to run next and its worker (None: none can run now): shares in order,
        those ``allowed`` only; within a share the owner served longest ago first."""
        for task in [t for t in self if t.future.done()]:
            self.remove(task)
        owners = sorted(self.queues, key=lambda owner: self.stamps[owner])
        for share in (REPLY, STUDY, BACKGROUND):
            if not allowed(share):
                continue
            for owner in owners:
                for task in self.queues[owner]:
                    if task.share != share:
                        continue
                    worker = worker_for(task)
                    if worker is None:
                        continue
                    self.remove(task)
                    if owner in self.queues:
                        self.stamps[owner] = next(self._clock)
                    return task, worker
        return None


class WorkerPool:
    """``size`` worker processes; :meth:`run` awaits a function's result from one of them.

    The work is queued by owner (a client, a game) in three shares (:class:`Shares`): an AI's
    reply to a person first, then work a person waits for (a hint, an analysis), then
    background work (AI-vs-AI games, warming the engine); within a share the owners take
    turns.  With two or more workers neither studies nor background work ever hold the last
    free worker, so a person's AI reply waits at most for one task to end (another reply),
    whatever the other clients queue, and a hint waits at most for one task of each other
    owner.  A task with an ``affinity`` key runs in the worker that ran that key before
    (while that worker lives): how an outside program's player stays in the process that
    started it.

    Every worker's memory is bounded: one found holding more than ``memory_mb`` (a look every
    :data:`WATCH_EVERY` seconds, by ``resident(pid)``) is ended and replaced, and its task
    fails with :class:`WorkerLimit`, as does a task still running after its ``seconds``.

    Must be used from one event loop.  Cancelling the awaiting task cancels the work.
    """

    def __init__(
        self,
        size: int,
        init: Callable[[], None] | None = None,
        memory_mb: float | None = None,
        resident: Callable[[int], int | None] = resident_bytes,
    ) -> None:
        self.size = max(1, size)
        self.init = init
        self.memory_mb = memory_mb
        self.resident = resident
        self._watching: asyncio.TimerHandle | None = None
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []
        self.idle: deque[_Worker] = deque()
        self.shares = Shares()
        self.ids = itertools.count(1)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    def _spawn(self) -> None:
        parent_end, child_end = self.context.Pipe()
        process = self.context.Process(
            target=_worker_main, args=(child_end, self.init, os.getpid()), name="mancala-worker", daemon=True
        )
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end)
        self.workers.append(worker)
        self.idle.append(worker)
        self._loop().add_reader(parent_end.fileno(), self._readable, worker)

    def _loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the pool was first used from."""
        assert self.loop is not None, "the pool is used from an event loop first (run)"
        return self.loop

    def _ensure_started(self) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        while len(self.workers) < self.size and not self.closed:
            self._spawn()

    async def run(
        self,
        fn: Callable,
        *args: Any,
        affinity: str | None = None,
        prefer: str | None = None,
        urgent: bool = True,
        owner: Hashable | None = None,
        reply: bool = False,
        seconds: float | None = None,
    ) -> Any:
        """``fn(*args)`` in a worker; its exception is raised here.  Cancelling the caller
        ends the work (the worker is replaced).  ``affinity``: run in the worker that ran
        that key before (waiting for it); ``prefer``: that worker if it is idle, else any.
        ``owner``: whose work it is (workers are shared fairly between owners); ``reply``:
        an AI's reply to a person (served first), else ``urgent``: a person waits for it
        (a hint), else background work.  ``seconds``: the most it may run in its worker
        (then :class:`WorkerLimit`)."""
        if self.closed:
            raise RuntimeError("the server is stopping")
        self._ensure_started()
        future = self._loop().create_future()
        share = REPLY if reply else STUDY if urgent else BACKGROUND
        self.shares.add(_Task(future, next(self.ids), fn, args, affinity, prefer, owner, share, seconds))
        self._dispatch()
        try:
            return await future
        except asyncio.CancelledError:
            self._cancel(future)
            raise

    def _worker_for(self, task: _Task) -> _Worker | None:
        """The idle worker ``task`` may run in now (None: wait)."""
        if task.affinity is not None:
            for worker in self.workers:
                if task.affinity in worker.keys:
                    return worker if worker in self.idle else None
        if task.prefer is not None:
            for worker in self.idle:
                if task.prefer in worker.keys:
                    return worker
        return self.idle[0] if self.idle else None

    def _allowed(self, share: str) -> bool:
        """Whether a task of ``share`` may take an idle worker now: replies always; studies
        and background work each up to all workers but one (with two or more)."""
        if share == REPLY or self.size == 1:
            return True
        return sum(1 for w in self.workers if w.future is not None and w.share == share) < self.size - 1

    def _dispatch(self) -> None:
        while self.idle:
            picked = self.shares.pick(self._worker_for, self._allowed)
            if picked is None:
                return
            task, worker = picked
            self._send(worker, task)

    def queued(self, owner: Hashable | None) -> int:
        """How many tasks of ``owner`` wait for a worker."""
        return self.shares.queued(owner)

    def _send(self, worker: _Worker, task: _Task) -> None:
        self.idle.remove(worker)
        worker.future, worker.task_id, worker.share = task.future, task.task_id, task.share
        for key in (task.affinity, task.prefer):
            if key is not None:
                worker.keys.add(key)
        if task.seconds is not None:
            worker.timer = self._loop().call_later(
                task.seconds,
                self._fail,
                worker,
                task.task_id,
                f"it ran longer than {task.seconds:g} s, the most one request may take",
            )
        self._watch_soon()
        try:
            worker.conn.send((task.task_id, task.fn, task.args))
        except Exception as e:  # noqa: BLE001 (arguments that cannot be pickled, a broken pipe)
            self._stop_timer(worker)
            worker.future = worker.task_id = None
            if not task.future.done():
                task.future.set_exception(e)
            if isinstance(e, (BrokenPipeError, OSError)):
                self._replace(worker)
            else:
                self.idle.append(worker)

    def _readable(self, worker: _Worker) -> None:
        try:
            task_id, ok, value = worker.conn.recv()
        except (EOFError, OSError):
            future = worker.future
            self._replace(worker)
            if future is not None and not future.done():
                future.set_exception(
                    WorkerDied("the worker process stopped before answering (killed, or out of memory)")
                )
            return
        except Exception as e:  # noqa: BLE001 (a reply that cannot be unpickled)
            ok, value = False, e
        future = worker.future
        self._stop_timer(worker)
        worker.future = worker.task_id = None
        self.idle.append(worker)
        if future is not None and not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def _cancel(self, future: asyncio.Future) -> None:
        """Forget ``future``'s task: drop it if waiting; if running, let it finish within
        :data:`ABANDON_GRACE` seconds (its answer is dropped; the worker keeps its loaded
        engine), else end the worker and start a fresh one."""
        for worker in list(self.workers):
            if worker.future is future:
                self._loop().call_later(ABANDON_GRACE, self._end_if_running, worker, worker.task_id)
                return
        for task in self.shares:
            if task.future is future:
                self.shares.remove(task)

    def _end_if_running(self, worker: _Worker, task_id: int | None) -> None:
        if worker.task_id == task_id and worker in self.workers and not self.closed:
            self._replace(worker)

    @staticmethod
    def _stop_timer(worker: _Worker) -> None:
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None

    def _fail(self, worker: _Worker, task_id: int | None, why: str) -> None:
        """End ``worker`` if it still runs task ``task_id`` (past a bound: ``why``), answer
        that task with :class:`WorkerLimit` and start a fresh worker."""
        if worker.task_id != task_id or task_id is None or worker not in self.workers or self.closed:
            return
        future = worker.future
        log.warning("a worker task was ended: %s", why)
        self._replace(worker)
        if future is not None and not future.done():
            future.set_exception(WorkerLimit(f"{why}; its worker was ended"))

    def _watch_soon(self) -> None:
        """Look at the busy workers' memory in :data:`WATCH_EVERY` seconds (if bounded)."""
        if self.memory_mb is not None and self._watching is None and not self.closed:
            self._watching = self._loop().call_later(WATCH_EVERY, self._watch)

    def _watch(self) -> None:
        self._watching = None
        bound = self.memory_mb
        if bound is None or self.closed:
            return
        for worker in list(self.workers):
            if worker.future is None:
                continue
            held = self.resident(worker.process.pid)
            if held is not None and held > bound * 2**20:
                self._fail(
                    worker,
                    worker.task_id,
                    f"it needed more than {bound:g} MB of memory, the bound of a worker",
                )
        if self.busy():
            self._watch_soon()

    def _retire(self, worker: _Worker) -> None:
        self._stop_timer(worker)
        if worker in self.workers:
            self.workers.remove(worker)
        if worker in self.idle:
            self.idle.remove(worker)
        try:
            self._loop().remove_reader(worker.conn.fileno())
        except (OSError, ValueError):
            pass
        if worker.process.is_alive():
            worker.process.kill()
        worker.conn.close()
        # reap it off the event loop, so no <defunct> process is left behind
        threading.Thread(target=worker.process.join, name="reap-worker", daemon=True).start()

    def _replace(self, worker: _Worker) -> None:
        """End ``worker`` (its task abandoned) and start a fresh one in its place."""
        self._retire(worker)
        if not self.closed:
            self._spawn()
            self._dispatch()

    def busy(self) -> int:
        """Workers running a task now (abandoned ones included)."""
        return sum(1 for w in self.workers if w.future is not None)

    def shutdown(self) -> None:
        """End every worker (tasks under way are abandoned)."""
        self.closed = True
        if self._watching is not None:
            self._watching.cancel()
            self._watching = None
        for task in self.shares.clear():
            if not task.future.done():
                task.future.cancel()
        for worker in list(self.workers):
            if worker.future is not None and not worker.future.done():
                worker.future.cancel()
            self._retire(worker)
        for worker in list(self.workers):
            worker.process.join(timeout=2)
