"""Fast Togyz Kumalak search: numba negamax alpha-beta (fail-soft, principal variation
search) with a transposition table, move ordering and iterative deepening within a depth,
node or time budget, on the kit (:mod:`mancala.engine.kit`).

Values.  A finished game is worth its final margin plus ``WIN`` for a win (minus for a loss:
:func:`mancala.engine.togyz.kernels.terminal_value`), so every win ranks above every
estimate; an unfinished position at the depth limit is worth the kernels' simple estimate
(:func:`mancala.engine.togyz.kernels.heuristic`: the kazans' difference, the stones and
non-empty houses of each row, a tuzdik owned while stones are on the board; a kazan past
half counts as a win: :mod:`mancala.evaluation.togyz`).  With :data:`~mancala.evaluation.togyz.SCORE` weights (all terms off) the values are those of
:func:`mancala.search.core.alphabeta` at the same depth with the margin as the evaluation and
wins worth ``WIN`` beyond it (``tests/test_togyz_engine.py``).

Repetition.  The rules have none, and positions do recur (a stone passed back and forth
with no capture).  The search is depth-limited, so a cycle only costs nodes: it ends at the
depth limit in a heuristic leaf, never loops.  Values do not depend on the path (no rule
looks at the history), so the transposition table is keyed by the position alone (houses,
kazans, tuzdiks, side to move) and, as the Oware and Bao engines' keys, the game's ply: within
one search a key then has one remaining depth, so a stored bound is the one the reference
computes at that depth (entries of shallower iterations only order moves).  An entry is
exact only when no heuristic leaf was met below it (:data:`mancala.engine.kit.HEUR_BIT`): a
line that cycles reaches the depth limit and is an estimate, so the table never claims an
exact value from a cycle; the search stops deepening only once every line has ended.

Endgame tables.  Given a table (``table=``, :meth:`TogyzSearcher.use_table`; ``best`` passes
the largest in the cache), every position below the root with at most the table's stones on
the board is a proven leaf: the kazans' difference plus the entry (:func:`table_value`), a
win, draw or loss worth ``WIN`` beyond that margin as a finished game is.  The result is
exact under every rule set; under the majority stop the margin is the one of play to the end
(:mod:`mancala.engine.togyz.endgame`: the stop cannot change who wins).

Move order: the last iteration's best at the root, the table's move, then winning ends,
moves that capture or make a tuzdik (most stones first), the two killer moves of the ply,
the history heuristic.  After the first move a node searches the others with a null window
and again in full only when one is better; the values stay those of plain alpha-beta.
"""

from __future__ import annotations

import time
from contextlib import AbstractContextManager
from functools import lru_cache
from typing import Callable

import numpy as np
from numba import njit

from mancala.engine import kit
from mancala.engine.compositions import BINOM
from mancala.engine.kit import C_ABORT, C_HEUR, C_LIMIT, C_NODES, C_OWN, C_ROOTMOVE, C_USE_TT
from mancala.engine.togyz import kernels as K
from mancala.engine.togyz.endgame import TogyzTable
from mancala.engine.togyz.exact import search_arrays
from mancala.engine.togyz.rules import rules_array, supports
from mancala.errors import BadInput
from mancala.evaluation.togyz import DEFAULT, TogyzWeights, final_value
from mancala.games.togyz import TogyzKumalak, TogyzMove, TogyzState
from mancala.search.core import SearchResult

#: deepest search (plies; Togyz Kumalak has no extra turns, so plies are turns)
MAX_DEPTH = 64
#: transposition table entries (a power of two); 24 bytes each
TABLE_ENTRIES = 1 << 20
#: what a finished game is worth beyond its margin (the kernels' ``WIN``)
WIN = K.WIN

# ctl slots: the kit's (nodes, budget, abort, root move: a house, table), then
C_PVS = C_OWN  # 1: principal variation search (null windows after the first move)
C_ROOTFIRST = C_OWN + 1  # a root move to search first (the last iteration's best; -1: none)
C_TB_STONES = C_OWN + 2  # the endgame table's most stones on the board (-1: no table in the search)
C_TB_HITS = C_OWN + 3  # positions valued by the endgame table
C_LMR = C_OWN + 4  # late move reductions: quiet moves from this one in the order on (0: none)
C_SIZE = C_OWN + 5
#: late move reductions (:class:`TogyzSearcher`'s ``reductions`` = k), as Oware's engine makes
#: them: from the k+1-th move in the order on, a move that captures nothing and is not a
#: killer, at a node with at least this many plies left, is searched one ply shallower with a
#: null window first, and again at full depth when it beats the best so far
LMR_DEPTH = 3
#: the reductions of ``best`` without a depth budget; the depth levels keep none.  None yet:
#: at equal nodes they scored 56.9 % ± 7.1 % over 180 games, not enough to decide (docs/togyz.md)
PLAY_REDUCTIONS = 0
#: :func:`table_value`'s "not in the table"
NO_VALUE = -1e18


# --- conversions -------------------------------------------------------------------


def weights_array(weights: TogyzWeights = DEFAULT) -> np.ndarray:
    """The kernels' weights array (``W_*`` slots) for ``weights``."""
    return np.array(weights.as_tuple(), dtype=np.float64)


def state_array(state: TogyzState) -> np.ndarray:
    """The kernels' position array for ``state``."""
    s = np.zeros(K.S_SIZE, dtype=np.int64)
    s[: len(state.houses)] = state.houses
    s[K.S_KAZAN : K.S_KAZAN + 2] = state.kazans
    s[K.S_TUZ : K.S_TUZ + 2] = state.tuzdiks
    s[K.S_SEAT] = state.seat
    s[K.S_PLY] = state.ply
    s[K.S_FINISHED] = int(state.finished)
    return s


def array_state(s: np.ndarray, houses: int) -> TogyzState:
    """The :class:`TogyzState` of a position array (without ``last``)."""
    return TogyzState(
        tuple(int(x) for x in s[: 2 * houses]),
        (int(s[K.S_KAZAN]), int(s[K.S_KAZAN + 1])),
        (int(s[K.S_TUZ]), int(s[K.S_TUZ + 1])),
        int(s[K.S_SEAT]),
        ply=int(s[K.S_PLY]),
        finished=bool(s[K.S_FINISHED]),
    )


@njit(cache=True)
def table_key(s, n, z):
    """The position's 64-bit table key: the houses, kazans, tuzdiks, side to move and ply
    (never 0)."""
    h = z[K.S_SEAT, s[K.S_SEAT]] ^ z[K.S_PLY, s[K.S_PLY] & 511]
    for i in range(2 * n):
        h ^= z[i, s[i] & 511]
    h ^= z[K.S_KAZAN, s[K.S_KAZAN] & 511] ^ z[K.S_KAZAN + 1, s[K.S_KAZAN + 1] & 511]
    h ^= z[K.S_TUZ, s[K.S_TUZ] + 1] ^ z[K.S_TUZ + 1, s[K.S_TUZ + 1] + 1]
    if h == 0:
        h = np.uint64(1)
    return h


@njit(cache=True)
def expand(s, rules, moves, children):
    """Every legal move of ``s`` into ``moves`` and the position after each into
    ``children``.  Returns the number of moves."""
    count = K.legal_moves(s, rules, moves)
    for k in range(count):
        K.play(s, rules, moves[k], children[k])
    return count


@njit(cache=True)
def position_moves(s, rules):
    """(moves, children) of ``s``: every legal move in the reference's order and the
    position after it, every end included.  For tests and tools."""
    moves = np.zeros(K.MAX_MOVES, dtype=np.int64)
    children = np.zeros((K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    count = expand(s, rules, moves, children)
    return moves[:count].copy(), children[:count].copy()


# --- the search ------------------------------------------------------------------------


@njit(cache=True)
def table_value(s, rules, tbv, tbo, tbc, most):
    """The endgame table's value of the unfinished position ``s`` for the player to move, on
    the search's scale (:func:`mancala.engine.togyz.kernels.margin_value` of the kazans'
    margin plus what the table gives the mover from the board), or :data:`NO_VALUE` when the
    board holds more than ``most`` stones.  ``tbv``, ``tbo``, ``tbc``: a
    :class:`~mancala.engine.togyz.endgame.TogyzTable`'s values, offsets and configurations
    (the key of :func:`mancala.engine.togyz.endgame.index_of`, read here in place)."""
    n = rules[K.R_HOUSES]
    p2 = 2 * n
    stones = 0
    for i in range(p2):
        stones += s[i]
    if stones > most:
        return NO_VALUE
    seat = s[K.S_SEAT]
    mine = s[K.S_TUZ + seat]
    theirs = s[K.S_TUZ + 1 - seat]
    # the tuzdiks seen from the mover (endgame.normalise): its own on the opponent's row
    ta = -1 if mine < 0 else (mine + n if seat == 1 else mine)
    tb = -1 if theirs < 0 else (theirs - n if seat == 1 else theirs)
    last = p2 - 1
    while last == ta or last == tb:
        last -= 1
    r = np.int64(0)
    prefix = 0
    k = 0
    for j in range(last):
        if j == ta or j == tb:
            continue
        i = j + seat * n
        if i >= p2:
            i -= p2
        prefix += s[i]
        r += BINOM[prefix + k, k + 1]
        k += 1
    a = ta - n + 1 if ta >= 0 else 0
    v = np.int64(tbv[tbo[stones, tbc[a, tb + 1]] + r])
    m = s[K.S_KAZAN + seat] - s[K.S_KAZAN + 1 - seat] + v
    return K.margin_value(m)


@njit(cache=True, nogil=True)
def negamax(
    s, ply, depth, alpha, beta, rules, w, z, tkey, tval, tdat, ch, mv, sc, kill, hist, ctl, deadline, tbv, tbo, tbc
):
    """The value of ``s`` for the player to move, searched ``depth`` plies (fail-soft); a
    position below the root within the endgame table (``ctl[C_TB_STONES]``) is valued by it."""
    if kit.spend_node(ctl, deadline):
        return 0.0
    if s[K.S_FINISHED] != 0:
        return K.terminal_value(s, rules)
    if ply > 0 and ctl[C_TB_STONES] >= 0:
        v = table_value(s, rules, tbv, tbo, tbc, ctl[C_TB_STONES])
        if v != NO_VALUE:
            ctl[C_TB_HITS] += 1
            return v
    if depth <= 0:
        ctl[C_HEUR] += 1
        return K.heuristic(s, rules, w)
    n = rules[K.R_HOUSES]
    use_tt = ctl[C_USE_TT] != 0
    h = np.uint64(0)
    idx = 0
    ttmove = -1
    if use_tt:
        h = table_key(s, n, z)
        idx, ttmove, settled, v = kit.probe(tkey, tval, tdat, h, ply, depth, alpha, beta, ctl)
        if settled:
            return v
    moves = mv[ply]
    children = ch[ply]
    count = expand(s, rules, moves, children)
    if count == 0:  # cannot happen: play finishes a position whose mover has no stones
        return K.terminal_value(s, rules)
    heur_before = ctl[C_HEUR]
    scores = sc[ply]
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
            scores[k] = c[K.S_GAINED] * 1e6 + hist[house]
            if house == kill[ply, 0] or house == kill[ply, 1]:
                scores[k] += 5e5
    order = kit.order_by_score(scores, count)
    best = -np.inf
    best_move = -1
    a = alpha
    for r in range(count):
        k = order[r]
        c = children[k]
        if c[K.S_FINISHED] != 0:
            v = -K.terminal_value(c, rules)
            ctl[C_NODES] += 1
        elif r > 0 and ctl[C_PVS] != 0 and a > -np.inf and a < beta:
            # principal variation search: prove this move no better than the best so far with
            # a null window above ``a``; search it again in full only if it is better.  A late
            # quiet move is tried one ply shallower first (late move reduction)
            cut = 0
            if (
                ctl[C_LMR] > 0
                and r >= ctl[C_LMR]
                and depth >= LMR_DEPTH
                and c[K.S_GAINED] == 0
                and moves[k] != kill[ply, 0]
                and moves[k] != kill[ply, 1]
            ):
                cut = 1
            v = -negamax(
                c, ply + 1, depth - 1 - cut, -np.nextafter(a, np.inf), -a, rules, w, z, tkey, tval, tdat, ch, mv, sc,
                kill, hist, ctl, deadline, tbv, tbo, tbc,
            )  # fmt: skip
            if cut != 0 and v > a and ctl[C_ABORT] == 0:
                v = -negamax(
                    c, ply + 1, depth - 1, -np.nextafter(a, np.inf), -a, rules, w, z, tkey, tval, tdat, ch, mv, sc,
                    kill, hist, ctl, deadline, tbv, tbo, tbc,
                )  # fmt: skip
            if v > a and v < beta and ctl[C_ABORT] == 0:
                v = -negamax(
                    c, ply + 1, depth - 1, -beta, -a, rules, w, z, tkey, tval, tdat, ch, mv, sc, kill, hist, ctl,
                    deadline, tbv, tbo, tbc,
                )  # fmt: skip
        else:
            v = -negamax(
                c, ply + 1, depth - 1, -beta, -a, rules, w, z, tkey, tval, tdat, ch, mv, sc, kill, hist, ctl, deadline,
                tbv, tbo, tbc,
            )  # fmt: skip
        if ctl[C_ABORT] != 0:
            return 0.0
        best, best_move, a = kit.improve(v, moves[k], best, best_move, a, ply, ctl)
        if a >= beta:
            if c[K.S_GAINED] == 0 and kill[ply, 0] != moves[k]:
                kill[ply, 1] = kill[ply, 0]
                kill[ply, 0] = moves[k]
            hist[moves[k]] += depth * depth
            break
    if use_tt:
        kit.store(tkey, tval, tdat, idx, h, depth, alpha, beta, best, best_move, ctl[C_HEUR] != heur_before)
    return best


@njit(cache=True, nogil=True)
def search_root(s, depth, rules, w, z, tkey, tval, tdat, ctl, deadline, tbv, tbo, tbc):
    """Search ``s`` to ``depth`` plies; returns its value for the player to move (the best
    move is left in ``ctl[C_ROOTMOVE]``, ``ctl[C_ABORT]`` says if it stopped)."""
    ch = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES, K.S_SIZE), dtype=np.int64)
    mv = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.int64)
    sc = np.zeros((MAX_DEPTH + 2, K.MAX_MOVES), dtype=np.float64)
    kill = np.full((MAX_DEPTH + 2, 2), -1, dtype=np.int64)
    hist = np.zeros(2 * K.MAX_HOUSES, dtype=np.int64)
    kit.start_root(ctl)
    # typed (non-literal) arguments: literals in a recursive function's first call break numba's cache
    zero = np.int64(0)
    big = np.float64(np.inf)
    return negamax(
        s, zero, np.int64(depth), -big, big, rules, w, z, tkey, tval, tdat, ch, mv, sc, kill, hist, ctl, deadline,
        tbv, tbo, tbc,
    )  # fmt: skip


class TogyzSearcher(kit.TableSearcher):
    """One player's search tables: a transposition table, the rules and weights arrays and
    counters.  Keep one per player to reuse the table from move to move (keys hold every
    cell a value depends on, and the ply).  ``reductions`` k > 0 reduces late quiet moves
    from the k+1-th on (:data:`LMR_DEPTH`): deeper in the same nodes."""

    def __init__(
        self,
        game: TogyzKumalak,
        weights: TogyzWeights = DEFAULT,
        entries: int = TABLE_ENTRIES,
        use_table: bool = True,
        pvs: bool = True,
        reductions: int = 0,
    ) -> None:
        if not supports(game.rules):
            raise BadInput(f"the Togyz Kumalak engine does not play these rules ({game.rules.describe()}): max_plies")
        super().__init__(entries, C_SIZE, use_table)
        self.game = game
        self.houses = game.rules.houses
        self.rules = rules_array(game.rules)
        self.weights = weights_array(weights)
        self.z = zobrist_keys()
        self.ctl[C_PVS] = int(pvs)
        self.ctl[C_LMR] = reductions
        self.ctl[C_ROOTFIRST] = -1
        self.use_table(None)

    def use_table(self, table: TogyzTable | None) -> None:
        """Value every position below the root with at most ``table.max_stones`` stones on
        the board by the endgame table (:func:`table_value`); None: no table.  The table
        must be one of this game's rules (:func:`mancala.engine.togyz.exact.table_for`)."""
        if table is not None and table.rules.houses != self.houses:
            raise BadInput(f"an endgame table of {table.rules.houses} houses a side on a board of {self.houses}")
        self.tbv, self.tbo, self.tbc, most = search_arrays(table)
        self.ctl[C_TB_STONES] = most

    @property
    def table_hits(self) -> int:
        """Positions valued by the endgame table so far (every search of this searcher)."""
        return int(self.ctl[C_TB_HITS])

    def children(self, state: TogyzState) -> tuple[np.ndarray, np.ndarray]:
        """(houses, positions after them) of every legal move of ``state``, as the kernels
        play them."""
        return position_moves(state_array(state), self.rules)

    def run(
        self, state: TogyzState, depth: int, deadline: float = 0.0, node_limit: int = 0, first: int = -1
    ) -> tuple[float, int, bool, bool]:
        """One fixed-depth search: (value, best house, complete, exact).  ``first``: a house
        to search first at the root (-1: the table's move order).  A search stopped by the
        budget returns the best house among the root moves it searched in full (-1: none)."""
        self.ctl[C_ROOTFIRST] = first
        self.ctl[C_HEUR] = 0
        self.ctl[C_LIMIT] = node_limit
        value = search_root(
            state_array(state), depth, self.rules, self.weights, self.z, self.tkey, self.tval, self.tdat, self.ctl,
            deadline, self.tbv, self.tbo, self.tbc,
        )  # fmt: skip
        return float(value), int(self.ctl[C_ROOTMOVE]), not self.ctl[C_ABORT], self.ctl[C_HEUR] == 0

    def line(self, state: TogyzState, first: TogyzMove, limit: int) -> tuple[TogyzMove, ...]:
        """The principal line: ``first``, then the table's moves while they are legal."""
        game = self.game
        n = self.houses
        moves = [first]
        while len(moves) < limit:
            state = game.apply(state, moves[-1])
            if state.finished:
                break
            house = self.table_move(table_key(state_array(state), n, self.z))
            move = TogyzMove(house, n)
            if house < 0 or move not in game.legal_moves(state):
                break
            moves.append(move)
        return tuple(moves)


_KEPT: kit.KeptSearchers[TogyzSearcher] = kit.KeptSearchers(TogyzSearcher)


def kept_searcher(
    game: TogyzKumalak, weights: TogyzWeights, table: TogyzTable | None = None
) -> AbstractContextManager[TogyzSearcher]:
    """The process's searcher of these rules and weights, its transposition table kept from
    search to search (keys hold the whole position and the ply, so an entry of an earlier
    move is still right), emptied when the endgame table in its search changes.  A fresh
    searcher when another thread holds the kept one."""
    return _KEPT.hold(game, weights, table)


@lru_cache(maxsize=None)
def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel with a tiny search, once a process."""
    game = TogyzKumalak()
    TogyzSearcher(game, entries=1 << 4).run(game.initial_state(), 2)


def zobrist_keys() -> np.ndarray:
    """The random keys every searcher shares (made once a process)."""
    return kit.shared_zobrist(20261127, K.S_SIZE, 512)


def search(
    game: TogyzKumalak,
    state: TogyzState,
    seconds: float | None = 1.0,
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
    weights: TogyzWeights = DEFAULT,
    searcher: TogyzSearcher | None = None,
    table: TogyzTable | None = None,
    keep: bool = False,
    clock: Callable[[], float] = time.perf_counter,
    reductions: int | None = None,
) -> SearchResult:
    """Iterative deepening: depth 1, 2, ... up to ``max_depth`` plies while the budget lasts
    (``seconds`` of wall time, ``max_nodes`` nodes; None: no limit).  Returns the last
    complete iteration (depth 1 always completes) with the root value for the player to
    move; stops early once a search met only finished games (its value is then exact).
    ``reductions``: the searcher's late move reductions for this search (None: as it is).
    ``table`` (an endgame table of the game's rules) values every position below the root
    within it (:meth:`TogyzSearcher.use_table`: the kazans' difference plus the entry, a
    proven value).  ``keep`` (without a ``searcher``): search with the process's kept searcher
    (:func:`kept_searcher`), whose transposition table still holds the last moves' searches."""
    if keep and searcher is None:
        with kept_searcher(game, weights, table) as kept:
            return search(
                game, state, seconds, max_depth=max_depth, max_nodes=max_nodes, weights=weights, searcher=kept,
                clock=clock, reductions=reductions,
            )  # fmt: skip
    if not 1 <= max_depth <= MAX_DEPTH:
        raise BadInput(f"Togyz Kumalak search depth must be 1..{MAX_DEPTH}, got {max_depth}")
    if not supports(game.rules):
        raise BadInput(f"the Togyz Kumalak engine does not play these rules ({game.rules.describe()})")
    if game.is_terminal(state):
        return SearchResult(None, final_value(game.score(state, state.seat)), (), 1, 0, "togyz-engine(exact)")
    warm_up()  # compiles or loads numba's cache on first use (microseconds later): not counted
    searcher = searcher or TogyzSearcher(game, weights)
    if reductions is not None:
        searcher.ctl[C_LMR] = reductions
    if table is not None:
        searcher.use_table(table)
    nodes_at_start = searcher.nodes
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
    move = TogyzMove(house, game.rules.houses)
    if move not in game.legal_moves(state):  # cannot happen: the house came from the kernels' move list
        raise RuntimeError(f"Togyz Kumalak engine returned an illegal house {house}")
    return SearchResult(
        move,
        value + 0.0,  # negamax's -0.0 shown as 0
        searcher.line(state, move, depth),
        searcher.nodes - nodes_at_start,
        depth,
        f"togyz-engine({'exact' if exact else f'depth {depth}'})",
    )
