"""One position studied: the hint, the analysis (every move's value and the best line, with a
summary in words) and the opening explorer."""

from __future__ import annotations

from typing import Any

from mancala.analysis.values import Table, jsonable, position_values, unit
from mancala.engine.support import engine_records, engine_support
from mancala.games.base import Game
from mancala.games.catalogue import CATALOGUE, title_of, traits_of
from mancala.search.explain import line_by_turn


def explore(game: Game, state) -> dict:
    """The opening explorer: the opening book's value (for the player to move) of every legal
    move whose position the book holds, and the book's main line from here, where an engine
    of ours has a book for the game's rules (Kalah's exact one, the other games' opening
    trees: ``mancala book``); anything else says so in ``text``."""
    record = engine_support(game.name)
    book = record.opening_book(game, state) if record is not None and record.opening_book is not None else None
    if book is None:
        having = [
            CATALOGUE[r.game].title for r in engine_records() if r.opening_book is not None and r.game in CATALOGUE
        ]
        names = ", ".join(having[:-1]) + " and " + having[-1] if len(having) > 1 else "".join(having)
        which = (
            f"only {names} {'has' if len(having) == 1 else 'have'} one, for some rules" if having else "none is built"
        )
        return {
            "available": False,
            "text": f"no opening book for {title_of(game)}: {which}",
            "moves": [],
            "line": [],
            "turns": [],
        }
    found = sorted(book.moves, key=lambda r: (r[1] is None, -(r[1] or 0.0)))
    rows = [{"move": m, "value": jsonable(v) if v is not None else None, "in_book": v is not None} for m, v in found]
    known = sum(v is not None for _, v in found)
    line = list(book.line)
    text = (
        f"the book knows {known} of {len(rows)} moves here" + ("" if line else "; this position is not in it")
        if known or line
        else "this position is out of the book"
    )
    if known and not book.exact:
        text += " (values by the engine's search, not proofs)"
    return {
        "available": True,
        "text": text,
        "moves": rows,
        "line": line,
        "turns": line_by_turn(game, state, line),
        "unit": unit(game),
        "exact": bool(book.exact),
    }


def hint_of(game: Game, state, table: Table) -> dict:
    """The best move for the player to move, with its value, depth and line: the first row
    of the position's ``table`` (the analysis' first row, so the two agree)."""
    if not table.rows:
        raise ValueError("the game is over: there is no move to hint")
    best = table.rows[0]
    line = list(table.line[:12]) if table.line[:1] == (best["move"],) else [best["move"]]
    return {
        "move": best["move"],
        "value": best["value"],
        "line": line,
        "turns": line_by_turn(game, state, line),
        "depth": best.get("depth", 0),
        "exact": bool(best["exact"]),
        "unit": unit(game),
    }


def hint(game: Game, state, nodes: int) -> dict:
    """:func:`hint_of` the position's table searched here with ``nodes`` nodes."""
    return hint_of(game, state, position_values(game, state, nodes))


def value_text(value: Any, unit_name: str) -> str:
    """A value as the summary writes it: ``+4`` (seeds, an evaluation), ``win``, ``draw`` or
    ``loss`` in a game whose values are outcomes (tic-tac-toe), never ``+0`` for a draw."""
    if unit_name == "outcome":
        return "win" if float(value) > 0 else "loss" if float(value) < 0 else "draw"
    return f"{float(value):+g}"


def value_words(row: dict) -> str:
    """How sure a row's value is: ``exact``, or the depth its estimate was searched to."""
    return "exact" if row["exact"] else f"estimate, depth {row.get('depth', 0)}"


def _who_wins(game: Game, state, value: float) -> str:
    """``perfect play: South wins by 10`` from the mover's exact value."""
    mover = game.to_move(state)
    name = game.player_name(mover, state)  # (the seats' names, which Kalah's pie rule swaps)
    other = game.player_name(1 - mover, state)
    if value == 0:
        return "perfect play: a draw"
    winner, margin = (name, value) if value > 0 else (other, -value)
    if traits_of(game).margin_unit:  # the value counts something (seeds): say by how much
        return f"perfect play: {winner} wins by {margin:g}"
    return f"perfect play: {winner} wins"


def top_positions(game: Game, state, table: Table, lines: int) -> dict[str, Any]:
    """The positions, by the move to them, whose own tables an analysis with ``lines`` top
    lines needs: after each of the best moves but the first (its line is the table's own),
    unless the move ends the game."""
    out = {}
    for k, row in enumerate(table.rows[: max(0, lines)]):
        if k == 0 and table.line[:1] == (row["move"],):
            continue
        child = game.apply(state, game.parse_move(state, row["move"]))
        if not game.is_terminal(child):
            out[row["move"]] = child
    return out


def analysis_of(game: Game, state, table: Table, lines: int = 0, child_tables: dict | None = None) -> dict:
    """Every legal move's value for the player to move (the position's ``table``), the best
    line and a summary in words; with ``lines``, the expected line after each of that many
    best moves too (``top_lines``), read from ``child_tables`` (the tables of the
    :func:`top_positions`, by the same moves)."""
    rows, line = table.copy_rows(), list(table.line)
    children = child_tables or {}
    top: list[dict] = []
    for k, row in enumerate(rows[: max(0, lines)]):
        if k == 0 and line[:1] == [row["move"]]:
            after = line
        else:  # the move's own position's line (none after a move that ends the game)
            after = [row["move"], *(children[row["move"]].line if row["move"] in children else ())]
        top.append({**row, "line": after[:16], "turns": line_by_turn(game, state, after[:16])})
    solved = bool(rows) and table.exact
    if not rows:
        summary = "the game is over"
    elif solved:  # every move's value is proven, so the best one is perfect play
        summary = _who_wins(game, state, float(rows[0]["value"]))
    else:
        best = rows[0]
        summary = f"best: {best['move']} ({value_text(best['value'], unit(game))}, {value_words(best)})"
    turns = line_by_turn(game, state, line)
    return {
        "player": game.to_move(state),
        "moves": rows,
        "line": line,
        "turns": turns,
        "unit": unit(game),
        "solved": solved,
        "summary": summary,
        "nodes": table.nodes,
        **({"top_lines": top} if lines else {}),
    }


def analysis(game: Game, state, nodes: int, lines: int = 0) -> dict:
    """:func:`analysis_of` the position's table searched here with ``nodes`` nodes (the top
    lines' positions with half as many each)."""
    table = position_values(game, state, nodes)
    children = {m: position_values(game, c, nodes // 2) for m, c in top_positions(game, state, table, lines).items()}
    return analysis_of(game, state, table, lines, children)
