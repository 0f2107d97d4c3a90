"""Reference search speed: minimax vs alpha-beta from the Kalah(6,4) start, same value,
nodes and nodes per second, measured in one run (run on demand:
``.venv/bin/python benchmarks/bench_search.py [--depth 6]``)."""

from __future__ import annotations

import argparse
import time

from mancala.evaluation import score_difference
from mancala.games import make_game
from mancala.search import alphabeta, minimax


def measure(search, game, state, depth):
    """(result, seconds) of one search."""
    start = time.perf_counter()
    result = search(game, state, depth, score_difference)
    return result, time.perf_counter() - start


def main() -> None:
    """Print one table row per depth."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=6, help="deepest search, in turns (default 6)")
    args = parser.parse_args()
    game = make_game("kalah")
    state = game.initial_state()
    print("depth  value  minimax-nodes  alphabeta-nodes  node-ratio  minimax-n/s  alphabeta-n/s")
    for depth in range(1, args.depth + 1):
        mm, t_mm = measure(minimax, game, state, depth)
        ab, t_ab = measure(alphabeta, game, state, depth)
        assert mm.value == ab.value and mm.move == ab.move, "alpha-beta must agree with minimax"
        print(
            f"{depth:5d}  {ab.value:5g}  {mm.nodes:13,d}  {ab.nodes:15,d}  {mm.nodes / ab.nodes:9.1f}x"
            f"  {mm.nodes / t_mm:11,.0f}  {ab.nodes / t_ab:13,.0f}"
        )


if __name__ == "__main__":
    main()
