"""Evaluation of Oware positions for the game-tree search (``evaluate(game, state, player)``).

A finished game scores its true final margin (:meth:`mancala.games.oware.Oware.score`:
stores plus own rows at the end) plus ``WIN`` for a win (minus for a loss), so every win
ranks above every estimate and, among wins, a bigger margin ranks higher.  Otherwise the
score is the store margin plus weighted terms, each "mine minus the opponent's":

* ``row``: seeds in one's own row (they are one's own at most ends: no move, repetition);
* ``targets``: houses of the opponent holding 1 or 2 seeds (a sowing that ends there makes
  2 or 3: what a capture chain is made of; negative in :data:`DEFAULT`, positive in
  :data:`PLAY`);
* ``kroo``: houses holding 12 seeds or more (a lap that comes back into the opponent's row
  and can capture there);
* ``empty``: the opponent's empty houses (fewer moves, and what a sowing fills to 1 or 2);
* ``threat``: the most seeds the player to move can capture with one sowing (counted for
  the mover only);
* ``waiting``: the most seeds the side *not* to move could capture with one sowing were it
  its turn, counted against the mover (a threat the mover must parry, or lose seeds to).

The numba engine (:func:`mancala.engine.oware.kernels.heuristic`) computes the same sums in
the same order, bit for bit, so the engine and Python alpha-beta agree on every value.  The
default weights were chosen by engine matches (``docs/oware.md``, "The engine and the levels");
they are the ``oware`` evaluation and the fixed-depth levels' (whose ladder was measured with
them).  :data:`PLAY`, the weights of ``best`` without a depth budget (``strongest``,
``best:time=``, ``best:nodes=``), were fitted by least squares to what a deeper search says
positions of self-play games are worth (``benchmarks/fit_oware_eval.py``; ``docs/oware.md``,
"A learnt evaluation").
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Any

#: what a finished game is worth beyond its margin (the engine's ``WIN``)
WIN = 1000.0


@dataclass(frozen=True)
class OwareWeights:
    """The weights of :func:`make_evaluation`'s terms (the store margin weighs 1)."""

    #: seeds in one's own row
    row: float = 0.0
    #: opponent's houses holding 1 or 2 seeds
    targets: float = 0.0
    #: own houses holding 12 seeds or more
    kroo: float = 0.0
    #: opponent's empty houses
    empty: float = 0.0
    #: the most seeds the player to move can capture with one sowing (for the mover only)
    threat: float = 0.0
    #: the most seeds the side not to move could capture with one sowing (against the mover)
    waiting: float = 0.0

    def as_tuple(self) -> tuple[float, ...]:
        """The weights in field order (the engine's ``W_*`` slots)."""
        return astuple(self)


def final_value(margin: int) -> float:
    """A finished game's value for a side whose final margin is ``margin``."""
    if margin > 0:
        return WIN + margin
    if margin < 0:
        return margin - WIN
    return 0.0


def threat(rules: Any, houses: tuple[int, ...], seat: int) -> int:
    """The most seeds one sowing of ``seat`` (to move) captures, counted as the engine's
    :func:`mancala.engine.oware.kernels.threat` counts it: every non-empty house, must-feed
    aside, a capture of the whole opposing row only under ``capture-all`` grand slams."""
    n = len(houses) // 2
    p2 = 2 * n
    lo = (1 - seat) * n
    cycle = p2 - 1 if rules.skip_origin else p2
    counts = set(rules.capture_counts)
    most = 0
    for h in range(seat * n, seat * n + n):
        c = houses[h]
        if c == 0:
            continue
        laps, rest = divmod(c, cycle)
        landing = (h + 1 + (c - 1) % cycle) % p2
        if not lo <= landing < lo + n:
            continue
        after = [houses[j] + laps + (1 if (j - h - 1) % p2 < rest else 0) for j in range(lo, lo + n)]
        taken = 0
        i = landing
        while lo <= i < lo + n and after[i - lo] in counts:
            taken += after[i - lo]
            i -= 1
            if not rules.multiple_capture:
                break
        if taken == sum(after) and rules.grand_slam.value != "capture-all":
            taken = 0
        most = max(most, taken)
    return most


def make_evaluation(weights: OwareWeights = OwareWeights()):
    """An evaluation function (``evaluate(game, state, player)``) with the given weights."""
    w = weights

    def evaluate(game: Any, state: Any, player: int) -> float:
        if state.finished:
            return final_value(game.score(state, player))
        n = len(state.houses) // 2
        q = 1 - player
        mine, theirs = state.houses[player * n : player * n + n], state.houses[q * n : q * n + n]
        score = float(state.stores[player] - state.stores[q])
        if w.row != 0.0:
            score += w.row * (sum(mine) - sum(theirs))
        if w.targets != 0.0 or w.kroo != 0.0 or w.empty != 0.0:
            mine_t = sum(1 for b in theirs if 1 <= b <= 2)
            theirs_t = sum(1 for a in mine if 1 <= a <= 2)
            score += w.targets * (mine_t - theirs_t)
            score += w.kroo * (sum(1 for a in mine if a >= 12) - sum(1 for b in theirs if b >= 12))
            score += w.empty * (sum(1 for b in theirs if b == 0) - sum(1 for a in mine if a == 0))
        if w.threat != 0.0:
            most = threat(game.rules, state.houses, state.seat)
            score += w.threat * (most if player == state.seat else -most)
        if w.waiting != 0.0:
            most = threat(game.rules, state.houses, 1 - state.seat)
            score -= w.waiting * (most if player == state.seat else -most)
        return score

    return evaluate


#: the default weights, chosen by engine matches at depth 6 (50 openings, each from both
#: seats; docs/oware.md, benchmarks/oware_match.py): ``row`` 0.25 beat the store margin alone 78.5%; with ``targets`` at
#: -0.5 it beat ``row`` alone 87.5%; ``kroo`` 1, ``targets`` -1 or ``row`` 0.1 or 0.5 did
#: no better (46.5-50.5%, or worse).  That ``targets`` counts *against* its side is what the
#: matches say, not what we expected: a house of 1 or 2 seeds of one's own is also a spare
#: move (a tempo) in a tight position.  ``threat`` 0.5 (the mover's best capture) then beat
#: them 60.5% at depth 8 and 58.5% at depth 10 (100 games each; 0.25: 52.5%) at no cost in
#: nodes per second (2026-11-26).
DEFAULT = OwareWeights(row=0.25, targets=-0.5, threat=0.5)

#: the weights of ``best`` without a depth budget (``strongest``, ``best:time=``,
#: ``best:nodes=``; the fixed-depth levels keep :data:`DEFAULT`, and their measured ladder):
#: least squares on what a deeper search (100,000 nodes) says the board is worth to the
#: mover (its value less the store margin) in 4,704 positions above the 18-seed table from
#: 140 self-play games of the previous ``PLAY`` (benchmarks/fit_oware_eval.py
#: ``generate-search``, seeds 1129 and 1130; the weights are the 5 folds' mean).  Against
#: that previous set (row -0.01, targets 1.1, kroo 1.38, empty 2.63, threat 0.58, fitted to
#: self-play results; itself 64.7% over 160 games against DEFAULT) at equal nodes (100,000 a
#: move, both with ``best``'s reductions, 40 openings from both seats,
#: benchmarks/oware_match.py): 55.6% +- 10.4% (seed 1504) and 65.0% +- 9.9% (seed 1506),
#: together 60.3% over 160 games (W-D-L 89-15-56; 2026-11-29; docs/oware.md, "Labels from
#: a deeper search").  ``waiting`` (the side not to move's best capture) enters here.
PLAY = OwareWeights(row=-0.05, targets=0.24, kroo=2.66, empty=2.04, threat=0.93, waiting=0.71)

#: the default evaluation, ``oware`` in :data:`mancala.evaluation.EVALUATIONS`
evaluate = make_evaluation(DEFAULT)
