"""The Kalah engine's public entry points: making it ready (:func:`prepare`), iterative
deepening within a budget (:func:`best_move`), and forgetting its tables (:func:`reset`).
Its memory is :mod:`.tables`, its searcher :mod:`.searcher`, its worker threads :mod:`.jobs`."""

from __future__ import annotations

import threading
import time
from typing import Callable

from mancala.engine import bridge, endgame, kit, tables
from mancala.engine import search as S
from mancala.engine.jobs import Job, run_job
from mancala.engine.searcher import DEFAULT_HW, FULL_DEPTH, Searcher
from mancala.engine.tables import context, database
from mancala.errors import BadInput
from mancala.evaluation.terms import engine_weights
from mancala.games.kalah import SWAP, Kalah, KalahRules, KalahState
from mancala.search.core import SearchResult


def reset() -> None:
    """Drop every context (tables and databases in memory) and the memory bound set by
    :func:`mancala.engine.tables.set_memory_limit`; mostly for tests."""
    tables.drop_all()
    _prepared.clear()


_warm = False
_prepared: set = set()
_prepare_lock = threading.Lock()


def warm_up() -> None:
    """Load (or, the first time on a machine, compile) the search kernels: tiny searches on
    a 1-pit board touching every kernel the engine calls.  Idempotent."""
    global _warm
    if _warm:
        return
    game = Kalah(KalahRules(pits=1, seeds=3))
    state = game.initial_state()
    searcher = Searcher(game, state, use_db=False, megabytes=0.01)
    g, code, _, _ = searcher.run(1, 0)
    searcher.at_least(g + searcher.acc)
    searcher.line(bridge.code_move(game, code))
    searcher.proven_bounds(state)
    searcher.root_tasks()
    S.table_forget_estimates(searcher.ctx.tt, searcher.ctx.words)
    bridge.kernel_moves(game, state)
    tables.drop(searcher.ctx)  # the warm-up's context is of no further use
    _warm = True


def _prepare_key(game: Kalah) -> tuple:
    return bridge.play_key(game.rules), sum(game.initial_state().board)


def is_prepared(game: Kalah) -> bool:
    """Whether the engine is ready to search ``game`` at once: kernels loaded, and this rule
    set's table and endgame database in memory (see :func:`prepare`)."""
    if not _warm or _prepare_key(game) not in _prepared:
        return False
    ctx = tables.held(game)
    return ctx is not None and not ctx.evicted and ctx.db_checked


def prepare(
    game: Kalah,
    *,
    notice: Callable[[], None] | None = None,
    notice_after: float = 0.5,
    seeds: int | None = None,
    progress: bool = False,
) -> float:
    """Make the engine ready for ``game``: load (the first time on a machine, compile) the
    kernels, and make this rule set's table and endgame database (loaded from the cache,
    or built).  Idempotent; returns the seconds it took (0.0 when already ready).

    ``seeds``: the K of the database a solve is about to use.  When it is larger than the
    players' own, that one is made here instead (with its progress bar when ``progress``): a
    first solve would otherwise build the players' database too, on its way to the larger
    one (which extends a smaller file only of its own entry width).

    Searches call it before their clock starts, so that a time budget is spent searching;
    a user interface may call it first to say "preparing the engine (once)…", or pass
    ``notice``, called once if the preparation is still running after ``notice_after``
    seconds.  The work runs in a worker thread (:func:`run_job`): Ctrl-C interrupts the
    wait at once."""
    if not isinstance(game, Kalah):
        raise BadInput(f"the engine plays Kalah only, not {game!r}")
    if is_prepared(game):
        return 0.0
    start = time.perf_counter()

    def work(job: Job) -> None:
        with _prepare_lock:
            warm_up()
            state = game.initial_state()
            total = sum(state.board)
            bridge.check_seeds(game.rules.pits, total)
            ctx = context(game, total)
            larger = seeds if seeds is not None and seeds > endgame.players_seeds(game.rules.pits, total) else None
            database(game, ctx, progress and larger is not None, larger, job.stopped)
            job.check()
            _prepared.add(_prepare_key(game))

    told = [notice is None]

    def tick(job: Job) -> None:
        if notice is not None and not told[0] and time.perf_counter() - start >= notice_after:
            told[0] = True
            notice()

    run_job(work, tick=tick)
    return time.perf_counter() - start


def _swap_choice(game: Kalah, state: KalahState, result: SearchResult) -> SearchResult:
    """At a position where the pie rule's swap is legal: swap when the seat to move is worth
    less than nothing (the swapper then owns the other seat and scores minus its value)."""
    if not state.swap_allowed or result.move is None or -result.value <= result.value:
        return result
    return SearchResult(SWAP, -result.value, (SWAP,) + result.line, result.nodes, result.depth, result.algorithm)


def best_move(
    game: Kalah,
    state: KalahState,
    seconds: float = 1.0,
    *,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    clock: Callable[[], float] | None = None,
    use_db: bool = True,
    hw: int = DEFAULT_HW,
    evaluation: str | None = None,
) -> SearchResult:
    """The engine's move: iterative deepening MTD(f) within ``seconds`` (single-threaded),
    counted after :func:`prepare` (loading kernels and databases is not part of it).

    ``value`` is the final margin expected for the player to move (store minus store);
    it is exact when ``algorithm`` is ``"engine(exact)"`` (the search met no depth
    leaf), else a depth-limited estimate (``"engine(depth d)"``).  The search stops
    cleanly when the budget ends (``seconds``, or ``max_nodes`` nodes, or
    ``max_depth`` turns) and returns the last complete iteration's move, or the move of a
    stopped iteration's last pass that failed high (:func:`_deepen`).  ``clock``
    replaces ``time.perf_counter`` for the between-iteration checks (then only
    ``max_nodes`` stops an iteration midway).  ``evaluation`` (a spec of
    :mod:`mancala.evaluation.terms` with a positive store weight, e.g. ``store:1,extra:0.5``)
    replaces the depth leaves' default estimate (the row difference times ``hw / 4``);
    exact values do not depend on it.
    """
    if evaluation is not None:
        engine_weights(evaluation)  # a bad spec is one line before any work
    if state.finished:
        return SearchResult(None, game.score(state, game.to_move(state)), (), 0, 0, "engine(exact)")
    bridge.relative_board(state)  # the engine's limits, checked before any work
    prepare(game)  # loading kernels and databases does not count against the budget
    return run_job(lambda job: _deepen(job, game, state, seconds, max_depth, max_nodes, clock, use_db, hw, evaluation))


def _deepen(
    job: Job,
    game: Kalah,
    state: KalahState,
    seconds: float,
    max_depth: int | None,
    max_nodes: int | None,
    clock: Callable[[], float] | None,
    use_db: bool,
    hw: int,
    evaluation: str | None = None,
) -> SearchResult:
    """:func:`best_move`'s iterative deepening (the engine kit's :func:`~mancala.engine.kit.deepen`),
    in a job's worker thread: each depth one MTD(f) iteration from the last depth's value.

    The whole budget is spent: a depth the deadline stops still names a move when one of its
    passes failed high (a move proved worth at least that pass's bound at the new depth, the
    best lower bound the deeper search reached), and that move is played."""
    real_clock = clock is None
    searcher = Searcher(game, state, use_db=use_db, hw=hw, job=job, evaluation=evaluation)
    guess = [0]

    def run(depth: int, deadline: float, limit: int, first: int) -> tuple[float, int, bool, bool]:
        node_limit = None if limit == 0 else max(0, limit - searcher.nodes)
        g, code, complete, exact = searcher.run(depth, guess[0], node_limit, deadline if real_clock else 0.0)
        if complete:
            guess[0] = g
        return g, code, complete, exact

    g, code, depth, exact = kit.deepen(
        run,
        lambda: searcher.nodes,
        seconds,
        max_depth if max_depth is not None else FULL_DEPTH,
        max_nodes,
        clock or time.perf_counter,
        partial=True,
    )
    move = bridge.code_move(game, code)
    value = searcher.acc + int(g)
    result = SearchResult(
        move, value, searcher.line(move), searcher.nodes, depth, "engine(exact)" if exact else f"engine(depth {depth})"
    )
    return _swap_choice(game, state, result)
