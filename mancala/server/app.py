"""The one server: a Starlette ASGI app serving the board page, a few GET endpoints for
the new-game form, and the WebSocket every client (browser, remote agent) speaks the
protocol of ``docs/protocol.md`` on.

    app = create_app(ServerConfig(...))      # run with uvicorn
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import secrets
import weakref
from enum import Enum
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from mancala import analysis
from mancala.analysis import (
    ANALYSIS_SECONDS,
    REVIEW_SECONDS,
    Table,
    analysis_of,
    budget,
    explore,
    hint_of,
    review_of,
    review_positions,
    top_positions,
)
from mancala.analysis.values import position_key
from mancala.errors import BadInput, IllegalMove, echo
from mancala.games import CATALOGUE, make_game
from mancala.games.base import Game, position_options, position_string
from mancala.players import LEVEL_SECONDS, LEVELS, PLAYER_KINDS, kind_available, player_choices
from mancala.record import MAX_RECORD_BYTES, record_from_game_text, record_from_json, record_text
from mancala.server.answers import SharedAnswers
from mancala.server.config import ServerConfig
from mancala.server.hub import Hub
from mancala.server.protocol import MAX_MESSAGE_BYTES, Message, ProtocolError, encode, error, message, parse
from mancala.server.session import DEFAULT_PLAYERS, Client, GameSession, build_game
from mancala.server.state import state_message
from mancala.server.views import board_view, last_view, legal_view, traits_view
from mancala.server.workers import WorkerLimit

log = logging.getLogger("mancala.server")

#: the board page and its files (written by the web board work)
STATIC = Path(__file__).resolve().parent.parent / "ui" / "web" / "static"
#: frames over this size are refused by the WebSocket layer itself (connection closed, 1009)
HARD_FRAME_LIMIT = 1024 * 1024

NO_PAGE = """<!doctype html><meta charset="utf-8"><title>mancala</title>
<p>The mancala server is running, but the board page is not installed
(<code>mancala/ui/web/static/index.html</code> is missing). Clients can connect to
<code>/ws</code>; see <code>docs/protocol.md</code>.</p>"""


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The ASGI app with its own :class:`Hub` (games, workers, files)."""
    hub = Hub(config)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    routes = [
        Route("/", index),
        Route("/api/games", api_games),
        Route("/api/players", api_players),
        Route("/api/status", api_status),
        Route("/api/results", api_results),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(HostCheck, hosts=hub.config.hosts)])
    app.state.hub = hub
    return app


def host_name(header: str) -> str:
    """The host name of a ``Host`` header (``[::1]:8000`` -> ``::1``), lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """Refuse every HTTP and WebSocket request whose ``Host`` header names a host the server
    does not answer to: a page of another site whose name was rebound to this machine's
    address (DNS rebinding) sends its own name there, and is turned away before anything
    runs (HTTP 421; a WebSocket handshake gets 403)."""

    def __init__(self, app, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = {h.lower().strip("[]") for h in hosts}

    def allowed(self, scope) -> bool:
        """Whether the request of ``scope`` names one of the server's hosts."""
        if "*" in self.hosts:
            return True
        header = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
        return host_name(header) in self.hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket") or self.allowed(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
            return
        response = PlainTextResponse(
            "this server does not answer to that host name (Host header); open it by its own address", status_code=421
        )
        await response(scope, receive, send)


# --- HTTP ---------------------------------------------------------------------------------


async def index(request: Request):
    """The board page."""
    page = STATIC / "index.html"
    if page.is_file():
        return FileResponse(page, headers={"Cache-Control": "no-cache"})
    return HTMLResponse(NO_PAGE)


def _option_list(rules_class, start_text: str) -> list[dict]:
    out = []
    for f in dataclasses.fields(rules_class):
        default = f.default
        entry: dict[str, Any] = {"name": f.name}
        if isinstance(default, Enum):
            entry.update(kind="choice", values=[e.value for e in type(default)], default=default.value)
        elif isinstance(default, bool):
            entry.update(kind="bool", default=default)
        elif isinstance(default, int):
            entry.update(kind="int", default=default)
        elif isinstance(default, tuple):  # a list of whole numbers (Oware's capture_counts)
            entry.update(kind="numbers", default=list(default))
        else:
            entry.update(kind="positions", default=None, placeholder=start_text)
        out.append(entry)
    return out


async def api_games(request: Request):
    """Games, their rule options and presets, for the new-game form."""
    games = []
    for info in CATALOGUE.values():
        sample = info.make({})
        entry = {
            "name": info.name,
            "title": info.title,
            "text": info.text,
            "sides": [sample.player_name(0), sample.player_name(1)],
            **traits_view(info.name),
            "options": _option_list(info.rules, info.start_text) if info.rules is not None else [],
            "presets": {name: rules.to_dict() for name, rules in info.presets.items()},
        }
        if info.default_preset is not None:
            entry["default_preset"] = info.default_preset
        games.append(entry)
    return JSONResponse({"games": games})


@functools.cache
def _games_played(spec: str) -> dict[str, Any]:
    """``{"games": {game: [presets]}}``: the games and presets a player kind that plays only
    some games (OpenSpiel's) can play, so the new-game form offers it for those only; empty
    for a kind that plays every game."""
    kind = PLAYER_KINDS.get(spec.split(":", 1)[0])
    if kind is None or kind.plays is None:
        return {}
    games: dict[str, list[str]] = {}
    for info in CATALOGUE.values():
        presets = [
            p for p in info.presets or [""] if kind.plays(make_game(f"{info.name}(preset={p})" if p else info.name))
        ]
        if presets:
            games[info.name] = presets
    return {"games": games}


async def api_players(request: Request):
    """Player kinds and levels, as ``make_player`` takes them."""
    kinds = [
        {"kind": k.name, "spec": k.spec, "options": list(k.options), "text": k.text}
        for k in PLAYER_KINDS.values()
        if kind_available(k) and not k.level
    ]
    kinds.insert(
        1,
        {
            "kind": "remote",
            "spec": "remote",
            "options": [],
            "text": "a seat for another client (a remote agent or a second browser) to join",
        },
    )
    kinds.insert(
        2,
        {
            "kind": "level",
            "spec": "medium",
            "options": [],
            "text": "the AI at a difficulty level, weakest first: " + ", ".join(LEVELS),
        },
    )
    levels = {name: {**lv.specs, "seconds": LEVEL_SECONDS[name]} for name, lv in LEVELS.items()}
    choices = [{"spec": spec, "label": label, **_games_played(spec)} for spec, label in player_choices()]
    choices += [
        {"spec": "remote", "label": "Another client (remote seat)"},
        {"spec": "custom", "label": "Other player spec…"},
    ]
    return JSONResponse({"kinds": kinds, "levels": levels, "choices": choices, "default": DEFAULT_PLAYERS})


async def api_status(request: Request):
    """Is the engine ready, how many games run."""
    hub: Hub = request.app.state.hub
    return JSONResponse(
        {"engine": "ready" if hub.engine_ready else "preparing", "games": len(hub.sessions), "protocol": 1}
    )


async def api_results(request: Request):
    """Finished and interrupted games in the results folder."""
    hub: Hub = request.app.state.hub
    if hub.config.token and not _token_ok(hub, request.query_params.get("token")):
        return JSONResponse({"error": "a token is required: add ?token=..."}, status_code=401)
    return JSONResponse({"results": hub.journal.results(), "interrupted": hub.interrupted})


# --- WebSocket ----------------------------------------------------------------------------------


def origin_allowed(headers, config: ServerConfig) -> bool:
    """Browsers may only connect from a page of this server (or an allowed origin);
    clients that send no Origin (agents) are let in."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in config.allow_origins or "*" in config.allow_origins:
        return True
    host = headers.get("host", "")
    parts = urlsplit(origin)
    return bool(parts.netloc) and parts.netloc.lower() == host.lower()


def _token_ok(hub: Hub, token: Any) -> bool:
    """Whether ``token`` is the server's token (anything but a string is not; any token
    is when the server needs none)."""
    expected = hub.config.token
    if not expected:
        return True
    # surrogatepass: a JSON string may hold a lone surrogate ("\ud800"), a wrong token, not a crash
    return isinstance(token, str) and secrets.compare_digest(
        token.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client connection: read, check and act on its messages until it goes."""
    hub: Hub = websocket.app.state.hub
    if not origin_allowed(websocket.headers, hub.config):
        await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
        return
    await websocket.accept()
    queue: asyncio.Queue = asyncio.Queue()
    closing: list = []
    tasks: dict[str, asyncio.Task] = {}

    def send(msg: dict) -> None:
        if closing:
            return
        if queue.qsize() >= hub.config.max_queue:
            # a slow reader: stop writing to it at once (the writer may be stuck on it)
            closing.append((4408, "slow reader: too many messages unread"))
            for task in tasks.values():
                task.cancel()
            return
        try:
            text = encode(msg)
        except (TypeError, ValueError) as e:  # a bug: say so rather than lose the connection
            log.error("cannot encode %.200r: %s", msg, e)
            text = encode(error("internal", f"the server could not write its answer ({e})", msg.get("type")))
        queue.put_nowait(text)

    def close(code: int, reason: str) -> None:
        if not closing:
            closing.append((code, reason))
            queue.put_nowait(None)

    address = websocket.client.host if websocket.client else "unknown"
    client = Client(hub, address, send, close)
    hub.clients.add(client)

    async def writer() -> None:
        while True:
            text = await queue.get()
            if text is None:
                return
            await websocket.send_text(text)

    async def reader() -> None:
        while not closing:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None:
                send(error("bad_json", "binary frames are not read: send JSON as text frames"))
                continue
            await handle_frame(hub, client, text)

    loop = asyncio.get_running_loop()
    tasks["reader"] = loop.create_task(reader())
    tasks["writer"] = loop.create_task(writer())
    try:
        done, _ = await asyncio.wait(tasks.values(), return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                log.debug("connection ended: %r", task.exception())
    finally:
        for task in tasks.values():
            task.cancel()
        for task in list(client.tasks):
            task.cancel()
        if client.session is not None:
            client.session.detach(client, leaving=False)
        hub.clients.discard(client)
        hub.subscribe_lobby(client, False)
        if closing:
            code, reason = closing[0]
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(code=code, reason=reason), 2)


async def handle_frame(hub: Hub, client: Client, text: str) -> None:
    """Parse and act on one frame; every failure becomes an ``error`` event."""
    msg: Message | None = None
    try:
        msg = parse(text)
        await dispatch(hub, client, msg)
    except ProtocolError as e:
        client.send(
            error(
                e.code,
                e.message,
                e.about or (msg.type if msg else None),
                e.request_id if e.request_id is not None else (msg.id if msg else None),
            )
        )
        if e.code == "bad_token":
            client.close(4401, "bad token")
    except IllegalMove as e:
        client.send(error("illegal", str(e), msg.type if msg else None, msg.id if msg else None))
    except BadInput as e:
        client.send(error("bad_request", str(e), msg.type if msg else None, msg.id if msg else None))
    except Exception as e:  # a bug: this message fails, the connection and the server go on
        log.exception("message failed: %.200s", text)
        client.send(
            error(
                "internal",
                f"the server failed on this message ({type(e).__name__}); the game goes on",
                msg.type if msg else None,
                msg.id if msg else None,
            )
        )


async def dispatch(hub: Hub, client: Client, msg: Message) -> None:
    """Act on one checked message: hello first, then the handler of its type (:data:`HANDLERS`
    for messages about no game in particular, :data:`GAME_HANDLERS` for the client's game)."""
    kind = msg.type
    if kind != "hello" and not client.greeted:
        raise ProtocolError("hello_first", 'send hello first: {"v": 1, "type": "hello"}', kind, msg.id)
    if kind in HANDLERS:
        HANDLERS[kind](hub, client, msg)
        return
    session = client.session
    if session is None:
        raise ProtocolError("no_game", f"{kind} needs a game: create, join or watch one first", kind, msg.id)
    handler = GAME_HANDLERS.get(kind)
    if handler is None:
        raise ProtocolError("unknown_type", f"message type {kind!r} is not handled", kind, msg.id)
    handler(hub, client, session, msg)


def _hello(hub: Hub, client: Client, msg: Message) -> None:
    if not _token_ok(hub, msg.get("token")):
        raise ProtocolError(
            "bad_token",
            "a valid token is required by this server (ask its operator; "
            "the page takes it from ?token= in its address)",
            "hello",
            msg.id,
        )
    history = msg.get("history", "full")
    if history not in ("full", "delta"):
        raise ProtocolError(
            "bad_request",
            f'hello: history must be "full" (every state carries the whole move list) or "delta" '
            f"(only the moves not sent before), got {history!r}",
            "hello",
            msg.id,
        )
    client.greeted = True
    client.name = str(msg.get("client", ""))[:80] or None
    client.person = msg.get("name") or client.person
    client.delta_history = history == "delta"
    client.history_sent = None
    client.send(hub.welcome(msg.id))


def _ping(hub: Hub, client: Client, msg: Message) -> None:
    client.send(message("pong", msg.id))


def _list(hub: Hub, client: Client, msg: Message) -> None:
    client.send(
        message("games", msg.id, games=[s.summary() for s in hub.sessions.values()], interrupted=hub.interrupted)
    )


def _lobby(hub: Hub, client: Client, msg: Message) -> None:
    subscribe = msg.get("subscribe")
    if subscribe is not None:
        hub.subscribe_lobby(client, subscribe)
    client.send(message("lobby", msg.id, games=hub.lobby()))


def _name(hub: Hub, client: Client, msg: Message) -> None:
    """The person at this connection gives (or changes) their name: it goes on the seat they
    play in a game under way (a hot seat's two seats stay unnamed)."""
    client.person = msg.get("name")
    client.send(message("named", msg.id, name=client.person))
    session = client.session
    if session is not None and len(client.seats) == 1 and not session.over():
        session.seats[client.seats[0]].person = client.person
        session.broadcast()


def _leave(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    session.detach(client, leaving=True)
    client.send(message("left", msg.id))


def _settings(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    session.check_steer(client, "settings")
    delay = msg.get("move_delay")
    if delay is not None:
        session.move_delay = _clamp(delay, 0.0, 10.0)
    session.broadcast(client, msg.id)


def _save(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    kind = msg.get("as") or "record"
    if kind not in ("record", "text"):
        raise ProtocolError("bad_request", f"save as 'record' or 'text', not {echo(kind)}", "save", msg.id)
    record = session.record_json()
    if kind == "text":  # the moves as people copy them (the game's own file format where it has one)
        text = record_text(record_from_json(record, "the game"))
        client.send(message("record", msg.id, text=text, filename=f"{session.game.name}-{session.id}.txt"))
        return
    client.send(message("record", msg.id, record=record, filename=f"{session.game.name}-{session.id}.json"))


def _view(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    _send_view(client, session, msg.get("ply"), msg.get("line"), msg.id)


def _send_view(client: Client, session: GameSession, ply: Any, line: Any, request_id: Any) -> None:
    """The ``view`` of the position after ``ply`` moves of the main line or of side line
    ``line``; with its legal moves when ``client`` may try moves there (a side line)."""
    states = session.line_states(line)
    start, moves = (len(session.record.moves), []) if line is None else session.record.variations[line]
    along = list(session.record.moves[:start]) + list(moves) if line is not None else list(session.record.moves)
    last_ply = len(states) - 1
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= last_ply:
        raise ProtocolError("bad_request", f"view: ply must be 0-{last_ply}, got {ply}", "view", request_id)
    state = session.states[ply] if line is None else states[ply]
    last = last_view(session.game, states[ply - 1], along[ply - 1], state, ply) if ply else None
    over = session.game.is_terminal(state)
    mover = None if over else session.game.to_move(state)
    may_try = session.may_steer(client) and not (session.strict and not session.over())
    current = line is None and ply == len(session.record.moves)
    client.send(
        message(
            "view",
            request_id,
            ply=ply,
            line=line if line is not None and ply > start else None,
            board=board_view(session.game, state),
            to_move=mover,
            last=last,
            text=session.game.render(state),
            position=position_string(session.game, state),
            legal=legal_view(session.game, state) if may_try and not over and not current else [],
        )
    )


def _branch(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    line, ply = session.branch(client, msg.get("ply"), msg.get("move"), msg.get("line"))
    session.broadcast()  # the move tree changed: every client redraws it
    _send_view(client, session, ply, line, msg.id)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, float(value)))


def _players(msg: Message, default: list[str]) -> list[str]:
    players = msg.get("players", default)
    if len(players) != 2 or not all(isinstance(p, str) and 0 < len(p) <= 80 for p in players):
        raise ProtocolError(
            "bad_request",
            f'{msg.type}: players must be a list of two player specs, e.g. ["human", "medium"]',
            msg.type,
            msg.id,
        )
    return players


def _switch(
    client: Client, session: GameSession, seats: list[int], request_id: Any = None, creator: bool = False
) -> None:
    """Attach ``client`` to ``session`` (leaving its previous game) and tell it so; the
    ``creator`` of a game gets its resume token even without a seat (an AI-vs-AI game)."""
    old = client.session
    if old is not None and old is not session:
        old.detach(client, leaving=True)
    token = next((session.seats[p].token for p in seats if session.seats[p].token), None)
    if token is None and creator:
        token = session.creator_token
    if creator:
        session.creators.add(client)
    client.history_sent = None  # its next state carries the whole move list
    session.attach(client, seats)
    client.send(
        message(
            "joined",
            request_id,
            game_id=session.id,
            seats=sorted(seats),
            resume=token,
            role="player" if seats or creator else "watcher",
        )
    )


def _in_match(client: Client, what: str, request_id: Any) -> None:
    """Refuse ``what`` to a player of a match under way (it would walk out of it)."""
    old = client.session
    if old is not None and old.strict and not old.over() and client.seats:
        raise ProtocolError(
            "refused", f"{what}: you are playing a match (game {old.id}); resign or leave it first", what, request_id
        )


def _create(hub: Hub, client: Client, msg: Message) -> None:
    client.person = msg.get("name") or client.person
    if msg.type == "new":
        _in_match(client, "new", msg.id)
    old = client.session
    if msg.type == "new" and old is not None:
        game = build_game(msg.get("game"), msg.get("options")) if msg.get("game") else old.game
        specs = _players(msg, [s.spec for s in old.seats])
        clock = msg.get("clock")
        if clock is None and old.clock is not None:
            clock = {"move": old.clock.per_move, "game": old.clock.per_game}
        delay = msg.get("move_delay", old.move_delay)
    else:
        game = _game_at(msg) if msg.get("position") is not None else build_game(msg.get("game"), msg.get("options"))
        specs = _players(msg, DEFAULT_PLAYERS)
        clock = msg.get("clock")
        delay = msg.get("move_delay")
    if delay is not None:
        delay = _clamp(delay, 0.0, 10.0)
    session = hub.create(client, game, specs, clock, delay)
    _switch(client, session, [p for p, s in enumerate(session.seats) if s.kind == "human"], msg.id, True)
    session.start_clock()
    hub.journal.update()
    client.send(state_message(session, client, msg.id))
    hub.lobby_changed()


def _game_at(msg: Message) -> Game:
    """The game a ``create`` with a ``position`` asks for: its rules (``game``, ``options``)
    starting at that position; one line saying what is wrong with a bad one."""
    text = msg.get("position")
    try:
        name = build_game(msg.get("game"), msg.get("options")).name
        options = dict(msg.get("options") or {})
        options.update(position_options(name, text))
        game = build_game(msg.get("game"), options)
    except BadInput as e:
        shown = text[:60] + "…" if isinstance(text, str) and len(text) > 60 else text
        raise ProtocolError("bad_request", f"cannot open the position {shown!r}: {e}", msg.type, msg.id) from None
    return game


def _load(hub: Hub, client: Client, msg: Message) -> None:
    _in_match(client, "load", msg.id)
    try:
        text = msg.get("text")
        if text is not None and msg.get("record") is None:  # a record kept outside (PlayOK's)
            if len(text) > MAX_RECORD_BYTES:
                raise BadInput(f"the game text is larger than {MAX_RECORD_BYTES // 2**20} MB")
            outside = record_from_game_text(text, "the game text", msg.get("game"))
            if outside is None:
                raise BadInput(
                    "it is not a JSON game record, nor a game file a game here reads (such as PlayOK's Togyz Kumalak files)"
                )
            record = outside
        else:
            record = record_from_json(msg.get("record"), "the game record")
    except BadInput as e:
        raise ProtocolError("bad_record", f"{e}; the current game goes on", "load", msg.id) from None
    specs = ["human" if p.strip().lower() == "remote" else p for p in record.players]
    try:
        session = hub.create(
            client,
            record.game,
            specs,
            None,
            None,
            moves=record.moves,
            variations=record.variations,
            ending=record.ending,
        )
    except BadInput as e:
        raise ProtocolError("bad_record", f"the game record: {e}; the current game goes on", "load", msg.id) from None
    for seat, person in zip(session.seats, record.people):  # the people who played it, by name
        seat.person = person if seat.kind != "ai" else None
    _switch(client, session, [p for p, s in enumerate(session.seats) if s.kind == "human"], msg.id, True)
    session.after_change(client, msg.id)


def _join(hub: Hub, client: Client, msg: Message) -> None:
    client.person = msg.get("name") or client.person
    gid = msg.get("game_id")
    if not isinstance(gid, str):
        raise ProtocolError("no_game", f"no game {gid!r} on this server (send list to see the games)", msg.type, msg.id)
    session = hub.sessions.get(gid)
    if session is None and hub.finished.get(gid) is not None:  # finished and freed: its kept record
        if msg.type != "watch":
            raise ProtocolError("game_over", "that game is over; watch it instead", "join", msg.id)
        session = hub.reopen(gid)
    if session is None:
        raise ProtocolError("no_game", f"{hub.finished.unknown(gid)} (send list to see the games)", msg.type, msg.id)
    if msg.type == "watch":
        _switch(client, session, [], msg.id)
        client.send(state_message(session, client, msg.id))
        return
    resume = msg.get("resume")
    creator = False
    if resume is not None:
        seats = session.seats_for_token(resume)
        creator = secrets.compare_digest(resume.encode(), session.creator_token.encode())
        if not seats and not creator:
            raise ProtocolError(
                "seat_taken", "that resume token does not belong to a seat of this game", "join", msg.id
            )
        for p in seats:
            holder = session.seats[p].holder
            if holder is not None and holder is not client:  # the old connection is still open: replace it
                holder.seats = [s for s in holder.seats if s != p]
    else:
        if session.over():
            raise ProtocolError("game_over", "that game is over; watch it instead", "join", msg.id)
        free = [
            p for p, s in enumerate(session.seats) if s.kind == "remote" and s.holder is None and s.gone_since is None
        ]
        seat = msg.get("seat")
        if seat is not None:
            if seat not in (0, 1):
                raise ProtocolError("bad_request", "join: seat must be 0 or 1", "join", msg.id)
            if seat not in free:
                kind = session.seats[seat].kind
                why = "it is not a remote seat" if kind != "remote" else "someone holds it"
                raise ProtocolError(
                    "seat_taken", f"seat {seat} ({session.names()[seat]}) cannot be joined: {why}", "join", msg.id
                )
        else:
            if not free:
                raise ProtocolError("seat_taken", "that game has no free remote seat; watch it instead", "join", msg.id)
            seat = free[0]
        session.seats[seat].token = secrets.token_urlsafe(16)
        seats = [seat]
    _switch(client, session, seats, msg.id, creator)
    session.start_clock()
    session.schedule()
    session.broadcast(client, msg.id)


#: the most nominal seconds of search one ``review`` asks for in all: a long game's positions
#: each get a smaller budget (at least the least a position may have), a longer one is refused
REVIEW_TOTAL_SECONDS = 300.0
#: the least nominal seconds a review gives a position
REVIEW_LEAST_SECONDS = 0.02


def review_seconds(asked: float, moves: int) -> float:
    """The nominal seconds a review of ``moves`` moves gives each position: ``asked`` (clamped to
    0.02-2 s), less when the whole would be over :data:`REVIEW_TOTAL_SECONDS`; raises
    :class:`ProtocolError` (``limit``) for a game too long to review even at the least."""
    seconds = _clamp(asked, REVIEW_LEAST_SECONDS, 2.0)
    if moves * REVIEW_LEAST_SECONDS > REVIEW_TOTAL_SECONDS:
        raise ProtocolError(
            "limit",
            f"review: {moves:,} moves are more than a review may value ({REVIEW_TOTAL_SECONDS / REVIEW_LEAST_SECONDS:,.0f} "
            f"at {REVIEW_LEAST_SECONDS:g} s a position, {REVIEW_TOTAL_SECONDS:g} s in all); analyse the positions you want",
            "review",
        )
    return min(seconds, REVIEW_TOTAL_SECONDS / max(1, moves))


#: the shared answers of each hub (one server: one hub)
_ANSWERS: "weakref.WeakKeyDictionary[Hub, SharedAnswers]" = weakref.WeakKeyDictionary()


def shared_answers(hub: Hub) -> SharedAnswers:
    """The hub's :class:`SharedAnswers`, made on first use."""
    answers = _ANSWERS.get(hub)
    if answers is None:
        answers = _ANSWERS[hub] = SharedAnswers(hub.run)
    return answers


def _study(hub: Hub, client: Client, session: GameSession, msg: Message) -> None:
    """Hint, analysis, review and tree run in a worker; the answer comes when ready."""
    kind = msg.type
    if kind != "review":
        session._check_study_allowed(kind)
    line = msg.get("line") if kind in ("analyse", "tree", "explore") else None
    states = session.line_states(line)
    ply = msg.get("ply", len(states) - 1)
    if not 0 <= ply <= len(states) - 1:
        raise ProtocolError("bad_request", f"{kind}: ply must be 0-{len(states) - 1}", kind, msg.id)
    state = states[ply]
    game = session.game
    if kind in ("hint", "analyse", "tree", "explore") and game.is_terminal(state):
        raise ProtocolError("game_over", f"{kind}: the game is over in that position: nothing to search", kind, msg.id)
    if kind == "review" and session.strict and not session.over():
        raise ProtocolError("refused", "review is available once the match is over", kind, msg.id)
    if kind == "review" and not session.record.moves:
        raise ProtocolError("refused", "review: no move has been played yet", kind, msg.id)
    if len(client.tasks) >= hub.config.max_requests:
        raise ProtocolError(
            "limit",
            f"{kind}: you already have {len(client.tasks)} requests waiting for their answers, the limit "
            f"per connection; wait for an answer before asking again",
            kind,
            msg.id,
        )
    answers = shared_answers(hub)
    where: dict[str, Any] = {"prefer": f"{session.id}/study", "owner": client, "seconds": hub.config.study_seconds}
    key: tuple[Any, ...]
    compute: Callable[[], Awaitable[dict]]
    if kind == "hint":  # the analysis' table (at least its budget), so the two agree
        nodes = budget(game, max(_clamp(msg.get("seconds", ANALYSIS_SECONDS), 0.05, 10.0), ANALYSIS_SECONDS))

        async def compute() -> dict:
            return hint_of(game, state, await answers.table(game, state, nodes, **where))

    elif kind == "analyse":
        lines = msg.get("lines", 0)
        if not isinstance(lines, int) or isinstance(lines, bool) or not 0 <= lines <= 5:
            raise ProtocolError("bad_request", f"analyse: lines must be 0-5, got {lines!r}", kind, msg.id)
        nodes = budget(game, _clamp(msg.get("seconds", ANALYSIS_SECONDS), 0.05, 10.0))

        async def compute() -> dict:
            table = await answers.table(game, state, nodes, **where)
            children = {}
            for move, child in top_positions(game, state, table, lines).items():
                children[move] = await answers.table(game, child, nodes // 2, **where)
            return analysis_of(game, state, table, lines, children)

    elif kind == "explore":
        key = ("explore", *position_key(game, state))

        async def compute() -> dict:
            return dict(await answers.answer(key, explore, game, state, **where))

    elif kind == "review":
        moves = list(session.record.moves)
        try:
            nodes = budget(game, review_seconds(msg.get("seconds", REVIEW_SECONDS), len(moves)))
        except ProtocolError as e:
            e.request_id = msg.id
            raise

        async def compute() -> dict:
            wanted = review_positions(game, moves, nodes)
            tables: list[Table | None] = [None] * len(wanted)
            for k in range(len(wanted) - 1, -1, -1):  # the last first: Kalah's endgame proofs help the earlier
                position, position_nodes = wanted[k]
                tables[k] = await answers.table(game, position, position_nodes, **where)
            return review_of(game, moves, [position for position, _ in wanted], [t for t in tables if t is not None])

    else:
        depth = msg.get("depth", 3)
        if not 1 <= depth <= analysis.MAX_TREE_DEPTH:
            raise ProtocolError(
                "bad_request", f"tree: depth must be 1-{analysis.MAX_TREE_DEPTH}, got {depth}", kind, msg.id
            )
        algorithm = msg.get("algorithm", "alphabeta")
        if algorithm not in ("alphabeta", "minimax"):
            raise ProtocolError(
                "bad_request", f"tree: algorithm must be alphabeta or minimax, got {algorithm!r}", kind, msg.id
            )
        key = ("tree", *position_key(game, state), depth, algorithm)

        async def compute() -> dict:
            return dict(await answers.answer(key, analysis.tree, game, state, depth, algorithm, **where))

    reply = {"hint": "hint", "analyse": "analysis", "review": "review", "tree": "tree", "explore": "explorer"}[kind]
    extra = {} if kind == "review" else {"ply": ply, "player": game.to_move(state)}
    if line is not None:
        extra["line"] = line

    async def work() -> None:
        try:
            data = await compute()
        except asyncio.CancelledError:
            return
        except ValueError as e:
            client.send(error("bad_request", str(e), kind, msg.id))
            return
        except WorkerLimit as e:  # a request too large for a worker: refused, not a bug
            client.send(
                error("limit", f"{kind}: {e}: ask for less (a smaller depth, budget or position)", kind, msg.id)
            )
            return
        except Exception as e:  # noqa: BLE001
            log.exception("%s failed", kind)
            client.send(error("internal", f"{kind} failed ({type(e).__name__}: {e})", kind, msg.id))
            return
        data.update(extra)
        client.send(message(reply, msg.id, game_id=session.id, **data))

    task = asyncio.get_running_loop().create_task(work())
    client.tasks.add(task)
    task.add_done_callback(client.tasks.discard)


__all__ = ["create_app", "ServerConfig", "MAX_MESSAGE_BYTES", "HARD_FRAME_LIMIT", "origin_allowed"]


#: handlers of the messages about no game in particular (``hello`` is answered before greeting)
HANDLERS: dict[str, Callable[[Hub, Client, Message], None]] = {
    "hello": _hello,
    "ping": _ping,
    "list": _list,
    "lobby": _lobby,
    "name": _name,
    "create": _create,
    "new": _create,
    "load": _load,
    "join": _join,
    "watch": _join,
}

#: handlers of the messages about the client's game
GAME_HANDLERS: dict[str, Callable[[Hub, Client, GameSession, Message], None]] = {
    "leave": _leave,
    "move": lambda hub, client, session, msg: session.human_move(client, str(msg.get("move")), msg.id),
    "undo": lambda hub, client, session, msg: session.undo(client, msg.id),
    "redo": lambda hub, client, session, msg: session.redo(client, msg.id),
    "pause": lambda hub, client, session, msg: session.pause(True, client, msg.id),
    "resume": lambda hub, client, session, msg: session.pause(False, client, msg.id),
    "step": lambda hub, client, session, msg: session.step(client, msg.id),
    "settings": _settings,
    "resign": lambda hub, client, session, msg: session.resign(client, msg.id),
    "save": _save,
    "view": _view,
    "branch": _branch,
    "promote": lambda hub, client, session, msg: session.promote(client, msg.get("line"), msg.id),
    "delete_line": lambda hub, client, session, msg: session.delete_line(client, msg.get("line"), msg.id),
    "hint": _study,
    "analyse": _study,
    "review": _study,
    "tree": _study,
    "explore": _study,
}
