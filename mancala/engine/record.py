"""The Kalah engine's record in the engine-support catalogue (:mod:`mancala.engine.support`):
the opening book, then the numba engine; its leaf evaluation takes evaluation terms; its
levels' measured ladder.  Nothing here loads numba until a search runs."""

from __future__ import annotations

from typing import Any

from mancala.engine.support import EngineSupport, register_engine
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


KALAH = register_engine(EngineSupport("kalah", best, takes_terms=True, warm_up=warm_up, level_budgets=LEVEL_BUDGETS))
