"""``mancala book``: build and check the opening books (see :mod:`mancala.engine.book` and
:mod:`mancala.engine.opening_tree`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mancala.atomic import check_writable, write_problem
from mancala.cli.common import (
    add_command,
    add_game_arguments,
    build_game,
    prepare_engine,
    progress_bar,
    solver_position,
)
from mancala.engine.support import engine_support
from mancala.errors import BadInput
from mancala.games.kalah import PRESETS, Kalah, KalahRules

DESCRIPTION = """An opening book holds the positions near the start with a move and a value: the `best`
player plays its moves while the game is in it, and the board's opening explorer shows it.

Kalah's book (the default game) is the exact solver's: `build` solves every position a book
player meets in its first TURNS turns (the start; every position after the first turn; every
reply to the start's book turn; ...).  Oware and Togyz Kumalak get an opening tree grown by
drop-out expansion: POSITIONS positions, each leaf valued by the engine's search of NODES
nodes, values backed up by negamax (docs/books.md).  A build shows
its progress; Ctrl-C keeps what is done (FILE.partial) and the same command resumes it; an
existing tree given as --out grows further.  `check` verifies a book file (format, version,
checksum, the rules of --game when given) and its values against each other."""

EPILOG = """examples:
  mancala book build                               standard Kalah(6,4), the shipped book
  mancala book build --preset empty-capture
  mancala book build --pits 4 --seeds 3 --turns 4 --out book-4x3.json
  mancala book build --game oware --positions 200000 --nodes 200000 --jobs 2
  mancala book build --game togyz --positions 4000 --out togyz.tree.gz
  mancala book check mancala/engine/books/standard-6x4.json
  mancala book check --game oware mancala/engine/books/oware-abapa.tree.gz
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``book`` subcommand (``book build``, ``book check``) to the CLI's subparsers."""
    p = add_command(sub, "book", "build or check an opening book", DESCRIPTION, EPILOG)
    actions = p.add_subparsers(dest="action", metavar="{build,check}", required=True)
    for name, summary in (("build", "build (or resume, or grow) a book"), ("check", "check book files")):
        a = add_command(actions, name, summary, DESCRIPTION, EPILOG)
        # each action its own parser, so its FILE may come after the options (check --game G FILE)
        a.add_argument("file", nargs="?", help="check: the book file (default: every shipped book)")
        a.add_argument(
            "--turns",
            type=int,
            default=None,
            help="build, Kalah: the book player's first TURNS turns are covered (default 2)",
        )
        a.add_argument(
            "--positions",
            type=int,
            default=None,
            help="build, an opening tree: the positions it grows to (default 4000)",
        )
        a.add_argument(
            "--nodes",
            type=int,
            default=None,
            help="build, an opening tree: the engine's nodes for each leaf position (default 50000)",
        )
        a.add_argument(
            "--out",
            metavar="FILE",
            help="build: where to write the book (default: Kalah, the shipped book of these rules and size; "
            "an opening tree, NAME-PRESET.tree.gz in the cache's books folder)",
        )
        a.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="build, an opening tree: search in JOBS processes (the same book; default 1)",
        )
        a.add_argument("--no-progress", action="store_true", help="no progress display")
        add_game_arguments(a)
        a.set_defaults(func=run)
    p.set_defaults(func=run)


def default_name(rules) -> str:
    """The shipped book's file name for ``rules``: ``PRESET-PITSxSEEDS.json``."""
    from dataclasses import replace  # noqa: PLC0415

    preset = next(
        (name for name, r in PRESETS.items() if replace(r, pits=rules.pits, seeds=rules.seeds) == rules), "custom"
    )
    return f"{preset}-{rules.pits}x{rules.seeds}.json"


def run(args: argparse.Namespace) -> int:
    """``mancala book build`` / ``mancala book check``."""
    if args.action == "check":
        if args.turns is not None or args.out is not None or args.positions is not None or args.nodes is not None:
            raise BadInput("--turns, --positions, --nodes and --out are for 'mancala book build'")
        return _check(args)
    if args.file is not None:
        raise BadInput("'mancala book build' takes no file; use --out FILE")
    game, _ = build_game(args)
    record = engine_support(game.name)
    if record is not None and record.solves:  # Kalah: the exact solver's book
        if args.positions is not None or args.nodes is not None:
            raise BadInput(
                "--positions and --nodes are for the opening trees of the other games; Kalah's book is exact"
            )
        return _build(args)
    if args.turns is not None:
        raise BadInput("--turns is for Kalah's exact book; an opening tree takes --positions and --nodes")
    return _build_tree(args, game)


def _build_tree(args: argparse.Namespace, game) -> int:
    """``mancala book build --game G``: grow the opening tree of G's rules."""
    from mancala.engine import opening_tree as T  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.endgame import terminal_console  # noqa: PLC0415 (numba loads only when needed)

    problem = T.refusal(game)
    if problem is not None:
        raise BadInput(problem)
    if args.position is not None:
        raise BadInput("a book is built from the start position; --position is not used")
    positions = T.DEFAULT_POSITIONS if args.positions is None else args.positions
    nodes = T.DEFAULT_NODES if args.nodes is None else args.nodes
    if positions < 1 or nodes < 1 or args.jobs < 1:
        raise BadInput(f"--positions, --nodes and --jobs must be at least 1, got {positions}, {nodes} and {args.jobs}")
    for flag, value, most in (
        ("--positions", positions, T.MAX_POSITIONS),
        ("--nodes", nodes, T.MAX_NODES),
        ("--jobs", args.jobs, T.MAX_JOBS),
    ):
        if value > most:
            raise BadInput(f"{flag} must be at most {most:,}, got {value:,}")
    out = Path(args.out) if args.out else T.default_path(game)
    if not args.out:
        out.parent.mkdir(parents=True, exist_ok=True)
    try:
        check_writable(out)
    except OSError as e:
        raise BadInput(write_problem(out, e)) from None
    T.refuse_tree_paths(out)
    prepare_engine(game)
    console = None if args.no_progress else terminal_console()
    start = time.perf_counter()
    shown: dict = {}

    def progress(done: int, total: int) -> None:
        if args.no_progress:
            return
        if console is None:
            step = max(1, total // 20)
            # a line each 5 %, only forward: the count includes positions searched ahead,
            # which an expansion elsewhere can leave out again
            if done // step > shown.get("step", -1):
                shown["step"] = done // step
                print(f"{done}/{total} positions, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            return
        if "bar" not in shown:
            bar = progress_bar("growing the opening tree", console)
            bar.start()
            shown["bar"], shown["task"] = bar, bar.add_task("book", total=total)
        shown["bar"].update(shown["task"], completed=min(done, total), total=total)

    try:
        tree = T.build(game, positions, nodes, out=out, progress=progress, jobs=args.jobs)
    except KeyboardInterrupt:
        print(f"stopped: what is done is kept in {out}.partial; the same command goes on from there", file=sys.stderr)
        raise
    finally:
        if "bar" in shown:
            shown["bar"].stop()
    wall = time.perf_counter() - start
    print(
        f"{out}: {len(tree.nodes)} positions ({tree.expanded} expanded), {out.stat().st_size:,} bytes; "
        f"{nodes:,} nodes a leaf; this run {wall:.1f} s, {tree.seconds:.1f} s in all"
    )
    return 0


def _build(args: argparse.Namespace) -> int:
    from mancala.engine import book as B  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.endgame import terminal_console  # noqa: PLC0415 (numba loads only when needed)

    game, state = solver_position(args)
    if args.position is not None or state != game.initial_state():
        raise BadInput("a book is built from the start position; --position is not used")
    turns = B.DEFAULT_TURNS if args.turns is None else args.turns
    out = Path(args.out) if args.out else B.BOOK_DIR / default_name(game.rules)
    try:
        check_writable(out)
    except OSError as e:
        raise BadInput(write_problem(out, e)) from None
    B.refuse_book_paths(out)
    partial = out.with_name(out.name + ".partial")
    prepare_engine(game)
    console = None if args.no_progress else terminal_console()
    start = time.perf_counter()
    shown: dict = {}

    def progress(done: int, total: int, entry) -> None:
        if args.no_progress:
            return
        if console is None:
            if entry is not None:
                print(
                    f"solved {done}/{total}: value {entry.value:+d}, move {entry.move}, "
                    f"{entry.seconds:.1f} s, {entry.nodes:,} nodes",
                    file=sys.stderr,
                    flush=True,
                )
            return
        if "bar" not in shown:
            bar = progress_bar("solving book positions", console)
            bar.start()
            shown["bar"], shown["task"] = bar, bar.add_task("book", total=total)
        shown["bar"].update(shown["task"], completed=done, total=total)

    try:
        book = B.build_book(game, turns, partial=partial, progress=progress)
    finally:
        if "bar" in shown:
            shown["bar"].stop()
    B.save_book(book, out)
    partial.unlink(missing_ok=True)
    wall = time.perf_counter() - start
    print(
        f"{out}: {len(book.entries)} positions, {out.stat().st_size:,} bytes; solver time {book.seconds:.1f} s "
        f"({book.nodes:,} nodes), this run {wall:.1f} s"
    )
    return 0


def _check(args: argparse.Namespace) -> int:
    from mancala.engine import book as B  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine import opening_tree as T  # noqa: PLC0415

    paths = [Path(args.file)] if args.file else B.book_files() + list(T.iter_books())
    if not paths:
        raise BadInput(f"no book files in {B.BOOK_DIR}")
    wanted = build_game(args)[0] if args.game is not None or args.preset is not None else None
    bad = 0
    for path in paths:
        if T.is_tree_file(path):
            bad += _check_tree(path, wanted)
            continue
        book = B.load_book(path)
        game = Kalah(KalahRules.from_dict(book.game))
        if wanted is not None:
            record = engine_support(wanted.name)
            if record is None or not record.solves or B.rules_key(wanted.rules) != book.rules_key:
                raise BadInput(f"{path}: a book for Kalah rules {book.rules_key}, not for {args.game}")
        problems = B.check_consistency(game, book)
        for p in problems[:5]:
            print(f"{path}: {p}")
        bad += bool(problems)
        print(
            f"{path}: {len(book.entries)} positions, {book.turns} turns, rules {book.rules_key}: "
            f"{'INCONSISTENT' if problems else 'ok'}"
        )
    if bad:
        raise BadInput(f"{bad} book file(s) inconsistent")
    return 0


def _check_tree(path: Path, wanted) -> int:
    """Check one opening tree file (for ``wanted``'s rules, else its own); 1 if inconsistent."""
    from mancala.engine import opening_tree as T  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    head = T.read_header(path)
    game = wanted if wanted is not None else make_game(str(head.get("spec", head.get("game"))))
    problems = T.check_tree(path, game)
    for p in problems[:5]:
        print(f"{path}: {p}")
    print(
        f"{path}: {head.get('positions')} positions ({head.get('expanded')} expanded), {head.get('spec')}, "
        f"{head.get('nodes'):,} nodes a leaf, engine {head.get('engine')}: {'INCONSISTENT' if problems else 'ok'}"
    )
    return int(bool(problems))
