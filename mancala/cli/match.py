"""``mancala match``: many games between two AIs, seats alternating, with the wins, draws and
the average margin."""

from __future__ import annotations

import argparse

from mancala.arena.match import play_match
from mancala.cli.common import add_command, add_game_arguments, build_game, player_help
from mancala.errors import BadInput
from mancala.players import make_player

#: the most games ``mancala match`` plays
MAX_MATCH_GAMES = 100_000
#: the most random opening plies of ``mancala match --opening``
MAX_OPENING_PLIES = 1000

#: ``mancala match --help``'s description (the player specs' help follows it)
DESCRIPTION = "Play many games between two AI players (seats alternate) and print wins, draws and the average margin. "


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``match`` to the CLI's subcommands."""
    match = add_command(sub, "match", "play many games between two AIs, seats alternating", DESCRIPTION + player_help())
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
    match.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
