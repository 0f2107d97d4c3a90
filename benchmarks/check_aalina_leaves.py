"""Our Oware endgame table against Aalina's, entry by entry (an outside check of the values).

Aalina (github.com/joansalasoler/oware) ships ``oware-leaves.bin``: for every position with at
most 12 seeds on the board, South to move, one byte: the seeds the mover will still capture
with perfect play (``byte >> 2``) and a flag (``byte & 3``: 3 exact, 1 a lower bound where
the best line ends in a repetition).  Our table holds the mover's margin ``m`` over the ``s``
seeds on the board, so the mover's seeds are ``(s + m) / 2``.  This script reads Aalina's file
(give its path; it is never part of this repository), ranks every position as Aalina does (a
combinatorial number system over the houses from North's last to South's first, read from its
source), and compares every entry with ours under the ``abapa`` rules, which Aalina plays.
Under those rules a repetition gives each side the seeds of its own row at that moment, which
no table of positions alone can hold; for every exact entry of Aalina's that differs from
ours, the script plays our table's perfect line under the rules as played (with the history)
and counts whether it ends by a repetition, goes on (endless play) or ends otherwise.

    python benchmarks/check_aalina_leaves.py /path/to/aalina/oware-leaves.bin [--seeds 12]

Our table is loaded from the cache (``$MANCALA_CACHE_DIR``) or built (12 seeds: seconds).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

from mancala.engine.oware import endgame, exact, index
from mancala.games import make_game

MAX_SEEDS = 15  # Aalina's index covers up to 15 seeds; its shipped file holds 12
EXACT, LOWER = 3, 1


def read_leaves(path: Path) -> tuple[dict[str, str], np.ndarray]:
    """Aalina's header fields and its entries (one byte a position)."""
    data = path.read_bytes()
    text = ""
    at = 0
    while not text.endswith("\n\n"):  # the header: UTF-16 (Java chars), ended by an empty line
        if at + 2 > len(data):
            raise SystemExit(f"{path}: no end of the header found; is it Aalina's oware-leaves.bin?")
        text += data[at : at + 2].decode("utf-16-be")
        at += 2
    if not text.startswith("Oware Endgames "):
        raise SystemExit(f"{path}: header {text[:20]!r}, expected 'Oware Endgames ...'")
    fields = dict(line.split(":", 1) for line in text.splitlines()[1:] if ":" in line)
    return {k.strip(): v.strip() for k, v in fields.items()}, np.frombuffer(data, np.uint8, offset=at)


def aalina_rank(houses: np.ndarray, seeds: int) -> int:
    """Aalina's index of a South-to-move position of ``seeds`` seeds on the board."""
    rank = 0
    n = MAX_SEEDS - seeds
    for i in range(11, -1, -1):
        if n >= MAX_SEEDS:
            break
        rank += comb(MAX_SEEDS - n + i, i + 1)
        n += int(houses[i])
    return rank


def how_our_line_ends(game, table, board: np.ndarray, seeds: int) -> str:
    """How our table's perfect line from the position ends when played under the rules as
    played (``Oware.apply``, which keeps the history): by a repetition, not within
    :data:`mancala.engine.oware.exact.LINE_LIMIT` moves (endless play: the table's even
    split), or otherwise; then whether the line after some other first move cycles.  The first two are where the table's value (endless play an even
    split) and the game's may differ."""
    south = (48 - seeds) // 2
    state = game.parse_position("-".join(map(str, board)) + f"-{south}-{48 - seeds - south}-S")
    end = _line_end(game, table, state)
    if end != "another end":
        return end
    for move in game.legal_moves(state):  # does a line after another first move cycle?
        child = game.apply(state, move)
        if not child.finished and _line_end(game, table, child) != "another end":
            return "another end; a side line cycles"
    return "another end; no line cycles"


def _line_end(game, table, state) -> str:
    """How our table's perfect line from ``state`` ends under the rules as played."""
    for move in exact.perfect_line(game, state, table):
        state = game.apply(state, move)
    if not state.finished:
        return f"no end within {exact.LINE_LIMIT} moves"
    return "a repetition" if state.last is not None and state.last.end == "repetition" else "another end"


def main(argv: list[str] | None = None) -> int:
    """Compare every entry; print the agreement by flag and the first differences."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("leaves", type=Path, help="Aalina's oware-leaves.bin")
    parser.add_argument("--seeds", type=int, default=12, help="positions of at most this many seeds (≤ 12)")
    args = parser.parse_args(argv)
    if not 0 <= args.seeds <= 12:
        parser.error(f"--seeds must be 0-12 (Aalina's file holds 12), got {args.seeds}")
    header, entries = read_leaves(args.leaves)
    print(f"Aalina's table: {header.get('Positions')} positions, {header.get('Date')}")
    game = make_game("oware(preset=abapa)")
    played = make_game("oware(preset=abapa,stop_at_majority=false)")
    truth: collections.Counter[str] = collections.Counter()
    rules = game.rules  # type: ignore[attr-defined]
    table = endgame.load(rules, args.seeds) or endgame.build(rules, args.seeds)
    counts: collections.Counter[tuple[int, str]] = collections.Counter()
    shown = 0
    start = time.perf_counter()
    board = np.zeros(12, np.int64)
    for s in range(args.seeds + 1):
        for r in range(index.tier_size(12, s)):
            index.unrank(r, s, board)
            ours = int(table.values[table.offsets[s] + r])
            entry = int(entries[aalina_rank(board, s)])
            flag, theirs = entry & 3, entry >> 2
            agree = (s + ours) == 2 * theirs
            counts[(flag, "same" if agree else "differs")] += 1
            if not agree and flag == EXACT:
                truth[how_our_line_ends(played, table, board, s)] += 1
            if not agree and flag == EXACT and shown < 10:
                shown += 1
                print(f"  differs: {'-'.join(map(str, board))} ours margin {ours:+d}, Aalina {theirs} of {s}")
        exact_same, exact_other = counts[(EXACT, "same")], counts[(EXACT, "differs")]
        print(
            f"up to {s} seeds ({time.perf_counter() - start:.0f} s): exact entries {exact_same:,} the same, "
            f"{exact_other:,} differ, {dict(truth)}",
            file=sys.stderr,
            flush=True,
        )
    for flag, name in ((EXACT, "exact"), (LOWER, "repetition (lower bound)")):
        same, other = counts[(flag, "same")], counts[(flag, "differs")]
        print(f"Aalina {name}: {same + other:,} positions, {same:,} the same, {other:,} differ")
    if truth:
        print("the differing exact entries, our perfect line played under the rules:", dict(truth))
    rest = sum(v for (f, _), v in counts.items() if f not in (EXACT, LOWER))
    if rest:
        print(f"other flags: {rest:,} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
