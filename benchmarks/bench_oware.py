"""Our Oware ``best`` against programs nobody here wrote, at equal time per move.

1. Aalina (github.com/joansalasoler/oware), the strongest Oware program people name, through
   its UCI-like text protocol: ``uci``, ``position startpos moves FfEe`` (the moves as ONE
   joined token: Aalina silently ignores moves given separately), ``go movetime N`` and
   ``bestmove X``.  Aalina plays with its opening book and 12-seed endgame tables, pondering
   off (it would think on our time on this 2-core machine); ``--aalina-book off`` turns its
   book off (``setoption name OwnBook value false``).  It is not part of this project: fetch
   it into a scratch folder outside the repository and build it with plain ``javac`` (commit
   b938f6b needs no jars), then give the folder of its classes (with
   ``oware-book.bin`` and ``oware-leaves.bin`` copied beside them) as ``--aalina``.
2. OpenSpiel's MCTS on ``oware`` (random rollouts, ``--mcts-sims`` simulations a move).

Our ``best`` reads the largest endgame database in the cache (``mancala db build``; the run
says which): under ``abapa`` at its search's depth limit (docs/oware.md, "The table under
own-row repetition").

Both from balanced openings (random plies kept when alpha-beta at depth 2 values them within
±2 seeds), every opening played from both seats.  Prints W-D-L, the mean final margin, the
mean time per move of each side and their ratio, measured in this one run; ``--results``
keeps every game as a JSON line (the run resumes from it).

Usage::

    python benchmarks/bench_oware.py --aalina /path/to/aalina/classes --openings 20
    python benchmarks/bench_oware.py --skip-aalina --mcts-openings 3 --mcts-sims 100000

Times are wall-clock: on a shared machine say how loaded it was with the figures.
"""

from __future__ import annotations

import argparse
import json
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
from mancala.games.oware import Oware, OwareState  # noqa: E402
from mancala.players import make_player  # noqa: E402


class Aalina:
    """Aalina's engine as a child process speaking its UCI dialect."""

    def __init__(self, classes: str, movetime: float, book: bool = True) -> None:
        java = shutil.which("java")
        if java is None:
            raise SystemExit("bench_oware: java is not on PATH (Aalina is a Java program)")
        if not (Path(classes) / "com" / "joansala" / "oware" / "OwareService.class").exists():
            raise SystemExit(f"bench_oware: {classes} does not hold Aalina's compiled classes")
        self.movetime = movetime
        self.proc = subprocess.Popen(
            [java, "-cp", classes, "com.joansala.oware.OwareService"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Ponder value false")
        if not book:
            self.send("setoption name OwnBook value false")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        """One command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word: str) -> str:
        """Read lines until one starts with ``word``; that line."""
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"Aalina stopped before answering {word!r}")
            if line.startswith(word):
                return line.strip()

    def new_game(self) -> None:
        """Forget the last game (its hash table stays, as in a match)."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def choose(self, moves: list[str]) -> str:
        """Aalina's move after ``moves`` from the start, thinking ``movetime`` seconds."""
        self.send("position startpos" + (" moves " + "".join(moves) if moves else ""))
        self.send(f"go movetime {int(self.movetime * 1000)}")
        return self.wait_for("bestmove").split()[1]

    def close(self) -> None:
        """Stop the process."""
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class MCTS:
    """OpenSpiel's MCTS bot on its own ``oware`` (the moves replayed into its state)."""

    def __init__(self, sims: int, seed: int) -> None:
        import pyspiel  # noqa: PLC0415

        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("oware")
        self.sims, self.seed = sims, seed

    def new_game(self) -> None:
        """A fresh bot for each game, seeded."""
        self.seed += 1
        evaluator = self.pyspiel.RandomRolloutEvaluator(1, self.seed)
        self.bot = self.pyspiel.MCTSBot(self.game, evaluator, 2.0, self.sims, 1000, True, self.seed, False)

    def choose(self, moves: list[str]) -> str:
        """The bot's move after ``moves`` (house letters)."""
        state = self.game.new_initial_state()
        for letter in moves:
            state.apply_action(ord(letter.lower()) - ord("a"))
        action = self.bot.step(state)
        return chr((ord("A") if state.current_player() == 0 else ord("a")) + action)

    def close(self) -> None:
        """Nothing to stop."""


def play_one(game: Oware, ours: Any, other: Any, opening: tuple[str, ...], our_seat: int) -> dict:
    """One game from ``opening``; our seat given; the result as a dict."""
    state: OwareState = game.initial_state()
    moves: list[str] = []
    for text in opening:
        state = game.apply(state, game.parse_move(state, text))
        moves.append(text)
    other.new_game()
    times: dict[str, list[float]] = {"ours": [], "other": []}
    while not game.is_terminal(state):
        start = time.perf_counter()
        if state.seat == our_seat:
            move = ours.choose(game, state)
            who = "ours"
        else:
            move = game.parse_move(state, other.choose(moves))
            who = "other"
        times[who].append(time.perf_counter() - start)
        state = game.apply(state, move)
        moves.append(str(move))
    margin = game.score(state, our_seat)
    return {
        "opening": list(opening),
        "our_seat": our_seat,
        "moves": "".join(moves),
        "margin": margin,
        "result": "W" if margin > 0 else "L" if margin < 0 else "D",
        "end": state.last.end if state.last else None,
        "ours_s": times["ours"],
        "other_s": times["other"],
    }


def run(name: str, game: Oware, ours_spec: str, other: Any, openings, results: Path | None, first: int = 0) -> None:
    """Every opening (numbered from ``first`` + 1) from both seats against ``other``, printed and summed up."""
    done: dict[tuple, dict] = {}
    if results and results.exists():
        for line in results.read_text().splitlines():
            row = json.loads(line)
            if row.get("against") == name:
                done[(tuple(row["opening"]), row["our_seat"])] = row
    rows = []
    try:
        for k, opening in enumerate(openings):
            for seat in (0, 1):
                key = (tuple(opening.moves), seat)
                row = done.get(key)
                if row is None:
                    ours = make_player(ours_spec)
                    row = {"against": name, "ours": ours_spec, **play_one(game, ours, other, opening.moves, seat)}
                    if results:
                        with results.open("a") as out:
                            out.write(json.dumps(row) + "\n")
                rows.append(row)
                print(
                    f"{name} game {len(rows)}: opening {first + k + 1} {''.join(opening.moves)}, we are "
                    f"{'South' if seat == 0 else 'North'}: {row['result']} {row['margin']:+d} ({row['end']})",
                    flush=True,
                )
    finally:
        other.close()
    summary(name, ours_spec, rows)


def summary(name: str, ours_spec: str, rows: list[dict]) -> None:
    """W-D-L, score, margins and time per move."""
    w = sum(r["result"] == "W" for r in rows)
    d = sum(r["result"] == "D" for r in rows)
    lost = sum(r["result"] == "L" for r in rows)
    ours = [t for r in rows for t in r["ours_s"]]
    theirs = [t for r in rows for t in r["other_s"]]
    score = (w + d / 2) / max(1, len(rows))
    print(f"\n{ours_spec} against {name}: {len(rows)} games, W-D-L {w}-{d}-{lost}, score {score:.1%}")
    if rows:
        print(f"mean margin {statistics.mean(r['margin'] for r in rows):+.2f} seeds (ours minus theirs)")
    if ours and theirs:
        print(
            f"time per move: ours {statistics.mean(ours):.3f} s (max {max(ours):.3f}), "
            f"{name} {statistics.mean(theirs):.3f} s (max {max(theirs):.3f}); "
            f"ratio ours/theirs {statistics.mean(ours) / statistics.mean(theirs):.2f}"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the matches the options ask for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aalina", help="folder of Aalina's compiled classes (with its .bin files)")
    parser.add_argument("--skip-aalina", action="store_true")
    parser.add_argument(
        "--aalina-book", choices=("on", "off"), default="on", help="Aalina's opening book (off: how much is the book)"
    )
    parser.add_argument("--openings", type=int, default=20, help="openings against Aalina (2 games each)")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per move for both sides")
    parser.add_argument("--ours", default=None, help="our player spec (default best:time=SECONDS)")
    parser.add_argument("--mcts-openings", type=int, default=0, help="openings against MCTS (0: skip)")
    parser.add_argument("--mcts-sims", type=int, default=100_000)
    parser.add_argument("--plies", type=int, default=4, help="random plies of an opening")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--results", type=Path, help="JSON lines of every game (resumed from)")
    parser.add_argument("--skip", type=int, default=0, help="leave out the first N openings (to split a run)")
    args = parser.parse_args(argv)
    game = make_game("oware")
    assert isinstance(game, Oware)
    ours_spec = args.ours or f"best:time={args.seconds:g}"
    from mancala.engine.oware.record import exact_answer, table_seeds  # noqa: PLC0415

    # load our endgame database before the clock runs, as Aalina loads its
    seeds = table_seeds(game)
    print(f"our endgame database: {seeds} seeds" if seeds >= 0 else "our endgame database: none", flush=True)
    exact_answer(game, game.parse_position("0-0-0-0-0-0-1-3-3-0-0-3-24-14-N"))
    openings = make_openings(game, max(args.openings, args.mcts_openings, 1), args.plies, 2.0, args.seed)
    if not args.skip_aalina:
        if not args.aalina:
            parser.error("give --aalina FOLDER (or --skip-aalina)")
        run(
            "Aalina",
            game,
            ours_spec,
            Aalina(args.aalina, args.seconds, book=args.aalina_book == "on"),
            openings[args.skip : args.openings],
            args.results,
            args.skip,
        )
    if args.mcts_openings:
        mcts = MCTS(args.mcts_sims, args.seed)
        run(
            f"MCTS {args.mcts_sims:,}",
            game,
            ours_spec,
            mcts,
            openings[args.skip : args.mcts_openings],
            args.results,
            args.skip,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
