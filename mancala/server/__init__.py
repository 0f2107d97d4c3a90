"""The one game server: the web board, remote agents and ``mancala serve`` are clients of
the same Starlette app and the same versioned JSON-over-WebSocket protocol
(``docs/protocol.md``).

* :mod:`mancala.server.protocol` — reading and checking messages;
* :mod:`mancala.server.views` — what the page draws, per game;
* :mod:`mancala.server.session` — hosted games, seats, undo/redo, clocks, results;
* :mod:`mancala.server.finished` — the finished games kept after they are freed, so their links still open them;
* :mod:`mancala.server.answers` — the analysis answers shared by every client (the work itself is :mod:`mancala.analysis`, in worker processes);
* :mod:`mancala.server.app` — the ASGI app (HTTP + WebSocket);
* :mod:`mancala.server.command` — ``mancala web`` and ``mancala serve``.
"""
