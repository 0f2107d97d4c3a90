"""The ``mancala`` command: one entry point, with subcommands.

Each subcommand lives in a module of its own that declares its options and runs it
(``register(subcommands)`` adds its parser, whose ``func`` default is its handler); this module
parses the command line, calls the handler and turns the errors a user can cause into one line
on stderr and exit code 2.  A command given ``--ray`` runs in a child process, its Ray driver
(:mod:`mancala.cli.driver`), so that Ray ending it is one line of ours too.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from types import ModuleType
from typing import Sequence

from mancala.cli.common import EXAMPLES
from mancala.cli.driver import ray_driver
from mancala.errors import MancalaError


def subcommand_modules() -> tuple[ModuleType, ...]:
    """The modules of the subcommands, in the order ``mancala --help`` lists them; each has
    ``register(subcommands)``."""
    # they load when the parser is built, not on ``import mancala.cli`` (``python -m mancala.cli.homework``)
    from mancala.cli import analyse, arena, book, db, explain, homework, mankalah, match, play, solve  # noqa: PLC0415
    from mancala.server import agent, command  # noqa: PLC0415 (mancala agent, web, serve)

    return (play, match, explain, solve, analyse, homework, mankalah, agent, command, arena, book, db)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mancala",
        description="Sowing games (Kalah and its variants, Bao la Kiswahili, Oware, Togyz Kumalak, tic-tac-toe) "
        "and the AIs that play them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in subcommand_modules():
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    if getattr(args, "ray", None):  # (the child runs ``run``)
        return ray_driver(run, args)
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Call the parsed command's handler; the errors a user can cause are one line on stderr
    and exit code 2, Ctrl-C exit code 130."""
    try:
        return args.func(args)
    except MancalaError as e:
        print(f"mancala {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mancala {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `mancala solve | head -1`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


#: the names of the engines' worker threads start so (``mancala.engine.kit.run_watched``)
ENGINE_THREADS = "mancala-"


def entry() -> None:
    """The ``mancala`` command (and ``python -m mancala``): :func:`main`, then the process's end.

    After Ctrl-C an engine's worker thread may still be inside a first compilation: the
    engine waits 2 s for it (:func:`mancala.engine.jobs.run_job`), then gives up, and the
    interpreter's shutdown would free the compiler's objects under the running LLVM (exit -2,
    -6 or -11, empty stderr, instead of 130; seen in the suite's Ctrl-C tests).  So once the
    command has said it was interrupted, a process with such a thread still running ends at
    once (its output flushed; every file of ours was closed by then, and the detached builds
    and compiles run on as they do after any exit)."""
    code = main()
    if code == 130 and any(
        t.daemon and t.name.startswith(ENGINE_THREADS) and t.is_alive() for t in threading.enumerate()
    ):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    entry()
