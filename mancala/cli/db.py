"""``mancala db``: build and check endgame databases (Oware's: :mod:`mancala.engine.oware.endgame`).

Kalah's databases are built by the engine when a solve asks for them (``mancala solve
--endgame-seeds K``); Oware's take minutes to hours, so they are built here, once, and cached.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, cast

from mancala.errors import BadInput
from mancala.games import make_game

DESCRIPTION = """\
An Oware endgame database holds, for every position with at most SEEDS seeds on the board,
the margin the side to move gets from those seeds with perfect play.  It is built tier by
tier (positions of 0 seeds, 1 seed, ...) by retrograde analysis; each finished tier is cached
at once, so an interrupted build (Ctrl-C) resumes where it stopped, and a database of more
seeds reuses the tiers of a smaller one.  `check` reads a built database, verifies every
tier's checksum and checks a sample of each tier against its moves (the value of a position
is the best of its moves' captures less the value of the position after)."""

EPILOG = """examples:
  mancala db build --game "oware(preset=awari)" --seeds 20
  mancala db build --game "oware(houses=4)" --seeds 12
  mancala db check --game oware --seeds 12

The tables are kept in $MANCALA_CACHE_DIR (else ~/.cache/mancala); 24 seeds on the standard
board is 1.25 GB.  Rule sets that differ only in start seeds, majority stop or repetition share
their tables (see the module doc of mancala/engine/oware/endgame.py for what the entries mean
under each repetition rule)."""

#: the most seeds the command accepts (the rank table's limit for 2 x 6 houses is 50)
MAX_SEEDS = 50


def register(sub) -> None:
    """Add the ``db`` subcommand to the CLI's subparsers."""
    p = sub.add_parser(
        "db",
        help="build or check an Oware endgame database (retrograde analysis)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("action", choices=["build", "check"], help="build a database, or check a built one")
    p.add_argument(
        "--game", default="oware", help="the game and its rules, e.g. 'oware(preset=awari)' (default: oware)"
    )
    p.add_argument("--seeds", type=int, required=True, help="every position with at most SEEDS seeds on the board")
    p.add_argument("--no-progress", action="store_true", help="no line a tier on stderr")
    p.add_argument(
        "--sample",
        type=int,
        default=100_000,
        help="check: positions a tier checked against their moves (default 100000)",
    )
    p.add_argument(
        "--memory",
        type=float,
        metavar="GB",
        help="refuse a build needing more than GB gigabytes (default: $MANCALA_DB_MEMORY bytes, else 8)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``mancala db build`` / ``mancala db check``."""
    if not args.game.strip():
        raise BadInput("--game is empty; give a game such as 'oware(preset=awari)'")
    game = make_game(args.game)
    if game.name != "oware":
        raise BadInput(
            f"endgame databases are built here for Oware; {args.game!r} is {game.name} "
            f"(Kalah's are built by 'mancala solve --endgame-seeds K')"
        )
    if not 0 <= args.seeds <= MAX_SEEDS:
        raise BadInput(f"--seeds must be 0-{MAX_SEEDS}, got {args.seeds}")
    if not 0 <= args.sample <= 10**9:
        raise BadInput(f"--sample must be 0-1000000000 positions, got {args.sample}")
    if args.memory is not None and not args.memory > 0:
        raise BadInput(f"--memory must be a positive number of gigabytes, got {args.memory:g}")
    from mancala.engine.oware import endgame as E  # noqa: PLC0415 (numba loads only when needed)

    rules = cast(Any, game).rules  # asked by name above
    E.check_rules(rules, args.seeds)
    began = time.perf_counter()
    if args.action == "check":
        table = E.load(rules, args.seeds)
        if table is None:
            raise BadInput(f"no Oware endgame database of {args.seeds} seeds for {rules.describe()} rules is built yet")
        failures = E.check_sample(table, args.sample)
        if any(failures.values()):
            bad = ", ".join(f"tier {t}: {k}" for t, k in failures.items() if k)
            raise BadInput(
                f"the Oware endgame database of {args.seeds} seeds breaks its equations ({bad}); build it again"
            )
        verb = f"checked (checksums, and {args.sample:,} positions a tier against their moves)"
    else:
        memory = None if args.memory is None else int(args.memory * 2**30)
        print(
            f"building the Oware endgame database of {args.seeds} seeds ({rules.describe()} rules), "
            f"about {E.memory_needed(rules, args.seeds) / 2**30:.2f} GiB of memory",
            file=sys.stderr,
            flush=True,
        )
        try:
            table = E.build(rules, args.seeds, progress=not args.no_progress, memory=memory)
        except KeyboardInterrupt:
            print("interrupted: the finished tiers are kept; the same command resumes the build", file=sys.stderr)
            raise
        verb = "built"
    entries = int(table.offsets[-1])
    print(
        f"Oware endgame database, {args.seeds} seeds, {rules.describe()} rules: {entries:,} positions "
        f"{verb} in {time.perf_counter() - began:.1f} s; cached in {E.tier_path(rules, 0).parent}"
    )
    return 0
