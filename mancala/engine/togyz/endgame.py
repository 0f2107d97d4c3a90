"""Togyz Kumalak endgame tables: the value of every position with at most N stones on the board.

**What an entry is.**  A position is the ``2 x houses`` house counts and the two tuzdiks, with
the side to move normalised to South (North's row rotated to the front and the tuzdiks
swapped when North moves: :func:`normalise`); the kazans drop out of the key.  Its entry is
the **margin** the side to move gets from the stones still on the board under optimal play
when the game is played to its end: the mover's final stones minus the opponent's, less
the kazans' difference now, from ``-s`` to ``s`` for ``s`` stones on the board.  The game's
result from a position is the sign of the kazans' difference plus that entry.

**The key.**  A tuzdik's house always holds 0 stones (stones sown into it go to its owner's
kazan), so a position is its *tuzdik configuration* (the mover's tuzdik on the opponent's
row: none or a house the rules allow; the opponent's on the mover's row; never two houses
of the same number, never house ``n`` unless ``tuzdik_forbid_last`` is off) and the
composition of the tier's stones over the remaining free houses, ranked as Oware's boards
are (:mod:`mancala.engine.compositions`).  For 9 houses a side there are 73 configurations
under the federation's rules (91 under Pantusov's); every position with at most 10 stones
on the board is 445,560,830 entries (one signed byte each).

**The majority stop (82 of 162) is left out on purpose**, and so is ``max_plies``: kazans
only grow, so a player whose kazan holds more than half has won whatever the rest of the
game does, and a line of play that the majority stops is won by the same player when it is
played to its end.  Every line thus has the same result (win, draw, loss) under both rules,
so the result with best play, ``sign(kazan difference + entry)``, and the moves that keep
it are the same; only the margin of a game the majority stops differs (the stones left on
the rows are then counted for their owners).  One table serves every rule set that differs
only in start stones, ``stop_at_majority`` or ``max_plies`` (:func:`table_key`).

**Repetition** (docs/togyz.md, "Repetition: the convention we chose"): a position neither
side can force out of a cycle is a draw on the stones still on the board, margin 0.

**How it is built: retrograde analysis, tier by tier**, as Oware's tables are
(:mod:`mancala.engine.oware.endgame`).  A move that captures, makes a tuzdik or sows a stone
into a tuzdik takes stones off the board: it *exits* to a smaller tier with a known gain
(stones to the mover's kazan less stones to the opponent's: a stone sown into the
opponent's tuzdik is the opponent's).  Every other move stays in the tier (and keeps the
tuzdiks).  A player to move with an empty row gives the rest to the other (entry ``-s``),
so a move that empties the opponent's row is an exit worth its gain plus the stones left.

1. a forward pass over the tier gives each position its best exit and the number of its
   moves that stay in the tier;
2. then for ``u = s, s-1, ..., 1``: a position whose best exit is ``u``, or that can move to
   a position lost by ``u``, is won by ``u``; one whose every staying move leads to a
   position won by ``u`` or more and whose best exit is ``-u`` or less is lost by ``u``.
   Predecessors inside the tier are found by *un-sowing* (for each origin and count,
   subtract the sowing's stones, then check forwards that the sowing is legal and stays in
   the tier) and settled with Oware's kernels;
3. what is left after ``u = 1`` is endless play: margin 0.

So every entry satisfies ``v = max over moves (gain - v(child))`` (:func:`inconsistent`).  The
passes run on every core (numba ``prange``; ``$MANCALA_BUILD_THREADS`` limits them).

**Files.**  Each tier is its own file in the cache (:func:`mancala.engine.endgame.cache_dir`),
``togyz-v1-h{houses}-{rules key}-tier{s}.db``: a magic line, a JSON header (the rules that
matter, the repetition convention, the tier, the entries, the SHA-256 of the payload), then
one signed byte an entry, written atomically (:class:`mancala.atomic.StagedFile`) as each
tier finishes: an interrupted build keeps its finished tiers and resumes from there, and a
table of N stones is extended by building the tiers above.  A damaged file is refused
(:class:`CorruptTable`, one line naming it).

**Memory.**  A build holds every entry (1 byte each) plus, for the tier being built, 2 bytes
a position and its lists of newly decided positions (at most 4 bytes a position):
:func:`memory_needed` (2.1 GB for 10 stones on 2 x 9 houses).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import Any, Callable

import numpy as np
from numba import njit, prange

from mancala.engine import pages
from mancala.engine.compositions import BINOM, MAX_A, next_board, unrank
from mancala.engine.endgame import cache_dir
from mancala.engine.retrograde import (
    UNDECIDED,
    TierReport,
    build_tiers,
    check_memory,
    memory_limit,
    push,
    read_tier_file,
    read_tiers,
    save_tier_file,
    solve_tier,
)
from mancala.errors import BadInput
from mancala.games.togyz import TogyzRules

#: the tables' name in messages, and the unit of their size (the ``db`` command's protocol)
TITLE = "Togyz Kumalak"
UNIT = "stones"
FORMAT = 1
MAGIC = b"MANCALA-TOGYZ-ENDGAME-1\n"
#: the repetition convention, in every file's header
CONVENTION = "cycle-draw: a position neither side can force out of a cycle is margin 0"
#: what :func:`probe` answers for a position with more stones than the table holds
MISSING = -128
#: a position with no move leaving the tier
NO_EXIT = -128
#: the most stones a table holds (entries are signed bytes)
MAX_STONES = 40

WIDTH = 32


class CorruptTable(BadInput):
    """A table file that is damaged or not what its name says (a one-line message)."""


def table_key(rules: TogyzRules) -> dict:
    """The rules that decide a table's entries (start stones, the majority stop and the move
    limit leave them unchanged), as JSON-ready data."""
    return {"houses": rules.houses, "tuzdik_forbid_last": rules.tuzdik_forbid_last}


# --- the key: tuzdik configurations and offsets ---------------------------------------------


def configurations(rules: TogyzRules) -> list[tuple[int, int]]:
    """The tuzdik configurations of a normalised position, in the table's order: (the
    mover's tuzdik, the opponent's), each a board index (the mover's on the opponent's row
    ``n..2n-1``, the opponent's on the mover's row ``0..n-1``) or -1."""
    n = rules.houses
    houses = [k for k in range(n) if not (rules.tuzdik_forbid_last and k == n - 1)]
    out = []
    for a in [-1, *houses]:
        for b in [-1, *houses]:
            if a != -1 and a == b:
                continue
            out.append((a + n if a != -1 else -1, b))
    return out


@dataclass(frozen=True)
class Layout:
    """Where each (tier, configuration) block of a table of ``max_stones`` lies."""

    #: ``offsets[s, c]``: the first entry of tier ``s``, configuration ``c``; ``offsets[s + 1, 0]``
    #: follows the last block of tier ``s`` (so ``offsets[max_stones + 1, 0]`` is the size)
    offsets: np.ndarray
    #: ``config[a, b]``: the configuration of the mover's tuzdik ``a`` (0: none, else its
    #: house number) and the opponent's ``b``; -1 where no position has them
    config: np.ndarray
    #: each configuration's (mover's tuzdik, opponent's tuzdik) as board indices or -1
    tuzdiks: np.ndarray


def layout(rules: TogyzRules, max_stones: int) -> Layout:
    """The table's :class:`Layout`."""
    n = rules.houses
    confs = configurations(rules)
    config = np.full((n + 1, n + 1), -1, dtype=np.int64)
    for c, (ta, tb) in enumerate(confs):
        config[ta - n + 1 if ta >= 0 else 0, tb + 1] = c
    offsets = np.zeros((max_stones + 2, len(confs) + 1), dtype=np.int64)
    at = 0
    for s in range(max_stones + 1):
        for c, (ta, tb) in enumerate(confs):
            offsets[s, c] = at
            at += block_size(2 * n - (ta >= 0) - (tb >= 0), s)
        offsets[s, len(confs)] = at
    offsets[max_stones + 1, :] = at
    return Layout(offsets, config, np.array(confs, dtype=np.int64).reshape(-1, 2))


def block_size(free: int, stones: int) -> int:
    """Compositions of ``stones`` over ``free`` houses."""
    return comb(stones + free - 1, free - 1) if free > 0 else int(stones == 0)


def entries(rules: TogyzRules, max_stones: int) -> int:
    """Entries of a table of ``max_stones`` stones."""
    return int(layout(rules, max_stones).offsets[-1, 0])


def tier_entries(rules: TogyzRules, stones: int) -> int:
    """Entries of tier ``stones`` alone."""
    n = rules.houses
    return sum(block_size(2 * n - (a >= 0) - (b >= 0), stones) for a, b in configurations(rules))


def tier_positions(rules: TogyzRules, tier: int) -> int:
    """The positions of tier ``tier`` (:func:`tier_entries`: the table module's protocol,
    :class:`mancala.engine.support.TableModule`)."""
    return tier_entries(rules, tier)


def check_rules(rules: TogyzRules, max_stones: int) -> None:
    """Raise :class:`BadInput` (one line) when no table can be built for these rules and size."""
    if not 0 <= max_stones <= MAX_STONES:
        raise BadInput(f"the stones of a Togyz Kumalak endgame table must be 0-{MAX_STONES}, got {max_stones}")
    if max_stones + 2 * rules.houses - 2 > MAX_A:  # pragma: no cover - MAX_STONES keeps within
        raise BadInput(f"a Togyz Kumalak endgame table of {max_stones} stones is beyond the rank table")
    if tier_entries(rules, max_stones) >= 1 << 32:  # ranks in a tier are 32-bit
        raise BadInput(f"a tier of {max_stones} stones over {2 * rules.houses} houses is too large to build")


# --- the rules, mover South ------------------------------------------------------------------


@njit(cache=True)
def step(b, ta, tb, o, n, forbid, out):
    """Sow South's house ``o`` of ``b`` (mover's tuzdik ``ta`` on North's row, the opponent's
    ``tb`` on South's, -1: none) into ``out``, with the capture or the tuzdik of the last
    stone.  Returns (gain: stones to the mover's kazan less stones to the opponent's,
    stones taken off the board, the mover's tuzdik after the move)."""
    p = 2 * n
    for i in range(p):
        out[i] = b[i]
    k = b[o]
    out[o] = 0
    first = o
    if k == 1:
        first = o + 1 if o + 1 < p else 0
    laps = k // p
    rest = k - laps * p
    mine = 0
    theirs = 0
    i = first
    for j in range(p):
        add = laps + (1 if j < rest else 0)
        if add == 0:
            break
        if i == ta:
            mine += add
        elif i == tb:
            theirs += add
        else:
            out[i] += add
        i += 1
        if i == p:
            i = 0
    landing = (first + k - 1) % p
    got = 0
    new_ta = ta
    if landing >= n and landing != ta:
        held = out[landing]
        if held % 2 == 0:
            got = held
            out[landing] = 0
        elif (
            held == 3
            and ta == -1
            and not (forbid != 0 and landing % n == n - 1)
            and not (tb != -1 and tb % n == landing % n)
        ):
            got = 3
            out[landing] = 0
            new_ta = landing
    return mine + got - theirs, mine + got + theirs, new_ta


@njit(cache=True)
def rank_free(board, ta, tb):
    """The rank of ``board``'s stones over its free houses (the tuzdiks left out)."""
    p = board.shape[0]
    last = p - 1
    while last == ta or last == tb:
        last -= 1
    r = np.int64(0)
    prefix = 0
    j = 0
    for i in range(last):
        if i == ta or i == tb:
            continue
        prefix += board[i]
        r += BINOM[prefix + j, j + 1]
        j += 1
    return r


@njit(cache=True)
def index_of(board, ta, tb, s, n, offsets, config):
    """The entry of the normalised position (``s`` stones on ``board``, tuzdiks ``ta``, ``tb``)."""
    a = ta - n + 1 if ta >= 0 else 0
    c = config[a, tb + 1]
    return offsets[s, c] + rank_free(board, ta, tb)


@njit(cache=True)
def child_of(out, n, new_ta, tb, child):
    """The position after a move (``out``, mover still South) normalised for the next
    mover into ``child``; returns its (mover's tuzdik, opponent's tuzdik)."""
    for i in range(n):
        child[i] = out[i + n]
        child[i + n] = out[i]
    cta = tb + n if tb >= 0 else -1
    ctb = new_ta - n if new_ta >= 0 else -1
    return cta, ctb


@njit(cache=True)
def row_sum(b, lo, n):
    """The stones of houses ``lo..lo+n-1``."""
    t = 0
    for i in range(lo, lo + n):
        t += b[i]
    return t


@njit(cache=True)
def probe(values, offsets, config, board, ta, tb):
    """The table's value of a normalised position (mover's row first, mover's tuzdik ``ta``
    on the opponent's row, the opponent's ``tb`` on the mover's, -1: none), or
    :data:`MISSING` when it holds more stones than the table."""
    n = board.shape[0] // 2
    s = row_sum(board, 0, 2 * n)
    if s + 1 >= offsets.shape[0]:
        return MISSING
    return np.int64(values[index_of(board, ta, tb, s, n, offsets, config)])


@njit(cache=True)
def move_value(board, ta, tb, s, o, n, forbid, values, offsets, config, out, child):
    """The mover's margin from the board's stones after sowing ``o`` (a legal move), read
    from the table (every smaller tier, and tier ``s`` itself, must be known)."""
    gain, removed, new_ta = step(board, ta, tb, o, n, forbid, out)
    rest = s - removed
    if row_sum(out, n, n) == 0:
        return gain + rest
    cta, ctb = child_of(out, n, new_ta, tb, child)
    return gain - np.int64(values[index_of(child, cta, ctb, rest, n, offsets, config)])


# --- the build's kernels ---------------------------------------------------------------------


@njit(cache=True)
def _locate(offsets, s, q):
    """The configuration of tier ``s`` holding the tier's position ``q`` (0-based in the tier)."""
    base = offsets[s, 0]
    c = 0
    while offsets[s, c + 1] - base <= q:
        c += 1
    return c


@njit(cache=True)
def _board(free, f, ta, tb, p, board):
    """Spread the free houses' counts ``free[:f]`` over ``board`` (tuzdiks hold 0)."""
    j = 0
    for i in range(p):
        if i == ta or i == tb:
            board[i] = 0
        else:
            board[i] = free[j]
            j += 1


@njit(cache=True)
def position(q, s, n, offsets, tuzdiks, board, free):
    """Position ``q`` of tier ``s`` into ``board``; returns its configuration."""
    p = 2 * n
    c = _locate(offsets, s, q)
    ta = tuzdiks[c, 0]
    tb = tuzdiks[c, 1]
    f = p - (1 if ta >= 0 else 0) - (1 if tb >= 0 else 0)
    unrank(q - (offsets[s, c] - offsets[s, 0]), s, free[:f])
    _board(free, f, ta, tb, p, board)
    return c


@njit(cache=True, nogil=True)
def _forward(s, start, end, n, forbid, values, offsets, config, tuzdiks, val, counter, best_exit):
    """Positions ``start..end-1`` of tier ``s``: their best exit and their count of moves
    that stay in the tier; their value undecided."""
    p = 2 * n
    board = np.empty(p, dtype=np.int64)
    free = np.empty(p, dtype=np.int64)
    out = np.empty(p, dtype=np.int64)
    child = np.empty(p, dtype=np.int64)
    base = offsets[s, 0]
    c = position(start, s, n, offsets, tuzdiks, board, free)
    ta = tuzdiks[c, 0]
    tb = tuzdiks[c, 1]
    f = p - (1 if ta >= 0 else 0) - (1 if tb >= 0 else 0)
    block_end = offsets[s, c + 1] - base
    for q in range(start, end):
        if q == block_end:  # the next configuration's first position
            c += 1
            ta = tuzdiks[c, 0]
            tb = tuzdiks[c, 1]
            f = p - (1 if ta >= 0 else 0) - (1 if tb >= 0 else 0)
            block_end = offsets[s, c + 1] - base
            unrank(0, s, free[:f])
        _board(free, f, ta, tb, p, board)
        best = NO_EXIT
        stay = 0
        if row_sum(board, 0, n) == 0:
            best = -s
        else:
            for o in range(n):
                if board[o] == 0:
                    continue
                gain, removed, new_ta = step(board, ta, tb, o, n, forbid, out)
                rest = s - removed
                if row_sum(out, n, n) == 0:
                    e = gain + rest
                elif removed == 0:
                    stay += 1
                    continue
                else:
                    cta, ctb = child_of(out, n, new_ta, tb, child)
                    e = gain - values[index_of(child, cta, ctb, rest, n, offsets, config)]
                if e > best:
                    best = e
        best_exit[q] = best
        counter[q] = stay
        val[q] = UNDECIDED
        next_board(free[:f])


@njit(cache=True, parallel=True)
def forward_pass(s, start, end, n, forbid, values, offsets, config, tuzdiks, val, counter, best_exit, jobs):
    """:func:`_forward` over ``start..end-1`` in ``jobs`` parts, on every thread."""
    size = end - start
    for j in prange(jobs):
        a = start + size * j // jobs
        b = start + size * (j + 1) // jobs
        if b > a:
            _forward(s, a, b, n, forbid, values, offsets, config, tuzdiks, val, counter, best_exit)


@njit(cache=True)
def _stays(d, landing, ta, tb, n, forbid):
    """Whether a sowing that passed no tuzdik and whose last stone made ``d[landing]`` takes
    nothing off the board (:func:`step`'s capture and tuzdik, read backwards)."""
    if landing < n:
        return True
    held = d[landing]
    if held % 2 == 0:
        return False
    return not (
        held == 3
        and ta == -1
        and not (forbid != 0 and landing % n == n - 1)
        and not (tb != -1 and tb % n == landing % n)
    )


@njit(cache=True, nogil=True)
def unmoves(d, ta, tb, s, n, forbid, offsets, config, out, parent):
    """The positions (South to move, tier ``s``, tuzdiks ``ta`` and ``tb``) whose staying
    moves lead to ``d`` (the board right after the move, the mover's row first): their
    ranks in the tier into ``out``; returns how many (one per move).  A sowing that would
    pass a tuzdik takes a stone from its house, which holds none: it is never generated."""
    p = 2 * n
    if row_sum(d, n, n) == 0:  # a move emptying the opponent's row ends the game: an exit
        return 0
    base = offsets[s, 0]
    found = 0
    for o in range(n):
        if o == tb:
            continue
        for i in range(p):
            parent[i] = d[i]
        # one stone: it moved on to the next house, the origin is empty
        nxt = o + 1 if o + 1 < p else 0
        if d[o] == 0 and d[nxt] > 0 and _stays(d, nxt, ta, tb, n, forbid):
            parent[nxt] -= 1
            parent[o] = 1
            if found < out.shape[0]:
                out[found] = index_of(parent, ta, tb, s, n, offsets, config) - base
            found += 1
            parent[o] = 0
            parent[nxt] += 1
        # k >= 2 stones: one each into o, o+1, ..., o+k-1 (laps on small boards)
        pos = o
        parent[o] -= 1
        k = 1
        while parent[pos] >= 0:
            pos += 1
            if pos == p:
                pos = 0
            parent[pos] -= 1
            k += 1
            if parent[pos] < 0:
                break
            if parent[o] != 0 or not _stays(d, pos, ta, tb, n, forbid):
                continue
            parent[o] = k
            if found < out.shape[0]:
                out[found] = index_of(parent, ta, tb, s, n, offsets, config) - base
            found += 1
            parent[o] = 0
    return found


@njit(cache=True)
def _parent_view(q, s, n, offsets, tuzdiks, board, free, d):
    """Position ``q`` of tier ``s`` as the board right after its predecessor's move (rows
    swapped back); returns that mover's (tuzdik, opponent's tuzdik)."""
    c = position(q, s, n, offsets, tuzdiks, board, free)
    for i in range(n):
        d[i] = board[i + n]
        d[i + n] = board[i]
    cta = tuzdiks[c, 0]
    ctb = tuzdiks[c, 1]
    return (ctb + n if ctb >= 0 else -1), (cta - n if cta >= 0 else -1)


@njit(cache=True, parallel=True)
def predecessors(front, count, s, n, forbid, offsets, config, tuzdiks, out, found, jobs):
    """:func:`unmoves` of the first ``count`` positions of ``front`` (ranks in tier ``s``):
    row ``i`` of ``out`` gets those of ``front[i]``, ``found[i]`` how many."""
    p = 2 * n
    for j in prange(jobs):
        a = count * j // jobs
        b = count * (j + 1) // jobs
        board = np.empty(p, dtype=np.int64)
        free = np.empty(p, dtype=np.int64)
        d = np.empty(p, dtype=np.int64)
        parent = np.empty(p, dtype=np.int64)
        for i in range(a, b):
            ta, tb = _parent_view(np.int64(front[i]), s, n, offsets, tuzdiks, board, free, d)
            found[i] = unmoves(d, ta, tb, s, n, forbid, offsets, config, out[i], parent)


@njit(cache=True)
def settle_serial(won, lost, u, s, n, forbid, offsets, config, tuzdiks, val, counter, best_exit, limit, budget):
    """:func:`predecessors` and :func:`mancala.engine.retrograde.settle` on one thread, round after round, for the
    small frontiers: the positions ``won`` and ``lost`` by ``u`` and all they decide in
    turn, until none is left, more than ``limit`` are waiting or ``budget`` positions are
    done.  Returns those waiting (won, lost)."""
    p = 2 * n
    board = np.empty(p, dtype=np.int64)
    free = np.empty(p, dtype=np.int64)
    d = np.empty(p, dtype=np.int64)
    parent = np.empty(p, dtype=np.int64)
    out = np.empty(WIDTH, dtype=np.int64)
    ws = won.copy()
    nw = ws.shape[0]
    ls = lost.copy()
    nl = ls.shape[0]
    done = 0
    while (nw > 0 or nl > 0) and nw + nl <= limit and done < budget:
        done += 1
        is_won = nw > 0
        if is_won:
            nw -= 1
            c = ws[nw]
        else:
            nl -= 1
            c = ls[nl]
        ta, tb = _parent_view(np.int64(c), s, n, offsets, tuzdiks, board, free, d)
        k = unmoves(d, ta, tb, s, n, forbid, offsets, config, out, parent)
        if k > out.shape[0]:
            out = np.empty(k, dtype=np.int64)
            k = unmoves(d, ta, tb, s, n, forbid, offsets, config, out, parent)
        for j in range(k):
            q = out[j]
            if val[q] != UNDECIDED:
                continue
            if is_won:
                counter[q] -= 1
                if counter[q] == 0 and best_exit[q] <= -u:
                    val[q] = -u
                    ls = push(ls, nl, q)
                    nl += 1
            else:
                val[q] = u
                ws = push(ws, nw, q)
                nw += 1
    return ws[:nw].copy(), ls[:nl].copy()


@njit(cache=True, parallel=True)
def inconsistent(values, offsets, config, tuzdiks, tier, ranks, n, forbid):
    """How many of the positions ``ranks`` of tier ``tier`` break the table's equation: a
    position whose mover has no stones is worth ``-tier``, any other the best of its moves,
    ``gain - value(child)`` (or gain plus the stones left for a move emptying the opponent's row)."""
    p = 2 * n
    bad = np.zeros(ranks.shape[0], dtype=np.int64)
    for i in prange(ranks.shape[0]):
        board = np.empty(p, dtype=np.int64)
        free = np.empty(p, dtype=np.int64)
        out = np.empty(p, dtype=np.int64)
        child = np.empty(p, dtype=np.int64)
        c = position(np.int64(ranks[i]), tier, n, offsets, tuzdiks, board, free)
        ta = tuzdiks[c, 0]
        tb = tuzdiks[c, 1]
        if row_sum(board, 0, n) == 0:
            best = -tier
        else:
            best = -1000
            for o in range(n):
                if board[o] > 0:
                    v = move_value(board, ta, tb, tier, o, n, forbid, values, offsets, config, out, child)
                    if v > best:
                        best = v
        if best != values[offsets[tier, 0] + ranks[i]]:
            bad[i] = 1
    return bad.sum()


# --- the table -------------------------------------------------------------------------------


def normalise(houses: Any, tuzdiks: tuple[int, int], seat: int) -> tuple[np.ndarray, int, int]:
    """A position (board order, tuzdiks as :class:`~mancala.games.togyz.TogyzState` keeps them:
    South's on North's row, North's on South's) as the side to move ``seat`` sees it: (the
    board, mover's row first; the mover's tuzdik; the opponent's)."""
    b = np.asarray(houses, dtype=np.int64)
    n = b.shape[0] // 2
    if seat == 0:
        return b.copy(), int(tuzdiks[0]), int(tuzdiks[1])
    board = np.concatenate([b[n:], b[:n]])
    ta = tuzdiks[1] + n if tuzdiks[1] >= 0 else -1
    tb = tuzdiks[0] - n if tuzdiks[0] >= 0 else -1
    return board, int(ta), int(tb)


@dataclass
class TogyzTable:
    """A loaded or built table (:func:`probe` reads it)."""

    rules: TogyzRules
    max_stones: int
    values: np.ndarray
    layout: Layout

    @property
    def offsets(self) -> np.ndarray:
        """The first entry of each (tier, configuration) block (:class:`Layout`)."""
        return self.layout.offsets

    def value(self, houses: Any, tuzdiks: tuple[int, int], seat: int = 0) -> int:
        """The margin ``seat`` (to move) gets from the stones on the board under optimal play
        (``houses`` and ``tuzdiks`` as :class:`~mancala.games.togyz.TogyzState` keeps them);
        :data:`MISSING` when the board holds more than :attr:`max_stones` stones."""
        board, ta, tb = normalise(houses, tuzdiks, seat)
        return int(probe(self.values, self.layout.offsets, self.layout.config, board, ta, tb))


def check_sample(table: TogyzTable, samples: int, seed: int = 1) -> dict[int, int]:
    """Check ``samples`` random positions of each tier (every position of a smaller tier)
    against the table's equation (:func:`inconsistent`); returns the failures a tier."""
    rng = np.random.default_rng(seed)
    out = {}
    lay = table.layout
    n = table.rules.houses
    for tier in range(table.max_stones + 1):
        size = int(lay.offsets[tier + 1, 0] - lay.offsets[tier, 0])
        ranks = np.arange(size, dtype=np.int64) if size <= samples else rng.integers(0, size, samples)
        out[tier] = int(
            inconsistent(
                table.values, lay.offsets, lay.config, lay.tuzdiks, tier, ranks, n, int(table.rules.tuzdik_forbid_last)
            )
        )
    return out


def memory_needed(rules: TogyzRules, max_stones: int) -> int:
    """Bytes a build of ``max_stones`` stones needs at most (module doc, Memory)."""
    return entries(rules, max_stones) + 6 * tier_entries(rules, max_stones) + (64 << 20)


def largest_buildable(rules: TogyzRules, up_to: int) -> int:
    """The most stones, at most ``up_to``, of a table these rules allow within the memory
    bound (:func:`memory_limit`); -1 when none."""
    for stones in range(min(up_to, MAX_STONES), -1, -1):
        try:
            check_rules(rules, stones)
        except BadInput:
            continue
        if memory_needed(rules, stones) <= memory_limit():
            return stones
    return -1


def tier_path(rules: TogyzRules, tier: int) -> Path:
    """The cache file of one tier of the tables of ``rules``."""
    key = json.dumps(table_key(rules), sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache_dir() / f"togyz-v{FORMAT}-h{rules.houses}-{digest}-tier{tier}.db"


def _meta(rules: TogyzRules, tier: int) -> dict:
    return {"rules": table_key(rules), "repetition": CONVENTION, "tier": tier}


def save_tier(rules: TogyzRules, tier: int, payload: np.ndarray) -> Path:
    """Write one finished tier atomically (its header, then its entries)."""
    return save_tier_file(tier_path(rules, tier), MAGIC, _meta(rules, tier), payload)


def read_tier(rules: TogyzRules, tier: int, into: np.ndarray) -> bool:
    """Read tier ``tier`` from the cache into ``into``: False when there is no file; raises
    :class:`CorruptTable` when the file is damaged or holds other rules or another tier."""
    return read_tier_file(tier_path(rules, tier), MAGIC, _meta(rules, tier), into, "Togyz Kumalak", CorruptTable)


def _build_tier(s: int, rules: TogyzRules, values: np.ndarray, lay: Layout, parts: int) -> int:
    """Solve tier ``s`` in place in ``values`` (the smaller tiers are there already);
    returns the batches of predecessors generated (:func:`mancala.engine.retrograde.solve_tier`)."""
    n = rules.houses
    forbid = int(rules.tuzdik_forbid_last)
    offsets, config, tuzdiks = lay.offsets, lay.config, lay.tuzdiks
    lo = int(offsets[s, 0])
    val = values[lo : int(offsets[s + 1, 0])]

    def forward(start: int, end: int, counter: np.ndarray, best_exit: np.ndarray) -> None:
        forward_pass(s, start, end, n, forbid, values, offsets, config, tuzdiks, val, counter, best_exit, 4 * parts)

    def before(front: np.ndarray, out: np.ndarray, found: np.ndarray) -> None:
        predecessors(front, front.size, s, n, forbid, offsets, config, tuzdiks, out, found, 4 * parts)

    def serial(won, lost, u, counter, best_exit, limit, budget):
        return settle_serial(
            won, lost, u, s, n, forbid, offsets, config, tuzdiks, val, counter, best_exit, limit, budget
        )  # fmt: skip

    return solve_tier(s, val, forward, before, serial, WIDTH, parts)


def build(
    rules: TogyzRules,
    max_stones: int,
    progress: bool | Callable[[TierReport], None] | None = None,
    memory: int | None = None,
) -> TogyzTable:
    """The table of every position with at most ``max_stones`` stones on the board under
    ``rules``: tiers found in the cache are read, the others built and saved as each
    finishes (so Ctrl-C loses only the tier under way).  ``progress``: True prints a line a
    tier on stderr, or a function gets each :class:`TierReport`.  Raises :class:`BadInput`
    when the build would need more than ``memory`` bytes (default :func:`memory_limit`) or
    when the cache cannot be written."""
    check_rules(rules, max_stones)
    check_memory(
        f"a Togyz Kumalak endgame table of {max_stones} stones", memory_needed(rules, max_stones), memory,
        "set MANCALA_DB_MEMORY or --memory to raise it",
    )  # fmt: skip
    lay = layout(rules, max_stones)
    values = pages.zeros(int(lay.offsets[-1, 0]), np.int8)
    build_tiers(
        values, lay.offsets[:, 0], lambda s, tier: read_tier(rules, s, tier), lambda s, tier: save_tier(rules, s, tier),
        lambda s, parts: _build_tier(s, rules, values, lay, parts), lambda s: tier_path(rules, s),
        "Togyz Kumalak", CorruptTable, progress,
    )  # fmt: skip
    return TogyzTable(rules, max_stones, values, lay)


def load(rules: TogyzRules, max_stones: int) -> TogyzTable | None:
    """The table of ``max_stones`` stones for ``rules`` from the cache, or None when a tier of
    it was never built; raises :class:`CorruptTable` (one line) for a damaged file."""
    check_rules(rules, max_stones)
    lay = layout(rules, max_stones)
    values = pages.zeros(int(lay.offsets[-1, 0]), np.int8)
    if not read_tiers(values, lay.offsets[:, 0], lambda s, tier: read_tier(rules, s, tier)):
        return None
    return TogyzTable(rules, max_stones, values, lay)


def stones_on_disk(rules: TogyzRules, most_bytes: int | None = None) -> int:
    """The largest N such that every tier 0..N of ``rules``' table is in the cache (-1: none),
    within ``most_bytes`` entries when given."""
    best = -1
    stones = 0
    while stones <= MAX_STONES and tier_path(rules, stones).exists():
        if most_bytes is not None and entries(rules, stones) > most_bytes:
            break
        best = stones
        stones += 1
    return best
