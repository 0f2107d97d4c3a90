"""Oware endgame databases: build tiers 0..N and print, a tier a line, its positions, wall
time, positions/s, the CPU seconds it took (all threads) and the machine's load, then the
peak memory and an extrapolation of the build time to larger N.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_oware_endgame.py --seeds 16 [--preset awari]

Tiers already in the cache are read, not built (a fresh cache: ``--cache DIR`` or
``$MANCALA_CACHE_DIR``).  On a shared machine the wall time depends on the others' load;
CPU seconds a position do not, so the extrapolation is given from those too.  The
positions of tier s on 2 x 6 houses are C(s+11, 11): the time of a tier grows with them,
a little faster for the large tiers (their lookups miss the caches).
"""

from __future__ import annotations

import argparse
import os
import time
from math import comb

from mancala.engine.oware import endgame as E
from mancala.games.oware import PRESETS


def peak_mb() -> int:
    """The process's peak resident memory (``VmHWM``) in megabytes."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=14)
    parser.add_argument("--preset", default="abapa", choices=sorted(PRESETS))
    parser.add_argument("--cache", help="cache directory (default: $MANCALA_CACHE_DIR or ~/.cache/mancala)")
    parser.add_argument("--to", type=int, default=28, help="extrapolate up to this N")
    args = parser.parse_args()
    if args.cache:
        os.environ["MANCALA_CACHE_DIR"] = args.cache
    rules = PRESETS[args.preset]
    E.build(rules, 2)  # compile (or load the compiled kernels) before timing
    cpu = time.process_time()
    built: list[tuple[int, float, float]] = []

    def report(r: E.TierReport) -> None:
        nonlocal cpu
        now = time.process_time()
        load = os.getloadavg()[0]
        print(f"{r.line()}; {now - cpu:.1f} CPU s; load {load:.1f}", flush=True)
        if not r.loaded and r.positions >= 100_000:
            built.append((r.tier, r.seconds, now - cpu))
        cpu = now

    began = time.perf_counter()
    E.build(rules, args.seeds, progress=report)
    print(f"total {time.perf_counter() - began:.1f} s, peak memory {peak_mb():,} MB, {E._threads()} threads")
    if built:
        tier, wall, cpu_s = built[-1]
        per_wall, per_cpu = wall / comb(tier + 11, 11), cpu_s / comb(tier + 11, 11)
        print(f"tier {tier}: {per_cpu * 1e6:.2f} CPU us a position, {per_wall * 1e6:.2f} wall us")
        for n in range(args.seeds + 1, args.to + 1, 2):
            todo = comb(n + 12, 12) - comb(args.seeds + 12, 12)
            print(
                f"  to N={n}: {todo:,} more positions, about {todo * per_cpu / 60:.0f} CPU min "
                f"({todo * per_cpu / 120:.0f} min on 2 free cores; {todo * per_wall / 60:.0f} min at this load)"
            )


if __name__ == "__main__":
    main()
