"""Small helpers shared by test files (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark_module(name: str):
    """The script ``benchmarks/NAME.py`` imported as a module (the folder is not a package),
    once a process: its functions are tested as a library's."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def random_position(game, rng, plies: int):
    """The state after up to ``plies`` random legal moves from the start (fewer if the game ends)."""
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    return state


def scripted(lines):
    """A read_line that answers prompts from ``lines`` and then reports end of input."""
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def random_mtaji_sides(rng, low: int = 12, high: int = 30) -> tuple[list[int], list[int]] | None:
    """Random Bao mtaji-stage sides (16 holes each, 64 seeds in all, the mover holding
    ``low``..``high``), or None when a front row came out empty (not a playable position)."""
    mine = rng.randint(low, high)
    me, op = [0] * 16, [0] * 16
    for _ in range(mine):
        me[rng.randrange(16)] += 1
    for _ in range(64 - mine):
        op[rng.randrange(16)] += 1
    if not any(me[:8]) or not any(op[:8]):
        return None
    return me, op


@pytest.fixture(autouse=True)
def small_engine_cache(tmp_path_factory, monkeypatch):
    """Engine tests (import it into the module): databases go to a temporary cache, small
    enough to build in a blink, with a small table, and the engine starts afresh."""
    from mancala.engine import engine  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "engine-cache"))
    monkeypatch.setenv("MANCALA_ENDGAME_SEEDS", "8")
    monkeypatch.setenv("MANCALA_TT_MB", "8")
    engine.reset()
    yield
    engine.reset()


#: how the tests start Debian's chromium (no sandbox as root; nothing reaches the network)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright, executable: str):
    """A headless chromium from ``playwright`` (``sync_playwright()``'s handle)."""
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


def stop_server(proc) -> tuple[str, str]:
    """Stop a ``mancala serve``/``web`` child as Ctrl-C would (killed if it does not go within
    30 s); returns its remaining (stdout, stderr)."""
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    proc.send_signal(signal.SIGINT)
    try:
        return proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.communicate()


#: the command that installs axe-core where the accessibility tests read it (.ci/run runs it;
#: ``MANCALA_AXE_DIR`` chooses another folder); the tests never fetch it themselves
AXE_INSTALL = "npm install --silent --no-save --no-audit --no-fund --prefix tests/.axe axe-core@4"


def axe_folder() -> Path:
    """The folder axe-core is installed into: ``$MANCALA_AXE_DIR``, else ``tests/.axe`` (ignored by git)."""
    return Path(os.environ.get("MANCALA_AXE_DIR") or Path(__file__).resolve().parent / ".axe")


def axe_script_path() -> Path:
    """axe-core's script, as the install step left it.  Fails (does not skip) the test in one
    line when it is missing: the accessibility check must run, and a test run does not fetch."""
    folder = axe_folder()
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        install = AXE_INSTALL.replace("tests/.axe", str(folder)) if os.environ.get("MANCALA_AXE_DIR") else AXE_INSTALL
        pytest.fail(f"axe-core is not installed at {script}: run `{install}` (as .ci/run does)", pytrace=False)
    return script


def axe_problems(page, axe_js, screen: str) -> list[str]:
    """axe-core's serious and critical violations on ``page`` as it is, one line each, with
    the ``target-size`` rule on (WCAG 2.2: a pointer's target at least 24 CSS px square, or
    spaced as one; axe leaves it off by default)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_js))
    found = page.evaluate("""async () => (await axe.run(document, { rules: { 'target-size': { enabled: true } } })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} element(s), e.g. ${v.nodes[0].target.join(' ')}`)""")
    return [f"{screen}: {line}" for line in found]


#: the longest a served app may take to warm its engines (numba compiles them on a cold cache,
#: as in CI's fresh clone; a hang guard, not a speed assertion)
ENGINE_WAIT = 600


@contextmanager
def served_app(warm: bool = False, **settings):
    """The app of ``mancala web`` on uvicorn in a thread, on a free loopback port, with one
    worker; yields ``(url, app)`` and stops the server after.  ``warm``: the engines are
    warmed at start-up, as ``mancala web`` does, and the app is yielded once they are ready
    (on a cold numba cache their first compile takes tens of seconds, more than a page's
    wait for a hint, an analysis or a review); ``settings``: more of the server's
    :class:`~mancala.server.config.ServerConfig` (a clock for remote games, a grace period)."""
    import uvicorn

    from mancala.server.app import HARD_FRAME_LIMIT, create_app
    from mancala.server.command import bind
    from mancala.server.config import ServerConfig

    sock = bind("127.0.0.1", 0)
    app = create_app(ServerConfig(workers=1, warm=warm, **settings))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=HARD_FRAME_LIMIT, lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    deadline = time.monotonic() + ENGINE_WAIT
    while warm and app.state.hub.engine_ready is not True:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the engines were not ready after {ENGINE_WAIT} s")
        time.sleep(0.2)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/", app
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


@contextmanager
def checked_page(browser, viewport: dict, width_name: str, wait_ms: int):
    """A fresh page with ``viewport`` (its ``width_name`` kept on it) whose waits time out
    after ``wait_ms``; raises AssertionError on leaving when the page had any script or
    console error."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport)
    pg = context.new_page()
    pg.width_name = width_name
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    pg.set_default_timeout(wait_ms)
    expect.set_options(timeout=wait_ms)
    yield pg
    context.close()
    assert not errors, f"errors on the page: {errors}"
