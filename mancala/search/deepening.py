"""Iterative deepening: alpha-beta at depth 1, 2, 3, ... within a time budget, the previous
iteration's best move searched first; an iteration cut short by the clock is discarded."""

from __future__ import annotations

import time
from typing import Callable

from mancala.games.base import Game
from mancala.search.core import Evaluation, SearchAborted, SearchResult, alphabeta


def iterative_deepening(
    game: Game,
    state,
    seconds: float,
    evaluate: Evaluation,
    *,
    max_depth: int = 64,
    clock: Callable[[], float] = time.monotonic,
) -> SearchResult:
    """Alpha-beta at depth 1, 2, 3, ... until ``seconds`` run out; the result of the deepest
    complete iteration.  Depth 1 always completes.  Stops early once a search scored
    only finished games (its value is then exact)."""
    deadline = clock() + seconds
    stop = lambda: clock() >= deadline  # noqa: E731
    cut_off = [False]  # whether the last search scored any unfinished position

    def scored(game_, state_, player_):
        if not game_.is_terminal(state_):
            cut_off[0] = True
        return evaluate(game_, state_, player_)

    best = alphabeta(game, state, 1, scored)
    for depth in range(2, max_depth + 1):
        if stop() or not cut_off[0]:
            break
        first = best.move

        def pv_first(game_, state_, moves, _root=state, _first=first):
            if state_ is _root and _first in moves:
                return (_first,) + tuple(m for m in moves if m != _first)
            return moves

        cut_off[0] = False
        try:
            result = alphabeta(game, state, depth, scored, order=pv_first, stop=stop)
        except SearchAborted:
            break
        best = SearchResult(result.move, result.value, result.line, result.nodes, depth, "iterative-deepening")
    return best
