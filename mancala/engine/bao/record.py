"""The Bao engine's record in the engine-support catalogue (:mod:`mancala.engine.support`):
its numba search for ``best`` and for the timed alpha-beta of Bao's levels.  Nothing here
loads numba until a search runs."""

from __future__ import annotations

from typing import Any

from mancala.engine.support import EngineSupport, register_engine, values_by_search
from mancala.search.core import SearchResult


def best(
    game: Any, state, seconds: float, max_depth: int | None, max_nodes: int | None, evaluation: str | None, book: bool
) -> SearchResult:
    """Bao: its numba engine."""
    from mancala.engine.bao.search import MAX_DEPTH, search  # noqa: PLC0415 (numba loads only when needed)

    return search(game, state, seconds, max_depth=min(max_depth or MAX_DEPTH, MAX_DEPTH), max_nodes=max_nodes)


def timed(game: Any, state, seconds: float, max_depth: int) -> SearchResult:
    """Bao's timed alpha-beta with its own evaluation, on its engine."""
    from mancala.engine.bao.search import search  # noqa: PLC0415 (numba loads only when needed)

    return search(game, state, seconds, max_depth=max_depth)


def warm_up() -> None:
    """Compile (or load from numba's cache) the Bao kernels."""
    from mancala.engine.bao.search import warm_up as warm  # noqa: PLC0415 (numba loads only when needed)

    warm()


def values(game: Any, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Bao's table: every move searched by the Bao engine with its share of ``nodes`` (its
    values are alpha-beta's with Bao's evaluation, as Python's alpha-beta would find at the
    same depth, only deeper for the budget), sharing one transposition table."""
    from mancala.engine.bao.search import BaoSearcher, search  # noqa: PLC0415 (numba loads only when needed)
    from mancala.evaluation.bao import evaluate  # noqa: PLC0415

    return values_by_search(game, state, nodes, search, BaoSearcher(game), evaluate)


BAO = register_engine(
    EngineSupport(
        "bao",
        best,
        timed=timed,
        warm_up=warm_up,
        values=values,
        nodes_per_second=1_000_000,
        python_depth=6,  # Python alpha-beta, about 10,000 nodes a second: depth 6 in 0.1 s, 9 in 0.7 s at the start
    )
)
