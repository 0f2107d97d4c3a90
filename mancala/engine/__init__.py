"""A fast Kalah engine: numba kernels, MTD(f) search, an exact solver, endgame databases.

Public entry points (see ``docs/engine.md``):

* :func:`prepare` / :func:`is_prepared` — load the kernels and this rule set's tables
  before a clock starts (searches call it themselves; a UI calls it to say so);
* :func:`best_move` — iterative deepening within a time budget;
* :func:`solve` — the exact value, a best move and a perfect line;
* :func:`analyse` — a value for every legal move, and the best line;
* :func:`set_memory_limit` / :func:`memory_in_use` — the engine's memory bound.
"""

from mancala.engine.engine import best_move, is_prepared, memory_in_use, memory_limit, prepare, set_memory_limit
from mancala.engine.solver import Analysis, MoveValue, SolveResult, analyse, solve

__all__ = [
    "best_move",
    "prepare",
    "is_prepared",
    "solve",
    "analyse",
    "SolveResult",
    "Analysis",
    "MoveValue",
    "set_memory_limit",
    "memory_limit",
    "memory_in_use",
]
