"""The server's hub: its games, its connected clients, its worker processes, the engine's
warm-up and its results folder.

Everything here runs on the server's event loop (one thread), so no locks are needed;
CPU work (AI moves and studies) goes to the hub's worker processes.
The wire format is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from typing import Any, Hashable

from mancala import __version__, analysis
from mancala.engine import readiness, table_builds
from mancala.engine.support import engine_records, engine_support
from mancala.errors import BadInput
from mancala.games.base import Game
from mancala.record import Ending
from mancala.server.config import WORKER_MEMORY_MB, ServerConfig
from mancala.server.finished import FinishedGames
from mancala.server.journal import Journal
from mancala.server.limits import RateLimit
from mancala.server.lobby import lobby_games
from mancala.server.protocol import MAX_MESSAGE_BYTES, ProtocolError, message
from mancala.server.session import Client, GameSession, Seat
from mancala.server.state import common_state, state_message
from mancala.server.warmup import WarmUp
from mancala.server.workers import WorkerPool

log = logging.getLogger("mancala.server")

#: how often (seconds) the hub looks at a background table build it started, to tell the pages
#: of its game when a tier lands or the build ends
TABLE_POLL_SECONDS = 2.0


class Hub:
    """The server: its games, its clients, its worker processes and its files."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        self.config = config or ServerConfig()
        self.sessions: dict[str, GameSession] = {}
        self.clients: set[Client] = set()
        self.engine_ready = not self.config.warm
        self.pool: WorkerPool | None = None
        #: the results folder: finished games and the journal of the running ones
        self.journal = Journal(self.config.results, self._running_records, self._result_written)
        self.interrupted: list[dict] = []
        #: the finished games freed from memory, kept to open again from their links (bounded)
        self.finished = FinishedGames(self.config.finished_games)
        #: the games each client address started in the last minute (None: no limit)
        self.games_rate = RateLimit(self.config.games_per_minute) if self.config.games_per_minute else None
        self._warm_task: asyncio.Task | None = None
        #: the engines' compiles, the chosen games' first (None: no warm-up)
        self.warmup: WarmUp | None = None
        #: the clients told of every change of the lobby (``lobby`` with ``subscribe``), and
        #: the lobby they were last sent
        self.lobby_subscribers: set[Client] = set()
        self._lobby_sent: list[dict] | None = None
        #: starts a background table build's process (``spawn(command, errors)``; tests give a fake)
        self.table_spawn: table_builds.Spawn | None = None
        #: the task telling pages of the background table builds' progress (None: none runs)
        self._table_task: asyncio.Task | None = None
        #: whether this process started background builds before the hub (restored at stop)
        self._tables_before: bool | None = None

    # --- life cycle ------------------------------------------------------------------

    async def start(self) -> None:
        """Start-up: list interrupted games, warm the engine in the background."""
        self.interrupted = self.journal.open()
        if self.config.background_tables:
            self._tables_before = table_builds.build_in_background(True)
        if self.config.warm:
            self.warmup = WarmUp(
                [record.game for record in engine_records() if record.warm_up is not None],
                on_ready=self._engine_compiled,
            )
            for session in self.sessions.values():
                self.warm_first(session.game)
            self._warm_task = asyncio.get_running_loop().create_task(self._warm())

    def preparing_what(self) -> str:
        """What the engine's warm-up is doing."""
        return "compiling it for this machine (first run only)"

    def engine_detail(self, game: Game) -> dict | None:
        """What ``game``'s engine still needs, for the page's header chip and thinking line
        alike (one number: :func:`mancala.engine.readiness.compile_left`): None when it is
        ready (or the game has none), else ``{"what", "estimate", "elapsed", "left"}``
        (:func:`mancala.engine.readiness.compile_count`)."""
        record = engine_support(game.name)
        if record is None or not record.plays(game):
            return None
        count = readiness.compile_count(record)
        return None if count is None else {"what": self.preparing_what(), **count}

    def want_table(self, game: Game) -> None:
        """An AI that reads ``game``'s endgame table is to move: unless the table is in the cache
        (or the server was told not to), build it in a background process while play goes on
        (:func:`mancala.engine.table_builds.ensure`), and tell the game's pages as tiers land."""
        if not self.config.background_tables:
            return
        if table_builds.ensure(engine_support(game.name), game, self.table_spawn) and self._table_task is None:
            try:
                self._table_task = asyncio.get_running_loop().create_task(self._watch_tables())
            except RuntimeError:  # no loop running (a test calling this directly): nobody to tell
                pass

    def table_detail(self, game: Game) -> dict | None:
        """Where the background build of ``game``'s endgame table stands, for the page's header
        chip (``table_build``: :func:`mancala.engine.table_builds.progress`); None when none runs
        or its engine builds none."""
        if not table_builds.builds_table(engine_support(game.name), game):
            return None
        return table_builds.progress(game)

    async def _watch_tables(self) -> None:
        """While a build this hub started runs, send its games' pages a new state when a tier
        lands (their chip counts down between), and once more when it ends."""
        seen: dict[str, Any] = {}
        try:
            while True:
                running = table_builds.running()
                for session in list(self.sessions.values()):
                    detail = self.table_detail(session.game)
                    mark = None if detail is None else (detail.get("done"), detail.get("error"))
                    if seen.get(session.id, mark) != mark:
                        self.broadcast(session)
                    seen[session.id] = mark
                if not running:
                    return
                await asyncio.sleep(TABLE_POLL_SECONDS)
        finally:
            self._table_task = None

    def expectation(self, seat: Seat) -> dict:
        """What an AI's move waits for and about how long (``doing``, ``estimate`` seconds,
        None when unknown; ``budget``, its most a move in wall time, when it has one), for the ``thinking``
        field a waiting person sees.  An AI of an engine not compiled yet plays from the Python
        search meanwhile (at most :data:`~mancala.engine.readiness.FALLBACK_SECONDS`), and says
        when the engine will be ready (``engine_left``, the header chip's number)."""
        record = engine_support(seat.game) if seat.engine else None
        if record is not None and not readiness.engine_ready(record):
            budget = min(seat.limit or readiness.FALLBACK_SECONDS, readiness.FALLBACK_SECONDS)
            return {
                "doing": readiness.NOTE,
                "estimate": budget,
                "budget": budget,
                "engine_left": readiness.compile_left(record),
            }
        return {"doing": "searching", "estimate": seat.budget, "budget": seat.limit}

    def warm_first(self, game: Game) -> None:
        """A person chose ``game``: its engine's compile goes first (:class:`WarmUp`)."""
        if self.warmup is not None:
            self.warmup.first(game.name)

    def _engine_compiled(self, game: str) -> None:
        """``game``'s engine is compiled: its games' pages hear it (their header chip goes)."""
        for session in [s for s in self.sessions.values() if self.engine_detail(s.game) is None]:
            self.broadcast(session)

    async def _warm(self) -> None:
        assert self.warmup is not None  # set by start()
        try:
            await self.warmup.run()
        except Exception:  # the engine is an optimisation: the players search in Python without
            log.exception("engine warm-up failed")
        self.engine_ready = True
        for session in list(self.sessions.values()):
            session.start_clock()  # an AI of the engine's clock waited for it
            self.broadcast(session)

    async def stop(self) -> None:
        """Shut down: unfinished games are left in the journal (listed as interrupted next time),
        with the finished ones whose files could not be written (written next time)."""
        self.journal.close()
        for session in list(self.sessions.values()):
            session.cancel_thinking()
            if session.clock is not None and session.clock.handle is not None:
                session.clock.handle.cancel()
        if self._warm_task is not None:
            self._warm_task.cancel()
            readiness.stop_compiles()
        if self._table_task is not None:
            self._table_task.cancel()
        table_builds.stop_builds()  # the finished tiers are kept: the next build resumes from them
        if self._tables_before is not None:
            table_builds.build_in_background(self._tables_before)
            self._tables_before = None
        if self.pool is not None:
            pool, self.pool = self.pool, None
            pool.shutdown()  # searches under way are abandoned: end the workers now

    async def run(
        self,
        fn,
        *args,
        affinity: str | None = None,
        prefer: str | None = None,
        urgent: bool = True,
        owner: Hashable | None = None,
        reply: bool = False,
        seconds: float | None = None,
    ):
        """Run ``fn(*args)`` in a worker process and await its answer (cancelling the
        caller stops the work).  An AI's ``reply`` to a person goes first, then ``urgent``
        work (a person waits for it), then the rest, each shared fairly between ``owner``s;
        work with an ``affinity`` runs in the worker that ran that key before, work that
        ``prefer``s a key there when that worker is idle (see :class:`WorkerPool`); work
        past ``seconds`` or past the worker memory bound raises :class:`~mancala.server.workers.WorkerLimit`."""
        if self.pool is None:
            self.pool = WorkerPool(self.config.workers, _worker_init, memory_mb=self.config.worker_memory_mb)
        return await self.pool.run(
            fn, *args, affinity=affinity, prefer=prefer, urgent=urgent, owner=owner, reply=reply, seconds=seconds
        )

    def new_id(self) -> str:
        """A fresh game id."""
        while True:
            gid = "g" + secrets.token_hex(4)
            if gid not in self.sessions and not self.finished.known(gid):
                return gid

    # --- games ----------------------------------------------------------------------

    def create(
        self,
        client: Client,
        game: Game,
        specs: list[str],
        clock: dict | None,
        move_delay: float | None,
        moves: list | None = None,
        variations: list | None = None,
        ending: Ending | None = None,
    ) -> GameSession:
        """A new game created by ``client`` (which takes its human seats)."""
        if len(self.sessions) >= self.config.max_games:
            raise ProtocolError(
                "limit", f"the server holds its limit of {self.config.max_games} games; try again later"
            )
        mine = sum(1 for s in self.sessions.values() if s.creator_address == client.address and not s.over())
        if mine >= self.config.max_games_per_client:
            raise ProtocolError(
                "limit", f"you already run {mine} games, the limit per client; finish or leave one first"
            )
        wait = self.games_rate.take(client.address) if self.games_rate is not None else 0.0
        if wait:
            raise ProtocolError(
                "limit",
                f"you started {self.config.games_per_minute} games in the last minute, the limit per client; "
                f"try again in {wait:.0f} s",
            )
        if clock is None and self.config.clock and any(str(s).strip().lower() == "remote" for s in specs):
            clock = dict(self.config.clock)
        session = GameSession(
            self,
            game,
            specs,
            creator=client,
            clock=clock,
            move_delay=move_delay,
            moves=moves,
            variations=variations,
            ending=ending,
        )
        seats = [p for p, s in enumerate(session.seats) if s.kind == "human"]
        for p in seats:
            session.seats[p].token = session.creator_token
        self.sessions[session.id] = session
        self.warm_first(game)
        return session

    def free(self, session: GameSession) -> None:
        """Forget a game (its clients gone): stop its search and clock."""
        session.cancel_thinking()
        if session.clock is not None:
            session.clock.stop()
        if session.free_handle is not None:
            session.free_handle.cancel()
            session.free_handle = None
        if self.sessions.get(session.id) is session and not session.clients:
            del self.sessions[session.id]
            record = session.record_json() if session.over() else None
            self.finished.freed(session.id, record, session.started, session.ended)
            self.journal.update()
        self.lobby_changed()

    def reopen(self, game_id: str) -> GameSession | None:
        """The finished game ``game_id`` freed from memory, hosted again from its kept record
        under its id, to watch (None: no such record is kept).  Nobody holds its seats, so
        it is read-only: its final position, its moves and its result; it is freed (and kept)
        again once its watchers leave."""
        kept = self.finished.get(game_id)
        if kept is None:
            return None
        if len(self.sessions) >= self.config.max_games:
            raise ProtocolError(
                "limit", f"the server holds its limit of {self.config.max_games} games; try again later"
            )
        try:
            record = kept.record()
            session = GameSession(
                self,
                record.game,
                ["human" if p.strip().lower() == "remote" else p for p in record.players],
                creator=None,
                moves=record.moves,
                variations=record.variations,
                ending=record.ending,
            )
        except BadInput as e:  # (our own record: not expected)
            raise ProtocolError("no_game", f"game {game_id!r} cannot be opened again: {e}") from None
        session.id = session.owner = game_id
        session.started, session.ended = kept.started, kept.ended
        for seat, person in zip(session.seats, record.people):
            seat.person = person if seat.kind != "ai" else None
        self.sessions[game_id] = session
        return session

    def _result_written(self, game_id: str) -> None:
        """A finished game's file that could not be written is written at last: tell its clients."""
        session = self.sessions.get(game_id)
        if session is not None:
            self.broadcast(session)

    def _running_records(self) -> list[dict]:
        """The records of the games under way, as the journal keeps them."""
        return [dict(s.record_json(), game_id=s.id, started=s.started) for s in self.sessions.values() if not s.over()]

    # --- messages ----------------------------------------------------------------------

    def broadcast(self, session: GameSession, request_from: Client | None = None, request_id: Any = None) -> None:
        """Send a game's state to every client of it (the requester's copy carries its id), and
        the lobby to its subscribers when that changed."""
        self.lobby_changed()
        if not session.clients:
            return
        common = common_state(session)
        for client in list(session.clients):
            client.send(state_message(session, client, request_id if client is request_from else None, common))

    def lobby(self) -> list[dict]:
        """The games the lobby lists now (:mod:`mancala.server.lobby`)."""
        return lobby_games(self.sessions.values())

    def lobby_changed(self) -> None:
        """Send the lobby to its subscribers if it differs from what they were last sent."""
        if not self.lobby_subscribers:
            self._lobby_sent = None
            return
        games = self.lobby()
        if games == self._lobby_sent:
            return
        self._lobby_sent = games
        for client in list(self.lobby_subscribers):
            client.send(message("lobby", games=games))

    def subscribe_lobby(self, client: Client, on: bool) -> None:
        """``client`` is told of every change of the lobby from now on (``on``), or no more."""
        if on:
            self.lobby_subscribers.add(client)
            self._lobby_sent = self.lobby()
        else:
            self.lobby_subscribers.discard(client)

    def welcome(self, request_id: Any = None) -> dict:
        """The ``welcome`` message."""
        return message(
            "welcome",
            request_id,
            server=f"mancala {__version__}",
            protocol=1,
            engine="ready" if self.engine_ready else "preparing",
            limits=self.limits(),
        )

    def limits(self) -> dict:
        """The limits clients see (``docs/protocol.md``)."""
        return {
            "message_bytes": MAX_MESSAGE_BYTES,
            "games": self.config.max_games,
            "games_per_client": self.config.max_games_per_client,
            "games_per_minute": self.config.games_per_minute,
            "queue": self.config.max_queue,
            "requests": self.config.max_requests,
            "tree_depth": analysis.MAX_TREE_DEPTH,
            "tree_nodes": analysis.MAX_TREE_NODES,
            "worker_memory_mb": self.config.worker_memory_mb,
            "study_seconds": self.config.study_seconds,
            "grace_seconds": self.config.grace,
            "idle_seconds": self.config.idle_grace,
            "finished_games": self.config.finished_games,
        }


def _worker_init() -> None:
    """Worker process start-up: bound the engine's memory (the kernels load when a task
    first needs them; the hub warms them in the background, see :meth:`Hub._warm`)."""
    # several workers each hold an engine: keep each one's tables modest unless told otherwise
    os.environ.setdefault("MANCALA_MEMORY_MB", str(WORKER_MEMORY_MB))
    # a person waits for the replies: an engine not compiled yet is compiled in the background
    # while its players search in Python (mancala.engine.readiness)
    readiness.play_while_compiling(True)
