"""Our Kalah solver beside the C solvers, on the same shapes, in one run.

Each solve runs in its own process; the table gives its value, wall-clock seconds and
CPU seconds (user + system of the process and its threads), and the ratios ours/theirs.
The C solvers are *not* part of the project: build them yourself somewhere outside the
repository and pass their paths; a peer whose path is not given is skipped.

- ``--girving6 BIN,DB,K``: Irving et al.'s serial solver (``kalah-s``, compiled for 6 pits),
  an endgame database file it made and its seed count K (empty capture rules);
- ``--girving5 BIN,DB,K``: the same compiled for 5 pits (for (5,5));
- ``--girving-generator BIN``: its database generator (6 pits): the "from nothing" row then
  builds a K-seed database (``--girving-fresh-seeds``, default 16) in a temporary directory;
- ``--cmancala BIN``: CMancala (standard rules, no endgame database, opening book off).

Our solver runs from an empty cache (database build included) and with the databases
already on disk (``--cache DIR``, e.g. one where ``mancala solve --endgame-seeds 22`` was
run with ``MANCALA_CACHE_DIR=DIR``; else a temporary cache filled by a first,
unmeasured run: ``solve``'s own choice of K).  ``--long`` adds (6,5).
``--one-core`` runs ours a second time on each row with one proof thread and one build thread
(``MANCALA_SOLVE_THREADS=1``, ``MANCALA_BUILD_THREADS=1``) and prints that run's ratios too:
the C solvers are serial, so this is the comparison at equal cores.  ``--python PATH`` runs
ours with another interpreter, e.g. that of a venv made by the README's first command: the
test extras bring scipy (with open-spiel), which numba imports at its first call (about 0.2 s
of CPU a process that a user's install does not spend).
Usage: ``python benchmarks/bench_peers.py --girving6 /tmp/g/kalah-s,/tmp/g/eg22.dat,22 ...``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS = """
import sys
from mancala.engine import solve
from mancala.games import make_game
preset, pits, seeds, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = make_game(f"kalah(preset={preset},pits={pits},seeds={seeds})")
r = solve(game, game.initial_state(), progress=False, endgame_seeds=None if k == "auto" else int(k))
print(f"VALUE {r.value} NODES {r.nodes} SETUP {r.setup_seconds:.2f} PROOF {r.proof_seconds:.2f}")
"""


@dataclass
class Run:
    """One process's outcome: its value (None when it failed or timed out) and costs."""

    value: int | None
    wall: float
    cpu: float
    note: str = ""


def timed(
    cmd: list[str], stdin: str | None = None, env: dict | None = None, timeout: float = 3600
) -> tuple[str, float, float]:
    """Run ``cmd`` to the end: (its stdout, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        out = ""
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


#: the environment that keeps our solve on one core (one proof thread, one build thread)
ONE_CORE = {"MANCALA_SOLVE_THREADS": "1", "MANCALA_BUILD_THREADS": "1"}


#: the interpreter that runs our solve (``--python``)
PYTHON = sys.executable


def ours(preset: str, pits: int, seeds: int, cache: Path, k: str, timeout: float, extra: dict | None = None) -> Run:
    """Our ``solve`` in a fresh process with ``cache`` as the database cache (``extra``: more
    environment, e.g. :data:`ONE_CORE`)."""
    env = dict(os.environ, MANCALA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), **(extra or {}))
    out, wall, cpu = timed([PYTHON, "-c", OURS, preset, str(pits), str(seeds), k], env=env, timeout=timeout)
    m = re.search(r"VALUE (-?\d+) NODES (\d+) SETUP ([\d.]+) PROOF ([\d.]+)", out)
    if not m:
        return Run(None, wall, cpu, "failed or timed out")
    return Run(int(m[1]), wall, cpu, f"{int(m[2]) / 1e6:.0f} M nodes, db {m[3]} s, proof {m[4]} s")


def girving(spec: str, seeds: int, timeout: float, db: str | None = None, k: int | None = None) -> Run:
    """Irving's ``kalah-s`` on the uniform start with ``seeds`` a pit (``spec`` = BIN,DB,K)."""
    binary, db0, k0 = spec.split(",")
    db, k = db or db0, k if k is not None else int(k0)
    out, wall, cpu = timed([binary, "-t", "25", "-e", str(k), "-E", db, "s", str(seeds)], timeout=timeout)
    m = re.search(r"Move: .*? r (-?\d+)", out)
    nodes = re.search(r"Nodes searched:\s+(\d+)", out)
    note = f"{int(nodes[1]) / 1e6:.1f} M nodes, {k}-seed db" if nodes else ""
    return Run(int(m[1]) if m else None, wall, cpu, note)


def girving_build(generator: str, k: int, path: Path, timeout: float) -> Run:
    """Irving's generator building a ``k``-seed database (4 bits an entry) at ``path``."""
    _, wall, cpu = timed([generator, str(path)], stdin=f"4\nc {k}\nq\n", timeout=timeout)
    return Run(0 if path.exists() else None, wall, cpu, f"{k}-seed db build")


def cmancala(binary: str, seeds: int, timeout: float) -> Run:
    """CMancala's LOCAL solver (no opening book, no endgame database) on the uniform start."""
    script = (
        f"book false\nstones {seeds}\ncache 26\ntime 0\ndepth 0\nplayer 1 ai\nautoplay false\n"
        "progress false\nstart\nstep\nlast\nquit\n"
    )
    out, wall, cpu = timed([binary], stdin=script, timeout=timeout)
    m = re.search(r"Evaluation: (-?\d+)", out)
    nodes = re.search(r"Total nodes: ([\d.]+) million", out)
    return Run(int(m[1]) if m else None, wall, cpu, f"{float(nodes[1]):.0f} M nodes" if nodes else "")


def row(shape: str, mine: Run, peer: Run | None, peer_name: str, one_core: Run | None = None) -> None:
    """Print one comparison row (and, given ``one_core``, ours on one core beside the same peer)."""

    def cell(r: Run | None) -> str:
        if r is None:
            return f"{'—':>30}"
        v = "?" if r.value is None else f"{r.value:+d}"
        return f"{v:>4} {r.wall:>8.1f} {r.cpu:>8.1f}"

    def ratio(r: Run) -> str:
        return f"{r.wall / peer.wall:>6.2f}× {r.cpu / peer.cpu:>6.2f}×" if peer and peer.wall > 0 else f"{'—':>15}"

    print(f"{shape:<36} {cell(mine)}   {peer_name:<16} {cell(peer)}   {ratio(mine)}", flush=True)
    print(f"{'':<36} ours: {mine.note}" + (f"; {peer_name}: {peer.note}" if peer else ""), flush=True)
    if one_core is not None:
        print(f"{'  ours on one core':<36} {cell(one_core)}   {'':<16} {'':>30}   {ratio(one_core)}", flush=True)
        print(f"{'':<36} ours on one core: {one_core.note}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--girving6", help="BIN,DB,K of Irving's kalah-s for 6 pits")
    ap.add_argument("--girving5", help="BIN,DB,K of Irving's kalah-s for 5 pits")
    ap.add_argument("--girving-generator", help="Irving's generator (6 pits), for the from-nothing row")
    ap.add_argument("--girving-fresh-seeds", type=int, default=16)
    ap.add_argument("--cmancala", help="CMancala binary")
    ap.add_argument("--cache", type=Path, help="database cache kept between runs (default: a temporary one)")
    ap.add_argument("--k", default="auto", help="our database seeds (default: solve's own choice)")
    ap.add_argument("--long", action="store_true", help="add (6,5) under both rule sets")
    ap.add_argument("--only", help="comma-separated row numbers to run (1-based)")
    ap.add_argument("--one-core", action="store_true", help="also run ours on one core (one proof and build thread)")
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--python", help="the Python that runs our solve (default: this one)")
    a = ap.parse_args()
    global PYTHON
    if a.python:
        if not Path(a.python).exists():
            sys.exit(f"bench_peers: no such file {a.python}")
        PYTHON = a.python
    for spec in (a.girving6, a.girving5):
        if spec and (len(spec.split(",")) != 3 or not Path(spec.split(",")[0]).exists()):
            sys.exit(f"bench_peers: bad peer spec {spec!r} (want BIN,DB,K with an existing BIN)")
    for path in (a.girving_generator, a.cmancala):
        if path and not Path(path).exists():
            sys.exit(f"bench_peers: no such file {path}")
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"machine: {os.cpu_count()} cores, load {load:.2f} at the start; seconds: wall and CPU (user+system)")
    print(f"ours runs with {PYTHON}")
    print(
        f"{'shape':<36} {'ours':>4} {'wall s':>8} {'cpu s':>8}   {'peer':<16} {'val':>4} {'wall s':>8} "
        f"{'cpu s':>8}   ours/peer wall, cpu"
    )
    only = {int(x) for x in a.only.split(",")} if a.only else None
    with tempfile.TemporaryDirectory() as tmp:
        warm = a.cache or Path(tmp) / "warm"
        fresh = lambda name: Path(tempfile.mkdtemp(dir=tmp, prefix=name))  # noqa: E731
        t = a.timeout

        filled: set[tuple] = set()

        def on_disk(preset: str, pits: int, seeds: int, extra: dict | None = None) -> Run:
            """Ours with the databases on disk (a first, unmeasured run fills a new cache)."""
            if a.cache is None and (preset, pits, seeds) not in filled:
                ours(preset, pits, seeds, warm, a.k, t)
                filled.add((preset, pits, seeds))
            return ours(preset, pits, seeds, warm, a.k, t, extra)

        rows = [
            (
                "1 (6,4) empty capture, from nothing",
                lambda e=None: ours("empty-capture", 6, 4, fresh("a"), a.k, t, e),
                lambda: _girving_fresh(a, tmp, t),
                "girving",
            ),
            (
                "2 (6,4) empty capture, db on disk",
                lambda e=None: on_disk("empty-capture", 6, 4, e),
                (lambda: girving(a.girving6, 4, t)) if a.girving6 else None,
                "girving",
            ),
            (
                "3 (5,5) empty capture, db on disk",
                lambda e=None: on_disk("empty-capture", 5, 5, e),
                (lambda: girving(a.girving5, 5, t)) if a.girving5 else None,
                "girving",
            ),
            (
                "4 (6,4) standard, from nothing",
                lambda e=None: ours("standard", 6, 4, fresh("b"), a.k, t, e),
                (lambda: cmancala(a.cmancala, 4, t)) if a.cmancala else None,
                "CMancala",
            ),
        ]
        if a.long:
            rows += [
                (
                    "5 (6,5) empty capture, from nothing",
                    lambda e=None: ours("empty-capture", 6, 5, fresh("c"), a.k, t, e),
                    (lambda: girving(a.girving6, 5, t)) if a.girving6 else None,
                    "girving (db)",
                ),
                (
                    "6 (6,5) standard, from nothing",
                    lambda e=None: ours("standard", 6, 5, fresh("d"), a.k, t, e),
                    (lambda: cmancala(a.cmancala, 5, t)) if a.cmancala else None,
                    "CMancala",
                ),
            ]
        for i, (shape, mine, peer, name) in enumerate(rows, 1):
            if only and i not in only:
                continue
            m = mine()
            p = peer() if peer else None
            row(shape, m, p, name, mine(ONE_CORE) if a.one_core else None)


def _girving_fresh(a: argparse.Namespace, tmp: str, timeout: float) -> Run | None:
    """Irving's solver from nothing: its generator builds a database, then it solves (6,4)."""
    if not (a.girving6 and a.girving_generator):
        return None
    path = Path(tmp) / "girving-fresh.dat"
    b = girving_build(a.girving_generator, a.girving_fresh_seeds, path, timeout)
    s = girving(a.girving6, 4, timeout, str(path), a.girving_fresh_seeds)
    return Run(s.value, b.wall + s.wall, b.cpu + s.cpu, f"{b.note} {b.wall:.1f} s + solve {s.wall:.1f} s ({s.note})")


if __name__ == "__main__":
    main()
