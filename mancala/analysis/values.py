"""The one table of a position's move values that the hint, the analysis and the review
all read: every legal move's value for the player to move, best first, exact or an estimate
that names its depth, and the best line."""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, cast

from mancala.evaluation import default_evaluation
from mancala.games.bao import Bao
from mancala.games.base import Game
from mancala.games.catalogue import traits_of
from mancala.games.kalah import Kalah
from mancala.search.core import SearchAborted, alphabeta


def unit(game: Game) -> str:
    """What values count: ``seeds`` (Kalah, Oware: any game whose margin is in seeds), ``eval``
    (Bao), ``outcome`` (tic-tac-toe), as the game's traits declare."""
    return traits_of(game).value_unit


#: the least time a hint searches: as long as the analysis panel asks for, so that a hint
#: and an analysis of the same position read the same table (:func:`position_values`)
HINT_SECONDS = 2.0


#: how many positions' tables a worker process keeps, the newest last
KEPT_POSITIONS = 512


@dataclass
class _Values:
    """A position's move values (best first), best line and the time searched for them."""

    rows: list[dict]
    line: list[str]
    seconds: float


_kept: OrderedDict[tuple, _Values] = OrderedDict()


def _position_key(game: Game, state) -> tuple:
    """What identifies a position across requests: the game, its rules and the state."""
    return (game.name, repr(getattr(game, "rules", None)), repr(state))


def position_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Every legal move's value for the player to move, best first, as
    ``[{move, value, exact[, depth]}]``, and the best line: the one table that the hint,
    the analysis and the review all read, so that they agree on a position.

    Kalah reads the opening book first (the position itself and the positions one move
    on: exact values without a search) and the engine for the other moves, every
    estimate kept at or below the position's proved value; Bao searches every move with
    its fast engine; tic-tac-toe with alpha-beta.  A table is kept in the worker process and given again to any later request
    of no more ``seconds`` (a request with more time searches again and replaces it; an
    all-exact table is always given again)."""
    key = _position_key(game, state)
    kept = _kept.get(key)
    if kept is not None and (kept.seconds >= seconds or all(r["exact"] for r in kept.rows)):
        _kept.move_to_end(key)
        return [dict(r) for r in kept.rows], list(kept.line)
    rows, line = VALUE_TABLES.get(game.name, _searched_values)(game, state, seconds)
    _kept[key] = _Values([dict(r) for r in rows], list(line), seconds)
    _kept.move_to_end(key)
    while len(_kept) > KEPT_POSITIONS:
        _kept.popitem(last=False)
    return rows, line


def forget_positions() -> None:
    """Drop the tables kept by :func:`position_values` (a test starting afresh)."""
    _kept.clear()


def _kalah_values(game: Kalah, state, seconds: float) -> tuple[list[dict], list[str]]:
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

        table = analyse(game, state, seconds)
        engine_line = [str(m) for m in table.line]
        for mv in table:
            if str(mv.move) in known:
                continue
            value = float(mv.value)
            if root is not None:  # no move is better than the position's proved value
                value = min(value, float(root[1]))
            rows.append(
                {
                    "move": str(mv.move),
                    "value": jsonable(value),
                    "exact": bool(mv.exact),
                    **({"depth": mv.depth} if getattr(mv, "depth", None) is not None else {}),
                }
            )
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


def _bao_values(game: Bao, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Bao's table: every move searched by the fast Bao engine (its values are alpha-beta's
    with Bao's evaluation, the same as :func:`_searched_values` would find at the same
    depth, only deeper in the time), sharing one transposition table."""
    from mancala.engine.bao.search import BaoSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    searcher = BaoSearcher(game)
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        if game.is_terminal(child):
            value, line, exact, depth = evaluate(game, child, mover), tuple[Any, ...](), True, 0
        else:
            share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
            result = search(game, child, share, searcher=searcher)
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = sign * result.value, result.line, result.exact, result.depth
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": bool(exact), "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _in_seeds(value: float) -> float:
    """An Oware engine value in seeds: a proven end (worth ``WIN`` beyond its margin) as its
    margin, an estimate as it is (the store margin plus its terms)."""
    from mancala.evaluation.oware import WIN  # noqa: PLC0415

    if value >= WIN / 2:
        return value - WIN
    if value <= -WIN / 2:
        return value + WIN
    return value


def _oware_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Oware's table, in seeds: from the endgame database in the cache when it holds the
    position (every move's final margin with perfect play; exact or the table's estimate, as
    the rules make it), else every move searched by the Oware engine (sharing one
    transposition table), else (rules the engine declines) alpha-beta in Python."""
    from mancala.players.builtin import EXACT_TABLES, has_engine  # noqa: PLC0415

    answer = EXACT_TABLES["oware"][0](game, state)
    if answer is not None:
        rows = [{"move": str(m), "value": jsonable(float(v)), "exact": answer.exact} for m, v in answer.moves]
        return rows, [str(m) for m in answer.line][:16]
    if not has_engine(game):
        searched, best_line = _searched_values(game, state, seconds)
        return [dict(r, value=jsonable(_in_seeds(float(r["value"])))) for r in searched], best_line
    from mancala.engine.oware.search import OwareSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    searcher = OwareSearcher(cast(Any, game))
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        line: tuple[Any, ...] = ()
        if game.is_terminal(child):
            value, exact, depth = float(game.score(child, mover)), True, 0
        else:
            share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
            result = search(cast(Any, game), child, share, searcher=searcher)
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = _in_seeds(sign * result.value), result.line, result.exact, result.depth
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": bool(exact), "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _searched_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """The table of a game other than Kalah: every move searched by alpha-beta, deepened
    while time lasts (exact once the search sees only finished games)."""
    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
        value, line, exact, depth = _deepening_value(game, child, mover, evaluate, share)
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": exact, "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _deepening_value(game: Game, state, mover: int, evaluate, seconds: float) -> tuple[float, tuple, bool, int]:
    """The value of ``state`` for ``mover`` by alpha-beta deepened until ``seconds`` run out
    or the search sees only finished games (the value is then exact), its line, whether it
    is exact and the depth searched."""
    if game.is_terminal(state):
        return evaluate(game, state, mover), (), True, 0
    deadline = time.perf_counter() + seconds
    cut_off = [False]

    def scored(g, s, p):
        if not g.is_terminal(s):
            cut_off[0] = True
        return evaluate(g, s, p)

    sign = 1 if game.to_move(state) == mover else -1
    best: tuple[float, tuple, bool, int] | None = None
    for depth in range(1, 64):
        cut_off[0] = False
        try:
            result = alphabeta(
                game, state, depth, scored, stop=(lambda: time.perf_counter() >= deadline) if best else None
            )
        except SearchAborted:
            break
        best = (sign * result.value, result.line, not cut_off[0], depth)
        if not cut_off[0] or time.perf_counter() >= deadline:
            break
    assert best is not None  # depth 1 always completes
    return best


#: how each game's move values are found, by name (others: alpha-beta, move by move)
VALUE_TABLES: dict[str, Callable[[Any, Any, float], tuple[list[dict], list[str]]]] = {
    "kalah": _kalah_values,
    "bao": _bao_values,
    "oware": _oware_values,
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
