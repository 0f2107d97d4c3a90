"""Exact play from Oware's endgame databases (:mod:`mancala.engine.oware.endgame`): the
value of every move of a position with at most N seeds on the board, the best move and a
perfect line, for ``best``, the hint, the analysis and ``mancala solve``.

**Which table.**  The largest table of the game's rules found whole in the cache (built
with ``mancala db build --game oware --seeds N``), at most :func:`table_bound` bytes (one
byte a position: 1.25 GB for 24 seeds), loaded once a process and kept.  No table, or a
position with more seeds on the board: no answer (the search plays on).

**What a value is.**  A move's value is the mover's final seed difference with perfect play
after it: the stores' difference after the move plus what the table gives the side then
to move, negated, or the game's own score when the move ends the game.  The table's
entries count the game played to its end; with the majority stop the game may end
sooner, with the same winner (stores only grow), so the result (win, draw, loss) and the
moves that keep it are exact, and the margin is the one of play to the end.

**How exact.**  Under ``repetition=split`` (the ``awari`` preset) endless play is worth an
even split, which is what the table gives positions nobody can force out of: its values
are exact.  Under own-row repetition (``abapa``, ``openspiel``) a repetition's value
depends on the rows when it happens, so the table's values of such positions are an
estimate (as Aalina's tables are): :func:`exact_rules` says which, and callers mark the
values exact or not by it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from mancala.engine.oware import convert, endgame
from mancala.engine.oware.rules import rules_array
from mancala.errors import whole_number
from mancala.evaluation.oware import final_value
from mancala.games.oware import Oware, OwareMove, OwareRules, OwareState, Repetition, position_key

#: the largest table loaded by default, in bytes (``$MANCALA_OWARE_TABLE_BYTES`` overrides)
DEFAULT_TABLE_BYTES = 2 << 30
#: the longest perfect line given
LINE_LIMIT = 40

_tables: dict[tuple, Any] = {}


def table_bound() -> int:
    """The most bytes a loaded table may hold (``$MANCALA_OWARE_TABLE_BYTES``, else 2 GiB)."""
    text = os.environ.get("MANCALA_OWARE_TABLE_BYTES", "").strip()
    return whole_number(text, "$MANCALA_OWARE_TABLE_BYTES") if text else DEFAULT_TABLE_BYTES


def exact_rules(rules: OwareRules) -> bool:
    """Whether the table's values are exact under ``rules`` (repetition splits the board)."""
    return rules.repetition is Repetition.SPLIT and rules.max_plies == 0


#: :meth:`mancala.engine.oware.search.OwareSearcher.use_table`'s modes: every entry is a value and ends the search there
#: (exact under split repetition) ...
TABLE_ENDS = 0
#: ... every entry but 0 (endless play) does; the search goes on from a 0 ...
TABLE_BUT_ZERO = 1
#: ... the search goes on through the table and takes its entry only at the depth limit,
#: instead of the evaluation (not exact), so that it meets a repetition within its reach and
#: scores it by the rules
TABLE_AT_HORIZON = 2
#: the modes by name (the benchmark's settings, messages)
TABLE_MODES = {"ends": TABLE_ENDS, "but-zero": TABLE_BUT_ZERO, "horizon": TABLE_AT_HORIZON}

#: how play uses the table under own-row repetition (:func:`table_mode`).  From 55 endgames
#: of at most 22 seeds, each from both seats, 100,000 nodes a move against every entry ending
#: the search: only at the horizon, 33 pairs better, 14 even, 8 worse (mean +2.5 seeds a
#: pair); all but zeros, 19-31-5 (+1.1): docs/oware.md ("The table under own-row repetition")
OWN_ROW_TABLE_MODE = TABLE_AT_HORIZON


def table_mode(rules: OwareRules) -> int:
    """How play uses an endgame table under ``rules``: every entry ends the search where the
    table is exact (:func:`exact_rules`: a repetition splits the
    board); under own-row repetition :data:`OWN_ROW_TABLE_MODE`, since there the table's
    endless play (0), and any line that reaches it, is worth the rows when the position
    repeats, which the search scores by the rules when it meets the repetition."""
    return TABLE_ENDS if exact_rules(rules) else OWN_ROW_TABLE_MODE


def seeds_on_disk(rules: OwareRules) -> int:
    """The largest N such that every tier 0..N of ``rules``' table is in the cache (-1: none),
    within :func:`table_bound`."""
    from mancala.engine.compositions import tier_offsets  # noqa: PLC0415

    try:
        endgame.check_rules(rules, 0)
    except Exception:  # noqa: BLE001 (rules no table is built for: none on disk)
        return -1
    best = -1
    limit = table_bound()
    seeds = 0
    while endgame.tier_path(rules, seeds).exists():
        try:
            endgame.check_rules(rules, seeds)
        except Exception:  # noqa: BLE001 (beyond what a table may hold)
            break
        if int(tier_offsets(2 * rules.houses, seeds)[-1]) > limit:
            break
        best = seeds
        seeds += 1
    return best


def table_for(rules: OwareRules):
    """The loaded table of ``rules`` (see the module doc), or None."""
    key = (rules.houses, repr(endgame.table_key(rules)))
    if key not in _tables:
        seeds = seeds_on_disk(rules)
        _tables[key] = endgame.load(rules, seeds) if seeds >= 0 else None
    return _tables[key]


def forget_tables() -> None:
    """Drop the loaded tables (a test that built a new one)."""
    _tables.clear()


def board_value(table, state: OwareState) -> int | None:
    """What the table gives the side to move of ``state`` from the seeds on its board, or
    None when the board holds more seeds than the table."""
    if sum(state.houses) > table.max_seeds:
        return None
    houses = np.asarray(state.houses, dtype=np.int64)
    out = np.empty_like(houses)
    endgame.normalise(houses, state.seat, out)
    value = int(endgame.probe(table.values, table.offsets, out))
    return None if value == endgame.MISSING else value


def move_values(game: Oware, state: OwareState, table=None) -> list[tuple[OwareMove, int]] | None:
    """Every legal move of ``state`` with the mover's final seed difference after it (see
    the module doc), best first; None when no table answers for this position."""
    table = table if table is not None else table_for(game.rules)
    if table is None or game.is_terminal(state) or sum(state.houses) > table.max_seeds:
        return None
    mover = state.seat
    out = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if game.is_terminal(child):
            value = game.score(child, mover)
        else:
            after = board_value(table, child)
            if after is None:
                return None
            value = child.stores[mover] - child.stores[1 - mover] - after
        out.append((move, value))
    out.sort(key=lambda mv: -mv[1])
    return out


def conversion_plies(game: Oware, state: OwareState, table, limit: int = convert.CONVERSION_NODES) -> dict:
    """The root moves that keep ``state``'s value in ``table`` and are proved to convert (a
    capture, the game's end or an opponent's mistake) whatever the opponent does, each with
    the most plies after it until then (:mod:`mancala.engine.oware.convert`)."""
    n = game.rules.houses
    me = state.seat
    seeds = sum(state.houses)
    board = np.empty(2 * n, dtype=np.int64)
    history = []
    for key in state.seen | {position_key(state.houses, state.seat)}:
        endgame.normalise(np.asarray(key[:-1], dtype=np.int64), key[-1], board)
        history.append(int(convert.node_key(board, seeds, 0 if key[-1] == me else 1)))
    endgame.normalise(np.asarray(state.houses, dtype=np.int64), me, board)
    out = np.empty(n, dtype=np.int64)
    convert.conversion_plies(
        board,
        rules_array(game.rules),
        table.values,
        table.offsets,
        np.asarray(history, dtype=np.int64),
        limit,
        out,
    )
    return {OwareMove(me * n + o, n): int(out[o]) for o in range(n) if out[o] != convert.UNPROVED}


def best_move(game: Oware, state: OwareState, table=None) -> tuple[OwareMove, int] | None:
    """The table's best move of ``state`` and the mover's final margin after it, or None: of
    the moves that keep the best value, the one that converts soonest
    (:func:`conversion_plies`), so that play makes progress instead of circling; when none
    is proved to convert, the first of them."""
    table = table if table is not None else table_for(game.rules)
    values = move_values(game, state, table)
    if not values:
        return None
    keep = values[0][1]
    tied = [move for move, value in values if value == keep]
    if len(tied) == 1:
        return tied[0], keep
    plies = conversion_plies(game, state, table)
    if plies:
        return min(tied, key=lambda m: plies.get(m, 1 << 30)), keep
    return tied[0], keep


def perfect_line(game: Oware, state: OwareState, table=None, limit: int = LINE_LIMIT) -> list[OwareMove]:
    """A line of best moves from ``state`` (:func:`best_move`; until the game ends, or
    ``limit`` moves)."""
    table = table if table is not None else table_for(game.rules)
    line: list[OwareMove] = []
    while len(line) < limit and not game.is_terminal(state):
        chosen = best_move(game, state, table)
        if chosen is None:
            break
        line.append(chosen[0])
        state = game.apply(state, chosen[0])
    return line


def probe_move(game: Oware, state: OwareState, mode: int | None = None) -> tuple[OwareMove, float] | None:
    """The search's endgame hook (:data:`mancala.engine.oware.search.ENDGAME_PROBE`): the
    table's best move (:func:`best_move`) and its value on the engine's scale (a win is worth
    ``WIN`` plus the margin), or None.  ``mode`` (None: :func:`table_mode`
    of the rules) says where the table answers: every position (``TABLE_ENDS``), all but
    those it gives 0 (``TABLE_BUT_ZERO``), none (``TABLE_AT_HORIZON``): under own-row
    repetition the search plays those, scoring a repetition by the rows
    (:meth:`mancala.engine.oware.search.OwareSearcher.use_table`)."""
    mode = table_mode(game.rules) if mode is None else mode
    table = table_for(game.rules)
    if table is None or mode == TABLE_AT_HORIZON:
        return None
    if mode == TABLE_BUT_ZERO and not game.is_terminal(state) and board_value(table, state) == 0:
        return None
    chosen = best_move(game, state, table)
    if chosen is None:
        return None
    move, margin = chosen
    return move, final_value(margin)
