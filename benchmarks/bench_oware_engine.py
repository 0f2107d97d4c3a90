"""The Oware engine against the reference search, measured side by side in one run.

1. Speed: nodes per second of the reference alpha-beta (``mancala.search.alphabeta`` with
   the ``oware`` evaluation, what ``best`` ran on Oware before the engine) and of the engine
   (``mancala.engine.oware.search``, one fixed-depth search without its table, so both visit
   the same tree), at the same depth on the same positions, and their ratio.
2. The engine as ``best`` plays it: iterative deepening with its table from the start
   position, the depth reached in ``--seconds`` (1 s: what ``best:time=1`` reaches) and
   its nodes per second.

Usage::

    python benchmarks/bench_oware_engine.py                 # depth 7, 12 positions, 1 s
    python benchmarks/bench_oware_engine.py --depth 5 --positions 6 --seconds 2

Times are wall-clock: on a shared machine say how loaded it was with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.engine.oware import search as oware_search  # noqa: E402
from mancala.evaluation.oware import evaluate  # noqa: E402
from mancala.games.oware import Oware, OwareState  # noqa: E402
from mancala.search import alphabeta  # noqa: E402


def sample_positions(game: Oware, count: int, seed: int) -> list[OwareState]:
    """The start position, then positions of random games after 4 to 60 plies."""
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(4, 60)):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the speed table and the depth the engine reaches in the time given."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7, help="depth of the side-by-side searches (default 7)")
    parser.add_argument("--positions", type=int, default=12, help="positions measured (default 12)")
    parser.add_argument("--seconds", type=float, default=1.0, help="the engine's budget from the start (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = Oware()
    oware_search.warm_up()
    positions = sample_positions(game, args.positions, args.seed)

    py_nodes = py_time = en_nodes = en_time = 0.0
    for state in positions:
        t = time.perf_counter()
        ref = alphabeta(game, state, args.depth, evaluate)
        py_time += time.perf_counter() - t
        py_nodes += ref.nodes
        searcher = oware_search.OwareSearcher(game, use_table=False, entries=1 << 4)
        t = time.perf_counter()
        value, _, _, _ = searcher.run(state, args.depth)
        en_time += time.perf_counter() - t
        en_nodes += searcher.nodes
        assert value == ref.value, game.position_string(state)  # the same search, the same value
    py_rate, en_rate = py_nodes / py_time, en_nodes / en_time
    print(f"Oware (abapa), {len(positions)} positions, alpha-beta depth {args.depth}, load {os.getloadavg()[0]:.1f}")
    print(f"  Python alphabeta : {py_nodes:>10,.0f} nodes  {py_time:7.2f} s  {py_rate:>11,.0f} nodes/s")
    print(f"  engine (no table): {en_nodes:>10,.0f} nodes  {en_time:7.2f} s  {en_rate:>11,.0f} nodes/s")
    print(
        f"  ratio engine/Python: {en_rate / py_rate:,.0f}x nodes/s, {py_time / en_time:,.0f}x time to depth {args.depth}"
    )

    state = game.initial_state()
    t = time.perf_counter()
    result = oware_search.search(game, state, args.seconds)
    spent = time.perf_counter() - t
    print(
        f"  best:time={args.seconds:g} from the start: depth {result.depth}, {result.nodes:,} nodes in "
        f"{spent:.2f} s ({result.nodes / spent:,.0f} nodes/s), move {result.move}, value {result.value:+g}"
    )


if __name__ == "__main__":
    main()
