"""Whether a game's engine can search now without a compile, its compile in a background
process, and how long that compile has left (issue 32, item 1).

An engine is *ready* when its kernels are loaded in this process or are in numba's cache on
disk (loading them takes a second or so).  Otherwise its first search would compile them:
a minute or more.  Until it is ready, the players search in Python (see
:func:`mancala.players.builtin.best_search`) and :func:`start_compile` compiles the engine in
a separate process (``python -m mancala.engine.readiness GAME``): it fills numba's disk cache,
so the Python search is not slowed by that process's GIL, and the next moves load the engine
from the cache.  The compile's measured seconds are kept beside the cache
(``mancala-compile-GAME.json``), and :func:`compile_left` counts down from them (from
:data:`COMPILE_SECONDS` before the first compile on this machine): one number, which the
server's page shows in its header chip and its thinking line alike.

Which compiled functions mark an engine as cached is its record's ``kernels``
(:class:`~mancala.engine.support.EngineSupport`); by default the ``negamax`` of the
``search`` module in the record's package, so a new engine's record needs nothing more.

Nothing here loads numba."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Callable

from mancala.engine.support import EngineSupport, engine_records, engine_support

#: about how long an engine's warm-up takes when its compiled kernels are on disk (loading
#: them), in seconds on a 2-core machine with the other core busy
LOAD_SECONDS = 6.0
#: about how long compiling one engine takes before the first compile on this machine was
#: measured (``benchmarks/bench_first_move.py``: 40-90 s an engine on two cores, loaded)
COMPILE_SECONDS = 90.0
#: the most a move searched in Python while its engine compiles may take, in seconds (a
#: Python alpha-beta searches about 30,000-40,000 nodes a second on Kalah, Oware and Togyz
#: Kumalak, about 10,000 on Bao, on this project's 2-core machine: see each record's
#: ``python_depth``)
FALLBACK_SECONDS = 2.0
#: what a move searched in Python while its engine compiles says of itself (the move's info,
#: the page's thinking line, the terminal's line)
NOTE = "engine compiling: this move from the Python search"
#: the ``algorithm`` of such a move's :class:`~mancala.search.core.SearchResult`
FALLBACK_ALGORITHM = "python(engine compiling)"

#: the games whose engine this process has loaded (or compiled)
_LOADED: set[str] = set()
#: the games whose engine's kernels were seen in the disk cache, no compile under way (they stay)
_CACHED: set[str] = set()
#: the compile processes this process started, by game
_STARTED: dict[str, subprocess.Popen] = {}
#: when (``time.time()``) each of them started
_STARTED_AT: dict[str, float] = {}
#: whether engine players search in Python while their engine compiles (:func:`play_while_compiling`)
_FALLBACK = False


def kernel_marks(record: EngineSupport) -> tuple[tuple[str, str], ...]:
    """The (module, function) pairs whose numba cache entries mean ``record``'s engine is
    compiled: its ``kernels``, else ``(PACKAGE.search, negamax)`` for the record's package."""
    if record.kernels:
        return record.kernels
    package = record.best.__module__.rpartition(".")[0]
    return ((package + ".search", "negamax"),)


def cache_folders(source: Path) -> list[Path]:
    """Where numba keeps the cache of functions defined in the file ``source``: under
    ``NUMBA_CACHE_DIR`` when it is set, else ``__pycache__`` beside it (and the user-wide
    cache numba falls back to where that cannot be written)."""
    folder = source.resolve().parent
    sub = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"]) / sub]
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba" / sub
    return [folder / "__pycache__", user]


def _source(module: str) -> Path | None:
    """The file of ``module`` (None: no such module)."""
    try:
        spec = find_spec(module)
    except (ImportError, ValueError):
        return None
    return Path(spec.origin) if spec is not None and spec.origin else None


def engine_cached(record: EngineSupport) -> bool:
    """Whether ``record``'s engine is compiled in numba's disk cache (its kernel marks' index
    files are there); an engine whose kernels cannot be found counts as cached (nothing to wait
    for).  Reads file names only."""
    for module, function in kernel_marks(record):
        source = _source(module)
        if source is None:
            continue
        pattern = f"{source.stem}.{function}-*.nbi"
        if not any(any(folder.glob(pattern)) for folder in cache_folders(source)):
            return False
    return True


def mark_loaded(game: str) -> None:
    """Note that this process has ``game``'s engine loaded (its warm-up ran)."""
    _LOADED.add(game)


def engine_ready(record: EngineSupport) -> bool:
    """Whether ``record``'s engine can search now without a compile: loaded in this process,
    or compiled in the disk cache with no compile of it under way (one under way may have
    written some of its kernels but not all).  The check the players make before an engine
    search; tests replace it to play as on an empty cache."""
    if record.game in _LOADED or record.game in _CACHED:
        return True
    if compiling_since(record) is None and engine_cached(record):
        _CACHED.add(record.game)
        return True
    return False


def play_while_compiling(on: bool) -> bool:
    """Whether this process's engine players search in Python while their engine is not
    compiled (``on``: the terminal's game and the server's workers, where a person waits for
    the reply) rather than compile it in place first (off, the default: a match, an arena, a
    script or a test gets the engine's moves, however long the compile takes); returns the
    setting it replaces."""
    global _FALLBACK
    before, _FALLBACK = _FALLBACK, on
    return before


def python_meanwhile(record: EngineSupport) -> bool:
    """Whether a search of ``record``'s engine is to be made in Python now: this process plays
    while compiling (:func:`play_while_compiling`) and the engine is not ready."""
    return _FALLBACK and not engine_ready(record)


def ready_for(game: Any) -> bool:
    """Whether ``game`` (a game object) needs no compile before its engine answers: it has no
    engine of ours for its rules, or that engine is ready (:func:`engine_ready`)."""
    record = engine_support(game.name)
    return record is None or not record.plays(game) or engine_ready(record)


# --- the compile's files beside the cache --------------------------------------------------


def state_folder(record: EngineSupport) -> Path:
    """Where the compile's measured seconds and its running marker are kept: the cache folder
    of the engine's first kernel module (numba's own files go there too)."""
    module = kernel_marks(record)[0][0]
    source = _source(module)
    if source is None:  # pragma: no cover - a record naming no module of ours
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mancala"
    folders = cache_folders(source)
    for folder in folders:  # the first numba can write (a read-only install: the user-wide one)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    return folders[0]


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write(path: Path, data: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))
    except OSError:  # a read-only cache: the estimate stays the constant
        pass


def compile_estimate(record: EngineSupport) -> float:
    """About how many seconds compiling ``record``'s engine takes here: the last compile
    measured on this machine, else :data:`COMPILE_SECONDS`."""
    seconds = _read(state_folder(record) / f"mancala-compile-{record.game}.json").get("seconds")
    return float(seconds) if isinstance(seconds, (int, float)) and seconds > 0 else COMPILE_SECONDS


def seconds_left(estimate: float, elapsed: float) -> float:
    """What is left of a compile estimated at ``estimate`` seconds after ``elapsed`` seconds:
    the estimate counted down, and once overrun, a tenth of the time spent so far (a compile on a
    busy machine takes longer), never below one second."""
    return round(max(estimate - elapsed, 0.1 * elapsed, 1.0), 1)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not): how a
    marker or lock file left by a process that died is told from a live one's."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def compiling_since(record: EngineSupport) -> float | None:
    """When (``time.time()``) the compile of ``record``'s engine under way started, in this
    process or any other; None when none runs."""
    proc = _STARTED.get(record.game)
    if proc is not None and proc.poll() is None and record.game in _STARTED_AT:
        return _STARTED_AT[record.game]  # ours (its marker may not be writable)
    marker = _read(state_folder(record) / f"mancala-compiling-{record.game}.json")
    started, pid = marker.get("started"), marker.get("pid")
    if not isinstance(started, (int, float)) or not isinstance(pid, int):
        return None
    alive = proc.poll() is None if proc is not None and proc.pid == pid else process_alive(pid)
    return float(started) if alive else None


def compile_count(record: EngineSupport, now: float | None = None) -> dict | None:
    """Where ``record``'s engine's compile stands (None: the engine is ready):
    ``estimate`` (:func:`compile_estimate`), ``elapsed`` (seconds since its compile started,
    0 before it starts) and ``left`` (:func:`seconds_left`)."""
    if engine_ready(record):
        return None
    since = compiling_since(record)
    elapsed = 0.0 if since is None else max(0.0, (time.time() if now is None else now) - since)
    estimate = compile_estimate(record)
    return {"estimate": estimate, "elapsed": round(elapsed, 1), "left": seconds_left(estimate, elapsed)}


def compile_left(record: EngineSupport, now: float | None = None) -> float | None:
    """About how many seconds ``record``'s engine has left until it is ready (None: it is):
    its :func:`compile_estimate` counted down from when its compile started
    (:func:`seconds_left`), the whole estimate when no compile has started yet."""
    count = compile_count(record, now)
    return None if count is None else count["left"]


def compile_command(game: str) -> list[str]:
    """The command that compiles ``game``'s engine into the disk cache."""
    return [sys.executable, "-m", "mancala.engine.readiness", game]


def start_compile(record: EngineSupport, spawn: Callable[[list[str]], subprocess.Popen] | None = None) -> bool:
    """Compile ``record``'s engine in a background process unless it is ready or a compile of
    it already runs (this process's or another's); True when one was started now."""
    if engine_ready(record) or compiling_since(record) is not None:
        return False
    proc = (spawn or _spawn)(compile_command(record.game))
    _STARTED[record.game] = proc
    _STARTED_AT[record.game] = time.time()
    _write(
        state_folder(record) / f"mancala-compiling-{record.game}.json",
        {"pid": proc.pid, "started": _STARTED_AT[record.game]},
    )
    return True


def _spawn(command: list[str]) -> subprocess.Popen:
    """Start ``command`` on its own (its own session: a Ctrl-C here does not cut the compile
    short), its output discarded."""
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def stop_compile(game: str) -> None:
    """End the compile of ``game``'s engine this process started, if it still runs (numba keeps
    what it compiled so far)."""
    proc = _STARTED.pop(game, None)
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def stop_compiles() -> None:
    """End the compile processes this process started that still run (a server shutting down)."""
    for game in list(_STARTED):
        stop_compile(game)


def compile_engine(game: str) -> float:
    """Compile ``game``'s engine into the disk cache (its record's ``warm_up``) and keep the
    seconds it took beside the cache; returns them."""
    record = engine_support(game)
    if record is None or record.warm_up is None:
        return 0.0
    folder = state_folder(record)
    start = time.monotonic()
    try:
        record.warm_up()
    finally:
        marker = folder / f"mancala-compiling-{game}.json"
        if _read(marker).get("pid") in (os.getpid(), None):
            marker.unlink(missing_ok=True)
    seconds = time.monotonic() - start
    _write(folder / f"mancala-compile-{game}.json", {"seconds": round(seconds, 1)})
    mark_loaded(game)
    return seconds


def every_engine_cached() -> bool:
    """Whether every registered engine is compiled in the disk cache."""
    return all(engine_cached(record) for record in engine_records())


if __name__ == "__main__":  # pragma: no cover - run by start_compile in its own process
    import mancala.engine  # noqa: F401 (registers the engines)

    compile_engine(sys.argv[1])
