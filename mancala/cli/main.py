"""The ``mancala`` command: one entry point, with subcommands.

Every error a user can cause ends in one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from typing import Any, Sequence, cast

from mancala.arena.match import play_match
from mancala.arena.review import analysis_lines, review_game, review_lines
from mancala.cli import homework
from mancala.cli.common import add_game_arguments, build_game, check_not_empty, kalah_position, prepare_engine
from mancala.errors import BadInput, MancalaError
from mancala.evaluation.basic import EVALUATIONS, score_difference, win_loss_percent
from mancala.games import parse_spec
from mancala.players import LEVELS, PLAYER_KINDS, make_player
from mancala.record import GameRecord, check_save_path, load_record
from mancala.search.explain import explain
from mancala.ui.terminal import TerminalGame

EPILOG = """examples:
  mancala play                                   you (South) against the AI (medium)
  mancala play --level hard --ai-first           the AI opens (alpha-beta, depth 4)
  mancala play --preset egyptian --pits 5        another rule set and board size
  mancala play --p1 alphabeta:depth=2 --p2 alphabeta:depth=6    watch two AIs
  mancala play --game tictactoe
  mancala play --game bao                        Bao la Kiswahili against the AI
  mancala play --load mancala-save.json          resume a saved game
  mancala match greedy alphabeta:depth=4 --games 20
  mancala arena greedy medium hard openspiel-mcts:sims=1000   a tournament: ratings, plot
  mancala explain --game tictactoe --position 'XX./.O./...'
  mancala solve --preset empty-capture --seeds 3    the exact value of Kalah(6,3)
  mancala analyse mancala-save.json               review a saved game, move by move
  mancala book build --preset empty-capture       rebuild an opening book of solved positions
  mancala db build --game "oware(preset=awari)" --seeds 16   an Oware endgame database
  mancala homework input.txt                      the homework file interface
"""


def player_help() -> str:
    """The player specs, from the kinds' catalogue (for --p1, --p2 and match's players)."""
    levels = [k.name for k in PLAYER_KINDS.values() if k.level]
    kinds = [k for k in PLAYER_KINDS.values() if not k.level]
    written = [
        f"{k.name}:..."
        if k.raw
        else f"{k.name}[:{','.join(o['name'] + '=...' for o in k.options)}]"
        if k.options
        else k.name
        for k in kinds
    ]
    return (
        f"player spec: {', '.join(written)}, or a level: {'|'.join(levels)} (measured: docs/evaluation.md, docs/oware.md); "
        f"e.g. alphabeta:depth=6,eval=store:1,extra:0.5 or best:nodes=20000,book=off"
    )


#: the most games ``mancala match`` plays
MAX_MATCH_GAMES = 100_000
#: the most random opening plies of ``mancala match --opening``
MAX_OPENING_PLIES = 1000
#: the deepest tree ``mancala explain`` draws (tic-tac-toe's whole tree is 9 deep)
MAX_EXPLAIN_DEPTH = 12


def cmd_play(args: argparse.Namespace) -> int:
    """``mancala play``."""

    check_not_empty(args, "load", "save", "p1", "p2", "level", "view")
    if args.save:
        check_save_path(args.save)  # before the first move, not after it
    if not (args.hint_time > 0 and args.hint_time != float("inf")):
        raise BadInput(f"--hint-time must be a positive number of seconds, got {args.hint_time:g}")
    if args.load:
        ignored = [
            option
            for option, value in (
                ("--game", args.game),
                ("--preset", args.preset),
                ("--pits", args.pits),
                ("--seeds", args.seeds),
                ("--position", args.position),
                ("--to-move", args.first),
                ("--level", args.level),
                ("--ai-first", args.ai_first),
            )
            if value not in (None, False)
        ]
        if ignored:
            raise BadInput(
                f"--load resumes {args.load} with its own rules and players, so {', '.join(ignored)} "
                f"cannot apply; leave {'it' if len(ignored) == 1 else 'them'} out "
                f"(--p1/--p2 may replace the players)"
            )
        record = load_record(args.load)
        specs = list(record.players)
    else:
        game, state = build_game(args)
        if state != game.initial_state():
            raise BadInput("--position for tic-tac-toe is for 'mancala explain'; play starts from the empty board")
        ai = args.level or "medium"
        if args.level and args.level not in LEVELS:
            raise BadInput(f"--level must be one of {', '.join(LEVELS)}")
        specs = [ai, "human"] if args.ai_first else ["human", ai]
        record = GameRecord(game, specs)
    from_file = [bool(args.load)] * 2
    for seat, spec in enumerate((args.p1, args.p2)):
        if spec:
            specs[seat], from_file[seat] = spec, False
    players = [_player(spec, args.load if saved else None) for spec, saved in zip(specs, from_file)]
    record.players = [p.spec for p in players]
    save_path = args.save or args.load
    view = None if args.view is None else ["south", "north"].index(args.view)
    return TerminalGame(
        record, players, save_path=save_path, autosave=bool(args.save), hint_seconds=args.hint_time, view=view
    ).run()


def _player(spec: str, saved_in: str | None):
    """The player for ``spec``; a bad spec read from a saved game names that file."""
    try:
        return make_player(spec)
    except BadInput as e:
        if saved_in:
            raise BadInput(f'{saved_in}: bad player in "players": {e}') from None
        raise


def cmd_match(args: argparse.Namespace) -> int:
    """``mancala match``: many games between two players, seats alternating, with progress."""
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress  # noqa: PLC0415

    game, _ = build_game(args)
    for spec in (args.a, args.b):
        if make_player(spec).spec == "human":
            raise BadInput("a match is between AIs; use 'mancala play' to play yourself")
    if not 1 <= args.games <= MAX_MATCH_GAMES:
        raise BadInput(f"--games must be 1-{MAX_MATCH_GAMES:,}, got {args.games}")
    if not 0 <= args.opening <= MAX_OPENING_PLIES:
        raise BadInput(f"--opening must be 0-{MAX_OPENING_PLIES} plies, got {args.opening}")
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{args.a} vs {args.b}", total=args.games)
        result = play_match(
            game,
            args.a,
            args.b,
            args.games,
            opening_plies=args.opening,
            progress=lambda done, total: progress.update(task, completed=done),
        )
    opening = f", random openings of {args.opening} plies" if args.opening else ""
    print(f"{game!r}, {result.games} games, seats alternating{opening}")
    name_a, name_b = (f"{args.a} (A)", f"{args.b} (B)") if args.a == args.b else (args.a, args.b)
    print(f"{name_a}: {result.wins_a} wins, {name_b}: {result.wins_b} wins, {result.draws} draws")
    print(
        f"{name_a} scored {100 * result.score_a():.1f}% with an average margin of {result.margin_a / result.games:+.2f}"
    )
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    """``mancala explain``: the alpha-beta tree of a position, prunes explained in words."""

    game, state = build_game(args)
    if game.is_terminal(state):
        raise BadInput("that position is already finished: there is nothing to search")
    if not 1 <= args.depth <= MAX_EXPLAIN_DEPTH:
        raise BadInput(
            f"--depth must be 1-{MAX_EXPLAIN_DEPTH}, got {args.depth} (the tree drawn grows "
            f"with every level: tic-tac-toe's whole tree is 9 deep)"
        )
    if args.eval:
        evaluate = EVALUATIONS[args.eval]
    else:
        evaluate = win_loss_percent if game.name == "tictactoe" else score_difference
    print(game.render(state))
    explain(game, state, args.depth, evaluate, print, prunes_only=args.prunes_only)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """``mancala solve``: the exact value of a position, a best move and a perfect line:
    Kalah by the engine's solver, Oware from its endgame database (``mancala db build``)."""
    check_not_empty(args, "game")
    if args.game and parse_spec(args.game)[0] != "kalah":
        return _solve_from_table(args)
    from mancala.engine import solve  # noqa: PLC0415 (numba loads only when needed)

    if args.seconds is not None:
        raise BadInput("--seconds bounds an Oware proof above its endgame database; Kalah's solver runs to the end")
    if args.endgame_seeds is not None and not 0 <= args.endgame_seeds <= 100:
        raise BadInput(f"--endgame-seeds must be 0-100, got {args.endgame_seeds}")
    game, state = kalah_position(args)
    if game.is_terminal(state):
        raise BadInput("that position is already finished: there is nothing to solve")
    if args.ray is not None:
        return _solve_on_ray(args, game, state)
    if args.split_plies is not None or args.workers is not None:
        raise BadInput("--split-plies and --workers shape a proof on Ray; give --ray ADDRESS (or --ray local)")
    prepare_engine(game)
    result = solve(game, state, progress=not args.no_progress, endgame_seeds=args.endgame_seeds)
    who = game.seat_name(state.seat)
    print(f"value: {result.value:+d} for {who} (final store difference with perfect play)")
    print(f"best move: {result.move}")
    print("perfect line: " + " ".join(str(m) for m in result.line))
    print(f"nodes: {result.nodes:,}  time: {result.seconds:.2f} s")
    return 0


def _solve_on_ray(args: argparse.Namespace, game, state) -> int:
    """``mancala solve --ray``: the positions a few moves below the root proved as Ray tasks."""
    from mancala.engine import cluster, distributed  # noqa: PLC0415 (Ray loads only for --ray)

    plies = args.split_plies
    if plies is not None and not 1 <= plies <= 4:
        raise BadInput(f"--split-plies must be 1-4, got {plies}")
    if args.workers is not None and not 1 <= args.workers <= 4096:
        raise BadInput(f"--workers must be 1-4096, got {args.workers}")
    if args.workers is not None and args.ray != "local":
        raise BadInput("--workers sizes a local Ray (--ray local); a cluster's workers are its own")
    say = None if args.no_progress else distributed.stderr_line
    with cluster.connected(args.ray, args.workers) as ray:
        proof = distributed.solve_on_ray(ray, game, state, plies=plies, endgame_seeds=args.endgame_seeds, say=say)
    who = game.seat_name(state.seat)
    print(f"value: {proof.value:+d} for {who} (final store difference with perfect play)")
    print(f"best move: {proof.move}")
    if plies is not None:
        print("moves: " + "  ".join(f"{m} {v:+d}" for m, v in proof.move_values.items()))
        how = f"{proof.tasks} positions {plies} move(s) deep proved exactly"
    else:
        how = f"MTD(f) at the root, {proof.tasks} null-window passes split by root move"
    print(
        f"proved on Ray ({how}) on {proof.workers} CPUs, "
        f"nodes: {proof.nodes:,}  time: {proof.seconds:.2f} s (database and first guess {proof.setup_seconds:.2f} s)"
    )
    return 0


def _solve_from_table(args: argparse.Namespace) -> int:
    """``mancala solve`` on a game answered from an endgame database (Oware)."""
    from mancala.engine.support import engine_records, engine_support  # noqa: PLC0415
    from mancala.games import game_spec  # noqa: PLC0415

    if args.seconds is not None and not 0 < args.seconds <= 86400:
        raise BadInput(f"--seconds must be more than 0 and at most 86400 (a day), got {args.seconds:g}")
    game, state = build_game(args)
    record = engine_support(game.name)
    if record is None or record.exact is None or record.table_seeds is None:
        raise BadInput(
            f"mancala solve solves Kalah (its solver) and {', '.join(r.game for r in engine_records() if r.exact)} (endgame databases); "
            f"{game.name} has neither"
        )
    if game.is_terminal(state):
        raise BadInput("that position is already finished: there is nothing to solve")
    answer_of, seeds_of = record.exact, record.table_seeds
    answer = answer_of(game, state)
    have = seeds_of(game) if answer is None else -1  # the cache's largest table (a scan of its files)
    if answer is None and have >= 0 and record.table_proof is not None:
        return _prove_above_table(args, game, state, have, record.table_proof)
    if answer is None:
        board = sum(state.houses)
        has = f"the largest in the cache holds {have} seeds" if have >= 0 else "none is in the cache"
        rules: Any = getattr(game, "rules", None)
        bare = type(game)(dataclasses.replace(rules, start=None)) if hasattr(rules, "start") else game
        size = max(board, have + 1)
        room = record.table_build(game, size) if record.table_build is not None else size
        if room <= have:
            raise BadInput(
                f"this position has {board} seeds on the board and {has}; no larger one fits the memory bound ($MANCALA_DB_MEMORY)"
            )
        above = (
            "; mancala solve then proves this position by a search down to it"
            if room < board and record.table_proof is not None
            else ""
        )
        raise BadInput(
            f"this position has {board} seeds on the board and {has}; build one first: "
            f"mancala db build --game '{game_spec(bare)}' --seeds {room}{above}"
        )
    mover = game.player_name(game.to_move(state))
    best_move, value = answer.moves[0]
    kind = (
        "exact"
        if answer.exact
        else "the table's estimate: its rules end a repetition by the rows, which it values as an even split"
    )
    print(f"value: {value:+d} for {mover} (final seed difference with perfect play; {kind})")
    print("moves: " + ", ".join(f"{m} {v:+d}" for m, v in answer.moves))
    print(f"best move: {best_move}")
    print("perfect line: " + " ".join(str(m) for m in answer.line))
    print(f"from the {answer.seeds}-seed endgame database")
    return 0


def _prove_above_table(args: argparse.Namespace, game, state, seeds: int, prove: Any) -> int:
    """``mancala solve`` on a position with more seeds than the cached endgame database: a
    search down to the database bounds the value, deeper each round, until the bounds meet
    (proven) or ``--seconds`` run out (the bounds so far)."""
    seconds = args.seconds if args.seconds is not None else 60.0
    mover = game.player_name(game.to_move(state))
    start = time.perf_counter()

    def report(depth: int, low: int, high: int, nodes: int) -> None:
        if not args.no_progress:
            print(
                f"depth {depth}: {mover}'s value {low:+d} .. {high:+d} ({nodes:,} nodes, "
                f"{time.perf_counter() - start:.1f} s)",
                file=sys.stderr,
                flush=True,
            )

    if not args.no_progress:
        print(f"proving by search down to the {seeds}-seed endgame database (loading it first)", file=sys.stderr)
    bounds = prove(game, state, seconds, report)
    took = time.perf_counter() - start
    how = (
        f"searched {bounds.depth} plies down to the {seeds}-seed endgame database, {bounds.nodes:,} nodes, {took:.1f} s"
    )
    kind = "exact" if bounds.exact else "with the database's estimate of a forced repetition"
    if bounds.proven:
        print(f"value: {bounds.low:+d} for {mover} (final seed difference with perfect play; {kind})")
        print(f"best move: {bounds.move}")
        print(f"proved: {how}")
        return 0
    print(f"not proved within {seconds:g} s: {mover}'s value lies in {bounds.low:+d} .. {bounds.high:+d} ({kind})")
    if bounds.move is not None:
        print(f"a move that keeps at least {bounds.low:+d}: {bounds.move}")
    print(f"{how}; give more --seconds, or build a larger database (mancala db build)")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """``mancala analyse``: review a saved game move by move, or analyse one position (every
    legal move's value, exact where proved, and the best line)."""
    from mancala.engine import analyse  # noqa: PLC0415 (numba loads only when needed)

    if args.seconds is not None and not args.seconds > 0:
        raise BadInput("--seconds must be more than 0")
    check_not_empty(args, "file")
    if args.file:
        if args.position:
            raise BadInput("give either a saved game file or --position, not both")
        record = load_record(args.file)
        if record.game.name != "kalah":
            if args.last:
                return _study_analysis(record.game, record.final_state(), args.seconds or 5.0)
            return _study_review(record, args.seconds or 1.0)
        if not args.last:
            return _review(record, args.seconds if args.seconds is not None else 1.0, review_game, review_lines)
        game, state = cast(Any, record.game), record.final_state()  # asked by name above
    else:
        if args.last:
            raise BadInput("--last analyses the last position of a saved game: give the game's file")
        check_not_empty(args, "game")
        if args.game and parse_spec(args.game)[0] != "kalah":
            game, state = build_game(args)
            return _study_analysis(game, state, args.seconds or 5.0)
        game, state = kalah_position(args)
    print(game.render(state))
    if game.is_terminal(state):
        print(f"The game is over. Final stores: South {state.store(0)}, North {state.store(1)}.")
        return 0
    prepare_engine(game)
    table = analyse(game, state, args.seconds if args.seconds is not None else 5.0)
    print("\n".join(analysis_lines(game, state, table)))
    return 0


def _study_analysis(game, state, seconds: float) -> int:
    """``mancala analyse`` on a game other than Kalah: every legal move's value (the table
    the page's analysis shows: its engine, or its endgame database where it has one)."""
    from mancala.server.study import analysis  # noqa: PLC0415

    print(game.render(state))
    if game.is_terminal(state):
        print(f"The game is over: {game.score(state, 0):+d} for {game.player_name(0, state)}.")
        return 0
    result = analysis(game, state, seconds)
    unit = f" ({result['unit']})" if result["unit"] not in ("outcome",) else ""
    print(f"{result['summary']}")
    print(f"values for {game.player_name(game.to_move(state), state)}{unit}, best first:")
    for row in result["moves"]:
        mark = "exact" if row["exact"] else f"estimate, depth {row.get('depth', '?')}"
        print(f"  {row['move']:>6}  {float(row['value']):+8.2f}  {mark}")
    if result["turns"]:
        print("best line: " + ", ".join(result["turns"]))
    return 0


def _study_review(record, seconds: float) -> int:
    """``mancala analyse GAME.json`` on a game other than Kalah: each move against the best
    move of its position, and the biggest mistakes."""
    from mancala.server.study import review  # noqa: PLC0415

    game = record.game
    if not record.moves:
        raise BadInput("the saved game has no moves to review; use --last to analyse its position")
    print(f"reviewing {len(record.moves)} moves, about {seconds:g} s each…", file=sys.stderr, flush=True)
    result = review(game, list(record.moves), seconds)
    for row in result["moves"]:
        who = game.player_name(row["player"])
        loss = float(row["loss"])
        note = "" if loss <= 0 else f"   best {row['best']} {float(row['best_value']):+.2f} (gave away {loss:g})"
        print(f"{row['ply']:>4}. {who} {row['move']:<5} {float(row['value']):+8.2f}{note}")
    if result["mistakes"]:
        print(
            "biggest mistakes: "
            + ", ".join(f"{m['ply']}. {m['move']} (-{float(m['loss']):g})" for m in result["mistakes"])
        )
    return 0


def _review(record, seconds: float, review_game, review_lines) -> int:
    """``mancala analyse GAME.json``: the whole game's review, with a progress bar."""
    from mancala.engine.endgame import terminal_console  # noqa: PLC0415 (numba loads only when needed)

    if not record.moves:
        raise BadInput("the saved game has no moves to review; use --last to analyse its position")
    prepare_engine(record.game)
    console = terminal_console()
    if console is None:
        review = review_game(record, seconds)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

        with Progress(
            TextColumn("reviewing moves"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as bar:
            task = bar.add_task("review", total=len(record.moves))
            review = review_game(record, seconds, progress=lambda done, total: bar.update(task, completed=done))
    print("\n".join(review_lines(review, seconds)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="mancala",
        description="Sowing games (Kalah and its variants, Bao la Kiswahili, Oware, tic-tac-toe) and the AIs that play them.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play in the terminal: you vs the AI, AI vs AI, or two people",
        description="Play in the terminal. At your turn type a move (Kalah: a pit number; Oware: a house "
        "letter, A-F for South, a-f for North) or "
        "hint, undo, save [FILE], board, help, quit. Works with piped input.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(play)
    who = play.add_argument_group("players")
    who.add_argument("--p1", help="the player who moves first (default: human). " + player_help())
    who.add_argument("--p2", help="the second player (default: the AI at --level)")
    who.add_argument(
        "--level",
        help=f"the AI's difficulty, weakest first: {', '.join(LEVELS)} (default medium; "
        f"their measured ratings: mancala arena --help)",
    )
    who.add_argument("--ai-first", action="store_true", help="the AI moves first and you second")
    files = play.add_argument_group("saving")
    files.add_argument("--load", metavar="FILE", help="resume a saved game")
    files.add_argument("--save", metavar="FILE", help="save the game to FILE after every move")
    play.add_argument("--hint-time", type=float, default=1.0, metavar="S", help="seconds the hint may think")
    play.add_argument(
        "--view",
        choices=["south", "north"],
        help="the side the board is seen from (Bao; default: yours, and 'flip' turns it)",
    )
    play.set_defaults(func=cmd_play)

    match = sub.add_parser(
        "match",
        help="play many games between two AIs, seats alternating",
        description="Play many games between two AI players (seats alternate) and print "
        "wins, draws and the average margin. " + player_help(),
    )
    match.add_argument("a", help="first player spec")
    match.add_argument("b", help="second player spec")
    match.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    match.add_argument(
        "--opening",
        type=int,
        default=0,
        metavar="PLIES",
        help="start each pair of games from the same random opening of PLIES moves "
        "(one game with each seating), so deterministic AIs meet varied positions",
    )
    add_game_arguments(match)
    match.set_defaults(func=cmd_match)

    exp = sub.add_parser(
        "explain",
        help="show the alpha-beta tree of a position, every prune explained",
        description="Search a position with alpha-beta and print the tree: each node with its "
        "window, each leaf's score, and every prune explained in words.",
    )
    add_game_arguments(exp)
    exp.add_argument("--depth", type=int, default=9, help="search depth in turns (default 9: all of tic-tac-toe)")
    exp.add_argument(
        "--eval",
        choices=["score", "material", "percent"],
        help="evaluation (default: percent for tic-tac-toe (100 win/50/0 loss), score for Kalah)",
    )
    exp.add_argument("--prunes-only", action="store_true", help="print only the prune explanations")
    exp.set_defaults(func=cmd_explain)

    solve = sub.add_parser(
        "solve",
        help="the exact value of a position (Kalah; Oware endgames), a best move and a perfect line",
        description="Solve a Kalah game or position exactly with the fast engine: the value "
        "(final store difference with perfect play), a best move, a perfect line, "
        "nodes and time, with progress while it runs.  An Oware position with few seeds is "
        "answered from its endgame database (build it first: mancala db build); one with more seeds "
        "is proved by a search down to the database, within --seconds.",
        epilog="examples:\n  mancala solve --preset empty-capture --seeds 3\n"
        "  mancala solve --position '0 0 1 0 0 0 20 0 0 0 0 2 0 25' --to-move north\n"
        "  mancala solve --pits 6 --seeds 4 --ray 10.0.0.5:6379 --split-plies 2\n"
        "  mancala db build --game 'oware(preset=awari)' --seeds 16 && "
        "mancala solve --game 'oware(preset=awari)' --position 0-0-0-0-0-0-1-3-3-0-0-3-24-14-N\n"
        "  mancala solve --game oware --position 1-4-5-3-3-0-0-4-1-3-3-3-14-4-N --seconds 120",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(solve)
    solve.add_argument("--no-progress", action="store_true", help="do not show the progress display")
    solve.add_argument(
        "--endgame-seeds",
        type=int,
        metavar="K",
        help="use an endgame database of at least K seeds (built once and cached; later solves "
        "use the largest cached one that fits the memory bound)",
    )
    solve.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="Kalah: prove on the Ray cluster at ADDRESS (host:port), or 'local' for a Ray of this machine; "
        "MTD(f) at the root with each pass's root moves tested on the workers, all against one database",
    )
    solve.add_argument(
        "--split-plies", type=int, metavar="N", help="with --ray: moves below the root to split at (1-4, default 1)"
    )
    solve.add_argument("--workers", type=int, help="with --ray local: CPUs of the local Ray (default: all)")
    solve.add_argument(
        "--seconds",
        type=float,
        help="Oware above its endgame database: the most time the proof by search may take (default 60); "
        "it ends with the bounds it reached (two transposition tables, 200 MB)",
    )
    solve.set_defaults(func=cmd_solve)

    ana = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="review a saved game move by move, or analyse a position",
        description="Review a saved Kalah game: each move's value against the best move's and the "
        "turning points (the biggest mistakes), exact where the engine proves it. Or "
        "analyse one position (--position, or --last for a saved game's last one): the "
        "value of every legal move, exact where proved, and the best line.",
        epilog="examples:\n  mancala analyse mancala-save.json             review the whole game\n"
        "  mancala analyse mancala-save.json --last      its last position\n"
        "  mancala analyse --pits 3 --seeds 2 --seconds 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ana.add_argument("file", nargs="?", help="a saved game (mancala play's save): every move is reviewed")
    add_game_arguments(ana)
    ana.add_argument("--last", action="store_true", help="analyse only the saved game's last position")
    ana.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="thinking time per position (default: 5 for one position, 1 a move in a review)",
    )
    ana.set_defaults(func=cmd_analyse)

    _add_file_format_commands(sub)
    from mancala.cli import mankalah  # noqa: PLC0415 (the ManKalah protocol: mankalah-agent, referee)

    mankalah.register(sub)
    from mancala.server import agent as remote_agent  # noqa: PLC0415 (mancala agent: a remote agent of mancala serve)

    remote_agent.register(sub)
    from mancala.server.command import register as register_server  # noqa: PLC0415 (the server's modules)

    register_server(sub)
    from mancala.cli import arena as arena_cli  # noqa: PLC0415 (mancala arena: tournaments, ratings, plots)

    arena_cli.register(sub)
    from mancala.cli import book as book_cli  # noqa: PLC0415 (mancala book: opening books of solved positions)

    book_cli.register(sub)
    from mancala.cli import db as db_cli  # noqa: PLC0415 (mancala db: Oware's endgame databases)

    db_cli.register(sub)
    return parser


def _add_file_format_commands(sub) -> None:
    """Subcommands whose modules are file formats."""
    hw = sub.add_parser(
        "homework",
        help="the homework file interface: input.txt -> next_state.txt, traverse_log.txt",
        description="Read a homework input file (task 1 greedy, 2 minimax, 3 alpha-beta, "
        "4 competition) and write next_state.txt (and traverse_log.txt) beside it.",
    )
    homework.add_arguments(hw)
    hw.set_defaults(func=homework.run)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
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


if __name__ == "__main__":
    sys.exit(main())
