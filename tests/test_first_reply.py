"""Issue 32, item 1: a first reply in seconds for every game and level on an empty cache.

An engine's player whose engine is not compiled yet plays from the Python search and says
so, while the engine compiles once in a background process; once the engine is ready it plays
again.  The server compiles the chosen game's engine first, and the estimate of the compile is
one number (counted down from the rate measured on this machine) in the header chip and the
thinking line alike.  Nothing here compiles an engine: "not ready" is a fake (the readiness
check replaced, or an empty ``NUMBA_CACHE_DIR``), and so is the compile's process."""

from __future__ import annotations

import asyncio
import io
import json
import os
from dataclasses import replace
from types import SimpleNamespace

import pytest
from helpers import scripted
from rich.console import Console

import mancala.players.builtin as builtin
from mancala.engine import readiness
from mancala.engine.support import engine_support
from mancala.games import make_game
from mancala.players import make_player, wall_budget
from mancala.record import GameRecord
from mancala.search.core import SearchResult
from mancala.server.config import ServerConfig
from mancala.server.hub import Hub
from mancala.server.session import Client, _seat
from mancala.server.state import common_state
from mancala.server.warmup import WarmUp
from mancala.ui.terminal import TerminalGame


class FakeCompile:
    """The compile's background process, as :func:`readiness.start_compile` sees it: alive
    until :meth:`end`."""

    def __init__(self) -> None:
        self.started: list[list[str]] = []
        self.code: int | None = None
        self.pid = os.getpid()  # a live process id (the marker's)

    def __call__(self, command: list[str]) -> FakeCompile:
        self.started.append(command)
        return self

    def poll(self) -> int | None:
        return self.code

    def end(self) -> None:
        self.code = 0


@pytest.fixture
def empty_cache(tmp_path, monkeypatch) -> FakeCompile:
    """An empty numba cache (a temporary ``NUMBA_CACHE_DIR``), no engine loaded in this
    process, the Python search's bound short, and a fake compile process."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(readiness, "_LOADED", set())
    monkeypatch.setattr(readiness, "_CACHED", set())
    monkeypatch.setattr(readiness, "_STARTED", {})
    monkeypatch.setattr(readiness, "_STARTED_AT", {})
    monkeypatch.setattr(readiness, "FALLBACK_SECONDS", 0.2)
    monkeypatch.setattr(readiness, "_FALLBACK", True)  # as in the terminal's game and the server's workers
    spawn = FakeCompile()
    monkeypatch.setattr(readiness, "_spawn", spawn)
    return spawn


def engine_plays(monkeypatch, game: str) -> list[str]:
    """Replace ``game``'s engine by a stand-in that must not search while the engine is not
    ready, and plays its first legal move once it is; returns the calls it had."""
    calls: list[str] = []
    record = engine_support(game)
    assert record is not None

    def best(g, state, seconds, max_depth, max_nodes, evaluation, book):
        calls.append("best")
        move = list(g.legal_moves(state))[0]
        return SearchResult(move, 0.0, (move,), 1, 1, "engine")

    def timed(g, state, seconds, max_depth):
        calls.append("timed")
        return best(g, state, seconds, max_depth, None, None, False)

    timed_or_none = timed if record.timed is not None else None
    fake = replace(record, best=best, timed=timed_or_none, kernels=readiness.kernel_marks(record))
    monkeypatch.setattr(builtin, "engine_support", lambda name: fake if name == game else engine_support(name))
    return calls


def mark_compiled(record) -> None:
    """What a finished compile leaves: the kernel marks' index files in the cache folder."""
    for module, function in readiness.kernel_marks(record):
        source = readiness._source(module)
        assert source is not None
        folder = readiness.cache_folders(source)[0]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{source.stem}.{function}-1.py312.nbi").write_bytes(b"")


# --- the players ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, spec",
    [
        ("kalah", "expert"),
        ("kalah", "strongest"),
        ("kalah", "best:time=1"),
        ("oware", "medium"),
        ("oware", "strongest"),
        ("bao", "hard"),  # Bao's levels: alpha-beta on its engine's timed search
        ("bao", "best"),
    ],
)
def test_a_level_whose_engine_is_not_ready_plays_from_the_python_search_and_says_so(
    game, spec, empty_cache, monkeypatch
):
    calls = engine_plays(monkeypatch, game)
    g = make_game(game)
    state = g.initial_state()
    for _ in range(12 if game == "kalah" else 0):  # past Kalah's opening book (it answers first: below)
        state = g.apply(state, list(g.legal_moves(state))[-1])
    while builtin.book_answer(g, state, engine_support(game)) is not None:  # past an opening tree (Oware's)
        state = g.apply(state, list(g.legal_moves(state))[-1])
    assert builtin.book_answer(g, state, engine_support(game)) is None
    player = make_player(spec)
    move = player.choose(g, state)
    assert move in g.legal_moves(state)
    assert calls == []  # the engine was not asked: it would have compiled
    assert builtin.searched_in_python(player.last)
    assert player.last.algorithm == readiness.FALLBACK_ALGORITHM == "python(engine compiling)"
    assert len(empty_cache.started) == 1 and empty_cache.started[0][-1] == game


@pytest.mark.parametrize("spec", ["expert", "strongest", "best:time=1"])
def test_kalahs_opening_book_answers_while_its_engine_compiles(spec, empty_cache, monkeypatch):
    """The book is read in Python: the first moves are the book's exact ones from the start,
    the same the compiled engine's player plays, and the compile starts meanwhile."""
    from mancala.engine.book import probe

    calls = engine_plays(monkeypatch, "kalah")
    g = make_game("kalah")
    state = g.initial_state()
    player = make_player(spec)
    move = player.choose(g, state)
    assert calls == []
    assert player.last.algorithm == "book(exact)" and player.last.nodes == 0
    hit = probe(g, state)
    assert hit is not None and (move, player.last.value) == (hit[0], hit[1])
    assert player.last.line[0] == move and len(player.last.line) > 1
    assert len(empty_cache.started) == 1
    # with the book off, the Python search plays
    plain = make_player(f"{spec},book=off" if ":" in spec else "best:book=off")
    plain.choose(g, state)
    assert builtin.searched_in_python(plain.last)


def test_the_python_search_keeps_to_the_levels_depth_at_most_the_records(empty_cache, monkeypatch):
    engine_plays(monkeypatch, "oware")
    monkeypatch.setattr(readiness, "FALLBACK_SECONDS", 60.0)  # the depth bounds it here, not the clock
    g = make_game("oware")
    medium = make_player("medium")  # best:depth=3 on Oware's engine
    medium.choose(g, g.initial_state())
    assert medium.last.depth == 3
    strongest = make_player("best:depth=12")
    strongest.choose(g, g.initial_state())
    assert strongest.last.depth == engine_support("oware").python_depth == 8


def test_the_background_compile_starts_once_and_the_engine_plays_once_ready(empty_cache, monkeypatch):
    calls = engine_plays(monkeypatch, "oware")
    g = make_game("oware")
    record = engine_support("oware")
    player = make_player("medium")
    state = g.initial_state()
    for _ in range(3):  # three moves while it compiles: one compile
        state = g.apply(state, player.choose(g, state))
        if g.to_move(state) != 0:
            state = g.apply(state, list(g.legal_moves(state))[0])
    assert empty_cache.started == [readiness.compile_command("oware")]
    assert readiness.compiling_since(record) is not None and not readiness.engine_ready(record)
    assert readiness.start_compile(record) is False  # another asker: still the one compile
    # the compile ends, its kernels in the cache: the engine plays the next move
    mark_compiled(record)
    empty_cache.end()
    assert readiness.engine_ready(record)
    player.choose(g, state)
    assert calls == ["best"] and not builtin.searched_in_python(player.last)
    assert len(empty_cache.started) == 1


def test_a_compile_under_way_in_another_process_is_not_started_again(empty_cache, tmp_path):
    record = engine_support("kalah")
    folder = readiness.state_folder(record)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mancala-compiling-kalah.json").write_text(json.dumps({"pid": os.getpid(), "started": 1.0}))
    assert readiness.compiling_since(record) == 1.0
    assert readiness.start_compile(record) is False and empty_cache.started == []


def test_a_cache_that_cannot_be_written_still_gets_one_compile(empty_cache, monkeypatch):
    monkeypatch.setattr(readiness, "_write", lambda path, data: None)  # no marker, no stored rate
    record = engine_support("bao")
    assert readiness.start_compile(record) is True
    assert readiness.start_compile(record) is False and len(empty_cache.started) == 1
    assert readiness.compile_left(record, now=readiness._STARTED_AT["bao"]) == readiness.COMPILE_SECONDS


def test_every_engine_record_gets_it_through_its_kernels_by_default():
    # a record naming no kernels (Togyz Kumalak's, when it lands) is marked by its package's search.negamax
    for game in ("kalah", "bao", "oware"):
        record = engine_support(game)
        package = record.best.__module__.rpartition(".")[0]
        assert readiness.kernel_marks(record) == ((package + ".search", "negamax"),)


def test_the_terminal_says_the_move_came_from_the_python_search(empty_cache, monkeypatch):
    engine_plays(monkeypatch, "oware")
    players = [make_player("human"), make_player("medium")]
    players[0].ask = None
    console = Console(record=True, width=120, file=io.StringIO())
    game = TerminalGame(
        GameRecord(make_game("oware"), ["human", "medium"]), players, console=console, read_line=scripted(["1", "quit"])
    )
    assert game.run() == 0
    text = console.export_text()
    assert "engine compiling: this move from the Python search (the engine is ready in about 90 s)" in text


def test_without_a_person_waiting_the_engine_is_compiled_in_place(empty_cache, monkeypatch):
    # a match, an arena, a script: the engine's moves, however long its compile takes
    calls = engine_plays(monkeypatch, "oware")
    readiness.play_while_compiling(False)
    g = make_game("oware")
    player = make_player("medium")
    player.choose(g, g.initial_state())
    assert calls == ["best"] and empty_cache.started == []


def test_a_levels_engine_budget_keeps_to_its_wall_clock_budget(monkeypatch):
    # strongest on Kalah searches 6,000,000 nodes: on a loaded machine that took 118 s; its
    # level's 60 s bound it in wall time, and the page shows that budget while it thinks
    seconds: list[float] = []
    record = engine_support("kalah")

    def best(g, state, s, max_depth, max_nodes, evaluation, book):
        seconds.append(s)
        move = list(g.legal_moves(state))[0]
        return SearchResult(move, 0.0, (move,), 1, 1, "engine")

    fake = replace(record, best=best)
    monkeypatch.setattr(builtin, "engine_support", lambda name: fake if name == "kalah" else engine_support(name))
    monkeypatch.setattr(readiness, "engine_ready", lambda record: True)
    g = make_game("kalah")
    strongest = make_player("strongest")
    strongest.choose(g, g.apply(g.initial_state(), list(g.legal_moves(g.initial_state()))[1]))
    assert seconds == [60.0] and strongest.player_for(g).spec.startswith("best:nodes=6000000")
    assert wall_budget(strongest, g) == 60.0 and wall_budget(make_player("expert"), g) == 30.0
    assert wall_budget(make_player("medium"), g) is None  # alpha-beta to depth 2: no clock
    hub = Hub(ServerConfig(warm=False))
    assert hub.expectation(_seat("strongest", g)) == {"doing": "searching", "estimate": None, "budget": 60.0}


def test_a_hint_while_the_engine_compiles_comes_from_python_and_says_so(empty_cache, monkeypatch):
    record = engine_support("oware")

    def engine_values(game, state, nodes):
        raise AssertionError("the engine's table was asked for while it compiles")

    fake = replace(record, values=engine_values, kernels=readiness.kernel_marks(record))
    import mancala.analysis.values as values

    monkeypatch.setattr(values, "engine_support", lambda name: fake if name == "oware" else engine_support(name))
    players = [make_player("human"), make_player("human")]
    console = Console(record=True, width=120, file=io.StringIO())
    game = TerminalGame(
        GameRecord(make_game("oware"), ["human", "human"]),
        players,
        console=console,
        read_line=scripted(["hint", "quit"]),
        hint_seconds=0.01,
    )
    assert game.run() == 0
    text = console.export_text()
    assert "engine compiling: this hint from the Python search" in text and "Hint: " in text
    assert empty_cache.started == [readiness.compile_command("oware")]


# --- the estimate ---------------------------------------------------------------------------


def test_the_estimate_counts_down_from_the_stored_rate_and_never_sits_at_zero():
    assert readiness.seconds_left(90.0, 0.0) == 90.0
    assert readiness.seconds_left(90.0, 30.0) == 60.0
    assert readiness.seconds_left(90.0, 89.9) == 9.0  # nearly overrun: a tenth of the time spent
    assert readiness.seconds_left(90.0, 200.0) == 20.0  # overrun: still a count, not "<1 s"
    assert readiness.seconds_left(5.0, 4.9) == 1.0


def test_the_compile_estimate_is_the_last_compile_measured_here(empty_cache, monkeypatch):
    record = engine_support("oware")
    assert readiness.compile_estimate(record) == readiness.COMPILE_SECONDS  # never measured here
    folder = readiness.state_folder(record)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mancala-compile-oware.json").write_text(json.dumps({"seconds": 48.5}))
    (folder / "mancala-compiling-oware.json").write_text(json.dumps({"pid": os.getpid(), "started": 1000.0}))
    assert readiness.compile_count(record, now=1010.0) == {"estimate": 48.5, "elapsed": 10.0, "left": 38.5}
    assert readiness.compile_left(record, now=1010.0) == 38.5


def test_the_compile_process_stores_its_measured_seconds(empty_cache, monkeypatch):
    record = engine_support("bao")
    ticks = iter([100.0, 142.0])
    monkeypatch.setattr(readiness, "time", SimpleNamespace(monotonic=lambda: next(ticks), time=lambda: 0.0))
    warmed = []
    fake = replace(record, warm_up=lambda: warmed.append("bao"), kernels=readiness.kernel_marks(record))
    monkeypatch.setattr(readiness, "engine_support", lambda game: fake)
    assert readiness.compile_engine("bao") == 42.0 and warmed == ["bao"]
    assert readiness.compile_estimate(record) == 42.0


def test_the_header_chip_and_the_thinking_line_get_one_number(empty_cache, monkeypatch):
    record = engine_support("oware")
    folder = readiness.state_folder(record)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mancala-compile-oware.json").write_text(json.dumps({"seconds": 60.0}))
    (folder / "mancala-compiling-oware.json").write_text(json.dumps({"pid": os.getpid(), "started": 1000.0}))
    monkeypatch.setattr(readiness, "time", SimpleNamespace(time=lambda: 1020.0, monotonic=lambda: 0.0))
    hub = Hub(ServerConfig(warm=False))
    client = Client(hub, "127.0.0.1", lambda msg: None, lambda code, why: None)
    session = hub.create(client, make_game("oware"), ["human", "medium"], None, None)
    seat = session.seats[1]
    session.thinking = {"player": 1, "spec": seat.spec, "since": 0.0, **hub.expectation(seat)}
    state = common_state(session)
    assert state["engine"] == "preparing"
    assert state["engine_detail"]["left"] == state["thinking"]["engine_left"] == 40.0
    assert state["thinking"]["doing"] == readiness.NOTE
    assert state["thinking"]["budget"] == readiness.FALLBACK_SECONDS  # the page shows the move's budget


def test_an_engine_player_is_told_what_it_waits_for(empty_cache, monkeypatch):
    hub = Hub(ServerConfig(warm=False))
    kalah, bao = make_game("kalah"), make_game("bao")
    expert = hub.expectation(_seat("expert", kalah))
    assert expert["doing"] == readiness.NOTE and expert["engine_left"] == readiness.COMPILE_SECONDS
    assert hub.expectation(_seat("medium", kalah)) == {"doing": "searching", "estimate": None, "budget": None}
    assert hub.expectation(_seat("medium", bao))["doing"] == readiness.NOTE  # Bao's levels use its engine
    monkeypatch.setattr(readiness, "engine_ready", lambda record: True)
    assert hub.expectation(_seat("best:time=2", kalah)) == {"doing": "searching", "estimate": 2.0, "budget": 2.0}


# --- the server's warm-up order --------------------------------------------------------------


class FakeCompiles:
    """The warm-up's compiles on a fake clock: each takes ``seconds`` sleeps of its own."""

    def __init__(self, seconds: int = 3) -> None:
        self.seconds = seconds
        self.done: set[str] = set()
        self.running: dict[str, int] = {}
        self.stopped: list[str] = []
        self.hook = lambda: None  # called on every sleep (a person choosing a game meanwhile)

    def warm_up(self, games: list[str]) -> WarmUp:
        return WarmUp(
            games,
            start=lambda r: self.running.setdefault(r.game, 0) == 0,
            ready=lambda r: r.game in self.done,
            running=lambda r: r.game in self.running,
            stop=lambda r: (self.stopped.append(r.game), self.running.pop(r.game, None)),
            sleep=self.sleep,
        )

    async def sleep(self, seconds: float) -> None:
        self.hook()
        for game in list(self.running):
            self.running[game] += 1
            if self.running[game] >= self.seconds:
                del self.running[game]
                self.done.add(game)


def test_the_warm_up_compiles_the_chosen_game_first():
    compiles = FakeCompiles()
    warm = compiles.warm_up(["kalah", "bao", "oware"])
    warm.first("oware")  # a person chose Oware before the warm-up began
    asyncio.run(warm.run())
    assert warm.started == ["oware", "kalah", "bao"] and compiles.done == {"kalah", "bao", "oware"}


def test_a_chosen_game_stops_a_compile_nobody_waits_for_and_it_is_taken_up_after():
    compiles = FakeCompiles()
    warm = compiles.warm_up(["kalah", "bao", "oware"])

    def choose() -> None:
        if warm.current == "kalah" and not compiles.stopped:
            warm.first("oware")  # chosen while Kalah's compile runs
            warm.first("oware")  # twice: still one compile

    compiles.hook = choose
    asyncio.run(warm.run())
    assert compiles.stopped == ["kalah"]
    assert warm.started == ["kalah", "oware", "kalah", "bao"] and compiles.done == {"kalah", "bao", "oware"}


def test_a_chosen_games_compile_is_not_stopped_for_another():
    compiles = FakeCompiles()
    warm = compiles.warm_up(["kalah", "bao", "oware"])
    warm.first("kalah")

    def choose() -> None:
        if warm.current == "kalah":
            warm.first("oware")

    compiles.hook = choose
    asyncio.run(warm.run())
    assert compiles.stopped == [] and warm.started == ["kalah", "oware", "bao"]


def test_the_server_puts_a_new_games_engine_first(monkeypatch):
    monkeypatch.setattr(readiness, "engine_ready", lambda record: False)
    hub = Hub(ServerConfig(warm=False))
    hub.warmup = FakeCompiles().warm_up(["kalah", "bao", "oware"])
    client = Client(hub, "127.0.0.1", lambda msg: None, lambda code, why: None)
    hub.create(client, make_game("bao"), ["human", "medium"], None, None)
    assert hub.warmup.queue == ["bao", "kalah", "oware"]
