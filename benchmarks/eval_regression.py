"""Tune Kalah evaluation weights by regression on exact values from the engine's solver.

Positions are sampled from games of ``alphabeta:depth=2`` (eval=material) in which each
move is random with probability 0.3 (so the positions vary), kept when at most
``--max-on-board`` seeds are still in the pits (the solver then answers in well under a
second with the endgame databases).  Each kept position is solved exactly
(:func:`mancala.engine.solve`): the final margin for the side to move under perfect play.
The evaluation terms of :mod:`mancala.evaluation.terms`, from the mover's side, are the
features; ordinary least squares gives the weights (no intercept: the position is
symmetric).  Printed: R² of the store difference alone, of store + each term, and of all
terms together, and the fitted weights, as JSON too (``--out``).

    PYTHONPATH=. python benchmarks/eval_regression.py --preset standard --positions 1500
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

from mancala.engine import solve
from mancala.evaluation.terms import KALAH_TERMS
from mancala.games import make_game
from mancala.players import make_player


def sample_positions(game, count: int, max_on_board: int, seed: int) -> list:
    """Distinct live positions with at most ``max_on_board`` seeds in the pits."""
    rng = random.Random(seed)
    player = make_player("alphabeta:depth=2,eval=material")
    seen, out = set(), []
    while len(out) < count:
        state = game.initial_state()
        while not game.is_terminal(state):
            on_board = sum(state.row(0)) + sum(state.row(1))
            if on_board <= max_on_board and (state.board, state.seat) not in seen and rng.random() < 0.35:
                seen.add((state.board, state.seat))
                out.append(state)
            moves = game.legal_moves(state)
            move = rng.choice(list(moves)) if rng.random() < 0.3 else player.choose(game, state)
            state = game.apply(state, move)
    return out[:count]


def r2(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """R² (about 0, no intercept) of least squares y ~ x, and the weights."""
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ w
    return 1 - float(resid @ resid) / float(y @ y), w


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--positions", type=int, default=1500)
    ap.add_argument("--max-on-board", type=int, default=26)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the fitted weights and R² values as JSON")
    args = ap.parse_args(argv)
    game = make_game(f"kalah(preset={args.preset})")
    start = time.time()
    states = sample_positions(game, args.positions, args.max_on_board, args.seed)
    names = list(KALAH_TERMS)
    x, y = [], []
    for i, s in enumerate(states):
        mover = game.to_move(s)
        y.append(solve(game, s, progress=False).value)
        x.append([KALAH_TERMS[n](game, s, mover) for n in names])
        if (i + 1) % 100 == 0:
            print(f"{i + 1}/{len(states)} solved, {time.time() - start:.0f} s", file=sys.stderr)
    x, y = np.array(x, float), np.array(y, float)
    store = names.index("store")
    out = {
        "preset": args.preset,
        "positions": len(y),
        "max_on_board": args.max_on_board,
        "seed": args.seed,
        "r2": {},
        "pair_weights": {},
    }
    base, _ = r2(x[:, [store]], y)
    out["r2"]["store"] = base
    for j, n in enumerate(names):
        if j == store:
            continue
        val, w = r2(x[:, [store, j]], y)
        out["r2"][f"store+{n}"] = val
        out["pair_weights"][n] = [float(w[0]), float(w[1])]
    full, w = r2(x, y)
    out["r2"]["all"] = full
    out["weights"] = {n: float(v) for n, v in zip(names, w)}
    out["spec"] = ",".join(f"{n}:{v:.2f}" for n, v in zip(names, w) if abs(v) >= 0.005)
    out["seconds"] = round(time.time() - start, 1)
    print(json.dumps(out, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
