"""A finished (or running) game reviewed: each move against the best move of its position,
read from the same table the hint and the analysis read, and classed by one rule."""

from __future__ import annotations

from typing import Any, Callable

from mancala.analysis.values import Table, jsonable, position_values, unit
from mancala.games.base import Game
from mancala.games.catalogue import traits_of

#: the share of a review's time a forced move's position gets (its value still counts)
FORCED_SHARE = 0.25


#: a move's class by what it gave away against the best move, per value unit (docs/web.md):
#: (class, least loss), largest first; a loss of 0 is ``best``, below the last threshold ``good``
MOVE_CLASSES: dict[str, tuple[tuple[str, float], ...]] = {
    "seeds": (("blunder", 6), ("mistake", 3), ("inaccuracy", 1)),
    "eval": (("blunder", 10), ("mistake", 4), ("inaccuracy", 1.5)),
    "outcome": (("blunder", 2), ("mistake", 1)),
}


#: a Bao evaluation at least this large is a won (or lost) game
_EVAL_WON = 5000


_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder")


def _outcome(value: float, unit_name: str) -> int:
    """+1 a win, 0 a draw (or undecided), -1 a loss, as far as the value says."""
    if unit_name == "eval":
        return 1 if value >= _EVAL_WON else -1 if value <= -_EVAL_WON else 0
    return (value > 0) - (value < 0)


def move_class(
    value: Any, best_value: Any, unit_name: str, thresholds: tuple[tuple[str, float], ...] | None = None
) -> str:
    """How good a move was: ``best`` (nothing given away), ``good``, ``inaccuracy``,
    ``mistake`` or ``blunder``, by the loss against the best move's value (``thresholds``: the
    game's own, else its value unit's in :data:`MOVE_CLASSES`); a move that throws away a won
    or drawn result is at least a ``mistake``, one that turns a win into a loss a ``blunder``."""
    played, best = _number(value), _number(best_value)
    loss = max(0.0, best - played)
    if loss <= 1e-9:
        return "best"
    classes = thresholds if thresholds is not None else MOVE_CLASSES.get(unit_name, ())
    found = next((name for name, least in classes if loss >= least), "good")
    drop = _outcome(best, unit_name) - _outcome(played, unit_name)
    if drop >= 2:
        return "blunder"
    if drop == 1 and _ORDER.index(found) < _ORDER.index("mistake"):
        return "mistake"
    return found


def _number(value: Any) -> float:
    """A value as a float (``"inf"`` and ``"-inf"`` included)."""
    return float(value)


def review_positions(game: Game, moves: list, nodes: int) -> list[tuple[Any, int]]:
    """The positions a review of ``moves`` (played from the start) values, each with its
    budget: ``nodes``, a forced move's position (its value still counts) a quarter of it."""
    out = []
    state = game.initial_state()
    for move in moves:
        forced = len(game.legal_moves(state)) == 1
        out.append((state, max(1, int(nodes * (FORCED_SHARE if forced else 1.0)))))
        state = game.apply(state, move)
    return out


def _bound(row: dict, side: str) -> float | None:
    """A row's proven bound on its true value (``lower`` or ``upper``): its value when exact."""
    if row["exact"]:
        return float(row["value"])
    bound = row.get(side)
    return None if bound is None else float(bound)


def proven_loss(played: dict, best: dict) -> float:
    """The part of a move's loss that is proved: the best move's proven lower bound minus the
    played move's proven upper bound (0 when nothing is proved)."""
    low, high = _bound(best, "lower"), _bound(played, "upper")
    return max(0.0, low - high) if low is not None and high is not None else 0.0


def review_of(game: Game, moves: list, positions: list, tables: list[Table]) -> dict:
    """Each move's value against the best move's in the same position (``positions[k]``,
    where ``moves[k]`` was played, and ``tables[k]``, its table), its class
    (:func:`move_class`) and the biggest mistakes (largest losses) of the game."""
    out: list[dict] = []
    for ply, (move, state, table) in enumerate(zip(moves, positions, tables), 1):
        rows = table.rows
        played = next((r for r in rows if r["move"] == str(move)), rows[0])
        best = rows[0]
        loss = max(0.0, float(best["value"]) - float(played["value"]))
        player = game.to_move(state)
        row = {
            "ply": ply,
            "player": player,
            "mover": game.player_name(player, state),
            "move": str(move),
            "value": played["value"],
            "best": best["move"],
            "best_value": best["value"],
            "loss": jsonable(loss),
            "proven_loss": jsonable(proven_loss(played, best)),
            "exact": bool(played["exact"] and best["exact"]),
            "forced": len(rows) == 1,
            "class": move_class(played["value"], best["value"], unit(game), traits_of(game).move_classes),
        }
        if not row["exact"]:
            row["depth"] = min(r.get("depth", 0) for r in (played, best) if not r["exact"])
        out.append(row)
    mistakes = sorted((r for r in out if r["loss"] and float(r["loss"]) > 0), key=lambda r: -float(r["loss"]))[:5]
    return {"moves": out, "mistakes": mistakes, "unit": unit(game)}


def review(game: Game, moves: list, nodes: int, progress: Callable[[int, int], None] | None = None) -> dict:
    """:func:`review_of` the game's positions' tables searched here (``nodes`` a position, see
    :func:`review_positions`), from the last position to the first (a Kalah engine's
    endgame proofs help the earlier ones); ``progress(done, total)`` after each."""
    wanted = review_positions(game, moves, nodes)
    tables: list[Table | None] = [None] * len(wanted)
    for done, k in enumerate(range(len(wanted) - 1, -1, -1), 1):
        tables[k] = position_values(game, *wanted[k])
        if progress is not None:
            progress(done, len(wanted))
    return review_of(game, moves, [state for state, _ in wanted], [t for t in tables if t is not None])
