"""``mancala arena``: the tournament command (see :mod:`mancala.arena.tournament`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from mancala.arena.tournament import TournamentSpec, read_results, run_tournament
from mancala.cli.common import add_command, add_game_arguments, build_game
from mancala.errors import BadInput
from mancala.games import game_spec

DESCRIPTION = """\
Play a round robin (or a gauntlet: the first player against each other) among player
specs, from balanced random openings, every opening once from each seat.  Games run in
parallel worker processes (or on Ray with --ray) and each finished game is appended to
the results file at once; running the same command again resumes.  At the end the
report (W/D/L and mean margin per pairing, Bradley-Terry ratings with 95% intervals) is
printed and written beside the results file (X.md, X.png).  `mancala arena report FILE`
redraws it.  A results file that is not one (another file named by mistake) is refused
and left as it is, and an X.md or X.png that is not an earlier report is never replaced.

Openings: PLIES random moves, kept when the judge (Kalah: the engine at depth 10; other
games: alpha-beta depth 2) values the position within +-BALANCE for the side to move."""

EPILOG = """examples:
  mancala arena greedy alphabeta:depth=2 alphabeta:depth=4,eval=store:1,extra:0.5 --openings 20
  mancala arena openspiel-mcts:sims=1000 easy medium hard --gauntlet --results levels.jsonl
  mancala arena 'alphabeta:depth=2' 'alphabeta:depth=2,eval=bao' --game bao --plies 2 --balance 4
  mancala arena alphabeta:depth=3 greedy --ray local
  mancala arena report arena-results.jsonl

difficulty levels (mancala play --level), measured with this command on Kalah(6,4)
(docs/evaluation.md; Elo on one joint scale; score vs OpenSpiel MCTS 100/1000/5000 sims):
  beginner   random                                    -832    0% /  0% /  0%
  easy       greedy                                    -418   25% /  0% / 25%
  medium     alphabeta:depth=2,eval=E                  -205   70% / 40% / 10%
  hard       alphabeta:depth=4,eval=E                   +18   90% / 75% / 55%
  expert     best:depth=5   (engine, 5 turns)          +207  100% / 75% / 85%
  strongest  best:nodes=6000000,eval=E (engine)        +482  100% vs 5000 sims
  E = store:1,seeds:0.25,extra:0.5,threat:0.5
on Oware (docs/oware.md): random, greedy, then the Oware engine at depth 3, 5 and 9 and
150,000 nodes; each level beat the one below by 83% or more in a round robin.
"""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``arena`` subcommand to the CLI's subparsers."""
    summary = "a tournament among AIs: parallel, resumable, with ratings and a plot"
    p = add_command(sub, "arena", summary, DESCRIPTION, EPILOG)
    p.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="player specs (or: report FILE): any `mancala play` spec, e.g. alphabeta:depth=4,"
        "eval=store:1,extra:0.5, openspiel-mcts:sims=1000, module:bot.py:MancalaPlayer",
    )
    p.add_argument("--gauntlet", action="store_true", help="the first player meets each other; no other pairings")
    p.add_argument(
        "--openings", type=int, default=10, help="openings per pairing, each played from both seats (default 10)"
    )
    p.add_argument("--plies", type=int, default=4, help="random plies in an opening (default 4)")
    p.add_argument(
        "--balance",
        type=float,
        default=2.0,
        help="keep openings whose judged value is within +-BALANCE (default 2 seeds)",
    )
    p.add_argument("--seed", type=int, default=1, help="random seed of the openings and of random players (default 1)")
    p.add_argument(
        "--results",
        default="arena-results.jsonl",
        metavar="FILE",
        help="JSON-lines results file, appended to and resumed from (default arena-results.jsonl)",
    )
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--ray", metavar="ADDRESS", help="run the games on Ray: a cluster address, or 'local'")
    p.add_argument("--max-moves", type=int, default=2000, help="moves after which a game is scored as it stands")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_game_arguments(p)
    p.set_defaults(func=run)


#: the most worker processes an arena starts
MAX_WORKERS = 1024


def _results_path(name: str, what: str) -> Path:
    """The results file ``name`` names, refused (:class:`BadInput`) when it is empty or is
    where its own report would be written."""
    from mancala.arena.report import report_paths  # noqa: PLC0415 (matplotlib: loaded only to write a report)

    if not name.strip():
        raise BadInput(f"{what} is empty; give a results file name such as arena-results.jsonl")
    path = Path(name)
    if path in report_paths(path):
        raise BadInput(
            f"{what} {path}: the report is written to {path} itself; give the results file "
            f"another name, such as {path.with_suffix('.jsonl')}"
        )
    return path


def run(args: argparse.Namespace) -> int:
    """Run the tournament (or redraw a report) and print the report."""
    from mancala.arena.report import check_report_paths, report_paths, write_report  # noqa: PLC0415 (matplotlib)

    if args.players[0] == "report":
        if len(args.players) != 2:
            raise BadInput("usage: mancala arena report RESULTS_FILE")
        path = _results_path(args.players[1], "the results file")
        if not path.exists():
            raise BadInput(f"no results file {path}")
        check_report_paths(path)
        results = read_results(path)
        if not results:
            raise BadInput(f"{path} holds no games yet")
    else:
        game, state = build_game(args)
        if state != game.initial_state() or args.position:
            raise BadInput("an arena plays from the start position (openings vary it); --position is not used")
        if args.openings < 1 or args.openings > 100_000:
            raise BadInput(f"--openings must be 1-100000, got {args.openings}")
        if args.max_moves < 1:
            raise BadInput("--max-moves must be at least 1")
        if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
            raise BadInput(f"--workers must be 1-{MAX_WORKERS}, got {args.workers}")
        if args.ray is not None and not args.ray.strip():
            raise BadInput("--ray is empty; give a Ray cluster address (host:port) or 'local'")
        path = _results_path(args.results, "--results")
        read_results(path)  # a file that is not a results file is refused before anything is played
        check_report_paths(path)
        if args.ray and args.ray not in ("local", "auto"):
            from mancala.engine.cluster import check_address  # noqa: PLC0415 (Ray only for --ray)

            check_address(args.ray)
        spec = TournamentSpec(
            game_spec(game),
            tuple(args.players),
            gauntlet=args.gauntlet,
            openings=args.openings,
            plies=args.plies,
            balance=args.balance,
            seed=args.seed,
            max_moves=args.max_moves,
        )
        results = run_tournament(spec, path, workers=args.workers, ray_address=args.ray, progress=not args.no_progress)
        # the report covers this tournament: its game, seed and players (the file may hold more)
        names = set(spec.players)
        results = [
            r
            for r in results
            if r.get("game") == spec.game and r.get("seed") == spec.seed and set(r["pairing"]) <= names
        ]
    text = write_report(results, path)
    md, png = report_paths(path)
    print(text, end="")
    print(f"\nresults: {path}; report: {md}, plot: {png}")
    return 0
