"""Engine speed vs the reference search, on the same positions, depth and node counts.

Runs the reference ``mancala.search.alphabeta`` (score evaluation, the game's move
order) and the engine's compiled plain alpha-beta kernel (same order, same pruning:
the node counts must be equal) on the same positions, then the engine's real search
(MTD(f), table, database) for information.  Prints nodes/s and the ratio measured in
this run.  Usage: ``python benchmarks/bench_engine.py [--depth 6] [--positions 6]``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from mancala.engine import bridge, engine
from mancala.engine import search as S
from mancala.evaluation import score_difference
from mancala.games import make_game
from mancala.search import alphabeta


def positions(game, count: int, seed: int = 1) -> list:
    """Start position plus positions a few random moves in."""
    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(2, 12)):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return out


def plain(game, state, depth: int) -> tuple[int, int, float]:
    """(value, nodes, seconds) of the compiled plain alpha-beta."""
    n = game.rules.pits
    ctl = np.zeros(S.C_SIZE, dtype=np.int64)
    ctl[:9] = bridge.rules_array(game.rules)
    ws = np.zeros((S.MAXPLY, S.workspace_columns(n, 1)), dtype=np.int64)
    root = bridge.relative_board(state)
    acc = int(root[n] - root[2 * n + 1])
    root[n] = root[2 * n + 1] = 0
    ws[0, : 2 * n + 2] = root
    t = time.perf_counter()
    v = S.plain_alphabeta(0, -S.BIG, S.BIG, depth, 0, 0, ws, ctl)
    return acc + int(v), int(ctl[S.C_NODES]), time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kalah(pits=6,seeds=4)")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--positions", type=int, default=6)
    args = ap.parse_args()
    game = make_game(args.game)
    states = positions(game, args.positions)
    plain(game, states[0], 1)  # load the compiled code before timing
    ref_nodes = ref_time = eng_nodes = eng_time = 0.0
    print(f"{args.game}, depth {args.depth} turns, {len(states)} positions")
    print(f"{'pos':>3} {'value':>5} {'nodes':>10} {'ref s':>8} {'engine s':>9} {'ratio':>7}")
    for i, state in enumerate(states):
        t = time.perf_counter()
        ref = alphabeta(game, state, args.depth, score_difference)
        rt = time.perf_counter() - t
        value, nodes, et = plain(game, state, args.depth)
        assert (value, nodes) == (ref.value, ref.nodes), (i, value, nodes, ref.value, ref.nodes)
        ref_nodes += ref.nodes
        ref_time += rt
        eng_nodes += nodes
        eng_time += et
        print(f"{i:>3} {value:>5} {nodes:>10,} {rt:>8.3f} {et:>9.5f} {rt / et:>7.0f}x")
    ref_rate = ref_nodes / ref_time
    eng_rate = eng_nodes / eng_time
    print(f"reference alphabeta: {ref_rate / 1e3:,.0f} k nodes/s")
    print(f"engine plain kernel: {eng_rate / 1e6:,.1f} M nodes/s (identical node counts)")
    print(f"ratio: {eng_rate / ref_rate:,.0f}x")
    # the real search, for information: MTD(f) + table + endgame database, 1 s per position
    total = 0
    t = time.perf_counter()
    depths = []
    for state in states:
        r = engine.best_move(game, state, 1.0)
        total += r.nodes
        depths.append(r.depth)
    dt = time.perf_counter() - t
    print(f"engine best_move (1 s each): {total / dt / 1e6:.1f} M nodes/s, depths reached {depths}")


if __name__ == "__main__":
    main()
