"""The Bao engine: numba kernels of the reference rules and evaluation (:mod:`.kernels`),
checked move for move against :mod:`mancala.games.bao`, and its search (:mod:`.search`)."""
