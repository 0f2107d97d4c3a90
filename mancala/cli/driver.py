"""The Ray driver of a command given ``--ray``: the command runs in a child process, and this
one waits for it.

Ray ends its driver itself, with exit code 1 and nothing but its own log lines, when the raylet
the driver is attached to dies (a node, or the raylet's dashboard agent, whose fate it shares,
killed): no Python code of the driver runs then.  The parent says so in one line of ours (exit
code 2); the child's own endings (0; one line and 2; Ctrl-C and 130) are the command's.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import sys
from multiprocessing import get_context
from typing import Callable

#: Linux's ``prctl`` option that sends a signal to a process when its parent ends
PR_SET_PDEATHSIG = 1

#: a command's run: its parsed arguments in, its exit code out (``mancala.cli.main.run``)
Run = Callable[[argparse.Namespace], int]


def ray_driver(run: Run, args: argparse.Namespace) -> int:
    """``run(args)`` in a child process (:func:`drive`), waited for with Ctrl-C and SIGTERM
    passed on to it; its exit code, or, when Ray ended it, one line saying so and 2."""
    child = get_context("spawn").Process(target=drive, args=(run, args, os.getpid()), name="mancala-ray-driver")
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


def drive(run: Run, args: argparse.Namespace, parent: int) -> None:
    """The child: ``run(args)``, its code the exit code.  In a process group of its own, so that
    Ctrl-C reaches it once (passed on by its parent); ended with SIGTERM when ``parent`` ends
    (killed, it cannot pass anything on), so no build goes on unwatched."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # pragma: no cover - not Linux: the parent's end is not followed
        pass
    if os.getppid() != parent:  # the parent ended before the line above
        sys.exit(2)
    sys.exit(run(args))
