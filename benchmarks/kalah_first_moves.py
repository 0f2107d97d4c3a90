"""The exact value of every first move of a Kalah game, extra-turn chains expanded (issue 31).

A first move that ends in the player's store is followed by each of that player's next moves,
and so on, until the turn passes or the game ends: every line of the first turn is one row.
Each row's position is proved exactly (:func:`mancala.engine.solver.prove`) with the database
of ``--endgame-seeds`` seeds, and its value is given for the player who moves first.  Each
result is appended to ``--results`` as one JSON line as soon as it is proved, and rows already
there are skipped, so a stopped run goes on where it was with the same command.  ``--root``
proves the start position first (its value is the best of the rows').  ``--cheap-first``
takes the rows in reverse order (in Kalah the right-hand first moves were the cheapest).

Usage (docs/engine.md, "Every first move of standard (6,5)")::

    MANCALA_MEMORY_MB=40000 python benchmarks/kalah_first_moves.py --game "kalah(seeds=5)" \\
        --endgame-seeds 31 --root --cheap-first --results k65-first-moves.jsonl

A database larger than the players' is built first when the cache lacks it (``mancala db
build --game kalah --seeds K`` builds it on its own, with a line a level).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.engine.solver import prove  # noqa: E402
from mancala.games import make_game  # noqa: E402


def first_turn_lines(game, state, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object]]:
    """Every line of the mover's first turn from ``state`` and the position it ends in: a move
    that keeps the turn is followed by each next move (the line stops where the turn passes or
    the game ends)."""
    mover = game.to_move(state)
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        line = (*prefix, str(move))
        if not game.is_terminal(child) and game.to_move(child) == mover:
            yield from first_turn_lines(game, child, line)
        else:
            yield line, child


def cpu_seconds() -> float:
    """CPU seconds of this process and its threads so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kalah(seeds=5)")
    parser.add_argument("--endgame-seeds", type=int, required=True)
    parser.add_argument("--results", type=Path, required=True)
    parser.add_argument("--root", action="store_true", help="prove the start position first")
    parser.add_argument("--cheap-first", action="store_true", help="the rows in reverse order")
    args = parser.parse_args()
    game = make_game(args.game)
    start = game.initial_state()
    first = game.to_move(start)
    done = set()
    if args.results.exists():
        done = {json.loads(line)["moves"] for line in args.results.read_text().splitlines() if line.strip()}
    rows = list(first_turn_lines(game, start))
    if args.cheap_first:
        rows.reverse()
    if args.root:
        rows.insert(0, ((), start))
    for line, position in rows:
        key = " ".join(line) or "start"
        if key in done:
            continue
        began, cpu = time.perf_counter(), cpu_seconds()
        if game.is_terminal(position):
            value, nodes = game.score(position, first), 0
        else:
            value, nodes = prove(game, position, endgame_seeds=args.endgame_seeds)
            value = value if game.to_move(position) == first else -value
        record = {
            "moves": key,
            "value": value,
            "nodes": nodes,
            "seconds": round(time.perf_counter() - began, 1),
            "cpu": round(cpu_seconds() - cpu, 1),
        }
        with args.results.open("a") as f:
            f.write(json.dumps(record) + "\n")
        print(record, flush=True)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("kalah_first_moves: stopped; the rows proved so far are kept: the same command goes on")
    except (OSError, ValueError) as e:  # a --results that is a folder, unwritable, or not JSON lines
        print(f"kalah_first_moves: --results: {e}", file=sys.stderr)
        sys.exit(2)
