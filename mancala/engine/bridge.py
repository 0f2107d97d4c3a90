"""Conversions between :mod:`mancala.games.kalah` objects and the kernels' arrays."""

from __future__ import annotations

import numpy as np

from mancala.engine import kernels as K
from mancala.engine.kit import once_per_rule_set
from mancala.errors import BadInput
from mancala.games.kalah import (
    SWAP,
    Capture,
    GameEnd,
    Kalah,
    KalahMove,
    KalahRules,
    KalahState,
    Remaining,
    Sowing,
    check_board_seeds,
)

_CAPTURE = {Capture.NONE: 0, Capture.OPPOSITE_AND_LAST: 1, Capture.OPPOSITE_ONLY: 2}

#: root flag bits (see :func:`mancala.engine.search.negamax`)
FLAG_FIRST = 1
FLAG_PIE = 2


@once_per_rule_set
def rules_array(rules: KalahRules) -> np.ndarray:
    """The kernels' rules array for ``rules``: compiled once per rule set and carried (callers
    read it, never write it)."""
    r = np.zeros(K.R_SIZE, dtype=np.int64)
    r[K.R_PITS] = rules.pits
    r[K.R_CAPTURE] = _CAPTURE[rules.capture]
    r[K.R_EMPTY] = int(rules.empty_capture)
    r[K.R_SKIP] = int(rules.skip_origin)
    r[K.R_END] = 0 if rules.end is GameEnd.EITHER_ROW_EMPTY else 1
    r[K.R_REMAIN] = 0 if rules.remaining is Remaining.OWNER else 1
    r[K.R_CHOICE] = int(rules.sowing is Sowing.CHOICE)
    r[K.R_NOFIRST] = int(rules.no_first_extra_turn)
    r[K.R_PIE] = int(rules.pie_rule)
    return r


@once_per_rule_set
def play_key(rules: KalahRules) -> tuple:
    """The rule options that change play from a position on (what tables depend on), computed
    once per rule set."""
    return (
        rules.pits,
        rules.capture.value,
        rules.empty_capture,
        rules.skip_origin,
        rules.end.value,
        rules.remaining.value,
        rules.sowing.value,
    )


def check_seeds(pits: int, total: int) -> None:
    """Reject more seeds than the engine is built for (see
    :func:`mancala.games.kalah.max_board_seeds`): one line naming the limit."""
    check_board_seeds((total,), pits)


def relative_board(state: KalahState) -> np.ndarray:
    """``state.board`` seen from the seat to move (that seat's pits first); a board beyond
    the engine's limits (:func:`check_seeds`) is rejected."""
    n = state.pits
    check_board_seeds(state.board, n)
    b = np.array(state.board, dtype=np.int64)
    if state.seat == 1:
        b = np.concatenate([b[n + 1 :], b[: n + 1]])
    return b


def absolute_board(rel, seat: int) -> tuple[int, ...]:
    """The board in absolute order from a board relative to ``seat``."""
    n = (len(rel) - 2) // 2
    rel = [int(x) for x in rel]
    if seat == 1:
        rel = rel[n + 1 :] + rel[: n + 1]
    return tuple(rel)


def root_flags(game: Kalah, state: KalahState) -> int:
    """Flags for a search rooted at ``state``: the first-move rule and a pending pie rule."""
    r = game.rules
    flags = 0
    if r.no_first_extra_turn and state.ply == 0:
        flags |= FLAG_FIRST
    if r.pie_rule and state.turns == 0 and not state.swapped:
        flags |= FLAG_PIE
    return flags


def store_difference(state: KalahState) -> int:
    """The mover's store minus the other store."""
    return state.store(state.seat) - state.store(1 - state.seat)


def move_code(game: Kalah, move: KalahMove) -> int:
    """The kernel code of a sowing move."""
    if move.pit is None:
        raise BadInput("the swap has no kernel code")
    return (move.pit - 1) + (game.rules.pits if move.clockwise else 0)


def code_move(game: Kalah, code: int) -> KalahMove:
    """The :class:`KalahMove` of a kernel code."""
    n = game.rules.pits
    directed = game.rules.sowing is Sowing.CHOICE
    return KalahMove(code % n + 1, code >= n, directed)


def kernel_moves(game: Kalah, state: KalahState) -> list[KalahMove]:
    """Legal moves as the kernel generates them (the swap is added when allowed)."""
    if state.finished:
        return []
    b = relative_board(state)
    out = np.zeros(2 * game.rules.pits, dtype=np.int64)
    cnt = K.gen_moves(b, rules_array(game.rules), out)
    moves = [code_move(game, int(c)) for c in out[:cnt]]
    if state.swap_allowed:
        moves.append(SWAP)
    return moves


def kernel_apply(game: Kalah, state: KalahState, move: KalahMove) -> tuple[tuple[int, ...], int, bool]:
    """Play ``move`` with the kernel: (absolute board, seat to move next, game over)."""
    b = relative_board(state)
    out = np.zeros_like(b)
    first = int(state.ply == 0)
    st = K.make_move(b, move_code(game, move), out, rules_array(game.rules), first)
    if st == K.PASS:
        seat = 1 - state.seat
        return absolute_board(out, seat), seat, False
    if st == K.OVER:
        return absolute_board(out, state.seat), 1 - state.seat, True
    return absolute_board(out, state.seat), state.seat, st == K.OVER_EXTRA
