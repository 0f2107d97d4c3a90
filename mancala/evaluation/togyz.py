"""Evaluation of Togyz Kumalak positions for the game-tree search (``evaluate(game, state, player)``).

A finished game scores its final margin (:meth:`mancala.games.togyz.TogyzKumalak.score`: the
kazans, plus each side's own row once the game is over) plus ``WIN`` for a win (minus for a
loss), so every win ranks above every estimate and, among wins, a bigger margin ranks higher.
A kazan holding more than half of the stones has decided the game (kazans never lose stones):
it scores as a win already, ``WIN`` beyond the kazans' difference.  Otherwise the score is
the kazans' difference plus weighted terms, each "mine minus the opponent's":

* ``row``: stones on one's own row (what a player can still sow, and takes when the other
  runs out of moves);
* ``moves``: non-empty houses of one's own row (mobility: a player with few houses to sow
  runs out of moves and gives the rest away);
* ``tuzdik``: a tuzdik owned, times the share of the stones still on the board (a tuzdik
  collects a stone of every sowing that passes it: worth a lot early, nothing at the end).

The numba engine (:func:`mancala.engine.togyz.kernels.heuristic`) computes the same sums in
the same order, bit for bit, so the engine and the Python searches (greedy, minimax,
alpha-beta, the search while the engine compiles) agree on every value.  The default weights
were chosen by engine matches (see :data:`DEFAULT`).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Any

#: what a finished (or decided) game is worth beyond its margin (the engine's ``WIN``)
WIN = 1000.0


@dataclass(frozen=True)
class TogyzWeights:
    """The weights of the estimate (the kazans' difference weighs 1), each term "mine minus
    the opponent's"."""

    #: a stone on one's own row
    row: float = 0.0
    #: a non-empty house of one's own row
    moves: float = 0.0
    #: a tuzdik owned, with every stone still on the board (its worth falls as the board empties)
    tuzdik: float = 0.0

    def as_tuple(self) -> tuple[float, float, float]:
        """The weights in field order (the engine kernels' ``W_*`` slots)."""
        return astuple(self)


#: the default weights, chosen by engine matches between weight sets at a fixed depth (6
#: and 7), 30-40 random four-ply openings each played from both seats: (0.05, 0.5, 12) beat
#: the kazans alone 75-0-5 at depth 6; these beat (0.05, 0.5, 12) 45-0-15 at depth 7; their
#: neighbours (row 0.1 or 0.3, moves 1.5 or 2) scored within the noise against them
DEFAULT = TogyzWeights(row=0.2, moves=1.0, tuzdik=20.0)
#: no term: the kazans' difference alone (finished and decided games as above)
SCORE = TogyzWeights()


def final_value(margin: float) -> float:
    """A finished game's value for a side whose final margin is ``margin``."""
    if margin > 0:
        return WIN + margin
    if margin < 0:
        return margin - WIN
    return 0.0


def make_evaluation(weights: TogyzWeights = DEFAULT):
    """An evaluation function (``evaluate(game, state, player)``) with the given weights."""
    w = weights

    def evaluate(game: Any, state: Any, player: int) -> float:
        margin = game.score(state, player)
        if state.finished:
            return final_value(margin)
        total = game.rules.total
        if 2 * state.kazans[player] > total:
            return WIN + margin
        if 2 * state.kazans[1 - player] > total:
            return margin - WIN
        mine, theirs = state.row(player), state.row(1 - player)
        on_mine, on_theirs = sum(mine), sum(theirs)
        score = float(margin)
        score += w.row * (on_mine - on_theirs)
        score += w.moves * (sum(1 for x in mine if x) - sum(1 for x in theirs if x))
        tuz = (state.tuzdiks[player] != -1) - (state.tuzdiks[1 - player] != -1)
        if tuz:
            score += w.tuzdik * tuz * (on_mine + on_theirs) / total
        return score

    return evaluate


#: the default evaluation, ``togyz`` in :data:`mancala.evaluation.EVALUATIONS`
evaluate = make_evaluation(DEFAULT)
