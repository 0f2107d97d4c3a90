"""``mancala book``: build and check the opening books (see :mod:`mancala.engine.book`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mancala.atomic import check_writable, write_problem
from mancala.cli.common import add_command, add_game_arguments, prepare_engine, progress_bar, solver_position
from mancala.errors import BadInput
from mancala.games.kalah import PRESETS, Kalah, KalahRules

DESCRIPTION = """\
An opening book is a cache of the exact solver's results for the positions near the
start: the `best` player plays its moves while the game is in it.  `build` solves every
position a book player meets in its first TURNS turns (the start; every position after
the first turn; every reply to the start's book turn; ...) and writes the book; an
interrupted build (Ctrl-C) resumes from FILE.partial.  `check` verifies a book file
(format, version, checksum) and its values against each other."""

EPILOG = """examples:
  mancala book build                               standard Kalah(6,4), the shipped book
  mancala book build --preset empty-capture
  mancala book build --pits 4 --seeds 3 --turns 4 --out book-4x3.json
  mancala book check mancala/engine/books/standard-6x4.json
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``book`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "book", "build or check an opening book of solved positions", DESCRIPTION, EPILOG)
    p.add_argument("action", choices=["build", "check"], help="build a book, or check a book file")
    p.add_argument("file", nargs="?", help="check: the book file (default: every shipped book)")
    p.add_argument(
        "--turns", type=int, default=None, help="build: the book player's first TURNS turns are covered (default 2)"
    )
    p.add_argument(
        "--out",
        metavar="FILE",
        help="build: where to write the book (default: the shipped book of these rules and size)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress display")
    add_game_arguments(p)
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
        if args.turns is not None or args.out is not None:
            raise BadInput("--turns and --out are for 'mancala book build'")
        return _check(args)
    if args.file is not None:
        raise BadInput("'mancala book build' takes no file; use --out FILE")
    return _build(args)


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

    paths = [Path(args.file)] if args.file else B.book_files()
    if not paths:
        raise BadInput(f"no book files in {B.BOOK_DIR}")
    bad = 0
    for path in paths:
        book = B.load_book(path)
        game = Kalah(KalahRules.from_dict(book.game))
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
