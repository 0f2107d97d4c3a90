"""The search tree of a position as JSON nodes, for the page's tree view: every node, window,
update and prune, with minimax's and alpha-beta's node counts."""

from __future__ import annotations

from typing import Any

from mancala.analysis.values import jsonable, unit
from mancala.evaluation import teaching_evaluation
from mancala.evaluation.basic import win_loss_percent
from mancala.games.base import Game, position_string
from mancala.search.core import Node, NodeLimit, TooManyNodes, Tracer, alphabeta, minimax
from mancala.search.explain import line_by_turn, position_words, prune_reason

#: the deepest search tree the ``tree`` request draws, in turns, and its most nodes
MAX_TREE_DEPTH = 5


MAX_TREE_NODES = 5_000


#: minimax is only counted up to this many nodes (beyond it the count is reported as a bound)
MAX_MINIMAX_COUNT = 200_000


class TreeTracer(Tracer):
    """Builds the search tree as JSON nodes (``docs/protocol.md``, "Search tree node")."""

    def __init__(self, game: Game, limit: int = MAX_TREE_NODES) -> None:
        self.game = game
        self.limit = limit
        self.count = 0
        self.root: dict | None = None
        self._nodes: dict[int, tuple[Node, dict]] = {}

    def enter(self, node: Node) -> None:
        """Record a node under its parent, with the window it received."""
        self.count += 1
        if self.count > self.limit:
            raise TooManyNodes
        window = None if node.alpha is None else [jsonable(node.alpha), jsonable(node.beta)]
        d = {
            "move": None if node.move is None else str(node.move),
            "player": self.game.to_move(node.state),
            "max": node.maximizing,
            "depth": node.depth,
            "leaf": node.leaf,
            "terminal": node.terminal,
            "value": jsonable(node.value),
            "window": window,
            "final_window": window,
            "children": [],
            "pruned": [],
            "prune_reason": None,
            "why": None,
            "board": position_words(self.game, node.state) or None,
            "position": position_string(self.game, node.state),
        }
        if node.leaf:
            d["why"] = "game over" if node.terminal else "depth limit"
        self._nodes[id(node)] = (node, d)
        if node.parent is None:
            self.root = d
        else:
            self._nodes[id(node.parent)][1]["children"].append(d)

    def update(self, node: Node, move, child_value: float) -> None:
        """Keep the node's value and window current."""
        d = self._nodes[id(node)][1]
        d["value"] = jsonable(node.value)
        if node.alpha is not None:
            d["final_window"] = [jsonable(node.alpha), jsonable(node.beta)]

    def prune(self, node: Node, skipped: tuple) -> None:
        """Mark the moves not searched, with the reason in words."""
        if skipped:
            d = self._nodes[id(node)][1]
            d["pruned"] = [str(m) for m in skipped]
            d["prune_reason"] = prune_reason(node, skipped)


def tree(game: Game, state, depth: int, algorithm: str = "alphabeta") -> dict:
    """The search tree of ``state`` to ``depth`` turns as JSON, with node counts of
    minimax and alpha-beta.  Raises ValueError when the tree is too big to draw."""
    evaluate = teaching_evaluation(game)
    tracer = TreeTracer(game)
    search = alphabeta if algorithm == "alphabeta" else minimax
    try:
        result = search(game, state, depth, evaluate, tracer=tracer)
    except TooManyNodes:
        raise ValueError(
            f"the {algorithm} tree at depth {depth} has more than {MAX_TREE_NODES} nodes; choose a smaller depth"
        ) from None
    counter = NodeLimit(MAX_MINIMAX_COUNT)
    counts: dict[str, Any] = {}
    if algorithm == "alphabeta":
        counts["alphabeta"] = result.nodes
        try:
            counts["minimax"] = minimax(game, state, depth, evaluate, tracer=counter).nodes
        except TooManyNodes:
            counts["minimax"] = f">{MAX_MINIMAX_COUNT}"
    else:
        counts["minimax"] = result.nodes
        counts["alphabeta"] = alphabeta(game, state, depth, evaluate).nodes
    return {
        "algorithm": algorithm,
        "depth": depth,
        "root": tracer.root,
        "nodes": counts,
        "shown": tracer.count,
        "best": None if result.move is None else str(result.move),
        "value": jsonable(float(result.value)),
        "line": [str(m) for m in result.line],
        "turns": line_by_turn(game, state, result.line),
        "evaluation": getattr(evaluate, "__name__", "evaluation"),
        # what the tree's values count: tic-tac-toe's lesson scores (100 a win, 0 a loss, 50 not
        # decided at this depth), else the game's own unit
        "unit": "percent" if evaluate is win_loss_percent else unit(game),
    }
