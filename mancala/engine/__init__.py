"""A fast Kalah engine: numba kernels, MTD(f) search, an exact solver, endgame databases.

Public entry points (see ``docs/engine.md``):

* :func:`best_move` — iterative deepening within a time budget;
* :func:`solve` — the exact value, a best move and a perfect line;
* :func:`analyse` — a value for every legal move, and the best line.
"""

from mancala.engine.engine import best_move
from mancala.engine.solver import Analysis, MoveValue, SolveResult, analyse, solve

__all__ = ["best_move", "solve", "analyse", "SolveResult", "Analysis", "MoveValue"]
