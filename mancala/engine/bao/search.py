"""Fast Bao search: numba alpha-beta (negamax, fail-soft) with a transposition table,
move ordering and iterative deepening within a time or node budget.

Values are those of :func:`mancala.search.core.alphabeta` with
:mod:`mancala.evaluation.bao`'s evaluation at the same depth (the root value is
exact; only the choice between equally good moves may differ), because:

* the kernels (:mod:`mancala.engine.bao.kernels`) play the reference's rules and
  compute its evaluation bit for bit from the mover's side (the evaluation is
  antisymmetric, so negamax's negation is exact in floating point);
* the table key includes the ply: a position met again at the same ply in one
  search has the same remaining depth and the same win values (``WIN - ply``), so
  a stored bound is exactly the bound the reference would compute there.  Entries
  of earlier iterations (shallower) only order moves.

Move order: the table's move first, then the children by their static evaluation
(best for the mover first).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np
from numba import njit

from mancala.engine import kit
from mancala.engine.bao import kernels as K
from mancala.engine.kit import C_HEUR, C_LIMIT, C_ROOTMOVE, C_USE_TT
from mancala.errors import BadInput
from mancala.evaluation.bao import BaoWeights
from mancala.games.bao import Bao, BaoMove, BaoRules, BaoState, MtajiHouse, SingletonRule
from mancala.search.core import SearchResult

#: deepest search (plies); Bao has no extra turns, so depth in turns = plies
MAX_DEPTH = 60
#: transposition table entries (a power of two); 24 bytes each
TABLE_ENTRIES = 1 << 19

#: ctl slots: the kit's (:mod:`mancala.engine.kit`: nodes as the reference counts them,
#: budget, abort, the root's best move code, table) only
C_SIZE = kit.C_OWN

_SINGLETONS = {SingletonRule.OWNED: 0, SingletonRule.FUNCTIONAL: 1, SingletonRule.ANY: 2}
_MTAJI = {MtajiHouse.FIRST_CAPTURE: 0, MtajiHouse.STOCK_EMPTY: 1, MtajiHouse.UNTIL_EMPTIED: 2}


# --- conversions -------------------------------------------------------------------


@kit.once_per_rule_set
def rules_array(rules: BaoRules) -> np.ndarray:
    """The kernels' rules array for ``rules``."""
    r = np.zeros(K.R_SIZE, dtype=np.int64)
    r[K.R_TAX_SMALL] = int(rules.tax_small_house)
    r[K.R_SINGLETONS] = _SINGLETONS[rules.singletons]
    r[K.R_MTAJI_HOUSE] = _MTAJI[rules.mtaji_house]
    r[K.R_TAKASIA] = int(rules.takasia)
    r[K.R_EXEMPT] = int(rules.takasia_exempt_singletons)
    r[K.R_FORCES] = int(rules.takasia_forces_capture)
    r[K.R_MAX_PLIES] = rules.max_plies
    r[K.R_MAX_LAPS] = rules.max_laps
    return r


def weights_array(weights: BaoWeights = BaoWeights()) -> np.ndarray:
    """The kernels' weights array (``W_*`` slots) for ``weights``."""
    return np.array(
        [
            weights.front,
            weights.back,
            weights.stock,
            weights.namua_front,
            weights.threat_to_move,
            weights.threat_waiting,
            weights.house,
            weights.mobility,
        ],
        dtype=np.float64,
    )


def state_array(state: BaoState) -> np.ndarray:
    """The kernels' position array for ``state``."""
    s = np.zeros(K.S_SIZE, dtype=np.int64)
    s[0:16] = state.holes[0]
    s[16:32] = state.holes[1]
    s[K.S_STOCK : K.S_STOCK + 2] = state.stock
    s[K.S_OWNS : K.S_OWNS + 2] = [int(o) for o in state.owns]
    s[K.S_PLAYER] = state.player
    s[K.S_TAKASIA] = -1 if state.takasia is None else state.takasia
    s[K.S_MUST] = -1 if state.must_capture is None else state.must_capture
    s[K.S_PLY] = state.ply
    s[K.S_WINNER] = -1 if state.winner is None else state.winner
    s[K.S_FINISHED] = int(state.finished)
    return s


def array_state(s: np.ndarray) -> BaoState:
    """The :class:`BaoState` of a position array (without ``last``)."""

    def opt(v):
        return None if v < 0 else int(v)

    return BaoState(
        holes=(tuple(int(x) for x in s[0:16]), tuple(int(x) for x in s[16:32])),
        stock=(int(s[K.S_STOCK]), int(s[K.S_STOCK + 1])),
        owns=(bool(s[K.S_OWNS]), bool(s[K.S_OWNS + 1])),
        player=int(s[K.S_PLAYER]),
        takasia=opt(s[K.S_TAKASIA]),
        must_capture=opt(s[K.S_MUST]),
        ply=int(s[K.S_PLY]),
        winner=opt(s[K.S_WINNER]),
        finished=bool(s[K.S_FINISHED]),
    )


def move_code(move: BaoMove) -> int:
    """The kernels' code of ``move``."""
    return move.hole | (K.CW_BIT if move.direction == 1 else 0) | (K.HOUSE_BIT if move.house else 0)


def code_move(state: BaoState, code: int, capture: bool) -> BaoMove:
    """The :class:`BaoMove` a code names in ``state`` (``capture``: the position's moves capture)."""
    return BaoMove(
        state.player,
        code & 15,
        1 if code & K.CW_BIT else -1,
        capture,
        state.stock[state.player] > 0,
        bool(code & K.HOUSE_BIT),
    )


@njit(cache=True)
def position_moves(s, rules):
    """(codes, children, endless codes with status, capture) of ``s``: every legal move in
    the reference's order, the positions after them, and the never-ending candidates."""
    codes = np.zeros(K.MAX_MOVES, dtype=np.int64)
    children = np.zeros((K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    endless = np.zeros(K.MAX_MOVES, dtype=np.int64)
    ws = np.zeros(K.WS_SIZE, dtype=np.int64)
    n, ne, cap = K.gen_moves(s, rules, codes, children, endless, ws, False)
    return codes[:n].copy(), children[:n].copy(), endless[:ne].copy(), cap


@njit(cache=True)
def position_value(s, rules, w):
    """(value for the player to move, terminal) of ``s`` by bao_eval."""
    codes = np.zeros(K.MAX_MOVES, dtype=np.int64)
    children = np.zeros((K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    endless = np.zeros(K.MAX_MOVES, dtype=np.int64)
    ws = np.zeros(K.WS_SIZE, dtype=np.int64)
    return K.evaluate(s, rules, w, codes, children, endless, ws)


# --- the search ------------------------------------------------------------------------


@njit(cache=True)
def table_key(s, z):
    """The position's 64-bit key (every cell, the ply included; never 0)."""
    h = np.uint64(0)
    for f in range(K.S_SIZE):
        v = s[f] + 1
        h ^= z[f, v & 127]
        if v >= 128:
            h ^= z[f, (v >> 7) & 127] * np.uint64(0x9E3779B97F4A7C15)
    if h == 0:
        h = np.uint64(1)
    return h


@njit(cache=True, nogil=True)
def negamax(s, ply, depth, alpha, beta, rules, w, z, tkey, tval, tdat, ch, cd, sc, en, ws, ctl, deadline):
    """The value of ``s`` for the player to move, searched ``depth`` plies (fail-soft)."""
    if kit.spend_node(ctl, deadline):
        return 0.0
    if s[K.S_FINISHED] != 0:
        return K.terminal_value(s, True)
    codes = cd[ply]
    children = ch[ply]
    if depth <= 0:
        v, terminal = K.evaluate(s, rules, w, codes, children, en, ws)
        if not terminal:
            ctl[C_HEUR] += 1
        return v
    use_tt = ctl[C_USE_TT] != 0
    h = np.uint64(0)
    idx = 0
    ttmove = -1
    if use_tt:
        h = table_key(s, z)
        idx, ttmove, settled, v = kit.probe(tkey, tval, tdat, h, ply, depth, alpha, beta, ctl)
        if settled:
            return v
    n, ne, cap = K.gen_moves(s, rules, codes, children, en, ws, False)
    if n == 0:
        return K.terminal_value(s, False)
    heur_before = ctl[C_HEUR]
    scores = sc[ply]
    for k in range(n):
        c = children[k]
        if codes[k] == ttmove:
            scores[k] = 1e18
        elif c[K.S_FINISHED] != 0:
            scores[k] = -K.terminal_value(c, True)
        else:
            scores[k] = -K.heuristic(c, w)
    order = kit.order_by_score(scores, n)
    best = -np.inf
    best_move = -1
    a = alpha
    for r in range(n):
        k = order[r]
        v = -negamax(
            children[k], ply + 1, depth - 1, -beta, -a, rules, w, z, tkey, tval, tdat, ch, cd, sc, en, ws, ctl, deadline
        )
        if ctl[kit.C_ABORT] != 0:
            return 0.0
        best, best_move, a = kit.improve(v, codes[k], best, best_move, a, ply, ctl)
        if a >= beta:
            break
    if use_tt:
        kit.store(tkey, tval, tdat, idx, h, depth, alpha, beta, best, best_move, ctl[C_HEUR] != heur_before)
    return best


@njit(cache=True, nogil=True)
def search_root(s, depth, rules, w, z, tkey, tval, tdat, ctl, deadline):
    """Search ``s`` to ``depth`` plies; returns its value for the player to move
    (the best move is left in ``ctl[C_ROOTMOVE]``, ``ctl[C_ABORT]`` says if it stopped)."""
    ch = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    cd = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.float64)
    en = np.zeros(K.MAX_MOVES, dtype=np.int64)
    ws = np.zeros(K.WS_SIZE, dtype=np.int64)
    kit.start_root(ctl)
    # typed (non-literal) arguments: literals in a recursive function's first call break numba's cache
    zero = np.int64(0)
    big = np.float64(np.inf)
    return negamax(
        s, zero, np.int64(depth), -big, big, rules, w, z, tkey, tval, tdat, ch, cd, sc, en, ws, ctl, deadline
    )


class BaoSearcher(kit.TableSearcher):
    """One search's tables: a transposition table, the rules and weights arrays, counters.

    Keep one per player to reuse the table from move to move (it stays valid: keys
    include the ply and every rule-relevant cell)."""

    def __init__(
        self, game: Bao, weights: BaoWeights = BaoWeights(), entries: int = TABLE_ENTRIES, use_table: bool = True
    ) -> None:
        super().__init__(entries, C_SIZE, use_table)
        self.game = game
        self.rules = rules_array(game.rules)
        self.weights = weights_array(weights)
        self.z = kit.zobrist(20240611, K.S_SIZE, 128)

    def run(
        self, s: np.ndarray, depth: int, deadline: float = 0.0, node_limit: int = 0
    ) -> tuple[float, int, bool, bool]:
        """One fixed-depth search: (value, best move code, complete, exact)."""
        self.ctl[C_HEUR] = 0
        self.ctl[C_LIMIT] = node_limit
        value = self.watched(
            lambda: search_root(
                s, depth, self.rules, self.weights, self.z, self.tkey, self.tval, self.tdat, self.ctl, deadline
            )
        )
        return float(value), int(self.ctl[C_ROOTMOVE]), not self.ctl[kit.C_ABORT], self.ctl[C_HEUR] == 0

    def line(self, state: BaoState, first: BaoMove, limit: int) -> tuple:
        """The principal line: ``first``, then the table's moves while they are legal
        (followed with the kernels, so a long never-ending candidate costs no Python time)."""
        moves = [first]
        s = state_array(state)
        code = move_code(first)
        codes, children, _, capture = position_moves(s, self.rules)
        while code in codes:
            s = children[int(np.flatnonzero(codes == code)[0])]
            if len(moves) >= limit or s[K.S_FINISHED]:
                break
            code = self.table_move(table_key(s, self.z))
            codes, children, _, capture = position_moves(s, self.rules)
            if code not in codes:
                break
            p = int(s[K.S_PLAYER])
            moves.append(
                BaoMove(
                    p,
                    code & 15,
                    1 if code & K.CW_BIT else -1,
                    bool(capture),
                    bool(s[K.S_STOCK + p] > 0),
                    bool(code & K.HOUSE_BIT),
                )
            )
        return tuple(moves)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel with a tiny search."""
    game = Bao()
    searcher = BaoSearcher(game, entries=1 << 4)
    searcher.run(state_array(game.initial_state()), 1)


def search(
    game: Bao,
    state: BaoState,
    seconds: float | None = 1.0,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
    weights: BaoWeights = BaoWeights(),
    searcher: BaoSearcher | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Iterative deepening: depth 1, 2, ... up to ``max_depth`` plies while the budget lasts
    (``seconds`` of wall time, or ``max_nodes`` nodes; None: no limit).  Returns the last
    complete iteration (depth 1 always completes), with the root value for the player to
    move.  Stops early once a search met only finished games (its value is then exact)."""
    if max_depth < 1 or max_depth > MAX_DEPTH:
        raise BadInput(f"Bao search depth must be 1..{MAX_DEPTH}, got {max_depth}")
    warm_up()  # compiles or loads numba's cache on first use (microseconds later): not counted
    searcher = searcher or BaoSearcher(game, weights)
    s = state_array(state)
    if game.is_terminal(state):
        value, _ = position_value(s, searcher.rules, searcher.weights)
        return SearchResult(None, float(value), (), 1, 0, "bao-engine(exact)")
    nodes_at_start = searcher.nodes
    moves = game.legal_moves(state)
    capture = moves[0].capture
    value, code, depth, exact = kit.deepen(
        lambda depth, deadline, limit, first: searcher.run(s, depth, deadline, limit),
        lambda: searcher.nodes,
        seconds,
        max_depth,
        max_nodes,
        clock,
    )
    move = code_move(state, code, capture)
    if move not in moves:  # cannot happen: the code came from the kernels' move list
        raise RuntimeError(f"Bao engine returned an unknown move code {code}")
    line = searcher.line(state, move, depth)
    return SearchResult(
        move,
        value,
        line,
        searcher.nodes - nodes_at_start,
        depth,
        f"bao-engine({'exact' if exact else f'depth {depth}'})",
    )
