"""Numba-compiled game-tree search for Kalah: MTD(f) over a fail-soft alpha-beta
with a transposition table, exact futility pruning and endgame databases; and a
plain fixed-depth alpha-beta with the reference's move order (for benchmarks).

Values are *relative*: a node's value is the mover's final margin minus the
current store difference (its boards always have empty stores, and each move's
gain in store difference is added on the way back).  Seeds in the stores never
affect play, so one table entry serves every store count, and the value of a
node lies in ``[-s, s]`` when ``s`` seeds are left in the pits — the exact
futility bound.

Depth counts turns as :mod:`mancala.search.core` does: a move that earns an
extra turn keeps the remaining depth, and a node reached by one is never a
depth leaf.  Table depths are ``2*depth + extra`` (capped); ``SOLVED`` marks
entries whose subtree met no depth leaf (their bounds are exact at any depth).

Memory layout (few arguments, one cache line per table probe):

* ``ctl`` (int64): the rules array in slots 0..8 (see :mod:`kernels`), then the
  search's counters and settings from ``C_NODES`` on;
* ``ws`` (int64, one row per ply): the board, the move list, the move scores and
  the table key of the node at that ply;
* ``tt`` (uint64, one row per entry, buckets of two rows): the key words (each masked
  by a mix of the data word, so that a row torn between two threads' writes reads as
  absent), then one word packing lower bound, upper bound, depth and best move
  (0 = empty).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mancala.engine.endgame import db_get, value_bits
from mancala.engine.kernels import (
    EXTRA,
    OVER,
    PASS,
    R_CAPTURE,
    R_EMPTY,
    R_PITS,
    R_REMAIN,
    R_SKIP,
    board_seeds,
    gen_moves,
    make_move,
    rank,
    row_sums,
)
from mancala.engine.leaf_eval import C_END as C_EVAL_END
from mancala.engine.leaf_eval import C_EVAL, leaf_value

BIG = (1 << 19) - 1
SOLVED = 1022
DEPTH_CAP = 1000
MAXPLY = 1000

# ctl slots after the rules
C_NODES = 16  # nodes visited
C_HEUR = 17  # depth leaves (and non-exact table cut-offs) met: unchanged over a search = exact
C_ABORT = 18  # 1 once the node limit or the deadline is reached (or set from outside)
C_LIMIT = 19  # node limit
C_ROOTMOVE = 20  # the root's current best move
C_CHECK = 21  # node count at which to look at the clock next
C_HW = 22  # evaluation weight of the seeds in the rows, in quarters
C_DBK = 23  # endgame database seed limit (-1: none)
C_WORDS = 24  # table key words
C_BITS = 25  # bits per pit in a table key
C_ETC = 26  # enhanced transposition cut-offs at nodes with more than DBK + ETC seeds
C_TTMIN = 27  # the table is used at nodes with more than DBK + TTMIN seeds (and at the root)
C_PLO = 28  # mtdf: the best lower bound proved by a pass that met no depth leaf (exact)
C_PHI = 29  # mtdf: the best upper bound proved likewise
C_SIZE = 48  # slots C_EVAL .. C_EVAL_END - 1 (from 32 on): the evaluation terms' weights (leaf_eval)
assert C_SIZE >= C_EVAL_END

CHECK_EVERY = 8192

# The kernels never call back into Python (no clock, no callback): a time budget and Ctrl-C
# reach a running search through ``ctl[C_ABORT]``, set from another thread (see
# ``mancala.engine.jobs.run_job``).  A callback into Python inside compiled code turns a
# KeyboardInterrupt into "SystemError: ... returned a result with an exception set".


def workspace_columns(n: int, words: int) -> int:
    """Columns of a ``ws`` row for ``n`` pits a side and ``words`` key words."""
    return (2 * n + 2) + 4 * n + words


@njit(cache=True)
def heuristic(b, ctl):
    """A depth leaf's estimate: the row difference times ``hw / 4`` (sign by the end rule),
    or, when ``ctl[C_EVAL]`` is set, the weighted evaluation terms (:mod:`leaf_eval`)."""
    if ctl[C_EVAL] != 0:
        return leaf_value(b, ctl)
    hw = ctl[C_HW]
    if hw == 0:
        return np.int64(0)
    me, opp = row_sums(b, ctl[R_PITS])
    d = me - opp
    if ctl[R_REMAIN] == 1:
        d = -d
    return (d * hw) // 4


@njit(cache=True)
def table_key(b, n, bits, words, key):
    """Pack the pits of ``b`` into ``key[:words]``; return the hash."""
    per = 64 // bits
    w = 0
    for i in range(words):
        key[i] = 0
    cnt = 0
    acc = np.uint64(0)
    ub = np.uint64(bits)
    for j in range(2 * n):
        i = j if j < n else j + 1
        acc = (acc << ub) | np.uint64(b[i])
        cnt += 1
        if cnt == per:
            key[w] = acc
            acc = np.uint64(0)
            cnt = 0
            w += 1
    if cnt > 0:
        key[w] = acc
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(words):
        h = (h ^ np.uint64(key[i])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def pack(lo, hi, depth, move, work):
    """One table data word (never 0): bounds (20 bits each), depth (10), move (6) and
    work, the bit length of the subtree's node count (8; the replacement tie-break)."""
    return (
        np.uint64(lo + (1 << 19))
        | (np.uint64(hi + (1 << 19)) << np.uint64(20))
        | (np.uint64(depth + 1) << np.uint64(40))
        | (np.uint64(move + 1) << np.uint64(50))
        | (np.uint64(work) << np.uint64(56))
    )


@njit(cache=True)
def unpack(d):
    """(lower bound, upper bound, depth, move, work) of a table data word."""
    lo = np.int64(d & np.uint64(0xFFFFF)) - (1 << 19)
    hi = np.int64((d >> np.uint64(20)) & np.uint64(0xFFFFF)) - (1 << 19)
    depth = np.int64((d >> np.uint64(40)) & np.uint64(0x3FF)) - 1
    move = np.int64((d >> np.uint64(50)) & np.uint64(0x3F)) - 1
    work = np.int64(d >> np.uint64(56))
    return lo, hi, depth, move, work


@njit(cache=True)
def bit_length(x):
    """Bits needed for ``x`` >= 0 (at most 255)."""
    k = 0
    while x > 0 and k < 255:
        x >>= 1
        k += 1
    return k


@njit(cache=True)
def seal(d, i):
    """The mask of key word ``i`` in a row whose data word is ``d`` (a strong 64-bit mix)."""
    x = d + np.uint64(i + 1) * np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def table_probe(tt, h, key, words):
    """(row, data word) of the entry holding ``key`` in its two-row bucket, or (-1, 0).

    Key words are stored masked by their row's data word (:func:`seal`), and a row is
    accepted only when every unmasked word equals the key: threads sharing the table
    write a row one word at a time, and a row mixing two writes fails this check (it
    reads as absent) instead of lending one position's bounds to another.  The data
    word is read once and that copy is both checked and returned."""
    mask = np.uint64(tt.shape[0] - 1)
    base = np.int64(h & mask) & ~np.int64(1)
    for s in range(2):
        idx = base + s
        d = tt[idx, words]
        if d != 0:
            ok = True
            for i in range(words):
                if tt[idx, i] ^ seal(d, i) != np.uint64(key[i]):
                    ok = False
                    break
            if ok:
                return idx, d
    return -1, np.uint64(0)


@njit(cache=True)
def table_find(tt, h, key, words):
    """Row of the entry holding ``key`` in its two-row bucket, or -1."""
    return table_probe(tt, h, key, words)[0]


@njit(cache=True)
def table_write(tt, idx, key, words, d):
    """Write row ``idx``: data word ``d``, key words masked by it."""
    tt[idx, words] = d
    for i in range(words):
        tt[idx, i] = np.uint64(key[i]) ^ seal(d, i)


@njit(cache=True)
def table_store(tt, h, key, words, lo, hi, depth, move, work):
    """Store bounds.  An entry for the same key is merged (same depth) or replaced
    (deeper); otherwise row 0 of the bucket keeps the more valuable entry (deeper, then
    more work; the old one moving to row 1) and row 1 takes the rest (always replace)."""
    mask = np.uint64(tt.shape[0] - 1)
    base = np.int64(h & mask) & ~np.int64(1)
    if lo < -BIG:
        lo = -BIG
    if hi > BIG:
        hi = BIG
    idx, cur = table_probe(tt, h, key, words)
    if idx >= 0:
        olo, ohi, od, om, ow = unpack(cur)
        if depth < od:
            if move >= 0 and om < 0:
                table_write(tt, idx, key, words, pack(olo, ohi, od, move, ow))
            return
        if depth == od:
            nlo = max(lo, olo)
            nhi = min(hi, ohi)
            if nlo <= nhi:
                lo = nlo
                hi = nhi
        if move < 0:
            move = om
        table_write(tt, idx, key, words, pack(lo, hi, depth, move, max(work, ow)))
        return
    old = tt[base, words]
    od = -1
    ow = 0
    if old != 0:
        od = unpack(old)[2]
        ow = unpack(old)[4]
    if depth > od or (depth == od and work >= ow):
        if old != 0:
            # (the masks travel with their data word: a moved row stays valid)
            for i in range(words + 1):
                tt[base + 1, i] = tt[base, i]
        idx = base
    else:
        idx = base + 1
    table_write(tt, idx, key, words, pack(lo, hi, depth, move, work))


@njit(cache=True)
def table_forget_estimates(tt, words):
    """Empty every entry that is not ``SOLVED``: their bounds rest on depth leaves, that is
    on one leaf evaluation, and must not serve a search under another.  Exact entries stay."""
    for i in range(tt.shape[0]):
        d = tt[i, words]
        if d != 0 and unpack(d)[2] != SOLVED:
            for j in range(words + 1):
                tt[i, j] = 0


@njit(cache=True)
def order_moves(b, mv, cnt, scores, ttm, ctl):
    """Sort ``mv[:cnt]`` best first: table move, extra turns (rightmost first), then by
    the seeds the move gains at once (into the store, and captured), right to left
    among equals.  (Greedy order: with it a Kalah(6,4) proof expands 2.4x fewer nodes
    than with captures first and the rest right to left.)"""
    n = ctl[R_PITS]
    cycle = 2 * n if ctl[R_SKIP] == 1 else 2 * n + 1
    mode = ctl[R_CAPTURE]
    for k in range(cnt):
        c = mv[k]
        if c == ttm:
            s = np.int64(1) << 40
        elif c < n:
            seeds = b[c]
            if (seeds - 1) % cycle == n - 1 - c:
                s = (np.int64(1) << 30) + c
            else:
                # seeds into the store (one a lap), plus a capture's seeds when the
                # last seed ends in an empty pit of ours without a lap
                gain = (seeds - (n - c)) // cycle + 1 if seeds >= n - c else 0
                j = c + seeds
                if mode != 0 and j < n and b[j] == 0:
                    o = b[2 * n - j]
                    if o > 0 or ctl[R_EMPTY] == 1:
                        gain = o + (1 if mode == 1 else 0)
                s = (gain << 6) + c
        else:
            s = c - 2 * n
        scores[k] = s
    for k in range(1, cnt):
        c = mv[k]
        s = scores[k]
        j = k - 1
        while j >= 0 and scores[j] < s:
            mv[j + 1] = mv[j]
            scores[j + 1] = scores[j]
            j -= 1
        mv[j + 1] = c
        scores[j + 1] = s


@njit(cache=True, nogil=True)
def negamax(ply, alpha, beta, depth, extra, flags, acc, ws, ctl, tt, dbv, dbm):
    """Fail-soft alpha-beta on the board of ``ws[ply]``; returns the relative value.

    ``flags``: 1 = the first move of the game (no extra turn under that rule),
    2 = still in the first turn under the pie rule (children that pass the turn
    let the opponent swap); ``acc`` is then the mover's absolute store difference.
    ``dbv``/``dbm``: endgame values (packed, :func:`mancala.engine.endgame.db_get`) and their index tables (``dbm`` row 0: level
    offsets, rows 1..: composition counts).
    """
    # typed (non-literal) constants: literal arguments in recursive calls break numba's cache
    zero = np.int64(0)
    one = np.int64(1)
    big = np.int64(BIG)
    row = ws[ply]
    n = ctl[R_PITS]
    size = 2 * n + 2
    b = row[:size]
    ctl[C_NODES] += 1
    if ctl[C_NODES] >= ctl[C_CHECK]:
        ctl[C_CHECK] = min(ctl[C_NODES] + CHECK_EVERY, ctl[C_LIMIT])
        if ctl[C_NODES] >= ctl[C_LIMIT]:
            ctl[C_ABORT] = 1
    if ctl[C_ABORT] != 0:
        return zero
    root = ply == 0
    seeds = board_seeds(b, n)
    if not root and flags == 0:
        if seeds <= ctl[C_DBK]:
            return db_get(dbv, dbm[0, seeds] + rank(b, n, seeds, dbm[1:]), seeds, value_bits(ctl[C_DBK]))
        if seeds <= alpha:
            return seeds
        if -seeds >= beta:
            return -seeds
    if (depth <= 0 and extra == 0) or ply >= MAXPLY - 2:
        ctl[C_HEUR] += 1
        return heuristic(b, ctl)
    words = ctl[C_WORDS]
    key = row[size + 4 * n : size + 4 * n + words]
    h = np.uint64(0)
    ttm = -1
    usett = flags == 0 and seeds > ctl[C_DBK] + ctl[C_TTMIN]
    tdepth = 2 * depth + extra
    if tdepth > DEPTH_CAP:
        tdepth = DEPTH_CAP
    if usett:
        h = table_key(b, n, ctl[C_BITS], words, key)
        idx, dw = table_probe(tt, h, key, words)
        if idx >= 0:
            lo, hi, d, ttm, _ = unpack(dw)
            if not root and d >= tdepth:
                if lo >= beta or hi <= alpha or lo == hi:
                    if d != SOLVED:
                        ctl[C_HEUR] += 1
                    if lo >= beta:
                        return lo
                    return hi
    mv = row[size : size + 2 * n]
    scores = row[size + 2 * n : size + 4 * n]
    cnt = gen_moves(b, ctl, mv)
    child = ws[ply + 1, :size]
    first = flags & 1
    pie = flags & 2
    if usett and seeds > ctl[C_DBK] + ctl[C_ETC]:
        # enhanced transposition cut-off: a child whose stored bound already refutes us
        ckey = ws[ply + 1, size + 4 * n : size + 4 * n + words]
        for k in range(cnt):
            st = make_move(b, mv[k], child, ctl, first)
            if st >= OVER:
                continue
            gain = child[n] - child[2 * n + 1] if st != PASS else child[2 * n + 1] - child[n]
            child[n] = 0
            child[2 * n + 1] = 0
            ch = table_key(child, n, ctl[C_BITS], words, ckey)
            cidx, cdw = table_probe(tt, ch, ckey, words)
            if cidx < 0:
                continue
            clo, chi, cd, cm, cw = unpack(cdw)
            if cd < min(2 * depth + 1 if st == EXTRA else 2 * depth - 2, DEPTH_CAP):
                continue
            bound = gain - chi if st == PASS else gain + clo
            if bound >= beta:
                if cd != SOLVED:
                    ctl[C_HEUR] += 1
                table_store(tt, h, key, words, bound, big, cd if cd == SOLVED else tdepth, mv[k], cw)
                return bound
    order_moves(b, mv, cnt, scores, ttm, ctl)
    alpha0 = alpha
    heur0 = ctl[C_HEUR]
    nodes0 = ctl[C_NODES]
    best = -big
    bm = -1
    for k in range(cnt):
        c = mv[k]
        st = make_move(b, c, child, ctl, first)
        gain = child[n] - child[2 * n + 1] if st != PASS else child[2 * n + 1] - child[n]
        child[n] = 0
        child[2 * n + 1] = 0
        if st >= OVER:
            ctl[C_NODES] += 1
            v = gain
        elif st == EXTRA:
            v = gain + negamax(ply + 1, alpha - gain, beta - gain, depth, one, pie, acc + gain, ws, ctl, tt, dbv, dbm)
        elif pie != 0:
            # the opponent may swap: it then owns our side, so it scores |its margin|
            cacc = -(acc + gain)
            f = negamax(ply + 1, -big, big, depth - 1, zero, zero, zero, ws, ctl, tt, dbv, dbm)
            v = gain - (abs(cacc + f) - cacc)
        else:
            v = gain - negamax(ply + 1, gain - beta, gain - alpha, depth - 1, zero, zero, zero, ws, ctl, tt, dbv, dbm)
        if ctl[C_ABORT] != 0:
            return zero
        if v > best:
            best = v
            bm = c
            if root:
                ctl[C_ROOTMOVE] = c
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if usett:
        d = SOLVED if ctl[C_HEUR] == heur0 else tdepth
        work = bit_length(ctl[C_NODES] - nodes0)
        if best <= alpha0:
            table_store(tt, h, key, words, -big, best, d, bm, work)
        elif best >= beta:
            table_store(tt, h, key, words, best, big, d, bm, work)
        else:
            table_store(tt, h, key, words, best, best, d, bm, work)
    return best


@njit(cache=True, nogil=True)
def mtdf(guess, depth, flags, acc, ws, ctl, tt, dbv, dbm):
    """MTD(f) on the board of ``ws[0]`` to ``depth`` turns from first guess ``guess``.

    Returns (value, best move, complete); ``complete`` is 0 when aborted.
    The move is the root's cut move of the last pass that failed high (that pass
    proved the final lower bound).
    """
    lo = -np.int64(BIG)
    hi = np.int64(BIG)
    g = np.int64(guess)
    zero = np.int64(0)
    move = -1
    while lo < hi:
        beta = g if g > lo + 1 else lo + 1
        g = negamax(zero, beta - 1, beta, np.int64(depth), zero, np.int64(flags), np.int64(acc), ws, ctl, tt, dbv, dbm)
        if ctl[C_ABORT] != 0:
            return g, move, 0
        if g < beta:
            hi = g
        else:
            lo = g
            move = ctl[C_ROOTMOVE]
    if move < 0:
        move = ctl[C_ROOTMOVE]
    return g, move, 1


@njit(cache=True)
def probe_board(b, ctl, tt, key):
    """(row, data word) of the table entry for board ``b`` (``key`` is its key buffer), or (-1, 0)."""
    words = ctl[C_WORDS]
    h = table_key(b, ctl[R_PITS], ctl[C_BITS], words, key)
    return table_probe(tt, h, key, words)


@njit(cache=True)
def table_move(b, ctl, tt, key):
    """The table's move for board ``b`` (-1 when none)."""
    idx, dw = probe_board(b, ctl, tt, key)
    if idx < 0:
        return -1
    return unpack(dw)[3]


@njit(cache=True)
def table_bounds(b, ctl, tt, key):
    """(lower bound, upper bound, table depth) stored for board ``b`` (depth -1: no entry)."""
    idx, dw = probe_board(b, ctl, tt, key)
    if idx < 0:
        return -np.int64(BIG), np.int64(BIG), np.int64(-1)
    lo, hi, d, _, _ = unpack(dw)
    return lo, hi, d


@njit(cache=True)
def plain_alphabeta(ply, alpha, beta, depth, extra, over, ws, ctl):
    """The reference ``alphabeta`` with the ``score`` evaluation, compiled: same move
    order, same pruning, same node count (no table, no futility, no database)."""
    ctl[C_NODES] += 1
    if over == 1 or (depth <= 0 and extra == 0):
        return np.int64(0)
    zero = np.int64(0)
    one = np.int64(1)
    n = ctl[R_PITS]
    size = 2 * n + 2
    row = ws[ply]
    b = row[:size]
    mv = row[size : size + 2 * n]
    cnt = gen_moves(b, ctl, mv)
    child = ws[ply + 1, :size]
    best = -np.int64(BIG)
    for k in range(cnt):
        st = make_move(b, mv[k], child, ctl, 0)
        gain = child[n] - child[2 * n + 1] if st != PASS else child[2 * n + 1] - child[n]
        child[n] = 0
        child[2 * n + 1] = 0
        if st == EXTRA:
            v = gain + plain_alphabeta(ply + 1, alpha - gain, beta - gain, depth, one, zero, ws, ctl)
        else:
            v = gain - plain_alphabeta(
                ply + 1, gain - beta, gain - alpha, depth - 1, zero, one if st >= OVER else zero, ws, ctl
            )
        if v > best:
            best = v
        if best >= beta:
            break
        if best > alpha:
            alpha = best
    return best
