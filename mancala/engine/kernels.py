"""Numba-compiled Kalah kernels: rules, move generation, sowing, endgame ranking.

Everything here works on a *mover-relative* board: a 1-D ``int64`` array of
``2n+2`` cells in counter-clockwise order where the player to move always sits
South::

    0 .. n-1   the mover's pits 1..n
    n          the mover's store
    n+1 .. 2n  the opponent's pits 1..n
    2n+1       the opponent's store

After a move that passes the turn the board is rotated (halves swapped), so a
position's identity never depends on the seat, and transposition and endgame
tables need no side bit.  Rules are a small ``int64`` array (see
:func:`mancala.engine.bridge.rules_array`), indexed by the ``R_*`` constants.

A move is a code ``c``: pit ``c % n`` (0-based), clockwise when ``c >= n``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- the rules array -------------------------------------------------------
R_PITS = 0  # pits per side
R_CAPTURE = 1  # 0 none, 1 opposite+last, 2 opposite only
R_EMPTY = 2  # 1: capture even when the opposite pit is empty
R_SKIP = 3  # 1: laps skip the emptied origin pit
R_END = 4  # 0 either row empty, 1 the mover cannot move
R_REMAIN = 5  # 0 remaining seeds to the row's owner, 1 to the opponent
R_CHOICE = 6  # 1: the mover chooses the sowing direction
R_NOFIRST = 7  # 1: the first move of the game never earns an extra turn
R_PIE = 8  # 1: pie rule
R_SIZE = 9

# --- make_move statuses ------------------------------------------------------
PASS = 0  # the turn passes (the output board is rotated to the new mover)
EXTRA = 1  # extra turn (not rotated)
OVER = 2  # the game is over (board swept into the stores, not rotated), turn passed
OVER_EXTRA = 3  # the game is over after a move that earned an extra turn


@njit(cache=True)
def gen_moves(b, rules, out):
    """Write the legal move codes of ``b`` (mover-relative) into ``out`` in the
    reference order (pit 1..n; under the choice rule R before L); return how many."""
    n = rules[R_PITS]
    k = 0
    if rules[R_CHOICE] == 1:
        minimum = 1
        for p in range(n):
            if b[p] >= 2:
                minimum = 2
                break
        for p in range(n):
            if b[p] >= minimum:
                out[k] = p
                out[k + 1] = p + n
                k += 2
    else:
        for p in range(n):
            if b[p] > 0:
                out[k] = p
                k += 1
    return k


@njit(cache=True)
def row_sums(b, n):
    """Seeds in the mover's row and in the opponent's row."""
    me = 0
    opp = 0
    for i in range(n):
        me += b[i]
        opp += b[n + 1 + i]
    return me, opp


@njit(cache=True)
def is_over(b, rules, me_next):
    """Whether the game ends with ``me_next`` (1: the South side of ``b``) to move."""
    n = rules[R_PITS]
    me, opp = row_sums(b, n)
    if rules[R_END] == 0:
        return me == 0 or opp == 0
    if me_next == 1:
        return me == 0
    return opp == 0


@njit(cache=True)
def sweep(b, rules):
    """Move the seeds left on the board into the stores, as the end rule says."""
    n = rules[R_PITS]
    me, opp = row_sums(b, n)
    for i in range(n):
        b[i] = 0
        b[n + 1 + i] = 0
    if rules[R_REMAIN] == 0:
        b[n] += me
        b[2 * n + 1] += opp
    else:
        b[n] += opp
        b[2 * n + 1] += me


@njit(cache=True)
def rotate(b, n):
    """Swap the two halves of ``b`` in place (hand the move to the other side)."""
    for i in range(n + 1):
        t = b[i]
        b[i] = b[i + n + 1]
        b[i + n + 1] = t


@njit(cache=True)
def make_move(b, c, out, rules, first):
    """Play move ``c`` on ``b`` into ``out`` (a copy; ``b`` is untouched).

    ``first`` is 1 for the very first move of the game (for the rule that it
    never earns an extra turn).  Returns PASS (``out`` rotated to the new
    mover), EXTRA, or OVER / OVER_EXTRA (``out`` swept, not rotated).
    """
    n = rules[R_PITS]
    size = 2 * n + 2
    for i in range(size):
        out[i] = b[i]
    origin = c % n
    cw = c >= n
    seeds = out[origin]
    out[origin] = 0
    skip = rules[R_SKIP] == 1
    cycle = 2 * n if skip else 2 * n + 1
    laps = seeds // cycle
    rest = seeds - laps * cycle
    if laps > 0:
        for i in range(2 * n + 1):
            out[i] += laps
        if skip:
            out[origin] -= laps
    i = origin
    if rest > 0:
        if cw:
            for _ in range(rest):
                i -= 1
                if i < 0:
                    i = 2 * n
                out[i] += 1
        else:
            for _ in range(rest):
                i += 1
                if i > 2 * n:
                    i = 0
                out[i] += 1
        last = i
    else:
        if not skip:
            last = origin
        elif cw:
            last = origin + 1
        else:
            last = origin - 1 if origin > 0 else 2 * n
    extra = last == n and not (first == 1 and rules[R_NOFIRST] == 1)
    mode = rules[R_CAPTURE]
    if mode != 0 and last < n and out[last] == 1:
        opp = 2 * n - last
        if out[opp] > 0 or rules[R_EMPTY] == 1:
            got = out[opp]
            out[opp] = 0
            if mode == 1:
                got += 1
                out[last] = 0
            out[n] += got
    if is_over(out, rules, 1 if extra else 0):
        sweep(out, rules)
        return OVER_EXTRA if extra else OVER
    if extra:
        return EXTRA
    rotate(out, n)
    return PASS


@njit(cache=True)
def board_seeds(b, n):
    """Seeds in the pits (stores excluded)."""
    s = 0
    for i in range(n):
        s += b[i] + b[n + 1 + i]
    return s


# --- endgame ranking -----------------------------------------------------------


def composition_table(parts: int, seeds: int) -> np.ndarray:
    """``comp[P, t]``: the number of ways to put ``t`` seeds in ``P`` pits (C(t+P-1, P-1))."""
    comp = np.zeros((parts + 1, seeds + 1), dtype=np.int64)
    comp[0, 0] = 1
    for p in range(1, parts + 1):
        for t in range(seeds + 1):
            comp[p, t] = comp[p - 1, t] + (comp[p, t - 1] if t > 0 else 0)
    return comp


@njit(cache=True)
def rank(b, n, total, comp):
    """The rank of the pit contents of ``b`` among all boards with ``total`` seeds in
    their ``2n`` pits (lexicographic, mover's pit 1 most significant)."""
    r = 0
    t = total
    parts = 2 * n
    idx = 0
    for j in range(2 * n - 1):
        i = j if j < n else j + 1
        v = b[i]
        r += comp[parts - idx, t] - comp[parts - idx, t - v]
        t -= v
        idx += 1
    return r
