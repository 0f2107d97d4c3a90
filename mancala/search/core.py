"""Game-tree search written once for every game of :mod:`mancala.games`.

Semantics shared by every algorithm here (they are also those of the Mancala
homework's file interface):

* The side to move is read from the state at every node.  A node is a *max*
  node when the player to move there is the searching (root) player.
* Depth counts turns: the root is depth 0 and every move of one turn shares a
  depth, so the root's children are at depth 1, and a child has its parent's
  depth when the move that created the parent earned an extra turn (the same
  player moves again), else one more.
* A node is a leaf when the game is over there, or when its depth has reached
  the cut-off and the move that created it did not earn an extra turn (so a
  turn is always searched to its end).
* Children are searched in the order of ``order(game, state, moves)`` (default:
  the game's own order).  At every node the *first* child with the best value
  is kept, so ties go to the earlier move.
* Leaves are scored by ``evaluate(game, state, player)`` from the root
  player's point of view; search never assumes anything about the game.

A :class:`Tracer` sees every node entered, every leaf value, every value
update and every prune.  With no tracer the search builds no node records.
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from mancala.games.base import Game

INF = float("inf")

#: ``evaluate(game, state, player) -> number``: how good ``state`` is for ``player``
Evaluation = Callable[[Game, Any, int], float]
#: ``order(game, state, moves) -> moves``: the order in which children are searched
MoveOrder = Callable[[Game, Any, Sequence[Any]], Sequence[Any]]


@dataclass
class Node:
    """A tracer's view of one search node.  ``value``, ``alpha`` and ``beta`` change as
    the search goes on; the tracer reads them when it is called."""

    state: Any
    #: the move that led here (None at the root)
    move: Any
    depth: int
    maximizing: bool
    #: whether the game is over at this node
    terminal: bool
    #: whether this node is evaluated rather than expanded
    leaf: bool
    value: float
    #: the alpha-beta window (None for minimax)
    alpha: float | None = None
    beta: float | None = None
    parent: "Node | None" = field(default=None, repr=False)
    #: the children's moves in search order (filled when the node is expanded)
    moves: tuple = ()


class Tracer:
    """Receives search events; subclass and override what you need.  Every method is a no-op."""

    def enter(self, node: Node) -> None:
        """A node is entered.  For a node to be expanded ``node.value`` is ±infinity;
        for a leaf, :meth:`leaf` follows at once."""

    def leaf(self, node: Node) -> None:
        """A leaf was evaluated: ``node.value`` is its evaluation."""

    def update(self, node: Node, move: Any, child_value: float) -> None:
        """A child (reached by ``move``) returned ``child_value``; ``node`` holds the
        value (and window) after the update."""

    def prune(self, node: Node, skipped: tuple) -> None:
        """The remaining moves ``skipped`` of ``node`` are cut off (``node.value`` is
        outside the window)."""


class TooManyNodes(Exception):
    """A search went past its node limit (:class:`NodeLimit`)."""


class NodeLimit(Tracer):
    """Counts the nodes a search enters and stops it (:class:`TooManyNodes`) past ``limit``:
    how a request's size is measured before its answer is drawn or printed."""

    def __init__(self, limit: int) -> None:
        self.count = 0
        self.limit = limit

    def enter(self, node: Node) -> None:
        """Count one node; stop the search past the limit."""
        self.count += 1
        if self.count > self.limit:
            raise TooManyNodes


@dataclass(frozen=True)
class SearchResult:
    """What a search found."""

    #: the move to play (None when the root is a leaf)
    move: Any
    #: the root's value, from the searching player's point of view
    value: float
    #: the principal line: the moves both sides are expected to play from the root
    line: tuple
    #: nodes visited (root included)
    nodes: int
    #: the cut-off depth searched, in turns
    depth: int
    #: how it was found; ``"...(exact)"`` when ``value`` is proved (``engine(exact)``, ``book(exact)``)
    algorithm: str

    @property
    def exact(self) -> bool:
        """Whether ``value`` is the proved value of the root, not an estimate."""
        return self.algorithm.endswith("(exact)")


def natural_order(game: Game, state, moves: Sequence) -> Sequence:
    """The game's own move order."""
    return moves


class SearchAborted(Exception):
    """Raised out of a search whose ``stop`` callback asked it to stop (a time budget ran out)."""


class _Search:
    """One search's fixed inputs and counters."""

    __slots__ = ("game", "evaluate", "player", "cutoff", "tracer", "order", "nodes", "stop")

    def __init__(self, game, evaluate, player, cutoff, tracer, order, stop=None):
        self.stop = stop
        self.game = game
        self.evaluate = evaluate
        self.player = player
        self.cutoff = cutoff
        self.tracer = tracer
        self.order = order or natural_order
        self.nodes = 0

    def start(self, state, move, depth: int, extra_turn: bool, parent, alpha=None, beta=None):
        """Count and classify a node; return (leaf value or None, maximizing, node record)."""
        self.nodes += 1
        if self.stop is not None and not self.nodes & 255 and self.stop():
            raise SearchAborted
        game = self.game
        terminal = game.is_terminal(state)
        maximizing = game.to_move(state) == self.player
        leaf = terminal or (depth >= self.cutoff and not extra_turn)
        value = self.evaluate(game, state, self.player) if leaf else (-INF if maximizing else INF)
        node = None
        if self.tracer is not None:
            node = Node(state, move, depth, maximizing, terminal, leaf, value, alpha, beta, parent)
            self.tracer.enter(node)
            if leaf:
                self.tracer.leaf(node)
        return (value if leaf else None), maximizing, node

    def children(self, state, depth: int, extra_turn: bool, node):
        """Yield (move, child state, child depth, child's extra_turn) in search order;
        ``extra_turn`` says whether the move that led to ``state`` earned an extra turn."""
        game = self.game
        mover = game.to_move(state)
        moves = tuple(self.order(game, state, game.legal_moves(state)))
        if node is not None:
            node.moves = moves
        for move in moves:
            child = game.apply(state, move)
            yield move, child, (depth if extra_turn else depth + 1), game.to_move(child) == mover


def minimax(
    game: Game, state, depth: int, evaluate: Evaluation, *, tracer: Tracer | None = None, order: MoveOrder | None = None
) -> SearchResult:
    """Plain minimax to ``depth`` turns (AIMA Figure 5.3 with a cut-off), extra turns included."""
    s = _Search(game, evaluate, game.to_move(state), depth, tracer, order)

    def value(st, move, d, extra, parent) -> tuple[float, tuple]:
        v, maximizing, node = s.start(st, move, d, extra, parent)
        if v is not None:
            return v, ()
        v = -INF if maximizing else INF
        line: tuple = ()
        for m, child, cd, cextra in s.children(st, d, extra, node):
            cv, cline = value(child, m, cd, cextra, node)
            if (cv > v) if maximizing else (cv < v):
                v, line = cv, (m,) + cline
            if node is not None and tracer is not None:  # a node is built only for a tracer
                node.value = v
                tracer.update(node, m, cv)
        return v, line

    v, line = value(state, None, 0, False, None)
    return SearchResult(line[0] if line else None, v, line, s.nodes, depth, "minimax")


def alphabeta(
    game: Game,
    state,
    depth: int,
    evaluate: Evaluation,
    *,
    tracer: Tracer | None = None,
    order: MoveOrder | None = None,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Minimax with alpha-beta pruning (AIMA), pruning on equality (v >= beta, v <= alpha).

    A child receives its parent's current window.  After a cut the node returns its own
    value ``v`` (fail-soft), as the homework's reference logs show.  Its value at the
    root, and its move, are those of :func:`minimax`.

    ``stop`` (polled every 256 nodes) makes the search raise :class:`SearchAborted`.
    """
    s = _Search(game, evaluate, game.to_move(state), depth, tracer, order, stop)

    def value(st, move, d, extra, parent, alpha, beta) -> tuple[float, tuple]:
        v, maximizing, node = s.start(st, move, d, extra, parent, alpha, beta)
        if v is not None:
            return v, ()
        v = -INF if maximizing else INF
        line: tuple = ()
        moves = s.children(st, d, extra, node)
        for m, child, cd, cextra in moves:
            cv, cline = value(child, m, cd, cextra, node, alpha, beta)
            if maximizing:
                if cv > v:
                    v, line = cv, (m,) + cline
                cut = v >= beta
                if not cut:
                    alpha = max(alpha, v)
            else:
                if cv < v:
                    v, line = cv, (m,) + cline
                cut = v <= alpha
                if not cut:
                    beta = min(beta, v)
            if node is not None and tracer is not None:  # a node is built only for a tracer
                node.value, node.alpha, node.beta = v, alpha, beta
                tracer.update(node, m, cv)
            if cut:
                if node is not None and tracer is not None:
                    done = node.moves.index(m) + 1
                    tracer.prune(node, node.moves[done:])
                break
        return v, line

    v, line = value(state, None, 0, False, None, -INF, INF)
    return SearchResult(line[0] if line else None, v, line, s.nodes, depth, "alphabeta")


def greedy(
    game: Game, state, evaluate: Evaluation, *, tracer: Tracer | None = None, order: MoveOrder | None = None
) -> SearchResult:
    """The move whose whole turn (extra turns included) scores best now: minimax to depth 1."""
    result = minimax(game, state, 1, evaluate, tracer=tracer, order=order)
    return SearchResult(result.move, result.value, result.line, result.nodes, 1, "greedy")


def random_move(game: Game, state, rng: _random.Random | None = None):
    """A uniformly random legal move."""
    moves = game.legal_moves(state)
    if not moves:
        return None
    return (rng or _random).choice(list(moves))


def turn_moves(game: Game, state, line: Sequence) -> tuple:
    """The moves of ``line`` that belong to the current player's turn (its extra turns)."""
    mover = game.to_move(state)
    out = []
    for move in line:
        out.append(move)
        state = game.apply(state, move)
        if game.is_terminal(state) or game.to_move(state) != mover:
            break
    return tuple(out)
