"""Game-agnostic search: random, greedy, minimax and alpha-beta, with tracers."""

from mancala.search.core import (INF, Node, SearchResult, Tracer, alphabeta, greedy, minimax,
                                 natural_order, random_move, turn_moves)
from mancala.search.evaluation import EVALUATIONS, kalah_material, score_difference, win_loss_percent

__all__ = ["INF", "Node", "SearchResult", "Tracer", "alphabeta", "greedy", "minimax", "natural_order",
           "random_move", "turn_moves", "EVALUATIONS", "kalah_material", "score_difference",
           "win_loss_percent"]
