"""The ``mancala`` command: one entry point, with subcommands.

Each subcommand lives in a module of its own that declares its options and runs it
(``register(subcommands)`` adds its parser, whose ``func`` default is its handler); this module
parses the command line, calls the handler and turns the errors a user can cause into one line
on stderr and exit code 2.  A command given ``--ray`` runs in a child process, the Ray driver
(:func:`ray_driver`): Ray ends its driver with exit code 1 and nothing but its own log lines
when the raylet it is attached to dies, and this process then says so in a line of ours.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from multiprocessing import get_context
from types import ModuleType
from typing import Callable, Sequence

from mancala.cli.common import EXAMPLES
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
        description="Sowing games (Kalah and its variants, Bao la Kiswahili, Oware, tic-tac-toe) and the AIs that play them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    if getattr(args, "ray", None) and not getattr(args, "driver", False):
        args.driver = True
        return ray_driver(drive, args)
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


def drive(args: argparse.Namespace) -> None:
    """The Ray driver's process (:func:`ray_driver`): :func:`run`, its code the exit code; in a
    process group of its own, so that Ctrl-C reaches it once, passed on by its parent."""
    os.setpgid(0, 0)
    sys.exit(run(args))


def ray_driver(target: Callable[[argparse.Namespace], None], args: argparse.Namespace) -> int:
    """Run ``target(args)`` (:func:`drive`) in a child process and wait for it, passing Ctrl-C and
    SIGTERM on; its own endings (0; one line and 2; Ctrl-C and 130) are this command's.  Any other
    is Ray's, which stops its driver with exit code 1 and only its own log lines when the raylet
    it is attached to dies (a node, or its dashboard agent, whose fate the raylet shares, killed):
    then one line says so, exit code 2."""
    child = get_context("spawn").Process(target=target, args=(args,), name="mancala-ray-driver")
    child.start()
    old_term = signal.signal(signal.SIGTERM, lambda signum, frame: child.terminate())
    try:
        while child.exitcode is None:
            try:
                child.join()
            except KeyboardInterrupt:  # the child ends in its own words
                os.kill(child.pid, signal.SIGINT)  # type: ignore[arg-type]
    finally:
        signal.signal(signal.SIGTERM, old_term)
    code = child.exitcode
    if code in (0, 2, 130):
        return code
    how = f"exit code {code}" if code > 0 else f"signal {-code}"
    print(
        f"mancala {args.command}: the Ray driver ended without a word of ours ({how}; Ray's own lines, if any, "
        f"are above): a node of the cluster, a raylet or one of Ray's agents died; what was finished is kept "
        f"(a build's shards, an arena's results): run the same command again once the cluster is whole",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
