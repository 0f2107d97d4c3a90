"""What a position is worth, per game: named evaluations (``score``, ``material``,
``percent``, ``bao``, ``oware``, ``togyz``) and weighted evaluation terms (:mod:`mancala.evaluation.terms`)."""

from mancala.evaluation.basic import (
    EVALUATIONS,
    default_evaluation,
    default_evaluation_name,
    kalah_material,
    score_difference,
    teaching_evaluation,
    win_loss_percent,
)

__all__ = [
    "EVALUATIONS",
    "default_evaluation_name",
    "teaching_evaluation",
    "default_evaluation",
    "kalah_material",
    "score_difference",
    "win_loss_percent",
]
