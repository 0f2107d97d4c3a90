"""Exact solving and move-by-move analysis on top of the engine's kernels."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

from mancala.engine import bridge
from mancala.engine.engine import Searcher, best_move, solve_threads
from mancala.engine.endgame import solve_seeds
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahState

#: iterative deepening gives the full-depth search its first guess; it stops after an
#: iteration of more than this many nodes (a guess off by k costs k extra full passes)
GUESS_NODES = 2_000_000
GUESS_DEPTH = 60


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


def _exact(game: Kalah, state: KalahState, guess: int | None = None, searcher: Searcher | None = None,
           progress=None) -> tuple[int, KalahMove, int]:
    """(exact value for the player to move, best move, nodes) of a live position.

    With no ``guess``, iterative deepening supplies one; a known value (a position on
    a perfect line) goes straight to the full-depth search, two cheap passes."""
    searcher = searcher or Searcher(game, state, progress=False)
    rel_guess = (guess if guess is not None else 0) - searcher.acc
    box: dict = {}

    def work() -> None:
        try:
            g = rel_guess
            for d in range(1, GUESS_DEPTH + 1 if guess is None else 1):
                before = searcher.nodes
                g, code, _, exact = searcher.run(d, g)
                if exact:
                    box["r"] = (g, code)
                    return
                if searcher.nodes - before > GUESS_NODES:
                    break
            g, code, complete, exact = searcher.run_parallel(g, solve_threads())
            if complete:
                box["r"] = (g, code)
        except BaseException as e:  # pragma: no cover - surfaced below
            box["e"] = e

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.2)
            if progress is not None:
                progress(searcher.nodes)
    except KeyboardInterrupt:
        searcher.abort()
        thread.join()
        raise
    if "e" in box:
        raise box["e"]
    g, code = box["r"]
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
    if (plies == 0 or state.finished or (lo >= t if not lower else hi < t)
            or state.swap_allowed or bridge.root_flags(game, state) != 0):
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


def _line_move(game: Kalah, state: KalahState, value: int, progress=None) -> tuple[KalahMove, int]:
    """A move keeping ``value`` (the exact value of ``state`` for its mover), and the nodes
    spent: a move that what is already proved shows to keep it (:func:`_proved`, no
    search), else one null-window pass at ``value`` (its cut move is a perfect move);
    positions where the pie rule's swap is legal are solved in full."""
    if state.swap_allowed:
        v, move, nodes = _exact(game, state, value, None, progress)
    else:
        searcher = Searcher(game, state, progress=False)
        # a move whose child the table (or the database) already proves good enough: the
        # value proof's entries near the line outlive the deeper parts of its subtrees
        mover = game.to_move(state)
        for m in game.legal_moves(state):
            child = game.apply(state, m)
            if (_proved(searcher, child, value, LINE_PROOF_PLIES) if game.to_move(child) == mover
                    else _proved(searcher, child, -value + 1, LINE_PROOF_PLIES, False)):
                return m, 0
        code = searcher.at_least(value)
        nodes = searcher.nodes
        move = bridge.code_move(game, code) if code >= 0 else None
        v = value
    if move is None or v != value:  # pragma: no cover - would mean a search bug
        raise RuntimeError(f"the perfect line lost its value {value} at {state}")
    return move, nodes


def solve_table_megabytes() -> float:
    """The table a solve asks for: ``$MANCALA_TT_MB`` when set, else 1/16 of the machine's
    memory, 64 MB to 1 GB.  (Kalah(6,4) needs 92 M nodes with 1 GB, 138 M with 256 MB.)"""
    env = os.environ.get("MANCALA_TT_MB")
    if env:
        return float(env)
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 20
    except (ValueError, OSError, AttributeError):
        total = 4096
    return float(min(1024, max(64, total / 16)))


def solve(game: Kalah, state: KalahState, progress: bool = True, *, endgame_seeds: int | None = None,
          megabytes: float | None = None) -> SolveResult:
    """Solve ``state`` exactly: MTD(f) with iterative deepening for the first guess, then to
    the end of the game, with the endgame database; then a perfect line, each of its
    moves read from the proof left in the table (or, where it was lost, re-proved).
    ``progress`` shows a live node count (rich) on stderr, and the database build's
    progress bar.
    ``endgame_seeds`` asks for a database of at least that many seeds (default:
    :func:`mancala.engine.endgame.solve_seeds`, e.g. 16 for Kalah(6,4), which solves
    fastest with it)."""
    start = time.perf_counter()
    if state.finished:
        return SolveResult(game.score(state, game.to_move(state)), None, (), 0, 0.0)
    if endgame_seeds is None:
        endgame_seeds = solve_seeds(game.rules.pits, sum(state.row(0)) + sum(state.row(1)))
    bar = None
    update = None
    if progress:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        bar = Progress(SpinnerColumn(), TextColumn("solving: {task.fields[nodes]:,} nodes"), TimeElapsedColumn(),
                       console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task("solve", nodes=0, total=None)
        done = [0]

        def update(nodes: int) -> None:
            bar.update(task, nodes=done[0] + nodes)
    try:
        searcher = Searcher(game, state, progress=progress, db_seeds=endgame_seeds,
                            megabytes=megabytes if megabytes is not None else solve_table_megabytes())
        searcher.ctx.clear()  # a solve starts from an empty table: old proofs would crowd it
        setup = time.perf_counter() - start
        value, move, nodes = _exact(game, state, None, searcher, update)
        proof = time.perf_counter() - start - setup
        total = nodes
        line = [move]
        current, expect = game.apply(state, move), value
        mover = game.to_move(state)
        while not current.finished and len(line) < 400:
            sign = 1 if game.to_move(current) == mover else -1
            if progress:
                done[0] = total
            m, k = _line_move(game, current, sign * expect, update)
            total += k
            line.append(m)
            current = game.apply(current, m)
    finally:
        if bar is not None:
            bar.stop()
    return SolveResult(value, move, tuple(line), total, time.perf_counter() - start, setup, proof, nodes)


class MoveValue(NamedTuple):
    """One legal move's value for the player to move, and whether it is exact."""

    move: KalahMove
    value: float
    exact: bool


class Analysis(list):
    """:func:`analyse`'s answer: a list of :class:`MoveValue`, best first, plus ``line``
    (the best move's principal line) and ``nodes``."""

    line: tuple = ()
    nodes: int = 0


def analyse(game: Kalah, state: KalahState, seconds: float = 1.0) -> Analysis:
    """A value for every legal move (the mover's final margin after it, searched for an
    equal share of ``seconds``; exact when solved), best first, and the best line."""
    out = Analysis()
    if state.finished:
        return out
    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    lines = {}
    deadline = time.perf_counter() + seconds
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        if child.finished:
            out.append(MoveValue(move, game.score(child, mover), True))
            lines[move] = (move,)
            continue
        share = max(0.01, (deadline - time.perf_counter()) / (len(moves) - i))
        r = best_move(game, child, share)
        sign = 1 if game.to_move(child) == mover else -1
        out.append(MoveValue(move, sign * r.value, r.algorithm == "engine(exact)"))
        lines[move] = (move,) + tuple(r.line)
        out.nodes += r.nodes
    out.sort(key=lambda mv: -mv.value)
    out.line = lines[out[0].move]
    return out
