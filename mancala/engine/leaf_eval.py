"""The named Kalah evaluation terms of :mod:`mancala.evaluation.terms`, compiled for the
engine's depth leaves.

The engine's boards are mover-relative with empty stores (see :mod:`kernels`), and its
values are relative to the store difference (see :mod:`search`), so a spec
``store:W,t1:w1,...`` becomes the leaf estimate ``sum(wi/W * ti)`` in store seeds: the
store term is the unit.  Weights travel as integers in ``1/RESOLUTION`` of the store
weight in the search's control array, one slot per term (``C_TERMS + index``), with
``C_EVAL`` = 1 switching them on and ``C_TOTAL`` holding the game's seeds (for
``endgame``).  A leaf's estimate is rounded to the nearest seed and clamped to the
exact futility bound ``[-s, s]`` (``s`` seeds in the pits), so the search's exact
pruning stays exact whatever the weights.

Each term is computed once, here, as an integer numerator over a known denominator
(1, or ``n`` for ``near``, or the game's seeds for ``endgame``): :func:`leaf_value`
combines them exactly, :func:`term_values` gives each as a float (for tests, against
:mod:`mancala.evaluation.terms`).  ``majority`` needs the stores' contents, which the
engine's boards and tables do not have: it is refused
(:func:`mancala.search.terms.engine_weights`, which turns a spec into the weights).

(numba's cache of :mod:`search`, which compiles these into its negamax, does not notice
an edit of this file: delete ``mancala/engine/__pycache__/search.*.nb*`` after one.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from mancala.engine.kernels import R_CAPTURE, R_CHOICE, R_EMPTY, R_PITS, R_REMAIN
from mancala.evaluation.terms import ENGINE_RESOLUTION, KALAH_TERMS

#: the terms, in the order of their control slots (the names of :data:`KALAH_TERMS`)
TERMS = tuple(KALAH_TERMS)
#: weights are integers in this fraction of the store weight
RESOLUTION = ENGINE_RESOLUTION

# control slots (after the search's own, see search.C_SIZE)
C_EVAL = 32  # 1: depth leaves use the weighted terms below instead of the row difference
C_TOTAL = 33  # the game's seeds (stores included), for ``endgame``
C_TERMS = 34  # one weight per term of TERMS, in 1/RESOLUTION of the store weight
C_END = C_TERMS + len(TERMS)

T_SEEDS, T_EMPTY, T_EXTRA, T_THREAT, T_EXPOSURE, T_NEAR, T_HOARD, T_MOBILITY, T_ENDGAME, T_STARVE = (
    TERMS.index(t)
    for t in ("seeds", "empty", "extra", "threat", "exposure", "near", "hoard", "mobility", "endgame", "starve")
)


def set_weights(ctl: np.ndarray, weights: tuple[tuple[str, int], ...], total: int) -> None:
    """Switch the depth leaves of ``ctl`` (the search's control array, at least ``C_END``
    long) to ``weights`` (:func:`mancala.search.terms.engine_weights`; none: the store
    difference alone), for a game of ``total`` seeds."""
    ctl[C_EVAL:C_END] = 0
    ctl[C_EVAL] = 1
    ctl[C_TOTAL] = total
    for name, q in weights:
        ctl[C_TERMS + TERMS.index(name)] += q


# --- the terms: integer numerators, mover's view ------------------------------------------


@njit(cache=True)
def _sum_row(b, start, n):
    s = 0
    for i in range(n):
        s += b[start + i]
    return s


@njit(cache=True)
def _best_capture(b, start, other, n, ctl):
    """The most seeds one move of the row at ``b[start:start+n]`` captures now (single lap
    sowings only); the opponent's row starts at ``other`` (my pit i faces its pit n+1-i)."""
    mode = ctl[R_CAPTURE]
    if mode == 0 or ctl[R_CHOICE] == 1:
        return 0
    best = 0
    for p in range(n):
        seeds = b[start + p]
        if seeds == 0 or seeds >= 2 * n + 1:
            continue
        land = p + seeds  # 0-based
        if land >= n or b[start + land] != 0:
            continue
        facing = b[other + n - 1 - land]
        if facing == 0 and ctl[R_EMPTY] != 1:
            continue
        gain = facing + (1 if mode == 1 else 0)
        if gain > best:
            best = gain
    return best


@njit(cache=True)
def _reaching(b, start, n):
    """Pits of the row at ``b[start:start+n]`` whose sowing ends in its owner's store."""
    k = 0
    lap = 2 * n + 1
    for p in range(n):
        seeds = b[start + p]
        if seeds >= lap:  # (rare: spare the division otherwise)
            seeds %= lap
        if seeds == n - p:
            k += 1
    return k


@njit(cache=True)
def term_numerator(b, ctl, t):
    """Term ``t`` (an index of TERMS) of mover-relative board ``b`` times its denominator
    (:func:`term_denominator`), an integer."""
    n = ctl[R_PITS]
    o = n + 1
    if t == T_SEEDS or t == T_ENDGAME or t == T_STARVE:
        me = _sum_row(b, 0, n)
        opp = _sum_row(b, o, n)
        sign = 1 if ctl[R_REMAIN] == 0 else -1
        if t == T_SEEDS:
            return me - opp
        if t == T_STARVE:
            return sign * ((1 if opp < n else 0) - (1 if me < n else 0))
        total = ctl[C_TOTAL]
        if total == 0:
            return 0
        return sign * (me - opp) * (total - me - opp)
    if t == T_EXTRA:
        if ctl[R_CHOICE] == 1:
            return 0
        return _reaching(b, 0, n) - _reaching(b, o, n)
    if t == T_THREAT:
        return _best_capture(b, 0, o, n, ctl) - _best_capture(b, o, 0, n, ctl)
    v = 0
    if t == T_HOARD:
        hm = 0
        ho = 0
        for i in range(n):
            hm = max(hm, b[i])
            ho = max(ho, b[o + i])
        return hm - ho
    for i in range(n):
        mine = b[i]
        theirs = b[o + i]
        if t == T_EMPTY:
            v += (1 if mine == 0 else 0) - (1 if theirs == 0 else 0)
        elif t == T_MOBILITY:
            v += (1 if mine != 0 else 0) - (1 if theirs != 0 else 0)
        elif t == T_NEAR:
            v += (mine - theirs) * (i + 1)
        elif t == T_EXPOSURE:
            # my pit i faces the opponent's pit n-1-i
            if b[o + n - 1 - i] == 0:
                v += mine
            if b[n - 1 - i] == 0:
                v -= theirs
    return v


@njit(cache=True)
def term_denominator(ctl, t):
    """What :func:`term_numerator` of term ``t`` is to be divided by (never 0)."""
    if t == T_NEAR:
        return ctl[R_PITS]
    if t == T_ENDGAME and ctl[C_TOTAL] > 0:
        return ctl[C_TOTAL]
    return 1


@njit(cache=True)
def term_values(b, ctl, out):
    """Every term of ``b`` (mover's view) as a float into ``out`` (by TERMS index; 0 for
    ``store``, the unit, and for the terms the engine refuses)."""
    for t in range(C_END - C_TERMS):
        out[t] = term_numerator(b, ctl, t) / term_denominator(ctl, t)


@njit(cache=True)
def leaf_value(b, ctl):
    """A depth leaf's estimate: the weighted terms in store seeds, rounded to the nearest
    (halves up) and clamped to ``[-s, s]`` (``s`` seeds in the pits, the exact bound)."""
    n = ctl[R_PITS]
    big = n * max(ctl[C_TOTAL], 1)  # common denominator of every term
    num = 0
    for t in range(C_END - C_TERMS):
        w = ctl[C_TERMS + t]
        if w != 0:
            num += w * term_numerator(b, ctl, t) * (big // term_denominator(ctl, t))
    den = big * RESOLUTION
    v = (2 * num + den) // (2 * den)
    s = 0
    for i in range(n):
        s += b[i] + b[n + 1 + i]
    if v > s:
        return s
    if v < -s:
        return -s
    return v
