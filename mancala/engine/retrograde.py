"""Retrograde analysis' level steps, shared by the endgame tables of Oware
(:mod:`mancala.engine.oware.endgame`) and Togyz Kumalak (:mod:`mancala.engine.togyz.endgame`).

A tier (the positions of one count of seeds or stones on the board) is solved level by level,
``u = s, s-1, ..., 1``: at level ``u`` a position is won by ``u`` when its best exit (a move
leaving the tier, valued from the smaller tiers) is ``u`` or a move inside the tier reaches a
position lost by ``u``; it is lost by ``u`` when no move inside the tier is left unresolved
and its best exit is ``-u`` or less.  The game's own module finds each newly decided
position's predecessors inside the tier (by un-sowing) and hands them to :func:`settle`;
these steps know nothing of the game.  Every array is one entry a position of the tier:
``val`` (int8, :data:`UNDECIDED` until decided), ``counter`` (moves inside the tier still
unresolved), ``best_exit`` (int8).  Each step splits the tier into ``parts`` ranges, one a
thread (numba ``prange``), so no two threads write one entry.
"""

from __future__ import annotations

import numpy as np  # noqa: F401 (numba's typing of the arrays)
from numba import njit, prange

#: an entry not decided yet (a margin is never below -127)
UNDECIDED = -128


@njit(cache=True, parallel=True)
def settle(won, u, out, found, count, val, counter, best_exit, parts, news, news_count):
    """Decide the predecessors of ``count`` newly decided positions (``out``/``found`` from
    :func:`predecessors`).  ``won``: those positions are won by ``u``, so each predecessor
    has one unresolved successor fewer and, with none left and no exit better than ``-u``,
    is lost by ``u``; else they are lost by ``u`` and every predecessor is won by ``u``.
    Part ``t`` of the tier is settled by thread ``t`` alone (no two threads write one
    entry); the positions it decides go to row ``t`` of ``news``."""
    size = val.shape[0]
    for t in prange(parts):
        lo = size * t // parts
        hi = size * (t + 1) // parts
        k = 0
        for i in range(count):
            for j in range(found[i]):
                q = out[i, j]
                if q < lo or q >= hi or val[q] != UNDECIDED:
                    continue
                if won:
                    counter[q] -= 1
                    if counter[q] == 0 and best_exit[q] <= -u:
                        val[q] = -u
                        news[t, k] = q
                        k += 1
                else:
                    val[q] = u
                    news[t, k] = q
                    k += 1
        news_count[t] = k


@njit(cache=True, parallel=True)
def scan_level(u, start, end, val, counter, best_exit, parts, wins, losses, counts):
    """Positions ``start..end-1`` decided at level ``u`` by their exits alone: won by ``u``
    (best exit ``u``) into row ``t`` of ``wins``, lost by ``u`` (no successor unresolved,
    best exit ``-u``) into ``losses``; ``counts[t]`` = (wins, losses) of part ``t``."""
    size = end - start
    for t in prange(parts):
        a = start + size * t // parts
        b = start + size * (t + 1) // parts
        w = 0
        lo = 0
        for q in range(a, b):
            e = best_exit[q]
            if e != u and e != -u:  # the common case, one byte read
                continue
            if val[q] != UNDECIDED:
                continue
            if e == u:
                val[q] = u
                wins[t, w] = q
                w += 1
            elif counter[q] == 0:
                val[q] = -u
                losses[t, lo] = q
                lo += 1
        counts[t, 0] = w
        counts[t, 1] = lo


@njit(cache=True, parallel=True)
def finish_tier(val, parts):
    """Every position still undecided is endless play: margin 0."""
    size = val.shape[0]
    for t in prange(parts):
        for q in range(size * t // parts, size * (t + 1) // parts):
            if val[q] == UNDECIDED:
                val[q] = 0
