"""The server's CPU work, run in worker processes off the event loop: AI moves, hints,
analysis, game review and search trees.

Every function here is a plain function of data (game specs, positions, player specs and
memories) returning JSON-ready data, so it runs the same in any worker process; :func:`think`
returns the move and the player's memory afterwards (a random player's generator moved on).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, cast

from mancala.evaluation import default_evaluation
from mancala.evaluation.basic import score_difference, win_loss_percent
from mancala.games import make_game
from mancala.games.bao import Bao
from mancala.games.base import Game
from mancala.games.kalah import Kalah
from mancala.players import Memory, Player, player_memory, rebuild_player, restore_memory
from mancala.search.core import INF, Node, SearchAborted, Tracer, alphabeta, minimax
from mancala.search.explain import compact_board, line_by_turn, prune_reason
from mancala.server.views import jsonable, position_string

#: the deepest search tree the ``tree`` request draws, in turns, and its most nodes
MAX_TREE_DEPTH = 5
MAX_TREE_NODES = 5_000
#: minimax is only counted up to this many nodes (beyond it the count is reported as a bound)
MAX_MINIMAX_COUNT = 200_000
#: the share of a review's time a forced move's position gets (its value still counts)
FORCED_SHARE = 0.25


def warm_kernels() -> None:
    """Load (or compile, the first time in a tree) the fast Kalah engine's kernels in this
    process (each worker does it when it starts)."""
    from mancala.engine.engine import warm_up  # noqa: PLC0415 (numba loads only when needed)

    warm_up()


#: about how long the engines' warm-up takes when their compiled kernels are on disk (loading
#: them), and when they are not (compiling them: the first run after install), in seconds on
#: a 2-core machine with the other core busy (benchmarks/bench_first_move.py measures it)
LOAD_SECONDS = 6.0
COMPILE_SECONDS = 90.0


def engine_on_disk() -> bool:
    """Whether the engines' compiled kernels are in numba's cache beside their modules (the
    warm-up then loads them instead of compiling them).  Reads file names only: the server's
    own process never loads numba."""
    from importlib.util import find_spec  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    spec = find_spec("mancala.engine")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    wanted = (
        ("__pycache__", "search.negamax-"),
        ("bao/__pycache__", "search.negamax-"),
        ("oware/__pycache__", "search.negamax-"),
    )
    return all(any(any((root / folder).glob(prefix + "*.nbi")) for root in roots) for folder, prefix in wanted)


def warm_up_estimate() -> float:
    """About how many seconds the engines' warm-up (:func:`warm_engine`) will take here."""
    return LOAD_SECONDS if engine_on_disk() else COMPILE_SECONDS


def warm_engine() -> bool:
    """Make the engines ready, the default game's first: standard Kalah's kernels, table and
    endgame database, then Bao's kernels, then Oware's."""
    from mancala.engine.support import engine_records  # noqa: PLC0415

    for record in engine_records():
        if record.warm_up is not None:
            record.warm_up()
    return True


#: the players this worker process has built, by seat (most recent last): kept so an engine
#: player keeps its tables and an outside program its process from one move to the next
_SEATED: OrderedDict[str, tuple[str, Player]] = OrderedDict()
#: the most seats one worker keeps players for (the oldest is dropped, and rebuilt if needed)
MAX_SEATED = 64


@lru_cache(maxsize=64)
def game_of(spec: str) -> Game:
    """The game of a game spec (``kalah(pits=4)``), built once per process."""
    return make_game(spec)


def think(
    game_spec: str, state, spec: str, memory: Memory | None = None, seat: str | None = None
) -> tuple[Any, Memory]:
    """The move of the player ``spec`` (with its ``memory``) in ``state`` of the game
    ``game_spec``, and its memory afterwards.  ``seat`` names the game's seat, so that the
    player built for it is used again on its next move in this process."""
    player = None
    if seat is not None and seat in _SEATED and _SEATED[seat][0] == spec:
        player = restore_memory(_SEATED[seat][1], memory)
        _SEATED.move_to_end(seat)
    if player is None:
        player = rebuild_player(spec, memory)
        if seat is not None:
            _SEATED[seat] = (spec, player)
            while len(_SEATED) > MAX_SEATED:
                _SEATED.popitem(last=False)
    move = player.choose(game_of(game_spec), state)
    return move, player_memory(player)


def forget(seat: str) -> None:
    """Drop the player kept for ``seat`` (its game is over)."""
    entry = _SEATED.pop(seat, None)
    close = getattr(entry[1], "close", None) if entry else None
    if callable(close):
        close()


def unit(game: Game) -> str:
    """What values count: ``seeds`` (Kalah, Oware: any game whose margin is in seeds), ``eval``
    (Bao), ``outcome`` (tic-tac-toe)."""
    if game.name == "bao":
        return "eval"
    return "seeds" if getattr(game, "margin_unit", None) == "seeds" else "outcome"


#: the least time a hint searches: as long as the analysis panel asks for, so that a hint
#: and an analysis of the same position read the same table (:func:`position_values`)
HINT_SECONDS = 2.0
#: how many positions' tables a worker process keeps, the newest last
KEPT_POSITIONS = 512


@dataclass
class _Values:
    """A position's move values (best first), best line and the time searched for them."""

    rows: list[dict]
    line: list[str]
    seconds: float


_kept: OrderedDict[tuple, _Values] = OrderedDict()


def _position_key(game: Game, state) -> tuple:
    """What identifies a position across requests: the game, its rules and the state."""
    return (game.name, repr(getattr(game, "rules", None)), repr(state))


def position_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Every legal move's value for the player to move, best first, as
    ``[{move, value, exact[, depth]}]``, and the best line: the one table that the hint,
    the analysis and the review all read, so that they agree on a position.

    Kalah reads the opening book first (the position itself and the positions one move
    on: exact values without a search) and the engine for the other moves, every
    estimate kept at or below the position's proved value; Bao searches every move with
    its fast engine; tic-tac-toe with alpha-beta.  A table is kept in the worker process and given again to any later request
    of no more ``seconds`` (a request with more time searches again and replaces it; an
    all-exact table is always given again)."""
    key = _position_key(game, state)
    kept = _kept.get(key)
    if kept is not None and (kept.seconds >= seconds or all(r["exact"] for r in kept.rows)):
        _kept.move_to_end(key)
        return [dict(r) for r in kept.rows], list(kept.line)
    rows, line = VALUE_TABLES.get(game.name, _searched_values)(game, state, seconds)
    _kept[key] = _Values([dict(r) for r in rows], list(line), seconds)
    _kept.move_to_end(key)
    while len(_kept) > KEPT_POSITIONS:
        _kept.popitem(last=False)
    return rows, line


def explore(game: Game, state) -> dict:
    """The opening explorer: the opening book's exact value (for the player to move) of every
    legal move whose position the book holds, and the book's main line from here.  Only Kalah
    has books (``mancala book``), for some rules; anything else says so in ``text``."""
    if game.name != "kalah":  # (books are Kalah's: mancala.engine.book)
        return {
            "available": False,
            "text": f"no opening book for {game.name}: only Kalah has one",
            "moves": [],
            "line": [],
            "turns": [],
        }
    from mancala.engine.book import book_line, probe, shipped_book  # noqa: PLC0415 (the engine loads only when needed)

    kalah = cast(Kalah, game)  # (named kalah above)
    if shipped_book(kalah.rules) is None:
        return {
            "available": False,
            "text": "no opening book for these Kalah rules",
            "moves": [],
            "line": [],
            "turns": [],
        }
    mover = game.to_move(state)
    found: list[tuple[str, float | None]] = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        value: float | None = None
        if game.is_terminal(child):
            value = float(game.score(child, mover))
        else:
            hit = probe(kalah, child)
            if hit is not None:
                value = float(hit[1] if game.to_move(child) == mover else -hit[1])
        found.append((str(move), value))
    found.sort(key=lambda r: (r[1] is None, -(r[1] or 0.0)))
    rows = [{"move": m, "value": jsonable(v) if v is not None else None, "in_book": v is not None} for m, v in found]
    line = [str(m) for m in book_line(kalah, state)] if not game.is_terminal(state) else []
    known = sum(v is not None for _, v in found)
    text = (
        f"the book knows {known} of {len(rows)} moves here" + ("" if line else "; this position is not in it")
        if known or line
        else "this position is out of the book"
    )
    return {
        "available": True,
        "text": text,
        "moves": rows,
        "line": line,
        "turns": line_by_turn(game, state, line),
        "unit": unit(game),
    }


def forget_positions() -> None:
    """Drop the tables kept by :func:`position_values` (a test starting afresh)."""
    _kept.clear()


def hint(game: Game, state, seconds: float) -> dict:
    """The best move for the player to move, with its value and line: the first row of
    the position's table (:func:`position_values`), searched for at least
    :data:`HINT_SECONDS`."""
    rows, line = position_values(game, state, max(seconds, HINT_SECONDS))
    if not rows:
        raise ValueError("the game is over: there is no move to hint")
    best = rows[0]
    line = line[:12] if line[:1] == [best["move"]] else [best["move"]]
    return {
        "move": best["move"],
        "value": best["value"],
        "line": line,
        "turns": line_by_turn(game, state, line),
        "depth": best.get("depth", 0),
        "exact": bool(best["exact"]),
        "unit": unit(game),
    }


def _kalah_values(game: Kalah, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Kalah's table: the opening book's exact values where it has them (the position
    itself, the positions one move on, and finished games), the engine's analysis for
    the other moves, their estimates capped by the book's value of the position."""
    from mancala.engine.book import book_line, probe  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    order = [str(m) for m in moves]
    known: dict[str, tuple[float, list[str]]] = {}  # move -> (exact value, the book's line after it)
    for move in moves:
        child = game.apply(state, move)
        if game.is_terminal(child):
            known[str(move)] = (float(game.score(child, mover)), [])
            continue
        hit = probe(game, child)
        if hit is not None:
            sign = 1 if game.to_move(child) == mover else -1
            known[str(move)] = (float(sign * hit[1]), [str(m) for m in book_line(game, child)])
    root = probe(game, state) if moves else None
    if root is not None:
        known.setdefault(str(root[0]), (float(root[1]), [str(m) for m in book_line(game, state)][1:]))
    rows: list[dict] = []
    engine_line: list[str] = []
    if len(known) < len(moves):
        from mancala.engine import analyse  # noqa: PLC0415 (numba loads only when needed)

        table = analyse(game, state, seconds)
        engine_line = [str(m) for m in table.line]
        for mv in table:
            if str(mv.move) in known:
                continue
            value = float(mv.value)
            if root is not None:  # no move is better than the position's proved value
                value = min(value, float(root[1]))
            rows.append(
                {
                    "move": str(mv.move),
                    "value": jsonable(value),
                    "exact": bool(mv.exact),
                    **({"depth": mv.depth} if getattr(mv, "depth", None) is not None else {}),
                }
            )
    rows += [{"move": m, "value": jsonable(v), "exact": True} for m, (v, _) in known.items()]
    book_move = str(root[0]) if root is not None else None
    rows.sort(key=lambda r: (-float(r["value"]), not r["exact"], r["move"] != book_move, order.index(r["move"])))
    if not rows:
        return rows, []
    best = rows[0]["move"]
    if best in known:
        line = [best] + known[best][1]
    else:
        line = engine_line if engine_line[:1] == [best] else [best]
    return rows, line[:16]


def _bao_values(game: Bao, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Bao's table: every move searched by the fast Bao engine (its values are alpha-beta's
    with Bao's evaluation, the same as :func:`_searched_values` would find at the same
    depth, only deeper in the time), sharing one transposition table."""
    from mancala.engine.bao.search import BaoSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    searcher = BaoSearcher(game)
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        if game.is_terminal(child):
            value, line, exact, depth = evaluate(game, child, mover), tuple[Any, ...](), True, 0
        else:
            share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
            result = search(game, child, share, searcher=searcher)
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = sign * result.value, result.line, result.exact, result.depth
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": bool(exact), "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _oware_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """Oware's table, in seeds: from the endgame database in the cache when it holds the
    position (every move's final margin with perfect play; exact or the table's estimate, as
    the rules make it), else every move searched by the Oware engine (sharing one
    transposition table), else (rules the engine declines) alpha-beta in Python."""
    from mancala.engine.support import engine_support  # noqa: PLC0415
    from mancala.players.builtin import has_engine  # noqa: PLC0415

    record = engine_support(game.name)
    scale = record.value_scale if record is not None else float  # the engine's values in seeds
    answer = record.exact(game, state) if record is not None and record.exact is not None else None
    if answer is not None:
        rows = [{"move": str(m), "value": jsonable(float(v)), "exact": answer.exact} for m, v in answer.moves]
        return rows, [str(m) for m in answer.line][:16]
    if not has_engine(game):
        searched, best_line = _searched_values(game, state, seconds)
        return [dict(r, value=jsonable(scale(float(r["value"])))) for r in searched], best_line
    from mancala.engine.oware.search import OwareSearcher, search  # noqa: PLC0415 (numba loads only when needed)

    mover = game.to_move(state)
    moves = list(game.legal_moves(state))
    searcher = OwareSearcher(cast(Any, game))
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        line: tuple[Any, ...] = ()
        if game.is_terminal(child):
            value, exact, depth = float(game.score(child, mover)), True, 0
        else:
            share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
            result = search(cast(Any, game), child, share, searcher=searcher)
            sign = 1 if game.to_move(child) == mover else -1
            value, line, exact, depth = scale(sign * result.value), result.line, result.exact, result.depth
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": bool(exact), "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _searched_values(game: Game, state, seconds: float) -> tuple[list[dict], list[str]]:
    """The table of a game other than Kalah: every move searched by alpha-beta, deepened
    while time lasts (exact once the search sees only finished games)."""
    mover = game.to_move(state)
    evaluate = default_evaluation(game)
    moves = list(game.legal_moves(state))
    deadline = time.perf_counter() + seconds
    rows, lines = [], {}
    for i, move in enumerate(moves):
        child = game.apply(state, move)
        share = max(0.005, (deadline - time.perf_counter()) / (len(moves) - i))
        value, line, exact, depth = _deepening_value(game, child, mover, evaluate, share)
        rows.append({"move": str(move), "value": jsonable(float(value)), "exact": exact, "depth": depth + 1})
        lines[str(move)] = [str(move)] + [str(m) for m in line]
    rows.sort(key=lambda r: -float(r["value"]))
    return rows, (lines[rows[0]["move"]][:16] if rows else [])


def _deepening_value(game: Game, state, mover: int, evaluate, seconds: float) -> tuple[float, tuple, bool, int]:
    """The value of ``state`` for ``mover`` by alpha-beta deepened until ``seconds`` run out
    or the search sees only finished games (the value is then exact), its line, whether it
    is exact and the depth searched."""
    if game.is_terminal(state):
        return evaluate(game, state, mover), (), True, 0
    deadline = time.perf_counter() + seconds
    cut_off = [False]

    def scored(g, s, p):
        if not g.is_terminal(s):
            cut_off[0] = True
        return evaluate(g, s, p)

    sign = 1 if game.to_move(state) == mover else -1
    best: tuple[float, tuple, bool, int] | None = None
    for depth in range(1, 64):
        cut_off[0] = False
        try:
            result = alphabeta(
                game, state, depth, scored, stop=(lambda: time.perf_counter() >= deadline) if best else None
            )
        except SearchAborted:
            break
        best = (sign * result.value, result.line, not cut_off[0], depth)
        if not cut_off[0] or time.perf_counter() >= deadline:
            break
    assert best is not None  # depth 1 always completes
    return best


def _who_wins(game: Game, state, value: float) -> str:
    """``perfect play: South wins by 10`` from the mover's exact value."""
    mover = game.to_move(state)
    name = game.player_name(mover)
    other = game.player_name(1 - mover)
    seat_name = getattr(game, "seat_name", None)  # games whose players change seats (Kalah's pie rule)
    if seat_name is not None:
        name, other = seat_name(state.seat), seat_name(1 - state.seat)
    if value == 0:
        return "perfect play: a draw"
    winner, margin = (name, value) if value > 0 else (other, -value)
    if getattr(game, "margin_unit", None):  # the value counts something (seeds): say by how much
        return f"perfect play: {winner} wins by {margin:g}"
    return f"perfect play: {winner} wins"


def analysis(game: Game, state, seconds: float, lines: int = 0) -> dict:
    """Every legal move's value for the player to move, the best line and a summary; with
    ``lines``, the expected line after each of that many best moves too (``top_lines``: each
    move's position searched for its own line, ``seconds`` shared out)."""
    rows, line = position_values(game, state, seconds)
    top: list[dict] = []
    for row in rows[: max(0, lines)]:
        if row is rows[0] and line[:1] == [row["move"]]:
            after = line
        else:
            move = game.parse_move(state, row["move"])
            child = game.apply(state, move)
            rest = [] if game.is_terminal(child) else position_values(game, child, seconds / 2)[1]
            after = [row["move"], *rest]
        top.append({**row, "line": after[:16], "turns": line_by_turn(game, state, after[:16])})
    solved = bool(rows) and all(r["exact"] for r in rows)
    if not rows:
        summary = "the game is over"
    elif solved:  # every move's value is proven, so the best one is perfect play
        summary = _who_wins(game, state, float(rows[0]["value"]))
    else:
        best = rows[0]
        summary = f"best: {best['move']} ({float(best['value']):+g} {'exact' if best['exact'] else 'estimated'})"
    turns = line_by_turn(game, state, line)
    return {
        "player": game.to_move(state),
        "moves": rows,
        "line": line,
        "turns": turns,
        "unit": unit(game),
        "solved": solved,
        "summary": summary,
        **({"top_lines": top} if lines else {}),
    }


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


def move_class(value: Any, best_value: Any, unit_name: str) -> str:
    """How good a move was: ``best`` (nothing given away), ``good``, ``inaccuracy``,
    ``mistake`` or ``blunder``, by the loss against the best move's value (thresholds in
    :data:`MOVE_CLASSES`); a move that throws away a won or drawn result is at least a
    ``mistake``, one that turns a win into a loss a ``blunder``."""
    played, best = _number(value), _number(best_value)
    loss = max(0.0, best - played)
    if loss <= 1e-9:
        return "best"
    found = next((name for name, least in MOVE_CLASSES.get(unit_name, ()) if loss >= least), "good")
    drop = _outcome(best, unit_name) - _outcome(played, unit_name)
    if drop >= 2:
        return "blunder"
    if drop == 1 and _ORDER.index(found) < _ORDER.index("mistake"):
        return "mistake"
    return found


def _number(value: Any) -> float:
    """A value as a float (``"inf"`` and ``"-inf"`` included)."""
    return float(value)


def review(game: Game, moves: list, seconds: float) -> dict:
    """Each move's value against the best move's in the same position, and the biggest
    mistakes (largest losses) of the game (``moves`` played from the start), every
    position's values read from :func:`position_values` (as the hint and the analysis
    read them), ``seconds`` a position."""
    out = _searched_review(game, moves, seconds)
    for row in out:
        row["class"] = move_class(row["value"], row["best_value"], unit(game))
    mistakes = sorted((r for r in out if r["loss"] and float(r["loss"]) > 0), key=lambda r: -float(r["loss"]))[:5]
    return {"moves": out, "mistakes": mistakes, "unit": unit(game)}


def _searched_review(game: Game, moves: list, seconds: float) -> list[dict]:
    """Each move's value against the best move's, from :func:`position_values`; positions
    reviewed from the last to the first (a Kalah engine's endgame proofs help the earlier
    positions), a forced move's position given a quarter of the time."""
    states = [game.initial_state()]
    for move in moves[:-1]:
        states.append(game.apply(states[-1], move))
    out: list[dict] = []
    for ply in range(len(moves), 0, -1):
        state, move = states[ply - 1], moves[ply - 1]
        forced = len(game.legal_moves(state)) == 1
        rows, _ = position_values(game, state, seconds * (FORCED_SHARE if forced else 1.0))
        played = next((r for r in rows if r["move"] == str(move)), rows[0])
        best = rows[0]
        loss = max(0.0, float(best["value"]) - float(played["value"]))
        out.append(
            {
                "ply": ply,
                "player": game.to_move(state),
                "move": str(move),
                "value": played["value"],
                "best": best["move"],
                "best_value": best["value"],
                "loss": jsonable(loss),
                "exact": bool(played["exact"] and best["exact"]),
            }
        )
    out.reverse()
    return out


class _TooBig(Exception):
    """The tree grew past its node cap."""


class TreeTracer(Tracer):
    """Builds the search tree as JSON nodes (``docs/protocol.md``, "Search tree node")."""

    def __init__(self, game: Game, limit: int = MAX_TREE_NODES) -> None:
        self.game = game
        self.limit = limit
        self.count = 0
        self.root: dict | None = None
        self._nodes: dict[int, tuple[Node, dict]] = {}

    def enter(self, node: Node) -> None:
        """Record a node under its parent, with the window it received."""
        self.count += 1
        if self.count > self.limit:
            raise _TooBig
        window = None if node.alpha is None else [jsonable(node.alpha), jsonable(node.beta)]
        d = {
            "move": None if node.move is None else str(node.move),
            "player": self.game.to_move(node.state),
            "max": node.maximizing,
            "depth": node.depth,
            "leaf": node.leaf,
            "terminal": node.terminal,
            "value": jsonable(node.value),
            "window": window,
            "final_window": window,
            "children": [],
            "pruned": [],
            "prune_reason": None,
            "why": None,
            "board": compact_board(self.game, node.state) or None,
            "position": position_string(self.game, node.state),
        }
        if self.game.name == "kalah":
            d["cells"] = list(node.state.board)
        if node.leaf:
            d["why"] = "game over" if node.terminal else "depth limit"
        self._nodes[id(node)] = (node, d)
        if node.parent is None:
            self.root = d
        else:
            self._nodes[id(node.parent)][1]["children"].append(d)

    def update(self, node: Node, move, child_value: float) -> None:
        """Keep the node's value and window current."""
        d = self._nodes[id(node)][1]
        d["value"] = jsonable(node.value)
        if node.alpha is not None:
            d["final_window"] = [jsonable(node.alpha), jsonable(node.beta)]

    def prune(self, node: Node, skipped: tuple) -> None:
        """Mark the moves not searched, with the reason in words."""
        if skipped:
            d = self._nodes[id(node)][1]
            d["pruned"] = [str(m) for m in skipped]
            d["prune_reason"] = prune_reason(node, skipped)


class _Counter(Tracer):
    """Counts nodes, giving up past a cap."""

    def __init__(self, limit: int) -> None:
        self.count = 0
        self.limit = limit

    def enter(self, node: Node) -> None:
        """Count one node; stop the search past the cap."""
        self.count += 1
        if self.count > self.limit:
            raise _TooBig


def tree_evaluation(game: Game):
    """The evaluation the tree view uses: ``mancala explain``'s (percent for tic-tac-toe,
    the score for Kalah) and the default one for Bao."""
    if game.name == "tictactoe":
        return win_loss_percent
    if game.name == "kalah":
        return score_difference
    return default_evaluation(game)


def tree(game: Game, state, depth: int, algorithm: str = "alphabeta") -> dict:
    """The search tree of ``state`` to ``depth`` turns as JSON, with node counts of
    minimax and alpha-beta.  Raises ValueError when the tree is too big to draw."""
    evaluate = tree_evaluation(game)
    tracer = TreeTracer(game)
    search = alphabeta if algorithm == "alphabeta" else minimax
    try:
        result = search(game, state, depth, evaluate, tracer=tracer)
    except _TooBig:
        raise ValueError(
            f"the {algorithm} tree at depth {depth} has more than {MAX_TREE_NODES} nodes; choose a smaller depth"
        ) from None
    counter = _Counter(MAX_MINIMAX_COUNT)
    counts: dict[str, Any] = {}
    if algorithm == "alphabeta":
        counts["alphabeta"] = result.nodes
        try:
            counts["minimax"] = minimax(game, state, depth, evaluate, tracer=counter).nodes
        except _TooBig:
            counts["minimax"] = f">{MAX_MINIMAX_COUNT}"
    else:
        counts["minimax"] = result.nodes
        counts["alphabeta"] = alphabeta(game, state, depth, evaluate).nodes
    return {
        "algorithm": algorithm,
        "depth": depth,
        "root": tracer.root,
        "nodes": counts,
        "shown": tracer.count,
        "best": None if result.move is None else str(result.move),
        "value": jsonable(float(result.value)),
        "line": [str(m) for m in result.line],
        "turns": line_by_turn(game, state, result.line),
        "evaluation": getattr(evaluate, "__name__", "evaluation"),
    }


__all__ = [
    "warm_kernels",
    "warm_engine",
    "think",
    "position_values",
    "forget_positions",
    "hint",
    "analysis",
    "review",
    "tree",
    "MAX_TREE_DEPTH",
    "INF",
]


#: how each game's move values are found, by name (others: alpha-beta, move by move)
VALUE_TABLES: dict[str, Callable[[Any, Any, float], tuple[list[dict], list[str]]]] = {
    "kalah": _kalah_values,
    "bao": _bao_values,
    "oware": _oware_values,
}
