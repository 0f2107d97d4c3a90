"""``mancala agent``: one of our players as a remote agent of a game server
(``mancala serve``), speaking its JSON-over-WebSocket protocol (``docs/protocol.md``).

The agent either creates a game (its own seat and, by default, the other one are
``remote`` seats; it joins its own and prints the game id for the opponent) or joins
one by id.  It then answers every ``state`` in which it is to move with its player's
move, rebuilt from the ``history`` the server sends (the server owns the rules), until
``result`` is set.  If the connection drops it reconnects and takes its seat back with
its resume token, trying until the server's grace period is over.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

from mancala import jsonread
from mancala.errors import BadInput, IllegalMove
from mancala.games import Game, make_game
from mancala.players import HumanPlayer, make_player
from mancala.record import MAX_NAME, person_name

#: the protocol version this client speaks
PROTOCOL = 1
#: seconds to wait for the server to accept a connection
OPEN_TIMEOUT = 10.0
#: the largest server message read, in bytes (the connection refuses larger frames too)
MAX_SERVER_MESSAGE = 8 * 1024 * 1024
#: the grace period assumed when the server did not say
DEFAULT_GRACE = 60.0


def websocket_url(server: str) -> str:
    """The WebSocket address of a server given as ``ws://host:port/ws``, ``http://host:port``
    or ``host:port``."""
    text = server.strip()
    if "://" not in text:
        text = "ws://" + text
    parts = urlsplit(text)
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise BadInput(f"--server {server!r}: expected an address like ws://127.0.0.1:8000/ws or 127.0.0.1:8000")
    path = parts.path if parts.path not in ("", "/") else "/ws"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


class ServerRefused(BadInput):
    """The server answered one of our requests with an ``error`` we cannot go on from."""


class Disconnected(Exception):
    """The connection dropped (or could not be made)."""


class RemoteAgent:
    """The agent's state across connections: which game, which seats, the resume token,
    and the game replayed from the server's history."""

    def __init__(
        self,
        player,
        *,
        game_spec: str | None = None,
        join: str | None = None,
        seat: int | None = None,
        opponent: str = "remote",
        token: str | None = None,
        name: str | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.player = player
        #: the name the others see for our seat (None: the server shows the client's name)
        self.name = name
        self.game_spec = game_spec or "kalah"
        self.join_id = join
        self.seat = seat
        self.opponent = opponent
        self.token = token
        self.say = say
        self.game_id: str | None = join
        self.resume: str | None = None
        self.seats: list[int] = []
        self.grace = DEFAULT_GRACE
        self.result: dict | None = None
        self.ids = itertools.count(1)
        #: the game and the positions replayed from the server's history
        self.game: Game | None = None
        self.game_spec_seen: str | None = None
        self.moves: list[str] = []
        self.states: list = []
        #: the ply we answered last (a state for it may arrive more than once)
        self.answered: int | None = None
        self.shown = 0
        #: the game's moves as the server's states have given them (each only the new ones)
        self.history: list[dict] = []

    # --- one connection ---------------------------------------------------------------

    def session(self, ws) -> None:
        """Talk over one open connection until the game ends (returns) or the connection
        drops (raises :class:`Disconnected`)."""
        self.answered = None
        self._send(
            ws,
            "hello",
            client=f"mancala agent {self.player.spec}"[:80],
            history="delta",  # each state carries only the moves not sent before
            **({"token": self.token} if self.token else {}),
            **({"name": self.name} if self.name else {}),
        )
        welcome = self._expect(ws, "welcome", "hello")
        self.grace = float((welcome.get("limits") or {}).get("grace_seconds") or DEFAULT_GRACE)
        if self.resume is not None:
            self._send(ws, "join", game_id=self.game_id, resume=self.resume)
            self.seats = self._expect(ws, "joined", "join")["seats"] or self.seats
            self.say(f"reconnected to game {self.game_id}")
        elif self.join_id is not None:
            self._join(ws, self.join_id, self.seat)
        else:
            self._send(ws, "create", game=self.game_spec, players=self._players())
            joined = self._expect(ws, "joined", "create")
            self.game_id = joined["game_id"]
            self._join(ws, self.game_id, self.seat if self.seat is not None else 0)
            self.say(
                f"created game {self.game_id} ({self.game_spec}); the opponent joins with: "
                f"mancala agent --server URL --join {self.game_id}"
            )
        while self.result is None:
            self.on_message(ws, self._receive(ws))

    def _players(self) -> list[str]:
        mine = self.seat if self.seat is not None else 0
        players = [self.opponent, self.opponent]
        players[mine] = "remote"
        return players

    def _join(self, ws, game_id: str, seat: int | None) -> None:
        self._send(ws, "join", game_id=game_id, **({"seat": seat} if seat is not None else {}))
        joined = self._expect(ws, "joined", "join")
        self.game_id, self.resume, self.seats = joined["game_id"], joined.get("resume"), joined["seats"]
        if not self.seats:
            raise ServerRefused(f"joined game {game_id} without a seat")

    def on_message(self, ws, msg: dict) -> None:
        """Act on one server message: answer a state where we are to move; note the result."""
        kind = msg.get("type")
        if kind == "error":
            about, code = msg.get("about"), msg.get("code")
            if about == "move" and code in ("not_your_turn", "busy", "refused"):
                # a stale state, or the game is not open yet (the opponent has not joined):
                # the server's next state tells us when to move
                self.answered = None
                self.say(f"  not now: {msg.get('message')}")
                return
            raise ServerRefused(f"the server refused our {about or 'message'}: {msg.get('message')} ({code})")
        if kind != "state":
            return
        if "history_from" in msg:  # the moves not sent before: the whole list made again
            self.history = self.history[: msg["history_from"]] + list(msg.get("history") or [])
            msg = dict(msg, history=self.history)
        self._show(msg)
        if msg.get("result") is not None:
            self.result = msg["result"]
            return
        mover = msg.get("to_move")
        legal = [m["move"] for m in msg.get("legal") or []]
        if mover not in self.seats or not legal or msg.get("ply") == self.answered:
            return
        players = msg.get("players") or []
        if msg.get("ply") == 0 and any(p.get("kind") == "remote" and not p.get("connected") for p in players):
            return  # the game starts when every remote seat is taken
        state = self._replay(msg)
        started = time.monotonic()
        move = self.player.choose(self.game, state)
        text = str(move)
        if text not in legal:
            raise ServerRefused(
                f"our player chose {text!r}, which the server does not list as legal ({', '.join(legal)})"
            )
        self.answered = msg.get("ply")
        self._send(ws, "move", move=text)
        self.say(f"  our move {text} after {time.monotonic() - started:.2f} s")

    def _show(self, msg: dict) -> None:
        for entry in (msg.get("history") or [])[self.shown :]:
            self.say(f"{entry.get('ply')}. {entry.get('text') or entry.get('move')}")
        self.shown = max(self.shown, len(msg.get("history") or []))
        result = msg.get("result")
        if result is not None and self.result is None:
            self.say(f"game over ({result.get('reason')}): {result.get('text')}")

    def _replay(self, msg: dict):
        """Our state for a ``state`` message: its history replayed under its game spec."""
        spec = msg["game"]["spec"]
        if self.game is None or self.game_spec_seen != spec:
            self.game = make_game(spec)
            self.game_spec_seen = spec
            self.moves, self.states = [], [self.game.initial_state()]
        game = self.game
        moves = [h["move"] for h in msg.get("history") or []]
        keep = 0
        while keep < min(len(moves), len(self.moves)) and moves[keep] == self.moves[keep]:
            keep += 1
        del self.moves[keep:], self.states[keep + 1 :]
        for text in moves[keep:]:
            try:
                move = game.parse_move(self.states[-1], text)
            except IllegalMove as e:
                raise ServerRefused(f"the server's history has a move we cannot play: {text!r} ({e})") from None
            self.moves.append(text)
            self.states.append(game.apply(self.states[-1], move))
        state = self.states[-1]
        if game.to_move(state) != msg.get("to_move"):
            raise ServerRefused("the server's history and its player to move disagree with our rules")
        return state

    # --- frames -----------------------------------------------------------------------

    def _send(self, ws, kind: str, **fields: Any) -> None:
        try:
            ws.send(json.dumps({"v": PROTOCOL, "type": kind, "id": next(self.ids), **fields}))
        except Exception as e:  # noqa: BLE001 (websockets raises ConnectionClosed and OSError subclasses)
            raise Disconnected(str(e)) from None

    def _receive(self, ws) -> dict:
        from websockets.exceptions import ConnectionClosed  # noqa: PLC0415

        try:
            text = ws.recv()
        except (ConnectionClosed, OSError) as e:
            raise Disconnected(str(e)) from None
        try:
            msg = jsonread.loads(text, max_bytes=MAX_SERVER_MESSAGE)
        except (TypeError, ValueError):
            raise ServerRefused(f"the server sent something that is not JSON: {str(text)[:80]!r}") from None
        if not isinstance(msg, dict) or msg.get("v") != PROTOCOL:
            raise ServerRefused(f"the server speaks another protocol version (message {str(text)[:80]})")
        return msg

    def _expect(self, ws, kind: str, about: str) -> dict:
        """The answer to our ``about`` message (states and other messages before it are handled)."""
        while True:
            msg = self._receive(ws)
            if msg.get("type") == kind:
                return msg
            if msg.get("type") == "error" and msg.get("about") == about:
                raise ServerRefused(f"the server refused our {about}: {msg.get('message')} ({msg.get('code')})")
            if msg.get("type") == "state" and self.seats:
                self.on_message(ws, msg)


def play_remote(url: str, agent: RemoteAgent, connect: Callable | None = None) -> dict | None:
    """Play ``agent``'s game on the server at ``url`` to its end; returns the ``result``.
    A dropped connection is re-opened (every half second at first, then less often) until
    the server's grace period has passed since the drop."""
    if connect is None:
        from websockets.sync.client import connect as ws_connect  # noqa: PLC0415 (websockets: only to play)

        connect = ws_connect
    dropped_at: float | None = None
    pause = 0.25
    while True:
        try:
            try:
                ws = connect(url, open_timeout=OPEN_TIMEOUT, max_size=MAX_SERVER_MESSAGE)
            except Exception as e:  # noqa: BLE001 (refused, reset, timeout, handshake failure)
                raise Disconnected(f"cannot connect to {url}: {e}") from None
            with ws:
                dropped_at, pause = None, 0.25
                agent.session(ws)
                return agent.result
        except Disconnected as e:
            if agent.result is not None:
                return agent.result
            if agent.resume is None:
                raise BadInput(str(e) if "connect" in str(e) else f"lost the connection to {url}: {e}") from None
            now = time.monotonic()
            if dropped_at is None:
                dropped_at = now
                agent.say(f"connection lost ({e}); reconnecting for up to {agent.grace:g} s")
            if now - dropped_at > agent.grace:
                raise BadInput(f"could not reconnect to {url} within the grace period of {agent.grace:g} s") from None
            time.sleep(pause)
            pause = min(2.0, pause * 2)


def run(args: argparse.Namespace) -> int:
    """``mancala agent``."""
    url = websocket_url(args.server)
    player = make_player(args.player)
    if isinstance(player, HumanPlayer):
        raise BadInput("an agent needs an AI player (e.g. best:time=1), not human")
    if args.join and (args.game or args.opponent):
        raise BadInput("--game and --opponent describe a game to create; --join joins one that exists")
    if args.seat is not None and args.seat not in (0, 1):
        raise BadInput(f"--seat must be 0 (the first player) or 1, got {args.seat}")
    if args.game:
        make_game(args.game)  # a bad spec fails here, in one line, before connecting
    token = args.token or os.environ.get("MANCALA_TOKEN") or None
    name = None
    if args.name is not None:
        try:
            name = person_name(args.name)
        except ValueError as e:
            raise BadInput(f"--name must be 1-{MAX_NAME} printable characters, but {e}") from None
    agent = RemoteAgent(
        player,
        game_spec=args.game,
        join=args.join,
        seat=args.seat,
        opponent=args.opponent or "remote",
        token=token,
        name=name,
        say=lambda text: print(text, flush=True),
    )
    result = play_remote(url, agent) or {}
    mine = agent.seats
    winner = result.get("winner")
    verdict = "draw" if winner is None else ("we won" if winner in mine else "we lost")
    print(f"{verdict}: {result.get('text')}", flush=True)
    return 0


def register(sub) -> None:
    """Add ``mancala agent`` to the CLI's subcommands."""
    p = sub.add_parser(
        "agent",
        allow_abbrev=False,  # an option only by its whole name
        help="one of our players as a remote agent of a game server (mancala serve)",
        description="Connect to a game server (mancala serve; protocol in docs/protocol.md) and play one game "
        "with one of our players: create a game and wait for an opponent to join it, or join a game "
        "by id. A dropped connection is re-opened and the seat taken back within the server's grace "
        "period.",
        epilog="examples:\n"
        "  mancala agent --server ws://127.0.0.1:8000/ws --player best:time=1 --game 'kalah(preset=mankalah)'\n"
        "  mancala agent --server 127.0.0.1:8000 --player hard --join g1a2b3\n"
        "  mancala agent --server 127.0.0.1:8000 --player greedy --opponent medium   (against the server's AI)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--server", required=True, metavar="URL", help="the server: ws://HOST:PORT/ws, http://HOST:PORT or HOST:PORT"
    )
    p.add_argument(
        "--player", default="best:time=1", metavar="SPEC", help="who chooses our moves (default best:time=1)"
    )
    p.add_argument(
        "--game", metavar="SPEC", help="create this game (default kalah), e.g. 'kalah(preset=mankalah)', bao"
    )
    p.add_argument(
        "--opponent",
        metavar="SPEC",
        help="when creating: the other seat, remote (default: another agent or a browser joins) "
        "or a server player such as medium",
    )
    p.add_argument("--join", metavar="GAME_ID", help="join this game instead of creating one")
    p.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="our player: 0 moves first, 1 second (default: 0 when creating, the free seat when joining)",
    )
    p.add_argument("--token", help="the server's token (default: $MANCALA_TOKEN)")
    p.add_argument(
        "--name", help=f"the name the others see for our seat, 1-{MAX_NAME} characters (default: the player's spec)"
    )
    p.set_defaults(func=run)
