"""Alpha-beta explained: a tracer that draws the search tree and says, in words,
why every pruned move did not need to be searched (the CS151 assignment's correctness
write-up, as a feature: ``mancala explain``)."""

from __future__ import annotations

from typing import Any, Callable

from mancala.games.base import Game, layout_of, seat_names_of
from mancala.search.core import INF, Evaluation, Node, NodeLimit, SearchResult, TooManyNodes, Tracer, alphabeta


def number(value: float | None) -> str:
    """A value as people write it: ``50``, ``-3``, ``+inf``/``-inf`` (``?`` before it is known)."""
    if value is None:
        return "?"
    if value == INF:
        return "+inf"
    if value == -INF:
        return "-inf"
    return f"{value:g}"


def line_by_turn(game: Game, state, line) -> list[str]:
    """An expected line of play grouped into turns, each led by its mover's name:
    ``["South 3 6", "North 2"]`` — in Kalah and Bao one player may move several times
    in a row, so a bare list of moves does not say who plays which.  Stops at the first
    move that is not legal where it falls (a line read from a table may run past it).
    The moves may be given as move objects or as their text."""
    turns: list[tuple[str, list[str]]] = []
    for item in line:
        legal = {} if game.is_terminal(state) else {str(m): m for m in game.legal_moves(state)}
        move = legal.get(str(item))
        if move is None:
            break
        name = game.player_name(game.to_move(state), state)
        if turns and turns[-1][0] == name:
            turns[-1][1].append(str(move))
        else:
            turns.append((name, [str(move)]))
        state = game.apply(state, move)
    return [f"{name} {' '.join(moves)}" for name, moves in turns]


def compact_board(game: Game, state) -> str:
    """The position on one line (rows joined by ``/``) when it is short, else ``""``."""
    rows = [r.strip() for r in game.render(state).splitlines()]
    text = "/".join(rows)
    return text if len(text) <= 24 else ""


def position_words(game: Game, state) -> str:
    """The position on one line for a game whose cells belong to the players (its layout's
    cells, each side's in the order drawn, the cells that are not moves, such as a store, in
    brackets: ``North 4 4 4 4 4 4 (store 0) · South 4 4 4 4 4 4 (store 0)``), else
    :func:`compact_board`."""
    drawn = layout_of(game)
    if drawn is None:
        return compact_board(game, state)
    houses: dict[int, list[str]] = {}
    others: dict[int, list[str]] = {}
    for line in drawn.layout(state):
        for text, cell in line:
            if cell is None:
                continue
            owner, name = cell
            if owner is None:
                continue
            count = text.strip(" ()[]*")
            if name.isalnum() and len(name) <= 2:
                houses.setdefault(owner, []).append(count)
            else:
                others.setdefault(owner, []).append(f"({name} {count})")
    if not houses:
        return compact_board(game, state)
    seats = seat_names_of(game)
    named = seats.seat_name if seats is not None else game.player_name
    return " · ".join(f"{named(owner)} {' '.join(cells + others.get(owner, []))}" for owner, cells in houses.items())


def _ordinal_range(first: int, last: int) -> str:
    return f"move {first}" if first == last else f"moves {first}-{last}"


class ExplainTracer(Tracer):
    """Collects the alpha-beta tree as indented lines, with every prune in words."""

    def __init__(self, game: Game, emit: Callable[[str], None], prunes_only: bool = False) -> None:
        self.game = game
        self.emit = emit
        self.prunes_only = prunes_only
        self.prunes = 0

    def _indent(self, node: Node) -> str:
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        return "  " * depth

    def _board(self, node: Node, prefix: str = " ") -> str:
        """The node's position on one line after ``prefix``, or ``""`` when it is too long."""
        board = compact_board(self.game, node.state)
        return f"{prefix}{board}" if board else ""

    def _label(self, node: Node) -> str:
        who = self.game.player_name(self.game.to_move(node.state), node.state)
        head = "root" if node.move is None else f"move {node.move}"
        kind = "MAX" if node.maximizing else "MIN"
        return f"{head}{self._board(node)}: {kind} node ({who} to move)"

    def enter(self, node: Node) -> None:
        """Show a node about to be expanded, with the window it received."""
        if not node.leaf and not self.prunes_only:
            self.emit(f"{self._indent(node)}{self._label(node)}, alpha {number(node.alpha)}, beta {number(node.beta)}")

    def leaf(self, node: Node) -> None:
        """Show a leaf's score."""
        if self.prunes_only:
            return
        why = "game over" if node.terminal else "depth limit"
        self.emit(f"{self._indent(node)}move {node.move}{self._board(node)}: score {number(node.value)} ({why})")

    def update(self, node: Node, move, child_value: float) -> None:
        """Show how a child's score changed the node."""
        if self.prunes_only:
            return
        self.emit(
            f"{self._indent(node)}  -> after {move}: value {number(node.value)}, "
            f"alpha {number(node.alpha)}, beta {number(node.beta)}"
        )

    def prune(self, node: Node, skipped: tuple) -> None:
        """Say why the remaining moves cannot matter."""
        if not skipped:  # the cut came with the last move: nothing was skipped
            return
        self.prunes += 1
        self.emit(f"{self._indent(node)}  PRUNE: {prune_reason(node, skipped, self._board(node, ' on '))}")


def prune_reason(node: Node, skipped: tuple, where: str = "") -> str:
    """Why the moves ``skipped`` of ``node`` need not be searched, in words (``where``: an
    optional `` on <board>`` naming the position).  Shared by ``mancala explain`` and the
    web board's search-tree view."""
    total = len(node.moves)
    first = total - len(skipped) + 1
    names = ", ".join(str(m) for m in skipped)
    span = _ordinal_range(first, total)
    if node.maximizing:
        return (
            f"beta is {number(node.beta)}, score is {number(node.value)}: {span} ({names}) of this max "
            f"node{where} are not searched. MIN can already keep the game to {number(node.beta)} "
            f"by avoiding this position, and MAX here gets at least {number(node.value)}, "
            f"so MIN will never let the game come here."
        )
    return (
        f"alpha is {number(node.alpha)}, score is {number(node.value)}: {span} ({names}) of this min "
        f"node{where} are not searched. MAX already has {number(node.alpha)} elsewhere, and MIN "
        f"here can hold MAX to {number(node.value)} or less, so MAX will never come here."
    )


def explain(
    game: Game, state, depth: int, evaluate: Evaluation, emit: Callable[[str], None], prunes_only: bool = False
) -> SearchResult:
    """Run alpha-beta from ``state`` and narrate it through ``emit`` (one line per call)."""
    tracer = ExplainTracer(game, emit, prunes_only)
    result = alphabeta(game, state, depth, evaluate, tracer=tracer)
    line = " ".join(str(m) for m in result.line)
    emit(
        f"Result: best move {result.move}, value {number(result.value)}, principal line {line}; "
        f"{result.nodes} nodes visited, {tracer.prunes} prunes."
    )
    return result


def explain_nodes(game: Game, state, depth: int, evaluate: Evaluation, limit: int) -> int | None:
    """How many nodes :func:`explain` would narrate to ``depth``, counted by a silent search
    that gives up past ``limit`` (None: more than ``limit``)."""
    counter = NodeLimit(limit)
    try:
        alphabeta(game, state, depth, evaluate, tracer=counter)
    except TooManyNodes:
        return None
    return counter.count


def jsonable(value: Any) -> Any:
    """A search value as JSON: infinities as ``"inf"``/``"-inf"``, whole floats as ints."""
    if isinstance(value, float):
        if value == float("inf"):
            return "inf"
        if value == float("-inf"):
            return "-inf"
        if value == int(value):
            return int(value)
        return round(value, 3)
    return value
