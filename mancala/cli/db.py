"""``mancala db``: build and check endgame databases: Kalah's (:mod:`mancala.engine.endgame`;
on a Ray cluster with ``--ray``, :mod:`mancala.engine.distributed`), and the tables of every
engine whose record names a table module (``EngineSupport.tables``, the protocol of
:class:`mancala.engine.support.TableModule`): Oware's (:mod:`mancala.engine.oware.endgame`)
and Togyz Kumalak's (:mod:`mancala.engine.togyz.endgame`).

Kalah's databases are also built by the engine when a solve asks for them (``mancala solve
--endgame-seeds K``); the others take minutes to hours, so they are built here, once, and cached.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any, cast

from mancala.cli.common import add_command
from mancala.engine.support import engine_records, engine_support
from mancala.errors import BadInput
from mancala.games import CATALOGUE, make_game, spec_of
from mancala.games.catalogue import game_info

DESCRIPTION = """\
An endgame database holds the exact value of every position with at most SEEDS seeds on the
board.  Kalah's are built level by level (0 seeds, 1 seed, ...), each level by memoised search;
with --ray the levels are split into shards solved on a Ray cluster, and the file is byte for
byte the one a single machine builds (finished shards are kept, so a stopped build resumes).

An Oware endgame database holds, for every position with at most SEEDS seeds on the board,
the margin the side to move gets from those seeds with perfect play.  It is built tier by
tier (positions of 0 seeds, 1 seed, ...) by retrograde analysis; each finished tier is cached
at once, so an interrupted build (Ctrl-C) resumes where it stopped, and a database of more
seeds reuses the tiers of a smaller one.  `check` reads a built database, verifies every
tier's checksum and checks a sample of each tier against its moves (the value of a position
is the best of its moves' captures less the value of the position after).

A Togyz Kumalak table is built the same way: for every position with at most SEEDS stones on
the board (the houses, the two tuzdiks, the side to move; not the kazans) the margin the side
to move gets from those stones with perfect play, played to the end (the stop at 82 cannot
change who wins: kazans only grow), a cycle nobody can force a way out of a draw on the board.
10 stones on the 2 x 9 board is 445,560,830 positions, a few minutes on two cores."""

EPILOG = """examples:
  mancala db build --game kalah --seeds 16
  mancala db build --game "kalah(pits=6,seeds=4)" --seeds 20 --ray 10.0.0.5:6379
  mancala db build --game kalah --seeds 14 --ray local --workers 2
  mancala db build --game "oware(preset=awari)" --seeds 20
  mancala db build --game "oware(houses=4)" --seeds 12
  mancala db check --game oware --seeds 12
  mancala db build --game togyz --seeds 10
  mancala db check --game togyz --seeds 10

The tables are kept in $MANCALA_CACHE_DIR (else ~/.cache/mancala); 24 seeds on the standard
board is 1.25 GB.  Rule sets that differ only in start seeds, majority stop or repetition share
their tables (see the module doc of mancala/engine/oware/endgame.py for what the entries mean
under each repetition rule).  Togyz Kumalak's rule sets share a table unless they differ in
houses or tuzdik_forbid_last; 10 stones on 2 x 9 is 446 MB and needs about 2 GiB to build
(docs/togyz.md, "Endgame tables")."""

#: the most seeds the command accepts (the rank table's limit for 2 x 6 houses is 50)
MAX_SEEDS = 50


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``db`` subcommand to the CLI's subparsers."""
    p = add_command(
        sub,
        "db",
        "build or check an endgame database (Kalah's, also on a Ray cluster; Oware's; Togyz Kumalak's)",
        DESCRIPTION,
        EPILOG,
    )
    p.add_argument("action", choices=["build", "check"], help="build a database, or check a built one")
    p.add_argument(
        "--game", default="oware", help="the game and its rules, e.g. 'oware(preset=awari)' (default: oware)"
    )
    p.add_argument(
        "--seeds",
        type=int,
        required=True,
        help="every position with at most SEEDS seeds (Togyz Kumalak: stones) on the board",
    )
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
        help="refuse a build needing more than GB gigabytes (default: $MANCALA_DB_MEMORY bytes, else 8; "
        "with --ray: a worker's bound for one shard)",
    )
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="Kalah: build on the Ray cluster at ADDRESS (host:port), or 'local' for a Ray of this machine",
    )
    p.add_argument("--workers", type=int, help="with --ray local: CPUs of the local Ray (default: all)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``mancala db build`` / ``mancala db check``."""
    if not args.game.strip():
        raise BadInput("--game is empty; give a game such as 'oware(preset=awari)'")
    game = make_game(args.game)
    record = engine_support(game.name)
    if record is None or not (record.solves or record.table_build is not None):
        having = [CATALOGUE[r.game].title for r in engine_records() if r.solves or r.table_build is not None]
        names = ", ".join(having[:-1]) + " and " + having[-1] if len(having) > 1 else "".join(having)
        raise BadInput(f"endgame databases are built for {names}; {args.game!r} is {game.name}")
    if args.workers is not None and not 1 <= args.workers <= 4096:
        raise BadInput(f"--workers must be 1-4096, got {args.workers}")
    if args.workers is not None and args.ray != "local":
        raise BadInput("--workers sizes a local Ray (--ray local); a cluster's workers are its own")
    if record.solves:  # the databases of an engine that proves by search (Kalah's), also on Ray
        return _run_kalah(args, game)
    if args.ray is not None:
        raise BadInput(f"--ray builds Kalah's databases; {game_info(game).title}'s are built on one machine")
    if not 0 <= args.seeds <= MAX_SEEDS:
        raise BadInput(f"--seeds must be 0-{MAX_SEEDS}, got {args.seeds}")
    if not 0 <= args.sample <= 10**9:
        raise BadInput(f"--sample must be 0-1000000000 positions, got {args.sample}")
    memory = memory_bytes(args)
    tables = record.table_module()
    if tables is None:
        raise BadInput(f"no endgame database module for {game_info(game).title}")
    title, unit = tables.TITLE, tables.UNIT
    if memory is None:  # $MANCALA_DB_MEMORY, read before the build says a word
        memory = tables.memory_limit()
    rules = cast(Any, game).rules  # (a game whose record builds tables: it has rules)
    tables.check_rules(rules, args.seeds)
    began = time.perf_counter()
    if args.action == "check":
        table = tables.load(rules, args.seeds)
        if table is None:
            raise BadInput(
                f"no {title} endgame database of {args.seeds} {unit} for {rules.describe()} rules is built yet"
            )
        failures = tables.check_sample(table, args.sample)
        if any(failures.values()):
            bad = ", ".join(f"tier {t}: {k}" for t, k in failures.items() if k)
            raise BadInput(
                f"the {title} endgame database of {args.seeds} {unit} breaks its equations ({bad}); build it again"
            )
        verb = f"checked (checksums, and {args.sample:,} positions a tier against their moves)"
    else:
        print(
            f"building the {title} endgame database of {args.seeds} {unit} ({rules.describe()} rules), "
            f"about {tables.memory_needed(rules, args.seeds) / 2**30:.2f} GiB of memory",
            file=sys.stderr,
            flush=True,
        )
        try:
            table = tables.build(rules, args.seeds, progress=not args.no_progress, memory=memory)
        except KeyboardInterrupt:
            print("interrupted: the finished tiers are kept; the same command resumes the build", file=sys.stderr)
            raise
        verb = "built"
    entries = int(table.values.size)
    print(
        f"{title} endgame database, {args.seeds} {unit}, {rules.describe()} rules: {entries:,} positions "
        f"{verb} in {time.perf_counter() - began:.1f} s; cached in {tables.tier_path(rules, 0).parent}"
    )
    return 0


def _level_lines(k: int):
    """A Kalah build's progress off a terminal (a log, a pipe; on a terminal the bar shows it):
    one line on stderr a level as it is solved, after one for the levels a cached smaller
    database supplied."""
    base = [-1]

    def report(level: int, positions: int, seconds: float, loaded: bool) -> None:
        if loaded:
            base[0] = level
            return
        if base[0] >= 0:
            print(f"levels 0-{base[0]}: from the cached {base[0]}-seed database", file=sys.stderr, flush=True)
            base[0] = -1
        print(f"level {level} of {k}: {positions:,} positions in {seconds:.1f} s", file=sys.stderr, flush=True)

    return report


def _size(nbytes: int) -> str:
    """A size in the unit people read it in (``19.0 MB``, ``1.25 GiB``)."""
    return f"{nbytes / 2**30:.2f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:.1f} MB"


def memory_bytes(args: argparse.Namespace) -> int | None:
    """``--memory`` in bytes (None when not given); raises :class:`BadInput` unless it is a
    positive, finite number of gigabytes (``inf`` and ``nan`` are refused)."""
    if args.memory is None:
        return None
    if not math.isfinite(args.memory) or not args.memory > 0:
        raise BadInput(f"--memory must be a positive number of gigabytes, got {args.memory:g}")
    return int(args.memory * 2**30)


def _run_kalah(args: argparse.Namespace, game) -> int:
    """``mancala db build|check --game kalah...``: one machine, or a Ray cluster (``--ray``)."""
    from mancala.engine import bridge, endgame  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.kernels import R_CHOICE  # noqa: PLC0415

    rules = game.rules
    rules_arr = bridge.rules_array(rules)
    if rules_arr[R_CHOICE]:
        raise BadInput("no endgame database under the choice-of-direction rule: its levels are not acyclic")
    if not 0 <= args.seeds <= endgame.MAX_K:
        raise BadInput(f"--seeds must be 0-{endgame.MAX_K} for Kalah, got {args.seeds}")
    if not 0 <= args.sample <= 10**9:
        raise BadInput(f"--sample must be 0-1000000000 positions, got {args.sample}")
    memory = memory_bytes(args)
    key = bridge.play_key(rules)
    k = args.seeds
    n = rules.pits
    path = endgame.cache_dir() / endgame.file_name(key, k)
    began = time.perf_counter()
    if args.action == "check":
        db = endgame.cached(key, n, k)
        if db is None:
            raise BadInput(f"no intact Kalah endgame database of {k} seeds for {spec_of(game)} is built yet ({path})")
        bad = endgame.check_sample(db, rules_arr, args.sample)
        if bad:
            raise BadInput(f"the Kalah endgame database {path} breaks its equations at {bad} positions; build it again")
        print(
            f"Kalah endgame database, {k} seeds, {spec_of(game)}: {endgame.entries(n, k):,} positions checked "
            f"(checksum, and {args.sample:,} positions a level against their moves) in "
            f"{time.perf_counter() - began:.1f} s; {path}"
        )
        return 0
    need = endgame.nbytes(n, k)
    if args.ray is None:
        if memory is not None and need > memory:
            raise BadInput(
                f"the {k}-seed database needs {need / 2**30:.2f} GiB, more than --memory {args.memory:g}; "
                "give fewer seeds or more memory"
            )
        print(
            f"building the Kalah endgame database of {k} seeds ({spec_of(game)}), {_size(need)}",
            file=sys.stderr,
            flush=True,
        )
        lines = None if args.no_progress or endgame.terminal_console() is not None else _level_lines(k)
        db = endgame.obtain(key, rules_arr, k, progress=not args.no_progress, report=lines)
        where = "on this machine"
    else:
        from mancala.engine import cluster, distributed  # noqa: PLC0415 (Ray loads only for --ray)

        with cluster.connected(args.ray, args.workers) as ray:
            print(
                f"building the Kalah endgame database of {k} seeds ({spec_of(game)}) on the Ray cluster "
                f"{args.ray} ({int(ray.cluster_resources().get('CPU', 0))} CPUs)",
                file=sys.stderr,
                flush=True,
            )
            try:
                report = distributed.build_on_ray(
                    ray,
                    key,
                    rules_arr,
                    k,
                    memory=memory,
                    say=None if args.no_progress else distributed.stderr_line,
                )
            except KeyboardInterrupt:
                print("interrupted: the finished shards are kept; the same command resumes the build", file=sys.stderr)
                raise
        db = report.database
        where = f"on Ray ({report.solved} shards solved, {report.resumed} resumed from files)"
    print(
        f"Kalah endgame database, {k} seeds, {spec_of(game)}: {endgame.entries(n, k):,} positions "
        f"built {where} in {time.perf_counter() - began:.1f} s; {db.path or 'not cached (read-only cache)'}"
    )
    return 0
