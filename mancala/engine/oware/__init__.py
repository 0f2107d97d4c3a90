"""Oware's numba engine: kernels of the reference rules and evaluation (:mod:`.kernels`),
checked move for move against :mod:`mancala.games.oware`, its search (:mod:`.search`),
endgame databases by retrograde analysis (:mod:`.index`, :mod:`.endgame`) and exact play
from them (:mod:`.exact`, plugged into the search through its endgame probe)."""
