"""Benchmark of ``mancala homework`` on the largest inputs the assignment allows.

N = 10 pits a side, pits holding up to 1000 stones, cutting-off depth 4, minimax
(task 2) and alpha-beta (task 3), both players.  Each case goes through the same
code as the command (read input.txt, search, stream the log, stage and move the
files) and prints: seconds, search nodes, traverse-log lines, nodes per second,
the log's size and the process's peak memory so far (the log is streamed, so the
memory stays flat however long the log grows).

Run on demand::

    .venv/bin/python benchmarks/bench_homework.py [--depth 4] [--repeat 1]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mancala.cli.homework import TRAVERSE_LOG, read_input, solve  # noqa: E402


def input_text(task: int, player: int, depth: int, row_a, row_b, store_a: int = 0, store_b: int = 0) -> str:
    """An input.txt for the given position."""
    return (
        f"{task}\n{player}\n{depth}\n{' '.join(map(str, row_a))}\n{' '.join(map(str, row_b))}\n{store_a}\n{store_b}\n"
    )


def cases(depth: int) -> list[tuple[str, str]]:
    """(name, input.txt text) of every benchmarked case."""
    rng = random.Random(2024)
    full = [1000] * 10
    mixed_a = [rng.randint(0, 1000) for _ in range(10)]
    mixed_b = [rng.randint(0, 1000) for _ in range(10)]
    out = []
    for task, algo in ((2, "minimax"), (3, "alpha-beta")):
        out.append((f"{algo}, player 1, 10 x 1000 stones", input_text(task, 1, depth, full, full)))
        out.append((f"{algo}, player 2, 10 x 1000 stones", input_text(task, 2, depth, full, full)))
        out.append((f"{algo}, player 1, random 0-1000 stones", input_text(task, 1, depth, mixed_a, mixed_b, 137, 95)))
    return out


def peak_memory_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports KB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def main(argv: list[str] | None = None) -> int:
    """Run every case and print one line of figures per case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=4, help="cutting-off depth (default 4)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest is shown")
    args = parser.parse_args(argv)
    print(f"{'case':44} {'seconds':>8} {'nodes':>9} {'log lines':>10} {'nodes/s':>9} {'log MB':>7} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, text in cases(args.depth):
            (folder / "input.txt").write_text(text)
            best = None
            for _ in range(args.repeat):
                start = time.perf_counter()
                problem = read_input(folder / "input.txt")
                outcome = solve(problem, folder)
                seconds = time.perf_counter() - start
                best = seconds if best is None else min(best, seconds)
            size = (folder / TRAVERSE_LOG).stat().st_size / 1e6
            print(
                f"{name:44} {best:8.2f} {outcome.nodes:9d} {outcome.log_lines:10d} "
                f"{outcome.nodes / best:9.0f} {size:7.1f} {peak_memory_mb():8.1f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
