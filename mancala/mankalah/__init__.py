"""The Manchester ManKalah protocol: its messages (:mod:`.protocol`) and agent programs run as
processes (:mod:`.process`).  What speaks it sits above the players: our agent
(:mod:`mancala.arena.mankalah_agent`), our referee (:mod:`mancala.arena.referee`); outside
agent programs as players are :mod:`mancala.players.command`."""
