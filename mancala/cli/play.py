"""``mancala play``: a game in the terminal, you against the AI, two AIs or two people, new
or resumed from a saved game."""

from __future__ import annotations

import argparse

from mancala.analysis.values import ANALYSIS_SECONDS
from mancala.cli.common import EXAMPLES, add_command, add_game_arguments, build_game, check_not_empty, player_help
from mancala.errors import BadInput
from mancala.players import LEVELS, make_player
from mancala.record import GameRecord, check_save_path, load_record
from mancala.ui.terminal import TerminalGame

#: ``mancala play --help``'s description (its examples are ``mancala --help``'s)
DESCRIPTION = (
    "Play in the terminal. At your turn type a move (Kalah: a pit number; Oware: a house "
    "letter, A-F for South, a-f for North) or "
    "hint, undo, save [FILE], board, help, quit. Works with piped input."
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``play`` to the CLI's subcommands."""
    play = add_command(
        sub, "play", "play in the terminal: you vs the AI, AI vs AI, or two people", DESCRIPTION, EXAMPLES
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
    play.add_argument(
        "--hint-time",
        type=float,
        default=ANALYSIS_SECONDS,
        metavar="S",
        help="nominal seconds of the hint's search (a budget in nodes: the same hint as the page's for the same budget)",
    )
    play.add_argument(
        "--view",
        choices=["south", "north"],
        help="the side the board is seen from (Bao; default: yours, and 'flip' turns it)",
    )
    play.add_argument(
        "--no-background-tables",
        action="store_true",
        help="never build an endgame table in the background (Oware's and Togyz Kumalak's strongest "
        "levels then read only the tables already in the cache; also $MANCALA_BACKGROUND_TABLES=0)",
    )
    play.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
        record,
        players,
        save_path=save_path,
        autosave=bool(args.save),
        hint_seconds=args.hint_time,
        view=view,
        background_tables=not args.no_background_tables,
    ).run()


def _player(spec: str, saved_in: str | None):
    """The player for ``spec``; a bad spec read from a saved game names that file."""
    try:
        return make_player(spec)
    except BadInput as e:
        if saved_in:
            raise BadInput(f'{saved_in}: bad player in "players": {e}') from None
        raise
