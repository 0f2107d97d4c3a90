"""Small Oware variants solved completely from their endgame databases: for each board of
``h`` houses a side with ``s`` seeds a house (the start holds ``2hs`` seeds, all on the
board), the database of ``2hs`` seeds gives the first player's margin with perfect play from
the start, and the value of each first move.  Prints the Markdown table docs/oware.md holds.

Under ``awari`` rules (a repetition splits the board) the values are exact; under ``abapa``
(a repetition gives each side its own row) they are the table's values, in which endless
play counts as an even split (docs/oware-endgame.md): exact wherever no repetition is
forced, an estimate where one is.

Usage::

    python benchmarks/oware_small_variants.py                  # every board up to 24 seeds and 40 M positions
    python benchmarks/oware_small_variants.py --max-positions 2000000 --rules awari

The databases go to the cache (``$MANCALA_CACHE_DIR``); already built ones are reused.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.engine.oware.endgame import build  # noqa: E402
from mancala.games import make_game  # noqa: E402
from mancala.games.oware import Oware  # noqa: E402


def solve_start(game: Oware) -> tuple[int, list[tuple[str, int]], float]:
    """The first player's margin from the start, each first move's margin, and the build's
    seconds."""
    seeds = game.rules.total
    began = time.perf_counter()
    table = build(game.rules, seeds)
    spent = time.perf_counter() - began
    start = game.initial_state()
    moves = []
    for move in game.legal_moves(start):
        child = game.apply(start, move)
        if game.is_terminal(child):
            moves.append((str(move), game.score(child, 0)))
        else:
            moves.append((str(move), child.stores[0] - child.stores[1] - table.value(child.houses, child.seat)))
    return table.value(start.houses, 0), moves, spent


def main(argv: list[str] | None = None) -> int:
    """Solve every board the options allow and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="awari,abapa", help="presets, comma-separated")
    parser.add_argument("--max-seeds", type=int, default=24)
    parser.add_argument("--max-positions", type=int, default=40_000_000, help="largest database built")
    args = parser.parse_args(argv)
    print(
        "| rules | houses a side | seeds a house | positions | South's margin | first moves (South's margin after each) | build |"
    )
    print("|---|---|---|---|---|---|---|")
    for preset in args.rules.split(","):
        for houses in range(1, 7):
            for seeds in range(1, 5):
                total = 2 * houses * seeds
                positions = comb(total + 2 * houses, 2 * houses)
                if total > args.max_seeds or positions > args.max_positions:
                    continue
                game = make_game(f"oware(preset={preset},houses={houses},seeds={seeds})")
                assert isinstance(game, Oware)
                value, moves, spent = solve_start(game)
                firsts = ", ".join(f"{m} {v:+d}" for m, v in moves)
                print(
                    f"| {preset} | {houses} | {seeds} | {positions:,} | {value:+d} | {firsts} | {spent:.1f} s |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
