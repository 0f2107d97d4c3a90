"""Progress in an Oware endgame table: of the moves that keep a position's value, which one
*converts* soonest (a capture, the game's end, or an opponent's mistake), whatever the
opponent does.

Why.  A table (:mod:`mancala.engine.oware.endgame`) holds values, not distances.  A side
that only keeps the value may go round in circles, since every move of the circle keeps
it, and the repetition rule then ends the game with the board shared or left in each
row, not with the value the table promised.  Two of our games against MCTS were drawn so,
the table saying +4 for us all along (North to move in ``0-2-0-0-0-0-0-2-1-1-0-0``, stores
22 and 20: the table's line that circles never captures; the converting line wins
26-22).

How.  An attractor, computed backwards: the positions reachable from the root without a
capture, by the mover's moves that keep its value and every move of the opponent's,
explored breadth first up to a node limit; a position of the mover's converts in one ply
more than its best successor, one of the opponent's in one more than its worst, once all
of them are solved.  The attractor is solved after 1, 2, 4, 8… layers, so a near
conversion costs little; once the root is proved in R plies, the layers are explored to
R before the answer is given, so it is the soonest (every line of R plies is in the
graph).  So the forced line lowers its rank at every ply and repeats no position of its
own, and the next move's answer continues it.  A position of the game's history (since
the last capture) ends the game when met again: a move of the mover's onto one is left
out, and an opponent's move onto one leaves its position unproved, as does a reply beyond
the node limit.

Positions are as the endgame kernels see them: normalised (the side to move's row first),
with ``parity`` 0 when the root's mover is to move and 1 when its opponent is; values are
the table's, from the seeds on the board (stores cannot change without a capture).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from mancala.engine.compositions import rank
from mancala.engine.oware.endgame import end_margin, legal_moves, probe, rotate, sow_and_capture

#: the most positions explored (each holds a board of 2n houses and n successors)
CONVERSION_NODES = 200_000
#: :func:`conversion_plies`' "not proved to convert"
UNPROVED = -1


@njit(cache=True)
def node_key(board, seeds, parity):
    """A position's key: its rank in its tier (``board`` normalised, ``seeds`` on it) and
    ``parity`` (0: the root's mover to move, 1: its opponent)."""
    return rank(board, seeds) * 2 + parity


@njit(cache=True)
def _solve(done, count, mine, succ, nsucc, state, plies):
    """The attractor over the expanded nodes ``0..done-1`` of ``count`` (see the module
    doc): ``state`` is 1 for a node that converts at once (a move of the mover's converts,
    or every move of the opponent's does), 2 for a node that never does, 0 otherwise; fills
    ``plies`` (nodes not expanded stay unproved)."""
    for i in range(count):
        plies[i] = 1 if i < done and state[i] == 1 else UNPROVED
    changed = True
    while changed:
        changed = False
        for i in range(done - 1, -1, -1):
            if state[i] != 0:
                continue
            best = UNPROVED
            for j in range(nsucc[i]):
                r = plies[succ[i, j]]
                if mine[i]:
                    if r != UNPROVED and (best == UNPROVED or r < best):
                        best = r
                else:
                    if r == UNPROVED:
                        best = UNPROVED
                        break
                    if r > best:
                        best = r
            if best != UNPROVED and (plies[i] == UNPROVED or best + 1 < plies[i]):
                plies[i] = best + 1
                changed = True


@njit(cache=True)
def conversion_plies(root, rules, values, offsets, history, limit, out):
    """For each of the root mover's houses ``o`` (``out[o]``): the plies after the move
    until it has converted at the latest (0: the move itself converts), or
    :data:`UNPROVED` when the move does not keep the root's value or is not proved to
    convert within ``limit`` positions.  ``root`` is normalised; ``history`` holds the keys
    (:func:`node_key`, parity from the root mover's side) of the positions since the last
    capture, the root's included.  Returns the positions explored."""
    n = out.shape[0]
    p = 2 * n
    seeds = 0
    for i in range(p):
        seeds += root[i]
    keep = probe(values, offsets, root)
    seen = numba.typed.Dict.empty(key_type=numba.types.int64, value_type=numba.types.int64)
    for k in history:
        seen[k] = -1
    index = numba.typed.Dict.empty(key_type=numba.types.int64, value_type=numba.types.int64)
    boards = np.empty((limit, p), dtype=np.int64)
    mine = np.zeros(limit, dtype=np.bool_)
    succ = np.empty((limit, n), dtype=np.int64)
    nsucc = np.zeros(limit, dtype=np.int64)
    state = np.zeros(limit, dtype=np.int64)
    plies = np.empty(limit, dtype=np.int64)
    first = np.full(n, -2, dtype=np.int64)  # root move -> successor node, -1: converts, -2: not kept
    moves = np.empty(n, dtype=np.int64)
    scratch = np.empty(p, dtype=np.int64)
    child = np.empty(p, dtype=np.int64)
    cmoves = np.empty(n, dtype=np.int64)
    cscratch = np.empty(p, dtype=np.int64)
    boards[0] = root
    mine[0] = True
    index[node_key(root, seeds, 0)] = 0
    count = 1
    done = 0  # nodes expanded
    layer_end = 1
    layers = 0
    check = 1
    for o in range(n):
        out[o] = UNPROVED
    while done < count:
        i = done
        done += 1
        b = boards[i]
        m = legal_moves(b, n, rules, moves, scratch)
        converts = False
        never = False
        mover_keep = keep if mine[i] else -keep
        for j in range(m):
            o = moves[j]
            captured, over, margin = sow_and_capture(b, o, n, rules, scratch)
            ended = over != 0
            if not ended and captured == 0:
                rotate(scratch, n, child)
                if legal_moves(child, n, rules, cmoves, cscratch) == 0:
                    ended = True
                    margin = -end_margin(child, n, rules)
            if ended:
                v = margin
            elif captured > 0:
                rotate(scratch, n, child)
                v = captured - probe(values, offsets, child)
            else:
                v = -probe(values, offsets, child)
            if mine[i] and v != mover_keep:
                continue  # not a move of the value
            if ended or captured > 0 or (not mine[i] and v < mover_keep):
                if v <= mover_keep:
                    converts = True  # the mover keeps its value and converts / the opponent errs
                    if i == 0:
                        first[o] = -1
                else:
                    never = True  # the opponent gains: the table says it cannot happen
                continue
            if v > mover_keep:
                never = True
                continue
            k = node_key(child, seeds, 0 if not mine[i] else 1)
            if k in seen:
                if not mine[i]:
                    never = True  # the opponent can end the game by repetition
                continue
            if k in index:
                c = index[k]
            elif count < limit:
                c = count
                boards[c] = child
                mine[c] = not mine[i]
                index[k] = c
                count += 1
            else:
                never = never or not mine[i]  # beyond the limit: a reply left unexplored
                continue
            succ[i, nsucc[i]] = c
            nsucc[i] += 1
            if i == 0:
                first[o] = c
        if mine[i]:
            state[i] = 1 if converts else (0 if nsucc[i] > 0 else 2)
        else:
            state[i] = 2 if never or (nsucc[i] == 0 and not converts) else (1 if nsucc[i] == 0 else 0)
        if done == layer_end:
            layers += 1
            layer_end = count
            if layers == check or done == count:
                check *= 2
                _solve(done, count, mine, succ, nsucc, state, plies)
                if plies[0] != UNPROVED:
                    if layers > plies[0] or done == count:
                        break  # every line of at most plies[0] plies is explored: the soonest is known
                    check = plies[0] + 1
    for o in range(n):
        if first[o] == -1:
            out[o] = 0
        elif first[o] >= 0 and first[o] < done and plies[first[o]] != UNPROVED:
            out[o] = plies[first[o]]
    return count
