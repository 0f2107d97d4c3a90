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
  its turn, counted against the mover (a threat the mover must parry, or lose seeds to);
* ``houses``: a table of what each house's seed count is worth to the player to move, one row
  of ``HOUSE_CAP + 1`` values (0, 1, ... ``HOUSE_CAP`` seeds or more) for each house, the
  mover's row first, then the opponent's, each in sowing order.  It holds any function of one
  house's count, so it can say what ``row``, ``targets``, ``kroo`` and ``empty`` say and more
  (a house of 3 seeds is not worth a house of 2 plus one), and it is read from the mover's side
  (it can price having the move).  Empty: no such term.

The numba engine (:func:`mancala.engine.oware.kernels.heuristic`) computes the same sums in
the same order, bit for bit, so the engine and Python alpha-beta agree on every value.  The
default weights were chosen by engine matches (``docs/oware.md``, "The engine and the levels");
they are the ``oware`` evaluation and the fixed-depth levels' (whose ladder was measured with
them).  :data:`PLAY`, the weights of ``best`` without a depth budget (``strongest``,
``best:time=``, ``best:nodes=``), were fitted to what a deeper search says positions of
self-play games are worth (``benchmarks/fit_oware_eval.py``; ``docs/oware.md``, "A learnt
evaluation"): a house table with the two threats on six-house boards, :data:`PLAY_TERMS`
on the others.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from mancala.errors import BadInput

#: what a finished game is worth beyond its margin (the engine's ``WIN``)
WIN = 1000.0
#: the house table's last column: counts from this one up share it
HOUSE_CAP = 20


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
    #: the house table (see the module doc): ``2 * houses * (HOUSE_CAP + 1)`` values, or none
    houses: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not all(math.isfinite(v) for v in (*self.as_tuple(), *self.houses)):
            raise BadInput("Oware weights must be finite numbers")
        if len(self.houses) % (2 * (HOUSE_CAP + 1)) != 0:
            raise BadInput(
                f"an Oware house table holds {2 * (HOUSE_CAP + 1)} values per pair of houses, got {len(self.houses)}"
            )

    def as_tuple(self) -> tuple[float, ...]:
        """The terms' weights in field order (the engine's ``W_*`` slots), the house table apart."""
        return tuple(getattr(self, name) for name in TERM_NAMES)

    def table_rows(self) -> int:
        """The houses the table is for (both rows; 0: no table)."""
        return len(self.houses) // (HOUSE_CAP + 1)

    def check_board(self, houses: int) -> None:
        """Raise :class:`BadInput` unless the house table (if any) is one for ``houses`` houses a side."""
        rows = self.table_rows()
        if rows not in (0, 2 * houses):
            raise BadInput(f"an Oware house table for {rows // 2} houses a side on a board of {houses}")


#: the names of the weighted terms, in field order (the engine's ``W_*`` slots; the house table apart)
TERM_NAMES: tuple[str, ...] = tuple(f.name for f in fields(OwareWeights) if f.name != "houses")


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


def add_house_table(score: float, table: tuple[float, ...], houses: tuple[int, ...], seat: int, mover: bool) -> float:
    """``score`` plus the house table's entries for the board, added one at a time in the
    engine's order (bit-equal with :func:`mancala.engine.oware.kernels.heuristic`)."""
    p2 = len(houses)
    n = p2 // 2
    stride = HOUSE_CAP + 1
    for j in range(p2):
        c = min(houses[(seat * n + j) % p2], HOUSE_CAP)
        score += table[j * stride + c] if mover else -table[j * stride + c]
    return score


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
        if w.houses:
            w.check_board(n)
            score = add_house_table(score, w.houses, state.houses, state.seat, player == state.seat)
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

#: the six terms of ``best`` until 2026-11-30, and still its weights on boards other than six
#: houses a side (:func:`play_weights`; the house table of :data:`PLAY` is for six):
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
PLAY_TERMS = OwareWeights(row=-0.05, targets=0.24, kroo=2.66, empty=2.04, threat=0.93, waiting=0.71)

#: :data:`PLAY`'s house table (see the module doc: the mover's six houses, then the
#: opponent's, each a row of what 0, 1, ... ``HOUSE_CAP`` or more seeds there are worth)
# fmt: off
_PLAY_HOUSES: tuple[float, ...] = (
    # the mover's A: 0, 1, ... 20+ seeds
    -3.388, -1.15, 0.186, 0.937, 1.157, 1.216, 0.138, 0.8, 0.629, -0.219, -1.267,
    -1.016, -0.282, -0.806, 0.328, 2.019, 0.006, 0.014, -0.039, -0.039, -0.039,
    # the mover's B: 0, 1, ... 20+ seeds
    -3.454, -1.234, -0.06, 0.546, 0.254, -0.423, -0.734, -1.248, -1.292, -1.868, -1.673,
    -0.681, -1.348, -1.066, 1.285, 1.816, 0.838, 3.42, 2.698, 4.336, -0.925,
    # the mover's C: 0, 1, ... 20+ seeds
    -2.741, -0.656, 0.236, 0.484, -0.136, -0.441, -1.262, -1.675, -1.478, -1.968, -1.286,
    -0.426, 0.325, 0.53, 1.683, 1.001, 0.951, 3.624, 3.038, -0.275, -0.345,
    # the mover's D: 0, 1, ... 20+ seeds
    -2.017, -0.403, 0.25, -0.207, -0.374, -1.175, -1.416, -1.302, -1.953, -1.357, -0.919,
    -0.154, 0.807, 1.707, 1.532, 1.717, 2.443, 2.755, 1.702, -0.393, -2.058,
    # the mover's E: 0, 1, ... 20+ seeds
    -1.834, -0.516, -0.249, -0.568, -0.965, -1.332, -1.385, -1.777, -1.363, -0.72, 0.556,
    1.516, 2.583, 3.09, 2.548, 3.58, 3.147, 0.247, -3.683, -3.741, 0.051,
    # the mover's F: 0, 1, ... 20+ seeds
    -2.106, -1.03, -0.854, -1.377, -1.636, -2.176, -2.395, -2.046, -0.848, 0.408, 1.899,
    2.331, 3.402, 3.614, 2.633, 1.588, 1.788, -2.258, -0.713, -1.283, 0.245,
    # the opponent's A: 0, 1, ... 20+ seeds
    3.31, 1.073, -0.263, -1.015, -1.235, -1.293, -0.216, -0.877, -0.706, 0.142, 1.189,
    0.938, 0.204, 0.729, -0.405, -2.097, -0.084, -0.091, -0.039, -0.039, -0.039,
    # the opponent's B: 0, 1, ... 20+ seeds
    3.376, 1.157, -0.017, -0.624, -0.332, 0.346, 0.656, 1.171, 1.215, 1.79, 1.596,
    0.604, 1.27, 0.988, -1.363, -1.894, -0.915, -3.497, -2.776, -4.414, 0.848,
    # the opponent's C: 0, 1, ... 20+ seeds
    2.663, 0.578, -0.313, -0.562, 0.059, 0.363, 1.185, 1.597, 1.4, 1.89, 1.209,
    0.348, -0.403, -0.608, -1.761, -1.078, -1.029, -3.701, -3.116, 0.197, 0.267,
    # the opponent's D: 0, 1, ... 20+ seeds
    1.939, 0.326, -0.328, 0.129, 0.296, 1.097, 1.338, 1.225, 1.875, 1.28, 0.841,
    0.077, -0.885, -1.784, -1.609, -1.794, -2.52, -2.833, -1.78, 0.315, 1.98,
    # the opponent's E: 0, 1, ... 20+ seeds
    1.757, 0.439, 0.172, 0.491, 0.887, 1.254, 1.308, 1.7, 1.285, 0.642, -0.633,
    -1.594, -2.66, -3.168, -2.626, -3.658, -3.225, -0.325, 3.605, 3.663, -0.129,
    # the opponent's F: 0, 1, ... 20+ seeds
    2.028, 0.952, 0.777, 1.299, 1.559, 2.099, 2.317, 1.969, 0.77, -0.485, -1.976,
    -2.409, -3.48, -3.692, -2.711, -1.665, -1.865, 2.18, 0.636, 1.206, -0.323,
)
# fmt: on

#: the weights of ``best`` without a depth budget on a board of six houses a side
#: (``strongest``, ``best:time=``, ``best:nodes=``; the fixed-depth levels keep
#: :data:`DEFAULT`, and their measured ladder): ``threat``, ``waiting`` and a house table in
#: place of the other terms (it can say all they say), fitted by ridge regression (strength
#: 10) to what a 150,000-node search of :data:`PLAY_TERMS` says the board is worth to the mover
#: in 9,082 positions above the 18-seed table from 270 self-play games
#: (benchmarks/fit_oware_eval.py ``fit-table``; the opponent's houses fitted as the negation
#: of the mover's, plus a constant for having the move).  Held out by game it errs by 4.15
#: seeds (RMSE) where :data:`PLAY_TERMS` errs by 4.77, and at equal nodes it beat
#: :data:`PLAY_TERMS` (docs/oware.md, "A house table").
PLAY = OwareWeights(threat=1.01, waiting=0.639, houses=_PLAY_HOUSES)


def play_weights(houses: int) -> OwareWeights:
    """``best``'s weights (without a depth budget) on a board of ``houses`` houses a side:
    :data:`PLAY` where its house table fits, else :data:`PLAY_TERMS`."""
    return PLAY if PLAY.table_rows() == 2 * houses else PLAY_TERMS


#: the default evaluation, ``oware`` in :data:`mancala.evaluation.EVALUATIONS`
evaluate = make_evaluation(DEFAULT)
