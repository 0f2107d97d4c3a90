"""The Kalah engine's memory: one context a rule set (transposition table, stacks, endgame
database), held in the process's pool within one memory bound, least recently used
contexts dropped first."""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from mancala.engine import bridge, endgame, pages
from mancala.engine import search as S
from mancala.errors import BadInput
from mancala.games.kalah import Kalah

#: default transposition table budget in megabytes (``$MANCALA_TT_MB`` overrides)
DEFAULT_TT_MB = 64


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
    #: look in the cache again for a larger database before the next search (a background
    #: build finished one: :func:`recheck_databases`); the engine stays prepared meanwhile
    db_recheck: bool = False
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
        if not 0 < mb < math.inf:
            raise BadInput(f"$MANCALA_MEMORY_MB must be more than 0 and finite, got {env!r}")
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


def held(game: Kalah) -> Context | None:
    """The pool's context of ``game``'s play rules, if it holds one."""
    with _pool.lock:
        return _pool.contexts.get(bridge.play_key(game.rules))


def touch(ctx: Context) -> None:
    """Mark ``ctx`` as the most recently used (the last the pool drops)."""
    with _pool.lock:
        if ctx.key in _pool.contexts:
            _pool.contexts.move_to_end(ctx.key)


def drop(ctx: Context) -> None:
    """Take ``ctx`` out of the pool (a context of no further use)."""
    with _pool.lock:
        _pool.contexts.pop(ctx.key, None)


def drop_all() -> None:
    """Drop every context (tables and databases in memory) and the memory bound set by
    :func:`set_memory_limit`."""
    with _pool.lock:
        for ctx in list(_pool.contexts.values()):
            ctx.evicted = True
        _pool.contexts.clear()
        _pool.limit_mb = None


def database_room() -> int:
    """Bytes of endgame database the memory bound allows one rule set (its 1/4 share)."""
    return memory_limit() // 4


def proof_seeds(game: Kalah, seeds: int) -> int:
    """K of the endgame database a proof of a position of ``game`` with ``seeds`` seeds in the
    pits uses (:func:`~mancala.engine.endgame.solve_seeds` for its rules, within the
    databases' share of the memory bound): the one place ``solve``, ``prove``, the split
    proofs and the distributed proofs ask."""
    return endgame.solve_seeds(game.rules.pits, seeds, bridge.play_key(game.rules), database_room())


def database(
    game: Kalah, ctx: Context, progress: bool = False, seeds: int | None = None, cancel: threading.Event | None = None
) -> endgame.Database | None:
    """The endgame database for ``game``'s rules (loaded or built once per process; by default
    the players' K, :func:`~mancala.engine.endgame.play_seeds`, or the largest database for
    these rules already in the cache that fits, :func:`~mancala.engine.endgame.cached_seeds`;
    ``seeds`` asks for at least that K), or None when the rules have none (choice of direction) or
    ``$MANCALA_ENDGAME_SEEDS`` is negative.  K is lowered when the database would not fit
    in its share of the memory bound (:func:`memory_limit`); ``cancel`` stops a build."""
    if ctx.db_checked and not ctx.db_recheck and (seeds is None or ctx.db is None or ctx.db.seeds >= seeds):
        return ctx.db
    ctx.db_recheck = False
    if game.rules.positions_can_repeat:
        ctx.db_checked = True
        return None
    n = game.rules.pits
    if seeds is None:
        total = sum(game.initial_state().board)
        k = played = endgame.players_seeds(n, total)
        if k >= 0 and os.environ.get("MANCALA_ENDGAME_SEEDS") is None:
            # a larger database someone built (``mancala db build --game kalah --seeds K``):
            # proofs near the end come sooner, so fewer points are lost there
            k = max(k, min(endgame.cached_seeds(ctx.key, n, database_room()), total))
    else:
        k = played = seeds
    if k < 0:
        ctx.db_checked = True
        return None
    with _pool.lock:
        room = _fit_databases(endgame.nbytes(n, k), ctx) + ctx.database_bytes()
    while k > 0 and endgame.nbytes(n, k) > room:
        # a cached database that no longer fits falls back to the players' K, not to a
        # size in between that would have to be built
        k = played if played < k else k - 1
    db = endgame.cached(ctx.key, n, k) if k > played and (ctx.db is None or ctx.db.seeds < k) else None
    if k > played and db is None:
        k = played  # the cached one is damaged or gone since: never a long build in a move's time
    if ctx.db is not None and ctx.db.seeds >= k:
        ctx.db_checked = True
        return ctx.db
    if db is None:
        db = endgame.obtain(ctx.key, bridge.rules_array(game.rules), k, progress, cancel)
    ctx.db = db
    ctx.dbm = index_tables(db)
    ctx.db_checked = True
    return db


def recheck_databases() -> None:
    """Make every context look in the cache again before its next search for a database
    larger than the one it holds (a background build finished one:
    :func:`mancala.engine.record.reload_tables`); tables of positions are kept."""
    with _pool.lock:
        for ctx in _pool.contexts.values():
            ctx.db_recheck = True


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
