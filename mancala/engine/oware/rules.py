"""The one encoding of :class:`~mancala.games.oware.OwareRules` for every Oware kernel (the
search's, :mod:`.kernels`, and the endgame databases', :mod:`.endgame`): an int64 array of
the ``R_*`` slots of :mod:`.kernels`, made once per rule set; and which rule sets the search
plays."""

from __future__ import annotations

import numpy as np

from mancala.engine.kit import once_per_rule_set
from mancala.engine.oware import kernels as K
from mancala.games.oware import EndSeeds, GrandSlam, OwareRules, Repetition

#: the kernels' codes of the rules' options
GRAND_SLAM = {
    GrandSlam.NO_CAPTURE: K.GS_NO_CAPTURE,
    GrandSlam.ILLEGAL: K.GS_ILLEGAL,
    GrandSlam.ILLEGAL_UNLESS_ONLY: K.GS_ILLEGAL_UNLESS_ONLY,
    GrandSlam.CAPTURE_ALL: K.GS_CAPTURE_ALL,
    GrandSlam.OPPONENT_TAKES_REST: K.GS_OPPONENT_TAKES_REST,
    GrandSlam.LEAVE_LEFT: K.GS_LEAVE_LEFT,
    GrandSlam.LEAVE_RIGHT: K.GS_LEAVE_RIGHT,
}
END_SEEDS = {EndSeeds.OWN_ROW: K.SEEDS_OWN_ROW, EndSeeds.SPLIT: K.SEEDS_SPLIT, EndSeeds.UNSCORED: K.SEEDS_UNSCORED}
REPETITION = {Repetition.OWN_ROW: K.REP_OWN_ROW, Repetition.SPLIT: K.REP_SPLIT, Repetition.NONE: K.REP_NONE}


def supports(rules: OwareRules) -> bool:
    """Whether the search plays these rules: every option but ``skip_twelve`` (sowing that
    skips big houses), ``max_plies`` (a move limit) and capture counts of 63 or more.  On
    other rules ``best`` searches in Python instead."""
    return not rules.skip_twelve and rules.max_plies == 0 and max(rules.capture_counts) < 63


@once_per_rule_set
def rules_array(rules: OwareRules) -> np.ndarray:
    """The kernels' rules array for ``rules`` (capture counts of 63 or more, which no board
    reaches in a table, are left out of the mask; the search declines such rules)."""
    r = np.zeros(K.R_SIZE, dtype=np.int64)
    r[K.R_HOUSES] = rules.houses
    r[K.R_TOTAL] = rules.total
    r[K.R_SKIP_ORIGIN] = int(rules.skip_origin)
    r[K.R_CAPTURE_MASK] = sum(1 << c for c in rules.capture_counts if c < 63)
    r[K.R_MULTIPLE] = int(rules.multiple_capture)
    r[K.R_MUST_FEED] = int(rules.must_feed)
    r[K.R_GRAND_SLAM] = GRAND_SLAM[rules.grand_slam]
    r[K.R_CANNOT_MOVE] = END_SEEDS[rules.cannot_move]
    r[K.R_REPETITION] = REPETITION[rules.repetition]
    r[K.R_MAJORITY] = int(rules.stop_at_majority)
    r[K.R_SWEEP] = int(rules.sweep_at_majority)
    return r
