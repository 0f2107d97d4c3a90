"""Evaluation functions, passed to the search (``evaluate(game, state, player)``).

Each says how good ``state`` is for ``player``; the search never looks inside.
"""

from __future__ import annotations

from mancala.evaluation.bao import evaluate as bao_evaluate
from mancala.evaluation.oware import evaluate as oware_evaluate
from mancala.evaluation.togyz import evaluate as togyz_evaluate
from mancala.games.base import Game
from mancala.games.catalogue import traits_of
from mancala.games.kalah import Kalah


def score_difference(game: Game, state, player: int) -> float:
    """The game's own margin for ``player`` (Kalah: own store minus the opponent's,
    exactly the homework's E(p); tic-tac-toe: +1 win, -1 loss, 0 otherwise)."""
    return game.score(state, player)


def win_loss_percent(game: Game, state, player: int) -> float:
    """100 for a won game, 0 for a lost one, 50 otherwise: the scores of the CS151 assignment's
    tic-tac-toe example (so its explanation reads "alpha is 50, score is 0")."""
    if game.is_terminal(state):
        margin = game.score(state, player)
        if margin > 0:
            return 100
        if margin < 0:
            return 0
    return 50


def kalah_material(game: Kalah, state, player: int) -> float:
    """Store difference, plus a quarter of the difference in seeds still in each row.

    Seeds on your own side tend to end in your store (and under the usual end rule
    they do), so they count for something, but less than banked seeds.  A finished
    game scores its exact margin.
    """
    margin = game.score(state, player)
    if game.is_terminal(state):
        return margin
    seat = state.player_seat(player)
    return margin + 0.25 * (sum(state.row(seat)) - sum(state.row(1 - seat)))


#: evaluation functions by the name the player specs use
EVALUATIONS = {
    "score": score_difference,
    "material": kalah_material,
    "percent": win_loss_percent,
    "bao": bao_evaluate,
    "oware": oware_evaluate,
    "togyz": togyz_evaluate,
}


def default_evaluation_name(game: Game) -> str:
    """The name of the evaluation players use on ``game`` when none is named: the one its
    traits declare (Kalah's ``material``, stores plus a quarter of the seeds on each side,
    which beat the plain store difference in matches, see docs/ai.md; Bao's and Oware's
    own, Togyz Kumalak's), else ``score``, its margin."""
    return traits_of(game).evaluation or "score"


def default_evaluation(game: Game):
    """The evaluation players use on ``game`` when none is named."""
    return EVALUATIONS[default_evaluation_name(game)]


def teaching_evaluation(game: Game):
    """The evaluation of the teaching views (``mancala explain``, the search tree): the one
    the game's traits name for lessons (tic-tac-toe's percent, Kalah's plain score), else its
    default evaluation."""
    name = traits_of(game).teaching_evaluation
    return EVALUATIONS[name] if name else default_evaluation(game)
