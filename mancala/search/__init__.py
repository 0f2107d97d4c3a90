"""Game-agnostic search: random, greedy, minimax and alpha-beta, iterative deepening, with
tracers that see every node, update and prune.  Evaluations (what a position is worth in
each game) are :mod:`mancala.evaluation`'s."""

from mancala.search.core import (
    INF,
    Node,
    SearchResult,
    Tracer,
    alphabeta,
    greedy,
    minimax,
    natural_order,
    random_move,
    turn_moves,
)

__all__ = [
    "INF",
    "Node",
    "SearchResult",
    "Tracer",
    "alphabeta",
    "greedy",
    "minimax",
    "natural_order",
    "random_move",
    "turn_moves",
]
