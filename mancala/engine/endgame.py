"""Endgame databases: the exact value of every position with at most K seeds in the pits.

A position is its ``2n`` pit counts seen from the mover (stores never matter:
see :mod:`mancala.engine.search`).  Positions with ``s`` seeds are numbered by
their rank among all ``C(s+2n-1, 2n-1)`` ways to fill ``2n`` pits with ``s``
seeds (a combinatorial index, no gaps), after every smaller ``s``.  An entry's value
``v`` is the mover's final margin minus the current store difference: the mover ends
with ``a`` of the ``s`` seeds and ``v = 2a - s``, so ``a`` alone is stored, packed in
:func:`value_bits` bits (4 up to 15 seeds, 5 up to 31, else 8): a 22-seed database for
six pits is 343 MB instead of 548 MB as bytes.

A level ``s`` only depends on itself and smaller levels, and within a level
moves only push seeds towards the mover's store (a move that keeps every seed in
the pits cannot pass a store), so the positions of a level form an acyclic graph:
solved in order of decreasing weight (:func:`solve_shard_kernel`), each finds its
same-level children already solved, with no search.  The same argument splits a level into
shards that share no work (see "shards" below): threads, or a Ray cluster's workers, solve
them apart.  The choice-of-direction rule
breaks that argument, so no database is built for it.

Files live in ``$MANCALA_CACHE_DIR``, else ``$XDG_CACHE_HOME/mancala``, else
``~/.cache/mancala``; they are written atomically (temporary file then
``os.replace``) with a SHA-256 of the payload, and rebuilt when missing or corrupt.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
from numba import njit

from mancala import jsonread
from mancala.atomic import StagedFile
from mancala.engine import pages
from mancala.engine.kernels import (
    EXTRA,
    OVER,
    PASS,
    R_CAPTURE,
    R_CHOICE,
    R_EMPTY,
    R_END,
    R_PITS,
    board_seeds,
    composition_table,
    gen_moves,
    is_over,
    make_move,
    rank,
    sweep,
)
from mancala.errors import BadInput, whole_number

MAGIC = b"MANCALA-ENDGAME-3\n"
FORMAT = 3
#: a level's scratch entry not solved yet (the build keeps the level being solved as
#: signed bytes, then packs it)
UNKNOWN = -128
#: default budget of database entries when K is not given (small solves)
DEFAULT_ENTRIES = 1_000_000
#: the players' budget (:func:`play_seeds`): for Kalah(6,4) K = 16, 30 M entries, 19 MB on
#: disk, 1.3 s of one core to build once (:func:`mancala.engine.engine.prepare`, in the
#: background compile for standard Kalah; five pits K = 20, four 28).  It lets
#: ``best:nodes=2000000`` keep the exact value at all 5 of the positions where it dropped
#: points, K = 14 at 4, K = 10 at 1 (docs/engine.md, "Dropped points")
PLAY_ENTRIES = 31_000_000
MAX_K = 100


def cache_dir() -> Path:
    """Where databases are kept (see the module doc)."""
    env = os.environ.get("MANCALA_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "mancala"


def entries(pits: int, k: int) -> int:
    """Entries of a database of every position with at most ``k`` seeds in ``2*pits`` pits."""
    return comb(k + 2 * pits, 2 * pits)


@njit(cache=True)
def value_bits(k):
    """Bits per entry of a ``k``-seed database: the mover's share ``a`` of ``s <= k`` seeds
    needs 4 bits up to 15 seeds, 5 up to 31, else a byte (:data:`MAX_K` < 256)."""
    return 4 if k <= 15 else 5 if k <= 31 else 8


def nbytes(pits: int, k: int) -> int:
    """Bytes of a packed ``k``-seed database (one spare byte: :func:`db_get` reads two)."""
    return (entries(pits, k) * value_bits(k) + 7) // 8 + 1


@njit(cache=True)
def db_get(dbv, idx, s, bits):
    """The value of entry ``idx`` (a position with ``s`` seeds in the pits) of the packed
    database ``dbv`` with ``bits`` bits an entry."""
    bit = idx * bits
    i = bit >> 3
    w = np.int64(dbv[i]) | (np.int64(dbv[i + 1]) << 8)
    return 2 * ((w >> (bit & 7)) & ((1 << bits) - 1)) - s


@njit(cache=True)
def pack_level(cur, packed, start, s, bits):
    """Pack the solved level ``s``, or a run of its consecutive entries (signed values
    ``cur``, entries from ``start`` on), into ``packed`` (zero there before; one thread at a
    time: neighbouring entries share bytes).  Returns the
    number of entries that were not solved or not a possible value (0 when sound)."""
    bad = 0
    for j in range(cur.shape[0]):
        v = np.int64(cur[j])
        if v < -s or v > s or (v + s) % 2 != 0:
            bad += 1
            continue
        bit = (start + j) * bits
        i = bit >> 3
        w = ((v + s) // 2) << (bit & 7)
        packed[i] |= np.uint8(w & 0xFF)
        packed[i + 1] |= np.uint8(w >> 8)
    return bad


def default_seeds(pits: int, total: int | None = None, budget: int | None = None) -> int:
    """K for a board of ``pits`` a side: ``$MANCALA_ENDGAME_SEEDS`` if set, else the largest K
    within ``budget`` entries (default :data:`DEFAULT_ENTRIES`, a build of a fraction of a
    second), at most ``total``."""
    env = os.environ.get("MANCALA_ENDGAME_SEEDS")
    if env is not None:
        k = whole_number(env, "$MANCALA_ENDGAME_SEEDS")
    else:
        most = DEFAULT_ENTRIES if budget is None else budget
        k = 0
        while k < MAX_K and entries(pits, k + 1) <= most:
            k += 1
    if total is not None:
        k = min(k, total)
    return min(k, MAX_K)


def play_seeds(pits: int) -> int:
    """K of the database the players search with (:data:`PLAY_ENTRIES`; the engine's
    ``prepare`` makes it once): larger than a small solve's, since a player meets the same
    rules move after move and every point it keeps near the end rests on proofs there."""
    return default_seeds(pits, budget=PLAY_ENTRIES)


def players_seeds(pits: int, total: int) -> int:
    """The players' own K on a board of ``pits`` a side with ``total`` seeds in play:
    :func:`play_seeds`, no more than the game's seeds (a larger database would hold nothing
    more), and never below the quick default."""
    return max(default_seeds(pits), min(play_seeds(pits), total))


#: a solve of a large position (:data:`LARGE_SOLVE_SEEDS` or more seeds in the pits) uses the
#: largest database of at most this many bytes (as large as the shared one of seven pits, so
#: the players' processes can hold it too), or the shared one (:func:`shared_seeds`) when that
#: is larger: six pits K = 20 (141 MB), five pits 26 (159 MB, about 10 s to build on two
#: cores: Kalah(5,5) with empty capture then proves in about 2 s instead of 11), four pits 35
SOLVE_BYTES = 166_000_000
LARGE_SOLVE_SEEDS = 40
#: the database a large solve builds and the players build in the background the first time
#: a person plays (:mod:`mancala.engine.kalah_tables`): at most this many seeds ...
SHARED_SEEDS = 20
#: ... and this many positions (six pits' K = 20 is 226 M, about 10 s of two cores; seven
#: pits get K = 17, 265 M), so one file serves both and every process of the players can
#: hold it (166 MB at most).  With it a fresh process proves Kalah(6,4) with empty capture
#: in 4.4 s where the 16-seed database took 10.9 s (docs/engine.md)
SHARED_POSITIONS = 280_000_000


def shared_seeds(pits: int, total: int, room: int | None = None) -> int:
    """K of the shared database (:data:`SHARED_SEEDS`, :data:`SHARED_POSITIONS`) for a board
    of ``pits`` a side with ``total`` seeds: no more than the seeds (a larger database holds
    nothing more) and, when ``room`` is given, a database of at most ``room`` bytes."""
    k = max(0, min(SHARED_SEEDS, total, MAX_K))
    while k > 0 and (entries(pits, k) > SHARED_POSITIONS or (room is not None and nbytes(pits, k) > room)):
        k -= 1
    return k


def solve_seeds(pits: int, total: int, key: tuple | None = None, room: int | None = None) -> int:
    """K for solving a position with ``total`` seeds in the pits: the usual
    :func:`default_seeds` for small positions; for a proof big enough to repay building it,
    a larger database (within :data:`SOLVE_BYTES` and ``room`` bytes, or the shared one the
    players use, within ``room``); or a still larger one already in the cache for play rules
    ``key`` that fits in ``room`` bytes (:func:`cached_seeds`; loading it costs a second,
    building it minutes)."""
    k = default_seeds(pits, total)
    if total < LARGE_SOLVE_SEEDS or os.environ.get("MANCALA_ENDGAME_SEEDS") is not None:
        return k
    most = SOLVE_BYTES if room is None else min(SOLVE_BYTES, room)
    while k < min(total, MAX_K) and nbytes(pits, k + 1) <= most:
        k += 1
    k = max(k, shared_seeds(pits, total, room))
    if key is not None and room is not None:
        k = max(k, min(cached_seeds(key, pits, room), total))
    return k


def cached_seeds(key: tuple, pits: int, room: int) -> int:
    """The largest K of a database for play rules ``key`` already in the cache and at most
    ``room`` bytes in memory (0 when none): a solve uses a bigger database someone built
    before (``mancala solve --endgame-seeds K``) instead of building a smaller one.  Only
    the file's name and size are looked at here; :func:`load` checks its checksum."""
    best = 0
    k = 1
    while k <= MAX_K and nbytes(pits, k) <= room:
        path = cache_dir() / file_name(key, k)
        try:
            if path.stat().st_size > nbytes(pits, k):
                best = k
        except OSError:
            pass
        k += 1
    return best


@dataclass
class Database:
    """A loaded database: ``values`` packed (:func:`db_get`), entry ``offsets[s] + rank``;
    ``seeds`` is K."""

    seeds: int
    values: np.ndarray
    offsets: np.ndarray
    comp: np.ndarray
    path: Path | None = None
    built: bool = False

    @property
    def bits(self) -> int:
        """Bits per entry."""
        return int(value_bits(self.seeds))

    def value(self, board: np.ndarray) -> int:
        """The value of a relative board (empty stores, at most K seeds in its pits)."""
        n = (board.size - 2) // 2
        s = int(board.sum())
        return int(db_get(self.values, self.offsets[s] + rank(board, n, s, self.comp), s, self.bits))

    def unpacked(self) -> np.ndarray:
        """Every entry's value, in index order (signed bytes; for checks and tests)."""
        out = np.empty(int(self.offsets[-1]), dtype=np.int8)
        _unpack(self.values, self.offsets, self.bits, out)
        return out


@njit(cache=True)
def _unpack(values, offsets, bits, out):
    for s in range(offsets.shape[0] - 1):
        for idx in range(offsets[s], offsets[s + 1]):
            out[idx] = db_get(values, idx, s, bits)


@njit(cache=True)
def _over_value(b, child, rules, n):
    """The value of ``b`` for its mover when the game is over there: the sweep's margin."""
    for i in range(2 * n + 2):
        child[i] = b[i]
    sweep(child, rules)
    return child[n] - child[2 * n + 1]


@njit(cache=True)
def _play(b, move, child, rules, n):
    """Play ``move`` of ``b`` into ``child``: (status, the mover's gain), the child's stores
    emptied (a database position's stores never matter)."""
    st = make_move(b, move, child, rules, 0)
    gain = child[n] - child[2 * n + 1] if st != PASS else child[2 * n + 1] - child[n]
    child[n] = 0
    child[2 * n + 1] = 0
    return st, gain


# --- shards: a level split into parts that share no work --------------------------------------
#
# A move that keeps its level sows only inside the mover's row (reaching the opponent's row
# means passing the mover's store, and a capture empties pits into it), so it keeps the seeds
# of each row and then hands the board over: within level ``s`` a position whose rows hold
# ``a`` and ``s - a`` seeds leads only to positions whose rows hold ``s - a`` and ``a``.  Shard
# ``(s, a)``, ``a <= s - a``, is those positions; each is solved alone, in one ordered pass
# over its own scratch (the single-machine build gives shards to threads,
# :mod:`mancala.engine.distributed` to a Ray cluster), the smaller levels read from the packed
# database.


def shard_halves(s: int, a: int) -> tuple[int, ...]:
    """The seeds in the mover's row of shard ``(s, a)``'s positions: ``a`` and ``s - a``."""
    return (a,) if 2 * a == s else (a, s - a)


def shard_size(pits: int, s: int, a: int) -> int:
    """Positions in shard ``(s, a)`` of a board of ``pits`` pits a side."""
    return sum(comb(x + pits - 1, pits - 1) * comb(s - x + pits - 1, pits - 1) for x in shard_halves(s, a))


def level_shards(s: int) -> list[int]:
    """The shards of level ``s``, by their smaller row's seeds ``a``, largest shard first
    (the middle ones; a cluster then ends a level with its small shards, not its big ones)."""
    return sorted(range(s // 2 + 1), key=lambda a: (abs(s - 2 * a), a))


@njit(cache=True)
def _row_rank(b, start, n, total, comp):
    """The rank of ``b[start:start+n]`` among the ways to put ``total`` seeds in ``n`` pits
    (lexicographic, the first pit most significant)."""
    r = 0
    t = total
    for j in range(n - 1):
        v = b[start + j]
        r += comp[n - j, t] - comp[n - j, t - v]
        t -= v
    return r


@njit(cache=True)
def _row_unrank(r, b, start, n, total, comp):
    """Write into ``b[start:start+n]`` the way to put ``total`` seeds in ``n`` pits of rank ``r``."""
    t = total
    for j in range(n - 1):
        v = 0
        while r >= comp[n - j - 1, t - v]:
            r -= comp[n - j - 1, t - v]
            v += 1
        b[start + j] = v
        t -= v
    b[start + n - 1] = t


@njit(cache=True)
def _local_index(b, n, s, a, comp):
    """A position's index within shard ``(s, a)``: positions with ``a`` seeds in the mover's row
    first, then those with ``s - a``; within each, the mover's row's rank, then the other's."""
    x = 0
    for i in range(n):
        x += b[i]
    base = 0
    if x != a:
        base = comp[n, a] * comp[n, s - a]
    return base + _row_rank(b, 0, n, x, comp) * comp[n, s - x] + _row_rank(b, n + 1, n, s - x, comp)


@njit(cache=True)
def _local_board(li, b, n, s, a, comp):
    """The position of index ``li`` within shard ``(s, a)`` (stores empty)."""
    x = a
    first = comp[n, a] * comp[n, s - a]
    if li >= first:
        li -= first
        x = s - a
    per = comp[n, s - x]
    _row_unrank(li // per, b, 0, n, x, comp)
    _row_unrank(li % per, b, n + 1, n, s - x, comp)
    b[n] = 0
    b[2 * n + 1] = 0


@njit(cache=True)
def _rows(n, x, comp):
    """Every way to put ``x`` seeds in a row of ``n`` pits: ``rows[r]`` is the one of rank
    ``r`` (:func:`_row_rank`); ``order[starts[w]:starts[w + 1]]`` are the ranks of those of
    weight ``w`` (the sum of each pit's seeds times its distance from the row's first pit)."""
    m = comp[n, x]
    rows = np.zeros((m, n), dtype=np.int64)
    weight = np.zeros(m, dtype=np.int64)
    for r in range(m):
        _row_unrank(r, rows[r], 0, n, x, comp)
        w = 0
        for j in range(n):
            w += j * rows[r, j]
        weight[r] = w
    starts = np.zeros(x * (n - 1) + 2, dtype=np.int64)
    for r in range(m):
        starts[weight[r] + 1] += 1
    for w in range(1, starts.shape[0]):
        starts[w] += starts[w - 1]
    order = np.zeros(m, dtype=np.int64)
    at = starts.copy()
    for r in range(m):
        order[at[weight[r]]] = r
        at[weight[r]] += 1
    return rows, order, starts


# what a move of a mover's row does (:func:`_mover_moves`): its pit is empty; it ends in the
# mover's row on a pit that held seeds, or on an empty one (a capture when the opposite pit
# allows); in the store (an extra turn); in the opponent's row; or anything else (laps),
# played by :func:`mancala.engine.kernels.make_move`
M_EMPTY, M_ROW, M_ROW_EMPTY, M_STORE, M_ACROSS, M_OTHER = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _mover_moves(rows, n, x, s, capture, comp):
    """For every mover's row of ``x`` seeds (``rows``, by rank) and pit: what the move does
    (``M_*``) and the ranks its child needs, which depend on the mover's row alone.

    ``near[r, i]``: a move ending in the row: the sown row's rank among rows of ``x`` (the
    same-level child's other row); a move ending in the store: the sown row's prefix rank in
    level ``s - 1`` (the extra turn's child keeps the other row); a move ending across: the
    sown row's rank among rows of ``far[r, i]`` seeds (the child's other row).
    ``far[r, i]`` for a move ending in the row: the rank of the sown row once a capture has
    banked (under the usual rule) its last seed."""
    m = rows.shape[0]
    kind = np.zeros((m, n), dtype=np.int8)
    near = np.zeros((m, n), dtype=np.int64)
    far = np.zeros((m, n), dtype=np.int64)
    row = np.zeros(n, dtype=np.int64)
    for r in range(m):
        for i in range(n):
            c = rows[r, i]
            if c == 0:
                continue
            j = i + c
            for t in range(n):
                row[t] = rows[r, t]
            row[i] = 0
            for t in range(i + 1, min(j, n - 1) + 1):
                row[t] += 1
            if j < n:
                kind[r, i] = M_ROW_EMPTY if rows[r, j] == 0 else M_ROW
                near[r, i] = _row_rank(row, 0, n, x, comp)
                far[r, i] = near[r, i]
                if capture == 1:
                    row[j] = 0
                    far[r, i] = _row_rank(row, 0, n, x - 1, comp)
            elif j == n:
                kind[r, i] = M_STORE
                near[r, i] = _prefix_rank(row, n, s - 1, comp)
            elif j <= 2 * n:
                kind[r, i] = M_ACROSS
                left = x - c + n - 1 - i
                near[r, i] = _row_rank(row, 0, n, left, comp)
                far[r, i] = left
            else:
                kind[r, i] = M_OTHER
    return kind, near, far


@njit(cache=True)
def _facing_ranks(rows, n, y, s, kept, comp):
    """For every other row of ``y`` seeds (``rows``, by rank), facing a mover whose row keeps
    ``kept`` seeds after a capture: ``sown[r, k]``, the prefix rank in level ``s - 1`` of the
    row with one more seed in each of its first ``k`` pits (the child of a move ending
    across, whose mover's row it is); ``taken[r, p]``, the prefix rank of the row with pit
    ``p`` emptied, in the level of a capture from ``p`` (``kept`` plus what is left)."""
    m = rows.shape[0]
    sown = np.zeros((m, n + 1), dtype=np.int64)
    taken = np.zeros((m, n), dtype=np.int64)
    row = np.zeros(n, dtype=np.int64)
    x = s - y
    for r in range(m):
        for k in range(1, min(n, x - 1) + 1):  # a move across banks one seed: k < x
            for t in range(n):
                row[t] = rows[r, t] + (1 if t < k else 0)
            sown[r, k] = _prefix_rank(row, n, s - 1, comp)
        if kept < 0:
            continue  # no seeds to move: no captures
        for p in range(n):
            for t in range(n):
                row[t] = rows[r, t]
            row[p] = 0
            taken[r, p] = _prefix_rank(row, n, kept + y - rows[r, p], comp)
    return sown, taken


@njit(cache=True, inline="always")
def _set_board(b, row, other, n):
    """Write the position whose mover's row is ``row`` and other row ``other`` into ``b``
    (stores empty: a database position's stores never matter)."""
    for t in range(n):
        b[t] = row[t]
        b[n + 1 + t] = other[t]
    b[n] = 0
    b[2 * n + 1] = 0


@njit(cache=True, inline="always")
def _played_value(row, other, i, b, child, rules, db):
    """The value of the move from pit ``i`` of the position whose mover's row is ``row`` and
    other row ``other``, played by :func:`mancala.engine.kernels.make_move` (laps, a game's
    end), its child read from the database ``db`` (packed values, bits, offsets, comp)."""
    packed, bits, offsets, comp = db
    n = rules[R_PITS]
    _set_board(b, row, other, n)
    st, gain = _play(b, i, child, rules, n)
    if st >= OVER:
        return gain
    cs = board_seeds(child, n)
    w = db_get(packed, offsets[cs] + rank(child, n, cs, comp), cs, bits)
    return gain + w if st == EXTRA else gain - w


@njit(cache=True, nogil=True)
def solve_shard_kernel(rules, s, a, packed, bits, offsets, comp, cur, stop):
    """Solve every position of shard ``(s, a)`` into ``cur``, its scratch by index in the
    shard (:func:`_local_index`), the levels below ``s`` read from ``packed``.  Returns 1, or
    0 when ``stop[0]`` was set (checked between layers; ``cur`` is then incomplete).

    No search and no memo: a move that keeps the level sows inside the mover's row, so it
    moves ``c`` seeds forward and adds ``c(c+1)/2`` to the *weight* of the position (each
    row's sum of seeds times the pit's distance from the row's first pit; the rows swap, the
    sum stays).  Solving the positions by decreasing weight therefore finds every
    same-level child already solved in ``cur``.

    Move by move, not position by position: within a layer, the positions sharing a mover's
    row are solved together.  What a move does to the mover's row, and the ranks its child
    needs from it, are looked up (:func:`_mover_moves`, once a shard), as are the ranks the
    other row gives a child (:func:`_facing_ranks`); each of the row's moves then updates the
    best value of all those positions in one tight loop, a child's index a sum of two looked-up
    ranks.  Only laps and moves that end the game are played out."""
    n = rules[R_PITS]
    capture = rules[R_CAPTURE]
    empty = rules[R_EMPTY] == 1
    goes_on = rules[R_END] == 1  # the game ends only when the mover cannot move
    banked = 1 if capture == 1 else 0  # a capture banks the last seed too
    rows_a, order_a, starts_a = _rows(n, a, comp)
    rows_b, order_b, starts_b = _rows(n, s - a, comp)
    moves_a = _mover_moves(rows_a, n, a, s, capture, comp)
    moves_b = _mover_moves(rows_b, n, s - a, s, capture, comp)
    facing_b = _facing_ranks(rows_b, n, s - a, s, a - banked, comp)  # rows of s - a facing a mover with a
    facing_a = _facing_ranks(rows_a, n, a, s, s - a - banked, comp)
    halves = 1 if 2 * a == s else 2
    second = comp[n, a] * comp[n, s - a]  # index of the first position whose mover's row holds s - a
    b = np.zeros(2 * n + 2, dtype=np.int64)
    child = np.zeros(2 * n + 2, dtype=np.int64)
    best = np.zeros(max(rows_a.shape[0], rows_b.shape[0]), dtype=np.int64)
    db = (packed, bits, offsets, comp)
    for phi in range(s * (n - 1), -1, -1):
        if stop[0] != 0:
            return 0
        for h in range(halves):
            if h == 0:
                x, rows_x, order_x, starts_x, moves = a, rows_a, order_a, starts_a, moves_a
                y, rows_y, order_y, starts_y, facing = s - a, rows_b, order_b, starts_b, facing_b
                base_x, base_y = 0, second
            else:
                x, rows_x, order_x, starts_x, moves = s - a, rows_b, order_b, starts_b, moves_b
                y, rows_y, order_y, starts_y, facing = a, rows_a, order_a, starts_a, facing_a
                base_x, base_y = second, 0
            if halves == 1:
                base_y = 0
            kind, near, far = moves
            sown, taken = facing
            per_x = comp[n, y]  # positions per mover's row (x seeds) in this half
            per_y = comp[n, x]  # and in the half the same-level children are in
            kept = x - banked
            over = x == 0 or (y == 0 and rules[R_END] == 0)
            for wx in range(max(0, phi - y * (n - 1)), min(x * (n - 1), phi) + 1):
                wy = phi - wx
                lo = starts_y[wy]
                count = starts_y[wy + 1] - lo
                for ia in range(starts_x[wx], starts_x[wx + 1]):
                    ra = order_x[ia]
                    if over:
                        for q in range(count):
                            _set_board(b, rows_x[ra], rows_y[order_y[lo + q]], n)
                            best[q] = _over_value(b, child, rules, n)
                    else:
                        for q in range(count):
                            best[q] = -(1 << 30)
                        for i in range(n):
                            kd = kind[ra, i]
                            if kd == M_EMPTY:
                                continue
                            r1 = near[ra, i]
                            if (kd == M_ROW or (kd == M_ROW_EMPTY and capture == 0)) and y > 0:
                                # the turn passes, the level stays: the child is (other row, sown row)
                                for q in range(count):
                                    v = -np.int64(cur[base_y + order_y[lo + q] * per_y + r1])
                                    if v > best[q]:
                                        best[q] = v
                            elif kd == M_ROW_EMPTY and capture != 0:
                                p = n - 1 - (i + rows_x[ra, i])  # the opposite pit
                                r2 = far[ra, i]
                                for q in range(count):
                                    rb = order_y[lo + q]
                                    opp = rows_y[rb, p]
                                    left = y - opp
                                    if not (opp > 0 or (empty and capture == 1)):  # no capture
                                        if y > 0:
                                            v = -np.int64(cur[base_y + rb * per_y + r1])
                                        else:
                                            v = _played_value(rows_x[ra], rows_y[rb], i, b, child, rules, db)
                                    elif left > 0 and (kept > 0 or goes_on):  # a capture, the game goes on
                                        cs = kept + left
                                        v = opp + banked - db_get(packed, offsets[cs] + taken[rb, p] + r2, cs, bits)
                                    else:
                                        v = _played_value(rows_x[ra], rows_y[rb], i, b, child, rules, db)
                                    if v > best[q]:
                                        best[q] = v
                            elif kd == M_STORE and x > 1 and (y > 0 or goes_on):
                                # an extra turn, the game goes on: same other row
                                at = offsets[s - 1] + r1
                                for q in range(count):
                                    v = 1 + db_get(packed, at + order_y[lo + q], s - 1, bits)
                                    if v > best[q]:
                                        best[q] = v
                            elif kd == M_ACROSS and (far[ra, i] > 0 or goes_on):
                                # one seed banked, the last in the opponent's row: the turn passes
                                k = i + rows_x[ra, i] - n
                                at = offsets[s - 1] + r1
                                for q in range(count):
                                    v = 1 - db_get(packed, at + sown[order_y[lo + q], k], s - 1, bits)
                                    if v > best[q]:
                                        best[q] = v
                            else:
                                for q in range(count):
                                    v = _played_value(rows_x[ra], rows_y[order_y[lo + q]], i, b, child, rules, db)
                                    if v > best[q]:
                                        best[q] = v
                    row0 = base_x + ra * per_x
                    for q in range(count):
                        cur[row0 + order_y[lo + q]] = best[q]
    return 1


def fill_shard(
    rules_arr: np.ndarray,
    s: int,
    a: int,
    packed: np.ndarray,
    bits: int,
    offsets: np.ndarray,
    comp: np.ndarray,
    cur: np.ndarray,
    stop: np.ndarray | None = None,
) -> bool:
    """Solve shard ``(s, a)`` into ``cur`` (:func:`solve_shard_kernel`, its numbers typed
    once here): True, or False when ``stop[0]`` was set before the end."""
    if stop is None:
        stop = np.zeros(1, dtype=np.int64)
    return bool(
        solve_shard_kernel(rules_arr, np.int64(s), np.int64(a), packed, np.int64(bits), offsets, comp, cur, stop)
    )


@njit(cache=True)
def _prefix_rank(b, n, total, comp):
    """The part of a position's rank in its level (:func:`mancala.engine.kernels.rank`) that
    comes from the mover's row: the other row's rank among its own ways is the rest, so a
    shard's positions sharing a mover's row fill one run of consecutive ranks."""
    r = 0
    t = total
    for j in range(n):
        v = b[j]
        r += comp[2 * n - j, t] - comp[2 * n - j, t - v]
        t -= v
    return r


@njit(cache=True)
def pack_shard(cur, packed, start, n, s, a, comp, bits):
    """Pack shard ``(s, a)``'s values ``cur`` into the database ``packed`` (its level's entries
    from ``start`` on): each run of positions sharing the mover's row is a run of consecutive
    ranks, packed by :func:`pack_level`, so shards may be packed in any order.  Returns the entries that were
    not a possible value (0 when sound)."""
    b = np.zeros(2 * n + 2, dtype=np.int64)
    bad = 0
    li = 0
    for h in range(2 if 2 * a != s else 1):
        x = a if h == 0 else s - a
        run = comp[n, s - x]
        for ra in range(comp[n, x]):
            _row_unrank(ra, b, 0, n, x, comp)
            bad += pack_level(cur[li : li + run], packed, start + _prefix_rank(b, n, s, comp), s, bits)
            li += run
    return bad


@njit(cache=True)
def _equation_failures(values, offsets, comp, bits, rules, picks):
    """How many of the entries ``picks`` (indices) differ from the best of their moves, each
    move's value read from the database itself (or the game's end): the equation every entry
    of a sound database keeps."""
    n = rules[R_PITS]
    b = np.zeros(2 * n + 2, dtype=np.int64)
    child = np.zeros(2 * n + 2, dtype=np.int64)
    mv = np.zeros(2 * n, dtype=np.int64)
    bad = 0
    for idx in picks:
        s = 0
        while offsets[s + 1] <= idx:
            s += 1
        r = idx - offsets[s]
        t = s
        parts = 2 * n
        for j in range(parts - 1):
            v = 0
            while r >= comp[parts - j - 1, t - v]:
                r -= comp[parts - j - 1, t - v]
                v += 1
            b[j if j < n else j + 1] = v
            t -= v
        b[2 * n] = t
        b[n] = 0
        b[2 * n + 1] = 0
        if is_over(b, rules, 1):
            best = _over_value(b, child, rules, n)
        else:
            cnt = gen_moves(b, rules, mv)
            best = -(1 << 30)
            for k in range(cnt):
                st, gain = _play(b, mv[k], child, rules, n)
                if st >= OVER:
                    w = gain
                else:
                    cs = board_seeds(child, n)
                    x = db_get(values, offsets[cs] + rank(child, n, cs, comp), cs, bits)
                    w = gain + x if st == EXTRA else gain - x
                if w > best:
                    best = w
        if best != db_get(values, idx, s, bits):
            bad += 1
    return bad


def check_sample(db: Database, rules_arr: np.ndarray, sample: int, seed: int = 0) -> int:
    """Entries of ``db`` that break their equation, among every entry of each level with at
    most ``sample`` positions and ``sample`` drawn at random from each larger one (0: sound)."""
    rng = np.random.default_rng(seed)
    picks = []
    for s in range(db.seeds + 1):
        lo, hi = int(db.offsets[s]), int(db.offsets[s + 1])
        picks.append(np.arange(lo, hi) if hi - lo <= sample else rng.integers(lo, hi, sample))
    bits = np.int64(db.bits)
    return int(_equation_failures(db.values, db.offsets, db.comp, bits, rules_arr, np.concatenate(picks)))


def terminal_console():
    """A rich console on stderr when stderr is a terminal, else None: progress displays are
    for people watching (on a pipe or a file they would only leave blank lines)."""
    from rich.console import Console  # noqa: PLC0415 (rich: only when a terminal watches)

    console = Console(stderr=True)
    return console if console.is_terminal else None


def thread_count(variable: str, most: int) -> int:
    """Worker threads: ``$variable`` if set, else the cores this process may use, at most ``most``."""
    env = os.environ.get(variable)
    if env:
        return max(1, whole_number(env, f"${variable}"))
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(most, cores))


def build_threads() -> int:
    """Worker threads for a database build: ``$MANCALA_BUILD_THREADS``, else the cores this
    process may use (at most 8)."""
    return thread_count("MANCALA_BUILD_THREADS", 8)


def unrank(r: int, parts: int, total: int, comp: np.ndarray) -> np.ndarray:
    """The composition of ``total`` seeds into ``parts`` pits with rank ``r`` (the inverse
    of :func:`mancala.engine.kernels.rank`, in the same lexicographic order)."""
    out = np.zeros(parts, dtype=np.int64)
    t = total
    for j in range(parts - 1):
        v = 0
        while r >= comp[parts - j - 1, t - v]:
            r -= int(comp[parts - j - 1, t - v])
            v += 1
        out[j] = v
        t -= v
    out[parts - 1] = t
    return out


def _offsets(pits: int, k: int) -> np.ndarray:
    off = np.zeros(k + 2, dtype=np.int64)
    for s in range(k + 1):
        off[s + 1] = off[s] + comb(s + 2 * pits - 1, 2 * pits - 1)
    return off


def build(
    rules_arr: np.ndarray,
    k: int,
    progress: bool = False,
    cancel: threading.Event | None = None,
    base: Database | None = None,
    report: Callable[[int, int, float, bool], None] | None = None,
) -> Database:
    """Build the database of every position with at most ``k`` seeds in the pits (a progress
    bar on a terminal's stderr when ``progress``); ``cancel`` set stops the build (it then
    raises KeyboardInterrupt) within one layer of a shard (:func:`solve_shard_kernel`).  ``base``, a
    smaller database of the same rules and entry width, supplies its levels as they are:
    only the levels above it are solved (same index, same bits: its bytes are a prefix).
    ``report(level, positions, seconds, loaded)`` hears of each level as it is done (a
    background build's progress: :mod:`mancala.engine.kalah_tables`), a base's levels first,
    as loaded."""
    n = int(rules_arr[R_PITS])
    if rules_arr[R_CHOICE]:
        raise ValueError("no endgame database under the choice-of-direction rule")
    offsets = _offsets(n, k)
    comp = composition_table(2 * n, k)
    total = int(offsets[-1])
    bits = int(value_bits(k))
    values = pages.zeros(nbytes(n, k), np.uint8)
    first = 0
    if base is not None and base.seeds < k and base.bits == bits:
        values[: base.values.size - 1] = base.values[:-1]
        first = base.seeds + 1
    bar = None
    console = terminal_console() if progress else None
    if console is not None:
        from rich.progress import (  # noqa: PLC0415 (rich: only when a terminal watches)
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        bar = Progress(
            TextColumn("endgame database ≤{task.fields[k]} seeds"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        )
        bar.start()
        task = bar.add_task("db", total=total, k=k, completed=int(offsets[first]))
    workers = build_threads()
    stop = np.zeros(1, dtype=np.int64)  # set to 1: the kernels stop at their next layer
    if report is not None:
        for s in range(first):
            report(s, int(offsets[s + 1] - offsets[s]), 0.0, True)
    try:
        for s in range(first, k + 1):
            began = time.perf_counter()
            # the level's shards, largest first, shared out between the workers; each
            # is solved into its own scratch, then packed (one thread at a time: packing
            # ORs bits into bytes neighbouring entries share)
            jobs = level_shards(s)
            lock = threading.Lock()
            failure: list = []

            def work(s: int = s, jobs: list = jobs, lock: threading.Lock = lock, failure: list = failure) -> None:
                try:
                    while True:
                        with lock:
                            if not jobs or failure or stop[0]:
                                return
                            a = jobs.pop(0)
                        cur = np.full(shard_size(n, s, a), UNKNOWN, dtype=np.int8)
                        if not fill_shard(rules_arr, s, a, values, bits, offsets, comp, cur, stop):
                            return  # cancelled
                        with lock:
                            if pack_shard(cur, values, offsets[s], n, s, a, comp, bits):  # pragma: no cover - a bug
                                raise RuntimeError(f"endgame database build: level {s} has unsolved entries")
                            if bar is not None:
                                bar.advance(task, cur.size)
                except BaseException as e:  # pragma: no cover - surfaced below
                    failure.append(e)

            threads = [threading.Thread(target=work, daemon=True) for _ in range(min(workers, len(jobs)))]
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.05)
                    if cancel is not None and cancel.is_set():
                        stop[0] = 1
            if failure:
                raise failure[0]
            if stop[0] or (cancel is not None and cancel.is_set()):
                raise KeyboardInterrupt
            if report is not None:
                report(s, int(offsets[s + 1] - offsets[s]), time.perf_counter() - began, False)
    finally:
        stop[0] = 1
        if bar is not None:
            bar.stop()
    return Database(k, values, offsets, comp, built=True)


def file_header(meta: dict, values: np.ndarray) -> bytes:
    """A database file's header line (after its magic): ``meta`` (what the table is of) with
    the count and checksum of the ``values`` that follow, as one line of sorted JSON."""
    checks = {"entries": int(values.size), "sha256": hashlib.sha256(values.data).hexdigest()}
    return json.dumps({**meta, **checks}, sort_keys=True).encode() + b"\n"


def file_name(key: tuple, k: int) -> str:
    """The cache file name of the database for play rules ``key`` and ``k`` seeds."""
    text = "-".join(str(x).replace("+", "and") for x in key)
    return f"kalah-v{FORMAT}-{text}-k{k}.db"


def load(path: Path, key: tuple, k: int) -> np.ndarray | None:
    """The values stored at ``path`` if the file is intact and matches; else None.  The
    payload is read once into its array (no copies: a 22-seed database is 343 MB)."""
    try:
        with jsonread.open_regular(path) as f:
            if f.read(len(MAGIC)) != MAGIC:
                return None
            line = f.readline(1 << 16)
            meta = jsonread.loads(line)
            size = int(meta.get("entries", -1))
            if (
                meta.get("rules") != list(key)
                or meta.get("seeds") != k
                or size != os.fstat(f.fileno()).st_size - f.tell()
            ):
                return None  # another database, or truncated, or longer than its header says
            return read_payload(f, size, meta.get("sha256"), pages.zeros(size, np.uint8))
    except jsonread.NotRegularFile:
        raise BadInput(f"{path}: not a regular file, so not an endgame database; remove it") from None
    except (OSError, ValueError, AttributeError, TypeError):
        return None


def read_payload(f, size: int, sha256: object, into: np.ndarray) -> np.ndarray | None:
    """Read a file's ``size`` payload bytes into ``into``: it, when they are all there and
    their SHA-256 is ``sha256``; else None (a file cut short or damaged)."""
    if f.readinto(into.data) != size or sha256 != hashlib.sha256(into.data).hexdigest():
        return None
    return into


def save(path: Path, key: tuple, k: int, values: np.ndarray) -> None:
    """Write atomically (:class:`mancala.atomic.StagedFile`): never a half-written file
    (the payload is written from the array itself, not copied)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with StagedFile(path, binary=True) as staged:
        staged.stream.write(MAGIC + file_header({"rules": list(key), "seeds": k}, values))
        staged.stream.write(values.data)
        staged.commit()


def cached(key: tuple, pits: int, k: int) -> Database | None:
    """The database for play rules ``key`` with ``k`` seeds from the cache, when its file is
    there and intact; else None (nothing is built)."""
    path = cache_dir() / file_name(key, k)
    values = load(path, key, k)
    if values is None or values.size != nbytes(pits, k):
        return None
    return Database(k, values, _offsets(pits, k), composition_table(2 * pits, k), path)


def obtain(
    key: tuple,
    rules_arr: np.ndarray,
    k: int,
    progress: bool = False,
    cancel: threading.Event | None = None,
    report: Callable[[int, int, float, bool], None] | None = None,
) -> Database:
    """The database for play rules ``key`` (see :func:`mancala.engine.bridge.play_key`) with
    ``k`` seeds: loaded from the cache, or built (and saved) when missing or corrupt — on
    top of the largest intact smaller one in the cache with the same entry width, if any
    (``report``: each level as it is done, :func:`build`)."""
    n = int(rules_arr[R_PITS])
    found = cached(key, n, k)
    if found is not None:
        return found
    path = cache_dir() / file_name(key, k)
    base = None
    for smaller in range(k - 1, 0, -1):  # a cached smaller database of the same width: extend it
        if value_bits(smaller) != value_bits(k):
            break
        base_values = load(cache_dir() / file_name(key, smaller), key, smaller)
        if base_values is not None and base_values.size == nbytes(n, smaller):
            base = Database(smaller, base_values, _offsets(n, smaller), composition_table(2 * n, smaller))
            break
    db = build(rules_arr, k, progress, cancel, base, report)
    try:
        save(path, key, k, db.values)
        db.path = path
    except OSError:
        db.path = None  # a read-only cache: keep the database in memory only
    return db
