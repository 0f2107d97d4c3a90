"""mancala: sowing games and the game-tree AIs that play them.

Layers, with data flowing one way (UI and CLI -> players -> search -> games):

- :mod:`mancala.games`   rules only (Kalah with every variant, tic-tac-toe)
- :mod:`mancala.search`  game-agnostic search (random, greedy, minimax, alpha-beta)
- :mod:`mancala.players` players chosen by a short spec string
- :mod:`mancala.arena.match`   play a game between two players and get a record back
"""

__version__ = "0.1.0"
