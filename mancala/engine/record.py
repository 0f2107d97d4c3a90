"""The Kalah engine's record in the engine-support catalogue (:mod:`mancala.engine.support`):
the opening book, then the numba engine; its leaf evaluation takes evaluation terms; its
levels' measured ladder.  Nothing here loads numba until a search runs."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from mancala.engine.support import BookAnswer, EngineSupport, buildable_size, register_engine, value_row
from mancala.games.kalah import Kalah
from mancala.search.core import SearchResult

#: the evaluation the Python levels use on Kalah (docs/evaluation.md)
LEVEL_EVAL = "store:1,seeds:0.25,extra:0.5,threat:0.5"

#: the difficulty levels on Kalah(6,4), measured with ``mancala arena`` (docs/evaluation.md,
#: "Difficulty levels": Elo on one joint scale, and the score against OpenSpiel's MCTS at
#: 100 / 1000 / 5000 simulations):
#:
#:    beginner   random                     -832   0% /  0% /  0%
#:    easy       greedy                     -418  25% /  0% / 25%
#:    medium     alpha-beta depth 2, E      -205  70% / 40% / 10%
#:    hard       alpha-beta depth 4, E       +18  90% / 75% / 55%
#:    expert     engine, depth 5            +207 100% / 75% / 85%
#:    strongest  engine, 6,000,000 nodes, E +482   (100% vs 5000)
#:
#: Every step is more than 180 Elo and neighbours' 95% intervals do not overlap.
LEVEL_BUDGETS = {
    "beginner": "random",
    "easy": "greedy",
    "medium": f"alphabeta:depth=2,eval={LEVEL_EVAL}",
    "hard": f"alphabeta:depth=4,eval={LEVEL_EVAL}",
    "expert": "best:depth=5",
    "strongest": f"best:nodes=6000000,eval={LEVEL_EVAL}",
}


def best(
    game: Any, state, seconds: float, max_depth: int | None, max_nodes: int | None, evaluation: str | None, book: bool
) -> SearchResult:
    """Kalah: the opening book of its rules first, then the numba engine (exact once proved)."""
    if book and not game.is_terminal(state):
        from mancala.engine.book import book_line, probe  # noqa: PLC0415 (numba loads only when needed)

        hit = probe(game, state)
        if hit is not None:
            return SearchResult(hit[0], hit[1], book_line(game, state), 0, 0, "book(exact)")
    from mancala.engine.engine import best_move  # noqa: PLC0415 (numba loads only when needed)

    return best_move(game, state, seconds, max_depth=max_depth, max_nodes=max_nodes, evaluation=evaluation)


def warm_up() -> None:
    """Make the engine ready for standard Kalah: its kernels (compiled, or loaded from
    numba's cache), its table and its endgame database."""
    from mancala.engine.engine import prepare  # noqa: PLC0415 (numba loads only when needed)

    prepare(Kalah())


def values(game: Any, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Kalah's table: the opening book's exact values where it has them (the position itself,
    the positions one move on, and finished games), the engine's analysis of the other moves
    with ``nodes`` nodes (its table emptied first), their estimates capped by the book's value
    of the position and carrying the bounds the engine proved."""
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
        from mancala.engine.solver import analyse  # noqa: PLC0415 (numba loads only when needed)

        table = analyse(game, state, float("inf"), max_nodes=nodes, fresh=True)
        engine_line = [str(m) for m in table.line]
        for mv in table:
            if str(mv.move) in known:
                continue
            value = float(mv.value)
            if root is not None:  # no move is better than the position's proved value
                value = min(value, float(root[1]))
            rows.append(value_row(mv.move, value, bool(mv.exact), mv.depth, mv.lower, mv.upper))
    rows += [value_row(m, v, True, 0) for m, (v, _) in known.items()]
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


def opening_book(game: Any, state) -> BookAnswer | None:
    """The shipped opening book of the game's rules (None: no book for them): each legal
    move's exact value for the player to move where the book holds its position, and the
    book's main line from here."""
    from mancala.engine.book import book_line, probe, shipped_book  # noqa: PLC0415 (the engine loads only when needed)

    if shipped_book(game.rules) is None:
        return None
    mover = game.to_move(state)
    found: list[tuple[str, float | None]] = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        value: float | None = None
        if game.is_terminal(child):
            value = float(game.score(child, mover))
        else:
            hit = probe(game, child)
            if hit is not None:
                value = float(hit[1] if game.to_move(child) == mover else -hit[1])
        found.append((str(move), value))
    line = [str(m) for m in book_line(game, state)] if not game.is_terminal(state) else []
    return BookAnswer(found, line)


def prepare(game: Any, notice: Callable[[], None] | None) -> float:
    """Load the engine's kernels, table and endgame database for ``game``'s rules (seconds
    spent; ``notice()`` once when that takes more than a moment)."""
    from mancala.engine.engine import prepare as ready  # noqa: PLC0415 (numba loads only when needed)

    return ready(game, notice=notice)


#: the module of Kalah's endgame databases seen as tables (:class:`mancala.engine.support.TableModule`)
TABLES = "mancala.engine.kalah_tables"

#: The seeds (at most ``seeds``) of the database a build on first use makes for ``game``'s
#: rules (-1: none): :func:`mancala.engine.kalah_tables.largest_buildable`
table_build = partial(buildable_size, TABLES)


def table_seeds(game: Any) -> int:
    """The seeds of the largest database in the cache for ``game``'s rules that the players
    would load (-1: none)."""
    from mancala.engine import kalah_tables  # noqa: PLC0415 (numba loads only when needed)

    return kalah_tables.seeds_on_disk(game.rules)


def reload_tables() -> None:
    """Let this process's next search look in the cache again for a larger database (a
    background build finished one: :func:`mancala.engine.table_builds.refresh`); its tables
    of positions are kept."""
    from mancala.engine.tables import recheck_databases  # noqa: PLC0415 (numba loads only when needed)

    recheck_databases()


def has_tables(game: Any) -> bool:
    """Whether ``game``'s rules have endgame databases (not under the choice of direction)."""
    return not game.rules.positions_can_repeat


KALAH = register_engine(
    EngineSupport(
        "kalah",
        best,
        takes_terms=True,
        warm_up=warm_up,
        level_budgets=LEVEL_BUDGETS,
        values=values,
        nodes_per_second=2_000_000,
        opening_book=opening_book,
        prepare=prepare,
        solves=True,
        python_depth=6,  # Python alpha-beta from the start: depth 6 in 0.6 s, 7 in 2.7 s
        table_seeds=table_seeds,
        table_build=table_build,
        tables=TABLES,
        background_size=20,  # endgame.SHARED_SEEDS: K = 20, about 10 s on two cores
        reload_tables=reload_tables,
        has_tables=has_tables,
    )
)
