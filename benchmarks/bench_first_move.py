"""The newcomer's first game, timed from nothing (issue 17, item 8).

Starts ``mancala web --no-browser`` with no other options on a copy of the package with an
empty numba cache (as after a fresh install; ``--fresh-venv`` also installs it into a new
virtual environment first), opens the default game (you against ``medium``), plays South's
first legal move and times, from the moment the command was started:

* the address printed (the server is up),
* the default AI's first reply drawn (goal: within 10 s on a quiet machine),
* the engine ready (its kernels compiled in the background, the time players that use the
  engine — ``expert``, ``strongest``, ``best``, the hint — first wait for),

and prints what the waiting person was told meanwhile (the ``thinking`` estimate).
Usage: ``python benchmarks/bench_first_move.py [--fresh-venv]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fresh-venv", action="store_true", help="install into a new virtual environment first")
    parser.add_argument("--limit", type=float, default=600, help="seconds to wait for the engine at most")
    args = parser.parse_args()
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
