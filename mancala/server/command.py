"""``mancala web`` (the board in the browser) and ``mancala serve`` (the same server for
remote agents and browsers, with results, clocks and a token): argument parsing and
running uvicorn.  :func:`register` adds both subcommands to the CLI."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import socket
import sys
import webbrowser
from pathlib import Path

from mancala.engine import table_builds
from mancala.errors import BadInput
from mancala.server.finished import KEPT_GAMES
from mancala.server.workers import MAX_DEFAULT_WORKERS, default_workers

DEFAULT_PORT = 8000
#: ``mancala serve``'s per-move clock for matches created without one, in seconds
DEFAULT_MOVE_TIME = 120.0
#: how many ports after the default ``mancala web`` tries when it is taken
PORT_TRIES = 20
#: games one client address may start in a minute (so also the results it leaves): far more
#: than a person plays, far fewer than the 538 in 30 s of issue 33's attack
GAMES_PER_MINUTE = 60


def register(sub) -> None:
    """Add ``web`` and ``serve`` to the CLI's subcommands."""
    web = sub.add_parser(
        "web",
        allow_abbrev=False,  # an option only by its whole name
        help="the board in your browser: play, watch, study and analyse every game",
        description="Start the game server on this machine and open the board in the browser. Ctrl-C stops it.",
    )
    _common(web)
    web.add_argument("--no-browser", action="store_true", help="do not open a browser (just print the address)")
    web.set_defaults(func=run_web)

    serve = sub.add_parser(
        "serve",
        allow_abbrev=False,  # an option only by its whole name
        help="host games for remote agents and browsers (network play)",
        description="Host games for remote agents (mancala agent) and browsers: the same "
        "server and protocol as 'mancala web' (docs/protocol.md), with clocks, "
        "finished games written to a results folder, and a token required "
        "off this machine.",
    )
    _common(serve)
    serve.add_argument(
        "--results",
        metavar="DIR",
        default="mancala-results",
        help="folder for finished games and the journal of running ones (default mancala-results)",
    )
    serve.add_argument(
        "--move-time",
        type=float,
        metavar="S",
        default=DEFAULT_MOVE_TIME,
        help=f"per-move clock (seconds) for games with a remote seat created without one, so "
        f"a player that stops answering loses (default {DEFAULT_MOVE_TIME:g}; 0: none)",
    )
    serve.add_argument(
        "--game-time",
        type=float,
        metavar="S",
        help="default per-game clock (seconds) for games with a remote seat (default: none, only the per-move clock)",
    )
    serve.set_defaults(func=run_serve)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; any other needs a token)",
    )
    parser.add_argument("--port", type=int, help=f"port (default {DEFAULT_PORT}, or the next free one)")
    parser.add_argument(
        "--token",
        help="the token clients must present (default: $MANCALA_TOKEN); required when --host is not a loopback address",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="S",
        help="seconds a disconnected player may take to come back before forfeiting (default 60)",
    )
    parser.add_argument("--max-games", type=int, default=200, help="games the server holds at once (default 200)")
    parser.add_argument(
        "--max-games-per-client", type=int, default=50, help="running games one client address may create (default 50)"
    )
    parser.add_argument(
        "--games-per-minute",
        type=int,
        default=GAMES_PER_MINUTE,
        help=f"games one client address may start in a minute, so also the results it leaves "
        f"(default {GAMES_PER_MINUTE}; 0: no limit)",
    )
    parser.add_argument(
        "--finished-games",
        type=int,
        default=KEPT_GAMES,
        metavar="N",
        help=f"finished games kept in memory after their players leave, so their links still open them "
        f"(the last N; default {KEPT_GAMES}; 0: none)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer to requests for host NAME (the name clients use to reach this server, "
        "e.g. behind a proxy; * for any); repeatable",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept browser pages from ORIGIN (e.g. http://example.org); repeatable",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default_workers(),
        help=f"processes for AI moves and analysis (default: one a core, at most {MAX_DEFAULT_WORKERS}; "
        f"here {default_workers()})",
    )
    parser.add_argument(
        "--no-background-tables",
        action="store_true",
        help="never build an endgame table in the background (Oware's and Togyz Kumalak's strongest "
        "levels then read only the tables already in the cache; also $MANCALA_BACKGROUND_TABLES=0)",
    )


def is_loopback(host: str) -> bool:
    """Whether ``host`` is only reachable from this machine."""
    if host in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def server_names(args: argparse.Namespace) -> tuple[str, ...]:
    """The host names the server answers to (checked against every request's ``Host``):
    this machine's loopback names, the address it was given (so the address it prints, e.g.
    127.0.0.2, is answered), when it listens beyond loopback the machine's own names, and
    every ``--allow-host``."""
    from mancala.server.config import LOOPBACK_NAMES  # noqa: PLC0415 (the server's modules: starlette)

    names = [*LOOPBACK_NAMES, printed_host(args.host)]
    if not is_loopback(args.host):
        names += [socket.gethostname(), socket.getfqdn()]
    return tuple(dict.fromkeys(n.lower() for n in [*names, *args.allow_host] if n))


def check_port(port: int | None) -> None:
    """Raise :class:`BadInput` unless ``port`` is None (choose one) or 0-65535."""
    if port is not None and not 0 <= port <= 65535:
        raise BadInput(f"--port must be 0-65535, got {port}")


def _config(args: argparse.Namespace, results: Path | None, clock: dict | None):
    from mancala.server.config import ServerConfig  # noqa: PLC0415 (the server's modules: starlette)

    check_port(args.port)
    if not args.host.strip():
        raise BadInput("--host is empty; give an address to listen on, e.g. 127.0.0.1")
    if args.token is not None and not args.token:
        raise BadInput("--token is empty; give the token clients must present, or leave the option out")
    token = args.token or os.environ.get("MANCALA_TOKEN") or None
    if not is_loopback(args.host) and not token:
        raise BadInput(
            f"--host {args.host} lets other machines connect: give a token with --token or the "
            f"environment variable MANCALA_TOKEN (clients present it in hello)"
        )
    for name in ("grace", "max_games", "max_games_per_client", "workers"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            raise BadInput(f"--{name.replace('_', '-')} must be more than 0")
    if args.finished_games < 0:
        raise BadInput(f"--finished-games must be 0 (keep none) or more, got {args.finished_games}")
    if args.games_per_minute < 0:
        raise BadInput(f"--games-per-minute must be 0 (no limit) or more, got {args.games_per_minute}")
    return ServerConfig(
        token=token,
        allow_origins=tuple(args.allow_origin),
        hosts=server_names(args),
        max_games=args.max_games,
        max_games_per_client=args.max_games_per_client,
        games_per_minute=args.games_per_minute or None,
        finished_games=args.finished_games,
        grace=args.grace,
        results=results,
        workers=args.workers,
        clock=clock,
        background_tables=not args.no_background_tables and not table_builds.opted_out(),
    )


def bind(host: str, port: int | None) -> socket.socket:
    """A listening socket on ``host``: ``port``, or the first free one from 8000 on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    ports = [port] if port is not None else range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES)
    last = None
    for p in ports:
        if not 0 <= p <= 65535:
            raise BadInput(f"--port must be 0-65535, got {p}")
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, p))
        except OSError as e:
            sock.close()
            last = e
            continue
        sock.listen(128)
        sock.set_inheritable(True)
        return sock
    if port is not None:
        raise BadInput(f"cannot listen on {host}:{port} ({last.strerror if last else 'in use'}); choose another --port")
    raise BadInput(f"ports {DEFAULT_PORT}-{DEFAULT_PORT + PORT_TRIES - 1} on {host} are all taken; give --port")


def has_display() -> bool:
    """Whether a browser can be shown (a graphical session, or macOS/Windows)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve_app(config, sock: socket.socket, on_ready=None) -> int:
    """Run the app on ``sock`` until Ctrl-C (or SIGTERM); returns the exit code."""
    import uvicorn  # noqa: PLC0415 (uvicorn: only to serve)

    from mancala.server.app import HARD_FRAME_LIMIT, create_app  # noqa: PLC0415 (starlette, uvicorn)

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(config)

    class Server(uvicorn.Server):
        """uvicorn's server, telling ``on_ready`` once its sockets listen."""

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            if on_ready is not None:
                on_ready(app)

    server = Server(
        uvicorn.Config(
            app, log_level="warning", ws_max_size=HARD_FRAME_LIMIT, lifespan="on", timeout_graceful_shutdown=3
        )
    )
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("Server stopped.")
    return 0


#: the addresses that listen on every interface, and the one printed for each
_WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


def printed_host(host: str) -> str:
    """The host of the address the server prints for ``--host host``: ``host`` itself, or
    this machine's loopback address for a wildcard (0.0.0.0, ::), which names no machine."""
    return _WILDCARDS.get(host.strip(), host.strip())


def address(host: str, port: int) -> str:
    """The address the server prints for ``--host host`` on ``port`` (always one it answers
    to: :func:`server_names`)."""
    shown = printed_host(host)
    return f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"


def run_web(args: argparse.Namespace) -> int:
    """``mancala web``: the board on this machine, opened in the browser."""
    config = _config(args, None, None)
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    url = address(args.host, port)
    if config.token:
        url += f"?token={config.token}"

    def ready(app) -> None:
        print(f"mancala board at {url}  (Ctrl-C to stop)", flush=True)
        if not args.no_browser and has_display():
            try:
                webbrowser.open(url)
            except Exception:  # noqa: BLE001 (no browser: the address is printed)
                pass

    return serve_app(config, sock, ready)


def serve_config(args: argparse.Namespace):
    """The server settings ``mancala serve``'s options ask for (the results folder made,
    once every option has been checked)."""
    clock = None
    for name, key in (("move_time", "move"), ("game_time", "game")):
        value = getattr(args, name)
        if value:
            if not 0.05 <= value <= 86400:
                raise BadInput(f"--{name.replace('_', '-')} must be 0.05-86400 seconds, got {value:g}")
            clock = dict(clock or {}, **{key: value})
    if not args.results.strip():
        raise BadInput("--results is empty; give a folder for finished games (default mancala-results)")
    results = Path(args.results)
    if results.exists() and not results.is_dir():
        raise BadInput(f"--results {results}: not a folder")
    config = _config(args, results, clock)  # every option is checked before the folder is made
    try:
        results.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadInput(f"--results {results}: cannot create it ({e.strerror})") from None
    if not os.access(results, os.W_OK):
        raise BadInput(f"--results {results}: not writable")
    return config


def run_serve(args: argparse.Namespace) -> int:
    """``mancala serve``: host games for remote agents and browsers."""
    config = serve_config(args)
    results = config.results
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    url = address(args.host, port)

    def ready(app) -> None:
        print(
            f"mancala server at {url} (WebSocket {url.replace('http', 'ws', 1)}ws); results in {results}/"
            + ("; token required" if config.token else "")
            + "  (Ctrl-C to stop)",
            flush=True,
        )
        for entry in app.state.hub.interrupted:
            print(
                f"interrupted: game {entry['game_id']} ({entry['game']}, {entry['moves']} moves) "
                f"saved as {results}/{entry['file']}",
                flush=True,
            )

    return serve_app(config, sock, ready)
