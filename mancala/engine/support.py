"""The engine protocol and the engine-support catalogue: what an engine of ours does for a
game, one record a game (:class:`EngineSupport`), registered by the engine package that
serves it (:func:`register_engine`) and asked for by name by the layers above
(:func:`engine_support`).  A new game's engine implements :class:`BestSearch` (and, where it
has them, the other callables of the record) and registers its record from its package's
face, so the players, the levels, the CLI and the server need no table of their own.

Nothing here loads numba: the records' callables import their kernels when first called."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol

from mancala.search.core import SearchResult


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

    def plays(self, game: Any) -> bool:
        """Whether the engine plays ``game``'s rule set."""
        return self.supports is None or self.supports(game)


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
