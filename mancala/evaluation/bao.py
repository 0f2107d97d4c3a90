"""Evaluation of Bao positions for the game-tree search (``evaluate(game, state, player)``).

A finished game scores ``±WIN`` (a quicker win scores a little more).  Otherwise the
score is a weighted sum of features, each "mine minus the opponent's":

* material: seeds in the front row, in the back row, and still in stock (stock seeds
  will enter the front row, so they count as front-row seeds still to come);
* threats: the largest opponent hole the side to move can capture at once (he moves
  first and captures are compulsory, so that capture will very likely happen), and,
  weighted less, the same for the side not to move;
* nyumba: a functional house (owned, 6 or more) during namua;
* mobility: holes with 2 or more seeds (the holes that can start a move in mtaji);
* stage: in namua, material in the front row can count more (``namua_front``; 0 by
  default: the matches found no gain).

The weights were chosen by head-to-head matches (``benchmarks/bao_match.py``, figures
in ``docs/bao.md``, section "AI"): the default beat material only 69% to 31% and the
first hand-set weights (``FIRST``) 64% to 36% over 300 games each at depth 3.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the value of a won game (minus the plies played, to prefer quick wins)
WIN = 10_000.0


@dataclass(frozen=True)
class BaoWeights:
    """The weights of :func:`make_evaluation`'s features (see the module doc)."""

    front: float = 1.0
    back: float = 1.0
    stock: float = 0.8
    #: namua: extra weight of front-row seeds
    namua_front: float = 0.0
    #: the largest capture open to the side to move
    threat_to_move: float = 1.6
    #: the largest capture open to the side not to move
    threat_waiting: float = 0.6
    #: a functional nyumba during namua
    house: float = 3.0
    #: holes with 2 or more seeds
    mobility: float = 0.3


def _targets(me, op, namua: bool) -> int:
    """The largest number of seeds ``me`` can capture with the first capture of a move."""
    best = 0
    if namua:
        for i in range(8):
            if me[i] and op[7 - i] > best:
                best = op[7 - i]
        return best
    for i in range(16):
        n = me[i]
        if 2 <= n <= 15:
            for d in (-1, 1):
                j = (i + d * n) & 15
                if j < 8 and me[j] and op[7 - j] > best:
                    best = op[7 - j]
    return best


def make_evaluation(weights: BaoWeights = BaoWeights()):
    """An evaluation function with the given weights."""
    w = weights

    def evaluate(game, state, player: int) -> float:
        if game.is_terminal(state):
            winner = game.winner(state)
            if winner is None:
                return 0.0
            value = WIN - state.ply
            return value if winner == player else -value
        opp = 1 - player
        me, op = state.holes[player], state.holes[opp]
        my_front, op_front = sum(me[:8]), sum(op[:8])
        score = (
            w.front * (my_front - op_front)
            + w.back * ((sum(me) - my_front) - (sum(op) - op_front))
            + w.stock * (state.stock[player] - state.stock[opp])
        )
        if state.stock[player] or state.stock[opp]:
            score += w.namua_front * (my_front - op_front)
            if w.house:
                score += w.house * (state.functional(player) - state.functional(opp))
        if w.threat_to_move or w.threat_waiting:
            mine = _targets(me, op, state.stock[player] > 0)
            theirs = _targets(op, me, state.stock[opp] > 0)
            if state.player == player:
                score += w.threat_to_move * mine - w.threat_waiting * theirs
            else:
                score += w.threat_waiting * mine - w.threat_to_move * theirs
        if w.mobility:
            score += w.mobility * (sum(1 for x in me if x >= 2) - sum(1 for x in op if x >= 2))
        return score

    return evaluate


#: the first hand-set weights, before the matches
FIRST = BaoWeights(back=0.6, namua_front=0.5, threat_to_move=0.8, threat_waiting=0.3)

#: material only (front, back, stock): the baseline of the matches
MATERIAL = BaoWeights(back=0.6, namua_front=0.0, threat_to_move=0.0, threat_waiting=0.0, house=0.0, mobility=0.0)

#: the default evaluation
evaluate = make_evaluation()
material = make_evaluation(MATERIAL)
