"""``mancala analyse``: a saved game reviewed move by move, or one position analysed (every
legal move's value, exact where proved, and the best line)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, cast

from mancala.arena.review import analysis_lines, review_game, review_lines
from mancala.cli.common import (
    add_command,
    add_game_arguments,
    build_game,
    check_not_empty,
    chooses_kalah,
    kalah_position,
    prepare_engine,
    progress_bar,
)
from mancala.errors import BadInput
from mancala.record import load_record

#: ``mancala analyse --help``'s description and examples
DESCRIPTION = (
    "Review a saved Kalah game: each move's value against the best move's and the "
    "turning points (the biggest mistakes), exact where the engine proves it. Or "
    "analyse one position (--position, or --last for a saved game's last one): the "
    "value of every legal move, exact where proved, and the best line."
)
EPILOG = (
    "examples:\n  mancala analyse mancala-save.json             review the whole game\n"
    "  mancala analyse mancala-save.json --last      its last position\n"
    "  mancala analyse --pits 3 --seeds 2 --seconds 2"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``analyse`` (and its alias ``analyze``) to the CLI's subcommands."""
    summary = "review a saved game move by move, or analyse a position"
    ana = add_command(sub, "analyse", summary, DESCRIPTION, EPILOG, aliases=["analyze"])
    ana.add_argument("file", nargs="?", help="a saved game (mancala play's save): every move is reviewed")
    add_game_arguments(ana)
    ana.add_argument("--last", action="store_true", help="analyse only the saved game's last position")
    ana.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="thinking time per position (default: 5 for one position, 1 a move in a review)",
    )
    ana.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
        if not chooses_kalah(args):
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
    from mancala.analysis import analysis, budget  # noqa: PLC0415

    print(game.render(state))
    if game.is_terminal(state):
        print(f"The game is over: {game.score(state, 0):+d} for {game.player_name(0, state)}.")
        return 0
    result = analysis(game, state, budget(game, seconds))
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
    from mancala.analysis import budget, review  # noqa: PLC0415

    game = record.game
    if not record.moves:
        raise BadInput("the saved game has no moves to review; use --last to analyse its position")
    print(f"reviewing {len(record.moves)} moves, about {seconds:g} s each…", file=sys.stderr, flush=True)
    result = review(game, list(record.moves), budget(game, seconds))
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
        with progress_bar("reviewing moves", console) as bar:
            task = bar.add_task("review", total=len(record.moves))
            review = review_game(record, seconds, progress=lambda done, total: bar.update(task, completed=done))
    print("\n".join(review_lines(review, seconds)))
    return 0
