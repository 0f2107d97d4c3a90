"""Web board responsiveness over a real uvicorn WebSocket (issue 8).

1. Click latency: the time from sending a ``move`` to receiving the updated board
   (the ``state`` answering it), in a hot-seat Kalah game (no AI move is timed).
2. Load: the same probe while K games between two AIs run on the server at once, their
   AIs thinking all the time (Kalah, ``alphabeta:depth=7``, no delay between moves);
   K doubles until the probe's 95th percentile passes 100 ms (or ``--max-games``).
3. Humans first: the time from a person's move to the default AI's reply (you against
   ``medium``, the game ``mancala web`` opens with) on an idle server, then with
   ``--busy-games`` (100) AI-vs-AI games running; prints both medians and their ratio
   (issue 17's goal: within 2x).
4. Fair shares: the same reply while ``--flooders`` (1) other clients flood the server with
   analyses (issue 33's attack: 40 pipelined ``analyse`` requests of 7-10 s with ``lines: 5``
   from one connection, one more each time one is answered); prints the median beside the
   idle one and their ratio (issue 33's goal: within 2x), and how many requests the server
   answered and refused (past its bound of requests waiting per connection).

The server runs in its own process (``mancala web --no-browser --port 0``), as a user
starts it; the benchmark is a separate client process.  Prints median and p95 in ms.
Usage: ``python benchmarks/bench_web.py [--clicks 200] [--max-games 64] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    """``mancala web`` on a free port; returns the process and the WebSocket URL."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mancala",
            "web",
            "--no-browser",
            "--port",
            "0",
            "--workers",
            str(workers),
            "--max-games",
            "1000",
            "--max-games-per-client",
            "1000",
            "--games-per-minute",
            "0",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    line = proc.stdout.readline()
    if not line.startswith("mancala board at "):
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    url = line.split()[3].replace("http://", "ws://") + "ws"
    return proc, url


async def send(ws, kind: str, **fields) -> None:
    await ws.send(json.dumps({"v": 1, "type": kind, **fields}))


async def answer(ws, request_id) -> dict:
    """The message answering ``request_id`` (broadcasts skipped)."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("id") == request_id:
            return msg


async def timed_moves(url: str, count: int, players: list[str] | None, until_your_turn: bool) -> list[float]:
    """Seconds from each of ``count`` moves sent to its answer, in Kalah games (a new one when one
    ends) between ``players`` (None: the default game, you against medium): the ``state``
    answering the move, or with ``until_your_turn`` the state where it is your move again."""
    times = []
    async with websockets.connect(url, max_size=2**22) as ws:
        await send(ws, "hello", id=0)
        await answer(ws, 0)
        rid = 1
        state = None
        while len(times) < count:
            if state is None or state["result"] is not None:
                rid += 1
                await send(ws, "create", id=rid, game="kalah", **({"players": players} if players else {}))
                state = await answer(ws, rid)
                while state["type"] != "state":
                    state = await answer(ws, rid)
            move = state["legal"][len(times) % len(state["legal"])]["move"]
            rid += 1
            t0 = time.perf_counter()
            await send(ws, "move", id=rid, move=move)
            state = await answer(ws, rid)
            if state["type"] != "state":
                raise SystemExit(f"unexpected answer: {state}")
            while until_your_turn and state["result"] is None and not state["legal"]:
                state = json.loads(await ws.recv())
                if state["type"] != "state":
                    raise SystemExit(f"unexpected message: {state}")
            times.append(time.perf_counter() - t0)
    return times


async def probe(url: str, clicks: int) -> list[float]:
    """Click latencies (seconds) of ``clicks`` moves in hot-seat Kalah games."""
    return await timed_moves(url, clicks, ["human", "human"], until_your_turn=False)


async def reply_probe(url: str, replies: int) -> list[float]:
    """Seconds from a person's move to the default AI's reply, ``replies`` times."""
    return await timed_moves(url, replies, None, until_your_turn=True)


async def ai_game(url: str, stop: asyncio.Event, moves: list[int]) -> None:
    """One AI-vs-AI game kept running (a new one when it ends) until ``stop``."""
    async with websockets.connect(url, max_size=2**22) as ws:
        await send(ws, "hello", id=0)
        await answer(ws, 0)
        await send(ws, "create", id=1, game="kalah", players=["alphabeta:depth=7", "alphabeta:depth=7"], move_delay=0)
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except asyncio.TimeoutError:
                continue
            if msg["type"] == "state":
                moves[0] += 1
                if msg["result"] is not None:
                    await send(ws, "new", id=2)


async def flood(url: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """One client flooding the server with analyses until ``stop``: a hot-seat Kalah game of
    20 moves, then 40 pipelined ``analyse`` requests (7-10 s, ``lines: 5``, positions in turn,
    so the shared tables do not answer them at once), one more for each answer."""
    async with websockets.connect(url, max_size=2**22) as ws:
        await send(ws, "hello", id=0)
        await answer(ws, 0)
        await send(ws, "create", id=1, game="kalah", players=["human", "human"])
        state = await answer(ws, 1)
        while state["type"] != "state":
            state = await answer(ws, 1)
        rid = 1
        for k in range(20):
            if state["result"] is not None or not state["legal"]:
                break
            rid += 1
            await send(ws, "move", id=rid, move=state["legal"][k % len(state["legal"])]["move"])
            state = await answer(ws, rid)
        plies = state["ply"]

        async def ask() -> None:
            nonlocal rid
            rid += 1
            await send(ws, "analyse", id=rid, ply=rid % (plies + 1), seconds=7 + rid % 4, lines=5)

        for _ in range(40):
            await ask()
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
            except asyncio.TimeoutError:
                continue
            if msg["type"] == "analysis":
                counts["answered"] += 1
                await ask()
            elif msg["type"] == "error":
                counts["refused" if msg["code"] == "limit" else "failed"] += 1
                if msg["code"] != "limit":
                    await ask()


def summary(times: list[float]) -> tuple[float, float]:
    """(median, p95) in milliseconds."""
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


async def run(args) -> None:
    proc, url = start_server(args.workers)
    try:
        await probe(url, 20)  # warm-up
        med, p95 = summary(await probe(url, args.clicks))
        print(f"click to updated board, idle server: median {med:.1f} ms, p95 {p95:.1f} ms ({args.clicks} clicks)")
        games = 1
        best = 0
        while games <= args.max_games:
            stop = asyncio.Event()
            moves = [0]
            tasks = [asyncio.create_task(ai_game(url, stop, moves)) for _ in range(games)]
            await asyncio.sleep(1.0)
            t0 = time.perf_counter()
            times = await probe(url, args.clicks)
            elapsed = time.perf_counter() - t0
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            med, p95 = summary(times)
            print(
                f"{games:4d} AI-vs-AI games thinking: median {med:.1f} ms, p95 {p95:.1f} ms "
                f"({moves[0] / max(elapsed, 1e-9):.0f} AI states/s broadcast)"
            )
            if p95 >= 100:
                break
            best = games
            games *= 2
        print(
            f"concurrent AI games with click p95 under 100 ms: {best}"
            + (" (or more: the limit tried)" if best == args.max_games else "")
        )
        idle = statistics.median(await reply_probe(url, args.replies))
        stop = asyncio.Event()
        moves = [0]
        tasks = [asyncio.create_task(ai_game(url, stop, moves)) for _ in range(args.busy_games)]
        await asyncio.sleep(3.0)
        busy_times = await reply_probe(url, args.replies)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        busy = statistics.median(busy_times)
        print(
            f"AI reply in a human game (you vs medium): idle median {idle * 1000:.0f} ms; with "
            f"{args.busy_games} AI-vs-AI games running median {busy * 1000:.0f} ms, max "
            f"{max(busy_times) * 1000:.0f} ms; ratio {busy / idle:.2f} (goal: at most 2)"
        )
        stop = asyncio.Event()
        counts = {"answered": 0, "refused": 0, "failed": 0}
        tasks = [asyncio.create_task(flood(url, stop, counts)) for _ in range(args.flooders)]
        await asyncio.sleep(5.0)  # the flood is under way: every study worker busy, queues full
        flood_times = await reply_probe(url, args.replies)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        flooded = statistics.median(flood_times)
        print(
            f"AI reply in a human game (you vs medium): idle median {idle * 1000:.0f} ms; with "
            f"{args.flooders} client(s) flooding the server with analyses median {flooded * 1000:.0f} ms, max "
            f"{max(flood_times) * 1000:.0f} ms; ratio {flooded / idle:.2f} (goal: at most 2); the flood's "
            f"requests: {counts['answered']} answered, {counts['refused']} refused (limit), {counts['failed']} failed"
        )
        print(f"machine: {os.cpu_count()} cores (shared with other work while measuring)")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server on the way out
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--max-games", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--replies", type=int, default=30, help="AI replies timed in each phase of part 3")
    parser.add_argument("--busy-games", type=int, default=100, help="AI-vs-AI games running in part 3")
    parser.add_argument("--flooders", type=int, default=1, help="clients flooding the server with analyses in part 4")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
