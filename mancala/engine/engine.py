"""The engine's Python side: per-rules tables, iterative deepening, solving, analysis."""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, TypeVar

import numpy as np

from mancala.engine import bridge, endgame, leaf_eval, pages
from mancala.engine import search as S
from mancala.engine.kernels import EXTRA, OVER, PASS, gen_moves, make_move, rank
from mancala.engine.kernels import R_SIZE as K_RULES
from mancala.errors import BadInput
from mancala.evaluation.terms import engine_weights
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahRules, KalahState, Sowing
from mancala.search.core import SearchResult

T = TypeVar("T")

#: remaining depth that means "to the end of the game"
FULL_DEPTH = 10_000
#: default transposition table budget in megabytes (``$MANCALA_TT_MB`` overrides)
DEFAULT_TT_MB = 64
#: evaluation weight (quarters) of the seeds in each row at depth leaves
DEFAULT_HW = 1
#: enhanced transposition cut-offs are tried at nodes with more than K + this many seeds
DEFAULT_ETC = 1000
#: the table is skipped at nodes with at most K + this many seeds (their children mostly hit
#: the database); solves use 3 (:data:`mancala.engine.solver.SOLVE_TTMIN`)
DEFAULT_TTMIN = 1


@dataclass
class Context:
    """Everything the kernels need for one set of play rules: table, database, stack.

    Contexts live in the process's memory pool (:func:`context`); one that the pool
    evicts (to keep the engine within :func:`memory_limit`) is marked ``evicted`` and its
    arrays dropped, and a :class:`Searcher` holding it attaches to a fresh one."""

    key: tuple
    bits: int
    words: int
    #: transposition table: one row per entry (key words, then a packed data word)
    tt: np.ndarray
    #: one row per ply: board, moves, move scores, key
    ws: np.ndarray
    db: endgame.Database | None = None
    dbm: np.ndarray | None = None
    db_checked: bool = False
    #: whether a search has written to the table since it was made or cleared
    dirty: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the helper threads' stacks for parallel solving (they share the table)
    helpers: list = field(default_factory=list)
    #: set when the pool dropped this context: whoever holds it must attach a new one
    evicted: bool = False
    #: the leaf evaluation behind the table's non-exact entries (:attr:`Searcher.estimates`);
    #: a search under another one first empties them (:func:`search.table_forget_estimates`)
    estimates: tuple | None = None

    def clear(self, touch: bool = False) -> None:
        """Forget every table entry.  A fresh table is left untouched (its pages stay
        unmapped) unless ``touch``: a solve that will fill the table maps it in one sweep
        (0.15 s for 800 MB on huge pages) instead of one page fault per first probe
        (2.5 s in all on the test machine, :mod:`mancala.engine.pages`)."""
        if self.dirty or touch:
            self.tt.fill(0)
            self.dirty = False

    def helper(self, i: int) -> np.ndarray:
        """Helper thread ``i``'s stack, made on demand."""
        while len(self.helpers) <= i:
            self.helpers.append(np.zeros_like(self.ws))
        return self.helpers[i]

    def table_bytes(self) -> int:
        """Bytes of the table and the stacks (what the pool counts against the table share)."""
        if self.evicted:
            return 0
        return self.tt.nbytes + self.ws.nbytes + sum(h.nbytes for h in self.helpers)

    def database_bytes(self) -> int:
        """Bytes of the endgame database held (0 when none)."""
        if self.evicted or self.db is None:
            return 0
        return self.db.values.nbytes + (self.dbm.nbytes if self.dbm is not None else 0)


# --- the memory bound -------------------------------------------------------------------

#: default bound on the engine's memory in one process, in megabytes (``$MANCALA_MEMORY_MB``
#: or :func:`set_memory_limit` change it): tables and stacks get 3/4 of it, endgame
#: databases 1/4, whatever the number of rule sets a process uses
DEFAULT_MEMORY_MB = 2048
#: the smallest table a context gets, even when the bound leaves less (a few hundred kB)
MIN_TABLE_ROWS = 1 << 12


class _Pool:
    """The process's contexts, least recently used first, and the bound they live within."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.contexts: OrderedDict[tuple, Context] = OrderedDict()
        self.limit_mb: float | None = None


_pool = _Pool()


def set_memory_limit(megabytes: float | None) -> None:
    """Bound the engine's memory for this process (``None``: back to ``$MANCALA_MEMORY_MB``,
    else :data:`DEFAULT_MEMORY_MB`).  Contexts beyond the new bound are dropped when idle."""
    if megabytes is not None and not megabytes > 0:
        raise BadInput(f"the engine's memory bound must be more than 0 MB, got {megabytes}")
    _pool.limit_mb = megabytes
    with _pool.lock:
        _fit_tables(0, None)
        _fit_databases(0, None)


def memory_limit() -> int:
    """The engine's memory bound for this process, in bytes (see :data:`DEFAULT_MEMORY_MB`)."""
    if _pool.limit_mb is not None:
        return int(_pool.limit_mb * 2**20)
    env = os.environ.get("MANCALA_MEMORY_MB")
    if env:
        try:
            mb = float(env)
        except ValueError:
            raise BadInput(f"$MANCALA_MEMORY_MB must be a number of megabytes, got {env!r}") from None
        if not mb > 0:
            raise BadInput(f"$MANCALA_MEMORY_MB must be more than 0, got {env!r}")
        return int(mb * 2**20)
    return DEFAULT_MEMORY_MB * 2**20


def memory_in_use() -> dict:
    """What the engine holds now: ``tables`` (bytes of tables and stacks), ``databases``
    (bytes), ``contexts`` (rule sets held), ``limit`` (bytes)."""
    with _pool.lock:
        live = list(_pool.contexts.values())
        return {
            "tables": sum(c.table_bytes() for c in live),
            "databases": sum(c.database_bytes() for c in live),
            "contexts": len(live),
            "limit": memory_limit(),
        }


def _evict(ctx: Context, whole: bool = True) -> bool:
    """Drop an idle context (``whole``) or just its database; False when it is busy.
    (Called with the pool lock held; never blocks.)"""
    if not ctx.lock.acquire(blocking=False):
        return False
    try:
        if whole:
            ctx.evicted = True
            ctx.tt = ctx.ws = None  # type: ignore[assignment]
            ctx.helpers = []
            _pool.contexts.pop(ctx.key, None)
        ctx.db = ctx.dbm = None
        ctx.db_checked = False
    finally:
        ctx.lock.release()
    return True


def _fit_tables(need: int, keep: Context | None) -> int:
    """Evict idle contexts (least recently used first, never ``keep``) until ``need`` more
    bytes of tables fit in their share of the bound; return the bytes then free."""
    cap = memory_limit() * 3 // 4
    for ctx in list(_pool.contexts.values()):
        used = sum(c.table_bytes() for c in _pool.contexts.values())
        if used + need <= cap:
            break
        if ctx is not keep:
            _evict(ctx)
    return cap - sum(c.table_bytes() for c in _pool.contexts.values())


def _fit_databases(need: int, keep: Context | None) -> int:
    """Like :func:`_fit_tables` for databases (1/4 of the bound): drop idle contexts'
    databases until ``need`` more bytes fit; return the bytes then free."""
    cap = database_room()
    for ctx in list(_pool.contexts.values()):
        used = sum(c.database_bytes() for c in _pool.contexts.values())
        if used + need <= cap:
            break
        if ctx is not keep and ctx.db is not None:
            _evict(ctx, whole=False)
    return cap - sum(c.database_bytes() for c in _pool.contexts.values())


def _table_entries(words: int, megabytes: float) -> int:
    per = 8 * (words + 1)
    size = 2
    while size * 2 * per <= megabytes * 1024 * 1024:
        size *= 2
    return size


def context(game: Kalah, seeds: int, megabytes: float | None = None) -> Context:
    """The context for ``game``'s play rules, able to key positions of up to ``seeds`` seeds
    with a table of ``megabytes`` (``$MANCALA_TT_MB``, default 64 MB) or less: every
    context of the process lives within the memory bound (:func:`memory_limit`), and
    idle contexts of other rules are dropped, least recently used first, to make room.
    Made, or grown, on demand."""
    key = bridge.play_key(game.rules)
    bits = max(1, int(seeds).bit_length())
    n = game.rules.pits
    per = 64 // bits
    words = -(-2 * n // per)
    mb = float(os.environ.get("MANCALA_TT_MB", DEFAULT_TT_MB)) if megabytes is None else megabytes
    size = _table_entries(words, mb)
    row = 8 * (words + 1)
    stack = (S.MAXPLY + 2) * S.workspace_columns(n, words) * 8
    with _pool.lock:
        ctx = _pool.contexts.get(key)
        if ctx is not None and ctx.bits >= bits:
            _pool.contexts.move_to_end(key)
            if ctx.tt.shape[0] >= size:
                return ctx
        # the room this context could have: the table share minus what busy contexts hold
        busy = sum(c.table_bytes() for c in _pool.contexts.values() if c is not ctx and c.lock.locked())
        room = memory_limit() * 3 // 4 - busy - stack
        while size > MIN_TABLE_ROWS and size * row > room:
            size //= 2
        if ctx is not None and ctx.bits >= bits and ctx.tt.shape[0] >= size:
            return ctx
        old_db = None
        if ctx is not None:
            old_db = (ctx.db, ctx.dbm, ctx.db_checked)
            if not _evict(ctx):  # busy: its searcher moves to the new context at its next run
                ctx.evicted = True
                _pool.contexts.pop(key, None)
        _fit_tables(size * row + stack, None)
        new = Context(
            key=key,
            bits=bits,
            words=words,
            tt=pages.zeros((size, words + 1), np.uint64),
            ws=np.zeros((S.MAXPLY + 2, S.workspace_columns(n, words)), dtype=np.int64),
        )
        if old_db is not None and old_db[0] is not None:
            new.db, new.dbm, new.db_checked = old_db
        _pool.contexts[key] = new
        return new


def solve_threads() -> int:
    """Threads for a solve's full-depth passes: ``$MANCALA_SOLVE_THREADS``, else the cores
    this process may use, at most 2."""
    return endgame.thread_count("MANCALA_SOLVE_THREADS", 2)


def reset() -> None:
    """Drop every context (tables and databases in memory) and the memory bound set by
    :func:`set_memory_limit`; mostly for tests."""
    with _pool.lock:
        for ctx in list(_pool.contexts.values()):
            ctx.evicted = True
        _pool.contexts.clear()
        _pool.limit_mb = None
    _prepared.clear()


def database_room() -> int:
    """Bytes of endgame database the memory bound allows one rule set (its 1/4 share)."""
    return memory_limit() // 4


def database(
    game: Kalah, ctx: Context, progress: bool = False, seeds: int | None = None, cancel: threading.Event | None = None
) -> endgame.Database | None:
    """The endgame database for ``game``'s rules (loaded or built once per process; ``seeds``
    asks for at least that K), or None when the rules have none (choice of direction) or
    ``$MANCALA_ENDGAME_SEEDS`` is negative.  K is lowered when the database would not fit
    in its share of the memory bound (:func:`memory_limit`); ``cancel`` stops a build."""
    if ctx.db_checked and (seeds is None or ctx.db is None or ctx.db.seeds >= seeds):
        return ctx.db
    if game.rules.sowing is Sowing.CHOICE:
        ctx.db_checked = True
        return None
    k = endgame.default_seeds(game.rules.pits) if seeds is None else seeds
    if k < 0:
        ctx.db_checked = True
        return None
    n = game.rules.pits
    with _pool.lock:
        room = _fit_databases(endgame.nbytes(n, k), ctx) + ctx.database_bytes()
    while k > 0 and endgame.nbytes(n, k) > room:
        k -= 1
    if ctx.db is not None and ctx.db.seeds >= k:
        ctx.db_checked = True
        return ctx.db
    db = endgame.obtain(ctx.key, bridge.rules_array(game.rules), k, progress, cancel)
    ctx.db = db
    ctx.dbm = index_tables(db)
    ctx.db_checked = True
    return db


def install_database(game: Kalah, db: endgame.Database) -> None:
    """Give this process's engine ``db`` for ``game``'s rules instead of loading or building
    one: a Ray worker of a distributed proof takes the driver's database from the object
    store (:func:`mancala.engine.distributed.solve_on_ray`)."""
    ctx = context(game, db.seeds)
    ctx.db = db
    ctx.dbm = index_tables(db)
    ctx.db_checked = True


def index_tables(db: endgame.Database) -> np.ndarray:
    """The kernels' ``dbm``: level offsets in row 0, composition counts below."""
    k = db.seeds
    parts = db.comp.shape[0]
    dbm = np.zeros((parts + 1, k + 2), dtype=np.int64)
    dbm[0, :] = db.offsets
    dbm[1:, : k + 1] = db.comp
    return dbm


# --- running searches: a worker thread, watched from the caller's thread ---------------


class Stopped(Exception):
    """Raised inside a job's worker when the job was stopped (Ctrl-C in the waiting thread)."""


class Job:
    """Engine work running in a worker thread (:func:`run_job`): the searchers it made, so
    that the waiting thread can abort their kernels at their deadlines or on Ctrl-C."""

    def __init__(self) -> None:
        self.searchers: list[Searcher] = []
        self.stopped = threading.Event()
        self._lock = threading.Lock()

    def attach(self, searcher: "Searcher") -> None:
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


def run_job(work: Callable[[Job], T], *, tick: Callable[[Job], None] | None = None, poll: float = 0.02) -> T:
    """Run ``work(job)`` in a worker thread while this thread waits and watches: it aborts a
    search whose deadline has passed, calls ``tick(job)`` every ``poll`` seconds (progress
    displays), and on Ctrl-C (KeyboardInterrupt) stops the job's kernels and re-raises.

    The kernels never call back into Python, so the waiting thread is where signals
    land, at once.  Called from inside a job's worker, ``work`` joins that job (runs in
    the same thread, watched by the same waiting thread)."""
    current = getattr(_worker, "job", None)
    if current is not None:
        return work(current)
    job = Job()
    box: dict = {}

    def target() -> None:
        _worker.job = job
        try:
            box["result"] = work(job)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = e

    thread = threading.Thread(target=target, name="mancala-engine", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            now = time.perf_counter()
            pending = job.expire(now)
            wait = poll if pending is None else min(poll, max(0.002, pending - now))
            thread.join(wait)
            if tick is not None and thread.is_alive():
                tick(job)
    except BaseException:
        job.stop()
        thread.join(2.0)  # the kernels unwind at once; a first compilation may not
        raise
    if "error" in box:
        error = box["error"]
        if isinstance(error, Stopped):  # pragma: no cover - stop() comes with an exception here
            raise KeyboardInterrupt from None
        raise error
    return box["result"]


_NO_DB = (np.zeros(2, dtype=np.uint8), np.zeros((2, 2), dtype=np.int64))


class Searcher:
    """One root position wired to the kernels: run MTD(f) iterations and read the table.

    Every use of the table goes through :meth:`lease` (the context's lock held; a context
    the memory pool evicted in between is replaced by a fresh one, its entries lost)."""

    #: the running iteration's deadline (``time.perf_counter()``; 0: none), enforced by the
    #: job's waiting thread (:func:`run_job`)
    deadline: float = 0.0

    def __init__(
        self,
        game: Kalah,
        state: KalahState,
        *,
        use_db: bool = True,
        hw: int = DEFAULT_HW,
        progress: bool = False,
        db_seeds: int | None = None,
        megabytes: float | None = None,
        job: Job | None = None,
        evaluation: str | None = None,
        ttmin: int | None = None,
    ) -> None:
        if not isinstance(game, Kalah):
            raise BadInput(f"the engine plays Kalah only, not {game!r}")
        if state.finished:
            raise BadInput("the game is over: there is nothing to search")
        self.game = game
        self.state = state
        root = bridge.relative_board(state)
        n = game.rules.pits
        self.acc = int(root[n] - root[2 * n + 1])
        root[n] = 0
        root[2 * n + 1] = 0
        self.root = root
        self.flags = bridge.root_flags(game, state)
        self.job = job if job is not None else getattr(_worker, "job", None)
        self._use_db, self._progress, self._db_seeds, self._megabytes = use_db, progress, db_seeds, megabytes
        ctl = np.zeros(S.C_SIZE, dtype=np.int64)
        ctl[:K_RULES] = bridge.rules_array(game.rules)
        ctl[S.C_HW] = hw
        self.estimates = self._set_evaluation(ctl, evaluation, hw, sum(state.board))
        ctl[S.C_ETC] = int(os.environ.get("MANCALA_ETC", DEFAULT_ETC))
        self._ttmin = int(os.environ.get("MANCALA_TTMIN", DEFAULT_TTMIN if ttmin is None else ttmin))
        self.ctl = ctl
        self.ctx: Context
        self._attach()
        if self.job is not None:
            self.job.attach(self)

    @staticmethod
    def _set_evaluation(ctl: np.ndarray, evaluation: str | None, hw: int, total: int) -> tuple:
        """Set the depth leaves' evaluation in ``ctl``: the row difference in ``hw`` quarters, or
        the weighted terms of ``evaluation`` (a spec of :mod:`mancala.evaluation.terms`, see its
        ``engine_weights``).  Returns its identity (what the table's non-exact entries
        depend on: the weights, and the game's seeds when ``endgame`` uses them)."""
        if evaluation is None:
            return ("hw", hw)
        weights = engine_weights(evaluation)
        leaf_eval.set_weights(ctl, weights, total)
        return ("terms", weights, total if any(n == "endgame" for n, _ in weights) else None)

    def _attach(self) -> None:
        """Take this rule set's context (and its database) from the pool."""
        self.ctx = context(self.game, int(self.root.sum()), self._megabytes)
        if self._use_db:
            cancel = self.job.stopped if self.job is not None else None
            database(self.game, self.ctx, self._progress, self._db_seeds, cancel)
            if self.job is not None:
                self.job.check()

    @property
    def db(self) -> endgame.Database | None:
        """The endgame database in use (None without one)."""
        return self.ctx.db if self._use_db and not self.ctx.evicted else None

    @contextmanager
    def lease(self):
        """Hold this rule set's context (its lock) for kernel calls and table reads:
        yields ``(context, database values, database index)``, the ``ctl`` array set up
        for them."""
        while True:
            c = self.ctx
            c.lock.acquire()
            if not c.evicted and (not self._use_db or c.db_checked):
                break
            c.lock.release()
            self._attach()
        try:
            if c.estimates != self.estimates:
                if c.dirty:
                    S.table_forget_estimates(c.tt, c.words)
                c.estimates = self.estimates
            db = c.db if self._use_db else None
            ctl = self.ctl
            ctl[S.C_DBK] = db.seeds if db is not None else -1
            ctl[S.C_WORDS] = c.words
            ctl[S.C_BITS] = c.bits
            ctl[S.C_TTMIN] = self._ttmin if db is not None else -1 << 40
            with _pool.lock:
                if c.key in _pool.contexts:
                    _pool.contexts.move_to_end(c.key)
            yield (c,) + ((db.values, c.dbm) if db is not None else _NO_DB)
        finally:
            c.lock.release()

    def _check(self) -> None:
        if self.job is not None:
            self.job.check()

    def run(
        self, depth: int, guess: int, node_limit: int | None = None, deadline: float = 0.0
    ) -> tuple[int, int, bool, bool]:
        """One MTD(f) iteration: (relative value, move code, complete, exact).

        ``deadline`` (``time.perf_counter()`` time, 0: none) is enforced by the job's
        waiting thread (:func:`run_job`), which aborts the kernel once it has passed.
        :attr:`proven` afterwards holds the bounds proved so far (relative, exact)."""
        ctl = self.ctl
        with self.lease() as (c, dbv, dbm):
            ctl[S.C_ABORT] = 1 if self._aborted else 0
            ctl[S.C_LIMIT] = (ctl[S.C_NODES] + node_limit) if node_limit is not None else (1 << 62)
            ctl[S.C_CHECK] = min(ctl[S.C_NODES] + S.CHECK_EVERY, ctl[S.C_LIMIT])
            ctl[S.C_ROOTMOVE] = -1
            ctl[S.C_PLO] = -S.BIG
            ctl[S.C_PHI] = S.BIG
            heur0 = int(ctl[S.C_HEUR])
            c.dirty = True
            c.ws[0, : len(self.root)] = self.root
            self.deadline = deadline
            try:
                g, move, complete = S.mtdf(guess, depth, self.flags, self.acc, c.ws, ctl, c.tt, dbv, dbm)
            finally:
                self.deadline = 0.0
            lo, hi = self.proven
            self.proven = (max(lo, int(ctl[S.C_PLO])), min(hi, int(ctl[S.C_PHI])))
        self._check()
        return int(g), int(move), bool(complete), int(ctl[S.C_HEUR]) == heur0

    #: bounds on the root's relative value proved by the iterations so far (exact passes)
    proven: tuple[int, int] = (-S.BIG, S.BIG)

    def at_least(self, target: int) -> int:
        """One full-depth null-window pass proving the root worth at least ``target``
        (absolute): the move that proves it, or -1 when it is worth less."""
        return int(self.ctl[S.C_ROOTMOVE]) if self.null_window(target - self.acc) >= target - self.acc else -1

    def null_window(self, beta: int) -> int:
        """One full-depth null-window pass at ``beta`` (relative): the fail-soft value, at
        least ``beta`` when the root is worth that much, else below it (a bound either way);
        the move that proves a fail-high is left in the control array."""
        ctl = self.ctl
        with self.lease() as (c, dbv, dbm):
            ctl[S.C_ABORT] = 1 if self._aborted else 0
            ctl[S.C_LIMIT] = 1 << 62
            ctl[S.C_CHECK] = ctl[S.C_NODES] + S.CHECK_EVERY
            ctl[S.C_ROOTMOVE] = -1
            c.dirty = True
            c.ws[0, : len(self.root)] = self.root
            v = S.negamax(0, beta - 1, beta, FULL_DEPTH, 0, self.flags, self.acc, c.ws, ctl, c.tt, dbv, dbm)
        self._check()
        return int(v)

    @property
    def nodes(self) -> int:
        """Nodes visited so far by this searcher (its helper threads included)."""
        return int(self.ctl[S.C_NODES]) + sum(int(c[S.C_NODES]) for c in self._helper_ctls)

    _helper_ctls: tuple = ()
    _aborted: bool = False

    def abort(self) -> None:
        """Stop the running search (every thread of it) as soon as possible, and every
        later one."""
        self._aborted = True
        for c in (self.ctl,) + tuple(self._helper_ctls):
            c[S.C_ABORT] = 1

    def root_tasks(self) -> list | None:
        """The root's moves, the extra-turn chains followed to their ends: a list of
        ``(root move code, relative gain, board)``, the board None when the game is over
        (its value is the gain), else the opponent to move; None under a root flag."""
        if self.flags != 0:
            return None
        n = self.game.rules.pits
        size = 2 * n + 2
        ctl = self.ctl
        tasks: list = []

        def expand(b: np.ndarray, first: int, off: int) -> None:
            mv = np.zeros(2 * n, dtype=np.int64)
            cnt = gen_moves(b, ctl, mv)
            S.order_moves(b, mv, cnt, np.zeros(2 * n, dtype=np.int64), -1, ctl)
            for k in range(cnt):
                c = int(mv[k])
                child = np.zeros(size, dtype=np.int64)
                st = make_move(b, c, child, ctl, 0)
                gain = int(child[n] - child[2 * n + 1]) if st != PASS else int(child[2 * n + 1] - child[n])
                child[n] = 0
                child[2 * n + 1] = 0
                code = c if first < 0 else first
                if st >= OVER:
                    tasks.append((code, off + gain, None))
                elif st == EXTRA:
                    expand(child, code, off + gain)
                else:
                    tasks.append((code, off + gain, child))

        expand(self.root.copy(), -1, 0)
        return tasks

    def run_parallel(self, guess: int, threads: int, depth: int = FULL_DEPTH) -> tuple[int, int, bool, bool]:
        """MTD(f) to ``depth`` turns like :meth:`run`, each null-window pass split over ``threads``
        threads by root move (extra-turn chains followed): each refutation is a separate
        null-window search of the opponent's position, handed to the next free thread.
        The threads share the table (a row torn between two writes reads as absent:
        :func:`search.table_probe`), each has its own stack and counters.  Falls back to
        :meth:`run` under a root flag, with one thread, or with one position to search."""
        tasks = self.root_tasks()
        if threads < 2 or tasks is None or sum(t[2] is not None for t in tasks) < 2:
            return self.run(depth, guess)
        self._aborted = False
        with self.lease() as (c, dbv, dbm):
            ctls = [self.ctl]
            stacks = [c.ws]
            for i in range(threads - 1):
                ctl = self.ctl.copy()
                ctl[S.C_NODES] = 0
                ctl[S.C_HEUR] = 0
                ctls.append(ctl)
                stacks.append(c.helper(i))
            self._helper_ctls = tuple(ctls[1:])
            if self.job is not None and self.job.stopped.is_set():
                self.abort()
            heur0 = [int(x[S.C_HEUR]) for x in ctls]
            lo, hi = -S.BIG, S.BIG
            g = guess
            move = -1
            last = -1
            c.dirty = True
            while lo < hi:
                beta = g if g > lo + 1 else lo + 1
                g, last = self._pass(c.tt, tasks, beta, depth, ctls, stacks, dbv, dbm)
                if self._aborted:
                    break
                if g < beta:
                    hi = g
                else:
                    lo = g
                    move = last
        self._check()
        if self._aborted:
            return g, move, False, False
        if move < 0:
            move = last
        exact = all(int(x[S.C_HEUR]) == h for x, h in zip(ctls, heur0))
        return int(g), int(move), True, exact

    def _pass(self, tt, tasks, beta, depth, ctls, stacks, dbv, dbm) -> tuple[int, int]:
        """One null-window pass at ``beta`` over the root tasks, ``depth`` turns from the
        root: (fail-soft value, move)."""
        best = -S.BIG
        best_move = -1
        todo = []
        for i, (code, gain, board) in enumerate(tasks):
            if board is None:
                if gain > best:
                    best, best_move = gain, code
            else:
                todo.append(i)
        if best >= beta:
            return best, best_move
        lock = threading.Lock()
        state = {"best": best, "move": best_move, "stop": False}
        size = len(self.root)

        def work(t: int) -> None:
            ctl = ctls[t]
            ws = stacks[t]
            while True:
                with lock:
                    if state["stop"] or self._aborted:
                        return
                    if not todo:
                        return
                    i = todo.pop(0)
                    ctl[S.C_ABORT] = 0
                code, gain, board = tasks[i]
                ws[0, :size] = board
                ctl[S.C_LIMIT] = 1 << 62
                ctl[S.C_CHECK] = ctl[S.C_NODES] + S.CHECK_EVERY
                r = S.negamax(0, gain - beta, gain - beta + 1, depth - 1, 0, 0, 0, ws, ctl, tt, dbv, dbm)
                with lock:
                    if ctl[S.C_ABORT] != 0:
                        return
                    v = gain - int(r)
                    if v > state["best"]:
                        state["best"], state["move"] = v, code
                    if v >= beta:  # the root fails high: the other searches are moot
                        state["stop"] = True
                        for x in ctls:
                            x[S.C_ABORT] = 1

        threads = [threading.Thread(target=work, args=(t,), daemon=True) for t in range(1, len(ctls))]
        for th in threads:
            th.start()
        work(0)
        for th in threads:
            th.join()
        for x in ctls:
            x[S.C_ABORT] = 0
        if self._aborted:
            for x in ctls:
                x[S.C_ABORT] = 1
        return state["best"], state["move"]

    def table_move(self, state: KalahState) -> KalahMove | None:
        """The table's move for ``state`` (None when the table has none, or it is not legal)."""
        game = self.game
        if state.finished or state.swap_allowed or bridge.root_flags(game, state) != 0:
            return None
        b = bridge.relative_board(state)
        n = game.rules.pits
        b[n] = 0
        b[2 * n + 1] = 0
        with self.lease() as (c, _, _):
            if int(b.sum()).bit_length() > c.bits:
                return None
            key = np.zeros(c.words, dtype=np.int64)
            code = int(S.table_move(b, self.ctl, c.tt, key))
        if code < 0:
            return None
        move = bridge.code_move(game, code)
        return move if move in game.legal_moves(state) else None

    def proven_bounds(self, state: KalahState) -> tuple[float, float]:
        """Bounds on the exact value of ``state`` for its mover that are already proved: the
        game's score when it is over, the database's value, a ``SOLVED`` table entry's
        bounds; else ``(-inf, inf)``.  No search."""
        game = self.game
        if state.finished:
            v = game.score(state, game.to_move(state))
            return v, v
        inf = float("inf")
        if state.swap_allowed or bridge.root_flags(game, state) != 0:
            return -inf, inf
        b = bridge.relative_board(state)
        n = game.rules.pits
        acc = int(b[n] - b[2 * n + 1])
        b[n] = 0
        b[2 * n + 1] = 0
        seeds = int(b.sum())
        with self.lease() as (c, dbv, dbm):
            if self.ctl[S.C_DBK] >= seeds:
                v = acc + int(
                    endgame.db_get(
                        dbv, dbm[0, seeds] + rank(b, n, seeds, dbm[1:]), seeds, endgame.value_bits(self.ctl[S.C_DBK])
                    )
                )
                return v, v
            if seeds.bit_length() > c.bits:
                return -inf, inf
            key = np.zeros(c.words, dtype=np.int64)
            lo, hi, depth = S.table_bounds(b, self.ctl, c.tt, key)
        if depth != S.SOLVED:
            return -inf, inf
        return (acc + lo if lo > -S.BIG else -inf), (acc + hi if hi < S.BIG else inf)

    def line(self, first: KalahMove, limit: int = 80) -> tuple:
        """The principal line: ``first``, then the table's moves while they are legal."""
        game = self.game
        line = [first]
        state = game.apply(self.state, first)
        while len(line) < limit:
            move = self.table_move(state)
            if move is None:
                break
            line.append(move)
            state = game.apply(state, move)
        return tuple(line)


_warm = False
_prepared: set = set()
_prepare_lock = threading.Lock()


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) the search kernels: tiny searches on
    a 1-pit board touching every kernel the engine calls.  Idempotent."""
    global _warm
    if _warm:
        return
    game = Kalah(KalahRules(pits=1, seeds=3))
    state = game.initial_state()
    searcher = Searcher(game, state, use_db=False, megabytes=0.01)
    g, code, _, _ = searcher.run(1, 0)
    searcher.at_least(g + searcher.acc)
    searcher.line(bridge.code_move(game, code))
    searcher.proven_bounds(state)
    searcher.root_tasks()
    S.table_forget_estimates(searcher.ctx.tt, searcher.ctx.words)
    bridge.kernel_moves(game, state)
    with _pool.lock:  # the warm-up's context is of no further use
        _pool.contexts.pop(searcher.ctx.key, None)
    _warm = True


def _prepare_key(game: Kalah) -> tuple:
    return bridge.play_key(game.rules), sum(game.initial_state().board)


def is_prepared(game: Kalah) -> bool:
    """Whether the engine is ready to search ``game`` at once: kernels loaded, and this rule
    set's table and endgame database in memory (see :func:`prepare`)."""
    if not _warm or _prepare_key(game) not in _prepared:
        return False
    with _pool.lock:
        ctx = _pool.contexts.get(bridge.play_key(game.rules))
    return ctx is not None and not ctx.evicted and ctx.db_checked


def prepare(game: Kalah, *, notice: Callable[[], None] | None = None, notice_after: float = 0.5) -> float:
    """Make the engine ready for ``game``: load (the first time on a machine, compile) the
    kernels, and make this rule set's table and endgame database (loaded from the cache,
    or built).  Idempotent; returns the seconds it took (0.0 when already ready).

    Searches call it before their clock starts, so that a time budget is spent searching;
    a user interface may call it first to say "preparing the engine (once)…", or pass
    ``notice``, called once if the preparation is still running after ``notice_after``
    seconds.  The work runs in a worker thread (:func:`run_job`): Ctrl-C interrupts the
    wait at once."""
    if not isinstance(game, Kalah):
        raise BadInput(f"the engine plays Kalah only, not {game!r}")
    if is_prepared(game):
        return 0.0
    start = time.perf_counter()

    def work(job: Job) -> None:
        with _prepare_lock:
            warm_up()
            state = game.initial_state()
            total = sum(state.board)
            bridge.check_seeds(game.rules.pits, total)
            ctx = context(game, total)
            database(game, ctx, False, None, job.stopped)
            job.check()
            _prepared.add(_prepare_key(game))

    told = [notice is None]

    def tick(job: Job) -> None:
        if notice is not None and not told[0] and time.perf_counter() - start >= notice_after:
            told[0] = True
            notice()

    run_job(work, tick=tick)
    return time.perf_counter() - start


def _swap_choice(game: Kalah, state: KalahState, result: SearchResult) -> SearchResult:
    """At a position where the pie rule's swap is legal: swap when the seat to move is worth
    less than nothing (the swapper then owns the other seat and scores minus its value)."""
    if not state.swap_allowed or result.move is None or -result.value <= result.value:
        return result
    return SearchResult(SWAP, -result.value, (SWAP,) + result.line, result.nodes, result.depth, result.algorithm)


def best_move(
    game: Kalah,
    state: KalahState,
    seconds: float = 1.0,
    *,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    clock: Callable[[], float] | None = None,
    use_db: bool = True,
    hw: int = DEFAULT_HW,
    evaluation: str | None = None,
) -> SearchResult:
    """The engine's move: iterative deepening MTD(f) within ``seconds`` (single-threaded),
    counted after :func:`prepare` (loading kernels and databases is not part of it).

    ``value`` is the final margin expected for the player to move (store minus store);
    it is exact when ``algorithm`` is ``"engine(exact)"`` (the search met no depth
    leaf), else a depth-limited estimate (``"engine(depth d)"``).  The search stops
    cleanly when the budget ends (``seconds``, or ``max_nodes`` nodes, or
    ``max_depth`` turns) and returns the last complete iteration's move.  ``clock``
    replaces ``time.perf_counter`` for the between-iteration checks (then only
    ``max_nodes`` stops an iteration midway).  ``evaluation`` (a spec of
    :mod:`mancala.evaluation.terms` with a positive store weight, e.g. ``store:1,extra:0.5``)
    replaces the depth leaves' default estimate (the row difference times ``hw / 4``);
    exact values do not depend on it.
    """
    if evaluation is not None:
        engine_weights(evaluation)  # a bad spec is one line before any work
    if state.finished:
        return SearchResult(None, game.score(state, game.to_move(state)), (), 0, 0, "engine(exact)")
    bridge.relative_board(state)  # the engine's limits, checked before any work
    prepare(game)  # loading kernels and databases does not count against the budget
    return run_job(lambda job: _deepen(job, game, state, seconds, max_depth, max_nodes, clock, use_db, hw, evaluation))


def _deepen(
    job: Job,
    game: Kalah,
    state: KalahState,
    seconds: float,
    max_depth: int | None,
    max_nodes: int | None,
    clock: Callable[[], float] | None,
    use_db: bool,
    hw: int,
    evaluation: str | None = None,
) -> SearchResult:
    """:func:`best_move`'s iterative deepening, in a job's worker thread."""
    real_clock = clock is None
    clock = clock or time.perf_counter
    searcher = Searcher(game, state, use_db=use_db, hw=hw, job=job, evaluation=evaluation)
    start = clock()
    deadline = start + seconds
    limit_depth = max_depth if max_depth is not None else FULL_DEPTH
    best: tuple | None = None
    guess = 0
    depth = 0
    while depth < limit_depth:
        depth += 1
        if best is not None:
            elapsed = clock() - start
            if elapsed >= seconds or (max_depth is None and elapsed > 0.6 * seconds):
                break
        nodes_left = None
        if max_nodes is not None:
            nodes_left = max_nodes - searcher.nodes
            if best is not None and nodes_left <= 0:
                break
        first = best is None
        g, code, complete, exact = searcher.run(
            depth, guess, None if first else nodes_left, 0.0 if (first or not real_clock) else deadline
        )
        if not complete:
            break
        guess = g
        best = (g, code, exact, depth)
        if exact:
            break
    assert best is not None  # depth 1 always completes
    g, code, exact, depth = best
    move = bridge.code_move(game, code)
    value = searcher.acc + g
    result = SearchResult(
        move, value, searcher.line(move), searcher.nodes, depth, "engine(exact)" if exact else f"engine(depth {depth})"
    )
    return _swap_choice(game, state, result)
