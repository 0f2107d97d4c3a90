"""Ranking compositions: ``s`` stones or seeds over ``p`` houses <-> a number (the index of
the endgame tables of Oware and Togyz Kumalak).

A position with ``s`` seeds in ``p`` houses (``p = 2 x houses per side``) is a
composition of ``s`` into ``p`` parts; there are ``C(s+p-1, p-1)`` of them (for the 2 x 6
board: 12 seeds -> 1,352,078).  Drawn as stars and bars, the composition is the set of
its ``p-1`` bar places ``b_j = j + h_0 + ... + h_j`` (``j < p-1``), and its rank is that
set's place in the combinatorial number system, ``sum_j C(b_j, j+1)``: every number from
0 to ``C(s+p-1, p-1) - 1`` is the rank of one composition, with no gaps.  A database
numbers its tiers one after the other (``offsets[s]`` is the first entry of tier ``s``).

Everything here is ``njit``: the builder ranks every child and unranks the positions it
works on, and the engine probes the tables during its search.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

#: the largest ``a`` of a ``C(a, k)`` the table holds (a tier of 2 x 12 houses and 40 seeds)
MAX_A = 64
#: the largest ``k``: bars of up to 24 houses
MAX_K = 24
_LIMIT = (1 << 63) - 1


def _binomials() -> np.ndarray:
    table = np.zeros((MAX_A + 1, MAX_K + 1), dtype=np.int64)
    for a in range(MAX_A + 1):
        for k in range(MAX_K + 1):
            table[a, k] = min(comb(a, k), _LIMIT)
    return table


#: ``BINOM[a, k] = C(a, k)`` (a compile-time constant of the kernels; saturated at 2^63-1)
BINOM = _binomials()


def tier_size(houses: int, seeds: int) -> int:
    """Positions with ``seeds`` seeds in ``houses`` houses (both rows): ``C(seeds+houses-1, houses-1)``."""
    return comb(seeds + houses - 1, houses - 1)


def tier_offsets(houses: int, max_seeds: int) -> np.ndarray:
    """``offsets[s]``: the first entry of tier ``s`` in a database of tiers ``0..max_seeds``
    over ``houses`` houses; ``offsets[max_seeds + 1]`` is the number of entries."""
    out = np.zeros(max_seeds + 2, dtype=np.int64)
    for s in range(max_seeds + 1):
        out[s + 1] = out[s] + tier_size(houses, s)
    return out


def fits(houses: int, max_seeds: int) -> bool:
    """Whether the rank table covers ``houses`` houses and ``max_seeds`` seeds."""
    return houses - 1 <= MAX_K and max_seeds + houses - 2 <= MAX_A


@njit(cache=True)
def rank(board, seeds):
    """The rank of ``board`` (its ``p`` houses holding ``seeds`` seeds in all) in its tier."""
    r = np.int64(0)
    prefix = 0
    for j in range(board.shape[0] - 1):
        prefix += board[j]
        r += BINOM[prefix + j, j + 1]
    return r


@njit(cache=True)
def unrank(r, seeds, board):
    """Fill ``board`` (``p`` houses) with the position of rank ``r`` among those of ``seeds``
    seeds (the inverse of :func:`rank`)."""
    p = board.shape[0]
    top = seeds + p - 1  # bars lie below this
    for j in range(p - 2, -1, -1):
        b = top - 1
        while BINOM[b, j + 1] > r:
            b -= 1
        r -= BINOM[b, j + 1]
        board[j + 1] = top - b - 1
        top = b
    board[0] = top


@njit(cache=True)
def next_board(board):
    """Step ``board`` to the position of the next rank in its tier, in place; False after
    the last one (all seeds in house 0)."""
    p = board.shape[0]
    total = 0
    for j in range(p - 1):
        total += board[j]
        if board[j + 1] > 0:
            board[j + 1] -= 1
            for i in range(j):
                board[i] = 0
            board[j] = total + 1
            return True
    return False
