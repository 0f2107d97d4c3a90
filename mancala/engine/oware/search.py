"""Fast Oware search: numba negamax alpha-beta (fail-soft) with a transposition table, move
ordering and iterative deepening within a depth, node or time budget.

Values are those of :func:`mancala.search.core.alphabeta` with the same evaluation
(:mod:`mancala.evaluation.oware`) at the same depth: the kernels play the reference's rules
and compute its evaluation bit for bit from the mover's side (the evaluation is
antisymmetric, so negamax's negation is exact in floating point).

Repetition.  A position (houses and side to move) that recurs since the last capture ends
the game (scored by the rules' ``repetition`` option).  The search keeps the positions of
its path since the last capture on a stack whose bottom is the game's own history
(``state.seen``), and a child found on it is a finished game.  So a node's value depends on
the path that reached it, not only on its position.  The transposition table deals with
this in one of two ways (:class:`OwareSearcher`'s ``path_keys``):

* ``path_keys=True`` (the default): the table key is the position (houses, stores, side to
  move) *and* the set of positions since the last capture (a XOR of their keys).  Equal keys
  mean equal subtrees, so a stored bound is exactly what the reference would find: values
  are exact.  The price: two move orders that reach one position without a capture have
  different histories and share no entry (after a capture the history is the position
  alone, so they do share again).
* ``path_keys=False``: the key is the position only; entries are shared between such
  transpositions, and a value stored on one path may be reused on another whose history
  would have ended the game by repetition (the "graph history interaction" most game
  programs accept).  Faster; values may then differ from the reference's in positions
  where a repetition is in reach.

The key also holds the ply, as the Bao engine's does: within one search a key then has one
remaining depth, so a stored bound is the one the reference computes at that depth (entries
of shallower iterations only order moves; a position met again at another ply, rare in
Oware, is searched again).

Move order: the table's move, then winning ends, captures (most seeds first), the two killer
moves of the ply, the history heuristic.  After the first move a node searches the others
with a null window (principal variation search) and again in full only when one is better;
the values stay those of plain alpha-beta.

Endgame databases.  :data:`ENDGAME_PROBE` (or :func:`search`'s ``probe``) is asked at the
root before any search: a callable ``probe(game, state) -> (move, value) | None`` (its value
counts as exact).  Inside the search, a table given to :func:`search` (``table=``, or
:meth:`OwareSearcher.use_table`) values every position below the root with at most its
seeds on the board (:func:`table_value`: the stores' margin plus the table's margin from the
board, as :func:`mancala.engine.oware.exact.move_values` counts it), a compiled lookup into
its arrays; such a value counts as exact (the search stops deepening once every line ends
in the table or the game's end), labelled ``oware-engine(table)`` where the rules' own-row
repetition makes the table an estimate.  Play under own-row repetition takes the table only
at the depth limit, in place of the evaluation (:func:`mancala.engine.oware.exact.table_mode`,
:meth:`OwareSearcher.use_table`): the search goes on through the table's positions and
scores a repetition it meets by the rows, and the root's probe leaves those positions to the
search (:func:`mancala.engine.oware.exact.probe_move`).
"""

from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional

import numpy as np
from numba import njit

from mancala.engine import kit
from mancala.engine.compositions import BINOM
from mancala.engine.kit import C_ABORT, C_HEUR, C_LIMIT, C_NODES, C_OWN, C_ROOTMOVE, C_USE_TT
from mancala.engine.oware import kernels as K
from mancala.engine.oware.endgame import MISSING, OwareTable
from mancala.engine.oware.exact import (
    TABLE_AT_HORIZON,
    TABLE_BUT_ZERO,
    TABLE_ENDS,
    exact_rules,
    table_mode,
)
from mancala.engine.oware.rules import rules_array, supports
from mancala.errors import BadInput
from mancala.evaluation.oware import DEFAULT, WIN, OwareWeights, final_value, play_weights
from mancala.games.oware import Oware, OwareMove, OwareState
from mancala.search.core import SearchResult

#: deepest search (plies; Oware has no extra turns, so plies are turns)
MAX_DEPTH = 64
#: transposition table entries (a power of two); 24 bytes each
TABLE_ENTRIES = 1 << 20

# ctl slots: the kit's (mancala.engine.kit: nodes, budget, abort, root move: a house, table), then
C_PATH_KEYS = C_OWN  # 1: table keys include the history since the last capture
C_BASE = C_OWN + 1  # history index of the root position
C_PVS = C_OWN + 2  # 1: principal variation search (null windows after the first move)
C_TB_SEEDS = C_OWN + 3  # the endgame table's most seeds on the board (-1: no table in the search)
C_TB_HITS = C_OWN + 4  # positions valued by the endgame table
C_ROOTFIRST = C_OWN + 5  # a root move to search first (the last iteration's best; -1: none)
C_LEAF = C_OWN + 6  # what a leaf at the depth limit is worth: LEAF_HEURISTIC, LEAF_LOW or LEAF_HIGH
C_ROOTSEAT = C_OWN + 7  # the seat to move at the root (for LEAF_LOW and LEAF_HIGH)
C_LMR = C_OWN + 8  # late move reductions: quiet moves from this one in the order on (0: none)
C_LMR_DEPTH = C_OWN + 9  # ... at nodes with at least this many plies left
C_LMR_DEEP = C_OWN + 10  # ... by two plies at nodes with at least this many left (0: never)
C_TB_MODE = C_OWN + 11  # how the table's entries end the search: TABLE_ENDS, TABLE_BUT_ZERO, TABLE_AT_HORIZON
C_SIZE = C_OWN + 12

#: late move reductions (:class:`OwareSearcher`'s ``reductions`` = k): from the k+1-th move in
#: the order on, a move that captures nothing and is not a killer, at a node with at least
#: this many plies left, is searched one ply shallower first (with a null window), and again
#: at full depth when it beats the best so far.  Values then differ from the reference's
LMR_DEPTH = 3
#: the shallowest iteration that helper threads join (shallower ones take microseconds)
HELPER_DEPTH = 6
#: a timed search whose helper ran while the process got less than this many cores (its CPU
#: seconds over the wall seconds) found the machine busy: a helper then takes time from the
#: main search instead of adding to it, so the next :data:`CROWDED_SKIP` timed searches of
#: that searcher run without helpers, and then it tries again
CROWDED_CORES = 1.5
CROWDED_SKIP = 8
#: the reductions the ``best`` player searches with when it has no depth budget (``best``,
#: ``best:time=``, ``best:nodes=``, ``strongest``); the depth levels keep the reference's
#: values.  Measured in docs/oware.md ("Search depth beside Aalina")
PLAY_REDUCTIONS = 3
#: ... and by two plies at nodes with at least this many plies left (``reduce_two``): 61.9 %
#: over 80 games at equal nodes against one ply everywhere (docs/oware.md)
PLAY_REDUCE_TWO = 6


def play_settings(houses: int, weights: OwareWeights | None = None) -> dict:
    """How the ``best`` player searches a board of ``houses`` a side when it has no depth
    budget, as keyword arguments of :func:`search` and :class:`OwareSearcher`: the fitted
    weights (:func:`~mancala.evaluation.oware.play_weights`, or ``weights``, e.g. weights
    being fitted) and the late move reductions (:data:`PLAY_REDUCTIONS`,
    :data:`PLAY_REDUCE_TWO`).  The one place that says it, so that a benchmark or a fit
    searches exactly what ``best`` plays."""
    return {
        "weights": play_weights(houses) if weights is None else weights,
        "reductions": PLAY_REDUCTIONS,
        "reduce_two": PLAY_REDUCE_TWO,
    }


LEAF_HEURISTIC = 0  # the evaluation (play)
LEAF_LOW = 1  # the worst final margin the root's player can get there: the search's value is a lower bound
LEAF_HIGH = 2  # the best it can get there: the search's value is an upper bound

#: :func:`table_value`'s "not in the table"
NO_VALUE = 1e18

#: optional exact endgame values: ``probe(game, state) -> (move, value) | None``, asked at
#: the root (see the module doc); None: no database
ENDGAME_PROBE: Optional[Callable[[Oware, OwareState], Optional[tuple[OwareMove, float]]]] = None

# --- conversions -------------------------------------------------------------------


def weights_array(weights: OwareWeights = DEFAULT) -> np.ndarray:
    """The kernels' weights array for ``weights``: the terms (``W_*`` slots), then the house
    table, if any."""
    return np.array(weights.as_tuple() + weights.houses, dtype=np.float64)


def state_array(state: OwareState) -> np.ndarray:
    """The kernels' position array for ``state`` (its history ``seen`` is not in it)."""
    s = np.zeros(K.S_SIZE, dtype=np.int64)
    s[: len(state.houses)] = state.houses
    s[K.S_STORE : K.S_STORE + 2] = state.stores
    s[K.S_SEAT] = state.seat
    s[K.S_PLY] = state.ply
    s[K.S_FINISHED] = int(state.finished)
    s[K.S_UNSCORED] = state.unscored
    return s


def array_state(s: np.ndarray, houses: int) -> OwareState:
    """The :class:`OwareState` of a position array (without ``seen`` and ``last``)."""
    return OwareState(
        tuple(int(x) for x in s[: 2 * houses]),
        (int(s[K.S_STORE]), int(s[K.S_STORE + 1])),
        int(s[K.S_SEAT]),
        ply=int(s[K.S_PLY]),
        finished=bool(s[K.S_FINISHED]),
        unscored=int(s[K.S_UNSCORED]),
    )


@njit(cache=True)
def position_key(s, n, z):
    """The 64-bit key of what the repetition rule compares: the houses and the side to move."""
    h = z[K.S_SEAT, s[K.S_SEAT]]
    for i in range(2 * n):
        h ^= z[i, s[i]]
    return h


@njit(cache=True)
def store_key(s, z):
    """The stores' part of a table key."""
    return z[K.S_STORE, s[K.S_STORE]] ^ z[K.S_STORE + 1, s[K.S_STORE + 1]]


@njit(cache=True)
def _same_position(a, b, n):
    if a[K.S_SEAT] != b[K.S_SEAT]:
        return False
    for i in range(2 * n):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def repeats(child, key, hpos, hkey, lo, hi, n):
    """Whether ``child`` (its position key ``key``) is one of the history entries ``lo..hi``."""
    for i in range(lo, hi + 1):
        if hkey[i] == key and _same_position(hpos[i], child, n):
            return True
    return False


@njit(cache=True)
def expand(s, rules, z, hpos, hkey, lo, hi, moves, children, ckeys, scratch_moves, scratch):
    """Every legal move of ``s`` into ``moves`` and the finished position after each into
    ``children`` (the repetition end against history entries ``lo..hi``), their position keys
    into ``ckeys``.  Returns the number of moves."""
    n = rules[K.R_HOUSES]
    count = K.legal_moves(s, rules, moves, scratch, False)
    for k in range(count):
        child = children[k]
        captured = K.play(s, rules, moves[k], child)
        key = position_key(child, n, z)
        ckeys[k] = key
        if child[K.S_FINISHED] == 0:
            repeated = captured == 0 and repeats(child, key, hpos, hkey, lo, hi, n)
            K.settle(child, rules, repeated, scratch_moves, scratch)
    return count


@njit(cache=True)
def position_moves(s, rules, z, hpos, hkey):
    """(moves, children) of ``s`` after a game whose positions since the last capture are
    the rows of ``hpos`` (keys ``hkey``): every legal move in the reference's order and the
    position after it, every end included.  For tests and tools."""
    moves = np.zeros(K.MAX_MOVES, dtype=np.int64)
    children = np.zeros((K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    ckeys = np.zeros(K.MAX_MOVES, dtype=np.uint64)
    scratch_moves = np.zeros(K.MAX_MOVES, dtype=np.int64)
    scratch = np.zeros(K.S_SIZE, dtype=np.int64)
    count = expand(s, rules, z, hpos, hkey, 0, len(hkey) - 1, moves, children, ckeys, scratch_moves, scratch)
    return moves[:count].copy(), children[:count].copy()


# --- the search ------------------------------------------------------------------------


@njit(cache=True)
def table_value(s, rules, tbv, tbo, most, zero=True):
    """The endgame table's value of the unfinished position ``s`` for the player to move, on
    the search's scale (:func:`mancala.evaluation.oware.final_value` of the stores' margin
    plus what the table gives the mover from the board, as
    :func:`mancala.engine.oware.exact.move_values` counts it), or :data:`NO_VALUE` when the
    board holds more than ``most`` seeds, or when the table gives the board 0 and ``zero`` is
    false (:data:`TABLE_BUT_ZERO`).
    ``tbv`` and ``tbo`` are an :class:`~mancala.engine.oware.endgame.OwareTable`'s values and
    offsets."""
    n = rules[K.R_HOUSES]
    p2 = 2 * n
    seeds = 0
    for i in range(p2):
        seeds += s[i]
    if seeds > most:
        return NO_VALUE
    seat = s[K.S_SEAT]
    # the rank (index.rank) of the board seen from the mover (endgame.normalise: its row first)
    r = np.int64(0)
    prefix = 0
    for j in range(p2 - 1):
        i = j + seat * n
        if i >= p2:
            i -= p2
        prefix += s[i]
        r += BINOM[prefix + j, j + 1]
    v = np.int64(tbv[tbo[seeds] + r])
    if v == MISSING or (v == 0 and not zero):
        return NO_VALUE
    m = s[K.S_STORE + seat] - s[K.S_STORE + 1 - seat] + v
    return K.margin_value(m)


@njit(cache=True)
def leaf_bound(s, rules, low):
    """The worst (``low``) or best final value the player to move can get from ``s``: the
    stores' margin less or plus every seed on the board (captures only move seeds from the
    board to a store), on the search's scale.  Leaves valued so make the search's value a
    bound on the true one (min and max are monotone): the proofs of :func:`prove_value`."""
    n = rules[K.R_HOUSES]
    board = 0
    for i in range(2 * n):
        board += s[i]
    p = s[K.S_SEAT]
    m = s[K.S_STORE + p] - s[K.S_STORE + 1 - p] + (-board if low else board)
    return K.margin_value(m)


@njit(cache=True)
def order_moves(moves, children, count, scores, ttmove, ply, kill, hist, rules, ctl):
    """The order to search ``count`` expanded moves in: the root's first move (the last
    iteration's best), the table's move, finished games by their value, then captures by the
    seeds taken, killers and the history heuristic."""
    for k in range(count):
        c = children[k]
        house = moves[k]
        if ply == 0 and house == ctl[C_ROOTFIRST]:
            scores[k] = 2e18
        elif house == ttmove:
            scores[k] = 1e18
        elif c[K.S_FINISHED] != 0:
            scores[k] = -K.terminal_value(c, rules) * 1e6
        else:
            scores[k] = c[K.S_CAPTURED] * 1e6 + hist[house]
            if house == kill[ply, 0] or house == kill[ply, 1]:
                scores[k] += 5e5
    return kit.order_by_score(scores, count)


@njit(cache=True, nogil=True)
def negamax(
    s,
    ply,
    depth,
    alpha,
    beta,
    rules,
    w,
    z,
    tkey,
    tval,
    tdat,
    hpos,
    hkey,
    hlo,
    hset,
    ch,
    mv,
    ck,
    sc,
    kill,
    hist,
    ws,
    ctl,
    deadline,
    tbv,
    tbo,
):
    """The value of ``s`` (history entry ``ctl[C_BASE] + ply``) for the player to move,
    searched ``depth`` plies (fail-soft)."""
    if kit.spend_node(ctl, deadline):
        return 0.0
    if s[K.S_FINISHED] != 0:
        return K.terminal_value(s, rules)
    if ply > 0 and ctl[C_TB_SEEDS] >= 0 and (ctl[C_TB_MODE] != TABLE_AT_HORIZON or depth <= 0):
        v = table_value(s, rules, tbv, tbo, ctl[C_TB_SEEDS], ctl[C_TB_MODE] != TABLE_BUT_ZERO)
        if v != NO_VALUE:
            ctl[C_TB_HITS] += 1
            if ctl[C_TB_MODE] == TABLE_AT_HORIZON:
                ctl[C_HEUR] += 1  # an estimate in place of the evaluation: not exact
            return v
    if depth <= 0:
        ctl[C_HEUR] += 1
        if ctl[C_LEAF] != LEAF_HEURISTIC:
            return leaf_bound(s, rules, (ctl[C_LEAF] == LEAF_LOW) == (s[K.S_SEAT] == ctl[C_ROOTSEAT]))
        return K.heuristic(s, rules, w)
    me = ctl[C_BASE] + ply
    use_tt = ctl[C_USE_TT] != 0
    h = np.uint64(0)
    idx = 0
    ttmove = -1
    if use_tt:
        h = hkey[me] ^ store_key(s, z) ^ z[K.S_PLY, s[K.S_PLY] & 511]
        if ctl[C_PATH_KEYS] != 0:
            h ^= hset[ply] * np.uint64(0x9E3779B97F4A7C15)
        if h == 0:
            h = np.uint64(1)
        idx, ttmove, settled, v = kit.probe(tkey, tval, tdat, h, ply, depth, alpha, beta, ctl)
        if settled:
            return v
    n = rules[K.R_HOUSES]
    moves = mv[ply]
    children = ch[ply]
    ckeys = ck[ply]
    heur_before = ctl[C_HEUR]
    scores = sc[ply]
    # the table's move first, alone: when it cuts off, the other moves are never played out
    # (a cut node's usual case); else every move is expanded and ordered, the table's first
    count = 0
    lazy = False
    if ply > 0 and ttmove >= 0:
        legal = K.legal_moves(s, rules, moves, ws[1], False)
        for k in range(legal):
            if moves[k] == ttmove:
                lazy = True
        if lazy:
            moves[0] = ttmove
            c = children[0]
            captured = K.play(s, rules, ttmove, c)
            ckeys[0] = position_key(c, n, z)
            if c[K.S_FINISHED] == 0:
                repeated = captured == 0 and repeats(c, ckeys[0], hpos, hkey, hlo[ply], me, n)
                K.settle(c, rules, repeated, ws[0], ws[1])
            count = 1
            order = np.zeros(1, dtype=np.int64)
    if not lazy:
        count = expand(s, rules, z, hpos, hkey, hlo[ply], me, moves, children, ckeys, ws[0], ws[1])
        # no legal move: cannot happen (play/settle finish such positions), but be safe
        if count == 0:
            return K.terminal_value(s, rules)
        order = order_moves(moves, children, count, scores, ttmove, ply, kill, hist, rules, ctl)
    best = -np.inf
    best_move = -1
    a = alpha
    r = 0
    while r < count or lazy:
        if lazy and r == 1:
            count = expand(s, rules, z, hpos, hkey, hlo[ply], me, moves, children, ckeys, ws[0], ws[1])
            order = order_moves(moves, children, count, scores, ttmove, ply, kill, hist, rules, ctl)
            lazy = False
            if r >= count:
                break
        k = order[r]
        r += 1
        c = children[k]
        if c[K.S_FINISHED] != 0:
            v = -K.terminal_value(c, rules)
            ctl[C_NODES] += 1
        else:
            nxt = me + 1
            hkey[nxt] = ckeys[k]
            for f in range(2 * n):
                hpos[nxt, f] = c[f]
            hpos[nxt, K.S_SEAT] = c[K.S_SEAT]
            if c[K.S_CAPTURED] != 0:
                hlo[ply + 1] = nxt
                hset[ply + 1] = ckeys[k]
            else:
                hlo[ply + 1] = hlo[ply]
                hset[ply + 1] = hset[ply] ^ ckeys[k]
            if r > 1 and ctl[C_PVS] != 0 and a > -np.inf and a < beta:
                # principal variation search: prove this move no better than the best so far
                # with a null window above ``a``; search it again in full only if it is better.
                # A late quiet move is tried one ply shallower first (late move reduction)
                cut = 0
                if (
                    ctl[C_LMR] > 0
                    and r > ctl[C_LMR]
                    and depth >= ctl[C_LMR_DEPTH]
                    and c[K.S_CAPTURED] == 0
                    and moves[k] != kill[ply, 0]
                    and moves[k] != kill[ply, 1]
                ):
                    cut = 2 if 0 < ctl[C_LMR_DEEP] <= depth else 1
                v = -negamax(
                    c, ply + 1, depth - 1 - cut, -np.nextafter(a, np.inf), -a, rules, w, z, tkey, tval, tdat, hpos,
                    hkey, hlo, hset, ch, mv, ck, sc, kill, hist, ws, ctl, deadline, tbv, tbo,
                )  # fmt: skip
                if cut != 0 and v > a and ctl[C_ABORT] == 0:
                    v = -negamax(
                        c, ply + 1, depth - 1, -np.nextafter(a, np.inf), -a, rules, w, z, tkey, tval, tdat, hpos,
                        hkey, hlo, hset, ch, mv, ck, sc, kill, hist, ws, ctl, deadline, tbv, tbo,
                    )  # fmt: skip
                if v > a and v < beta and ctl[C_ABORT] == 0:
                    v = -negamax(
                        c, ply + 1, depth - 1, -beta, -a, rules, w, z, tkey, tval, tdat, hpos, hkey, hlo, hset, ch, mv,
                        ck, sc, kill, hist, ws, ctl, deadline, tbv, tbo,
                    )  # fmt: skip
            else:
                v = -negamax(
                    c, ply + 1, depth - 1, -beta, -a, rules, w, z, tkey, tval, tdat, hpos, hkey, hlo, hset, ch, mv, ck,
                    sc, kill, hist, ws, ctl, deadline, tbv, tbo,
                )  # fmt: skip
        if ctl[C_ABORT] != 0:
            return 0.0
        best, best_move, a = kit.improve(v, moves[k], best, best_move, a, ply, ctl)
        if a >= beta:
            if c[K.S_CAPTURED] == 0 and kill[ply, 0] != moves[k]:
                kill[ply, 1] = kill[ply, 0]
                kill[ply, 0] = moves[k]
            hist[moves[k]] += depth * depth
            break
    if use_tt:
        kit.store(tkey, tval, tdat, idx, h, depth, alpha, beta, best, best_move, ctl[C_HEUR] != heur_before)
    return best


@njit(cache=True, nogil=True)
def search_root(s, depth, rules, w, z, tkey, tval, tdat, hpos, hkey, ctl, deadline, tbv, tbo):
    """Search ``s`` to ``depth`` plies; returns its value for the player to move (the best
    move is left in ``ctl[C_ROOTMOVE]``, ``ctl[C_ABORT]`` says if it stopped).  ``hpos`` and
    ``hkey`` hold the game's history since the last capture in rows ``0..ctl[C_BASE]`` (the
    root last) and room for the path below it."""
    ch = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    mv = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.int64)
    ck = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.uint64)
    sc = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.float64)
    kill = np.full((MAX_DEPTH + 2, 2), -1, dtype=np.int64)
    hist = np.zeros(2 * K.MAX_HOUSES, dtype=np.int64)
    ws = np.zeros((2, K.S_SIZE), dtype=np.int64)
    hlo = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    hset = np.zeros(MAX_DEPTH + 2, dtype=np.uint64)
    base = ctl[C_BASE]
    for i in range(base + 1):
        hset[0] ^= hkey[i]
    kit.start_root(ctl)
    # typed (non-literal) arguments: literals in a recursive function's first call break numba's cache
    zero = np.int64(0)
    big = np.float64(np.inf)
    return negamax(
        s, zero, np.int64(depth), -big, big, rules, w, z, tkey, tval, tdat, hpos, hkey, hlo, hset, ch, mv, ck, sc,
        kill, hist, ws, ctl, deadline, tbv, tbo,
    )  # fmt: skip


class OwareSearcher(kit.TableSearcher):
    """One player's search tables: a transposition table, the rules and weights arrays and
    counters.  Keep one per player to reuse the table from move to move (keys hold every
    cell a value depends on; see the module doc for ``path_keys``).  ``reductions`` k > 0
    reduces late quiet moves from the k+1-th on, at nodes with ``reduce_depth`` plies or more
    left (:data:`LMR_DEPTH`), by two plies where ``reduce_two`` or more are left (0: never):
    deeper in the same nodes, values no longer the reference's.  ``table_mode``: how
    :meth:`use_table` uses a table when not told (None: by the rules)."""

    def __init__(
        self,
        game: Oware,
        weights: OwareWeights = DEFAULT,
        entries: int = TABLE_ENTRIES,
        use_table: bool = True,
        path_keys: bool = True,
        pvs: bool = True,
        reductions: int = 0,
        reduce_depth: int = LMR_DEPTH,
        reduce_two: int = 0,
        table_mode: int | None = None,
    ) -> None:
        if not supports(game.rules):
            raise BadInput(
                f"the Oware engine does not play these rules ({game.rules.describe()}): skip_twelve and max_plies"
            )
        weights.check_board(game.rules.houses)
        super().__init__(entries, C_SIZE, use_table)
        self.game = game
        self.houses = game.rules.houses
        self.rules = rules_array(game.rules)
        self.weights = weights_array(weights)
        self.z = zobrist_keys()
        self.ctl[C_PATH_KEYS] = int(path_keys)
        self.ctl[C_PVS] = int(pvs)
        self.ctl[C_LMR] = reductions
        self.ctl[C_LMR_DEPTH] = reduce_depth
        self.ctl[C_LMR_DEEP] = reduce_two
        self.ctl[C_TB_SEEDS] = -1
        self.tbv = np.zeros(1, dtype=np.int8)
        self.tbo = np.zeros(2, dtype=np.int64)
        self.table_mode = table_mode
        #: helper threads of a timed search (lazy SMP: :meth:`run`); 0: one thread
        self.helpers = 0
        #: nodes the helpers searched (every search of this searcher)
        self.helper_nodes = 0
        #: timed searches still to run without helpers (the machine was found busy)
        self.crowded = 0

    def use_table(self, table: OwareTable | None, mode: int | None = None) -> None:
        """Value positions below the root with at most ``table.max_seeds`` seeds on the board
        by the endgame table (:func:`table_value`); None: no table.  The table must be one of
        this game's rules (:func:`mancala.engine.oware.exact.table_for`).  ``mode``: how its
        entries end the search (:data:`TABLE_ENDS`, :data:`TABLE_BUT_ZERO`,
        :data:`TABLE_AT_HORIZON`); None: the searcher's own ``table_mode``, else
        :func:`table_mode` of the rules."""
        if mode is None:
            mode = self.table_mode if self.table_mode is not None else table_mode(self.game.rules)
        self.ctl[C_TB_MODE] = mode
        if table is None:
            self.ctl[C_TB_SEEDS] = -1
            self.tbv = np.zeros(1, dtype=np.int8)
            self.tbo = np.zeros(2, dtype=np.int64)
            return
        if table.rules.houses != self.houses:
            raise BadInput(f"an endgame table of {table.rules.houses} houses a side on a board of {self.houses}")
        self.ctl[C_TB_SEEDS] = table.max_seeds
        self.tbv = table.values
        self.tbo = table.offsets

    @property
    def table_hits(self) -> int:
        """Positions valued by the endgame table so far (every search of this searcher)."""
        return int(self.ctl[C_TB_HITS])

    def history(self, state: OwareState, room: int = MAX_DEPTH + 2) -> tuple[np.ndarray, np.ndarray]:
        """The repetition history arrays of ``state``: its positions since the last capture
        (``state.seen``) as rows, ``state`` itself last, and ``room`` rows more for a path."""
        n = self.houses
        seen = [key for key in state.seen if key != (*state.houses, state.seat)]
        rows = len(seen) + 1
        hpos = np.zeros((rows + room, K.S_SIZE), dtype=np.int64)
        hkey = np.zeros(rows + room, dtype=np.uint64)
        for i, key in enumerate([*seen, (*state.houses, state.seat)]):
            hpos[i, : 2 * n] = key[: 2 * n]
            hpos[i, K.S_SEAT] = key[2 * n]
            hkey[i] = position_key(hpos[i], n, self.z)
        return hpos, hkey

    def children(self, state: OwareState) -> tuple[np.ndarray, np.ndarray]:
        """(houses, positions after them) of every legal move of ``state``, as the kernels
        play them (the game's history included)."""
        hpos, hkey = self.history(state, 0)
        return position_moves(state_array(state), self.rules, self.z, hpos, hkey)

    def run(
        self, state: OwareState, depth: int, deadline: float = 0.0, node_limit: int = 0, first: int = -1
    ) -> tuple[float, int, bool, bool]:
        """One fixed-depth search: (value, best house, complete, exact).  ``first``: a house
        to search first at the root (-1: the table's move order).  A search stopped by the
        budget returns the best house among the root moves it searched in full (-1: none)."""
        hpos, hkey = self.history(state)
        self.ctl[C_ROOTFIRST] = first
        self.ctl[C_BASE] = len(hkey) - (MAX_DEPTH + 2) - 1
        self.ctl[C_HEUR] = 0
        self.ctl[C_LIMIT] = node_limit
        self.ctl[C_ROOTSEAT] = state.seat
        s = state_array(state)
        helpers = self.start_helpers(s, depth, hpos, hkey, deadline) if deadline > 0.0 else []
        try:
            value = self.watched(
                lambda: search_root(
                    s, depth, self.rules, self.weights, self.z, self.tkey, self.tval, self.tdat, hpos, hkey, self.ctl,
                    deadline, self.tbv, self.tbo,
                )
            )  # fmt: skip
        finally:
            self.stop_helpers(helpers)
        return float(value), int(self.ctl[C_ROOTMOVE]), not self.ctl[C_ABORT], self.ctl[C_HEUR] == 0

    def start_helpers(
        self, s: np.ndarray, depth: int, hpos: np.ndarray, hkey: np.ndarray, deadline: float
    ) -> list[tuple[threading.Thread, np.ndarray]]:
        """Lazy SMP: :attr:`helpers` threads search the same root one and two plies deeper
        (alternately) into the shared transposition table while this thread searches
        ``depth``, so its search meets their entries (move order, bounds).  Each has its own
        control array, history and stacks; they stop when this depth ends (:meth:`stop_helpers`).
        Entries are written without a lock: a rare torn entry can mislead one node's bound, as
        in every lock-free table; the move played is always the main thread's."""
        started = []
        for i in range(self.helpers if depth >= HELPER_DEPTH else 0):
            ctl = self.ctl.copy()
            ctl[C_NODES] = 0
            ctl[C_LIMIT] = 0
            ctl[C_ROOTFIRST] = -1
            args = (
                s.copy(), min(depth + 1 + i % 2, MAX_DEPTH), self.rules, self.weights, self.z, self.tkey, self.tval,
                self.tdat, hpos.copy(), hkey.copy(), ctl, deadline, self.tbv, self.tbo,
            )  # fmt: skip
            thread = threading.Thread(target=search_root, args=args, name="mancala-helper", daemon=True)
            thread.start()
            started.append((thread, ctl))
        return started

    def stop_helpers(self, helpers: list[tuple[threading.Thread, np.ndarray]]) -> None:
        """Stop the helper threads (their abort flag, set until they end: a helper that had not
        started its search yet would clear it) and count their nodes."""
        for thread, ctl in helpers:
            while thread.is_alive():
                ctl[C_ABORT] = 1
                thread.join(0.001)
            self.helper_nodes += int(ctl[C_NODES])

    def line(self, state: OwareState, first: OwareMove, limit: int) -> tuple[OwareMove, ...]:
        """The principal line: ``first``, then the table's moves while they are legal (played
        with the reference rules, the history keys as the search made them)."""
        game = self.game
        n = self.houses
        moves = [first]
        hpos, hkey = self.history(state, 0)
        hset = np.uint64(0)
        for key in hkey:
            hset ^= key
        while len(moves) < limit:
            state = game.apply(state, moves[-1])
            if state.finished:
                break
            s = state_array(state)
            key = position_key(s, n, self.z)
            hset = key if state.last is not None and state.last.captures else hset ^ key
            h = key ^ store_key(s, self.z) ^ self.z[K.S_PLY, state.ply & 511]
            if self.ctl[C_PATH_KEYS]:
                h ^= np.uint64((int(hset) * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)
            house = self.table_move(h or np.uint64(1))
            if house < 0:
                break
            move = OwareMove(house, n)
            if move not in game.legal_moves(state):
                break
            moves.append(move)
        return tuple(moves)


_KEPT: kit.KeptSearchers[OwareSearcher] = kit.KeptSearchers(OwareSearcher)


def kept_searcher(
    game: Oware, weights: OwareWeights, table: OwareTable | None = None
) -> AbstractContextManager[OwareSearcher]:
    """The process's searcher of these rules and weights, its transposition table kept from
    search to search (keys hold the ply, the stores and the path since the last capture, so
    an entry of an earlier move is still right), emptied when the table in its search changes.
    A fresh searcher when another thread holds the kept one."""
    return _KEPT.hold(game, weights, table)


@lru_cache(maxsize=None)
def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel with a tiny search, once a process."""
    game = Oware()
    OwareSearcher(game, entries=1 << 4).run(game.initial_state(), 2)


def zobrist_keys() -> np.ndarray:
    """The random keys every searcher shares (made once a process)."""
    return kit.shared_zobrist(20261126, K.S_SIZE, 512)


def search(
    game: Oware,
    state: OwareState,
    seconds: float | None = 1.0,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
    weights: OwareWeights = DEFAULT,
    searcher: OwareSearcher | None = None,
    probe: Optional[Callable[[Oware, OwareState], Optional[tuple[OwareMove, float]]]] = None,
    table: OwareTable | None = None,
    keep: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    reductions: int | None = None,
    reduce_two: int | None = None,
    threads: int = 1,
) -> SearchResult:
    """Iterative deepening: depth 1, 2, ... up to ``max_depth`` plies while the budget lasts
    (``seconds`` of wall time, ``max_nodes`` nodes; None: no limit).  Returns the last
    complete iteration (depth 1 always completes) with the root value for the player to
    move; stops early once a search met only finished games (its value is then exact).
    ``probe`` (default :data:`ENDGAME_PROBE`) is asked first for an exact answer; ``table``
    (an endgame table of the game's rules) values every position below the root within it
    (:meth:`OwareSearcher.use_table`; a ``searcher`` given keeps its own otherwise).  ``keep``
    (without a ``searcher``): search with the process's kept searcher (:func:`kept_searcher`),
    whose transposition table still holds the last moves' searches.  ``reductions`` and
    ``reduce_two``: the searcher's late move reductions for this search (:class:`OwareSearcher`;
    None: as it is).  ``threads`` > 1: a search with a time budget runs ``threads - 1``
    helper threads beside it (lazy SMP, :meth:`OwareSearcher.start_helpers`)."""
    if keep and searcher is None:
        with kept_searcher(game, weights, table) as kept:
            return search(
                game, state, seconds, max_depth=max_depth, max_nodes=max_nodes, weights=weights, searcher=kept,
                probe=probe, table=table, clock=clock, reductions=reductions, reduce_two=reduce_two,
                threads=threads,
            )  # fmt: skip
    if not 1 <= max_depth <= MAX_DEPTH:
        raise BadInput(f"Oware search depth must be 1..{MAX_DEPTH}, got {max_depth}")
    if not supports(game.rules):
        raise BadInput(f"the Oware engine does not play these rules ({game.rules.describe()})")
    if game.is_terminal(state):
        return SearchResult(None, final_value(game.score(state, state.seat)), (), 1, 0, "oware-engine(exact)")
    probe = probe or ENDGAME_PROBE
    if probe is not None:
        hit = probe(game, state)
        if hit is not None:
            return SearchResult(hit[0], float(hit[1]), (hit[0],), 0, 0, "oware-endgame(exact)")
    warm_up()  # compiles or loads numba's cache on first use (microseconds later): not counted
    searcher = searcher or OwareSearcher(game, weights)
    if reductions is not None:
        searcher.ctl[C_LMR] = reductions
    if reduce_two is not None:
        searcher.ctl[C_LMR_DEEP] = reduce_two
    if table is not None:
        searcher.use_table(table)
    nodes_at_start = searcher.nodes
    hits_at_start = searcher.table_hits
    timed = seconds is not None
    searcher.helpers = max(0, threads - 1) if timed and searcher.crowded == 0 else 0
    searcher.crowded = max(0, searcher.crowded - 1) if timed else searcher.crowded
    helped, wall, cpu = searcher.helper_nodes, time.perf_counter(), time.process_time()
    # a stopped iteration searched the last best move first: once that one was searched in
    # full, any move it preferred was proved better: play that one (``partial``)
    value, house, depth, exact = kit.deepen(
        lambda depth, deadline, limit, first: searcher.run(state, depth, deadline, limit, first),
        lambda: searcher.nodes,
        seconds,
        max_depth,
        max_nodes,
        clock,
        partial=True,
    )
    wall = time.perf_counter() - wall
    if searcher.helper_nodes > helped and wall > 0.05 and time.process_time() - cpu < CROWDED_CORES * wall:
        searcher.crowded = CROWDED_SKIP
    move = OwareMove(house, game.rules.houses)
    if move not in game.legal_moves(state):  # cannot happen: the house came from the kernels' move list
        raise RuntimeError(f"Oware engine returned an illegal house {house}")
    label = f"depth {depth}"
    if exact:
        by_table = searcher.table_hits > hits_at_start and searcher.ctl[C_TB_MODE] != TABLE_AT_HORIZON
        by_table = by_table and not exact_rules(game.rules)
        label = "table" if by_table else "exact"
    return SearchResult(
        move,
        value + 0.0,  # negamax's -0.0 shown as 0
        searcher.line(state, move, depth),
        searcher.nodes - nodes_at_start,
        depth,
        f"oware-engine({label})",
    )


def margin_of(value: float) -> int:
    """The final margin a value on the search's scale stands for (:func:`final_value`'s inverse)."""
    if value > WIN / 2:
        return int(round(value - WIN))
    if value < -WIN / 2:
        return int(round(value + WIN))
    return 0


@dataclass(frozen=True)
class ProvenBounds:
    """What :func:`prove_value` proved: the final margin of the player to move lies in
    ``low..high`` (the game's value once they meet), ``move`` reaches at least ``low``."""

    low: int
    high: int
    move: OwareMove | None
    depth: int
    nodes: int
    #: whether the table's values are exact under these rules (else a forced repetition's
    #: value in it is the table's estimate: :func:`mancala.engine.oware.exact.exact_rules`)
    exact: bool

    @property
    def proven(self) -> bool:
        """Whether the bounds met: ``low`` is the value."""
        return self.low == self.high


def prove_value(
    game: Oware,
    state: OwareState,
    table: OwareTable | None = None,
    seconds: float | None = None,
    max_depth: int = MAX_DEPTH,
    entries: int = 1 << 22,
    report: Callable[[int, int, int, int], None] | None = None,
    sides: tuple[OwareSearcher, OwareSearcher] | None = None,
) -> ProvenBounds:
    """Bounds on the final margin of the player to move of ``state`` with perfect play, met
    (proven) when the search reaches deep enough.

    Each depth is searched twice, every leaf at the depth limit worth the worst, then the
    best, final margin the root's player can get there (:func:`leaf_bound`), so the values
    are bounds; positions within ``table.max_seeds`` seeds are answered by the endgame
    table.  The depth grows until the bounds meet, or ``max_depth`` or ``seconds`` run out
    (the last finished depth counts).  Each bound keeps its own transposition table across
    depths (an entry of a deeper search is a tighter bound).  ``report(depth, low, high,
    nodes)`` is called after each depth.  The value is exact under rules whose table is
    (:func:`mancala.engine.oware.exact.exact_rules`); under the others it holds the table's
    estimate of a forced repetition.  ``sides``: the two searchers to use (a watcher may
    stop them: :func:`prove_watched`)."""
    low_side, high_side = sides or (OwareSearcher(game, entries=entries), OwareSearcher(game, entries=entries))
    low_side.ctl[C_LEAF] = LEAF_LOW
    high_side.ctl[C_LEAF] = LEAF_HIGH
    for side in (low_side, high_side):
        side.use_table(table, TABLE_ENDS)  # bounds on the table's values, as documented
    deadline = time.perf_counter() + seconds if seconds else 0.0
    seeds = sum(state.houses)
    diff = state.stores[state.seat] - state.stores[1 - state.seat]
    low, high, depth, move = diff - seeds, diff + seeds, 0, None
    while low < high and depth < max_depth:
        lv, house, done, _ = low_side.run(state, depth + 1, deadline)
        if not done:
            break
        hv, _, done, _ = high_side.run(state, depth + 1, deadline)
        if not done:
            break
        depth += 1
        if margin_of(lv) >= low:
            low, move = margin_of(lv), OwareMove(house, game.rules.houses)
        high = min(high, margin_of(hv))
        if report:
            report(depth, low, high, low_side.nodes + high_side.nodes)
    return ProvenBounds(low, high, move, depth, low_side.nodes + high_side.nodes, exact_rules(game.rules))


def prove_watched(
    game: Oware,
    state: OwareState,
    table: OwareTable | None,
    seconds: float | None,
    report: Callable[[int, int, int, int], None] | None = None,
    entries: int = 1 << 22,
) -> ProvenBounds:
    """:func:`prove_value` in a worker thread while this thread waits (the kernels release
    the GIL), so that Ctrl-C lands here at once: it stops the kernels and re-raises."""
    sides = (OwareSearcher(game, entries=entries), OwareSearcher(game, entries=entries))

    def stop() -> None:
        for side in sides:
            side.ctl[C_ABORT] = 1

    return kit.run_watched(
        lambda: prove_value(game, state, table, seconds, report=report, sides=sides), stop, name="mancala-oware-proof"
    )
