"""The analysis layer, below every surface: move choice (an AI's move in a worker), the hint,
the analysis of a position, the review of a game, the search tree and move classes.  The
server's workers, the board, the terminal and ``mancala analyse`` all ask it, so the same
position and budget give the same answer everywhere (docs/architecture.md)."""

from mancala.analysis.moves import (
    COMPILE_SECONDS,
    LOAD_SECONDS,
    forget,
    game_of,
    ready_engine,
    think,
    think_prepared,
    warm_engine,
    warm_kernels,
    warm_up_estimate,
)
from mancala.analysis.position import analysis, analysis_of, explore, hint, hint_of, top_positions
from mancala.analysis.review import MOVE_CLASSES, move_class, review, review_of, review_positions
from mancala.analysis.tree import MAX_TREE_DEPTH, MAX_TREE_NODES, tree
from mancala.analysis.values import (
    ANALYSIS_SECONDS,
    REVIEW_SECONDS,
    Table,
    budget,
    forget_positions,
    jsonable,
    position_values,
    unit,
)

__all__ = [
    "ANALYSIS_SECONDS",
    "REVIEW_SECONDS",
    "Table",
    "analysis_of",
    "budget",
    "hint_of",
    "review_of",
    "review_positions",
    "top_positions",
    "COMPILE_SECONDS",
    "LOAD_SECONDS",
    "MAX_TREE_DEPTH",
    "MAX_TREE_NODES",
    "MOVE_CLASSES",
    "analysis",
    "explore",
    "forget",
    "forget_positions",
    "game_of",
    "hint",
    "jsonable",
    "move_class",
    "position_values",
    "ready_engine",
    "review",
    "think",
    "think_prepared",
    "tree",
    "unit",
    "warm_engine",
    "warm_kernels",
    "warm_up_estimate",
]
