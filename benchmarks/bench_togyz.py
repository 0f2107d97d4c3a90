"""Our Togyz Kumalak ``best`` against the strongest Togyz engine that runs here, at equal time.

The engine is the Rust engine of ``nurkal022/9Qumalaqv2`` (alpha-beta with a small neural
evaluation, an opening book and a 4-stone table; snapshot ``bb1ced9``, no licence). It is not
part of this project: fetch it into a scratch folder outside the repository, build ``engine/``
there with ``cargo build --release --offline`` (no crates needed), and give that ``engine/``
folder as ``--engine``. It runs with that folder as its working directory, or it silently loses
its weights and book (the run checks that it says it loaded them).

Its protocol (``serve``): ``ready``; ``newgame``; ``position POS`` after each of our moves;
``go time MS pos POS`` -> ``bestmove K …`` (house K+1 of the side to move) or ``terminal …``.
POS is ``w1,…,w9/b1,…,b9/kW,kB/tW,tB/side``: South's houses, North's, the kazans, each
player's tuzdik as the house index 0-8 on the opponent's row or -1, the side to move (0 South).
It searches with every core the machine gives it (``available_parallelism``); ``--cores``
pins it with ``taskset`` (default 1 core, as our engine searches on one).

Its end rule is wrong (it stops when either row is empty, with no sweep): our referee judges
every game by our rules, and where it answers ``terminal`` in a live position the run plays its
move for it from our engine at low depth (``best:depth=4``) and counts those moves separately.

Both sides from balanced openings (random plies kept when a short search values them within
``--balance`` stones), every opening from both seats, one game at a time; ``--seed`` draws the
openings (printed: a fresh seed gives fresh openings). Prints W-D-L, the score with its 95 %
Wilson interval, the mean margin, each side's time per move and how games ended;
``--results`` keeps every game as a JSON line (the run resumes from it).

Usage::

    python benchmarks/bench_togyz.py --engine /scratch/9Qumalaqv2/engine --openings 20 --seconds 1

Times are wall-clock: on a shared machine say how loaded it was with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.arena.tournament import make_openings  # noqa: E402
from mancala.games import make_game  # noqa: E402
from mancala.players import make_player  # noqa: E402

#: the longest game played before it is judged by the stones each side holds (the rules have
#: no repetition rule; our engine and theirs may walk a cycle)
MAX_PLIES = 1000
#: the player that moves for their engine when it calls a live position over
STAND_IN = "best:depth=4"


def engine_position(state: Any) -> str:
    """POS of their protocol for our state."""
    n = state.size
    houses = state.houses
    t0, t1 = state.tuzdiks
    return (
        f"{','.join(map(str, houses[:n]))}/{','.join(map(str, houses[n:]))}/"
        f"{state.kazans[0]},{state.kazans[1]}/{t0 - n if t0 >= 0 else -1},{t1 if t1 >= 0 else -1}/{state.seat}"
    )


class RustEngine:
    """9Qumalaqv2's engine as a child process in its own folder."""

    def __init__(self, folder: Path, seconds: float, cores: int) -> None:
        binary = folder / "target" / "release" / "togyzkumalaq-engine"
        if not binary.exists():
            raise SystemExit(f"bench_togyz: {binary} is missing: build it with cargo build --release --offline")
        command = [str(binary), "serve"]
        if cores > 0 and shutil.which("taskset"):
            command = ["taskset", "-c", ",".join(str(c) for c in range(cores)), *command]
        self.seconds = seconds
        self.proc = subprocess.Popen(
            command,
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        said = self.wait_for("ready", keep=True)
        if not any("NNUE loaded" in line for line in said) or not any("book loaded" in line for line in said):
            raise SystemExit("bench_togyz: the engine did not load its weights and book: " + " | ".join(said))
        self.loaded = [line for line in said if "loaded" in line]

    def send(self, line: str) -> None:
        """One command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word: str, keep: bool = False) -> list[str]:
        """Read lines until one starts with ``word`` (or ``terminal``/``error``); the lines read."""
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine stopped before answering {word!r}")
            lines.append(line.strip())
            if line.startswith((word, "terminal", "error")):
                return lines

    def new_game(self) -> None:
        """Forget the last game's history."""
        self.send("newgame")
        self.wait_for("ready")

    def tell(self, state: Any) -> None:
        """The position after our move (their game history, for its repetition handling)."""
        self.send(f"position {engine_position(state)}")
        self.wait_for("ready")

    def choose(self, state: Any) -> tuple[int | None, dict]:
        """Their house (index on the mover's row) and what they said, or None when they call
        the position over."""
        self.send(f"go time {int(self.seconds * 1000)} pos {engine_position(state)}")
        line = self.wait_for("bestmove")[-1]
        words = line.split()
        if words[0] != "bestmove":
            return None, {"said": line}
        info = {words[i]: words[i + 1] for i in range(2, len(words) - 1, 2)}
        return int(words[1]), info

    def close(self) -> None:
        """Stop the process."""
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def play_one(game: Any, ours_spec: str, other: RustEngine, opening: tuple[str, ...], our_seat: int) -> dict:
    """One game from ``opening``, our seat given; the result as a dict."""
    ours = make_player(ours_spec)
    stand_in = make_player(STAND_IN)
    state = game.initial_state()
    for text in opening:
        state = game.apply(state, game.parse_move(state, text))
    other.new_game()
    times: dict[str, list[float]] = {"ours": [], "other": []}
    depths: list[int] = []
    moves = list(opening)
    stood_in = 0
    while not game.is_terminal(state) and len(moves) < MAX_PLIES:
        start = time.perf_counter()
        theirs = False
        if state.seat == our_seat:
            move = ours.choose(game, state)
            times["ours"].append(time.perf_counter() - start)
        else:
            house, info = other.choose(state)
            times["other"].append(time.perf_counter() - start)
            if house is None:
                stood_in += 1
                move = stand_in.choose(game, state)
            else:
                move = game.parse_move(state, str(house + 1))
                theirs = True
                if "depth" in info:
                    depths.append(int(info["depth"]))
        state = game.apply(state, move)
        moves.append(str(move))
        if not theirs and not game.is_terminal(state):
            other.tell(state)  # their engine keeps the game's positions for its repetition handling
    margin = game.score(state, our_seat)
    return {
        "opening": list(opening),
        "our_seat": our_seat,
        "moves": " ".join(moves),
        "margin": margin,
        "result": "W" if margin > 0 else "L" if margin < 0 else "D",
        "end": (state.last.end if state.last else None) if game.is_terminal(state) else "move-cap",
        "stood_in": stood_in,
        "their_depths": depths,
        "ours_s": times["ours"],
        "other_s": times["other"],
    }


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a score (draws count half) over ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(ours_spec: str, rows: list[dict]) -> None:
    """W-D-L, score with its interval, margins, time per move and the endings."""
    w = sum(r["result"] == "W" for r in rows)
    d = sum(r["result"] == "D" for r in rows)
    lost = sum(r["result"] == "L" for r in rows)
    score = (w + d / 2) / max(1, len(rows))
    lo, hi = wilson(score, len(rows))
    print(
        f"\n{ours_spec} against 9Qumalaqv2: {len(rows)} games, W-D-L {w}-{d}-{lost}, score {score:.1%} (95 % {lo:.1%}-{hi:.1%})"
    )
    if rows:
        print(f"mean margin {statistics.mean(r['margin'] for r in rows):+.2f} stones (ours minus theirs)")
        ends: dict[str, int] = {}
        for r in rows:
            ends[str(r["end"])] = ends.get(str(r["end"]), 0) + 1
        print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())))
        print(
            f"moves their engine called over and our stand-in ({STAND_IN}) played: {sum(r['stood_in'] for r in rows)}"
        )
    ours = [t for r in rows for t in r["ours_s"]]
    theirs = [t for r in rows for t in r["other_s"]]
    depths = [d for r in rows for d in r["their_depths"]]
    if ours and theirs:
        print(
            f"time per move: ours {statistics.mean(ours):.3f} s (max {max(ours):.3f}), "
            f"theirs {statistics.mean(theirs):.3f} s (max {max(theirs):.3f})"
            + (f"; their mean depth {statistics.mean(depths):.1f}" if depths else "")
        )


def main(argv: list[str] | None = None) -> int:
    """Run the match the options ask for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", type=Path, required=True, help="9Qumalaqv2's engine/ folder, built")
    parser.add_argument("--openings", type=int, default=20, help="openings (2 games each)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per move for both sides")
    parser.add_argument("--ours", default=None, help="our player spec (default best:time=SECONDS)")
    parser.add_argument("--plies", type=int, default=2, help="random plies of an opening")
    parser.add_argument("--balance", type=float, default=6.0, help="the most an opening may favour a side, in stones")
    parser.add_argument("--seed", type=int, default=None, help="the openings' seed (default: a fresh one, printed)")
    parser.add_argument("--cores", type=int, default=1, help="cores their engine may use (0: all)")
    parser.add_argument("--results", type=Path, help="JSON lines of every game (resumed from)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**6)
    print(f"openings seed {seed} ({args.openings} openings of {args.plies} plies, within ±{args.balance:g} stones)")
    game = make_game("togyz")
    ours_spec = args.ours or f"best:time={args.seconds:g}"
    make_player(ours_spec).choose(game, game.initial_state())  # compile and load before the clocks run
    openings = make_openings(game, args.openings, args.plies, args.balance, seed)
    other = RustEngine(args.engine, args.seconds, args.cores)
    print("their engine: " + "; ".join(other.loaded), flush=True)
    done: dict[tuple, dict] = {}
    if args.results and args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line)
            done[(tuple(row["opening"]), row["our_seat"], row["ours"])] = row
    rows = []
    try:
        for k, opening in enumerate(openings):
            for seat in (0, 1):
                row = done.get((tuple(opening.moves), seat, ours_spec))
                if row is None:
                    row = {
                        "ours": ours_spec,
                        "seconds": args.seconds,
                        **play_one(game, ours_spec, other, opening.moves, seat),
                    }
                    if args.results:
                        with args.results.open("a") as out:
                            out.write(json.dumps(row) + "\n")
                rows.append(row)
                print(
                    f"game {len(rows)}: opening {k + 1} {' '.join(opening.moves)}, we are "
                    f"{'South' if seat == 0 else 'North'}: {row['result']} {row['margin']:+d} ({row['end']})",
                    flush=True,
                )
    finally:
        other.close()
    summary(ours_spec, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
