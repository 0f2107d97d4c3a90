"""The newcomer's first game, timed from nothing (issue 17, item 8; issue 32, item 1).

``--path web`` (the default): starts ``mancala web --no-browser`` with no other options on a
copy of the package with an empty numba cache (as after a fresh install; ``--fresh-venv``
also installs it into a new virtual environment first), opens the default game (you against
``medium``), plays South's first legal move and times, from the moment the command was started:

* the address printed (the server is up),
* the default AI's first reply drawn (goal: within 10 s on a quiet machine),
* the engine ready (its kernels compiled in the background, the time players that use the
  engine — ``expert``, ``strongest``, ``best``, the hint — first wait for),

and prints what the waiting person was told meanwhile (the ``thinking`` estimate).

``--path terminal``: for every game and level asked (default: Kalah, Oware, Bao and Togyz
Kumalak; ``medium`` and ``strongest``), ``mancala play --game G --level L`` in a fresh process
with an empty numba cache (a temporary ``NUMBA_CACHE_DIR``, the package's own cache untouched),
a person's first legal move typed on its input, and the time from the command's start to the
AI's reply printed (goal: within 10 s), and whether it said it came from the Python search
while its engine compiles.  The background compile each run starts is ended once the reply is
in (``--keep-compiling``: waited for instead, timing the engine's compile too).

Usage: ``python benchmarks/bench_first_move.py [--path web|terminal] [--fresh-venv]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent


def package_copy(folder: Path) -> Path:
    """The project's files (no caches) copied into ``folder``; returns the copy's root."""
    root = folder / "mancala-copy"
    shutil.copytree(
        ROOT,
        root,
        ignore=shutil.ignore_patterns(
            "__pycache__", ".venv", ".git", "*.egg-info", ".pytest_cache", ".hypothesis", "*.nbi", "*.nbc"
        ),
    )
    return root


def python_for(root: Path, fresh_venv: bool) -> tuple[str, dict]:
    """The interpreter and environment that run the copy at ``root``."""
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)
    if not fresh_venv:
        env["PYTHONPATH"] = str(root)
        return sys.executable, env
    venv = root.parent / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(root)], check=True)
    return str(venv / "bin" / "python"), env


async def first_game(url: str, started: float) -> dict:
    """Play the default game's first move; the times (from ``started``) and the notices seen."""
    seen: dict = {"notices": []}
    async with websockets.connect(url, max_size=2**22) as ws:

        async def send(kind: str, **fields) -> None:
            await ws.send(json.dumps({"v": 1, "type": kind, **fields}))

        await send("hello", id=1)
        await send("create", id=2)  # no players named: the default game, you against medium
        state = None
        while state is None or state.get("type") != "state":
            state = json.loads(await ws.recv())
        move = state["legal"][0]["move"]
        seen["board_drawn"] = time.monotonic() - started
        await send("move", id=3, move=move)
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                raise SystemExit(f"the server answered an error: {msg}")
            if msg["type"] != "state":
                continue
            if msg.get("thinking"):
                seen["notices"].append(msg["thinking"])
            if len(msg["history"]) >= 2 or msg["result"] is not None:
                seen["first_reply"] = time.monotonic() - started
                seen["reply"] = msg["history"][-1]["move"]
                return seen


async def engine_ready(http: str, started: float, limit: float) -> float | None:
    """Seconds (from ``started``) until ``/api/status`` says the engine is ready."""
    import urllib.request  # noqa: PLC0415

    while time.monotonic() - started < limit:
        with urllib.request.urlopen(http + "api/status", timeout=5) as answer:
            if json.loads(answer.read())["engine"] == "ready":
                return time.monotonic() - started
        await asyncio.sleep(0.5)
    return None


#: the terminal's prompt at a person's turn: ``South to move [1 2 3 4 5 6] > ``
PROMPT = re.compile(r"to move \[([^\]]*)\] > ")


class Reader:
    """A child's output, read by a thread as it comes (a prompt has no line end)."""

    def __init__(self, stream) -> None:
        self.text = ""
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        while True:
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                return
            with self.lock:
                self.text += chunk.decode(errors="replace")

    def wait(self, pattern: re.Pattern, start: int, limit: float) -> re.Match | None:
        """The first match of ``pattern`` in the output from ``start`` on, waiting ``limit`` s."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            with self.lock:
                found = pattern.search(self.text, start)
            if found:
                return found
            time.sleep(0.02)
        return None


def compile_pids(cache: Path) -> list[int]:
    """The background compiles' process ids, from their markers in the numba cache ``cache``."""
    pids = []
    for marker in cache.rglob("mancala-compiling-*.json"):
        try:
            pids.append(int(json.loads(marker.read_text())["pid"]))
        except (OSError, ValueError, KeyError):
            pass
    return pids


def terminal_first_reply(game: str, level: str, keep: bool, limit: float) -> dict:
    """``mancala play --game GAME --level LEVEL`` on an empty numba cache: the seconds to the
    AI's first reply, what it said, and (``keep``) to its engine's compile's end."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(Path(tmp) / "numba"), COLUMNS="120")
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "mancala", "play", "--game", game, "--level", level],
            cwd=tmp,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        out = Reader(proc.stdout)
        try:
            first = out.wait(PROMPT, 0, limit)
            if first is None:
                raise SystemExit(f"{game}: no prompt: {out.text[-500:]!r}")
            prompted = time.monotonic() - started
            move = first.group(1).split()[0]
            proc.stdin.write(f"{move}\n".encode())
            proc.stdin.flush()
            second = out.wait(PROMPT, first.end(), limit)
            replied = time.monotonic() - started
            if second is None:
                raise SystemExit(f"{game}: no reply: {out.text[-500:]!r}")
            said = out.text[first.end() : second.start()]
            proc.stdin.write(b"quit\n")
            proc.stdin.flush()
            proc.wait(timeout=30)
            compiled = None
            pids = compile_pids(Path(tmp))
            if keep:
                while compile_pids(Path(tmp)) and time.monotonic() - started < limit:
                    time.sleep(0.5)
                compiled = time.monotonic() - started
            for pid in compile_pids(Path(tmp)) or pids:
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        finally:
            if proc.poll() is None:
                proc.kill()
    return {
        "prompt": prompted,
        "reply": replied,
        "python": "engine compiling: this move from the Python search" in said,
        "compiled": compiled,
    }


def terminal_main(games: list[str], levels: list[str], keep: bool, limit: float) -> None:
    """The terminal path's table: every game and level's first reply from an empty cache."""
    print(
        f"mancala play, empty numba cache each run; {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f} at the start"
    )
    print(f"  {'game':8} {'level':10} {'prompt':>7} {'reply':>7}  from")
    worst = 0.0
    for game in games:
        for level in levels:
            r = terminal_first_reply(game, level, keep, limit)
            worst = max(worst, r["reply"])
            source = "Python search (engine compiling)" if r["python"] else "its own search"
            extra = f"; engine compiled {r['compiled']:.0f} s" if r["compiled"] is not None else ""
            print(f"  {game:8} {level:10} {r['prompt']:6.1f}s {r['reply']:6.1f}s  {source}{extra}", flush=True)
    print(
        f"  slowest first reply {worst:.1f} s (goal: 10 s)  ratio {worst / 10:.2f}; load {os.getloadavg()[0]:.1f} at the end"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--path", choices=["web", "terminal"], default="web", help="the browser's path or the terminal's"
    )
    parser.add_argument("--fresh-venv", action="store_true", help="install into a new virtual environment first")
    parser.add_argument("--limit", type=float, default=600, help="seconds to wait for the engine at most")
    parser.add_argument("--games", default="kalah,oware,bao,togyz", help="the terminal path's games (comma-separated)")
    parser.add_argument("--levels", default="medium,strongest", help="the terminal path's levels (comma-separated)")
    parser.add_argument("--keep-compiling", action="store_true", help="terminal: wait for each engine's compile too")
    args = parser.parse_args()
    if args.path == "terminal":
        terminal_main(args.games.split(","), args.levels.split(","), args.keep_compiling, args.limit)
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = package_copy(Path(tmp))
        python, env = python_for(root, args.fresh_venv)
        started = time.monotonic()
        proc = subprocess.Popen(
            [python, "-m", "mancala", "web", "--no-browser"], cwd=tmp, env=env, stdout=subprocess.PIPE, text=True
        )
        try:
            line = proc.stdout.readline()
            if not line.startswith("mancala board at "):
                raise SystemExit(f"the server did not start: {line!r}")
            up = time.monotonic() - started
            http = line.split()[3]
            seen = asyncio.run(first_game(http.replace("http://", "ws://") + "ws", started))
            ready = asyncio.run(engine_ready(http, started, args.limit))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(
        f"empty numba cache{', fresh venv' if args.fresh_venv else ''}; {os.cpu_count()} cores; "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )
    print(f"  address printed      {up:6.1f} s")
    print(f"  board drawn          {seen['board_drawn']:6.1f} s")
    print(f"  medium's first reply {seen['first_reply']:6.1f} s  (goal: 10 s)  ratio {seen['first_reply'] / 10:.2f}")
    print("  engine ready         " + (f"{ready:6.1f} s" if ready is not None else f"not within {args.limit:g} s"))
    for notice in seen["notices"][:3]:
        print(f"  told while waiting: {notice.get('doing')} (estimate {notice.get('estimate')} s)")


if __name__ == "__main__":
    main()
