"""How deep our Oware engine searches in a second, beside Aalina on the same positions.

Middle-game positions (more than ``--min-seeds`` seeds on the board) are drawn from games
whose first ``--random-plies`` moves are random (seeded, ``--seed``; printed) and whose next
moves are played by our engine at depth 6; each is searched by

* ours: iterative deepening for ``--seconds`` with a fresh searcher (what ``best:time=1``
  runs: its weights and late move reductions, without the endgame table and the kept table of
  earlier moves; ``--weights default`` and ``--search reductions=0`` give the plain search the
  depth levels use), reporting the depth
  completed, nodes and nodes a second; and, with ``--depth D``, the nodes to complete depth
  ``D`` (a deterministic count: the measure of a search lever, independent of the load);
* Aalina (``--aalina`` folder of its compiled classes, book off, pondering off) for the same
  time, reporting the depth of its last ``info`` line (it prints no node counts).

The positions are searched in turn, one program at a time, in one process each (Aalina's
JIT warmed up by a first search).  Times are wall-clock: say how loaded the machine was.

    python benchmarks/bench_oware_depth.py --positions 20 --seconds 1 --aalina /scratch/aalina/classes
    python benchmarks/bench_oware_depth.py --positions 20 --depth 12          # lever: nodes to depth 12
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.oware_match import parse_search  # noqa: E402
from benchmarks.script import run  # noqa: E402
from mancala.engine.oware import search as oware_search  # noqa: E402
from mancala.errors import BadInput  # noqa: E402
from mancala.evaluation.oware import DEFAULT  # noqa: E402
from mancala.games import make_game  # noqa: E402
from mancala.games.oware import Oware, OwareState  # noqa: E402


def middle_game(game: Oware, count: int, seed: int, random_plies: int, min_seeds: int) -> list[list[str]]:
    """``count`` move lists (Aalina's notation, South's houses A-F, North's a-f) that lead to
    positions with more than ``min_seeds`` seeds on the board and the game not over."""
    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        state = game.initial_state()
        moves: list[str] = []
        target = rng.randrange(random_plies + 4, random_plies + 40)
        for ply in range(target):
            legal = game.legal_moves(state)
            if game.is_terminal(state) or not legal:
                break
            if ply < random_plies:
                move = rng.choice(legal)
            else:
                move = oware_search.search(game, state, None, max_depth=6).move
            moves.append(aalina_move(game, state, move))
            state = game.apply(state, move)
        else:
            if not game.is_terminal(state) and sum(state.houses) > min_seeds:
                out.append(moves)
    return out


def aalina_move(game: Oware, state: OwareState, move) -> str:
    """A move in Aalina's notation, which is ours: South's houses ``A``-``F``, North's
    ``a``-``f``."""
    return str(move)


def replay(game: Oware, moves: list[str]) -> OwareState:
    """The position after ``moves`` (Aalina's notation)."""
    state = game.initial_state()
    for m in moves:
        legal = {aalina_move(game, state, x): x for x in game.legal_moves(state)}
        state = game.apply(state, legal[m])
    return state


def ours(
    game: Oware, state: OwareState, seconds: float | None, depth: int | None, settings: dict
) -> tuple[int, int, float]:
    """(depth completed, nodes, seconds) of one search with a fresh searcher."""
    searcher = oware_search.OwareSearcher(game, **settings)
    start = time.perf_counter()
    cpu = time.process_time()
    result = oware_search.search(
        game,
        state,
        seconds,
        max_depth=depth or oware_search.MAX_DEPTH,
        searcher=searcher,
        probe=lambda g, s: None,
        threads=THREADS,
    )
    global CPU_SECONDS
    CPU_SECONDS += time.process_time() - cpu
    return int(result.depth), int(result.nodes), time.perf_counter() - start


#: threads of our searches (``--threads``: lazy SMP helpers beside the main search)
THREADS = 1

#: the most positions one run draws (each takes two searches of ``--seconds``)
MAX_POSITIONS = 10_000

#: CPU seconds of our searches so far (less sensitive to other work on the machine than wall time)
CPU_SECONDS = 0.0


class Aalina:
    """Aalina's engine in a child process, book and pondering off."""

    def __init__(self, classes: str) -> None:
        java = shutil.which("java")
        if java is None:
            raise SystemExit("bench_oware_depth: java is not on PATH")
        self.proc = subprocess.Popen(
            [java, "-cp", classes, "com.joansala.oware.OwareService"],
            cwd=classes,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name OwnBook value false")
        self.send("setoption name Ponder value false")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix: str) -> list[str]:
        """Lines up to the first that starts with ``prefix`` (included)."""
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("bench_oware_depth: Aalina stopped")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def depth(self, moves: list[str], seconds: float) -> int:
        """The depth of Aalina's last ``info`` line after ``seconds`` on the position."""
        self.send("position startpos" + (" moves " + "".join(moves) if moves else ""))
        self.send(f"go movetime {int(seconds * 1000)}")
        depth = 0
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:2] == ["info", "depth"]:
                depth = int(words[2])
        return depth

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


def searcher_settings(game: Oware, weights: str, search: str) -> dict:
    """``OwareSearcher`` keyword arguments: ``best``'s (its weights for this board, its late
    move reductions) with ``weights="default"`` swapping in the depth levels' weights and
    ``search`` (``reductions=0``, …) overriding the rest."""
    settings = oware_search.play_settings(game.rules.houses, None if weights == "play" else DEFAULT)
    settings.update(parse_search(search))
    return settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None, help="positions' seed (default: drawn and printed)")
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--min-seeds", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--depth", type=int, help="instead of a time: nodes to complete this depth")
    parser.add_argument("--search", default="", help="our search settings over best's, e.g. reductions=0,reduce_two=0")
    parser.add_argument(
        "--weights",
        choices=("play", "default"),
        default="play",
        help="our evaluation: best's (play, the default) or the depth levels' (default)",
    )
    parser.add_argument("--threads", type=int, default=1, help="our search's threads (lazy SMP)")
    parser.add_argument("--aalina", help="folder of Aalina's compiled classes")
    parser.add_argument("--game", default="oware(preset=abapa)")
    args = parser.parse_args()
    if not 1 <= args.positions <= MAX_POSITIONS:
        raise BadInput(f"--positions must be 1..{MAX_POSITIONS}, got {args.positions}")
    if not 0 < args.seconds <= 3600:
        raise BadInput(f"--seconds must be above 0 and at most 3600, got {args.seconds}")
    if args.depth is not None and not 1 <= args.depth <= oware_search.MAX_DEPTH:
        raise BadInput(f"--depth must be 1..{oware_search.MAX_DEPTH}, got {args.depth}")
    global THREADS
    THREADS = args.threads
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 20)
    game = make_game(args.game)
    if not isinstance(game, Oware):
        raise BadInput(f"--game must be an Oware rule set (Aalina plays abapa), got {args.game!r}")
    settings = searcher_settings(game, args.weights, args.search)
    print(
        f"positions: {args.positions}, seed {seed}, game {args.game}, weights {args.weights}, search {args.search or 'best'}"
    )
    positions = middle_game(game, args.positions, seed, args.random_plies, args.min_seeds)
    oware_search.warm_up()
    rows = []
    for moves in positions:
        state = replay(game, moves)
        if args.depth:
            d, nodes, sec = ours(game, state, None, args.depth, settings)
        else:
            d, nodes, sec = ours(game, state, args.seconds, None, settings)
        rows.append((moves, sum(state.houses), d, nodes, sec))
    theirs: list[int] = []
    if args.aalina and not args.depth:
        aalina = Aalina(args.aalina)
        aalina.depth(["F", "f"], args.seconds)  # the JIT's warm-up
        theirs = [aalina.depth(moves, args.seconds) for moves, *_ in rows]
        aalina.close()
    print(f"{'moves':<40} {'seeds':>5} {'depth':>5} {'nodes':>11} {'kn/s':>7}" + ("  aalina" if theirs else ""))
    for i, (moves, seeds, d, nodes, sec) in enumerate(rows):
        extra = f"  {theirs[i]:>6}" if theirs else ""
        print(f"{''.join(moves)[:40]:<40} {seeds:>5} {d:>5} {nodes:>11,} {nodes / sec / 1000:>7.0f}{extra}")
    print(
        f"ours: mean depth {statistics.mean(r[2] for r in rows):.1f}, nodes {sum(r[3] for r in rows):,}, "
        f"{sum(r[3] for r in rows) / sum(r[4] for r in rows) / 1000:.0f} k nodes/s, "
        f"{sum(r[3] for r in rows) / CPU_SECONDS / 1000:.0f} k nodes/CPU-s"
    )
    if theirs:
        print(f"Aalina: mean depth {statistics.mean(theirs):.1f}")


if __name__ == "__main__":
    run(main, "bench_oware_depth")
