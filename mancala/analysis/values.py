"""The one table of a position's move values that the hint, the analysis and the review
all read: every legal move's value for the player to move, best first, exact or an estimate
that names its depth, and the best line."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, cast

from mancala.evaluation import default_evaluation
from mancala.games.bao import Bao
from mancala.games.base import Game
from mancala.games.catalogue import spec_of, traits_of
from mancala.games.kalah import Kalah
from mancala.search.core import SearchAborted, alphabeta


def unit(game: Game) -> str:
    """What values count: ``seeds`` (Kalah, Oware: any game whose margin is in seeds), ``eval``
    (Bao), ``outcome`` (tic-tac-toe), as the game's traits declare."""
    return traits_of(game).value_unit


#: the nominal seconds of the position's table that the hint, the analysis and the evaluation
#: bar read, so that they agree on a position (a request may ask for more)
ANALYSIS_SECONDS = 2.0
#: the nominal seconds of one position of a review (a position's table kept with more is read)
REVIEW_SECONDS = 0.2
#: how many nodes a nominal second is worth for a game searched by alpha-beta in Python (its
#: engines give their own: ``VALUE_TABLES``); a budget in nodes makes every answer the same for
#: the same position and budget, whatever the machine's load, on every surface
PYTHON_NODES_PER_SECOND = 50_000
#: the largest budget of one table, in nodes
MAX_TABLE_NODES = 200_000_000


@dataclass(frozen=True)
class Table:
    """A position's table: every legal move's value for the player to move, best first
    (``{move, value, exact, depth, lower, upper}``: ``depth``, in turns, names how deep an
    estimate was searched; ``lower`` and ``upper``, where an engine proves them, bound an
    estimate's true value), the best line, and the budget in nodes it was searched with.  The one table
    that the hint, the analysis and the review all read."""

    rows: tuple[dict, ...]
    line: tuple[str, ...]
    nodes: int

    @property
    def exact(self) -> bool:
        """Whether every move's value is proved (more search would change nothing)."""
        return all(r["exact"] for r in self.rows)

    def serves(self, nodes: int) -> bool:
        """Whether this table answers a request of ``nodes``: searched with at least as many,
        or exact."""
        return self.nodes >= nodes or self.exact

    def copy_rows(self) -> list[dict]:
        """The rows, each a fresh dict (a caller may add to them)."""
        return [dict(r) for r in self.rows]


def budget(game: Game, seconds: float) -> int:
    """The budget in nodes of a request of ``seconds`` nominal seconds on ``game``: its value
    engine's nodes per second (or Python alpha-beta's), at least 1,000 nodes."""
    rate = VALUE_TABLES[game.name][1] if game.name in VALUE_TABLES else PYTHON_NODES_PER_SECOND
    return max(1_000, min(MAX_TABLE_NODES, round(seconds * rate)))


#: how many positions' tables a process keeps, the newest last
KEPT_POSITIONS = 512

_kept: OrderedDict[tuple, Table] = OrderedDict()


def position_key(game: Game, state) -> tuple:
    """What identifies a position across requests: the game's spec (its rules) and the state."""
    return (spec_of(game), repr(state))


def position_values(game: Game, state, nodes: int) -> Table:
    """The position's :class:`Table` searched with ``nodes`` nodes: the same table for the
    same position and budget, in any process.

    Kalah reads the opening book first (the position itself and the positions one move
    on: exact values without a search) and the engine for the other moves, every
    estimate kept at or below the position's proved value; Bao and Oware search every move
    with their engines (Oware reads its endgame database first); other games alpha-beta in
    Python.  A table is kept in the process and given again to any later request it
    :meth:`~Table.serves` (a request with a larger budget searches again and replaces it)."""
    key = position_key(game, state)
    kept = _kept.get(key)
    if kept is not None and kept.serves(nodes):
        _kept.move_to_end(key)
        return kept
    values = VALUE_TABLES[game.name][0] if game.name in VALUE_TABLES else _searched_values
    rows, line = values(game, state, nodes)
    table = Table(tuple(dict(r) for r in rows), tuple(line), nodes)
    remember(game, state, table)
    return table


def remember(game: Game, state, table: Table) -> None:
    """Keep ``table`` as the position's (a table searched elsewhere, handed to this process)."""
    key = position_key(game, state)
    kept = _kept.get(key)
    if kept is None or not kept.serves(table.nodes):
        _kept[key] = table
    _kept.move_to_end(key)
    while len(_kept) > KEPT_POSITIONS:
        _kept.popitem(last=False)


def forget_positions() -> None:
    """Drop the tables kept by :func:`position_values` (a test starting afresh)."""
    _kept.clear()


def _row(move: Any, value: float, exact: bool, depth: int) -> dict:
    """One move's row of a table: its value, whether it is exact, and for an estimate the
    depth it was searched to."""
    row = {"move": str(move), "value": jsonable(float(value)), "exact": bool(exact)}
    if not exact:
        row["depth"] = depth
    return row


def _share(nodes: int, used: int, moves_left: int) -> int:
    """One move's part of a table's budget: what is left, shared by the moves left."""
    return max(1, (nodes - used) // max(1, moves_left))


def _kalah_values(game: Kalah, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Kalah's table: the opening book's exact values where it has them (the position
    itself, the positions one move on, and finished games), the engine's analysis for
    the other moves, their estimates capped by the book's value of the position."""
    from mancala.engine.book import book_line, probe  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    order = [str(m) for m in moves]
    known: dict[str, tuple[float, list[str]]] = {}  # move -> (exact value, the book's line after it)
    for move in moves:
        child = game.apply(state, move)
        if game.is_terminal(child):
            known[str(move)] = (float(game.score(child, mover)), [])
            continue
        hit = probe(game, child)
        if hit is not None:
            sign = 1 if game.to_move(child) == mover else -1
            known[str(move)] = (float(sign * hit[1]), [str(m) for m in book_line(game, child)])
    root = probe(game, state) if moves else None
    if root is not None:
        known.setdefault(str(root[0]), (float(root[1]), [str(m) for m in book_line(game, state)][1:]))
    rows: list[dict] = []
    engine_line: list[str] = []
    if len(known) < len(moves):
        from mancala.engine import analyse  # noqa: PLC0415 (numba loads only when needed)

        table = analyse(game, state, float("inf"), max_nodes=nodes, fresh=True)
        engine_line = [str(m) for m in table.line]
        for mv in table:
            if str(mv.move) in known:
                continue
            value = float(mv.value)
            if root is not None:  # no move is better than the position's proved value
                value = min(value, float(root[1]))
            row = _row(mv.move, value, bool(mv.exact), mv.depth)
            if not mv.exact:  # what the search proved of an estimate: bounds on the true value
                if math.isfinite(mv.lower):
                    row["lower"] = jsonable(float(mv.lower))
                if math.isfinite(mv.upper):
                    row["upper"] = jsonable(float(mv.upper))
            rows.append(row)
    rows += [{"move": m, "value": jsonable(v), "exact": True} for m, (v, _) in known.items()]
    book_move = str(root[0]) if root is not None else None
    rows.sort(key=lambda r: (-float(r["value"]), not r["exact"], r["move"] != book_move, order.index(r["move"])))
    if not rows:
        return rows, []
    best = rows[0]["move"]
    if best in known:
        line = [best] + known[best][1]
    else:
        line = engine_line if engine_line[:1] == [best] else [best]
    return rows, line[:16]


def _bao_values(game: Bao, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Bao's table: every move searched by the fast Bao engine (its values are alpha-beta's
    with Bao's evaluation, the same as :func:`_searched_values` would find at the same
    depth, only deeper in the time), sharing one transposition table."""
    from mancala.engine.bao.search import BaoSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    searcher = BaoSearcher(game)
    rows, lines, used = [], {}, 0
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        if game.is_terminal(child):
            value, line, exact, depth = evaluate(game, child, mover), tuple[Any, ...](), True, 0
        else:
            result = search(game, child, None, max_nodes=_share(nodes, used, len(moves) - i), searcher=searcher)
            used += result.nodes
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = sign * result.value, result.line, result.exact, result.depth
        rows.append(_row(move, value, exact, depth + 1))
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _oware_values(game: Game, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Oware's table, in seeds: from the endgame database in the cache when it holds the
    position (every move's final margin with perfect play; exact or the table's estimate, as
    the rules make it), else every move searched by the Oware engine (sharing one
    transposition table), else (rules the engine declines) alpha-beta in Python."""
    from mancala.engine.support import engine_support  # noqa: PLC0415
    from mancala.players.builtin import has_engine  # noqa: PLC0415

    record = engine_support(game.name)
    scale = record.value_scale if record is not None else float  # the engine's values in seeds
    answer = record.exact(game, state) if record is not None and record.exact is not None else None
    if answer is not None:
        rows = [{"move": str(m), "value": jsonable(float(v)), "exact": answer.exact} for m, v in answer.moves]
        return rows, [str(m) for m in answer.line][:16]
    if not has_engine(game):
        searched, best_line = _searched_values(game, state, nodes)
        return [dict(r, value=jsonable(scale(float(r["value"])))) for r in searched], best_line
    from mancala.engine.oware.search import OwareSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    searcher = OwareSearcher(cast(Any, game))
    rows, lines, used = [], {}, 0
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        line: tuple[Any, ...] = ()
        if game.is_terminal(child):
            value, exact, depth = float(game.score(child, mover)), True, 0
        else:
            share = _share(nodes, used, len(moves) - i)
            result = search(cast(Any, game), child, None, max_nodes=share, searcher=searcher)
            used += result.nodes
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = scale(sign * result.value), result.line, result.exact, result.depth
        rows.append(_row(move, value, exact, depth + 1))
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _searched_values(game: Game, state, nodes: int) -> tuple[list[dict], list[str]]:
    """The table of a game without a value engine: every move searched by alpha-beta in
    Python, deepened while its share of ``nodes`` lasts (exact once the search sees only
    finished games)."""
    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    rows, lines, used = [], {}, 0
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        value, line, exact, depth, spent = _deepening_value(
            game, child, mover, evaluate, _share(nodes, used, len(moves) - i)
        )
        used += spent
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": exact, "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _deepening_value(game: Game, state, mover: int, evaluate, nodes: int) -> tuple[float, tuple, bool, int, int]:
    """The value of ``state`` for ``mover`` by alpha-beta deepened while ``nodes`` last or
    until the search sees only finished games (the value is then exact): its value, line,
    whether it is exact, the depth searched and the nodes spent.  Depth 1 always completes;
    a deeper search that would pass the budget is dropped (polled every 256 nodes), so the
    answer depends on the budget only."""
    if game.is_terminal(state):
        return evaluate(game, state, mover), (), True, 0, 0
    cut_off = [False]

    def scored(g, s, p):
        if not g.is_terminal(s):
            cut_off[0] = True
        return evaluate(g, s, p)

    sign = 1 if game.to_move(state) == mover else -1
    best: tuple[float, tuple, bool, int] | None = None
    used = 0
    for depth in range(1, 64):
        cut_off[0] = False
        polls = [0]

        def over_budget(polls: list[int] = polls, used: int = used) -> bool:
            polls[0] += 1
            return used + 256 * polls[0] > nodes

        try:
            result = alphabeta(game, state, depth, scored, stop=over_budget if best else None)
        except SearchAborted:
            used += 256 * polls[0]
            break
        used += result.nodes
        best = (sign * result.value, result.line, not cut_off[0], depth)
        if not cut_off[0] or used >= nodes:
            break
    assert best is not None  # depth 1 always completes
    return (*best, used)


#: how each game's move values are found, by name, and how many nodes a nominal second of it
#: is worth (others: alpha-beta in Python, move by move)
VALUE_TABLES: dict[str, tuple[Callable[[Any, Any, int], tuple[list[dict], list[str]]], int]] = {
    "kalah": (_kalah_values, 2_000_000),
    "bao": (_bao_values, 300_000),
    "oware": (_oware_values, 250_000),
}


def jsonable(value: Any) -> Any:
    """A search value as JSON: infinities as ``"inf"``/``"-inf"``, whole floats as ints."""
    if isinstance(value, float):
        if value == float("inf"):
            return "inf"
        if value == float("-inf"):
            return "-inf"
        if value == int(value):
            return int(value)
        return round(value, 3)
    return value
