"""One hosted game: who sits where, the moves so far and their side lines, undo/redo, AI
turns run off the event loop, disconnects and reconnects, and the end of the game.

A game lives on a :class:`Host` (the server's :class:`~mancala.server.hub.Hub`), which
runs its AI moves in worker processes and keeps its results; its time control is a
:class:`~mancala.server.clock.Clock`.  Everything here runs on the server's event loop
(one thread), so no locks are needed.  The wire format is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable, Protocol

from mancala import analysis
from mancala.errors import BadInput, IllegalMove
from mancala.games import game_spec, make_game
from mancala.games.base import Game
from mancala.players import (
    BestPlayer,
    HumanPlayer,
    SearchPlayer,
    expected_seconds,
    is_portable,
    make_player,
    player_memory,
    player_title,
    uses_engine,
    uses_table,
    wall_budget,
)
from mancala.record import Ending, GameRecord
from mancala.server.clock import Clock
from mancala.server.config import ServerConfig
from mancala.server.journal import Journal
from mancala.server.lines import Lines
from mancala.server.protocol import ProtocolError, error
from mancala.server.views import result_view, start_end_text

log = logging.getLogger("mancala.server")

#: the players of a new game when ``create`` names none: you against the AI at medium
DEFAULT_PLAYERS = ["human", "medium"]
#: the deepest search an AI player of a hosted game may do (each move is a worker's time)
MAX_AI_DEPTH = {"greedy": 1, "minimax": 8, "alphabeta": 14}
#: the most time a ``best:time=S`` player of a hosted game may take a move
MAX_AI_SECONDS = 60.0
#: the deepest and the most nodes a ``best:depth=N`` / ``best:nodes=N`` player of a hosted
#: game may search a move (``strongest`` searches 6,000,000 nodes)
MAX_BEST_DEPTH = 20
MAX_BEST_NODES = 50_000_000
#: Bao's never-ending-move cap the server allows (the rules' default; "no limit" could hang it)
MAX_BAO_LAPS = 1_000_000
#: how much longer than its time an AI of the compiled engine's flag waits for its move, whose
#: engine's preparation (compiling it, the first time, or loading it) its clock does not count
ENGINE_PATIENCE = 3 * analysis.COMPILE_SECONDS


@dataclass
class Seat:
    """One player of a game: its spec, kind and who holds it."""

    spec: str
    #: ``human``, ``ai`` or ``remote``
    kind: str
    #: what the AI player remembers between moves (plain data, see players.Memory): the
    #: player itself is rebuilt from ``spec`` in whichever worker process plays its move
    memory: dict | None = None
    #: whether the AI can move in any worker (False: an outside program, kept in one worker)
    portable: bool = True
    #: whether the AI searches with the compiled engine (its first move waits for it)
    engine: bool = False
    #: whether the AI reads an endgame table its engine builds in the background on first use
    #: (:mod:`mancala.engine.table_builds`): its moves start that build
    table: bool = False
    #: the most the AI thinks a move, when its budget is time (None: depth or nodes)
    budget: float | None = None
    #: the most the AI takes a move in wall time (its time, or a level's cap on its depth or
    #: nodes; None: no bound), shown while it thinks
    limit: float | None = None
    holder: "Client | None" = None
    #: the secret a disconnected holder presents to take the seat back
    token: str | None = None
    #: monotonic time the holder disconnected (None while connected)
    gone_since: float | None = None
    #: name the remote client gave in hello
    client_name: str | None = None
    #: the name of the person who plays it (``hello``'s, ``create``'s or ``join``'s ``name``)
    person: str | None = None
    #: the name of the game the seat plays (an AI's engine is that game's)
    game: str = ""


class Host(Protocol):
    """What a game needs of the server that hosts it (the :class:`~mancala.server.hub.Hub`)."""

    #: the server's settings (the grace periods a game waits for its players)
    config: ServerConfig
    #: the results folder a finished game is written to
    journal: Journal
    #: the games hosted, by id
    sessions: dict[str, GameSession]
    #: whether the compiled engine is ready (AI players that use it wait for it)
    engine_ready: bool

    def new_id(self) -> str:
        """A fresh game id."""

    def preparing_what(self) -> str:
        """What the engine's warm-up is doing."""

    def expectation(self, seat: Seat) -> dict:
        """What an AI's move waits for and about how long."""

    def engine_detail(self, game: Game) -> dict | None:
        """What ``game``'s engine still needs (None: it is ready), for the page."""

    def want_table(self, game: Game) -> None:
        """An AI that reads ``game``'s endgame table is to move: build the table in the
        background if it is not in the cache yet."""

    def table_detail(self, game: Game) -> dict | None:
        """Where the background build of ``game``'s endgame table stands (None: none), for the page."""

    def broadcast(self, session: GameSession, request_from: Client | None, request_id: Any) -> None:
        """Send a game's state to every client of it."""

    def run(
        self,
        fn: Callable,
        *args: Any,
        affinity: str | None = None,
        urgent: bool = True,
        owner: Any = None,
        reply: bool = False,
    ) -> Awaitable[Any]:
        """Run ``fn(*args)`` in a worker process (see :meth:`~mancala.server.hub.Hub.run`)."""

    def free(self, session: GameSession) -> None:
        """Forget a game its clients have left."""


@dataclass(eq=False, repr=False)
class Client:
    """One WebSocket connection: the game it follows and the seats it plays there."""

    hub: Host
    address: str
    send: Callable[[dict], None]
    close: Callable[[int, str], None]
    greeted: bool = False
    name: str | None = None
    #: the name of the person at this connection (``hello``'s ``name``, or ``create``'s, ``join``'s, ``name``'s)
    person: str | None = None
    session: GameSession | None = None
    seats: list[int] = field(default_factory=list)
    tasks: set[asyncio.Task] = field(default_factory=set)
    #: whether its ``state`` messages carry only the moves it has not been sent (``hello``'s
    #: ``"history": "delta"``), and what it was sent: (game id, the history entries)
    delta_history: bool = False
    history_sent: tuple[str, list] | None = None


class GameSession:
    """One hosted game."""

    def __init__(
        self,
        hub: Host,
        game: Game,
        specs: list[str],
        *,
        creator: Client | None,
        clock: dict | None = None,
        move_delay: float | None = None,
        moves: list | None = None,
        variations: list | None = None,
        ending: Ending | None = None,
    ) -> None:
        self.hub = hub
        self.id = hub.new_id()
        self.game = game
        #: the game as data: what worker processes are sent to rebuild it
        self.game_spec = game_spec(game)
        self.seats = [_seat(spec, game) for spec in specs]
        self.record = GameRecord(game, [s.spec for s in self.seats])
        self.states = [game.initial_state()]
        self.history: list[dict] = []
        #: the main line (kept in step with the record, positions and history above) and the side lines
        self.lines = Lines(game, self.record, self.states, self.history)
        self.redo_stack: list[list] = []
        self.clients: set[Client] = set()
        self.creator_address = creator.address if creator else None
        #: whose work its AI moves are, for the workers' fair shares: the connection that created it
        self.owner: Any = creator if creator is not None else self.id
        self.paused = False
        self.step_pending = False
        self.all_ai = all(s.kind == "ai" for s in self.seats)
        self.move_delay = float(move_delay) if move_delay is not None else (0.6 if self.all_ai else 0.0)
        self.thinking: dict | None = None
        self.generation = 0
        self.started = _now_iso()
        self.ended: str | None = None
        self.last_move_time = time.monotonic()
        self.free_handle: asyncio.TimerHandle | None = None
        self.clock = Clock.from_spec(clock) if clock else None
        self.think_task: asyncio.Task | None = None
        self.written = False
        #: whether this game's result went to the results folder (``state``'s ``result.saved`` then says if it is written)
        self.in_results = False
        #: the resume token of the client that created the game (and of its human seats)
        self.creator_token = secrets.token_urlsafe(16)
        #: connections that created the game (or came back with its creator's token): with
        #: the seats' holders, the only ones who may steer it (pause, step, settings, undo, resign)
        self.creators: set[Client] = set()
        for move in moves or []:
            self.lines.push(move)
        #: side lines beside the main line (the analysis board's move tree), kept in the record:
        #: (the main line's moves before the line, the line's moves)
        self.record.variations = [(start, list(line)) for start, line in variations or []]
        #: how the game ended off the board (a loaded record's too): resignation, time, disconnect
        self.record.ending = ending
        #: a loaded game that was already over is not a result of this server
        self.written = self.over()

    # --- facts ------------------------------------------------------------------

    @property
    def state(self):
        """The current position."""
        return self.states[-1]

    @property
    def network(self) -> bool:
        """Whether a seat is played by a remote client (a real match: no take-backs)."""
        return any(s.kind == "remote" for s in self.seats)

    @property
    def waiting(self) -> bool:
        """Whether a remote seat has not been joined yet (the game starts once it is)."""
        return any(s.kind == "remote" and s.holder is None and s.gone_since is None for s in self.seats)

    @property
    def strict(self) -> bool:
        """A match: a remote seat or a clock (undo, hints and analysis are refused while it runs)."""
        return self.network or self.clock is not None

    @property
    def forced_result(self) -> dict | None:
        """The result of a game that ended off the board (the record's ending), else None."""
        ending = self.record.ending
        if ending is None:
            return None
        score = [1, -1] if ending.winner == 0 else [-1, 1]
        return {"winner": ending.winner, "score": score, "reason": ending.reason, "text": ending.text(self.names())}

    def over(self) -> bool:
        """Whether the game has ended (on the board, by resignation, time or disconnect)."""
        return self.forced_result is not None or self.game.is_terminal(self.state)

    def result(self) -> dict | None:
        """The result, or None while the game runs."""
        if self.forced_result is not None:
            return self.forced_result
        result = result_view(self.game, self.state, self.names())
        if result is None or self.record.moves:
            return result
        why = start_end_text(self.game, self.state)  # over before any move: say why
        return result if why is None else {**result, "why": why}

    def names(self) -> list[str]:
        """``South (human)``, ``North (Medium AI)``: the seat each player sits at now (a pie-rule
        swap exchanges them) and who plays it (an AI by its title, see ``player_title``)."""
        return [f"{self.game.player_name(p, self.state)} ({self.who(p)})" for p in (0, 1)]

    def who(self, player: int) -> str:
        """Who plays ``player``'s seat: an AI by its title (``Medium AI``), a person by their
        name, else the seat's spec (``human``, ``remote``)."""
        seat = self.seats[player]
        return player_title(seat.spec) if seat.kind == "ai" else seat.person or seat.spec

    def held(self, player: int) -> float | None:
        """The seconds left of the grace period of ``player``'s seat, held for its player who
        lost the connection during a match (None: not held)."""
        seat = self.seats[player]
        if seat.holder is not None or seat.gone_since is None or not self.network or self.over() or self.waiting:
            return None
        return max(0.0, round(self.hub.config.grace - (time.monotonic() - seat.gone_since), 1))

    def to_move(self) -> int | None:
        """The player to move, or None when the game is over."""
        return None if self.over() else self.game.to_move(self.state)

    def broadcast(self, request_from: Client | None = None, request_id: Any = None) -> None:
        """Send the state to every client of the game (the requester's copy carries its id)."""
        self.hub.broadcast(self, request_from, request_id)

    # --- side lines (variations) -------------------------------------------------

    def line_states(self, line: int | None) -> list:
        """The positions along the main line (``None``) or side line ``line``, from the start."""
        return self.lines.states_of(line)

    def _check_lines_allowed(self, client: Client | None, what: str) -> None:
        self.check_steer(client, what)
        self._check_study_allowed(what)

    def branch(self, client: Client | None, ply: Any, text: Any, line: Any = None) -> tuple[int | None, int]:
        """Play ``text`` in the position after ``ply`` moves of the main line (``line`` None)
        or of side line ``line``: a new side line, or one more move of ``line`` at its end; a
        move already there (the main line's, a side line's) is followed, not copied.  Returns
        the line and ply of the position reached."""
        self._check_lines_allowed(client, "branch")
        return self.lines.branch(ply, text, line)

    def promote(self, client: Client | None, line: Any, request_id: Any = None) -> None:
        """Make side line ``line`` the main line; the main line's moves it replaces become a side line."""
        self._check_lines_allowed(client, "promote")
        self.lines.line(line)
        if self.forced_result is not None:
            raise ProtocolError("game_over", "promote: the game has ended by its result, its moves stay", "promote")
        self.cancel_thinking()
        self.lines.promote(line)
        self.redo_stack.clear()
        self.last_move_time = time.monotonic()
        self.after_change(client, request_id)

    def delete_line(self, client: Client | None, line: Any, request_id: Any = None) -> None:
        """Forget side line ``line``."""
        self._check_lines_allowed(client, "delete")
        self.lines.delete(line)
        self.broadcast(client, request_id)

    # --- moves ------------------------------------------------------------------

    def play(
        self, move, requester: Client | None = None, request_id: Any = None, prepared: float | None = None
    ) -> None:
        """Play a legal move (any player), then go on: clocks, end of game, the next AI turn.
        ``prepared``: an AI's move, and the seconds its engine's preparation took (not its
        thinking: its clock does not count them); an AI's move that came too late loses on time."""
        mover = self.game.to_move(self.state)
        if self.clock is not None:
            late = self.clock.charge(mover, prepared or 0.0)
            if late is not None and prepared is not None:
                self._out_of_time(mover, late)
                return
        self.lines.push(move)
        self.last_move_time = time.monotonic()
        self.after_change(requester, request_id)

    def after_change(self, requester: Client | None = None, request_id: Any = None) -> None:
        """Bring everything in line with a new position: the end of the game, the clock, the
        journal, the next AI move, and tell every client."""
        if self.over():
            self.finish()
        else:
            if self.clock is not None and not self.waiting:
                self._run_clock()
            self.hub.journal.update()
            self.schedule()
        self.broadcast(requester, request_id)

    def human_move(self, client: Client, text: str, request_id: Any) -> None:
        """A move sent by a client."""
        if self.over():
            raise ProtocolError("game_over", "the game is over: no move is legal", "move")
        mover = self.game.to_move(self.state)
        if mover not in client.seats:
            raise ProtocolError(
                "not_your_turn",
                f"it is {self.names()[mover]}'s turn, not yours (you play {self._seats_text(client)})",
                "move",
            )
        if self.seats[mover].kind == "ai":
            raise ProtocolError("not_your_turn", f"{self.names()[mover]} is an AI: it moves by itself", "move")
        if self.waiting:
            raise ProtocolError(
                "refused", f"the game starts when the remote player has joined (game id {self.id})", "move"
            )
        try:
            move = self.game.parse_move(self.state, str(text))
        except IllegalMove as e:
            raise ProtocolError("illegal", str(e), "move") from None
        self.redo_stack.clear()
        self.play(move, client, request_id)

    def may_steer(self, client: Client | None) -> bool:
        """Whether ``client`` may pause, resume, step, change settings, undo, redo or resign:
        a player of one of the game's seats or its creator; watchers only watch."""
        return client is None or bool(client.seats) or client in self.creators

    def check_steer(self, client: Client | None, what: str) -> None:
        """Refuse ``what`` to a watcher (see :meth:`may_steer`)."""
        if not self.may_steer(client):
            raise ProtocolError(
                "not_allowed",
                f"{what}: you are watching this game; only its players and the one who created it may do that",
                what,
            )

    def _seats_text(self, client: Client) -> str:
        if not client.seats:
            return "no seat: you are watching"
        return " and ".join(self.game.player_name(p) for p in client.seats)

    # --- undo / redo --------------------------------------------------------------

    def can_undo(self, client: Client | None) -> bool:
        """Whether undo would take anything back for ``client``."""
        if client is None or self.strict or self.forced_result is not None:
            return False
        return self._undo_point(client) is not None

    def _undo_point(self, client: Client) -> int | None:
        """The index of the last move made by one of ``client``'s human seats."""
        mine = {p for p in client.seats if self.seats[p].kind == "human"}
        for i in range(len(self.record.moves) - 1, -1, -1):
            if self.game.to_move(self.states[i]) in mine:
                return i
        return None

    def undo(self, client: Client, request_id: Any = None) -> None:
        """Take back moves through the last one a human of ``client`` made (the AI's whole
        turn included); they can be redone."""
        self.check_steer(client, "undo")
        self._check_study_allowed("undo")
        if self.forced_result is not None:
            raise ProtocolError(
                "game_over", f"the game ended ({self.forced_result['reason']}): nothing to undo", "undo"
            )
        point = self._undo_point(client)
        if point is None:
            raise ProtocolError("refused", "nothing to undo: no move of yours yet", "undo")
        taken = []
        while len(self.record.moves) > point:
            taken.append(self.lines.pop())
        self.redo_stack.append(list(reversed(taken)))
        self.cancel_thinking()
        self.after_change(client, request_id)

    def redo(self, client: Client, request_id: Any = None) -> None:
        """Play again the moves the last undo took back."""
        self.check_steer(client, "redo")
        self._check_study_allowed("redo")
        if not self.redo_stack:
            raise ProtocolError("refused", "nothing to redo", "redo")
        chunk = self.redo_stack.pop()
        self.cancel_thinking()
        for move in chunk:
            if self.over():
                break
            self.lines.push(move)
        self.last_move_time = time.monotonic()
        self.after_change(client, request_id)

    def _check_study_allowed(self, what: str) -> None:
        if self.strict and not self.over():
            raise ProtocolError(
                "refused", f"{what} is not allowed during a match with a remote player or a clock", what
            )

    # --- AI turns ----------------------------------------------------------------------

    def start_clock(self) -> None:
        """Start the clock of the player to move, once the game has started (not yet running)."""
        if self.clock is not None and self.clock.running is None and not self.over() and not self.waiting:
            self._run_clock()

    def _run_clock(self) -> None:
        """Start the clock of the player to move, unless it is an AI of the compiled engine while
        the server warms the engine up (:meth:`start_clock` then, when it is ready); such an AI's
        flag waits :data:`ENGINE_PATIENCE` for a move its engine's preparation delayed."""
        assert self.clock is not None  # called only for a game with a clock
        mover = self.game.to_move(self.state)
        seat = self.seats[mover]
        engine_ai = seat.kind == "ai" and seat.engine
        if engine_ai and not self.hub.engine_ready:
            return
        self.clock.start(mover, self._out_of_time, ENGINE_PATIENCE if engine_ai else 0.0)

    def cancel_thinking(self) -> None:
        """Abandon a search under way (its answer will be ignored)."""
        self.generation += 1
        self.thinking = None
        if self.think_task is not None:
            self.think_task.cancel()
            self.think_task = None

    def schedule(self) -> None:
        """Start the AI's search if an AI is to move (and the game is neither paused nor idle)."""
        if self.over() or self.think_task is not None or self.waiting or not self.clients and not self.network:
            return
        mover = self.game.to_move(self.state)
        seat = self.seats[mover]
        if seat.kind != "ai":
            return
        if self.paused and not self.step_pending:
            return
        self.generation += 1
        if seat.table:
            self.hub.want_table(self.game)
        self.thinking = {"player": mover, "spec": seat.spec, "since": time.monotonic(), **self.hub.expectation(seat)}
        self.think_task = asyncio.get_running_loop().create_task(self._think(self.generation, mover))

    async def _think(self, generation: int, mover: int) -> None:
        seat = self.seats[mover]
        try:
            move, memory, prepared = await self.hub.run(
                analysis.think_prepared,
                seat.engine,
                self.game_spec,
                self.state,
                seat.spec,
                seat.memory,
                f"{self.id}/{mover}",
                affinity=None if seat.portable else f"{self.id}/{mover}",
                urgent=not self.all_ai,
                reply=not self.all_ai,
                owner=self.owner,
            )
            if generation != self.generation:
                return
            seat.memory = memory
            wait = self.last_move_time + self.move_delay - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if generation != self.generation:
                return
        except asyncio.CancelledError:
            return
        except Exception as e:  # a bug or a dead worker: report it, keep the server going
            log.exception("AI move failed in game %s", self.id)
            if generation == self.generation:
                self.thinking = None
                self.think_task = None
                self.paused = True
                for client in list(self.clients):
                    client.send(
                        error(
                            "internal",
                            f"the AI {seat.spec} failed ({type(e).__name__}: {e}); "
                            f"the game is paused: send resume to try again",
                        )
                    )
                self.broadcast()
            return
        self.thinking = None
        self.think_task = None
        self.step_pending = False
        if move not in self.game.legal_moves(self.state):
            log.error("AI %s chose an illegal move %s in game %s", seat.spec, move, self.id)
            self.forfeit(mover, "illegal", "chose an illegal move")
            return
        self.play(move, prepared=prepared)

    def pause(self, on: bool, client: Client | None = None, request_id: Any = None) -> None:
        """Pause (at once: a search under way is abandoned) or resume an AI-vs-AI game."""
        self.check_steer(client, "pause" if on else "resume")
        if not self.all_ai and (on or not self.paused):
            raise ProtocolError(
                "refused",
                "pause, resume and step are for games between two AIs (resume also restarts an AI whose move failed)",
                "pause" if on else "resume",
            )
        self.paused = on
        self.step_pending = False
        if on:
            self.cancel_thinking()
        else:
            self.schedule()
        self.broadcast(client, request_id)

    def step(self, client: Client | None = None, request_id: Any = None) -> None:
        """Play one AI move of a paused AI-vs-AI game."""
        self.check_steer(client, "step")
        if not self.all_ai:
            raise ProtocolError("refused", "step is for games between two AIs", "step")
        if not self.paused:
            raise ProtocolError("refused", "step works while the game is paused", "step")
        if self.over():
            raise ProtocolError("game_over", "the game is over", "step")
        self.step_pending = True
        self.schedule()
        self.broadcast(client, request_id)

    # --- the end -------------------------------------------------------------------

    def resign(self, client: Client, request_id: Any = None) -> None:
        """The client's player resigns (the one to move among its seats, else its first)."""
        if self.over():
            raise ProtocolError("game_over", "the game is already over", "resign")
        self.check_steer(client, "resign")
        if not client.seats:
            raise ProtocolError(
                "refused",
                "resign: you hold no seat of this game (an AI-vs-AI game ends when you leave it or start another)",
                "resign",
            )
        mover = self.game.to_move(self.state)
        loser = mover if mover in client.seats else client.seats[0]
        self.record.ending = Ending("resign", loser, "resigned")
        self.cancel_thinking()
        self.finish()
        self.broadcast(client, request_id)

    def forfeit(self, loser: int, reason: str, why: str) -> None:
        """``loser`` loses by ``reason`` (``time``, ``disconnect``, ``illegal``); ``why`` says
        what happened after the loser's name (``ran out of time (3 s per move)``)."""
        if self.over():
            return
        self.record.ending = Ending(reason, loser, why)
        self.cancel_thinking()
        self.finish()
        self.broadcast()

    def finish(self) -> None:
        """The game has ended: stop the clock, write the result, update the journal."""
        if self.clock is not None:
            self.clock.stop()
        self.thinking = None
        if self.ended is None:
            self.ended = _now_iso()
        if not self.written:
            self.written = self.in_results = True
            self.hub.journal.write_result(self.id, self.record_json(for_results=True))
        self.hub.journal.update()

    def record_json(self, for_results: bool = False) -> dict:
        """The game record (``mancala play --save``'s format); remote seats are saved as
        ``human`` so that ``mancala play --load`` can resume the game."""
        self.record.people = [s.person if s.kind != "ai" else None for s in self.seats]
        data = self.record.to_json()
        data["players"] = ["human" if s.kind == "remote" else s.spec for s in self.seats]
        if for_results:
            result = self.result() or {}
            data["result"].update({k: result.get(k) for k in ("winner", "reason", "text")})
            if result.get("reason") not in (None, "rules", "draw_limit"):
                data["result"]["finished"] = True
                data["result"]["score"] = result["score"]
            data["server"] = {
                "game_id": self.id,
                "started": self.started,
                "ended": self.ended,
                "seats": [
                    {"spec": s.spec, "kind": s.kind, "client": s.client_name, "name": s.person} for s in self.seats
                ],
                "clock": self.clock.view(None) if self.clock else None,
            }
        return data

    # --- clients -------------------------------------------------------------------

    def attach(self, client: Client, seats: list[int]) -> None:
        """``client`` now follows this game and plays ``seats``."""
        self.clients.add(client)
        client.session = self
        client.seats = sorted(seats)
        for p in seats:
            seat = self.seats[p]
            seat.holder = client
            seat.gone_since = None
            if client.name:
                seat.client_name = client.name
            if client.person and len(seats) == 1 and not self.over():  # (a hot seat's two seats stay unnamed)
                seat.person = client.person
        if self.free_handle is not None:
            self.free_handle.cancel()
            self.free_handle = None
        self.schedule()

    def detach(self, client: Client, leaving: bool) -> None:
        """``client`` left (``leaving``: on purpose, else its connection dropped)."""
        self.clients.discard(client)
        self.creators.discard(client)
        for p in client.seats:
            seat = self.seats[p]
            if seat.holder is client:
                seat.holder = None
                seat.gone_since = time.monotonic()
                if self.network and not self.over() and not self.waiting:
                    loop = asyncio.get_running_loop()
                    loop.call_later(self.hub.config.grace, self._grace_over, p, seat.gone_since)
        client.session = None
        client.seats = []
        if not self.clients:
            self.cancel_thinking()
            if not self.network or self.over() or self.waiting:  # a match under way waits for its players
                delay = 0 if leaving else self.hub.config.idle_grace
                loop = asyncio.get_running_loop()
                self.free_handle = loop.call_later(delay, self.hub.free, self)
        self.broadcast()

    def _out_of_time(self, player: int, why: str) -> None:
        self.forfeit(player, "time", why)

    def _grace_over(self, player: int, since: float) -> None:
        seat = self.seats[player]
        if seat.holder is None and seat.gone_since == since and not self.over() and self.id in self.hub.sessions:
            self.forfeit(player, "disconnect", f"did not come back within {self.hub.config.grace:g} s")
            if not self.clients:
                self.hub.free(self)

    def seats_for_token(self, token: str) -> list[int]:
        """The seats a resume token reclaims."""
        return [p for p, s in enumerate(self.seats) if s.token and secrets.compare_digest(s.token, token)]

    def summary(self) -> dict:
        """This game in a ``games`` listing."""
        return {
            "game_id": self.id,
            "game": game_spec(self.game),
            "players": [s.spec for s in self.seats],
            "seats_free": [
                p for p, s in enumerate(self.seats) if s.kind == "remote" and s.holder is None and s.gone_since is None
            ],
            "moves": len(self.record.moves),
            "finished": self.over(),
        }


def _seat(spec: str, game: Game) -> Seat:
    """A seat from a player spec (``remote`` or any :func:`make_player` spec)."""
    if not isinstance(spec, str):
        raise BadInput(f"a player is given by a spec string, got {spec!r}")
    if spec.strip().lower() == "remote":
        return Seat("remote", "remote")
    player = make_player(spec)
    if isinstance(player, HumanPlayer):
        return Seat("human", "human")
    check_game = getattr(player, "check_game", None)
    if callable(check_game):  # a player that plays only some games (OpenSpiel's) says so now, not at its move
        check_game(game)
    depth = getattr(player, "depth", 0)
    limit = MAX_AI_DEPTH[getattr(player, "algorithm", "alphabeta")] if isinstance(player, SearchPlayer) else None
    if limit is not None and depth > limit:
        raise BadInput(
            f"player {spec!r}: this server searches {getattr(player, 'algorithm', '')} to depth {limit} at most"
        )
    if isinstance(player, BestPlayer):
        # a depth or node budget is the player's bound (its clock is then unlimited); else its time
        if player.depth is None and player.nodes is None and player.seconds > MAX_AI_SECONDS:
            raise BadInput(f"player {spec!r}: this server gives an AI at most {MAX_AI_SECONDS:g} s a move")
        if (player.depth or 0) > MAX_BEST_DEPTH or (player.nodes or 0) > MAX_BEST_NODES:
            raise BadInput(
                f"player {spec!r}: this server's best player searches at most {MAX_BEST_DEPTH} turns "
                f"deep and {MAX_BEST_NODES:,} nodes a move"
            )
    return Seat(
        player.spec,
        "ai",
        memory=player_memory(player),
        portable=is_portable(player),
        engine=uses_engine(player, game),
        table=uses_table(player, game),
        budget=expected_seconds(player, game),
        limit=wall_budget(player, game),
        game=game.name,
    )


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def build_game(spec: Any, options: Any) -> Game:
    """The game a ``create``/``new`` asks for; raises BadInput."""
    spec = spec or "kalah"
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadInput("options must be an object of rule options")
    clean = {}
    for key, value in options.items():
        if value is None or value == "":
            continue
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        clean[str(key).replace("-", "_")] = str(value).lower() if isinstance(value, bool) else str(value)
    game = make_game(spec, **clean)
    laps = getattr(getattr(game, "rules", None), "max_laps", None)  # a never-ending move's cap (Bao)
    if laps is not None and not 0 < laps <= MAX_BAO_LAPS:
        raise BadInput(f"the server plays {game.name} with max_laps from 1 to {MAX_BAO_LAPS}, got {laps}")
    return game
