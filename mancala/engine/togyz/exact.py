"""Exact play from Togyz Kumalak's endgame tables (:mod:`mancala.engine.togyz.endgame`): the
value of every move of a position with at most N stones on the board, the best move and a
perfect line, for ``best``, the board's exact answers and ``mancala solve``.

**Which table.**  The largest table of the game's rules found whole in the cache (``mancala db
build --game togyz --seeds N``), at most :func:`table_bound` bytes (one byte a position:
446 MB for 10 stones on 2 x 9), loaded once a process and kept.  No table, or a position
with more stones on the board: no answer.

**What a value is.**  A move's value is the mover's final stone difference with perfect play
after it: the kazans' difference after the move less what the table gives the side then to
move, or the game's own score when the move ends the game.  The table counts the game
played to its end; under the majority stop (82 of 162) the game may end sooner with the
same winner (kazans only grow), so the result (win, draw, loss) and the moves that keep it
are exact, and the margin is exact when no kazan can reach a majority any more
(:func:`exact_here`), else the margin of play to the end.  Endless play is a draw on the
board (docs/togyz.md, "Repetition").
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mancala.engine.togyz import endgame
from mancala.errors import whole_number
from mancala.games.togyz import TogyzKumalak, TogyzMove, TogyzRules, TogyzState

#: the largest table loaded by default, in bytes (``$MANCALA_TOGYZ_TABLE_BYTES`` overrides)
DEFAULT_TABLE_BYTES = 2 << 30
#: the longest perfect line given
LINE_LIMIT = 40
#: what the values are when the majority stop may cut the game short
MAJORITY_NOTE = "the result is exact; the margin is that of play to the end (the game may stop sooner at a majority)"

_tables: dict[tuple, Any] = {}


def table_bound() -> int:
    """The most bytes a loaded table may hold (``$MANCALA_TOGYZ_TABLE_BYTES``, else 2 GiB)."""
    text = os.environ.get("MANCALA_TOGYZ_TABLE_BYTES", "").strip()
    return whole_number(text, "$MANCALA_TOGYZ_TABLE_BYTES") if text else DEFAULT_TABLE_BYTES


def usable(rules: TogyzRules) -> bool:
    """Whether the tables answer for ``rules`` (not under ``max_plies``: a value would depend
    on the moves left)."""
    return rules.max_plies == 0


def stones_on_disk(rules: TogyzRules) -> int:
    """The largest N such that every tier 0..N of ``rules``' table is in the cache (-1: none)."""
    return endgame.stones_on_disk(rules, table_bound()) if usable(rules) else -1


def table_for(rules: TogyzRules) -> endgame.TogyzTable | None:
    """The loaded table of ``rules`` (see the module doc), or None."""
    key = tuple(sorted(endgame.table_key(rules).items()))
    if key not in _tables:
        stones = stones_on_disk(rules)
        _tables[key] = endgame.load(rules, stones) if stones >= 0 else None
    return _tables[key] if usable(rules) else None


def forget_tables() -> None:
    """Drop the loaded tables (a test that built a new one)."""
    _tables.clear()


def exact_here(rules: TogyzRules, state: TogyzState) -> bool:
    """Whether the table's margins are the game's own from ``state``: no majority stop, or no
    kazan can pass half of the stones any more."""
    if not rules.stop_at_majority:
        return True
    return 2 * (max(state.kazans) + sum(state.houses)) <= rules.total


def board_value(table: endgame.TogyzTable, state: TogyzState) -> int | None:
    """What the table gives the side to move of ``state`` from the stones on its board, or
    None when the board holds more stones than the table."""
    if sum(state.houses) > table.max_stones:
        return None
    value = table.value(state.houses, state.tuzdiks, state.seat)
    return None if value == endgame.MISSING else value


def move_values(
    game: TogyzKumalak, state: TogyzState, table: endgame.TogyzTable | None = None
) -> list[tuple[TogyzMove, int]] | None:
    """Every legal move of ``state`` with the mover's final stone difference after it (see
    the module doc), best first; None when no table answers for this position."""
    table = table if table is not None else table_for(game.rules)
    if table is None or game.is_terminal(state) or sum(state.houses) > table.max_stones:
        return None
    mover = state.seat
    out = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):  # the game's own score (a majority's too)
            value = game.score(child, mover)
        else:
            after = board_value(table, child)
            if after is None:
                return None
            value = child.kazans[mover] - child.kazans[1 - mover] - after
        out.append((move, value))
    out.sort(key=lambda mv: -mv[1])
    return out


def best_move(
    game: TogyzKumalak, state: TogyzState, table: endgame.TogyzTable | None = None
) -> tuple[TogyzMove, int] | None:
    """The table's best move and the mover's final margin after it, or None: of the moves
    that keep the best value, one that takes stones off the board (or ends the game) first,
    so that play makes progress, else the first."""
    values = move_values(game, state, table)
    if not values:
        return None
    keep = values[0][1]
    tied = [move for move, value in values if value == keep]
    on_board = sum(state.houses)
    for move in tied:
        child = game.apply(state, move)
        if game.is_terminal(child) or sum(child.houses) < on_board:
            return move, keep
    return tied[0], keep


def perfect_line(
    game: TogyzKumalak, state: TogyzState, table: endgame.TogyzTable | None = None, limit: int = LINE_LIMIT
) -> list[TogyzMove]:
    """A line of best moves from ``state`` (:func:`best_move`; until the game ends, or
    ``limit`` moves)."""
    table = table if table is not None else table_for(game.rules)
    line: list[TogyzMove] = []
    while len(line) < limit and not game.is_terminal(state):
        chosen = best_move(game, state, table)
        if chosen is None:
            break
        line.append(chosen[0])
        state = game.apply(state, chosen[0])
    return line


def search_arrays(table: endgame.TogyzTable | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The arrays the search probes (values, offsets, configurations) and the table's stones
    (-1 and empty arrays when there is no table)."""
    if table is None:
        return np.zeros(1, np.int8), np.zeros((1, 1), np.int64), np.full((1, 1), -1, np.int64), -1
    return table.values, table.layout.offsets, table.layout.config, table.max_stones
