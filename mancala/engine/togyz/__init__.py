"""Togyz Kumalak's numba engine: kernels of the reference rules, evaluation and perft
(:mod:`.kernels`), checked move for move against :mod:`mancala.games.togyz`, the one encoding
of its rules (:mod:`.rules`), its search (:mod:`.search`) and its catalogue record
(:mod:`.record`)."""
