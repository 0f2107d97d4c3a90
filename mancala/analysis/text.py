"""The analysis layer's answers as lines of text, for the terminal and ``mancala analyse``:
the same values, exact marks and depths as the page shows."""

from __future__ import annotations

from mancala.analysis.position import value_words
from mancala.games.base import Game
from mancala.games.catalogue import traits_of

#: what a value counts, by the unit its game declares
_UNIT_WORDS = {
    "seeds": "its final margin in {unit} with best play",
    "eval": "its evaluation (a won game is worth more than any estimate)",
    "outcome": "the outcome with best play (+1 a win, 0 a draw, -1 a loss)",
}


def _unit_words(game: Game, unit: str) -> str:
    """What values of ``unit`` count, in the game's own word for what it counts (seeds, stones)."""
    return _UNIT_WORDS[unit].format(unit=traits_of(game).margin_unit or "seeds")


def _value(value: object, exact: bool) -> str:
    """A value as the tables write it: ``+6``, ``-2.5~`` (~ for an estimate)."""
    return f"{float(value):+g}" + ("" if exact else "~")  # type: ignore[arg-type]


def analysis_lines(game: Game, state, result: dict) -> list[str]:
    """The text of one position's analysis (an :func:`~mancala.analysis.analysis` answer)."""
    mover = game.player_name(game.to_move(state), state)
    lines = [
        f"{mover} to move; values are {_unit_words(game, result['unit'])} "
        f"(exact: proved; an estimate names the depth it was searched to): {result['summary']}"
    ]
    for row in result["moves"]:
        bounds = [
            f"{word} {float(row[key]):+g}" for key, word in (("lower", "at least"), ("upper", "at most")) if key in row
        ]
        proved = f" (proved {' and '.join(bounds)})" if bounds else ""
        lines.append(f"  {row['move']:>6}  {float(row['value']):+8.2f}  {value_words(row)}{proved}")
    if result["turns"]:
        lines.append("best line: " + ", ".join(result["turns"]))
    return lines


def review_lines(game: Game, players: list[str], review: dict, seconds: float) -> list[str]:
    """The text of a game's review (a :func:`~mancala.analysis.review` answer)."""
    moves = review["moves"]
    out = [
        f"Review of {game!r}: {len(moves)} move{'s' if len(moves) != 1 else ''}, {seconds:g} s a position. "
        f"Values are the mover's: {_unit_words(game, review['unit'])}; ~ marks an estimate, the rest is proved."
    ]
    out.append(f"{'move':>4}  {'player':<22} {'played':>6} {'value':>8}  {'best':>5} {'value':>8}  {'lost':>5}  class")
    for m in moves:
        who = f"{m['mover']} ({players[m['player']]})" if m["player"] < len(players) else m["mover"]
        lost = "" if float(m["loss"]) == 0 else f"{float(m['loss']):g}" + ("" if m["exact"] else "~")
        note = " forced" if m["forced"] else ""
        out.append(
            f"{m['ply']:>4}  {who:<22} {m['move']:>6} {_value(m['value'], m['exact']):>8}  {m['best']:>5} "
            f"{_value(m['best_value'], m['exact']):>8}  {lost:>5}  {m['class']}{note}"
        )
    if review["mistakes"]:
        out.append("Turning points (the biggest mistakes):")
        for m in review["mistakes"][:3]:
            loss, proven = float(m["loss"]), float(m["proven_loss"])
            proved = " (proved)" if m["exact"] else f" (at least {proven:g} proved)" if proven > 0 else " (estimated)"
            unit = f" {traits_of(game).margin_unit or 'seeds'}" if review["unit"] == "seeds" else ""
            out.append(
                f"  move {m['ply']}: {m['mover']} played {m['move']} ({_value(m['value'], m['exact'])}) "
                f"instead of {m['best']} ({_value(m['best_value'], m['exact'])}): {loss:g}{unit} lost{proved}"
            )
    else:
        out.append("No mistakes found: every move kept the best value found.")
    return out


__all__ = ["analysis_lines", "review_lines"]
