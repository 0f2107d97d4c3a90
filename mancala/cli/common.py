"""What the subcommands share: each one's parser, the options that choose a game and its rules,
the game they choose, the Kalah position the engine commands read, the player specs' help,
getting the engine ready and the progress bar of a long job."""

from __future__ import annotations

import argparse
import sys
from typing import Any, cast

from mancala.engine.support import engine_records, engine_support
from mancala.errors import BadInput, echo
from mancala.games import CATALOGUE, make_game, parse_spec
from mancala.games.base import position_notation
from mancala.games.catalogue import find_game, game_info, start_options_of, takes_start
from mancala.players import PLAYER_KINDS

#: the examples under ``mancala --help`` and ``mancala play --help``
EXAMPLES = """examples:
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


def add_command(
    sub: argparse._SubParsersAction, name: str, summary: str, description: str, epilog: str | None = None, **more: Any
) -> argparse.ArgumentParser:
    """The parser of subcommand ``name`` (``summary`` is its line in ``mancala --help``); a
    description with examples (``epilog``) is printed as written, its line breaks kept.
    ``more`` goes to argparse as it is (``aliases``).  An option is known only by its whole
    name: ``--seed`` is refused, not read as ``--seeds``."""
    formatter = argparse.RawDescriptionHelpFormatter if epilog is not None else argparse.HelpFormatter
    return sub.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog,
        formatter_class=formatter,
        allow_abbrev=False,
        **more,
    )


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


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Options that choose the game and its rules."""
    g = parser.add_argument_group("game and rules")
    g.add_argument(
        "--game",
        default=None,
        help=f"game spec: {', '.join(CATALOGUE)}, with options as name(key=value,...), e.g. "
        f"'kalah(preset=egyptian,pits=5)' (default: kalah)",
    )
    presets = "; ".join(f"{info.title}: {', '.join(info.presets)}" for info in CATALOGUE.values() if info.presets)
    g.add_argument("--preset", help=f"rule preset ({presets}; see docs/rules.md)")
    g.add_argument("--pits", type=int, help="Kalah pits per side (1-20); Oware houses per side (1-12)")
    g.add_argument("--seeds", type=int, help="seeds per pit (Kalah, 0-1000) or house (Oware, 1-20) at the start")
    g.add_argument(
        "--position",
        help="start position: Kalah: 2n+2 numbers in sowing order (South pits 1..n, "
        "South store, North pits 1..n, North store); Oware: houses A-F, a-f, the stores and S or N "
        "like '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S'; Togyz Kumalak: South's houses/North's (X a tuzdik), "
        "the kazans and S or N like '9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S'; "
        "tic-tac-toe: 9 cells like 'XX./.O./...'; Bao: its position "
        "string (docs/bao.md) like '0-0-0-0-0-0-0-0/0-2-2-6-0-0-0-0/0-0-0-0-6-2-2-0/0-0-0-0-0-0-0-0/22-22/S/Hh'",
    )
    g.add_argument(
        "--to-move",
        "--first",
        dest="first",
        choices=["south", "north"],
        help="Kalah: the side to move at the start, or in --position (default south)",
    )


#: the game the commands play when no --game is given: the catalogue's first
DEFAULT_GAME = next(iter(CATALOGUE))


def build_game(args: argparse.Namespace):
    """The game and start state chosen by the options: the game spec (default: the first game
    of the catalogue), its rules options, and a start position in the game's notation (read
    by its ``start_options`` when its rules take a start, else by its position notation)."""
    check_not_empty(args, "game", "preset")
    spec = args.game or DEFAULT_GAME
    name, _ = parse_spec(spec)
    options = _rule_options(name, args)
    if args.position is None:
        game = make_game(spec, **options)
        return game, game.initial_state()
    if not args.position.strip():
        raise BadInput("--position is empty; give the position's numbers (or cells), or leave the option out")
    info = game_info(name)
    if takes_start(info):  # the rules' start: records and workers keep it
        start = start_options_of(info, args.position)
        game = make_game(spec, **{**start, **options})
        return game, game.initial_state()
    notation = position_notation(make_game(spec, **options))
    if notation is None:
        raise BadInput(f"--position is not read for {name}: it has no position notation")
    return cast(Any, notation), notation.parse_position(args.position)


def _rule_options(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """--preset, --pits, --seeds and --to-move as the options of a game that has them (Kalah:
    ``pits``, ``seeds``, ``first``; Oware: a preset, ``houses``, ``seeds``); raises
    :class:`BadInput` for one it does not have."""
    info = find_game(name)
    fields = set(info.rules().to_dict()) if info is not None and info.rules is not None else set()
    size = "pits" if "pits" in fields else "houses" if "houses" in fields else None
    given = {"--preset": args.preset, "--pits": args.pits, "--seeds": args.seeds, "--to-move": args.first}
    usable = {
        "--preset": bool(info and info.presets),
        "--pits": size is not None,
        "--seeds": "seeds" in fields or "stones" in fields,
        "--to-move": "first" in fields,
    }
    wrong = [option for option, value in given.items() if value is not None and not usable[option]]
    if wrong:
        raise BadInput(f"{'/'.join(wrong)}: {name} has no such option{'s' if len(wrong) > 1 else ''}")
    count = "stones" if "stones" in fields else "seeds"
    options: dict[str, Any] = {"preset": args.preset, count: args.seeds, "first": args.first}
    if size is not None:
        options[size] = args.pits
    return {k: v for k, v in options.items() if v is not None}


def check_not_empty(args: argparse.Namespace, *names: str) -> None:
    """Raise :class:`BadInput` when one of the options ``names`` (argparse dests) was
    given as an empty string: an empty value is a mistake, not "not given"."""
    for name in names:
        value = getattr(args, name, None)
        if isinstance(value, str) and not value.strip():
            if name == "file":
                raise BadInput(
                    "the saved game's file name is empty (''); give the file, or leave it out and give --position"
                )
            raise BadInput(f"--{name.replace('_', '-')} is empty (''); give a value or leave the option out")


def solver_record(args: argparse.Namespace) -> Any:
    """The engine record of the game the options choose when its engine proves positions by
    search with endgame databases of its own (Kalah's: ``mancala solve``, ``mancala book``),
    else None; an empty --game is refused (:class:`BadInput`)."""
    check_not_empty(args, "game")
    record = engine_support(parse_spec(args.game or DEFAULT_GAME)[0])
    return record if record is not None and record.solves else None


def solver_position(args: argparse.Namespace) -> tuple[Any, Any]:
    """The game and position chosen by the options, for an engine that proves positions by
    search (:func:`solver_record`); raises :class:`BadInput` for a game without one."""
    game, state = build_game(args)
    record = engine_support(game.name)
    if record is None or not record.solves:
        solvers = ", ".join(CATALOGUE[r.game].title for r in engine_records() if r.solves and r.game in CATALOGUE)
        raise BadInput(f"the engine's solver plays {solvers} only; {echo(args.game)} is not one of them")
    return game, state


def prepare_engine(game) -> None:
    """Ready the engine of ``game``'s rules (its record's ``prepare``), saying so on stderr
    when that takes more than a moment; nothing for a game without one."""
    record = engine_support(game.name)
    if record is None or record.prepare is None or not record.plays(game):
        return
    record.prepare(game, lambda: print("preparing the engine (once)…", file=sys.stderr, flush=True))


def progress_bar(label: str, console: Any) -> Any:
    """A rich progress bar on ``console`` that goes when done: ``label``, the bar, done of total
    and the time so far (a long job the user waits for at a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: PLC0415

    return Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    )
