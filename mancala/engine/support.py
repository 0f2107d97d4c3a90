"""The engine protocol and the engine-support catalogue: what an engine of ours does for a
game, one record a game (:class:`EngineSupport`), registered by the engine package that
serves it (:func:`register_engine`) and asked for by name by the layers above
(:func:`engine_support`).  A new game's engine implements :class:`BestSearch` (and, where it
has them, the other callables of the record) and registers its record from its package's
face, so the players, the levels, the CLI and the server need no table of their own.

Nothing here loads numba: the records' callables import their kernels when first called."""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, cast

from mancala.search.core import SearchResult
from mancala.search.explain import jsonable


class BestSearch(Protocol):
    """An engine's strongest search (``best``): within ``seconds`` of wall time, ``max_depth``
    turns and ``max_nodes`` nodes (None: no such bound); ``evaluation`` a leaf evaluation
    spec where the engine takes one; ``book`` whether opening books and endgame tables may
    answer."""

    def __call__(
        self,
        game: Any,
        state: Any,
        seconds: float,
        max_depth: int | None,
        max_nodes: int | None,
        evaluation: str | None,
        book: bool,
    ) -> SearchResult:
        """The engine's search result for ``state``."""
        ...


class TimedSearch(Protocol):
    """An engine's timed alpha-beta with the game's own evaluation (``alphabeta:time=S``):
    iterative deepening up to ``max_depth`` turns within ``seconds``."""

    def __call__(self, game: Any, state: Any, seconds: float, max_depth: int) -> SearchResult:
        """The engine's search result for ``state``."""
        ...


@dataclass(frozen=True)
class ExactAnswer:
    """A position's exact answer from a game's endgame database: every legal move with the
    mover's final margin after it (best first; the perfect line's first move first among
    equals), a perfect line, and whether the values are
    exact under the game's rules or the table's estimate (see the game's table module)."""

    moves: list
    line: list
    exact: bool
    #: the most seeds on the board the table answers for
    seeds: int
    #: what the values are when not exact (empty: the game's own words for its tables)
    note: str = ""


class MoveValues(Protocol):
    """An engine's table of a position (the analysis layer's): every legal move's value for
    the player to move in the game's units, best first, as :func:`value_row` rows, and the
    best line (moves as text), searched with ``nodes`` nodes (no time limit, the engine's
    table emptied first): the same answer for the same position and budget anywhere."""

    def __call__(self, game: Any, state: Any, nodes: int) -> tuple[list[dict], list[str]]:
        """The rows, best first, and the best line."""
        ...


@dataclass(frozen=True)
class BookAnswer:
    """What an opening book says of a position: each legal move with the book's value for
    the player to move (None where the move's position is not in the book), and the book's
    main line from the position."""

    moves: list
    line: list
    #: whether the values are exact (Kalah's solver book) or a searched book's estimates
    #: (an opening tree, :mod:`mancala.engine.opening_tree`)
    exact: bool = True
    #: for a searched book, the search nodes behind its move here (0: no move of its own here)
    nodes: int = 0


def value_row(
    move: Any, value: float, exact: bool, depth: int, lower: float | None = None, upper: float | None = None
) -> dict:
    """One move's row of a position's table: its value (JSON-ready), whether it is exact,
    and for an estimate the depth searched and the bounds proved on it, where known."""
    row: dict[str, Any] = {"move": str(move), "value": jsonable(float(value)), "exact": bool(exact)}
    if not exact:
        row["depth"] = depth
        if lower is not None and math.isfinite(lower):
            row["lower"] = jsonable(float(lower))
        if upper is not None and math.isfinite(upper):
            row["upper"] = jsonable(float(upper))
    return row


def budget_share(nodes: int, used: int, moves_left: int) -> int:
    """One move's part of a table's budget: what is left, shared by the moves left."""
    return max(1, (nodes - used) // max(1, moves_left))


def final_margin(game: Any, state: Any, player: int) -> float:
    """A finished game's value for ``player``: its final margin (``values_by_search``'s
    ``end_value`` for an engine whose ends are worth their margin)."""
    return float(game.score(state, player))


def without_win(value: float, win: float) -> float:
    """An engine value in the game's units, for an engine whose proven ends are worth ``win``
    beyond their margin: such an end as its margin, an estimate as it is (a record's
    ``value_scale``, with its ``win`` bound by ``functools.partial``)."""
    if value >= win / 2:
        return value - win
    if value <= -win / 2:
        return value + win
    return value


def values_by_search(
    game: Any,
    state: Any,
    nodes: int,
    search: Callable[..., SearchResult],
    searcher: Any,
    end_value: Callable[[Any, Any, int], float],
    scale: Callable[[float], float] = float,
) -> tuple[list[dict], list[str]]:
    """A position's table (:class:`MoveValues`) by one engine search a move: ``search(game,
    child, None, max_nodes=share, searcher=searcher)`` values each child with its share of
    ``nodes`` (``searcher``'s table shared by the moves, fresh for the table),
    ``end_value(game, child, mover)`` a finished one; ``scale`` puts an engine's value in the
    game's units."""
    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    rows, lines, used = [], {}, 0
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        line: tuple[Any, ...] = ()
        if game.is_terminal(child):
            value, exact, depth = end_value(game, child, mover), True, 0
        else:
            result = search(game, child, None, max_nodes=budget_share(nodes, used, len(moves) - i), searcher=searcher)
            used += result.nodes
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = scale(sign * result.value), result.line, result.exact, result.depth
        rows.append(value_row(move, value, exact, depth + 1))
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def table_first_values(
    game: Any,
    state: Any,
    nodes: int,
    *,
    exact: Callable[[Any, Any], ExactAnswer | None],
    engine: Callable[[Any], tuple[Callable[..., SearchResult], Any]],
    scale: Callable[[float], float],
) -> tuple[list[dict], list[str]]:
    """A position's table (:class:`MoveValues`) for an engine with endgame tables: from the
    table in the cache when it holds the position (``exact(game, state)``: every move's final
    margin with perfect play, exact or the table's estimate as the answer says), else every
    move searched by the engine (``engine(game)``: its ``search`` and a fresh searcher, whose
    transposition table the moves share) with its share of ``nodes``, ``scale`` putting the
    engine's values in the game's units.  A record's ``values``, with ``exact``, ``engine``
    and ``scale`` bound by ``functools.partial``: one way for every game with tables."""
    answer = exact(game, state)
    if answer is not None:
        rows = [value_row(m, v, True, 0) | {"exact": answer.exact} for m, v in answer.moves]
        return rows, [str(m) for m in answer.line][:16]
    search, searcher = engine(game)
    return values_by_search(game, state, nodes, search, searcher, final_margin, scale)


class TableModule(Protocol):
    """What ``mancala db build|check`` asks of an engine's endgame tables (a module such as
    :mod:`mancala.engine.oware.endgame`): ``size`` is the most seeds (stones) on the board."""

    #: the game's name in messages (``Oware``) and the unit of a table's size (``seeds``)
    TITLE: str
    UNIT: str

    def check_rules(self, rules: Any, size: int) -> None:
        """Raise ``BadInput`` (one line) when no table of ``size`` is built for ``rules``."""
        ...

    def memory_limit(self) -> int:
        """The memory bound of a build in bytes (``$MANCALA_DB_MEMORY`` or the default)."""
        ...

    def memory_needed(self, rules: Any, size: int) -> int:
        """Bytes a build of ``size`` needs at most."""
        ...

    def build(self, rules: Any, size: int, progress: Any = None, memory: int | None = None) -> Any:
        """Build (or read from the cache) the table; its ``values`` array holds every entry."""
        ...

    def load(self, rules: Any, size: int) -> Any:
        """The table from the cache, or None when a part of it was never built."""
        ...

    def check_sample(self, table: Any, samples: int) -> dict[int, int]:
        """Failures of the table's equations a tier on a sample of each tier (all 0: sound)."""
        ...

    def tier_path(self, rules: Any, tier: int) -> Any:
        """The cache file of one tier."""
        ...

    def tier_positions(self, rules: Any, tier: int) -> int:
        """The positions of one tier (what a build's progress counts its time left by)."""
        ...

    def largest_buildable(self, rules: Any, up_to: int) -> int:
        """The largest size, at most ``up_to``, of a table ``rules`` allow within the memory
        bound; -1 when none."""
        ...


def buildable_size(tables: str, game: Any, seeds: int) -> int:
    """A record's ``table_build`` for an engine whose endgame tables are the module called
    ``tables`` (:class:`TableModule`, imported only now: numba loads when first needed): the
    most seeds (stones) at most ``seeds`` of a table that can be built for ``game``'s rules
    within the memory bound (-1: none).  Bound to the record's ``tables`` by
    ``functools.partial``."""
    module = cast(TableModule, importlib.import_module(tables))
    return module.largest_buildable(game.rules, seeds)


@dataclass(frozen=True)
class EngineSupport:
    """What our engine does for the game called ``game``: only ``best`` is required.

    Callables take the game object first (``game.rules`` picks the rule set)."""

    game: str
    #: the strongest search (``best`` and the hint)
    best: BestSearch
    #: a timed alpha-beta with the game's own evaluation (``alphabeta:time=S``); None: Python's
    timed: TimedSearch | None = None
    #: whether the engine plays ``game``'s rule set (None: every rule set); where it says no,
    #: ``best`` and ``alphabeta:time=`` search in Python as on a game without an engine
    supports: Callable[[Any], bool] | None = None
    #: ``exact(game, state) -> ExactAnswer | None``: the endgame database's answer
    exact: Callable[[Any, Any], ExactAnswer | None] | None = None
    #: ``table_seeds(game) -> int``: the seeds of the largest endgame database on disk (-1: none)
    table_seeds: Callable[[Any], int] | None = None
    #: ``table_build(game, seeds) -> int``: the most seeds (at most ``seeds``) a database built
    #: by ``mancala db build`` can have within the memory bound (-1: none)
    table_build: Callable[[Any, int], int] | None = None
    #: the module of the engine's endgame tables, by name (``mancala db build|check`` imports
    #: it: :class:`TableModule`); empty: none
    tables: str = ""
    #: ``table_proof(game, state, seconds, report) -> bounds | None``: a search down to the
    #: endgame database proving bounds on the value (``report(depth, low, high, nodes)``)
    table_proof: Callable[..., Any] | None = None
    #: whether ``best:eval=SPEC`` sets the engine's leaf evaluation (evaluation terms)
    takes_terms: bool = False
    #: the engine's value of a position in the game's units (seeds): a proven end's bonus off
    value_scale: Callable[[float], float] = float
    #: compiles (or loads numba's cache of) the engine's kernels before a clock starts
    warm_up: Callable[[], None] | None = None
    #: the difficulty levels' player specs on this game (level name -> spec; measured
    #: ladders), where the engine has its own ladder; empty: the generic ladder
    level_budgets: Mapping[str, str] = field(default_factory=dict)
    #: the position's table for the hint, the analysis and the review; None: alpha-beta in
    #: Python, move by move
    values: MoveValues | None = None
    #: about how many nodes the engine searches in a second on this project's 2-core machine:
    #: what a nominal second of an analysis budget is worth (``mancala.analysis.budget``)
    nodes_per_second: int = 0
    #: ``opening_book(game, state) -> BookAnswer | None``: the opening book of the game's rules
    #: (None: no book for these rules), for the explorer
    opening_book: Callable[[Any, Any], BookAnswer | None] | None = None
    #: ``prepare(game, notice) -> seconds``: load the kernels, tables and databases of the
    #: game's rule set before a clock starts, calling ``notice()`` once if that takes more than
    #: a moment; None: ``warm_up``
    prepare: Callable[[Any, Callable[[], None] | None], float] | None = None
    #: whether the engine proves any position by search, with endgame databases of its own
    #: (``mancala solve`` and ``mancala db build`` for Kalah, also on Ray); otherwise a game's
    #: exact answers come from its tables (``exact``)
    solves: bool = False
    #: the (module, function) pairs whose numba cache entries mean the engine is compiled
    #: (:mod:`mancala.engine.readiness`); empty: the ``negamax`` of the ``search`` module in
    #: the record's package
    kernels: tuple[tuple[str, str], ...] = ()
    #: the deepest (turns) the Python alpha-beta searches a move for the engine's players while
    #: the engine compiles (within :data:`mancala.engine.readiness.FALLBACK_SECONDS`): about a
    #: second or two from the start in Python on this project's 2-core machine
    python_depth: int = 6
    #: the size (seeds or stones) of the endgame table built in the background the first time a
    #: person plays a level that reads the table and the cache has none that large
    #: (:mod:`mancala.engine.table_builds`): a few minutes' build on two cores, so a newcomer's
    #: strongest level does not wait for ``mancala db build``; 0: none
    background_size: int = 0
    #: ``has_tables(game) -> bool``: whether ``game``'s rule set has endgame tables at all
    #: (read without loading numba: whether a background build is started); None: every
    #: rule set the engine plays
    has_tables: Callable[[Any], bool] | None = None
    #: drops this process's loaded endgame tables, so the next search reads the cache again
    #: (the tiers a background build finished since: :func:`mancala.engine.table_builds.refresh`)
    reload_tables: Callable[[], None] | None = None

    def plays(self, game: Any) -> bool:
        """Whether the engine plays ``game``'s rule set."""
        return self.supports is None or self.supports(game)

    def table_module(self) -> TableModule | None:
        """The engine's endgame-table module (:attr:`tables`, imported now), or None."""
        if not self.tables:
            return None
        return cast(TableModule, importlib.import_module(self.tables))


_SUPPORT: dict[str, EngineSupport] = {}


def register_engine(record: EngineSupport) -> EngineSupport:
    """Enter ``record`` in the catalogue (a later record for the same game replaces it)."""
    _SUPPORT[record.game] = record
    return record


def engine_support(game: str) -> EngineSupport | None:
    """The engine-support record of the game called ``game``; None: no engine of ours."""
    return _SUPPORT.get(game)


def engine_records() -> tuple[EngineSupport, ...]:
    """Every engine record, in registration order."""
    return tuple(_SUPPORT.values())
