"""The Kalah engine's searcher: one root position wired to the kernels (MTD(f) iterations,
parallel solving passes, the table's lines and bounds), its context leased from the pool
(:mod:`mancala.engine.tables`)."""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager

import numpy as np

from mancala.engine import bridge, endgame, leaf_eval, tables
from mancala.engine import search as S
from mancala.engine.jobs import Job, current_job
from mancala.engine.kernels import EXTRA, OVER, PASS, gen_moves, make_move, rank
from mancala.engine.kernels import R_SIZE as K_RULES
from mancala.engine.tables import Context, context, database
from mancala.errors import BadInput, whole_number
from mancala.evaluation.terms import engine_weights
from mancala.games.kalah import Kalah, KalahMove, KalahState

#: remaining depth that means "to the end of the game"
FULL_DEPTH = 10_000
#: evaluation weight (quarters) of the seeds in each row at depth leaves
DEFAULT_HW = 1
#: enhanced transposition cut-offs are tried at nodes with more than K + this many seeds
DEFAULT_ETC = 1000
#: the table is skipped at nodes with at most K + this many seeds (their children mostly hit
#: the database); solves use 3 (:data:`mancala.engine.solver.SOLVE_TTMIN`)
DEFAULT_TTMIN = 1

_NO_DB = (np.zeros(2, dtype=np.uint8), np.zeros((2, 2), dtype=np.int64))


class Searcher:
    """One root position wired to the kernels: run MTD(f) iterations and read the table.

    ``game`` is a Kalah game: the engine's entry points check it at their door
    (:func:`mancala.engine.engine.prepare`, which they call first).

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
        self.job = job if job is not None else current_job()
        self._use_db, self._progress, self._db_seeds, self._megabytes = use_db, progress, db_seeds, megabytes
        ctl = np.zeros(S.C_SIZE, dtype=np.int64)
        ctl[:K_RULES] = bridge.rules_array(game.rules)
        ctl[S.C_HW] = hw
        self.estimates = self._set_evaluation(ctl, evaluation, hw, sum(state.board))
        ctl[S.C_ETC] = whole_number(os.environ.get("MANCALA_ETC", str(DEFAULT_ETC)), "$MANCALA_ETC")
        self._ttmin = whole_number(
            os.environ.get("MANCALA_TTMIN", str(DEFAULT_TTMIN if ttmin is None else ttmin)), "$MANCALA_TTMIN"
        )
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
            if not c.evicted and (not self._use_db or (c.db_checked and not c.db_recheck)):
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
            tables.touch(c)
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
        g, move, _, _, complete, exact = self._passes(tasks, guess, threads, depth, None)
        return g, move, complete, exact

    def window(
        self, guess: int, alpha: int, beta: int, threads: int, known: tuple[int, int] | None = None
    ) -> tuple[int, int]:
        """Full-depth MTD(f) passes from ``guess`` until the root's value (relative) is known
        against the window ``alpha``..``beta`` (both excluded): the bounds ``(lo, hi)`` proved,
        equal when the value is exact, else ``hi <= alpha`` or ``lo >= beta``.  A split proof's
        sub-proof needs no more (:mod:`mancala.engine.split_proof`): a sibling's value already
        bounds what this position can change.  ``known``: bounds proved before (a journal's),
        the passes' start.  The passes are split over ``threads`` as :meth:`run_parallel`
        splits them, or are single null-window searches under a root flag or with one thread."""
        lo, hi = known if known is not None else (-S.BIG, S.BIG)
        tasks = self.root_tasks()
        if threads >= 2 and tasks is not None and sum(t[2] is not None for t in tasks) >= 2:
            _, _, lo, hi, complete, _ = self._passes(tasks, guess, threads, FULL_DEPTH, (alpha, beta), (lo, hi))
            if not complete:  # pragma: no cover - only a stopped job aborts, and that raises
                raise KeyboardInterrupt
            return lo, hi
        g = guess
        while lo < hi and lo < beta and hi > alpha:
            b = min(max(g if g > lo + 1 else lo + 1, alpha + 1), beta, hi)
            g = self.null_window(b)
            if g < b:
                hi = g
            else:
                lo = g
        return lo, hi

    def _passes(
        self,
        tasks: list,
        guess: int,
        threads: int,
        depth: int,
        window: tuple[int, int] | None,
        known: tuple[int, int] = (-S.BIG, S.BIG),
    ) -> tuple[int, int, int, int, bool, bool]:
        """:meth:`run_parallel`'s and :meth:`window`'s passes: (value, move, lo, hi, complete,
        exact), the passes stopping once the bounds meet or, with a ``window``, decide it."""
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
            lo, hi = known
            alpha, top = window if window is not None else (-S.BIG, S.BIG)
            g = guess
            move = -1
            last = -1
            c.dirty = True
            while lo < hi and lo < top and hi > alpha:
                beta = g if g > lo + 1 else lo + 1
                if window is not None:
                    beta = min(max(beta, alpha + 1), top, hi)
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
            return g, move, lo, hi, False, False
        if move < 0:
            move = last
        exact = all(int(x[S.C_HEUR]) == h for x, h in zip(ctls, heur0))
        return int(g), int(move), int(lo), int(hi), True, exact

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
