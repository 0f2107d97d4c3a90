"""``mancala explain``: the alpha-beta tree of a position, every prune explained in words."""

from __future__ import annotations

import argparse

from mancala.cli.common import add_command, add_game_arguments, build_game
from mancala.errors import BadInput
from mancala.evaluation.basic import EVALUATIONS, teaching_evaluation
from mancala.search.explain import explain, explain_nodes

#: the deepest tree ``mancala explain`` draws (tic-tac-toe's whole tree is 9 deep)
MAX_EXPLAIN_DEPTH = 12
#: the most nodes ``mancala explain`` prints without ``--no-limit`` (tic-tac-toe's whole tree
#: is 18,297: 3 MB; a node prints about 170 bytes, so this is about 17 MB)
MAX_EXPLAIN_NODES = 100_000

#: ``mancala explain --help``'s description
DESCRIPTION = (
    "Search a position with alpha-beta and print the tree: each node with its "
    "window, each leaf's score, and every prune explained in words."
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``explain`` to the CLI's subcommands."""
    exp = add_command(sub, "explain", "show the alpha-beta tree of a position, every prune explained", DESCRIPTION)
    add_game_arguments(exp)
    exp.add_argument("--depth", type=int, default=9, help="search depth in turns (default 9: all of tic-tac-toe)")
    exp.add_argument(
        "--eval",
        choices=["score", "material", "percent"],
        help="evaluation (default: the one the page's search tree uses: percent for tic-tac-toe "
        "(100 win/50/0 loss), score for Kalah, the game's own for Bao and Oware)",
    )
    exp.add_argument("--prunes-only", action="store_true", help="print only the prune explanations")
    exp.add_argument(
        "--no-limit",
        action="store_true",
        help=f"print a tree of more than {MAX_EXPLAIN_NODES:,} nodes too (it is counted first, and refused without this)",
    )
    exp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
        evaluate = teaching_evaluation(game)  # the tree view's: a lesson's percent (tic-tac-toe), the score (Kalah)
    if not args.no_limit and explain_nodes(game, state, args.depth, evaluate, MAX_EXPLAIN_NODES) is None:
        raise BadInput(
            f"the tree at depth {args.depth} has more than {MAX_EXPLAIN_NODES:,} nodes (over 17 MB printed); "
            f"choose a smaller --depth, or give --no-limit to print it all"
        )
    print(game.render(state))
    explain(game, state, args.depth, evaluate, print, prunes_only=args.prunes_only)
    return 0
