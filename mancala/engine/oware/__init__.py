"""The Oware engine: numba kernels of the reference rules and evaluation (:mod:`.kernels`),
checked move for move against :mod:`mancala.games.oware`, and its search (:mod:`.search`).

An exact endgame database may plug into the search through
:data:`mancala.engine.oware.search.ENDGAME_PROBE` (see that module's doc)."""
