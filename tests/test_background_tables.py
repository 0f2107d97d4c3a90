"""Issue 29, item 4: Oware's and Togyz Kumalak's endgame tables built in the background on
first use, while play goes on, with progress (:mod:`mancala.engine.table_builds`).

No test starts a real multi-minute build: the builder's process is a fake (``spawn``), or the
builder runs in this process on a few seeds (a second, once its kernels are compiled), in a
temporary cache (``MANCALA_CACHE_DIR``); clocks are given."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from helpers import scripted
from rich.console import Console

import mancala.engine  # noqa: F401 (registers the engines)
from mancala.engine import table_builds
from mancala.engine.oware import endgame as oware_endgame
from mancala.engine.oware import exact as oware_exact
from mancala.engine.retrograde import TierReport
from mancala.engine.support import engine_support
from mancala.games import make_game
from mancala.players import make_player, uses_table
from mancala.record import GameRecord
from mancala.server.config import ServerConfig
from mancala.server.hub import Hub
from mancala.server.session import Client, _seat
from mancala.server.state import common_state
from mancala.ui.terminal import TerminalGame


class FakeBuild:
    """A builder's process as :func:`table_builds.ensure` sees it: alive until :meth:`end`."""

    def __init__(self) -> None:
        self.started: list[list[str]] = []
        self.returncode: int | None = None
        self.pid = os.getpid()
        self.terminated = False
        self.errors: io.BufferedRandom | None = None

    def __call__(self, command: list[str], errors) -> FakeBuild:
        self.started.append(command)
        self.errors = errors
        self.returncode = None
        return self

    def poll(self) -> int | None:
        return self.returncode

    def end(self, code: int, line: str = "") -> None:
        """The builder ends with ``code``, having written ``line`` on its stderr."""
        if line and self.errors is not None:
            self.errors.write(line.encode() + b"\n")
        self.returncode = code

    def terminate(self) -> None:
        self.terminated = True
        self.returncode = -15

    def wait(self, timeout: float | None = None) -> int | None:
        return self.returncode

    def kill(self) -> None:
        self.returncode = -9


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty table cache, this process building in the background (as the server and the
    terminal do), nothing remembered of earlier builds, no loaded tables."""
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(table_builds.ENV, raising=False)
    monkeypatch.setattr(table_builds, "_BUILDS", {})
    monkeypatch.setattr(table_builds, "_DONE", set())
    monkeypatch.setattr(table_builds, "_FAILED", {})
    monkeypatch.setattr(table_builds, "_SEEN", {})
    monkeypatch.setattr(table_builds, "_ON", True)
    oware_exact.forget_tables()
    yield tmp_path
    oware_exact.forget_tables()
    for build in table_builds._BUILDS.values():  # (a fake's stderr file, still open)
        if build.errors is not None:
            build.errors.close()


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# --- what is built, and for which levels -----------------------------------------------------


def test_the_default_sizes_build_in_minutes_within_a_modest_memory_bound():
    oware, togyz = engine_support("oware"), engine_support("togyz")
    assert (oware.background_size, togyz.background_size) == (18, 8)
    from mancala.engine.togyz import endgame as togyz_endgame

    # 86 M and 60 M positions: a few minutes on two busy cores, under 0.4 GiB to build
    assert sum(oware_endgame.tier_positions(make_game("oware").rules, t) for t in range(19)) == 86_493_225
    assert oware_endgame.memory_needed(make_game("oware").rules, 18) < 0.35 * 2**30
    assert togyz_endgame.entries(make_game("togyz").rules, 8) == 60_053_851
    assert togyz_endgame.memory_needed(make_game("togyz").rules, 8) < 0.4 * 2**30
    assert engine_support("bao").background_size == 0
    # Kalah(6,4): K = 20, 226 M positions over the levels 0..20, 135 MB (the players' share
    # of the default memory bound holds it); seven pits get less (265 M), the choice rule none
    from mancala.engine import endgame as kalah_endgame
    from mancala.engine import kalah_tables

    kalah = make_game("kalah").rules
    assert engine_support("kalah").background_size == kalah_tables.BACKGROUND_SEEDS == 20
    assert sum(kalah_tables.tier_positions(kalah, t) for t in range(21)) == kalah_endgame.entries(6, 20) == 225_792_840
    assert kalah_tables.memory_needed(kalah, 20) < 0.25 * 2**30
    assert kalah_tables.largest_buildable(kalah, 20) == 20
    assert kalah_tables.largest_buildable(make_game("kalah(pits=7,seeds=7)").rules, 20) == 17
    assert kalah_tables.largest_buildable(make_game("kalah(pits=3,seeds=3)").rules, 20) == 18  # all its seeds
    assert kalah_tables.largest_buildable(make_game("kalah(pits=4)").rules, 20) == 28  # the players' own
    assert kalah_tables.largest_buildable(make_game("kalah(preset=ethiopian)").rules, 20) == -1


@pytest.mark.parametrize(
    "game, spec, reads",
    [
        ("oware", "strongest", True),  # best:nodes=150000, the table on
        ("oware", "best:time=1", True),
        ("oware", "expert", False),  # a depth budget: the measured ladder, no table
        ("oware", "medium", False),
        ("oware", "best:book=off", False),
        ("togyz", "strongest", True),
        ("togyz", "hard", False),
        ("kalah", "strongest", True),  # best:nodes=6000000: its endgame database, K = 20
        ("kalah", "best:time=1", True),
        ("kalah", "expert", False),  # best:depth=5
        ("kalah(preset=ethiopian)", "strongest", False),  # the choice of direction: no database
        ("oware(skip_twelve=true)", "strongest", False),  # no table for these rules
    ],
)
def test_the_levels_that_read_a_table_are_the_ones_that_start_its_build(game, spec, reads):
    g = make_game(game)
    assert uses_table(make_player(spec), g) is reads
    assert _seat(spec, g).table is reads


# --- starting builds ------------------------------------------------------------------------


def test_a_build_starts_once_per_table_and_only_where_a_person_plays(cache, monkeypatch):
    spawn = FakeBuild()
    oware = make_game("oware")
    record = engine_support("oware")
    table_builds.build_in_background(False)  # a match, a script, a test
    assert table_builds.ensure(record, oware, spawn) is False and spawn.started == []
    table_builds.build_in_background(True)
    monkeypatch.setenv(table_builds.ENV, "0")  # opted out
    assert table_builds.ensure(record, oware, spawn) is False and spawn.started == []
    monkeypatch.setenv(table_builds.ENV, "1")
    assert table_builds.ensure(record, oware, spawn) is True
    command = spawn.started[0]
    assert command[1:] == ["-m", "mancala.engine.table_builds", "oware", "18", str(os.getpid())]
    assert table_builds.ensure(record, oware, spawn) is False  # it runs: one build
    assert table_builds.running()
    spawn.end(table_builds.EXIT_BUSY)  # another process's build held the lock: tried again later
    assert table_builds.ensure(record, oware, spawn) is True and len(spawn.started) == 2
    spawn.end(table_builds.EXIT_STOPPED)  # stopped from outside: not a failure, asked again
    assert table_builds.progress(make_game("oware")) is None
    assert table_builds.ensure(record, oware, spawn) is True and len(spawn.started) == 3
    spawn.end(0)  # built (or whole already)
    assert not table_builds.running()
    assert table_builds.ensure(record, oware, spawn) is False and len(spawn.started) == 3
    assert table_builds.ensure(engine_support("bao"), make_game("bao"), spawn) is False  # no tables
    ethiopian = make_game("kalah(preset=ethiopian)")  # Kalah with no database for its rules
    assert table_builds.ensure(engine_support("kalah"), ethiopian, spawn) is False and len(spawn.started) == 3
    assert table_builds.ensure(engine_support("kalah"), make_game("kalah"), spawn) is True
    assert spawn.started[-1][1:] == ["-m", "mancala.engine.table_builds", "kalah", "20", str(os.getpid())]


def test_a_build_held_by_another_process_is_not_started_again(cache):
    spawn = FakeBuild()
    lock = {"key": "togyz", "pid": os.getpid(), "size": 8, "unit": "stones", "started": 1.0}
    table_builds.lock_path().write_text(json.dumps(lock))
    assert table_builds.ensure(engine_support("oware"), make_game("oware"), spawn) is False
    assert spawn.started == []
    # its progress is the other table's, not this one's
    assert table_builds.progress(make_game("oware")) is None
    assert table_builds.progress(make_game("togyz"))["size"] == 8


def test_a_stale_lock_is_removed_and_taken(cache):
    path = table_builds.lock_path()
    path.write_text(json.dumps({"key": "oware", "pid": dead_pid()}))
    assert table_builds.read_lock() is None and not path.exists()
    path.write_text(json.dumps({"key": "oware", "pid": dead_pid()}))
    assert table_builds.take_lock({"key": "togyz"}) is True
    assert json.loads(path.read_text()) == {"key": "togyz", "pid": os.getpid()}
    assert table_builds.take_lock({"key": "oware"}) is False  # held by a live process: this one
    table_builds.release_lock()
    assert not path.exists()


# --- the builder ----------------------------------------------------------------------------


def test_the_builder_builds_the_tiers_reports_each_in_the_lock_and_releases_it(cache, monkeypatch):
    written: list[dict] = []
    write = table_builds.write_lock
    monkeypatch.setattr(table_builds, "write_lock", lambda data, path=None: (written.append(dict(data)), write(data)))
    monkeypatch.setattr(table_builds, "MEASURED_POSITIONS", 1000)
    assert table_builds.run_build("oware", 5) == 0
    rules = make_game("oware").rules
    assert all(oware_endgame.tier_path(rules, t).exists() for t in range(6))
    assert [w["done"] for w in written] == [0, 1, 2, 3, 4, 5]
    assert written[-1]["left_positions"] == 0 and written[0]["unit"] == "seeds" and written[0]["size"] == 5
    positions = sum(oware_endgame.tier_positions(rules, t) for t in range(6))
    assert written[-1]["built_positions"] == positions
    # the rate is the last tier's of at least MEASURED_POSITIONS (1,000 here): tiers 4 and 5
    assert "rate" not in written[3] and 0 < written[-1]["rate"] != written[4]["rate"]
    assert not table_builds.lock_path().exists()
    # again: the table is whole, nothing is built (the lock taken and released)
    written.clear()
    assert table_builds.run_build("oware", 5) == 0 and written == []
    assert oware_endgame.load(rules, 5) is not None


def test_the_kalah_builder_reports_each_level_and_then_the_players_search_with_it(cache, monkeypatch):
    from mancala.engine import endgame as kalah_endgame
    from mancala.engine import tables

    monkeypatch.setattr(kalah_endgame, "DEFAULT_ENTRIES", 10)  # (so that 8 seeds is more than the players')
    monkeypatch.setattr(kalah_endgame, "PLAY_ENTRIES", 10)
    written: list[dict] = []
    write = table_builds.write_lock
    monkeypatch.setattr(table_builds, "write_lock", lambda data, path=None: (written.append(dict(data)), write(data)))
    spec = "kalah(pits=3,seeds=3)"
    game, record = make_game(spec), engine_support("kalah")
    tables.drop_all()
    try:
        assert tables.database(game, tables.context(game, 18)).seeds == kalah_endgame.play_seeds(3) == 1
        assert record.table_seeds(game) == 1 and table_builds.refresh(record, game) is True  # (a first look)
        assert table_builds.refresh(record, game) is False  # nothing new
        assert table_builds.run_build(spec, 8) == 0
        assert [w["done"] for w in written] == list(range(9)) and written[0]["unit"] == "seeds"
        # levels 0-1 come from the players' 1-seed database (the same entry width), as loaded
        built = kalah_endgame.entries(3, 8) - kalah_endgame.entries(3, 1)
        assert written[-1]["built_positions"] == built and written[-1]["left_positions"] == 0
        assert not table_builds.lock_path().exists() and record.table_seeds(game) == 8
        assert table_builds.refresh(record, game) is True  # the next search reads the larger one
        assert tables.database(game, tables.context(game, 18)).seeds == 8
        written.clear()
        assert table_builds.run_build(spec, 8) == 0 and written == []  # whole already: nothing built
    finally:
        tables.drop_all()


def test_the_players_read_the_finished_tiers_as_they_land(cache, monkeypatch):
    oware = make_game("oware")
    reloads: list[int] = []
    record = replace(engine_support("oware"), reload_tables=lambda: (reloads.append(1), oware_exact.forget_tables()))
    assert table_builds.refresh(record, oware) is False  # nothing on disk yet
    assert table_builds.run_build("oware", 3) == 0  # the first tiers landed
    assert table_builds.refresh(record, oware) is True and reloads == [1]
    table_builds._SEEN.clear()  # a process that never looked, a table perhaps loaded by a hint
    assert table_builds.refresh(record, oware) is True and reloads == [1, 1]
    reloads.clear()
    assert oware_exact.table_for(oware.rules).max_seeds == 3  # the players' table: tiers 0-3
    assert table_builds.refresh(record, oware) is False  # nothing new
    assert table_builds.run_build("oware", 5) == 0  # two more
    assert table_builds.refresh(record, oware) is True and reloads == [1]
    assert oware_exact.table_for(oware.rules).max_seeds == 5
    # once the table is as large as the record's size, no more looking
    small = replace(record, background_size=5)
    assert table_builds.refresh(small, oware) is False
    assert table_builds._SEEN["oware"] == 5


def test_a_second_builder_ends_at_once_while_the_lock_is_held(cache):
    table_builds.lock_path().write_text(json.dumps({"key": "oware", "pid": os.getpid()}))
    assert table_builds.run_build("oware", 2) == table_builds.EXIT_BUSY
    assert not oware_endgame.tier_path(make_game("oware").rules, 0).exists()


def test_a_build_that_cannot_write_the_cache_fails_in_one_line(tmp_path, monkeypatch, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(blocked / "cache"))
    assert table_builds.run_build("oware", 2) == table_builds.EXIT_FAILED
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("cannot write the table cache")


def test_a_stopped_build_keeps_its_finished_tiers_and_releases_the_lock(cache, monkeypatch):
    def build(rules, size, progress=None, memory=None):
        progress(TierReport(0, 1, 0.1, False))
        raise KeyboardInterrupt  # SIGTERM in the builder (table_builds._stop), or Ctrl-C

    monkeypatch.setattr(oware_endgame, "build", build)
    assert table_builds.run_build("oware", 4) == table_builds.EXIT_STOPPED
    assert not table_builds.lock_path().exists()
    with pytest.raises(KeyboardInterrupt):
        table_builds._stop(15, None)


def test_a_failed_build_is_reported_in_one_line_and_not_started_again(cache):
    spawn = FakeBuild()
    oware = make_game("oware")
    assert table_builds.ensure(engine_support("oware"), oware, spawn)
    spawn.end(table_builds.EXIT_FAILED, "numba noise\ncannot write the table cache /c: No space left on device")
    found = table_builds.progress(oware)
    assert found["error"] == "cannot write the table cache /c: No space left on device"
    line = table_builds.progress_line(found)
    assert line == "endgame table not built: cannot write the table cache /c: No space left on device"
    assert table_builds.ensure(engine_support("oware"), oware, spawn) is False and len(spawn.started) == 1


def test_stop_builds_ends_the_builders_this_process_started(cache):
    spawn = FakeBuild()
    assert table_builds.ensure(engine_support("togyz"), make_game("togyz"), spawn)
    table_builds.stop_builds()
    assert spawn.terminated and not table_builds.running()
    # stopped, not failed: the next first move starts it again (it resumes from the finished tiers)
    assert table_builds.ensure(engine_support("togyz"), make_game("togyz"), spawn) is True


# --- progress -------------------------------------------------------------------------------


def test_the_time_left_is_the_tiers_left_at_the_measured_rate_counted_down():
    lock = {
        "key": "oware", "unit": "seeds", "size": 18, "started": 1000.0, "updated": 1100.0, "done": 12,
        "built_positions": 2_100_000, "built_seconds": 24.0, "rate": 2e-6, "left_positions": 60_000_000,
    }  # fmt: skip
    found = table_builds.lock_progress(lock, now=1100.0)
    assert found == {"game": "oware", "unit": "seeds", "done": 12, "size": 18, "elapsed": 100.0, "left": 120.0,
                     "error": None}  # fmt: skip
    assert table_builds.progress_line(found) == "endgame table: 12 of 18 seeds, about 2 min left"
    later = table_builds.lock_progress(lock, now=1160.0)
    assert later["left"] == 60.0 and later["elapsed"] == 160.0
    assert table_builds.progress_line(later) == "endgame table: 12 of 18 seeds, about 60 s left"
    # overrun: a tenth of the time since the last tier, at least a second
    assert table_builds.lock_progress(lock, now=1300.0)["left"] == 20.0
    # no tier large enough to measure yet: the default rate
    fresh = dict(lock, rate=None)
    assert table_builds.lock_progress(fresh, now=1100.0)["left"] == 60_000_000 * table_builds.SECONDS_PER_POSITION
    assert table_builds.lock_progress(dict(lock, rate=1e-5), now=1100.0)["left"] == 600.0


def test_progress_before_the_builder_holds_the_lock_says_it_starts(cache):
    spawn = FakeBuild()
    togyz = make_game("togyz")
    table_builds.ensure(engine_support("togyz"), togyz, spawn)
    found = table_builds.progress(togyz)
    assert found["done"] == -1 and found["size"] == 8 and found["error"] is None
    assert table_builds.progress_line(found) == "endgame table: starting the build (8)"
    assert table_builds.progress(make_game("oware")) is None


# --- the server and the terminal ------------------------------------------------------------


def test_the_server_starts_the_build_and_its_state_carries_the_progress(cache):
    spawn = FakeBuild()
    hub = Hub(ServerConfig(warm=False, background_tables=True))
    hub.table_spawn = spawn
    client = Client(hub, "127.0.0.1", lambda msg: None, lambda code, why: None)
    session = hub.create(client, make_game("oware"), ["human", "strongest"], None, None)
    assert session.seats[1].table and not session.seats[0].table
    assert common_state(session)["table_build"] is None  # nothing asked yet
    hub.want_table(session.game)
    assert len(spawn.started) == 1
    lock = {"key": "oware", "pid": os.getpid(), "unit": "seeds", "size": 18, "started": 1.0, "updated": 1.0,
            "done": 12, "built_positions": 0, "built_seconds": 0.0, "left_positions": 100}  # fmt: skip
    table_builds.lock_path().write_text(json.dumps(lock))
    state = common_state(session)
    assert state["table_build"]["done"] == 12 and state["table_build"]["unit"] == "seeds"
    # another table's build holds the lock: a Kalah game's state says nothing of it
    other = hub.create(client, make_game("kalah"), ["human", "strongest"], None, None)
    assert common_state(other)["table_build"] is None and other.seats[1].table
    # Bao builds nothing in the background: no field value
    other = hub.create(client, make_game("bao"), ["human", "strongest"], None, None)
    assert common_state(other)["table_build"] is None and not other.seats[1].table


def test_a_server_told_not_to_builds_nothing(cache):
    spawn = FakeBuild()
    hub = Hub(ServerConfig(warm=False))  # background_tables off: the tests' and a library's default
    hub.table_spawn = spawn
    hub.want_table(make_game("oware"))
    assert spawn.started == []


def test_web_and_serve_build_in_the_background_unless_told_not_to(monkeypatch):
    from mancala.cli.main import build_parser
    from mancala.server.command import _config

    monkeypatch.delenv(table_builds.ENV, raising=False)
    parser = build_parser()
    assert _config(parser.parse_args(["web", "--no-browser"]), None, None).background_tables is True
    off = parser.parse_args(["web", "--no-browser", "--no-background-tables"])
    assert _config(off, None, None).background_tables is False
    monkeypatch.setenv(table_builds.ENV, "off")
    assert _config(parser.parse_args(["serve"]), None, None).background_tables is False


def test_the_terminal_starts_the_build_and_says_where_it_stands(cache, monkeypatch):
    spawn = FakeBuild()
    from mancala.players import builtin
    from mancala.search.core import SearchResult

    def best(g, state, seconds, max_depth, max_nodes, evaluation, book):
        move = list(g.legal_moves(state))[0]
        return SearchResult(move, 0.0, (move,), 1, 1, "engine")

    record = engine_support("oware")
    fake = replace(record, best=best)
    monkeypatch.setattr(builtin, "engine_support", lambda name: fake if name == "oware" else engine_support(name))
    monkeypatch.setattr(builtin.readiness, "python_meanwhile", lambda record: False)
    players = [make_player("human"), make_player("strongest")]
    console = Console(record=True, width=200, file=io.StringIO())
    game = TerminalGame(
        GameRecord(make_game("oware"), ["human", "strongest"]),
        players,
        console=console,
        read_line=scripted(["1", "quit"]),
        table_spawn=spawn,
    )
    assert game.run() == 0
    assert len(spawn.started) == 1 and spawn.terminated  # stopped as the game ends: resumed next time
    assert "endgame table: starting the build (18) (built in the background while you play)" in console.export_text()


def test_the_terminal_told_not_to_builds_nothing(cache):
    spawn = FakeBuild()
    game = TerminalGame(
        GameRecord(make_game("oware"), ["human", "strongest"]),
        [make_player("human"), make_player("strongest")],
        console=Console(file=io.StringIO()),
        read_line=scripted(["quit"]),
        background_tables=False,
        table_spawn=spawn,
    )
    assert game.run() == 0 and spawn.started == []


# --- the real builder process, on a few seeds ------------------------------------------------


def wait_for(check, seconds: float = 60.0) -> None:
    """Wait until ``check()`` is true (the builder process loads numba first: seconds)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the builder process did not get there in time"
        time.sleep(0.05)


def test_the_builder_process_builds_and_its_starter_takes_note(cache):
    oware = make_game("oware")
    record = replace(engine_support("oware"), background_size=4)
    assert table_builds.ensure(record, oware)  # the real spawn: python -m mancala.engine.table_builds
    wait_for(lambda: not table_builds.running())
    assert "oware" in table_builds._DONE and table_builds.progress(oware) is None
    assert oware_endgame.load(oware.rules, 4) is not None and not table_builds.lock_path().exists()


def test_the_builder_process_stops_on_sigterm_keeping_its_finished_tiers(cache):
    # (at the lowest priority on a busy machine a step may take a while: the generous timeouts)
    rules = make_game("oware").rules
    command = [sys.executable, "-m", "mancala.engine.table_builds", "oware", "14", str(os.getpid())]
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    wait_for(lambda: (table_builds.read_lock() or {}).get("done", -1) >= 9, 120)
    proc.terminate()
    assert proc.wait(120) == table_builds.EXIT_STOPPED
    assert not table_builds.lock_path().exists()
    kept = [t for t in range(15) if oware_endgame.tier_path(rules, t).exists()]
    assert kept == list(range(len(kept))) and 10 <= len(kept) < 15  # finished tiers kept, no more
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no half-written file left


def test_the_builder_stops_itself_when_the_process_that_started_it_is_gone(monkeypatch):
    # a server's worker ended, a terminal closed: the watchdog sends the builder SIGTERM
    import threading

    signals: list[tuple[int, int]] = []
    monkeypatch.setattr(table_builds, "WATCH_SECONDS", 0.01)
    monkeypatch.setattr(table_builds.os, "kill", lambda pid, sig: signals.append((pid, sig)))
    owner = {"alive": True}
    monkeypatch.setattr(table_builds, "process_alive", lambda pid: pid == 4321 and owner["alive"])
    watch = threading.Thread(target=table_builds._watch, args=(4321,), daemon=True)
    watch.start()
    time.sleep(0.1)
    assert signals == [] and watch.is_alive()  # its owner runs: it builds on
    owner["alive"] = False
    watch.join(10)
    assert signals == [(os.getpid(), signal.SIGTERM)] and not watch.is_alive()


def test_the_server_tells_the_games_pages_when_a_tier_lands_and_when_the_build_ends(cache, monkeypatch):
    import asyncio

    import mancala.server.hub as hub_module

    monkeypatch.setattr(hub_module, "TABLE_POLL_SECONDS", 0.01)
    spawn = FakeBuild()
    sent: list[dict] = []
    hub = Hub(ServerConfig(warm=False, background_tables=True))
    hub.table_spawn = spawn
    client = Client(hub, "127.0.0.1", lambda msg: sent.append(msg), lambda code, why: None)
    session = hub.create(client, make_game("oware"), ["human", "strongest"], None, None)
    session.attach(client, [0])  # the page of the person at South
    lock = {"key": "oware", "pid": os.getpid(), "unit": "seeds", "size": 18, "started": 1.0, "updated": 1.0,
            "done": 3, "left_positions": 100}  # fmt: skip

    async def play() -> None:
        hub.want_table(session.game)
        await asyncio.sleep(0.05)
        sent.clear()
        table_builds.lock_path().write_text(json.dumps(lock))  # the builder holds the lock: tier 3 done
        await asyncio.sleep(0.05)
        table_builds.lock_path().write_text(json.dumps(dict(lock, done=4)))  # a tier lands
        await asyncio.sleep(0.05)
        table_builds.lock_path().unlink()
        spawn.end(0)  # the build ends
        await asyncio.sleep(0.05)
        assert hub._table_task is None  # the watch ended with it

    asyncio.run(play())
    states = [m.get("table_build") for m in sent if isinstance(m, dict) and m.get("type") == "state"]
    assert [None if s is None else s["done"] for s in states] == [3, 4, None]
