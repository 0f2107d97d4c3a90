"""The one table of a position's move values that the hint, the analysis and the review
all read: every legal move's value for the player to move, best first, exact or an estimate
that names its depth, and the best line."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from mancala.engine import readiness, table_builds
from mancala.engine.support import EngineSupport, budget_share, engine_support, value_row
from mancala.evaluation import default_evaluation
from mancala.games.base import Game
from mancala.games.catalogue import spec_of, traits_of
from mancala.search.core import SearchAborted, alphabeta
from mancala.search.explain import jsonable


def unit(game: Game) -> str:
    """What values count: ``seeds`` (Kalah, Oware: any game whose margin is in seeds), ``eval``
    (Bao), ``outcome`` (tic-tac-toe), as the game's traits declare."""
    return traits_of(game).value_unit


#: the nominal seconds of the position's table that the hint, the analysis and the evaluation
#: bar read, so that they agree on a position (a request may ask for more)
ANALYSIS_SECONDS = 2.0
#: the nominal seconds of one position of a review (a position's table kept with more is read)
REVIEW_SECONDS = 0.2
#: how many nodes a nominal second is worth for a game searched by alpha-beta in Python (an
#: engine's record gives its own); a budget in nodes makes every answer the same for
#: the same position and budget, whatever the machine's load, on every surface
PYTHON_NODES_PER_SECOND = 50_000
#: the largest budget of one table, in nodes
MAX_TABLE_NODES = 200_000_000


@dataclass(frozen=True)
class Table:
    """A position's table: every legal move's value for the player to move, best first
    (``{move, value, exact, depth, lower, upper}``: ``depth``, in turns, names how deep an
    estimate was searched; ``lower`` and ``upper``, where an engine proves them, bound an
    estimate's true value), the best line, and the budget in nodes it was searched with.  The one table
    that the hint, the analysis and the review all read."""

    rows: tuple[dict, ...]
    line: tuple[str, ...]
    nodes: int

    @property
    def exact(self) -> bool:
        """Whether every move's value is proved (more search would change nothing)."""
        return all(r["exact"] for r in self.rows)

    def serves(self, nodes: int) -> bool:
        """Whether this table answers a request of ``nodes``: searched with at least as many,
        or exact."""
        return self.nodes >= nodes or self.exact

    def copy_rows(self) -> list[dict]:
        """The rows, each a fresh dict (a caller may add to them)."""
        return [dict(r) for r in self.rows]


def _value_engine(game: Game) -> EngineSupport | None:
    """The record of the engine that values ``game``'s moves, if one of ours plays its rules
    and is compiled (else the compile starts in the background, and Python's alpha-beta values
    the moves meanwhile: a hint in seconds on a fresh install too)."""
    record = engine_support(game.name)
    if record is None or record.values is None or not record.plays(game):
        return None
    if readiness.python_meanwhile(record):
        readiness.start_compile(record)
        return None
    table_builds.refresh(record, game)  # the tiers a background build finished since
    return record


def budget(game: Game, seconds: float) -> int:
    """The budget in nodes of a request of ``seconds`` nominal seconds on ``game``: its value
    engine's nodes per second (or Python alpha-beta's), at least 1,000 nodes."""
    engine = _value_engine(game)
    rate = engine.nodes_per_second if engine is not None else PYTHON_NODES_PER_SECOND
    return max(1_000, round(min(float(MAX_TABLE_NODES), seconds * rate)))  # (an absurd time: the largest table)


def position_key(game: Game, state) -> tuple:
    """What identifies a position across requests: the game's spec (its rules) and the state."""
    return (spec_of(game), repr(state))


class KeptTables:
    """Positions' tables kept for later requests, the most recently used last, at most
    ``most`` of them: a kept table answers any request it :meth:`~Table.serves`, and a
    newly searched one replaces it only when it serves more."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._tables: OrderedDict[tuple, Table] = OrderedDict()

    def __len__(self) -> int:
        return len(self._tables)

    def find(self, game: Game, state, nodes: int) -> Table | None:
        """The kept table of the position that serves a request of ``nodes``, if any."""
        key = position_key(game, state)
        table = self._tables.get(key)
        if table is None or not table.serves(nodes):
            return None
        self._tables.move_to_end(key)
        return table

    def keep(self, game: Game, state, table: Table) -> Table:
        """Keep ``table`` as the position's unless the kept one serves as much; the one kept."""
        key = position_key(game, state)
        kept = self._tables.get(key)
        if kept is None or not kept.serves(table.nodes):
            self._tables[key] = kept = table
        self._tables.move_to_end(key)
        while len(self._tables) > self.most:
            self._tables.popitem(last=False)
        return kept

    def clear(self) -> None:
        """Drop every kept table."""
        self._tables.clear()


#: the tables this process searched (a worker's, the terminal's, ``mancala analyse``'s)
_kept = KeptTables(512)


def position_values(game: Game, state, nodes: int) -> Table:
    """The position's :class:`Table` searched with ``nodes`` nodes: the same table for the
    same position and budget, in any process.

    Kalah reads the opening book first (the position itself and the positions one move
    on: exact values without a search) and the engine for the other moves, every
    estimate kept at or below the position's proved value; Bao and Oware search every move
    with their engines (Oware reads its endgame database first); other games alpha-beta in
    Python.  A table is kept in the process and given again to any later request it
    :meth:`~Table.serves` (a request with a larger budget searches again and replaces it)."""
    kept = _kept.find(game, state, nodes)
    if kept is not None:
        return kept
    rows, line = _values(game, state, nodes)
    return _kept.keep(game, state, Table(tuple(rows), tuple(line), nodes))


def _values(game: Game, state, nodes: int) -> tuple[list[dict], list[str]]:
    """The rows and best line of a position: its engine's table where an engine of ours plays
    the game's rules, else alpha-beta in Python (its values in the game's units)."""
    engine = _value_engine(game)
    if engine is not None and engine.values is not None:
        return engine.values(game, state, nodes)
    rows, line = _searched_values(game, state, nodes)
    record = engine_support(game.name)
    if record is not None:  # an engine's evaluation in Python: its values in the game's units
        rows = [dict(r, value=jsonable(record.value_scale(float(r["value"])))) for r in rows]
    return rows, line


def forget_positions() -> None:
    """Drop the tables kept by :func:`position_values` (a test starting afresh)."""
    _kept.clear()


def _searched_values(game: Game, state, nodes: int) -> tuple[list[dict], list[str]]:
    """The table of a game without a value engine: every move searched by alpha-beta in
    Python, deepened while its share of ``nodes`` lasts (exact once the search sees only
    finished games)."""
    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    rows, lines, used = [], {}, 0
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        value, line, exact, depth, spent = _deepening_value(
            game, child, mover, evaluate, budget_share(nodes, used, len(moves) - i)
        )
        used += spent
        rows.append(value_row(move, value, exact, depth + 1))
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _deepening_value(game: Game, state, mover: int, evaluate, nodes: int) -> tuple[float, tuple, bool, int, int]:
    """The value of ``state`` for ``mover`` by alpha-beta deepened while ``nodes`` last or
    until the search sees only finished games (the value is then exact): its value, line,
    whether it is exact, the depth searched and the nodes spent.  Depth 1 always completes;
    a deeper search that would pass the budget is dropped (polled every 256 nodes), so the
    answer depends on the budget only."""
    if game.is_terminal(state):
        return evaluate(game, state, mover), (), True, 0, 0
    cut_off = [False]

    def scored(g, s, p):
        if not g.is_terminal(s):
            cut_off[0] = True
        return evaluate(g, s, p)

    sign = 1 if game.to_move(state) == mover else -1
    best: tuple[float, tuple, bool, int] | None = None
    used = 0
    for depth in range(1, 64):
        cut_off[0] = False
        polls = [0]

        def over_budget(polls: list[int] = polls, used: int = used) -> bool:
            polls[0] += 1
            return used + 256 * polls[0] > nodes

        try:
            result = alphabeta(game, state, depth, scored, stop=over_budget if best else None)
        except SearchAborted:
            used += 256 * polls[0]
            break
        used += result.nodes
        best = (sign * result.value, result.line, not cut_off[0], depth)
        if not cut_off[0] or used >= nodes:
            break
    assert best is not None  # depth 1 always completes
    return (*best, used)
