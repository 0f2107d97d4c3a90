"""Solve Kalah from the start under both rule sets, and check published values.

Part 1: Kalah(6,3) and Kalah(6,4), empty-capture and standard rules: value, nodes,
seconds (database builds included: each rule set starts from an empty cache
unless ``--warm``).  Part 2: every entry of the published empty-capture table
(Irving et al. 2000; docs/engine.md) with at most ``--max-seeds`` seeds, plus
the standard-rules values, solved and compared.
Usage: ``python benchmarks/bench_solve.py [--warm] [--max-seeds 48] [--skip-table]``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from mancala.engine import engine, solve
from mancala.games import make_game

# Irving, Donkers & Uiterwijk (2000), empty capture; rows 1-3 as W/D/L only
EMPTY_CAPTURE = {
    (1, 1): "D",
    (1, 2): "L",
    (1, 3): "W",
    (1, 4): "L",
    (1, 5): "W",
    (1, 6): "D",
    (2, 1): "W",
    (2, 2): "L",
    (2, 3): "L",
    (2, 4): "L",
    (2, 5): "W",
    (2, 6): "W",
    (3, 1): "D",
    (3, 2): "W",
    (3, 3): "W",
    (3, 4): "W",
    (3, 5): "W",
    (3, 6): "L",
    (4, 1): 2,
    (4, 2): 6,
    (4, 3): 8,
    (4, 4): 2,
    (4, 5): 2,
    (4, 6): 0,
    (5, 1): 0,
    (5, 2): 0,
    (5, 3): 8,
    (5, 4): 12,
    (5, 5): 2,
    (5, 6): 2,
    (6, 1): 2,
    (6, 2): 10,
    (6, 3): 2,
    (6, 4): 10,
    (6, 5): 12,
    (6, 6): 2,
}
# Rawlings 2015 / CMancala, standard rules
STANDARD = {(6, 3): 2, (6, 4): 8, (6, 5): 10}
PRESET = {"empty-capture": "empty-capture", "standard": "standard"}


def agrees(value: int, expected) -> bool:
    """Whether a solved value matches a published value (a number or W/D/L)."""
    if isinstance(expected, str):
        return expected == ("W" if value > 0 else "L" if value < 0 else "D")
    return value == expected


def run(preset: str, pits: int, seeds: int, k: int | None) -> tuple:
    game = make_game(f"kalah(preset={preset},pits={pits},seeds={seeds})")
    t = time.perf_counter()
    r = solve(game, game.initial_state(), progress=False, endgame_seeds=k)
    return r, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warm", action="store_true", help="use the user cache (databases already built)")
    ap.add_argument("--max-seeds", type=int, default=48, help="table entries with at most this many seeds")
    ap.add_argument("--skip-table", action="store_true")
    ap.add_argument("--k", type=int, default=16, help="database seeds for Kalah(6,4) (default 16)")
    args = ap.parse_args()
    print("part 1: solving from the start: total = database build + value proof + perfect line")
    print(
        f"{'rules':<14} {'game':<7} {'value':>6} {'published':>9} {'nodes':>13} {'total s':>8} "
        f"{'db s':>6} {'proof s':>8} {'proof nodes':>13}"
    )
    for preset in ("empty-capture", "standard"):
        with tempfile.TemporaryDirectory() as tmp:
            if not args.warm:
                os.environ["MANCALA_CACHE_DIR"] = tmp
            engine.reset()
            for seeds, k in ((3, None), (4, args.k)):
                r, dt = run(preset, 6, seeds, k)
                pub = (EMPTY_CAPTURE if preset == "empty-capture" else STANDARD).get((6, seeds))
                mark = "ok" if agrees(r.value, pub) else "MISMATCH"
                print(
                    f"{preset:<14} (6,{seeds})   {r.value:>+6} {pub:>+9} {r.nodes:>13,} {dt:>8.1f} "
                    f"{r.setup_seconds:>6.1f} {r.proof_seconds:>8.1f} {r.proof_nodes:>13,}  {mark}",
                    flush=True,
                )
            os.environ.pop("MANCALA_CACHE_DIR", None)
    if args.skip_table:
        return
    print(f"\npart 2: published empty-capture values with at most {args.max_seeds} seeds")
    engine.reset()
    good = bad = 0
    for (pits, seeds), expected in sorted(EMPTY_CAPTURE.items(), key=lambda kv: kv[0][0] * kv[0][1]):
        if 2 * pits * seeds > args.max_seeds or (pits == 6 and seeds in (3, 4)):
            continue  # (6,3) and (6,4): part 1
        r, dt = run("empty-capture", pits, seeds, args.k if pits * seeds >= 20 else None)
        ok = agrees(r.value, expected)
        good += ok
        bad += not ok
        print(
            f"  ({pits},{seeds}) value {r.value:+d} published {expected!s:>3} {'ok' if ok else 'MISMATCH'}"
            f"  {r.nodes:,} nodes {dt:.1f} s",
            flush=True,
        )
    print(f"{good} reproduced, {bad} mismatches")


if __name__ == "__main__":
    main()
