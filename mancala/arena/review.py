"""Reviewing a saved Kalah game with the engine: every move's value against the best
move's, and the turning points (the biggest mistakes), exact where the engine proves it.

:func:`review_game` returns data (:class:`GameReview`, JSON-ready with ``to_dict``) for
the command line (``mancala analyse GAME.json``) and the web server alike;
:func:`review_lines` and :func:`analysis_lines` are the command line's text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, cast

from mancala.errors import BadInput
from mancala.games.kalah import Kalah, KalahMove, KalahState
from mancala.record import GameRecord

#: share of the time budget a forced move (the only legal one) gets: its value is still
#: worth knowing, but there is no choice to judge
FORCED_SHARE = 0.25


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game, judged from its mover's side (values are the mover's
    final store difference with best play from then on)."""

    #: 1 for the game's first move
    number: int
    #: the mover's seat (0 South, 1 North) and player (0 the first player)
    seat: int
    player: int
    move: KalahMove
    #: the played move's value, and whether it is proved
    value: float
    exact: bool
    #: the best move found, its value, and whether that is proved
    best: KalahMove
    best_value: float
    best_exact: bool
    #: ``best_value - value`` (0 when the played move is as good as the best found)
    loss: float
    #: the part of the loss that is proved (best move's proven lower bound minus the played
    #: move's proven upper bound; 0 when nothing is proved)
    proven_loss: float
    #: whether the move was the only legal one
    forced: bool

    def to_dict(self) -> dict:
        """JSON-ready data (moves as text)."""
        return {
            "number": self.number,
            "seat": self.seat,
            "player": self.player,
            "move": str(self.move),
            "value": self.value,
            "exact": self.exact,
            "best": str(self.best),
            "best_value": self.best_value,
            "best_exact": self.best_exact,
            "loss": self.loss,
            "proven_loss": self.proven_loss,
            "forced": self.forced,
        }


@dataclass
class GameReview:
    """:func:`review_game`'s answer: one :class:`MoveReview` per move played (in order)."""

    game: Kalah
    players: list[str]
    moves: list[MoveReview] = field(default_factory=list)
    #: nodes searched and seconds spent searching
    nodes: int = 0
    seconds: float = 0.0

    def turning_points(self, count: int = 3) -> list[MoveReview]:
        """The ``count`` biggest mistakes (moves that lost value), biggest first."""
        lost = [m for m in self.moves if m.loss > 0]
        return sorted(lost, key=lambda m: (-m.loss, -m.proven_loss, m.number))[:count]

    def to_dict(self) -> dict:
        """JSON-ready data."""
        return {
            "players": list(self.players),
            "moves": [m.to_dict() for m in self.moves],
            "turning_points": [m.number for m in self.turning_points()],
            "nodes": self.nodes,
            "seconds": self.seconds,
        }


def review_game(
    record: GameRecord,
    seconds: float = 1.0,
    *,
    max_nodes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review every move of ``record`` (a Kalah game): analyse each position where a move
    was played (:func:`mancala.engine.analyse`, ``seconds`` or ``max_nodes`` each; a
    forced move gets a quarter), from the last position back to the first so that the
    endgame's proofs help the earlier positions.  ``progress(done, total)`` is called
    after each position (from the engine's worker thread).  Ctrl-C stops it at once."""
    from mancala.engine import analyse, prepare  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.jobs import run_job  # noqa: PLC0415 (numba loads only when needed)

    if record.game.name != "kalah":  # the engine's analysis is Kalah's
        raise BadInput(f"the engine reviews Kalah games only, not {record.game!r}")
    game = cast(Kalah, record.game)  # asked by name above
    if not seconds > 0:
        raise BadInput(f"the time for each position must be more than 0 seconds, got {seconds}")
    states = record.states()
    played = [(i, states[i], move) for i, move in enumerate(record.moves)]
    prepare(game)

    def work(job) -> GameReview:
        review = GameReview(game, list(record.players))
        found: dict[int, MoveReview] = {}
        for done, (i, state, move) in enumerate(reversed(played), 1):
            found[i] = _judge(game, state, move, i + 1, seconds, max_nodes, analyse, review)
            if progress is not None:
                progress(done, len(played))
        review.moves = [found[i] for i, _, _ in played]
        return review

    return run_job(work)


def _judge(
    game: Kalah,
    state: KalahState,
    move: KalahMove,
    number: int,
    seconds: float,
    max_nodes: int | None,
    analyse,
    review: GameReview,
) -> MoveReview:
    """The review of ``move`` played in ``state``."""
    forced = len(game.legal_moves(state)) == 1
    share = FORCED_SHARE if forced else 1.0
    table = analyse(
        game, state, seconds * share, max_nodes=None if max_nodes is None else max(1, int(max_nodes * share))
    )
    review.nodes += table.nodes
    review.seconds += table.seconds
    best = table[0]
    mine = next(mv for mv in table if mv.move == move)
    proven = best.lower - mine.upper if math.isfinite(best.lower) and math.isfinite(mine.upper) else 0
    return MoveReview(
        number,
        state.seat,
        game.to_move(state),
        move,
        mine.value,
        mine.exact,
        best.move,
        best.value,
        best.exact,
        max(0, best.value - mine.value),
        max(0, proven),
        forced,
    )


def _value(v: float, exact: bool) -> str:
    return f"{v:+g}" + ("" if exact else "~")


def analysis_lines(game: Kalah, state: KalahState, table) -> list[str]:
    """The text of one position's analysis (``mancala analyse --position``/``--last``)."""
    depth = max((m.depth for m in table if not m.exact), default=0)
    searched = f"; estimates searched {depth} turns deep" if depth else ""
    lines = [
        f"{game.seat_name(state.seat)} to move; values are its final store difference with best play "
        f"(exact: proved{searched}):"
    ]
    for mv in table:
        if mv.exact:
            what = "exact"
        else:
            bounds = []
            if math.isfinite(mv.lower):
                bounds.append(f"at least {mv.lower:+g}")
            if math.isfinite(mv.upper):
                bounds.append(f"at most {mv.upper:+g}")
            what = "estimate" + (f" (proved {' and '.join(bounds)})" if bounds else "")
        lines.append(f"  {str(mv.move):>5}  {mv.value:+g}  {what}")
    lines.append("best line: " + " ".join(str(m) for m in table.line))
    return lines


def review_lines(review: GameReview, seconds: float) -> list[str]:
    """The text of a game review (``mancala analyse GAME.json``)."""
    game = review.game
    out = [
        f"Review of {game!r}: {len(review.moves)} move{'s' if len(review.moves) != 1 else ''}, {seconds:g} s a position. Values are the mover's "
        f"final store difference with best play; ~ marks an estimate, the rest is proved."
    ]
    out.append(f"{'move':>4}  {'player':<22} {'played':>6} {'value':>6}  {'best':>5} {'value':>6}  {'lost':>5}")
    for m in review.moves:
        who = (
            f"{game.seat_name(m.seat)} ({review.players[m.player]})"
            if m.player < len(review.players)
            else game.seat_name(m.seat)
        )
        lost = "" if m.loss == 0 else f"{m.loss:g}" + ("" if m.exact and m.best_exact else "~")
        note = " forced" if m.forced else ""
        out.append(
            f"{m.number:>4}  {who:<22} {str(m.move):>6} {_value(m.value, m.exact):>6}  {str(m.best):>5} "
            f"{_value(m.best_value, m.best_exact):>6}  {lost:>5}{note}"
        )
    points = review.turning_points()
    if points:
        out.append("Turning points (the biggest mistakes):")
        for m in points:
            proved = (
                " (proved)"
                if m.exact and m.best_exact
                else (f" (at least {m.proven_loss:g} proved)" if m.proven_loss > 0 else " (estimated)")
            )
            out.append(
                f"  move {m.number}: {game.seat_name(m.seat)} played {m.move} ({_value(m.value, m.exact)}) "
                f"instead of {m.best} ({_value(m.best_value, m.best_exact)}): {m.loss:g} seeds lost{proved}"
            )
    else:
        out.append("No mistakes found: every move kept the best value found.")
    out.append(f"{review.nodes:,} nodes in {review.seconds:.1f} s of search")
    return out
