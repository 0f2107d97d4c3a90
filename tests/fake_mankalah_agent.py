"""A scripted ManKalah agent for the tests, written without any of our code.

Usage: python fake_mankalah_agent.py REPLY...

Each time the agent is due to answer (START;South, or a CHANGE ending in YOU) it takes the
next REPLY: a literal line to send (``MOVE;3``, ``SWAP``, ``MOVE;x`` ...), or one of
    auto        the first non-empty hole of its own side (tracked from START, SWAP and
                the absolute states); when the script runs out, auto is used
    sleep       never answer (the referee's clock runs out)
    exit        exit at once without answering
    nonewline   write ``MOVE;1`` with no newline and exit
    crlf        write ``MOVE;1`` ending in a carriage return and newline
    spam        write 1 MB to stderr, then answer auto
    early       answer auto and write one more ``MOVE;1`` straight after it
"""

import sys
import time


def main(script):
    side = None  # "South" or "North"
    board = None
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line == "END":
            return 0
        due = False
        if line.startswith("START;"):
            side = line.split(";")[1]
            board = [7] * 7 + [0] + [7] * 7 + [0]  # North holes, North store, South holes, South store
            due = side == "South"
        elif line.startswith("CHANGE;"):
            _, move, state, who = line.split(";")
            board = [int(x) for x in state.split(",")]
            if move == "SWAP":
                side = "North" if side == "South" else "South"
            due = who == "YOU"
        if not due:
            continue
        reply = script.pop(0) if script else "auto"
        own = board[0:7] if side == "North" else board[8:15]
        auto = "MOVE;%d" % (1 + next(i for i, seeds in enumerate(own) if seeds))
        if reply == "sleep":
            time.sleep(3600)
        elif reply == "exit":
            return 0
        elif reply == "nonewline":
            sys.stdout.write("MOVE;1")
            sys.stdout.flush()
            return 0
        elif reply == "crlf":
            sys.stdout.write("MOVE;1\r\n")
        elif reply == "spam":
            sys.stderr.write("x" * 1_000_000 + "\n")
            sys.stderr.flush()
            sys.stdout.write(auto + "\n")
        elif reply == "early":
            sys.stdout.write(auto + "\nMOVE;1\n")
        else:
            if reply == "auto":
                reply = auto
            if reply == "SWAP":
                side = "North" if side == "South" else "South"
            sys.stdout.write(reply + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
