"""Running the Kalah engine's work: in a worker thread watched from the caller's thread,
which enforces the searches' deadlines and turns Ctrl-C into a stop of their kernels
(:func:`run_job`, on :func:`mancala.engine.kit.run_watched`)."""

from __future__ import annotations

import threading
import time
from typing import Callable, Protocol, TypeVar

import numpy as np

from mancala.engine import endgame, kit
from mancala.engine import search as S

T = TypeVar("T")


class Watched(Protocol):
    """A search a job watches: its kernel's control array, the running iteration's deadline
    (``time.perf_counter()``; 0: none), its nodes, and a way to abort it."""

    ctl: np.ndarray
    deadline: float

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""
        ...

    def abort(self) -> None:
        """Stop the kernel as soon as possible."""
        ...


def solve_threads() -> int:
    """Threads for a solve's full-depth passes: ``$MANCALA_SOLVE_THREADS``, else the cores
    this process may use, at most 2."""
    return endgame.thread_count("MANCALA_SOLVE_THREADS", 2)


class Stopped(Exception):
    """Raised inside a job's worker when the job was stopped (Ctrl-C in the waiting thread)."""


class Job:
    """Engine work running in a worker thread (:func:`run_job`): the searchers it made, so
    that the waiting thread can abort their kernels at their deadlines or on Ctrl-C."""

    def __init__(self) -> None:
        self.searchers: list[Watched] = []
        self.stopped = threading.Event()
        self._lock = threading.Lock()

    def attach(self, searcher: Watched) -> None:
        """Watch ``searcher`` (its deadlines, and :meth:`stop`)."""
        with self._lock:
            self.searchers.append(searcher)
        if self.stopped.is_set():
            searcher.abort()

    def nodes(self) -> int:
        """Nodes searched so far by the job's searchers."""
        with self._lock:
            return sum(s.nodes for s in self.searchers)

    def check(self) -> None:
        """Raise :class:`Stopped` when the job was stopped (the worker calls this between steps)."""
        if self.stopped.is_set():
            raise Stopped()

    def stop(self) -> None:
        """Stop every search of the job as soon as possible."""
        self.stopped.set()
        with self._lock:
            for s in self.searchers:
                s.abort()

    def expire(self, now: float) -> float | None:
        """Abort the runs whose deadline has passed; return the next pending deadline."""
        pending = None
        with self._lock:
            for s in self.searchers:
                d = s.deadline
                if d <= 0.0:
                    continue
                if now >= d:
                    s.ctl[S.C_ABORT] = 1
                elif pending is None or d < pending:
                    pending = d
        return pending


_worker = threading.local()


def current_job() -> Job | None:
    """The job whose worker thread this is (None outside any job)."""
    return getattr(_worker, "job", None)


def run_job(work: Callable[[Job], T], *, tick: Callable[[Job], None] | None = None, poll: float = 0.02) -> T:
    """Run ``work(job)`` in a worker thread while this thread waits and watches: it aborts a
    search whose deadline has passed, calls ``tick(job)`` every ``poll`` seconds (progress
    displays), and on Ctrl-C (KeyboardInterrupt) stops the job's kernels and re-raises.

    The kernels never call back into Python, so the waiting thread is where signals
    land, at once.  Called from inside a job's worker, ``work`` joins that job (runs in
    the same thread, watched by the same waiting thread)."""
    current = current_job()
    if current is not None:
        return work(current)
    job = Job()
    waited = [False]

    def inside() -> T:
        _worker.job = job
        return work(job)

    def watch() -> float:
        if tick is not None and waited[0]:
            tick(job)
        waited[0] = True
        now = time.perf_counter()
        pending = job.expire(now)
        return poll if pending is None else min(poll, max(0.002, pending - now))

    try:
        # the kernels unwind at once on a stop; a first compilation may not: 2 s of grace
        return kit.run_watched(inside, job.stop, watch=watch, grace=2.0)
    except Stopped:  # pragma: no cover - stop() comes with an exception here
        raise KeyboardInterrupt from None
