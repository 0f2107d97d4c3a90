"""``mancala analyse``: a saved game reviewed move by move, or one position analysed (every
legal move's value, exact where proved, and the best line)."""

from __future__ import annotations

import argparse

from mancala.cli.common import (
    add_command,
    add_game_arguments,
    build_game,
    check_not_empty,
    prepare_engine,
    progress_bar,
)
from mancala.errors import BadInput
from mancala.games.base import outcome_text
from mancala.record import load_record

#: ``mancala analyse --help``'s description and examples
DESCRIPTION = (
    "Review a saved game: each move's value against the best move's and the "
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
        help="nominal seconds of search per position, a budget in nodes: the same answer as the page's for the "
        "same budget (default: 5 for one position, 1 a move in a review)",
    )
    ana.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``mancala analyse``: review a saved game move by move, or analyse one position (every
    legal move's value, exact where proved, and the best line) — the analysis layer's answers,
    the ones the page shows for the same budget, for every game."""
    if args.seconds is not None and not args.seconds > 0:
        raise BadInput("--seconds must be more than 0")
    check_not_empty(args, "file")
    if args.file:
        if args.position:
            raise BadInput("give either a saved game file or --position, not both")
        record = load_record(args.file)
        if not args.last:
            return _review(record, args.seconds if args.seconds is not None else 1.0)
        game, state = record.game, record.final_state()
        ended = None if record.ending is None else record.end_text()
    else:
        if args.last:
            raise BadInput("--last analyses the last position of a saved game: give the game's file")
        game, state = build_game(args)
        ended = None
    return _analysis(game, state, args.seconds if args.seconds is not None else 5.0, ended)


def _analysis(game, state, seconds: float, ended: str | None = None) -> int:
    """One position's analysis: every legal move's value (its engine's, or its endgame
    database's where it has one) and the best line; ``ended`` says how a game that ended off
    the board there ended (a resignation, time, a disconnect), before the analysis."""
    from mancala.analysis import analysis, budget  # noqa: PLC0415 (the engines load only when needed)
    from mancala.analysis.text import analysis_lines  # noqa: PLC0415

    print(game.render(state))
    if game.is_terminal(state):
        print(
            f"The game is over: {outcome_text(game, state, [game.player_name(0, state), game.player_name(1, state)])}"
        )
        return 0
    if ended:
        print(f"The game is over: {ended} Its last position, had the game gone on:")
    prepare_engine(game)
    print("\n".join(analysis_lines(game, state, analysis(game, state, budget(game, seconds)))))
    return 0


def _review(record, seconds: float) -> int:
    """The whole game's review (each move against the best move of its position, the biggest
    mistakes), with a progress bar on a terminal."""
    from mancala.analysis import budget, review  # noqa: PLC0415 (the engines load only when needed)
    from mancala.analysis.text import review_lines  # noqa: PLC0415
    from mancala.engine.endgame import terminal_console  # noqa: PLC0415 (numba loads only when needed)

    if not record.moves:
        raise BadInput("the saved game has no moves to review; use --last to analyse its position")
    game, moves = record.game, list(record.moves)
    prepare_engine(game)
    console = terminal_console()
    if console is None:
        result = review(game, moves, budget(game, seconds))
    else:
        with progress_bar("reviewing moves", console) as bar:
            task = bar.add_task("review", total=len(moves))
            result = review(
                game, moves, budget(game, seconds), progress=lambda done, total: bar.update(task, completed=done)
            )
    print("\n".join(review_lines(game, list(record.players), result, seconds)))
    end = record.end_text()
    print(f"The game is over: {end}" if end else f"The game stops here, unfinished: {_to_move(record)} to move.")
    return 0


def _to_move(record) -> str:
    """Who is to move at the end of an unfinished record (``South (human)``)."""
    return record.names()[record.game.to_move(record.final_state())]
