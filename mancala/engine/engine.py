"""The engine's Python side: per-rules tables, iterative deepening, solving, analysis."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from mancala.engine import bridge, endgame
from mancala.engine import search as S
from mancala.engine.kernels import R_SIZE as K_RULES
from mancala.engine.kernels import EXTRA, OVER, PASS, gen_moves, make_move, rank
from mancala.errors import BadInput
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahState, Sowing
from mancala.search.core import SearchResult

#: remaining depth that means "to the end of the game"
FULL_DEPTH = 10_000
#: default transposition table budget in megabytes (``$MANCALA_TT_MB`` overrides)
DEFAULT_TT_MB = 64
#: evaluation weight (quarters) of the seeds in each row at depth leaves
DEFAULT_HW = 1
#: enhanced transposition cut-offs are tried at nodes with more than K + this many seeds
DEFAULT_ETC = 1000
#: the table is skipped at nodes with at most K + this many seeds (their children mostly hit the database)
DEFAULT_TTMIN = 1


@dataclass
class Context:
    """Everything the kernels need for one set of play rules: table, database, stack."""

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

    def clear(self) -> None:
        """Forget every table entry (a fresh table is left untouched: its pages stay unmapped)."""
        if self.dirty:
            self.tt.fill(0)
            self.dirty = False

    def helper(self, i: int) -> np.ndarray:
        """Helper thread ``i``'s stack, made on demand."""
        while len(self.helpers) <= i:
            self.helpers.append(np.zeros_like(self.ws))
        return self.helpers[i]


_contexts: dict[tuple, Context] = {}


def _table_entries(words: int, megabytes: float) -> int:
    per = 8 * (words + 1)
    size = 2
    while size * 2 * per <= megabytes * 1024 * 1024:
        size *= 2
    return size


def context(game: Kalah, seeds: int, megabytes: float | None = None) -> Context:
    """The context for ``game``'s play rules, able to key positions of up to ``seeds`` seeds
    with a table of at least ``megabytes`` (made, or grown, on demand; kept for the
    process's life).  ``$MANCALA_TT_MB`` sets the default table size (64 MB)."""
    key = bridge.play_key(game.rules)
    ctx = _contexts.get(key)
    bits = max(1, int(seeds).bit_length())
    n = game.rules.pits
    per = 64 // bits
    words = -(-2 * n // per)
    mb = float(os.environ.get("MANCALA_TT_MB", DEFAULT_TT_MB)) if megabytes is None else megabytes
    size = _table_entries(words, mb)
    if ctx is not None and ctx.bits >= bits and ctx.tt.shape[0] >= size:
        return ctx
    new = Context(key=key, bits=bits, words=words,
                  tt=np.zeros((size, words + 1), dtype=np.uint64),
                  ws=np.zeros((S.MAXPLY + 2, S.workspace_columns(n, words)), dtype=np.int64))
    if ctx is not None:
        new.db, new.dbm, new.db_checked = ctx.db, ctx.dbm, ctx.db_checked
    _contexts[key] = new
    return new


def solve_threads() -> int:
    """Threads for a solve's full-depth passes: ``$MANCALA_SOLVE_THREADS``, else the cores
    this process may use, at most 2."""
    return endgame.thread_count("MANCALA_SOLVE_THREADS", 2)


def reset() -> None:
    """Drop every context (tables and databases in memory); mostly for tests."""
    _contexts.clear()


def database(game: Kalah, ctx: Context, progress: bool = False, seeds: int | None = None) -> endgame.Database | None:
    """The endgame database for ``game``'s rules (loaded or built once per process; ``seeds``
    asks for at least that K), or None when the rules have none (choice of direction) or
    ``$MANCALA_ENDGAME_SEEDS`` is negative."""
    if ctx.db_checked and (seeds is None or ctx.db is None or ctx.db.seeds >= seeds):
        return ctx.db
    ctx.db_checked = True
    if game.rules.sowing is Sowing.CHOICE:
        return None
    k = endgame.default_seeds(game.rules.pits) if seeds is None else seeds
    if k < 0:
        return None
    db = endgame.obtain(ctx.key, bridge.rules_array(game.rules), k, progress)
    ctx.db = db
    ctx.dbm = index_tables(db)
    return db


def index_tables(db: endgame.Database) -> np.ndarray:
    """The kernels' ``dbm``: level offsets in row 0, composition counts below."""
    k = db.seeds
    parts = db.comp.shape[0]
    dbm = np.zeros((parts + 1, k + 2), dtype=np.int64)
    dbm[0, :] = db.offsets
    dbm[1:, :k + 1] = db.comp
    return dbm


_NO_DB = (np.zeros(1, dtype=np.int8), np.zeros((2, 2), dtype=np.int64))


class Searcher:
    """One root position wired to the kernels: run MTD(f) iterations and read the table."""

    def __init__(self, game: Kalah, state: KalahState, *, use_db: bool = True, hw: int = DEFAULT_HW,
                 progress: bool = False, db_seeds: int | None = None, megabytes: float | None = None) -> None:
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
        self.ctx = context(game, int(root.sum()), megabytes)
        self.db = database(game, self.ctx, progress, db_seeds) if use_db else None
        self.root = root
        self.flags = bridge.root_flags(game, state)
        ctl = np.zeros(S.C_SIZE, dtype=np.int64)
        ctl[:K_RULES] = bridge.rules_array(game.rules)
        ctl[S.C_HW] = hw
        ctl[S.C_DBK] = self.db.seeds if self.db is not None else -1
        ctl[S.C_WORDS] = self.ctx.words
        ctl[S.C_BITS] = self.ctx.bits
        ctl[S.C_ETC] = int(os.environ.get("MANCALA_ETC", DEFAULT_ETC))
        ctl[S.C_TTMIN] = int(os.environ.get("MANCALA_TTMIN", DEFAULT_TTMIN)) if self.db is not None else -1 << 40
        self.ctl = ctl

    def run(self, depth: int, guess: int, node_limit: int | None = None,
            deadline: float = 0.0) -> tuple[int, int, bool, bool]:
        """One MTD(f) iteration: (relative value, move code, complete, exact)."""
        c = self.ctx
        ctl = self.ctl
        ctl[S.C_ABORT] = 0
        ctl[S.C_LIMIT] = (ctl[S.C_NODES] + node_limit) if node_limit is not None else (1 << 62)
        ctl[S.C_CHECK] = min(ctl[S.C_NODES] + S.CHECK_EVERY, ctl[S.C_LIMIT])
        ctl[S.C_ROOTMOVE] = -1
        heur0 = int(ctl[S.C_HEUR])
        dbv, dbm = (self.db.values, c.dbm) if self.db is not None else _NO_DB
        with c.lock:
            c.dirty = True
            c.ws[0, :len(self.root)] = self.root
            g, move, complete = S.mtdf(guess, depth, self.flags, self.acc, c.ws, ctl, c.tt, dbv, dbm, deadline)
        return int(g), int(move), bool(complete), int(ctl[S.C_HEUR]) == heur0

    def at_least(self, target: int) -> int:
        """One full-depth null-window pass proving the root worth at least ``target``
        (absolute): the move that proves it, or -1 when it is worth less."""
        c = self.ctx
        ctl = self.ctl
        ctl[S.C_ABORT] = 0
        ctl[S.C_LIMIT] = 1 << 62
        ctl[S.C_CHECK] = ctl[S.C_NODES] + S.CHECK_EVERY
        ctl[S.C_ROOTMOVE] = -1
        dbv, dbm = (self.db.values, c.dbm) if self.db is not None else _NO_DB
        beta = target - self.acc
        with c.lock:
            c.dirty = True
            c.ws[0, :len(self.root)] = self.root
            v = S.negamax(0, beta - 1, beta, FULL_DEPTH, 0, self.flags, self.acc, c.ws, ctl, c.tt, dbv, dbm, 0.0)
        return int(ctl[S.C_ROOTMOVE]) if v >= beta else -1

    @property
    def nodes(self) -> int:
        """Nodes visited so far by this searcher (its helper threads included)."""
        return int(self.ctl[S.C_NODES]) + sum(int(c[S.C_NODES]) for c in self._helper_ctls)

    _helper_ctls: tuple = ()
    _aborted: bool = False

    def abort(self) -> None:
        """Stop the running search (every thread of it) as soon as possible."""
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

    def run_parallel(self, guess: int, threads: int) -> tuple[int, int, bool, bool]:
        """Full-depth MTD(f) like :meth:`run`, each null-window pass split over ``threads``
        threads by root move (extra-turn chains followed): each refutation is a separate
        null-window search of the opponent's position, handed to the next free thread.
        The threads share the table (a row torn between two writes reads as absent:
        :func:`search.table_probe`), each has its own stack and counters.  Falls back to
        :meth:`run` under a root flag, with one thread, or with one position to search."""
        tasks = self.root_tasks()
        if threads < 2 or tasks is None or sum(t[2] is not None for t in tasks) < 2:
            return self.run(FULL_DEPTH, guess)
        c = self.ctx
        self._aborted = False
        ctls = [self.ctl]
        stacks = [c.ws]
        for i in range(threads - 1):
            ctl = self.ctl.copy()
            ctl[S.C_NODES] = 0
            ctl[S.C_HEUR] = 0
            ctls.append(ctl)
            stacks.append(c.helper(i))
        self._helper_ctls = tuple(ctls[1:])
        heur0 = [int(x[S.C_HEUR]) for x in ctls]
        dbv, dbm = (self.db.values, c.dbm) if self.db is not None else _NO_DB
        lo, hi = -S.BIG, S.BIG
        g = guess
        move = -1
        last = -1
        with c.lock:
            c.dirty = True
            while lo < hi:
                beta = g if g > lo + 1 else lo + 1
                g, last = self._pass(tasks, beta, ctls, stacks, dbv, dbm)
                if self._aborted:
                    return g, move, False, False
                if g < beta:
                    hi = g
                else:
                    lo = g
                    move = last
        if move < 0:
            move = last
        exact = all(int(x[S.C_HEUR]) == h for x, h in zip(ctls, heur0))
        return int(g), int(move), True, exact

    def _pass(self, tasks, beta, ctls, stacks, dbv, dbm) -> tuple[int, int]:
        """One null-window pass at ``beta`` over the root tasks: (fail-soft value, move)."""
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
            tt, ws = self.ctx.tt, stacks[t]
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
                r = S.negamax(0, gain - beta, gain - beta + 1, FULL_DEPTH, 0, 0, 0, ws, ctl, tt, dbv, dbm, 0.0)
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
        if int(b.sum()).bit_length() > self.ctx.bits:
            return None
        key = np.zeros(self.ctx.words, dtype=np.int64)
        code = int(S.table_move(b, self.ctl, self.ctx.tt, key))
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
        if self.db is not None and seeds <= self.db.seeds:
            v = acc + int(self.db.values[self.ctx.dbm[0, seeds] + rank(b, n, seeds, self.ctx.dbm[1:])])
            return v, v
        if seeds.bit_length() > self.ctx.bits:
            return -inf, inf
        key = np.zeros(self.ctx.words, dtype=np.int64)
        lo, hi, depth = S.table_bounds(b, self.ctl, self.ctx.tt, key)
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


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) the search kernels: one tiny search
    on a 1-pit board.  Idempotent; a player may call it before its clock starts."""
    global _warm
    if _warm:
        return
    from mancala.games.kalah import KalahRules
    game = Kalah(KalahRules(pits=1, seeds=2))
    Searcher(game, game.initial_state(), use_db=False, megabytes=0.01).run(1, 0)
    _warm = True


def _swap_choice(game: Kalah, state: KalahState, result: SearchResult) -> SearchResult:
    """At a position where the pie rule's swap is legal: swap when the seat to move is worth
    less than nothing (the swapper then owns the other seat and scores minus its value)."""
    if not state.swap_allowed or result.move is None or -result.value <= result.value:
        return result
    return SearchResult(SWAP, -result.value, (SWAP,) + result.line, result.nodes, result.depth, result.algorithm)


def best_move(game: Kalah, state: KalahState, seconds: float = 1.0, *, max_depth: int | None = None,
              max_nodes: int | None = None, clock: Callable[[], float] | None = None,
              use_db: bool = True, hw: int = DEFAULT_HW) -> SearchResult:
    """The engine's move: iterative deepening MTD(f) within ``seconds`` (single-threaded).

    ``value`` is the final margin expected for the player to move (store minus store);
    it is exact when ``algorithm`` is ``"engine(exact)"`` (the search met no depth
    leaf), else a depth-limited estimate (``"engine(depth d)"``).  The search stops
    cleanly when the budget ends (``seconds``, or ``max_nodes`` nodes, or
    ``max_depth`` turns) and returns the last complete iteration's move.  ``clock``
    replaces ``time.perf_counter`` for the between-iteration checks (then only
    ``max_nodes`` stops an iteration midway).
    """
    if state.finished:
        return SearchResult(None, game.score(state, game.to_move(state)), (), 0, 0, "engine(exact)")
    real_clock = clock is None
    clock = clock or time.perf_counter
    start = clock()  # setup (loading kernels, a first database build) counts against the budget
    deadline = start + seconds
    warm_up()
    searcher = Searcher(game, state, use_db=use_db, hw=hw)
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
            depth, guess, None if first else nodes_left,
            0.0 if (first or not real_clock) else deadline)
        if not complete:
            break
        guess = g
        best = (g, code, exact, depth)
        if exact:
            break
    g, code, exact, depth = best
    move = bridge.code_move(game, code)
    value = searcher.acc + g
    result = SearchResult(move, value, searcher.line(move), searcher.nodes, depth,
                          "engine(exact)" if exact else f"engine(depth {depth})")
    return _swap_choice(game, state, result)
