"""The engine's memory over several rule sets in one process: solve Kalah(6,3) under five
rule sets, one after the other, and print the process's resident memory after each
(``VmRSS``) and its peak (``VmHWM``), with what the engine says it holds.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_memory.py [--pits 6 --seeds 3]

``$MANCALA_MEMORY_MB`` bounds the engine (default 2048); ``$MANCALA_TT_MB`` sets the
table a solve asks for (default: 1/16 of the machine's memory, at most 1 GB).  Run it
with an older tree on ``PYTHONPATH`` to compare (it then prints no engine figures).
"""

from __future__ import annotations

import argparse
import time

from mancala.engine import solve
from mancala.games import make_game

#: five rule sets (five tables before the bound); no-stealing is left out: its (6,3) proof is
#: 957 M nodes (7 minutes), the others take seconds
RULE_SETS = [
    "preset=standard",
    "preset=empty-capture",
    "preset=egyptian",
    "preset=cs151",
    "preset=standard,skip_origin=true",
]


def status(field: str) -> int:
    """A ``/proc/self/status`` figure in megabytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) // 1024
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    try:
        from mancala.engine import memory_in_use
    except ImportError:  # an engine without a memory bound
        memory_in_use = None
    print(f"start: RSS {status('VmRSS')} MB")
    for rules in RULE_SETS:
        game = make_game(f"kalah({rules},pits={args.pits},seeds={args.seeds})")
        t = time.perf_counter()
        r = solve(game, game.initial_state(), progress=False)
        line = (
            f"{rules:>32}: value {r.value:+d}, {r.nodes:,} nodes, {time.perf_counter() - t:.1f} s; "
            f"RSS {status('VmRSS')} MB, peak {status('VmHWM')} MB"
        )
        if memory_in_use is not None:
            use = memory_in_use()
            line += (
                f"; engine: {use['contexts']} table(s) {use['tables'] >> 20} MB, databases "
                f"{use['databases'] >> 20} MB, bound {use['limit'] >> 20} MB"
            )
        print(line, flush=True)


if __name__ == "__main__":
    main()
