"""What the subcommands share: the options that choose a game and its rules, the game they
choose, the Kalah position the engine commands read, and getting the engine ready."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mancala.errors import BadInput
from mancala.games import CATALOGUE, make_game, parse_spec


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Options that choose the game and its rules."""
    g = parser.add_argument_group("game and rules")
    g.add_argument(
        "--game",
        default=None,
        help=f"game spec: {', '.join(CATALOGUE)}, with options as name(key=value,...), e.g. "
        f"'kalah(preset=egyptian,pits=5)' (default: kalah)",
    )
    g.add_argument("--preset", help=f"Kalah rule preset: {', '.join(CATALOGUE['kalah'].presets)} (see docs/rules.md)")
    g.add_argument("--pits", type=int, help="Kalah pits per side (1-20)")
    g.add_argument("--seeds", type=int, help="Kalah seeds per pit at the start (0-1000)")
    g.add_argument(
        "--position",
        help="start position: Kalah: 2n+2 numbers in sowing order (South pits 1..n, "
        "South store, North pits 1..n, North store); Oware: houses A-F, a-f, the stores and S or N "
        "like '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S'; tic-tac-toe: 9 cells like 'XX./.O./...'",
    )
    g.add_argument(
        "--to-move",
        "--first",
        dest="first",
        choices=["south", "north"],
        help="Kalah: the side to move at the start, or in --position (default south)",
    )


def build_game(args: argparse.Namespace):
    """The game and start state chosen by the options."""
    check_not_empty(args, "game", "preset")
    spec = args.game or "kalah"
    name, _ = parse_spec(spec)
    kalah_options = {"preset": args.preset, "pits": args.pits, "seeds": args.seeds, "first": args.first}
    if args.position is not None and not args.position.strip():
        raise BadInput("--position is empty; give the position's numbers (or cells), or leave the option out")
    if name != "kalah":
        if any(v is not None for v in kalah_options.values()):
            raise BadInput(f"--preset/--pits/--seeds/--to-move are Kalah options; {name} has none")
        game = make_game(spec)
        if args.position is None:
            return game, game.initial_state()
        rules = CATALOGUE[name].rules
        if rules is not None and "start" in getattr(rules, "__dataclass_fields__", {}):
            game = make_game(spec, start=args.position)  # the rules' start: records and workers keep it
            return game, game.initial_state()
        read = getattr(game, "parse_position", None)  # games with a position notation offer it
        if read is None:
            raise BadInput(f"--position is not read for {name}: it has no position notation")
        return game, read(args.position)
    if args.position is not None:
        kalah_options["start"] = args.position
        if args.pits is None and "pits" not in spec:  # the position says how many pits
            count = len(args.position.replace(",", " ").split())
            if count < 4 or count % 2:
                raise BadInput(
                    f"--position needs 2n+2 numbers (n pits a side, 1..20, and the two stores: "
                    f"14 for 6 pits), got {count}"
                )
            kalah_options["pits"] = (count - 2) // 2
    game = make_game(spec, **kalah_options)
    return game, game.initial_state()


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


def kalah_position(args: argparse.Namespace) -> tuple[Any, Any]:
    """The Kalah game and position chosen by the options (the engine plays Kalah only)."""
    game, state = build_game(args)
    if game.name != "kalah":
        raise BadInput(f"the engine plays Kalah only; {args.game!r} is not Kalah")
    return game, state


def prepare_engine(game) -> None:
    """Ready the engine for ``game``, saying so on stderr when that takes more than a moment."""
    from mancala.engine import prepare  # noqa: PLC0415 (numba loads only when needed)

    prepare(game, notice=lambda: print("preparing the engine (once)…", file=sys.stderr, flush=True))
