"""Engine speed with its default leaf estimate vs with named evaluation terms.

Runs ``mancala.engine.best_move`` to a fixed depth (default 12 turns, no clock) on the
same positions with the default leaf estimate (the row difference in quarters) and,
unless ``--default-only``, with an evaluation spec of :mod:`mancala.evaluation.terms`
(``--eval``).  The two are interleaved position by position (the machine's load hits
both alike); each search runs ``--repeat`` times from an empty table and the fastest
run counts.  Prints nodes, CPU seconds and nodes per CPU second
of each, and the ratio measured in this run::

    PYTHONPATH=. python benchmarks/bench_engine_eval.py --depth 12 --positions 6

``--default-only`` measures the default path alone (e.g. on an older checkout, to
compare the default's speed before and after a change).
"""

from __future__ import annotations

import argparse
import time

from bench_engine import positions  # the same positions (benchmarks/ is on the path when run)

from mancala.engine import engine, tables
from mancala.games import make_game


def timed(game, state, depth: int, evaluation: str | None, repeat: int = 1) -> tuple[int, float]:
    """(nodes, CPU seconds) of a fixed-depth search from an empty table (the endgame
    database stays loaded): the fastest of ``repeat`` runs.  Process CPU time, not wall
    time: on a shared machine other jobs' time slices do not count."""
    engine.prepare(game)
    kwargs = {} if evaluation is None else {"evaluation": evaluation}
    best = float("inf")
    for _ in range(repeat):
        tables.context(game, sum(state.board)).clear()
        t = time.process_time()
        r = engine.best_move(game, state, 1e9, max_depth=depth, **kwargs)
        best = min(best, time.process_time() - t)
    return r.nodes, best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kalah(pits=6,seeds=4)")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--eval", default="store:1,seeds:0.25,extra:0.5,threat:0.5")
    ap.add_argument("--repeat", type=int, default=3, help="runs per search; the fastest counts (default 3)")
    ap.add_argument("--default-only", action="store_true")
    args = ap.parse_args()
    game = make_game(args.game)
    states = positions(game, args.positions)
    runs = [None] if args.default_only else [None, args.eval]
    for e in runs:  # load the compiled code before timing
        timed(game, states[0], 2, e)
    totals = {e: [0, 0.0] for e in runs}
    print(f"{args.game}, depth {args.depth} turns, {len(states)} positions")
    print(f"{'pos':>3} " + " ".join(f"{'default' if e is None else 'eval':>8} nodes {'s':>6}" for e in runs))
    for i, state in enumerate(states):
        cells = []
        for e in runs:
            nodes, sec = timed(game, state, args.depth, e, args.repeat)
            totals[e][0] += nodes
            totals[e][1] += sec
            cells.append(f"{nodes:>14,} {sec:>6.2f}")
        print(f"{i:>3} " + " ".join(cells))
    rates = {e: n / s for e, (n, s) in totals.items()}
    for e in runs:
        print(
            f"{'default (row difference / 4)' if e is None else 'eval=' + e}: "
            f"{rates[e] / 1e6:.2f} M nodes/s ({totals[e][0]:,} nodes in {totals[e][1]:.2f} CPU s)"
        )
    if not args.default_only:
        print(f"eval / default speed: {rates[args.eval] / rates[None]:.2f}")


if __name__ == "__main__":
    main()
