"""Endgame tables built in the background on first use, while play goes on, with progress
(issue 29, item 4: "strength out of the box").

Oware's and Togyz Kumalak's strongest players read an endgame table from the cache, and
Kalah's the largest endgame database there
(``mancala db build``).  A newcomer has none: the first time a person plays such a level
(:func:`ensure`, called by the server's hub and the terminal game, never by a match or a
script), the table of the record's ``background_size`` (Oware 18 seeds, Togyz Kumalak 8
stones: a few minutes on two busy cores; Kalah's endgame database of 20 seeds, about 10 s:
:mod:`mancala.engine.kalah_tables`) is built by a separate process (``python -m
mancala.engine.table_builds SPEC SIZE OWNER``), so the searches are not slowed by its GIL;
it runs at the lowest priority (``os.nice(19)``).  Tiers are written as each finishes, and a
table of the finished tiers ``0..k`` is a whole table of ``k`` seeds: the players read it as
the tiers land (:func:`refresh` drops a process's loaded table when more tiers are on disk).

**One build at a time per cache**, across processes: the build holds the lock file
``mancala-table-build.lock`` in the table cache (created exclusively; it holds the builder's
pid, the table and the progress, rewritten after each tier).  A lock whose process is gone
is stale and removed (:func:`read_lock`).  A second request while one runs waits for the
next move; a build that finds another holding the lock ends at once (:data:`EXIT_BUSY`).

**Progress** (:func:`progress`): the tiers done of the size, and about how many seconds are
left: the positions of the tiers still to build at the rate of the last tier built of at least
:data:`MEASURED_POSITIONS` positions (:data:`SECONDS_PER_POSITION` before one is), counted down between tiers as the engine's
compile is (:func:`mancala.engine.readiness.seconds_left`).  The page's header chip, the
protocol's ``table_build`` and the terminal's line show it.

**Stopping and failing.**  The builder stops cleanly (finished tiers kept; the next build
resumes from them) on SIGTERM (:func:`stop_builds`, the server's shutdown), on Ctrl-C, and
when the process that started it is gone (a watchdog: a server's worker ended, a terminal
closed).  A build that fails (a full disk, an unwritable cache, the memory bound) ends with
one line on its stderr, which :func:`progress` reports (``error``); play goes on without it,
and this process does not start that build again.

**Opting out**: ``$MANCALA_BACKGROUND_TABLES=0`` (``mancala web --no-background-tables``,
``mancala play --no-background-tables`` set it), and nothing is built unless a process asked
for it (:func:`build_in_background`): tests and scripts never start one.

Nothing here loads numba (the builder process does)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Callable

from mancala.engine.opening_tree import cache_dir
from mancala.engine.readiness import process_alive, seconds_left
from mancala.engine.support import EngineSupport, engine_support
from mancala.errors import BadInput, MancalaError
from mancala.games import make_game, spec_of

#: the environment variable that turns background builds off (``0``, ``off``, ``no``, ``false``)
ENV = "MANCALA_BACKGROUND_TABLES"
#: the lock file's name in the table cache (one build at a time per cache)
LOCK_NAME = "mancala-table-build.lock"
#: seconds a position of a table takes to build before a tier of this build is measured: a
#: low-priority build on two cores other work keeps busy (Oware 0.35 M positions a second on
#: the busy machine, docs/oware-endgame.md; Togyz Kumalak about 1 M)
SECONDS_PER_POSITION = 2e-6
#: the fewest positions of a tier whose time measures the build's rate (a smaller tier's time
#: is mostly the kernels' loading or compiling); the last such tier's rate counts
MEASURED_POSITIONS = 1_000_000
#: how often (seconds) the builder looks whether the process that started it is still there
WATCH_SECONDS = 1.0
#: the builder's exit code when another build holds the cache's lock (try again later)
EXIT_BUSY = 3
#: the builder's exit code when the build failed (its stderr's last line says why)
EXIT_FAILED = 1
#: the builder's exit code when it was stopped (SIGTERM, Ctrl-C, its owner gone): not a failure
EXIT_STOPPED = 130

#: whether this process starts background builds (:func:`build_in_background`)
_ON = False


@dataclass
class Build:
    """A builder process this process started."""

    proc: subprocess.Popen
    #: where its stderr goes (read when it ends: a failure's line)
    errors: IO[bytes] | None
    #: the size asked for
    size: int
    started: float


#: the builders this process started, by table (the game's spec)
_BUILDS: dict[str, Build] = {}
#: the tables whose build ended well in this process (not started again)
_DONE: set[str] = set()
#: the tables whose build failed, with its line (not started again by this process)
_FAILED: dict[str, str] = {}
#: the tiers on disk a table had when this process last looked (:func:`refresh`)
_SEEN: dict[str, int] = {}

Spawn = Callable[[list[str], IO[bytes] | None], subprocess.Popen]


def build_in_background(on: bool) -> bool:
    """Whether this process starts background table builds when a person plays a level that
    reads a table (on: the server's hub and the terminal game; off, the default: matches,
    arenas, scripts and tests); returns the setting it replaces."""
    global _ON
    before, _ON = _ON, on
    return before


def opted_out() -> bool:
    """Whether ``$MANCALA_BACKGROUND_TABLES`` turns background builds off."""
    return os.environ.get(ENV, "").strip().lower() in ("0", "off", "no", "false")


def wanted() -> bool:
    """Whether this process starts background builds now: asked to, and not opted out."""
    return _ON and not opted_out()


def table_key(game: Any) -> str:
    """The table a build of ``game`` makes, as the lock and the progress name it: the game's spec."""
    return spec_of(game)


def builds_table(record: EngineSupport | None, game: Any) -> bool:
    """Whether ``record``'s engine builds a table in the background for ``game``'s rules."""
    return (
        record is not None
        and record.background_size > 0
        and bool(record.tables)
        and record.plays(game)
        and (record.has_tables is None or record.has_tables(game))
    )


# --- the lock -----------------------------------------------------------------------------


def lock_path() -> Path:
    """The cache's lock file (the table cache: ``$MANCALA_CACHE_DIR``, else ``~/.cache/mancala``)."""
    return cache_dir() / LOCK_NAME


def read_lock(path: Path | None = None) -> dict | None:
    """The lock's contents when a live process holds it, else None; a stale lock (its process
    gone, or unreadable) is removed."""
    path = path or lock_path()
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        data = None
    pid = data.get("pid") if isinstance(data, dict) else None
    if isinstance(pid, int) and not isinstance(pid, bool) and process_alive(pid):
        return data
    try:
        if isinstance(data, dict) or time.time() - path.stat().st_mtime > 10:  # (a lock being written: wait)
            path.unlink(missing_ok=True)
    except OSError:
        pass
    return None


def take_lock(data: dict, path: Path | None = None) -> bool:
    """Create the lock holding ``data`` (with this process's pid); False when a live process
    holds it.  Raises :class:`OSError` when the cache cannot be written."""
    path = path or lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(2):  # a stale lock is removed once, then taken
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if read_lock(path) is not None:
                return False
            continue
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(dict(data, pid=os.getpid())))
        return True
    return False


def write_lock(data: dict, path: Path | None = None) -> None:
    """Rewrite the lock this process holds (its progress), atomically."""
    path = path or lock_path()
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temp.write_text(json.dumps(dict(data, pid=os.getpid())))
    os.replace(temp, path)


def release_lock(path: Path | None = None) -> None:
    """Remove the lock if this process holds it."""
    path = path or lock_path()
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError, AttributeError):
        pass


# --- starting, watching and stopping builds --------------------------------------------------


def build_command(game: Any, size: int) -> list[str]:
    """The command that builds ``game``'s table of ``size`` in the background."""
    return [sys.executable, "-m", "mancala.engine.table_builds", table_key(game), str(size), str(os.getpid())]


def _spawn(command: list[str], errors: IO[bytes] | None) -> subprocess.Popen:
    """Start ``command`` in its own session (a Ctrl-C at the terminal reaches the process that
    started it, which stops it: :func:`stop_builds`, or its watchdog), stderr to ``errors``."""
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=errors if errors is not None else subprocess.DEVNULL,
        start_new_session=True,
    )


def _ended(key: str) -> None:
    """Take note of how this process's build of ``key`` ended (done, failed, or busy: retried)."""
    build = _BUILDS.pop(key)
    code = build.proc.returncode
    if code == 0:
        _DONE.add(key)
    elif code is not None and code > 0 and code not in (EXIT_BUSY, EXIT_STOPPED):
        line = ""
        if build.errors is not None:
            try:
                build.errors.seek(0)
                lines = [t.strip() for t in build.errors.read().decode(errors="replace").splitlines() if t.strip()]
                line = lines[-1] if lines else ""
            except (OSError, ValueError):
                pass
        _FAILED[key] = line or f"the endgame table's build ended with code {code}"
    if build.errors is not None:
        build.errors.close()


def _poll() -> None:
    """Take note of this process's builds that ended."""
    for key in [k for k, b in _BUILDS.items() if b.proc.poll() is not None]:
        _ended(key)


def running() -> bool:
    """Whether a builder this process started still runs."""
    _poll()
    return bool(_BUILDS)


def ensure(record: EngineSupport | None, game: Any, spawn: Spawn | None = None) -> bool:
    """Start the background build of ``record``'s table for ``game`` (its ``background_size``)
    unless this process does not build (:func:`wanted`), the engine builds none, this process's
    build of it ended (done, or failed: reported) or runs, or any build holds the cache's lock;
    True when one was started now.  The builder itself ends at once when the table is whole
    already.  ``spawn(command, errors)`` starts the process (tests give a fake)."""
    if not wanted() or record is None or not builds_table(record, game):
        return False
    _poll()
    key = table_key(game)
    if key in _DONE or key in _FAILED or key in _BUILDS or read_lock() is not None:
        return False
    try:
        errors: IO[bytes] | None = tempfile.TemporaryFile()
    except OSError:
        errors = None
    proc = (spawn or _spawn)(build_command(game, record.background_size), errors)
    _BUILDS[key] = Build(proc, errors, record.background_size, time.time())
    return True


def progress(game: Any, now: float | None = None) -> dict | None:
    """Where the background build of ``game``'s table stands, for the page's chip, the protocol's
    ``table_build`` and the terminal: None when none runs (or none was asked for), else
    ``{"game", "unit", "done", "size", "elapsed", "left", "error"}``: the tiers finished (the
    table the players read has ``done`` seeds; -1 before the first), the size built to, the
    seconds since it started and about how many are left (None until known), and ``error``,
    a failed build's one line (then the rest says what was asked)."""
    _poll()
    key = table_key(game)
    now = time.time() if now is None else now
    blank = {"game": key, "unit": None, "done": None, "size": None, "elapsed": None, "left": None, "error": None}
    if key in _FAILED:
        return dict(blank, error=_FAILED[key])
    lock = read_lock()
    if lock is not None:
        return lock_progress(lock, now) if lock.get("key") == key else None
    build = _BUILDS.get(key)
    if build is None:
        return None
    # started, not holding the lock yet (the builder is loading): the whole build is ahead
    return dict(blank, done=-1, size=build.size, elapsed=round(now - build.started, 1))


def lock_progress(lock: dict, now: float) -> dict:
    """:func:`progress` from a build's lock: its tiers done and the time left, counted down
    from the lock's last update."""
    rate = lock.get("rate")
    rate = rate if isinstance(rate, (int, float)) and rate > 0 else SECONDS_PER_POSITION
    estimate = lock.get("left_positions", 0) * rate
    since = max(0.0, now - float(lock.get("updated", now)))
    return {
        "game": lock.get("key"),
        "unit": lock.get("unit"),
        "done": lock.get("done", -1),
        "size": lock.get("size"),
        "elapsed": round(max(0.0, now - float(lock.get("started", now))), 1),
        "left": seconds_left(estimate, since) if lock.get("left_positions") else None,
        "error": None,
    }


def progress_line(found: dict | None) -> str | None:
    """:func:`progress` in words (the chip's and the terminal's): ``endgame table: 12 of 18
    seeds, about 2 min left``, a failure's line, or None."""
    if found is None:
        return None
    if found.get("error"):
        return f"endgame table not built: {found['error']}"
    if found.get("done", -1) < 0 or found.get("unit") is None:
        return f"endgame table: starting the build ({found.get('size')})"
    text = f"endgame table: {found['done']} of {found['size']} {found['unit']}"
    left = found.get("left")
    if left is not None:
        text += f", about {left / 60:.0f} min left" if left >= 90 else f", about {left:.0f} s left"
    return text


def stop_builds(wait: float = 5.0) -> None:
    """End the builders this process started that still run (SIGTERM: the tier under way is
    dropped, the finished ones kept), waiting up to ``wait`` seconds each before killing it."""
    for key, build in list(_BUILDS.items()):
        if build.proc.poll() is None:
            build.proc.terminate()
            try:
                build.proc.wait(wait)
            except subprocess.TimeoutExpired:
                build.proc.kill()
                build.proc.wait()
        _BUILDS.pop(key, None)
        if build.errors is not None:
            build.errors.close()


def refresh(record: EngineSupport | None, game: Any) -> bool:
    """Before a search that reads ``game``'s table (a move, a hint): when more tiers are in the
    cache than when this process last looked (a background build finished some), drop the
    loaded table so the search reads the larger one; True when it did.  Looks only until the table is as
    large as the record's ``background_size`` (a few file names a move)."""
    if record is None or record.table_seeds is None or record.reload_tables is None:
        return False
    key = table_key(game)
    seen = _SEEN.get(key)
    if seen is not None and seen >= record.background_size:
        return False
    seeds = record.table_seeds(game)
    _SEEN[key] = seeds
    # the first look: a table loaded before (by a hint) may be older than the tiers on disk;
    # reloading one smaller than the record's size costs a fraction of a second, once
    if (seen is not None and seeds > seen) or (seen is None and 0 <= seeds < record.background_size):
        record.reload_tables()
        return True
    return False


def forget() -> None:
    """Forget this process's builds' outcomes and what it saw (a test, a fresh cache)."""
    _DONE.clear()
    _FAILED.clear()
    _SEEN.clear()


# --- the builder process ---------------------------------------------------------------------


def _watch(owner: int) -> None:
    """Stop this builder (as SIGTERM does) once the process ``owner`` that started it is gone."""
    while True:
        time.sleep(WATCH_SECONDS)
        if not process_alive(owner):
            os.kill(os.getpid(), signal.SIGTERM)
            return


#: set by :func:`_stop`: the builder was asked to stop (SIGTERM, Ctrl-C)
_STOPPING = False


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM or Ctrl-C in the builder: stop between the build's steps.  The flag tells
    :func:`run_build` that a ``SystemError`` is this stop: the interrupt raised while a
    compiled kernel runs comes out of numba's dispatcher as "returned a result with an
    exception set"."""
    global _STOPPING
    _STOPPING = True
    raise KeyboardInterrupt


def run_build(spec: str, size: int, path: Path | None = None) -> int:
    """Build the table of ``spec``'s game up to ``size`` (at most what the memory bound allows)
    in this process, holding the cache's lock and writing the progress into it after each tier;
    returns the exit code: 0 built (or whole already), :data:`EXIT_BUSY` another build holds the
    lock, :data:`EXIT_FAILED` failed (one line on stderr), :data:`EXIT_STOPPED` stopped (finished
    tiers kept)."""
    try:
        game = make_game(spec)
        record = engine_support(game.name)
        tables = record.table_module() if record is not None else None
        if record is None or tables is None or record.table_build is None or record.table_seeds is None:
            raise BadInput(f"{game.name} has no endgame tables to build")
        rules = game.rules  # type: ignore[attr-defined]
        size = record.table_build(game, size)
        if size < 0:
            raise BadInput(f"no {tables.TITLE} endgame table fits the memory bound (set MANCALA_DB_MEMORY)")
        positions = [tables.tier_positions(rules, t) for t in range(size + 1)]
        began = time.time()
        state: dict[str, Any] = {
            "key": table_key(game), "unit": tables.UNIT, "size": size, "started": began, "updated": began,
            "done": -1, "built_positions": 0, "built_seconds": 0.0, "left_positions": sum(positions),
        }  # fmt: skip
        try:
            if not take_lock(state, path):
                return EXIT_BUSY
        except OSError as e:
            raise BadInput(f"cannot write the table cache {(path or lock_path()).parent}: {e.strerror or e}") from None
        try:
            if record.table_seeds(game) >= size:
                return 0

            def report(tier: Any) -> None:
                state["done"] = tier.tier
                state["left_positions"] = sum(positions[tier.tier + 1 :])
                if not tier.loaded:
                    state["built_positions"] += tier.positions
                    state["built_seconds"] += tier.seconds
                    if tier.positions >= MEASURED_POSITIONS:  # (the small ones' time is mostly the kernels' loading)
                        state["rate"] = tier.seconds / tier.positions
                state["updated"] = time.time()
                try:
                    write_lock(state, path)
                except OSError:  # the progress is for show: the build goes on
                    pass

            tables.build(rules, size, progress=report)
        finally:
            release_lock(path)
    except KeyboardInterrupt:
        return EXIT_STOPPED
    except SystemError:
        if _STOPPING:
            return EXIT_STOPPED
        raise
    except (MancalaError, OSError, MemoryError) as e:
        line = str(e) if isinstance(e, MancalaError) else f"{type(e).__name__}: {e}"
        print(line.splitlines()[0] if line else type(e).__name__, file=sys.stderr, flush=True)
        return EXIT_FAILED
    return 0


def main(argv: list[str]) -> int:
    """``python -m mancala.engine.table_builds SPEC SIZE OWNER``: the builder process, at the
    lowest priority, stopping cleanly on SIGTERM or when ``OWNER`` (a pid) is gone."""
    import mancala.engine  # noqa: F401, PLC0415 (registers the engines)

    spec, size, owner = argv[0], int(argv[1]), int(argv[2])
    try:
        os.nice(19)
    except OSError:
        pass
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    threading.Thread(target=_watch, args=(owner,), daemon=True).start()
    return run_build(spec, size)


if __name__ == "__main__":  # pragma: no cover - run by ensure in its own process
    sys.exit(main(sys.argv[1:]))
