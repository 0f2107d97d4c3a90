"""The Oware engine's record in the engine-support catalogue (:mod:`mancala.engine.support`):
its numba search, the endgame databases in the cache (exact answers, builds, proofs above
them), its value scale and its levels' measured ladder.  Nothing here loads numba until a
search runs."""

from __future__ import annotations

import os
from dataclasses import replace
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
from mancala.errors import BadInput, whole_number
from mancala.evaluation.oware import WIN
from mancala.search.core import SearchResult

#: the difficulty levels on Oware, on its engine (docs/oware.md, "The engine and the levels":
#: a round robin, 12 games a pairing; Elo on one scale, then the score against the level below):
#:
#:    beginner   random                     -1257
#:    easy       greedy                      -735   96%
#:    medium     engine, depth 3             +126  100%
#:    hard       engine, depth 5             +383   83%
#:    expert     engine, depth 9             +612   92%
#:    strongest  engine, 150,000 nodes       +871   92%
#:
#: Every level beats the one below by 83% or more head to head (intervals are wide at 12
#: games a pairing); depth 8 for expert scored only 71% against hard.
LEVEL_BUDGETS = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "best:depth=3",
    "hard": "best:depth=5",
    "expert": "best:depth=9",
    "strongest": "best:nodes=150000",
}


def supports(game: Any) -> bool:
    """Whether the Oware engine plays ``game``'s rules (not ``skip_twelve`` nor ``max_plies``)."""
    from mancala.engine.oware.search import supports as plays  # noqa: PLC0415 (numba loads only when needed)

    return plays(game.rules)


#: the most threads ``$MANCALA_OWARE_THREADS`` may ask of a timed Oware search
MAX_THREADS = 8


def search_threads() -> int:
    """Threads of a timed Oware search (lazy SMP, :func:`mancala.engine.oware.search.search`):
    ``$MANCALA_OWARE_THREADS`` (1-8), else 1, until its strength is measured (docs/oware.md)."""
    text = os.environ.get("MANCALA_OWARE_THREADS")
    threads = 1 if text is None else whole_number(text, "$MANCALA_OWARE_THREADS")
    if not 1 <= threads <= MAX_THREADS:
        raise BadInput(f"$MANCALA_OWARE_THREADS must be 1-{MAX_THREADS}, got {threads}")
    return threads


def best(
    game: Any, state, seconds: float, max_depth: int | None, max_nodes: int | None, evaluation: str | None, book: bool
) -> SearchResult:
    """Oware: its numba engine (iterative deepening; the ``oware`` evaluation's weights,
    :data:`~mancala.evaluation.oware.DEFAULT`, under a depth budget, else the fitted
    :func:`~mancala.evaluation.oware.play_weights` and late move reductions).  Without a
    depth budget (``best``, ``best:time=``, ``best:nodes=``) and unless ``book=off``, a
    position with at most N seeds on the board is answered from the endgame database in the
    cache (``mancala db build``; :mod:`mancala.engine.oware.exact`) where its values are the
    game's (``oware-endgame(exact)``: a repetition splits the board), and the search values
    every position it reaches within the table by the table (``oware-engine(table)`` once
    that settles the value); under own-row repetition the search takes the table's value
    only at its depth limit (:func:`mancala.engine.oware.exact.table_mode`)."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.oware.search import MAX_DEPTH, play_settings, search  # noqa: PLC0415 (numba: when needed)
    from mancala.evaluation.oware import DEFAULT  # noqa: PLC0415

    use_table = book and max_depth is None
    threads = search_threads()
    # the levels' depths keep their measured weights and search without reductions
    settings = play_settings(game.rules.houses) if max_depth is None else {"weights": DEFAULT}
    result = search(
        game,
        state,
        seconds,
        max_depth=min(max_depth or MAX_DEPTH, MAX_DEPTH),
        max_nodes=max_nodes,
        probe=exact.probe_move if use_table else None,
        table=exact.table_for(game.rules) if use_table else None,
        keep=max_depth is None and max_nodes is None,  # a time budget: the last moves' table helps
        threads=threads,
        **settings,
    )
    if result.algorithm == "oware-endgame(exact)" and not exact.exact_rules(game.rules):
        result = replace(result, algorithm="oware-endgame(table)")
    return result


def timed(game: Any, state, seconds: float, max_depth: int) -> SearchResult:
    """Oware's timed alpha-beta with its own evaluation, on its engine."""
    from mancala.engine.oware.search import MAX_DEPTH, search  # noqa: PLC0415 (numba loads only when needed)

    return search(game, state, seconds, max_depth=min(max_depth, MAX_DEPTH))


def exact_answer(game: Any, state) -> ExactAnswer | None:
    """Oware: the endgame table in the cache (:mod:`mancala.engine.oware.exact`)."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)

    table = exact.table_for(game.rules)
    values = exact.move_values(game, state, table) if table is not None else None
    if values is None:
        return None
    line = exact.perfect_line(game, state, table)
    if line:  # of the moves of equal value, the one that converts soonest (the line's) first
        values.sort(key=lambda mv: (-mv[1], mv[0] != line[0]))
    return ExactAnswer(values, line, exact.exact_rules(game.rules), table.max_seeds)


def table_seeds(game: Any) -> int:
    """The seeds of the largest Oware table in the cache for ``game``'s rules (-1: none)."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)

    return exact.seeds_on_disk(game.rules)


def table_proof(game: Any, state, seconds: float, report: Callable[[int, int, int, int], None] | None):
    """Oware above its endgame table: bounds on the value by search down to the cache's table
    (:func:`mancala.engine.oware.search.prove_watched`); None when no table is in the cache."""
    from mancala.engine.oware import exact, search  # noqa: PLC0415 (numba loads only when needed)

    table = exact.table_for(game.rules)
    if table is None or not search.supports(game.rules):
        return None
    return search.prove_watched(game, state, table, seconds, report)


#: the module of the Oware endgame tables (:class:`mancala.engine.support.TableModule`)
TABLES = "mancala.engine.oware.endgame"

#: The most seeds (at most ``seeds``) of an Oware table that can be built for ``game``'s
#: rules within the memory bound (-1: none)
table_build = partial(buildable_size, TABLES)


#: An Oware engine value in seeds: a proven end as its margin, an estimate as it is
in_seeds = partial(without_win, win=WIN)


def reload_tables() -> None:
    """Drop this process's loaded tables: the next search reads the cache again (a background
    build finished more tiers: :func:`mancala.engine.table_builds.refresh`)."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)

    exact.forget_tables()


def warm_up() -> None:
    """Compile (or load from numba's cache) the Oware kernels."""
    from mancala.engine.oware.search import warm_up as warm  # noqa: PLC0415 (numba loads only when needed)

    warm()


def searching(game: Any) -> tuple[Callable[..., SearchResult], Any]:
    """The Oware engine's search and a fresh searcher for ``game``: what a table searches
    its moves with, sharing the searcher's transposition table."""
    from mancala.engine.oware.search import OwareSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    return search, OwareSearcher(game)


#: Oware's table, in seeds: from the endgame table in the cache when it holds the position
#: (every move's final margin with perfect play), else every move searched by the engine with
#: its share of ``nodes`` (:func:`mancala.engine.support.table_first_values`)
values = partial(table_first_values, exact=exact_answer, engine=searching, scale=in_seeds)


OWARE = register_engine(
    EngineSupport(
        "oware",
        best,
        timed=timed,
        supports=supports,
        exact=exact_answer,
        table_seeds=table_seeds,
        table_build=table_build,
        tables=TABLES,
        table_proof=table_proof,
        value_scale=in_seeds,
        warm_up=warm_up,
        level_budgets=LEVEL_BUDGETS,
        opening_book=tree_book,
        values=values,
        nodes_per_second=500_000,
        # the table a newcomer's strongest level gets without building anything: 86 M positions, 86 MB on disk, a build bound of 0.34 GiB
        # (docs/oware-endgame.md, "Built in the background")
        background_size=18,
        reload_tables=reload_tables,
        python_depth=8,  # Python alpha-beta from the start: depth 8 in 0.4 s, 9 in 1.9 s
    )
)
