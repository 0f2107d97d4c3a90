"""The one encoding of :class:`~mancala.games.togyz.TogyzRules` for the Togyz Kumalak kernels
(:mod:`.kernels`): an int64 array of their ``R_*`` slots, made once per rule set; and which
rule sets the engine plays."""

from __future__ import annotations

import numpy as np

from mancala.engine.kit import once_per_rule_set
from mancala.engine.togyz import kernels as K
from mancala.games.togyz import TogyzRules


def supports(rules: TogyzRules) -> bool:
    """Whether the engine plays these rules: every board (2-9 houses, 1-20 stones a house),
    both tuzdik bans and ends, any start position, but not ``max_plies`` (a move limit: a
    position's value would depend on the moves left).  On such rules ``best`` searches in
    Python instead."""
    return rules.max_plies == 0 and 2 <= rules.houses <= K.MAX_HOUSES


@once_per_rule_set
def rules_array(rules: TogyzRules) -> np.ndarray:
    """The kernels' rules array for ``rules``."""
    r = np.zeros(K.R_SIZE, dtype=np.int64)
    r[K.R_HOUSES] = rules.houses
    r[K.R_TOTAL] = rules.total
    r[K.R_FORBID_LAST] = int(rules.tuzdik_forbid_last)
    r[K.R_MAJORITY] = int(rules.stop_at_majority)
    return r
