"""The Togyz Kumalak engine's record in the engine-support catalogue
(:mod:`mancala.engine.support`): its numba search for ``best``, the timed alpha-beta and the
analysis' values, its value scale and its levels' ladder.  Nothing here loads numba until a
search runs."""

from __future__ import annotations

from typing import Any

from mancala.engine.support import EngineSupport, register_engine, values_by_search
from mancala.search.core import SearchResult

#: the difficulty levels on Togyz Kumalak, on its engine (to be measured by the arena: see
#: the calibration below)
LEVEL_BUDGETS = {
    "beginner": "random",
    "easy": "greedy",
    "medium": "best:depth=3",
    "hard": "best:depth=5",
    "expert": "best:depth=8",
    "strongest": "best:nodes=300000",
}

#: the win's offset on the engine's scale (:data:`mancala.engine.togyz.kernels.WIN`; kept here
#: so that the record loads no numba)
WIN = 1000.0


def supports(game: Any) -> bool:
    """Whether the Togyz Kumalak engine plays ``game``'s rules (not ``max_plies``)."""
    from mancala.engine.togyz.rules import supports as plays  # noqa: PLC0415 (numba loads only when needed)

    return plays(game.rules)


def best(
    game: Any, state, seconds: float, max_depth: int | None, max_nodes: int | None, evaluation: str | None, book: bool
) -> SearchResult:
    """Togyz Kumalak: its numba engine (iterative deepening, the engine's own estimate).
    A time budget searches with the process's kept transposition table (the last moves'
    searches help)."""
    from mancala.engine.togyz.search import MAX_DEPTH, search  # noqa: PLC0415 (numba loads only when needed)

    return search(
        game,
        state,
        seconds,
        max_depth=min(max_depth or MAX_DEPTH, MAX_DEPTH),
        max_nodes=max_nodes,
        keep=max_depth is None and max_nodes is None,
    )


def timed(game: Any, state, seconds: float, max_depth: int) -> SearchResult:
    """Togyz Kumalak's timed alpha-beta with the engine's estimate, on its engine."""
    from mancala.engine.togyz.search import MAX_DEPTH, search  # noqa: PLC0415 (numba loads only when needed)

    return search(game, state, seconds, max_depth=min(max_depth, MAX_DEPTH))


def in_stones(value: float) -> float:
    """A Togyz Kumalak engine value in stones: a win (worth ``WIN`` beyond its margin) as its
    margin, an estimate as it is (the kazans' difference plus its terms)."""
    if value >= WIN / 2:
        return value - WIN
    if value <= -WIN / 2:
        return value + WIN
    return value


def warm_up() -> None:
    """Compile (or load from numba's cache) the Togyz Kumalak kernels."""
    from mancala.engine.togyz.search import warm_up as warm  # noqa: PLC0415 (numba loads only when needed)

    warm()


def margin(game: Any, state, player: int) -> float:
    """A finished game's value for ``player``: its final margin in stones."""
    return float(game.score(state, player))


def values(game: Any, state, nodes: int) -> tuple[list[dict], list[str]]:
    """Togyz Kumalak's table, in stones: every move searched by the engine with its share of
    ``nodes``, sharing one transposition table, fresh for the table."""
    from mancala.engine.togyz.search import TogyzSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    return values_by_search(game, state, nodes, search, TogyzSearcher(game), margin, in_stones)


TOGYZ = register_engine(
    EngineSupport(
        "togyz",
        best,
        timed=timed,
        supports=supports,
        value_scale=in_stones,
        warm_up=warm_up,
        level_budgets=LEVEL_BUDGETS,
        values=values,
        nodes_per_second=1_500_000,
    )
)
