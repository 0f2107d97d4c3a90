"""The engine kit: the plumbing our numba engines share, written once.

* the control array's common slots (nodes, budget, abort, root move, table switch) and the
  budget check a node makes (:func:`spend_node`: a node limit, a deadline read from compiled
  code every :data:`CHECK_EVERY` nodes);
* Zobrist keys (:func:`zobrist`, made once a process by :func:`shared_zobrist`) and a
  transposition table of three arrays (key, value, packed depth / bound flag / move:
  :func:`probe`, :func:`store`, :class:`TableSearcher`), the one searcher a process keeps
  from move to move (:class:`KeptSearchers`);
* move ordering by score, stable (:func:`order_by_score`);
* the iterative-deepening driver over a fixed-depth search (:func:`deepen`);
* running compiled work in a worker thread while the caller's thread waits, so that
  Ctrl-C lands at once (:func:`run_watched`);
* rules encodings compiled once per rule set (:func:`once_per_rule_set`).

The Bao and Oware searches use all of it; the Kalah engine (its own table layout and MTD(f)
driver) uses the watched worker.  Kernels call these helpers from compiled code (numba
inlines them), so sharing them costs no speed."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Generic, Iterator, TypeVar

import numba
import numpy as np
from numba import njit

from mancala.errors import BadInput

T = TypeVar("T")

# the control array's common slots (an engine's own slots follow)
C_NODES = 0  # nodes visited (root included)
C_HEUR = 1  # leaves scored by the heuristic (unchanged over a search: its value is exact)
C_ABORT = 2  # 1 once the node limit or the deadline is reached (or set from outside)
C_LIMIT = 3  # node limit (0: none)
C_CHECK = 4  # node count at which to look at the clock next
C_ROOTMOVE = 5  # the root's best move
C_USE_TT = 6  # 1: use the transposition table (0: plain alpha-beta, for tests)
#: the first slot an engine may use for its own controls
C_OWN = 7
#: nodes between two looks at the clock
CHECK_EVERY = 1024

# table entry flags
EXACT, LOWER, UPPER = 0, 1, 2
#: set on an entry whose value rests on a heuristic leaf (not exact)
HEUR_BIT = 4


def once_per_rule_set(encode: Callable[..., T]) -> Callable[..., T]:
    """Cache a rules encoding by its rule set (frozen, hashable): each rule set is encoded
    once a process and the array carried (callers read it, never write it)."""
    return lru_cache(maxsize=64)(encode)


# --- compiled helpers ----------------------------------------------------------------------


@njit(cache=True)
def now() -> float:
    """``time.perf_counter()`` from compiled code."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True)
def zobrist(seed, cells, values):
    """Random 64-bit keys, one per (cell, value below ``values``), the same for a seed."""
    np.random.seed(seed)
    z = np.zeros((cells, values), dtype=np.uint64)
    for f in range(cells):
        for v in range(values):
            hi = np.uint64(np.random.randint(0, 1 << 31))
            mid = np.uint64(np.random.randint(0, 1 << 31))
            lo = np.uint64(np.random.randint(0, 1 << 31))
            z[f, v] = (hi << np.uint64(33)) ^ (mid << np.uint64(16)) ^ lo
    return z


@lru_cache(maxsize=None)
def shared_zobrist(seed: int, cells: int, values: int) -> np.ndarray:
    """The Zobrist keys of ``seed`` (:func:`zobrist`), made once a process and shared by
    every searcher of an engine (an engine passes its own seed)."""
    return zobrist(seed, cells, values)


@njit(cache=True)
def spend_node(ctl, deadline):
    """Count a node; True once the search must stop: its node limit (``ctl[C_LIMIT]``) or
    ``deadline`` (``perf_counter`` seconds, 0: none) is reached, or it was aborted."""
    ctl[C_NODES] += 1
    if ctl[C_NODES] >= ctl[C_CHECK]:
        ctl[C_CHECK] = ctl[C_NODES] + CHECK_EVERY
        if (ctl[C_LIMIT] > 0 and ctl[C_NODES] >= ctl[C_LIMIT]) or (deadline > 0.0 and now() > deadline):
            ctl[C_ABORT] = 1
    return ctl[C_ABORT] != 0


@njit(cache=True)
def start_root(ctl):
    """Ready the control slots for a search from the root (the node count goes on)."""
    ctl[C_ROOTMOVE] = -1
    ctl[C_ABORT] = 0
    ctl[C_CHECK] = ctl[C_NODES] + 1


@njit(cache=True)
def probe(tkey, tval, tdat, h, ply, depth, alpha, beta, ctl):
    """Look up key ``h``: (slot, the stored move or -1, whether the stored bound settles the
    node searched ``depth`` more plies within ``alpha..beta``, its value).  A settling entry
    resting on a heuristic leaf counts one in ``ctl[C_HEUR]``; the root never settles."""
    idx = np.int64(h & np.uint64(tkey.shape[0] - 1))
    if tkey[idx] != h:
        return idx, -1, False, 0.0
    dat = tdat[idx]
    move = (dat >> 16) - 1
    if ply > 0 and (dat & 255) >= depth:
        flag = (dat >> 8) & 3
        v = tval[idx]
        if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
            if (dat >> 8) & HEUR_BIT:
                ctl[C_HEUR] += 1
            return idx, move, True, v
    return idx, move, False, 0.0


@njit(cache=True)
def store(tkey, tval, tdat, idx, h, depth, alpha, beta, best, move, heuristic):
    """Store a fail-soft result in slot ``idx``: ``best`` searched ``depth`` plies within
    ``alpha..beta`` (a bound outside it), ``move`` the best, ``heuristic`` whether a
    heuristic leaf was met."""
    flag = EXACT
    if best <= alpha:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    if heuristic:
        flag |= HEUR_BIT
    tkey[idx] = h
    tval[idx] = best
    tdat[idx] = min(depth, 255) | (flag << 8) | ((move + 1) << 16)


@njit(cache=True)
def improve(v, move, best, best_move, a, ply, ctl):
    """A fail-soft node's bookkeeping after searching ``move`` (value ``v``): (best value,
    best move, raised lower bound ``a``); a new best at the root is left in
    ``ctl[C_ROOTMOVE]`` (what a stopped search still plays)."""
    if v > best:
        best = v
        best_move = move
        if ply == 0:
            ctl[C_ROOTMOVE] = move
    if best > a:
        a = best
    return best, best_move, a


@njit(cache=True)
def order_by_score(scores, count):
    """The indices ``0..count-1`` by ``scores``, highest first; an insertion sort, stable:
    equal scores keep the generator's order (the reference's)."""
    order = np.empty(count, dtype=np.int64)
    for k in range(count):
        order[k] = k
    for a in range(1, count):
        x = order[a]
        b = a - 1
        while b >= 0 and scores[order[b]] < scores[x]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = x
    return order


# --- the Python side -----------------------------------------------------------------------


class TableSearcher:
    """A searcher's arrays: a transposition table of ``entries`` (a power of two; key,
    value, packed data: 24 bytes each) and the control array of ``controls`` slots."""

    def __init__(self, entries: int, controls: int, use_table: bool = True) -> None:
        if entries & (entries - 1):
            raise BadInput(f"table entries must be a power of two, got {entries}")
        self.tkey = np.zeros(entries, dtype=np.uint64)
        self.tval = np.zeros(entries, dtype=np.float64)
        self.tdat = np.zeros(entries, dtype=np.int64)
        self.ctl = np.zeros(controls, dtype=np.int64)
        self.ctl[C_USE_TT] = int(use_table)
        #: the endgame table the kept searcher's entries were found with (:class:`KeptSearchers`)
        self.kept_table: Any = None

    def use_table(self, table: Any) -> None:
        """Value positions below the root by ``table``, an endgame table of the engine's
        (None: none).  An engine with tables overrides this; one without takes None only."""
        if table is not None:
            raise BadInput("this engine reads no endgame table")

    @property
    def nodes(self) -> int:
        """Nodes visited so far (every search of this searcher)."""
        return int(self.ctl[C_NODES])

    def table_move(self, h: np.uint64) -> int:
        """The move stored for key ``h`` (-1: no entry)."""
        idx = int(h & np.uint64(len(self.tkey) - 1))
        return int(self.tdat[idx] >> 16) - 1 if self.tkey[idx] == h else -1

    def watched(self, kernel: Callable[[], T]) -> T:
        """``kernel()``, a search on this searcher's control array, run by :func:`run_watched`:
        Ctrl-C lands in this thread, stops the search (``ctl[C_ABORT]``) and is raised here as
        ``KeyboardInterrupt``.  A search with a deadline reads the clock through :func:`now`, a
        call back into Python: a Ctrl-C arriving in its own thread would turn into
        ``SystemError: ... returned a result with an exception set``."""
        return run_watched(kernel, lambda: self.ctl.__setitem__(C_ABORT, 1), name="mancala-search")


S = TypeVar("S", bound=TableSearcher)


class KeptSearchers(Generic[S]):
    """The one searcher a process keeps for an engine (``make(game, weights)`` makes one),
    its transposition table kept from search to search: keys hold the whole position and
    the ply, so an entry of an earlier move is still right.  One per process (a table is
    tens of MB): a searcher of other rules or weights replaces it; its entries are emptied
    when the endgame table its search reads changes.  A thread that finds it in use gets a
    fresh searcher."""

    def __init__(self, make: Callable[[Any, Any], S]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._kept: dict[tuple, S] = {}

    @contextmanager
    def hold(self, game: Any, weights: Any, table: Any = None) -> Iterator[S]:
        """The kept searcher of ``game``'s rules and ``weights``, reading ``table``, for the
        length of the ``with`` block."""
        if not self._lock.acquire(blocking=False):
            fresh = self._make(game, weights)
            fresh.use_table(table)
            yield fresh
            return
        try:
            key = (game.rules, weights)
            searcher = self._kept.get(key)
            if searcher is None:
                self._kept.clear()
                searcher = self._kept[key] = self._make(game, weights)
                searcher.kept_table = table
            elif searcher.kept_table is not table:
                searcher.tkey[:] = 0
                searcher.kept_table = table
            searcher.use_table(table)
            yield searcher
        finally:
            self._lock.release()


#: one fixed-depth search: ``run(depth, deadline, node limit, first move) -> (value, best
#: move, complete, exact)``
FixedDepth = Callable[[int, float, int, int], tuple[float, int, bool, bool]]


def deepen(
    run: FixedDepth,
    nodes: Callable[[], int],
    seconds: float | None,
    max_depth: int,
    max_nodes: int | None,
    clock: Callable[[], float] = time.perf_counter,
    *,
    partial: bool = False,
) -> tuple[float, int, int, bool]:
    """Iterative deepening: ``run`` at depth 1, 2, ... up to ``max_depth`` while the budget
    lasts (``seconds`` by ``clock``, ``max_nodes`` by ``nodes()``; None: no limit), each
    depth given the last best move to search first.  Returns (value, move, depth, exact) of
    the last complete depth (depth 1 always completes); stops early once a depth's value is
    exact.  ``partial``: a depth stopped by the budget may still name a move (one it proved
    better than the last best, searched first): play that one."""
    start = clock()
    nodes_at_start = nodes()
    best: tuple[float, int, int, bool] | None = None
    for depth in range(1, max_depth + 1):
        deadline = 0.0
        limit = 0
        if best is not None:
            if seconds is not None:
                if clock() - start >= seconds:
                    break
                deadline = time.perf_counter() + (seconds - (clock() - start))
            if max_nodes is not None:
                limit = nodes_at_start + max_nodes
                if nodes() >= limit:
                    break
        value, move, complete, exact = run(depth, deadline, limit, best[1] if best else -1)
        if not complete:
            if partial and best is not None and move >= 0:
                best = (best[0], move, best[2], best[3])
            break
        best = (value, move, depth, exact)
        if exact:
            break
    assert best is not None  # depth 1 always completes
    return best


def run_watched(
    work: Callable[[], T],
    stop: Callable[[], None],
    *,
    name: str = "mancala-engine",
    watch: Callable[[], float] | None = None,
    grace: float | None = None,
) -> T:
    """Run ``work()`` in a worker thread while this thread waits (kernels release the GIL and
    never call back into Python, so signals land here at once) and return its result (its
    exception is raised here).  ``watch()``, called before each wait while the worker runs,
    returns how long to wait (default 0.05 s).  On an exception here (Ctrl-C), ``stop()``
    the worker and re-raise: once ``grace`` seconds were waited for it to end, or (None)
    calling ``stop()`` until it ends (a search starting meanwhile clears its abort flag)."""
    box: dict = {}

    def target() -> None:
        try:
            box["result"] = work()
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = e

    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05 if watch is None else watch())
    except BaseException:
        stop()
        if grace is not None:
            thread.join(grace)
        while grace is None and thread.is_alive():
            stop()
            thread.join(0.01)
        raise
    if "error" in box:
        raise box["error"]
    return box["result"]
