"""The server's settings (``mancala web``/``mancala serve`` options; ``docs/protocol.md``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mancala.server.finished import KEPT_GAMES
from mancala.server.workers import default_workers

#: the engine memory bound of each worker process ($MANCALA_MEMORY_MB, when not set)
WORKER_MEMORY_MB = 512
#: the most memory a worker process may hold: its engine's bound and 256 MB besides (Python
#: and the compiled kernels take about 200 MB); one past it is ended and replaced
WORKER_BOUND_MB = WORKER_MEMORY_MB + 256
#: the most seconds a study's task (a table, a tree, the explorer) may run in its worker
STUDY_SECONDS = 120.0

#: the names of this machine seen from itself: what a server bound to loopback answers to
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


@dataclass
class ServerConfig:
    """The server's settings (``mancala web``/``mancala serve`` options; ``docs/protocol.md``)."""

    #: the token every client presents in ``hello`` (None: none needed, loopback only)
    token: str | None = None
    #: extra allowed ``Origin`` values for browsers (besides the server's own address)
    allow_origins: tuple[str, ...] = ()
    #: the host names the server answers to: a request whose ``Host`` header names another
    #: host is refused (DNS rebinding); ``*`` answers to any name
    hosts: tuple[str, ...] = LOOPBACK_NAMES
    max_games: int = 200
    max_games_per_client: int = 50
    #: games (``create``, ``new``, ``load``) one client address may start in a minute, so also
    #: the results it leaves (None: no limit; ``mancala web``/``serve`` set 60)
    games_per_minute: int | None = None
    #: seconds a disconnected player of a network game may take to come back
    grace: float = 60.0
    #: seconds a game nobody is connected to is kept (a page reload) before it is freed
    idle_grace: float = 10.0
    #: how many finished games freed from memory the server keeps to open again from their
    #: links, read-only (the newest; :mod:`mancala.server.finished`)
    finished_games: int = KEPT_GAMES
    #: the folder finished games and the journal are written to (None: nothing written)
    results: Path | None = None
    #: worker processes for AI moves and studies (one a core, see :func:`default_workers`)
    workers: int = field(default_factory=default_workers)
    #: warm the engine in the background at start-up
    warm: bool = True
    #: build the endgame table of an AI that reads one (Oware, Togyz Kumalak) in a background
    #: process the first time it moves and the cache has none (:mod:`mancala.engine.table_builds`;
    #: ``mancala web``/``serve`` set it unless ``--no-background-tables``; off for tests)
    background_tables: bool = False
    #: default clocks for games with a remote seat: {"move": s, "game": s} (None: no clock)
    clock: dict | None = None
    #: messages queued unread before a client is disconnected as a slow reader
    max_queue: int = 256
    #: study requests (hint, analyse, review, tree, explore) one connection may have waiting
    #: for their answers: one more is refused (``limit``); the page sends at most six at once
    max_requests: int = 8
    #: the most memory (MB) a worker process may hold before it is ended (None: unbounded)
    worker_memory_mb: float | None = WORKER_BOUND_MB
    #: the most seconds one task of a study may run in a worker (None: no limit)
    study_seconds: float | None = STUDY_SECONDS
