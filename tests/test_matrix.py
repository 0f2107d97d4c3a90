"""Issue 17, item 2: the conformance matrix.  Every game (each Kalah preset, Bao, tic-tac-toe:
drawn from the games' catalogue, ``games.CATALOGUE``) x every AI a user can choose
(``players.ai_specs(quick=True)``: the six levels with their real budgets, then one
small-budget spec of every other AI kind installed here) x every surface a user reaches
them through:

* ``terminal``: ``mancala play --game G --p1 AI --p2 human --save F`` in a child process,
  its standard input a pipe: the test answers each prompt with a legal move and types
  ``quit`` once the AI has moved twice;
* ``server``: the app of ``mancala web`` with its default worker pool (``ServerConfig()``),
  through Starlette's TestClient: a game with the AI in seat 0 and the test in seat 1;
* ``agent``: a real ``mancala serve`` and two ``mancala agent`` processes (the AI creates
  the game, ``random`` joins it); once the AI has moved twice the opponent's process is
  killed and the server forfeits it, which writes the game into the results folder;
* ``match``: ``mancala match AI random --games 2 --opening N`` through ``mancala.cli.main``
  in this process (match plays in its own process anyway; a spy on ``play_match`` keeps the
  records, which match does not write out): whole games, both seatings, from a late random
  opening so that the levels' real budgets stay affordable;
* ``arena``: one ``mancala arena`` gauntlet per game (``random`` against every AI that plays
  it, at once, in the arena's worker processes, ``--max-moves``), each cell reading its own
  rows; a refused AI gets its own run, which must stop in one line.

The terminal, server and agent cells of a game row run together (Batch: a few at once, so
both cores stay busy while one AI thinks); each cell's test still reports its own outcome.

In every cell the AI makes at least two moves and the game record the surface gives back
(saved file, ``save`` answer, results file, result rows) is loaded and replayed move by move
with the rules to the same final position.  A player kind that cannot play a game by
design (OpenSpiel's players play only the games OpenSpiel has) must be refused in one line (exit 2,
or ``bad_request``), not crash.  Ids name the cell: ``server-kalah(preset=egyptian)-hard``.

The default tier (``-m "not slow"``, docs/testing.md) runs a covering subset, on every surface a
cell of every game row and one of every AI (:func:`covering_cells`); the rest is ``slow``.
"""

from __future__ import annotations

import codecs
import json
import os
import queue
import random
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from helpers import stop_server

from mancala.errors import BadInput
from mancala.games import CATALOGUE, PRESETS, make_game
from mancala.games.base import Game
from mancala.players import LEVELS, ai_specs
from mancala.record import GameRecord, load_record, record_from_json

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parents[1]
ENV = dict(os.environ, PYTHONPATH=str(REPO), MANCALA_TOKEN="")
#: the cheap opponent of every cell
OPPONENT = "random:seed=7"
#: the longest one AI move may take in a cell (the strongest level's Bao cap is 60 s): a hang guard
MOVE_WAIT = 180.0


def game_rows() -> list[str]:
    """Every game a user can choose: one row per preset of a game that has presets, one per
    other game (games a test registers for itself are not a user's choice)."""
    rows = []
    for name, info in CATALOGUE.items():
        if info.make.__module__.startswith("mancala."):
            rows += [f"{name}(preset={preset})" for preset in info.presets] if info.presets else [name]
    return rows


GAME_ROWS = game_rows()
AIS = ai_specs(quick=True)


def can_play(ai: str, game_spec: str) -> bool:
    """Whether the player ``ai`` plays ``game_spec`` by design, as the player says
    (``check_game``): OpenSpiel's players play only the games OpenSpiel has (standard
    Kalah(6,4), Oware under its rules); every other AI plays every game."""
    from mancala.players import make_player  # noqa: PLC0415

    check = getattr(make_player(ai), "check_game", None)
    try:
        if check is not None:
            check(make_game(game_spec))
    except BadInput:
        return False
    return True


#: the surfaces, in the order of this module (a surface's place shifts its covering cells)
SURFACES = ("terminal", "server", "agent", "match", "arena")


def covering_cells(surface: str) -> set[tuple[str, str]]:
    """The cells of ``surface`` in the default tier: game row ``i`` with the AI ``i + 3s``
    (mod the AIs; ``s`` the surface's place), row after row until every game and every AI has
    had a cell, so each surface meets every game and every AI at least once and the surfaces
    pair them differently.  Drawn from the catalogues, as the matrix is: a new game or AI
    kind gets its default-tier cells without an edit here."""
    shift = 3 * SURFACES.index(surface)
    return {(GAME_ROWS[i % len(GAME_ROWS)], AIS[(i + shift) % len(AIS)]) for i in range(max(len(GAME_ROWS), len(AIS)))}


def cells(surface: str) -> list:
    """The matrix row for ``surface``: (game, ai) params with ids like ``server-bao-hard``; the
    cells outside :func:`covering_cells` are in the slow tier."""
    default = covering_cells(surface)
    return [
        pytest.param(g, ai, id=f"{surface}-{g}-{ai}", marks=() if (g, ai) in default else pytest.mark.slow)
        for g in GAME_ROWS
        for ai in AIS
    ]


# --- checking a game record -----------------------------------------------------------------


def replay(game: Game, moves: list[str], start: list[str] = ()) -> tuple[Any, list[int]]:
    """Re-apply ``start`` then ``moves`` (text) with the rules, each checked legal; returns the
    final state and the player who made each of ``moves``."""
    state = game.initial_state()
    for text in start:
        state = game.apply(state, game.parse_move(state, text))
    movers = []
    for text in moves:
        assert not game.is_terminal(state), f"move {text!r} after the game ended"
        move = game.parse_move(state, text)
        assert move in game.legal_moves(state), f"{text!r} is not legal"
        movers.append(game.to_move(state))
        state = game.apply(state, move)
    return state, movers


def check_record(data: dict, game_spec: str, seat_spec: str, ai_player: int = 0) -> tuple[Game, Any, list[int]]:
    """A saved game record (JSON data) of ``game_spec`` in which player ``ai_player`` (the AI)
    is named ``seat_spec``: it loads, replays move by move (each legal) to the position it was
    loaded at, its scores are the replayed position's, and the AI made at least two moves.
    Returns the game, the final state and the movers."""
    record: GameRecord = record_from_json(data, f"the {seat_spec} game record")
    game = make_game(game_spec)
    assert record.game == game, (data["game"], game_spec)
    assert record.players[ai_player] == seat_spec, record.players
    final, movers = replay(game, data["moves"])
    assert final == record.final_state()
    assert data["result"]["score"] == [game.score(final, 0), game.score(final, 1)]
    assert movers.count(ai_player) >= 2, f"the AI made {movers.count(ai_player)} move(s): {data['moves']}"
    return game, final, movers


def player_spec(spec: str) -> str:
    """The spec a player of ``spec`` reports (``hard`` stays ``hard``)."""
    from mancala.players import make_player  # noqa: PLC0415

    return make_player(spec).spec


def one_line_refusal(stderr: str, returncode: int, command: str) -> str:
    """The single stderr line of a command that refused an AI for a game (exit 2)."""
    assert returncode == 2, (returncode, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    assert lines[0].startswith(f"mancala {command}: ") and "standard Kalah" in lines[0], lines[0]
    return lines[0]


def close_pipes(proc: subprocess.Popen) -> None:
    """Close a finished child's pipes (an unclosed one is a ResourceWarning, an error here)."""
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def mancala(*args: str, cwd: Path, **kw) -> subprocess.Popen:
    """``mancala ARGS`` as a child process (pipes for all three streams)."""
    return subprocess.Popen(
        [sys.executable, "-m", "mancala", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=cwd,
        **kw,
    )


# --- running a surface's cells a game row at a time ------------------------------------------------


class Batch:
    """One surface's cells, run a game row at a time: the first cell of a row asked for runs
    ``play(game_spec, ai)`` for every AI of the row, ``parallel`` at once (the machine's cores
    stay busy while one AI thinks), and each cell's test then takes its own outcome, so a
    failure (an exception in ``play``) is reported by the cell it belongs to."""

    def __init__(self, play: Callable[[str, str], None], parallel: int, selected: dict[str, list[str]]) -> None:
        self.play = play
        self.parallel = parallel
        #: the AIs of each game row whose cells this session runs (``-k`` may pick a few)
        self.selected = selected
        self.rows: dict[str, dict[str, Future]] = {}

    def cell(self, game_spec: str, ai: str) -> None:
        """Run (or look up) the cell; raises what its ``play`` raised."""
        if game_spec not in self.rows:
            with ThreadPoolExecutor(self.parallel, thread_name_prefix="cell") as pool:
                self.rows[game_spec] = {
                    a: pool.submit(self.play, game_spec, a) for a in self.selected.get(game_spec, [ai])
                }
        self.rows[game_spec][ai].result()


def selected_cells(request: pytest.FixtureRequest, test_name: str) -> dict[str, list[str]]:
    """The cells of ``test_name`` this session runs, by game row: {game_spec: [ai, ...]}."""
    rows: dict[str, list[str]] = {}
    for item in request.session.items:
        if getattr(item, "originalname", None) == test_name:
            rows.setdefault(item.callspec.params["game_spec"], []).append(item.callspec.params["ai"])
    return rows


def cell_folder(root: Path, game_spec: str, ai: str) -> Path:
    """A fresh working folder for one cell under ``root``."""
    folder = root / re.sub(r"[^A-Za-z0-9=.-]+", "_", f"{game_spec}-{ai}")
    folder.mkdir()
    return folder


# --- 1. terminal ----------------------------------------------------------------------------

PROMPT = re.compile(r"to move \[[^\]\n]*\] > $")


class Output:
    """A child's stdout read as it comes (prompts do not end lines): waits with a deadline."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.text = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.selector = selectors.DefaultSelector()
        self.selector.register(proc.stdout, selectors.EVENT_READ)
        os.set_blocking(proc.stdout.fileno(), False)

    def until(self, done: Callable[[str], bool], timeout: float) -> bool:
        """Read until ``done(text)`` (True) or the end of the output (False); fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not done(self.text):
            left = deadline - time.monotonic()
            assert left > 0, f"nothing more after {timeout:g} s; output so far:\n{self.text[-2000:]}"
            if not self.selector.select(left):
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return False
            self.text += self.decoder.decode(chunk)
        return True


def play_in_terminal(root: Path, game_spec: str, ai: str) -> None:
    """One terminal cell: ``mancala play`` with the AI as the first player and the test, on a
    pipe, as the second, answering each prompt with a legal move (read from the game saved
    after every move) and typing ``quit`` once the AI has moved twice."""
    folder = cell_folder(root, game_spec, ai)
    save = folder / "game.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mancala",
            "play",
            "--game",
            game_spec,
            "--p1",
            ai,
            "--p2",
            "human",
            "--save",
            str(save),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        cwd=folder,
    )
    out = Output(proc)
    rng = random.Random(game_spec)
    try:
        while out.until(lambda text: bool(PROMPT.search(text)), MOVE_WAIT):
            record = load_record(save)
            movers = replay(record.game, [str(m) for m in record.moves])[1]
            out.text += "<answered>\n"  # the next prompt is a new one
            if movers.count(0) >= 2:
                proc.stdin.write(b"quit\n")
                proc.stdin.close()
                break
            move = rng.choice(sorted(record.game.legal_moves(record.final_state()), key=str))
            proc.stdin.write(f"{move}\n".encode())
            proc.stdin.flush()
        out.until(lambda text: False, MOVE_WAIT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    stderr = proc.stderr.read().decode()
    out.selector.close()
    close_pipes(proc)
    if not can_play(ai, game_spec):
        one_line_refusal(stderr, proc.returncode, "play")
        return
    assert proc.returncode == 0 and stderr == "", (proc.returncode, stderr, out.text[-2000:])
    assert "Bye." in out.text, out.text[-2000:]
    check_record(json.loads(save.read_text()), game_spec, player_spec(ai))


@pytest.fixture(scope="module")
def terminal(tmp_path_factory, request) -> Batch:
    """The terminal cells, two child processes at once."""
    root = tmp_path_factory.mktemp("matrix-terminal")
    return Batch(
        lambda game_spec, ai: play_in_terminal(root, game_spec, ai),
        parallel=2,
        selected=selected_cells(request, "test_terminal"),
    )


def test_matrix_has_every_game_and_ai():
    """The matrix is drawn from the catalogues: a new preset, game or AI kind adds cells."""
    assert {g.split("(")[0] for g in GAME_ROWS} == {
        n for n, i in CATALOGUE.items() if i.make.__module__.startswith("mancala.")
    }
    assert all(f"kalah(preset={p})" in GAME_ROWS for p in PRESETS)
    assert AIS[: len(LEVELS)] == list(LEVELS)
    assert len(AIS) > len(LEVELS)


def test_the_default_tier_covers_every_game_and_ai_on_every_surface():
    """The quick tier keeps, on each surface, a cell of every game row and of every AI."""
    for surface in SURFACES:
        default = covering_cells(surface)
        assert {g for g, _ in default} == set(GAME_ROWS) and {a for _, a in default} == set(AIS), surface


@pytest.mark.parametrize("game_spec, ai", cells("terminal"))
def test_terminal(game_spec, ai, terminal):
    terminal.cell(game_spec, ai)


# --- 2. the server of `mancala web` ------------------------------------------------------------


def play_on_server(client, game_spec: str, ai: str) -> None:
    """One server cell: a game with the AI in seat 0 and this connection in seat 1 (a random
    legal move at each of its turns) until the AI has moved twice; the ``save`` answer's
    record replays to the board the server shows."""
    from server_helpers import Conn  # noqa: PLC0415

    from mancala.server.views import board_view  # noqa: PLC0415

    rng = random.Random(game_spec)
    with client.websocket_connect("/ws") as ws:
        conn = Conn(ws)
        conn.hello(client="test_matrix")
        rid = conn.send("create", game=game_spec, players=[ai, "human"])
        answer = conn.wait(until=lambda m: m.get("id") == rid and m["type"] in ("joined", "error"))
        if not can_play(ai, game_spec):
            assert answer["type"] == "error" and answer["code"] == "bad_request", answer
            assert "\n" not in answer["message"] and "standard Kalah" in answer["message"], answer
            return
        assert answer["type"] == "joined", answer.get("message", answer)
        answered = None  # the ply we moved at (a position may be sent again, e.g. when the engine is ready)
        while True:
            msg = conn.recv(MOVE_WAIT)
            assert msg["type"] != "error", msg
            if msg["type"] != "state":
                continue
            assert not msg["paused"], f"the AI's move failed: {msg['status']}"
            ai_moves = sum(1 for h in msg["history"] if h["player"] == 0)
            if msg["result"] is not None or (ai_moves >= 2 and msg["to_move"] == 1):
                break
            if msg["to_move"] == 1 and msg["legal"] and msg["ply"] != answered:
                answered = msg["ply"]
                conn.send("move", move=rng.choice(msg["legal"])["move"])
        record = conn.ask("save", "record")
        assert record["type"] == "record", record
        conn.send("leave")
    game, final, _ = check_record(record["record"], game_spec, player_spec(ai))
    assert record["record"]["moves"] == [h["move"] for h in msg["history"]]
    assert board_view(game, final) == msg["board"]


@pytest.fixture(scope="module")
def server(request):
    """One app for every server cell, configured as `mancala web` configures it (its worker
    pool, the engine warmed at start); four games at once."""
    from server_helpers import TEST_HOSTS  # noqa: PLC0415
    from starlette.testclient import TestClient  # noqa: PLC0415

    from mancala.server.app import create_app  # noqa: PLC0415
    from mancala.server.config import ServerConfig  # noqa: PLC0415
    from mancala.server.workers import default_workers  # noqa: PLC0415

    config = ServerConfig(
        token=None,
        allow_origins=(),
        max_games=200,
        max_games_per_client=50,
        grace=60.0,
        results=None,
        workers=default_workers(),
        clock=None,
        hosts=TEST_HOSTS,
    )
    with TestClient(create_app(config)) as client:
        yield Batch(
            lambda game_spec, ai: play_on_server(client, game_spec, ai),
            parallel=4,
            selected=selected_cells(request, "test_server"),
        )


@pytest.mark.parametrize("game_spec, ai", cells("server"))
def test_server(game_spec, ai, server):
    server.cell(game_spec, ai)


# --- 3. `mancala serve` and two `mancala agent` processes -------------------------------------------


class Lines:
    """A child's stdout lines, read by a thread so a test can wait for one with a deadline."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self.ended = False
        self.queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            self.queue.put(line)
        self.queue.put(None)

    def wait(self, done: Callable[[list[str]], bool], timeout: float) -> bool:
        """Collect lines until ``done(lines)`` (True) or the end of the output (False)."""
        deadline = time.monotonic() + timeout
        while not done(self.lines):
            if self.ended:
                return False
            try:
                line = self.queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"waited {timeout:g} s; output so far:\n{''.join(self.lines)[-2000:]}") from None
            if line is None:
                self.ended = True
            else:
                self.lines.append(line)
        return True


def play_agents(url: str, results: Path, root: Path, game_spec: str, ai: str) -> None:
    """One agent cell: the AI's agent creates the game, the opponent's joins it; once the AI
    has moved twice the opponent's process is killed, the server forfeits it after its grace
    period, the AI's agent ends (exit 0) and the game is in the results folder."""
    folder = cell_folder(root, game_spec, ai)
    mine = mancala("agent", "--server", url, "--player", ai, "--game", game_spec, cwd=folder)
    theirs = None
    try:
        lines = Lines(mine)
        assert lines.wait(lambda ls: bool(ls), 60), mine.stderr.read()
        assert lines.lines[0].startswith("created game "), lines.lines[0] + mine.stderr.read()
        game_id = lines.lines[0].split()[2]
        theirs = mancala("agent", "--server", url, "--player", OPPONENT, "--join", game_id, cwd=folder)
        moved_twice = lines.wait(lambda ls: sum(1 for x in ls if x.startswith("  our move ")) >= 2, MOVE_WAIT)
        theirs.kill()  # the opponent drops out: after the grace period it forfeits, and the game is over
        lines.wait(lambda ls: False, MOVE_WAIT)
        mine.wait(timeout=30)
    except BaseException:  # a failed cell leaves no pipe open (an unclosed file fails a later test)
        for proc in (mine, theirs):
            if proc is not None:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                close_pipes(proc)
        raise
    finally:
        for proc in (mine, theirs):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    stderr = mine.stderr.read()
    for proc in (mine, theirs):
        if proc is not None:
            close_pipes(proc)
    if not can_play(ai, game_spec):
        one_line_refusal(stderr, mine.returncode, "agent")
        return
    assert moved_twice and mine.returncode == 0 and stderr == "", (mine.returncode, stderr, lines.lines[-5:])
    files = list(results.glob(f"*-{game_id}.json"))
    assert len(files) == 1, sorted(p.name for p in results.iterdir())
    data = json.loads(files[0].read_text())
    assert data["server"]["seats"][0]["client"] == f"mancala agent {player_spec(ai)}"
    result = data["result"]
    if result["reason"] == "disconnect":
        # the results file marks a forfeit in result.score, [1, -1] for the winner (not the board's
        # margin, which the record's moves give): check the forfeit, then the record as played
        assert result["winner"] == 0 and result["score"] == [1, -1] and result["finished"], result
        game = make_game(game_spec)
        final, _ = replay(game, data["moves"])
        result["score"] = [game.score(final, 0), game.score(final, 1)]
    else:
        assert result["reason"] == "rules", result
    check_record(data, game_spec, "human")  # a remote seat is a person's in a saved game (load it to go on)


@pytest.fixture(scope="module")
def agents(tmp_path_factory, request) -> Iterator[Batch]:
    """A real `mancala serve` on a free port (a disconnected player forfeits after half a
    second; no limit on the games one address starts a minute, which every cell's agents share)
    for every agent cell; three cells (six agent processes) at once."""
    root = tmp_path_factory.mktemp("matrix-agents")
    results = root / "results"
    proc = mancala(
        "serve",
        "--port",
        "0",
        "--results",
        str(results),
        "--workers",
        "1",
        "--grace",
        "0.5",
        "--games-per-minute",  # every cell starts a game from this one address, many a minute
        "0",
        cwd=root,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("mancala server at http://127.0.0.1:"), line + proc.stderr.read()
        url = line.split()[3]
        yield Batch(
            lambda game_spec, ai: play_agents(url, results, root, game_spec, ai),
            parallel=3,
            selected=selected_cells(request, "test_agent"),
        )
    finally:
        stop_server(proc)


@pytest.mark.parametrize("game_spec, ai", cells("agent"))
def test_agent(game_spec, ai, agents):
    agents.cell(game_spec, ai)


# --- 4. `mancala match` -----------------------------------------------------------------------------

#: plies of the random game (seed 0) a match cell leaves to play after its opening
MATCH_PLIES_LEFT = 12


def late_opening(game_spec: str) -> int:
    """Plies of ``mancala match --opening``: all but the last :data:`MATCH_PLIES_LEFT` of the
    random game ``match`` draws its first opening from, so a match game with the strongest
    level stays short while the AI still has moves to make."""
    from mancala.arena.match import random_opening  # noqa: PLC0415

    game = make_game(game_spec)
    return max(0, len(random_opening(game, 100_000, seed=0)) - MATCH_PLIES_LEFT)


@pytest.mark.parametrize("game_spec, ai", cells("match"))
def test_match(game_spec, ai, monkeypatch, capsys):
    import importlib  # noqa: PLC0415

    from mancala.arena import match as arena  # noqa: PLC0415

    cli = importlib.import_module("mancala.cli.match")  # the module of `mancala match`
    main = importlib.import_module("mancala.cli.main").main
    played = []
    real = arena.play_match

    def spy(*args, **kw):
        result = real(*args, **kw)
        played.append(result)
        return result

    monkeypatch.setattr(cli, "play_match", spy)  # the name `mancala match` calls
    code = main(["match", ai, OPPONENT, "--game", game_spec, "--games", "2", "--opening", str(late_opening(game_spec))])
    out, err = capsys.readouterr()
    if not can_play(ai, game_spec):
        one_line_refusal(err, code, "match")
        return
    assert code == 0 and "Traceback" not in err, (code, err)
    [result] = played
    assert f"{result.wins_a} wins" in out and f"{result.draws} draws" in out, out
    ai_moves = 0
    for i, record in enumerate(result.records):
        data = record.to_json()
        final, movers = replay(make_game(game_spec), data["moves"])
        assert record.game == make_game(game_spec) and make_game(game_spec).is_terminal(final)
        assert record_from_json(data).final_state() == final
        ai_player = i % 2  # seats alternate: the AI moves first in the first game
        assert data["players"][ai_player] == player_spec(ai)
        ai_moves = max(ai_moves, movers.count(ai_player))
    assert ai_moves >= 2, f"{ai} made at most {ai_moves} move(s) in a game"


# --- 5. `mancala arena` -------------------------------------------------------------------------------

#: moves after which an arena game is scored as it stands
ARENA_MOVES = 6


def arena_command(game_spec: str, players: list[str], results: Path) -> list[str]:
    """The arguments of a gauntlet of ``players`` (the first against each other) on ``game_spec``."""
    return [
        "arena",
        *players,
        "--gauntlet",
        "--game",
        game_spec,
        "--openings",
        "1",
        "--plies",
        "0",
        "--balance",
        "1e9",
        "--max-moves",
        str(ARENA_MOVES),
        "--seed",
        "1",
        "--results",
        str(results),
        "--no-progress",
    ]


@pytest.fixture(scope="module")
def arena_rows(tmp_path_factory, request) -> Callable[[str], list[dict]]:
    """``rows(game_spec)``: the result rows of one arena run per game, the cheap opponent against
    every AI of the session's cells that plays it, at once (run on first use, then kept)."""
    folder = tmp_path_factory.mktemp("matrix-arena")
    runs: dict[str, list[dict]] = {}
    selected = selected_cells(request, "test_arena")

    def rows(game_spec: str) -> list[dict]:
        if game_spec not in runs:
            results = folder / f"{len(runs)}.jsonl"
            players = [OPPONENT] + [ai for ai in selected.get(game_spec, AIS) if can_play(ai, game_spec)]
            done = subprocess.run(
                [sys.executable, "-m", "mancala", *arena_command(game_spec, players, results)],
                capture_output=True,
                text=True,
                env=ENV,
                cwd=folder,
                timeout=900,
            )
            assert done.returncode == 0 and "Traceback" not in done.stderr, (done.returncode, done.stderr)
            runs[game_spec] = [json.loads(line) for line in results.read_text().splitlines()]
        return runs[game_spec]

    return rows


@pytest.mark.parametrize("game_spec, ai", cells("arena"))
def test_arena(game_spec, ai, arena_rows, tmp_path):
    if not can_play(ai, game_spec):
        done = subprocess.run(
            [sys.executable, "-m", "mancala", *arena_command(game_spec, [OPPONENT, ai], tmp_path / "r.jsonl")],
            capture_output=True,
            text=True,
            env=ENV,
            cwd=tmp_path,
            timeout=120,
        )
        one_line_refusal(done.stderr, done.returncode, "arena")
        return
    mine = [row for row in arena_rows(game_spec) if row["pairing"] == [OPPONENT, ai]]
    assert sorted(row["seat"] for row in mine) == [0, 1], mine
    game = make_game(game_spec)
    most = 0
    for row in mine:
        assert row["error"] is None and row["forfeit"] is None, row["error"]
        assert make_game(row["game"]) == game
        final, movers = replay(game, row["moves"], row["opening"])
        ai_player = row["players"].index(ai)
        assert row["score"] == game.score(final, 0)
        assert row["finished"] == game.is_terminal(final)
        assert len(row["moves"]) == ARENA_MOVES or row["finished"]
        most = max(most, movers.count(ai_player))
    assert most >= 2, f"{ai} made at most {most} move(s) in a game"
