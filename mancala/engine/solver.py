"""Exact solving and move-by-move analysis on top of the engine's kernels."""

from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable, NamedTuple

from mancala.engine import bridge
from mancala.engine.endgame import LARGE_SOLVE_SEEDS, terminal_console
from mancala.engine.engine import prepare
from mancala.engine.jobs import run_job, solve_threads
from mancala.engine.search import BIG
from mancala.engine.searcher import Searcher
from mancala.engine.tables import proof_seeds
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahState

#: iterative deepening gives the full-depth search its first guess and its move order; it
#: stops after an iteration of more than this many nodes (measured on Kalah(6,4) under both
#: rule sets and (5,5): 300 k to 2 M cost within 10 % of each other in all, more is slower)
GUESS_NODES = 300_000
GUESS_DEPTH = 60
#: iterations of at least this many nodes (the previous one's count) run on every thread
PARALLEL_NODES = 20_000
#: the depth leaves' evaluation while solving: the store difference alone (``hw`` 0 quarters
#: of the row difference).  Against the players' default (1) it made the iterative
#: deepening's move order better for the proof: Kalah(6,4) empty capture with a 22-seed
#: database 2.8x faster, with a 16-seed one 1.4x, standard rules 1.3x
SOLVE_HW = 0
#: solves skip the table at nodes with at most K + 3 seeds (K: the database's seeds), the
#: players at K + 1: measured with the greedy move order, Kalah(6,4) empty capture with a
#: 22-seed database proves in 2.3 s against 2.9 s at 1, (5,5) in 2.7 s against 3.3 s; 4-5
#: are no better
SOLVE_TTMIN = 3


@dataclass(frozen=True)
class SolveResult:
    """The exact outcome of a position under perfect play."""

    #: final margin (own store minus the other) for the player to move
    value: int
    #: a best move (None when the game is over)
    move: KalahMove | None
    #: a perfect line: every move keeps the value (extra turns included)
    line: tuple
    #: nodes searched (the line's verification included)
    nodes: int
    seconds: float
    #: of ``seconds``: loading or building the endgame database, and proving the value
    #: (the rest builds the perfect line); of ``nodes``: the value's proof
    setup_seconds: float = 0.0
    proof_seconds: float = 0.0
    proof_nodes: int = 0


def _first_guess(searcher: Searcher, guess: int | None) -> tuple[int, int, bool]:
    """(relative value, move code, exact) of iterative deepening from ``guess`` (absolute;
    None: from 0), stopped once an iteration exceeds :data:`GUESS_NODES`: the full-depth
    search's first guess, or the value itself when an iteration proved it (exact).  A known
    value (``guess`` given) skips the deepening: the guess is the value to confirm."""
    g = (guess if guess is not None else 0) - searcher.acc
    code = -1
    last = 0
    for d in range(1, GUESS_DEPTH + 1 if guess is None else 1):
        before = searcher.nodes
        if last >= PARALLEL_NODES:
            g, code, _, exact = searcher.run_parallel(g, solve_threads(), d)
        else:
            g, code, _, exact = searcher.run(d, g)
        last = searcher.nodes - before
        if exact:
            return g, code, True
        if searcher.nodes - before > GUESS_NODES:
            break
    return g, code, False


def _exact(
    game: Kalah, state: KalahState, guess: int | None = None, searcher: Searcher | None = None
) -> tuple[int, KalahMove, int]:
    """(exact value for the player to move, best move, nodes) of a live position.

    With no ``guess``, iterative deepening supplies one; a known value (a position on
    a perfect line) goes straight to the full-depth search, two cheap passes.  Runs in
    a job's worker thread (:func:`mancala.engine.jobs.run_job`)."""
    searcher = searcher or Searcher(game, state, progress=False, hw=SOLVE_HW, ttmin=SOLVE_TTMIN)
    g, code, exact = _first_guess(searcher, guess)
    if not exact:
        g, code, complete, _ = searcher.run_parallel(g, solve_threads())
        if not complete:  # pragma: no cover - only a stopped job aborts, and that raises
            raise KeyboardInterrupt
    value = searcher.acc + g
    move = bridge.code_move(game, code)
    if state.swap_allowed and -value > value:
        return -value, SWAP, searcher.nodes
    return value, move, searcher.nodes


#: plies of table look-ups (no search) that may prove a perfect line's move
LINE_PROOF_PLIES = 4


def _proved(searcher: Searcher, state: KalahState, t: int, plies: int, lower: bool = True) -> bool:
    """Whether what is already proved (game over, database, ``SOLVED`` table bounds, then
    the same for the positions up to ``plies`` moves on) shows the value of ``state`` for
    its mover to be at least ``t`` (``lower``), or below ``t`` (not ``lower``)."""
    lo, hi = searcher.proven_bounds(state)
    if lower and lo >= t or not lower and hi < t:
        return True
    game = searcher.game
    if (
        plies == 0
        or state.finished
        or (lo >= t if not lower else hi < t)
        or state.swap_allowed
        or bridge.root_flags(game, state) != 0
    ):
        return False  # (under the pie rule a value is no negamax of its children's)
    mover = game.to_move(state)
    for m in game.legal_moves(state):
        child = game.apply(state, m)
        if game.to_move(child) == mover:
            ok = _proved(searcher, child, t, plies - 1, lower)
        else:
            ok = _proved(searcher, child, -t + 1, plies - 1, not lower)
        if lower and ok:
            return True
        if not lower and not ok:
            return False
    return not lower


def _line_move(game: Kalah, state: KalahState, value: int) -> tuple[KalahMove, int]:
    """A move keeping ``value`` (the exact value of ``state`` for its mover), and the nodes
    spent: a move that what is already proved shows to keep it (:func:`_proved`, no
    search), else one null-window pass at ``value`` (its cut move is a perfect move);
    positions where the pie rule's swap is legal are solved in full."""
    move: KalahMove | None
    if state.swap_allowed:
        v, move, nodes = _exact(game, state, value)
    else:
        searcher = Searcher(game, state, progress=False, hw=SOLVE_HW, ttmin=SOLVE_TTMIN)
        # a move whose child the table (or the database) already proves good enough: the
        # value proof's entries near the line outlive the deeper parts of its subtrees
        mover = game.to_move(state)
        for m in game.legal_moves(state):
            child = game.apply(state, m)
            if (
                _proved(searcher, child, value, LINE_PROOF_PLIES)
                if game.to_move(child) == mover
                else _proved(searcher, child, -value + 1, LINE_PROOF_PLIES, False)
            ):
                return m, 0
        code = searcher.at_least(value)
        nodes = searcher.nodes
        move = bridge.code_move(game, code) if code >= 0 else None
        v = value
    if move is None or v != value:  # pragma: no cover - would mean a search bug
        raise RuntimeError(f"the perfect line lost its value {value} at {state}")
    return move, nodes


def solve_positions(state: KalahState) -> int:
    """About how large a proof of ``state`` is: the positions the seeds in its pits can form
    (each way of spreading at most that many seeds over the pits of both rows), the estimate
    ``mancala solve`` compares with :data:`MAX_SOLVE_POSITIONS` before it starts."""
    pits = 2 * state.pits
    return math.comb(sum(state.row(0)) + sum(state.row(1)) + pits, pits)


#: the largest proof ``mancala solve`` starts without ``--no-limit``: standard Kalah(6,4) from
#: its start (48 seeds in 12 pits, about 1.4e12 positions), which proves here in one to four
#: minutes; (6,5) is ten times as many, (6,6) eighty, and each takes far longer than that
MAX_SOLVE_POSITIONS = math.comb(48 + 12, 12)

#: seeds in the pits up to which a solve's table is :data:`SMALL_SOLVE_MB` (Kalah(6,4), (5,5))
SMALL_SOLVE_SEEDS = 50
SMALL_SOLVE_MB = 128


def solve_table_megabytes(seeds: int) -> float:
    """The table a solve of a position with ``seeds`` in the pits asks for:
    ``$MANCALA_TT_MB`` when set, else 1/16 of the machine's memory, 64 MB to 1 GB, and
    at most 128 MB up to 50 seeds.  A solve maps its whole table first (a second per
    800 MB on the test machine, :mod:`mancala.engine.pages`); with the 20-seed database
    ``solve`` builds, Kalah(6,4) proves in the same number of nodes with 128 MB as with
    256 MB (21.5 M with empty capture, 57 M standard) or 1 GB, so the smaller table only
    saves the time of mapping it."""
    env = os.environ.get("MANCALA_TT_MB")
    if env:
        return float(env)
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (ValueError, OSError, AttributeError):
        total = 4096
    cap = SMALL_SOLVE_MB if seeds <= SMALL_SOLVE_SEEDS else 1024
    return float(min(cap, max(64, total / 16)))


def _solver_searcher(
    game: Kalah,
    state: KalahState,
    job,
    endgame_seeds: int | None,
    megabytes: float | None = None,
    progress: bool = False,
) -> Searcher:
    """A searcher set as a proof wants it: the store difference at the depth leaves
    (:data:`SOLVE_HW`), the table skipped near the database (:data:`SOLVE_TTMIN`), the
    database of ``endgame_seeds`` and a table sized for the seeds in play (unless
    ``megabytes``)."""
    seeds = sum(state.row(0)) + sum(state.row(1))
    return Searcher(
        game,
        state,
        progress=progress,
        db_seeds=endgame_seeds,
        job=job,
        hw=SOLVE_HW,
        ttmin=SOLVE_TTMIN,
        megabytes=megabytes if megabytes is not None else solve_table_megabytes(seeds),
    )


def solve(
    game: Kalah,
    state: KalahState,
    progress: bool = True,
    *,
    endgame_seeds: int | None = None,
    megabytes: float | None = None,
    notice: Callable[[], None] | None = None,
) -> SolveResult:
    """Solve ``state`` exactly: MTD(f) with iterative deepening for the first guess, then to
    the end of the game, with the endgame database; then a perfect line, each of its
    moves read from the proof left in the table (or, where it was lost, re-proved).
    ``progress`` shows a live node count (rich) on stderr when it is a terminal, and the
    database build's progress bar.
    ``endgame_seeds`` asks for a database of at least that many seeds (default:
    :func:`mancala.engine.endgame.solve_seeds`, e.g. 20 for Kalah(6,4): the database
    the players build in the background too, with which a warm solve is fastest).
    ``notice`` is called once if readying the engine (:func:`mancala.engine.prepare`: the
    kernels, and this database when it is larger than the players') takes more than a
    moment.  The work runs in a worker thread: Ctrl-C stops it at once (KeyboardInterrupt)."""
    start = time.perf_counter()
    if state.finished:
        return SolveResult(game.score(state, game.to_move(state)), None, (), 0, 0.0)
    bridge.relative_board(state)  # the engine's limits, checked before any work
    seeds = sum(state.row(0)) + sum(state.row(1))
    if endgame_seeds is None:
        endgame_seeds = proof_seeds(game, seeds)
    prepare(game, seeds=endgame_seeds, progress=progress, notice=notice)
    console = terminal_console() if progress else None
    shown: dict = {}
    proving = threading.Event()

    def tick(job) -> None:
        if console is None or not proving.is_set():
            return
        if "bar" not in shown:
            from rich.progress import (  # noqa: PLC0415 (rich: only when a terminal watches)
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            bar = Progress(
                SpinnerColumn(),
                TextColumn("solving: {task.fields[nodes]:,} nodes"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            bar.start()
            shown["bar"], shown["task"] = bar, bar.add_task("solve", nodes=0, total=None)
        shown["bar"].update(shown["task"], nodes=job.nodes())

    def work(job) -> SolveResult:
        searcher = _solver_searcher(game, state, job, endgame_seeds, megabytes, progress=progress)
        with searcher.lease() as (ctx, _, _):
            # a solve starts from an empty table (old proofs would crowd it); a big proof will
            # touch all of it, so it is mapped at once (a small one maps only what it uses)
            ctx.clear(touch=seeds >= LARGE_SOLVE_SEEDS)
        setup = time.perf_counter() - start
        proving.set()
        value, move, nodes = _exact(game, state, None, searcher)
        proof = time.perf_counter() - start - setup
        total = nodes
        line = [move]
        current, expect = game.apply(state, move), value
        mover = game.to_move(state)
        while not current.finished and len(line) < 400:
            job.check()
            sign = 1 if game.to_move(current) == mover else -1
            m, k = _line_move(game, current, sign * expect)
            total += k
            line.append(m)
            current = game.apply(current, m)
        return SolveResult(value, move, tuple(line), total, time.perf_counter() - start, setup, proof, nodes)

    try:
        return run_job(work, tick=tick)
    finally:
        if "bar" in shown:
            shown["bar"].stop()


def prove(game: Kalah, state: KalahState, *, endgame_seeds: int | None = None) -> tuple[int, int]:
    """(exact value for the player to move, nodes) of a live position: :func:`solve`'s proof
    without its perfect line, quietly (a Ray task of a distributed proof runs it)."""
    bridge.relative_board(state)
    seeds = sum(state.row(0)) + sum(state.row(1))
    if endgame_seeds is None:
        endgame_seeds = proof_seeds(game, seeds)
    prepare(game, seeds=endgame_seeds)

    def work(job) -> tuple[int, int]:
        searcher = _solver_searcher(game, state, job, endgame_seeds, None)
        with searcher.lease() as (ctx, _, _):
            ctx.clear(touch=seeds >= LARGE_SOLVE_SEEDS)
        value, _, nodes = _exact(game, state, None, searcher)
        return value, nodes

    return run_job(work)


def first_guess(game: Kalah, state: KalahState, *, endgame_seeds: int, megabytes: float | None = None) -> int:
    """The solver's first guess of the value of the live position ``state`` for its mover (its
    short iterative deepening, :data:`GUESS_NODES`), the value itself when that proves it; the
    table is not cleared.  A split proof's passes start from it."""
    bridge.relative_board(state)
    prepare(game, seeds=endgame_seeds)

    def work(job) -> int:
        searcher = _solver_searcher(game, state, job, endgame_seeds, megabytes)
        g, _, _ = _first_guess(searcher, None)
        return searcher.acc + g

    return run_job(work)


def prove_window(
    game: Kalah,
    state: KalahState,
    alpha: float,
    beta: float,
    *,
    endgame_seeds: int,
    known: tuple[float, float] = (-math.inf, math.inf),
    megabytes: float | None = None,
) -> tuple[float, float, int]:
    """Bounds ``(lower, upper)`` proved on the value of the live position ``state`` for its
    mover, and the nodes spent: exact (equal) when the value lies strictly between ``alpha``
    and ``beta`` (either may be infinite), else at least one side decides the window
    (``upper <= alpha`` or ``lower >= beta``).  A split proof's sub-proof (see
    :mod:`mancala.engine.split_proof`): once a sibling has a value, this one needs only to be
    shown no better.  ``known``: bounds proved before, where the passes start.  The table is
    not cleared: a split proof's sub-proofs share it.  A position where the pie rule's swap is
    legal, or under a first-move rule, is proved exactly.  A window open on a side starts from
    the solver's iterative deepening, a closed one (a split's null window) from its upper end,
    without.  Ctrl-C stops it (KeyboardInterrupt)."""
    bridge.relative_board(state)
    prepare(game, seeds=endgame_seeds)

    def rel(v: float, acc: int) -> int:
        return -BIG if v == -math.inf else BIG if v == math.inf else int(v) - acc

    def back(v: int, acc: int) -> float:
        return -math.inf if v <= -BIG else math.inf if v >= BIG else float(v + acc)

    def work(job) -> tuple[float, float, int]:
        searcher = _solver_searcher(game, state, job, endgame_seeds, megabytes)
        if state.swap_allowed or searcher.flags != 0:
            value, _, nodes = _exact(game, state, None, searcher)
            return float(value), float(value), nodes
        acc = searcher.acc
        if math.isinf(alpha) or math.isinf(beta):  # a wide window: the deepening's guess first
            g, _, exact = _first_guess(searcher, None)
            if exact:
                v = float(acc + g)
                return v, v, searcher.nodes
        else:  # a narrow one (a split's null window): its test is the first pass
            g = rel(beta, acc)
        lo, hi = searcher.window(
            g, rel(alpha, acc), rel(beta, acc), solve_threads(), (rel(known[0], acc), rel(known[1], acc))
        )
        return back(lo, acc), back(hi, acc), searcher.nodes

    return run_job(work)


INF = float("inf")


class MoveValue(NamedTuple):
    """One legal move's value for the player to move (its final store difference after
    that move, with the best play the search found), and what is proved about it."""

    move: KalahMove
    #: the exact value, or the deepest search's estimate (kept within the proven bounds)
    value: float
    #: whether ``value`` is proved (then ``lower == upper == value``)
    exact: bool
    #: bounds proved on the exact value (-inf/inf when nothing is proved that way)
    lower: float = -INF
    upper: float = INF
    #: turns searched after the move by the deepest complete search (0: not searched)
    depth: int = 0


class Analysis(list):
    """:func:`analyse`'s answer: a list of :class:`MoveValue`, best first, plus ``line``
    (the best move's principal line), ``nodes`` and ``seconds`` (search time)."""

    line: tuple = ()
    nodes: int = 0
    seconds: float = 0.0


@dataclass
class _RootMove:
    """One root move under analysis: its position and what is known of its value."""

    move: KalahMove
    child: KalahState
    #: +1 when the mover moves again after it, -1 when the turn passes
    sign: int
    searcher: Searcher | None = None
    lower: float = -INF
    upper: float = INF
    estimate: float = 0.0
    depth: int = 0
    guess: int = 0
    code: int = -1

    def value(self) -> float:
        """The estimate kept within the proven bounds (the exact value once proved)."""
        return min(max(self.estimate, self.lower), self.upper)

    def search(self) -> Searcher:
        """Its searcher (made when the analysis starts)."""
        assert self.searcher is not None, "the root move's searcher is made first"
        return self.searcher

    def to_root(self, v: float) -> float:
        """The root mover's value of the child's value ``v`` (absolute, without a swap)."""
        return self.sign * (abs(v) if self.child.swap_allowed else v)

    def learn(self) -> None:
        """Take in the bounds the searcher's exact passes proved so far."""
        s = self.search()
        plo, phi = s.proven
        lo = s.acc + plo if plo > -BIG else -INF
        hi = s.acc + phi if phi < BIG else INF
        if self.child.swap_allowed:  # the child's mover swaps when that is worth more: |v|
            lo, hi = (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
        if self.sign < 0:
            lo, hi = -hi, -lo
        self.lower = max(self.lower, lo)
        self.upper = min(self.upper, hi)


def analyse(
    game: Kalah, state: KalahState, seconds: float = 1.0, *, max_nodes: int | None = None, fresh: bool = False
) -> Analysis:
    """A value for every legal move of ``state`` (the mover's final margin after it, exact
    where proved), best first, and the best move's line, within ``seconds`` of search
    (after :func:`mancala.engine.prepare`) or ``max_nodes`` nodes.

    The moves are deepened together, one depth at a time, the moves that may still be
    the best first (those whose proven upper bound is above every other move's proven
    lower bound); a move is searched no more once its value is proved.  Each estimate is
    kept within its proven bounds, so the move named best is never below another move's
    proven value.  Ctrl-C stops it at once (KeyboardInterrupt)."""
    if state.finished:
        return Analysis()
    bridge.relative_board(state)  # the engine's limits, checked before any work
    prepare(game)
    return run_job(lambda job: _analyse(job, game, state, seconds, max_nodes, fresh))


def _analyse(
    job, game: Kalah, state: KalahState, seconds: float, max_nodes: int | None, fresh: bool = False
) -> Analysis:
    """:func:`analyse`'s search, in a job's worker thread."""
    start = time.perf_counter()
    deadline = start + seconds
    mover = game.to_move(state)
    roots: list[_RootMove] = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        r = _RootMove(move, child, 1 if game.to_move(child) == mover else -1)
        if child.finished:
            r.lower = r.upper = r.estimate = game.score(child, mover)
        else:
            r.searcher = Searcher(game, child, job=job)
        roots.append(r)
    if fresh:
        first = next((r.searcher for r in roots if r.searcher is not None), None)
        if first is not None:
            with first.lease() as (ctx, *_):
                ctx.clear()

    def nodes() -> int:
        return sum(r.searcher.nodes for r in roots if r.searcher is not None)

    depth = 0
    out_of_budget = False
    while not out_of_budget:
        pending = [r for r in roots if r.lower < r.upper]
        if not pending:
            break
        depth += 1
        best_lower = max(r.lower for r in roots)
        holder = max(roots, key=lambda r: (r.lower, r.value()))
        # the moves that may still be the best first, each group by its current value
        pending.sort(key=lambda r: (r is not holder and r.upper <= best_lower, -r.value()))
        for r in pending:
            timed = depth > 1  # the first depth always completes: every move gets a value
            left = None if max_nodes is None else max_nodes - nodes()
            if timed and (time.perf_counter() >= deadline or (left is not None and left <= 0)):
                out_of_budget = True
                break
            g, code, complete, exact = r.search().run(
                depth, r.guess, left if timed else None, deadline if timed else 0.0
            )
            r.learn()
            if not complete:
                out_of_budget = True
                break
            r.guess, r.code, r.depth = g, code, depth
            r.estimate = r.to_root(r.search().acc + g)
            if exact:
                r.lower = r.upper = r.estimate
    out = Analysis()
    for r in roots:
        out.append(MoveValue(r.move, r.value(), r.lower == r.upper, r.lower, r.upper, r.depth))
    out.sort(key=lambda m: (-m.value, not m.exact, -m.lower))
    best = next(r for r in roots if r.move == out[0].move)
    out.line = _root_line(game, best)
    out.nodes = nodes()
    out.seconds = time.perf_counter() - start
    return out


def _root_line(game: Kalah, r: _RootMove) -> tuple:
    """The principal line through root move ``r``: the move, then the child's search line
    (``swap`` first when the child's mover swaps)."""
    if r.searcher is None or r.code < 0:
        return (r.move,)
    first = bridge.code_move(game, r.code)
    if r.child.swap_allowed:
        v = r.searcher.acc + r.guess
        if -v > v:
            return (r.move, SWAP)
    return (r.move,) + r.searcher.line(first)
