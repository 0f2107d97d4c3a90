"""What a position is worth, per game: named evaluations (``score``, ``material``,
``percent``, ``bao``, ``oware``) and weighted evaluation terms (:mod:`mancala.evaluation.terms`)."""

from mancala.evaluation.basic import (
    EVALUATIONS,
    GAME_EVALUATIONS,
    default_evaluation,
    kalah_material,
    score_difference,
    win_loss_percent,
)

__all__ = [
    "EVALUATIONS",
    "GAME_EVALUATIONS",
    "default_evaluation",
    "kalah_material",
    "score_difference",
    "win_loss_percent",
]
