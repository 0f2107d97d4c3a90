"""Oware's numba engine: endgame databases (``index``, ``endgame``) and the search."""
