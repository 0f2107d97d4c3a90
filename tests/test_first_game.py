"""Issue 17, item 3: the newcomer's path, exactly as the README gives it, in child processes
started with no options at all, from an empty home and working folder (so nothing is written
into the repository):

* ``mancala web --no-browser``: it finds a free port by itself and prints the address; the
  page opened there in Chromium shows the default game, a click on one of South's pits
  plays it, and the default AI's reply is drawn (the history gains North's move, the board
  changes, no error notice);
* ``mancala play``: a move typed on a pipe, the default AI's reply printed, ``quit``.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import launch_chromium, stop_server

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: the longest a step may take (the engine may compile on a cold cache): a hang guard
WAIT = 600.0


def newcomer_env(home: Path) -> dict[str, str]:
    """The environment of a newcomer: this checkout's package, an empty home, no token."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANCALA_")}
    env.update(
        PYTHONPATH=str(REPO), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), XDG_CONFIG_HOME=str(home / ".config")
    )
    # the numba cache of the checkout's engine stays where it is (compiling it again takes minutes)
    if "NUMBA_CACHE_DIR" in os.environ:
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
    return env


def repo_files() -> set[str]:
    """Files git sees as new or changed in the checkout (to show nothing was written there)."""
    done = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], cwd=REPO, capture_output=True, text=True, check=True
    )
    return set(done.stdout.splitlines())


@pytest.fixture
def newcomer(tmp_path):
    """(home and working folder, environment); afterwards, the checkout gained no files."""
    before = repo_files()
    home = tmp_path / "home"
    home.mkdir()
    yield home, newcomer_env(home)
    assert repo_files() == before, "the newcomer's path wrote into the checkout"


def read_lines(stream, lines: queue.Queue) -> None:
    """Copy ``stream``'s lines into ``lines`` (then None at its end)."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def test_mancala_play_with_its_defaults(newcomer):
    home, env = newcomer
    # pit 1 sows its 4 seeds into pits 2-5: North's turn, and the default AI (medium) replies
    done = subprocess.run(
        [sys.executable, "-m", "mancala", "play"],
        input="1\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=WAIT,
    )
    assert done.returncode == 0 and done.stderr == "", (done.returncode, done.stderr)
    out = " ".join(done.stdout.split())
    assert "South (human) vs North (medium)" in out, out
    mine = out.index("South plays 1")
    reply = re.search(r"North plays \d[^\[]*\[medium\]", out)
    assert reply, out
    assert mine < reply.start() < out.index("South (human) to move", reply.end()) < out.index("Bye.")
    assert "Illegal" not in out and "Traceback" not in out
    assert list(home.iterdir()) == []  # nothing saved unless asked


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt install chromium)")
def test_mancala_web_first_game_in_the_browser(newcomer):
    playwright_sync = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    from playwright.sync_api import expect  # noqa: PLC0415

    home, env = newcomer
    server = subprocess.Popen(
        [sys.executable, "-m", "mancala", "web", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=home,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(server.stdout, lines), daemon=True).start()
    try:
        first = lines.get(timeout=60)
        assert first and first.startswith("mancala board at http://127.0.0.1:"), (first, server.poll())
        url = first.split()[3]
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url
        with playwright_sync.sync_playwright() as p:
            browser = launch_chromium(p, CHROMIUM)
            try:
                page = browser.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.set_default_timeout(WAIT * 1000)
                expect.set_options(timeout=WAIT * 1000)
                page.goto(url)
                page.wait_for_selector("body[data-ply='0']")
                pits = page.locator("#board [data-cell]")
                before = pits.all_inner_texts()
                page.get_by_role("button", name=re.compile(r"^South pit 1: 4 seeds, legal move")).click()
                # pit 1 sows 4 seeds into pits 2-5: North (the default AI, medium) is to move, and replies
                # (or its move fails: an error notice, at once rather than after the hang guard)
                page.wait_for_function(
                    "!document.getElementById('error').hidden"
                    " || Number(document.body.dataset.ply) >= 2 && document.body.dataset.toMove === '0'"
                    " && document.body.dataset.thinking !== 'yes'"
                    " && document.body.dataset.busy !== 'animating'"
                )
                expect(page.locator("#error")).to_be_hidden()
                history = page.locator("#history li button[data-ply]")
                expect(history.first).to_contain_text("South 1")
                expect(history.nth(1)).to_contain_text("North")
                assert pits.all_inner_texts() != before
                expect(page.locator("#error")).to_be_hidden()
                expect(page.locator("body")).not_to_contain_text("failed")  # e.g. "the AI medium failed"
                assert errors == [], errors
            finally:
                browser.close()
    finally:
        _, err = stop_server(server)
    assert "Traceback" not in err and "ERROR" not in err, err
