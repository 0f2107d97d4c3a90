"""The Togyz Kumalak engine's record in the engine-support catalogue
(:mod:`mancala.engine.support`): its numba search for ``best``, the timed alpha-beta and the
analysis' values, the endgame tables in the cache (exact answers, builds: ``mancala db
build --game togyz``), its value scale and its levels' ladder.  Nothing here loads numba
until a search runs."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from mancala.engine.opening_tree import opening_book as tree_book
from mancala.engine.support import (
    EngineSupport,
    ExactAnswer,
    buildable_size,
    register_engine,
    table_first_values,
    without_win,
)
from mancala.evaluation.togyz import WIN
from mancala.search.core import SearchResult

#: the difficulty levels on Togyz Kumalak, on its engine (9 houses, the federation's rules),
#: measured with ``mancala arena --game togyz`` (a round robin of random, greedy and the
#: engine at depths 2, 3, 5, 7 and 9: 6 four-ply openings a pairing, each from both seats,
#: 12 games a pairing; Elo on one scale) and engine-against-engine matches of 28-40 games:
#:
#:    beginner   random                     -1388
#:    easy       greedy                      -502   (beats random 12-0)
#:    medium     engine, depth 3             +182   (beats greedy 12-0)
#:    hard       engine, depth 5             +461   (beats depth 3 10-2)
#:    expert     engine, depth 9             +755   (beats depth 5 11-1)
#:    strongest  engine, 600,000 nodes                (beats depth 9 17-1-10 over 28 games)
#:
#: A move takes (through whole games, at 1.6-1.8 million nodes a second): depth 3 and 5
#: 1-2 ms, depth 9 0.03 s on average (0.08 s at most), 400,000 nodes 0.22 s (0.36 s at
#: most), so 600,000 about a third of a second (0.55 s on average measured while other
#: sessions kept both cores busy).  Depth 7 beat depth 5 only 7-5; depth 11 beat depth 9
#: 25-15, depth 10 beat depth 9 21-3-16 and depth 8 24-1-15 (40 games each): the engine
#: still gains with depth, slowly (its estimate is simple), so the step from expert to
#: strongest is the smallest (about +90 Elo).  Intervals are wide at these numbers of games.
LEVEL_BUDGETS = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "best:depth=3",
    "hard": "best:depth=5",
    "expert": "best:depth=9",
    "strongest": "best:nodes=600000",
}


def supports(game: Any) -> bool:
    """Whether the Togyz Kumalak engine plays ``game``'s rules (not ``max_plies``)."""
    from mancala.engine.togyz.rules import supports as plays  # noqa: PLC0415 (numba loads only when needed)

    return plays(game.rules)


def best(
    game: Any, state, seconds: float, max_depth: int | None, max_nodes: int | None, evaluation: str | None, book: bool
) -> SearchResult:
    """Togyz Kumalak: its numba engine (iterative deepening, the engine's own estimate).
    A time budget searches with the process's kept transposition table (the last moves'
    searches help).  Without a depth budget and unless ``book=off``, a position with at most
    N stones on the board is answered from the endgame table in the cache (``mancala db
    build --game togyz``; :mod:`mancala.engine.togyz.exact`): ``togyz-endgame(exact)``; with
    more stones the search values every position it reaches within the table by the table."""
    from mancala.engine.togyz import exact  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.togyz.search import MAX_DEPTH, PLAY_REDUCTIONS, search  # noqa: PLC0415 (numba: when needed)

    table = exact.table_for(game.rules) if book and max_depth is None and supports(game) else None
    if table is not None and not game.is_terminal(state):
        chosen = exact.best_move(game, state, table)
        if chosen is not None:
            move, value = chosen
            line = tuple(exact.perfect_line(game, state, table, limit=16)) or (move,)
            worth = WIN + value if value > 0 else value - WIN if value < 0 else 0.0
            return SearchResult(move, float(worth), line, 0, 0, "togyz-endgame(exact)")
    result = search(
        game,
        state,
        seconds,
        max_depth=min(max_depth or MAX_DEPTH, MAX_DEPTH),
        max_nodes=max_nodes,
        table=table,
        keep=max_depth is None and max_nodes is None,
        reductions=PLAY_REDUCTIONS if max_depth is None else 0,
    )
    return result


def timed(game: Any, state, seconds: float, max_depth: int) -> SearchResult:
    """Togyz Kumalak's timed alpha-beta with the engine's estimate, on its engine."""
    from mancala.engine.togyz.search import MAX_DEPTH, search  # noqa: PLC0415 (numba loads only when needed)

    return search(game, state, seconds, max_depth=min(max_depth, MAX_DEPTH))


def exact_answer(game: Any, state) -> ExactAnswer | None:
    """Togyz Kumalak: the endgame table in the cache (:mod:`mancala.engine.togyz.exact`); its
    margins are exact unless the majority stop may still cut the game short (then the
    result is)."""
    from mancala.engine.togyz import exact  # noqa: PLC0415 (numba loads only when needed)

    table = exact.table_for(game.rules)
    values = exact.move_values(game, state, table) if table is not None else None
    if table is None or values is None:
        return None
    line = exact.perfect_line(game, state, table)
    if line:  # of the moves of equal value, the line's first
        values.sort(key=lambda mv: (-mv[1], mv[0] != line[0]))
    here = exact.exact_here(game.rules, state)
    return ExactAnswer(values, line, here, table.max_stones, "" if here else exact.MAJORITY_NOTE)


def table_seeds(game: Any) -> int:
    """The stones of the largest Togyz Kumalak table in the cache for ``game``'s rules (-1: none)."""
    from mancala.engine.togyz import exact  # noqa: PLC0415 (numba loads only when needed)

    return exact.stones_on_disk(game.rules)


#: the module of the Togyz Kumalak endgame tables (:class:`mancala.engine.support.TableModule`)
TABLES = "mancala.engine.togyz.endgame"

#: The most stones (at most ``seeds``) of a Togyz Kumalak table that can be built for ``game``'s
#: rules within the memory bound (-1: none)
table_build = partial(buildable_size, TABLES)


#: A Togyz Kumalak engine value in stones: a proven end as its margin, an estimate as it is
in_stones = partial(without_win, win=WIN)


def reload_tables() -> None:
    """Drop this process's loaded tables: the next search reads the cache again (a background
    build finished more tiers: :func:`mancala.engine.table_builds.refresh`)."""
    from mancala.engine.togyz import exact  # noqa: PLC0415 (numba loads only when needed)

    exact.forget_tables()


def warm_up() -> None:
    """Compile (or load from numba's cache) the Togyz Kumalak kernels."""
    from mancala.engine.togyz.search import warm_up as warm  # noqa: PLC0415 (numba loads only when needed)

    warm()


def searching(game: Any) -> tuple[Callable[..., SearchResult], Any]:
    """The Togyz Kumalak engine's search and a fresh searcher for ``game``: what a table searches
    its moves with, sharing the searcher's transposition table."""
    from mancala.engine.togyz.search import TogyzSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    return search, TogyzSearcher(game)


#: Togyz Kumalak's table, in stones: from the endgame table in the cache when it holds the position
#: (every move's final margin with perfect play), else every move searched by the engine with
#: its share of ``nodes`` (:func:`mancala.engine.support.table_first_values`)
values = partial(table_first_values, exact=exact_answer, engine=searching, scale=in_stones)


TOGYZ = register_engine(
    EngineSupport(
        "togyz",
        best,
        timed=timed,
        supports=supports,
        exact=exact_answer,
        table_seeds=table_seeds,
        table_build=table_build,
        tables=TABLES,
        value_scale=in_stones,
        warm_up=warm_up,
        level_budgets=LEVEL_BUDGETS,
        opening_book=tree_book,
        values=values,
        nodes_per_second=1_500_000,  # 1.6-1.8 million measured alone, about 1 million beside other work
        # the table a newcomer's strongest level gets without building anything: 60 M positions, 60 MB on disk, a build bound of 0.34 GiB
        # (docs/togyz.md, "Built in the background")
        background_size=8,
        reload_tables=reload_tables,
    )
)
