"""What a client draws, as JSON: each game's board, its legal moves annotated with what to
click, and what the last move did (notices and animation steps, seed by seed).

Pure functions of (game, state); the server sends their output in ``state`` messages
(``docs/protocol.md``).  The page never decides anything the rules decide: everything it
needs to draw and to know which clicks make a move is here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from mancala.games.bao import CW, NYUMBA, Bao, BaoState, hole_name
from mancala.games.base import Game, outcome_text, winner_rule_of
from mancala.games.catalogue import traits_of
from mancala.games.kalah import Capture, Kalah, KalahState, Remaining, opposite_index, pit_index, store_index
from mancala.games.oware import Oware, OwareEvent, OwareState, house_name, read_position_string, seat_name
from mancala.games.tictactoe import LINES, TicTacToe, TicTacToeState
from mancala.games.togyz import TogyzKumalak, TogyzState, house_label


@dataclass(frozen=True)
class GameView:
    """How the page draws one game: its board, its legal moves (with what to click) and what
    a move did (notices and animation steps).  Games without a view of their own get
    :data:`TEXT_VIEW`: their text picture and their moves as buttons."""

    #: (game, state) -> the ``board`` field
    board: Callable[[Any, Any], dict]
    #: (game, state) -> the ``legal`` field
    legal: Callable[[Any, Any], list[dict]]
    #: (game, before, move, after) -> ``notices``, ``steps`` and any field of its own
    events: Callable[[Any, Any, Any, Any], dict]
    #: (game, state) -> why a game started at ``state`` (finished before any move) is over,
    #: where the board kind can say more than that no move can be played; None: it cannot
    start_end: Callable[[Any, Any], str | None] | None = None


def traits_view(game_or_name: Any) -> dict[str, Any]:
    """What a game declares that the page needs (``/api/games`` and every state's ``game``):
    its board kind, whether the board has sides to turn, what its margins and values count,
    its capabilities."""
    traits = traits_of(game_or_name)
    return {
        "board": traits.board,
        "flippable": traits.sides is not None,
        "margin_unit": traits.margin_unit,
        "value_unit": traits.value_unit,
        "capabilities": sorted(traits.capabilities),
    }


def board_view(game: Game, state) -> dict:
    """The position as the page draws it (see ``docs/protocol.md``, the ``board`` field)."""
    return view_of(game).board(game, state)


def legal_view(game: Game, state) -> list[dict]:
    """The legal moves, each with its notation (``move``) and what to click."""
    return view_of(game).legal(game, state)


def result_view(game: Game, state, names: list[str]) -> dict | None:
    """The result of a game that ended on the board, or None while it runs."""
    if not game.is_terminal(state):
        return None
    score = [game.score(state, 0), game.score(state, 1)]
    winner = 0 if score[0] > 0 else 1 if score[0] < 0 else None
    reason = "rules"
    text = outcome_text(game, state, names)
    decided = winner_rule_of(game)  # games whose winner is not the score's sign (Bao)
    if decided is not None:
        winner = decided.winner(state)
        max_plies = getattr(getattr(game, "rules", None), "max_plies", None)
        if winner is None and max_plies:
            reason = "draw_limit"
            text = f"Draw: the ply limit ({max_plies}) was reached."
    return {"winner": winner, "score": score, "text": text, "reason": reason}


def start_end_text(game: Game, state) -> str | None:
    """Why a game is over in its start position (a position link, a set-up position), before
    any move; None when it is not.  Oware's rules finish such a position at once, its seeds
    shared out, so the board drawn is not the one given: the text says why, and who took what."""
    if not game.is_terminal(state):
        return None
    said = view_of(game).start_end
    why = said(game, state) if said is not None else None
    return "over before any move: " + (why or "no move can be played in this position")


def _oware_start_end(game: Oware, state: OwareState) -> str | None:
    """Why an Oware game started at its rules' ``start`` is over: the end the position meets
    (as if the other side's move had just left it), and who took the seeds."""
    rules = game.rules
    if rules.start is None:
        return None
    houses, stores, seat = read_position_string(rules.start, rules.houses)
    end = "majority" if max(stores) * 2 > rules.total and rules.stop_at_majority else "no-move"
    return _oware_end_text(game, state, 1 - seat, end, list(houses)).removeprefix("game over: ")


def last_view(game: Game, before, move, after, ply: int) -> dict:
    """What ``move`` (played from ``before``, giving ``after``) did: text, notices, the board
    before it and the animation steps."""
    player = game.to_move(before)
    out = {
        "ply": ply,
        "player": player,
        "move": str(move),
        "text": game.describe_move(before, move, after),
        "before": board_view(game, before),
    }
    out.update(view_of(game).events(game, before, move, after))
    return out


def _game_over(game: Game, after, names: list[str]) -> list[dict]:
    return [{"kind": "game_over", "text": outcome_text(game, after, names)}] if game.is_terminal(after) else []


# --- any game: its text picture and its moves as buttons ---------------------------------------


def _text_board(game: Game, state) -> dict:
    return {
        "kind": "text",
        "text": game.render(state),
        "names": [game.player_name(0, state), game.player_name(1, state)],
    }


def _text_legal(game: Game, state) -> list[dict]:
    return [{"move": str(m)} for m in game.legal_moves(state)]


def _text_events(game: Game, before, move, after) -> dict:
    return {"notices": _game_over(game, after, [game.player_name(0), game.player_name(1)]), "steps": []}


#: the view of a game without one of its own
TEXT_VIEW = GameView(_text_board, _text_legal, _text_events)


def view_of(game: Game) -> GameView:
    """The view of ``game``: its board kind's (:data:`VIEWS`, by the kind its traits declare),
    else :data:`TEXT_VIEW`."""
    return VIEWS.get(traits_of(game).board, TEXT_VIEW)


# --- Kalah ------------------------------------------------------------------------------


def _kalah_legal(game: Kalah, state: KalahState) -> list[dict]:
    out = []
    for m in game.legal_moves(state):
        if m.pit is None:
            out.append({"move": "swap", "swap": True})
            continue
        entry = {"move": str(m), "pit": m.pit, "cell": pit_index(state.pits, state.seat, m.pit)}
        if m.directed:
            entry["dir"] = "L" if m.clockwise else "R"
        out.append(entry)
    return out


def _kalah_last(game: Kalah, before: KalahState, move, after: KalahState) -> dict:
    notices, steps = _kalah_events(game, before, move, after)
    return {"notices": notices, "steps": steps}


def _kalah_board(game: Kalah, state: KalahState) -> dict:
    n = state.pits
    labels = (
        [f"South pit {i}" for i in range(1, n + 1)]
        + ["South store"]
        + [f"North pit {i}" for i in range(1, n + 1)]
        + ["North store"]
    )
    return {
        "kind": "kalah",
        "pits": n,
        "cells": list(state.board),
        "stores": [store_index(n, 0), store_index(n, 1)],
        "seats": [state.player_seat(0), state.player_seat(1)],
        "swapped": state.swapped,
        "to_move_seat": state.seat,
        "to_move_seat_name": game.seat_name(state.seat),
        "rows": {"south": list(range(n)), "north": [pit_index(n, 1, p) for p in range(n, 0, -1)]},
        "labels": labels,
    }


def _kalah_events(game: Kalah, before: KalahState, move, after: KalahState) -> tuple[list, list]:
    ev = after.last
    if move.pit is None:
        return ([{"kind": "swap", "text": f"{game.seat_name(before.seat)} swaps sides (pie rule)"}], [{"kind": "swap"}])
    n = before.pits
    seat = before.seat
    origin = pit_index(n, seat, move.pit)
    seeds = before.board[origin]
    cycle = game.sowing_cycle(seat, origin, move.clockwise)
    steps: list[dict] = [
        {"kind": "pickup", "cell": origin, "seeds": seeds},
        {"kind": "sow", "cells": [cycle[k % len(cycle)] for k in range(seeds)]},
    ]
    notices = []
    if ev is not None and ev.capture:
        last = ev.last_index
        cells = (
            [last, opposite_index(n, last)]
            if game.rules.capture is Capture.OPPOSITE_AND_LAST
            else [opposite_index(n, last)]
        )
        steps.append({"kind": "capture", "cells": cells, "store": store_index(n, seat), "seeds": ev.captured})
        notices.append({"kind": "capture", "text": _kalah_capture_text(game, before, seat, last, ev.captured)})
    if ev is not None and ev.extra_turn:
        notices.append({"kind": "extra_turn", "text": "extra turn"})
    if after.finished:
        # what the sweep moved: replay the board up to the sweep to see the rows' seeds
        sweep = []
        cells_before = _board_before_sweep(before, steps)
        for s in (0, 1):
            to = s if game.rules.remaining is Remaining.OWNER else 1 - s
            for p in range(1, n + 1):
                c = pit_index(n, s, p)
                if cells_before[c]:
                    sweep.append({"from": c, "to": store_index(n, to), "seeds": cells_before[c]})
        if sweep:
            steps.append({"kind": "sweep", "moves": sweep})
        notices.append({"kind": "game_over", "text": f"game over: South {after.store(0)}, North {after.store(1)}"})
    return notices, steps


def _kalah_pit_name(n: int, index: int) -> str:
    """``North pit 3`` for board cell ``index`` (a pit, not a store)."""
    return f"South pit {index + 1}" if index < n else f"North pit {index - n}"


def _kalah_capture_text(game: Kalah, before: KalahState, seat: int, last: int, captured: int) -> str:
    """Who captured what and from where: ``South captures 5 seeds: North pit 2's 4 and the last
    seed, in South pit 5``."""
    n = before.pits
    opposite = opposite_index(n, last)
    who = game.seat_name(seat)
    if game.rules.capture is Capture.OPPOSITE_AND_LAST:
        return (
            f"{who} captures {captured} seed{'s' if captured != 1 else ''}: "
            f"{_kalah_pit_name(n, opposite)}'s {captured - 1} and the last seed, in {_kalah_pit_name(n, last)}"
        )
    return f"{who} captures {captured} seed{'s' if captured != 1 else ''} from {_kalah_pit_name(n, opposite)}"


def _board_before_sweep(before: KalahState, steps: list[dict]) -> list[int]:
    """The board after the sowing and capture of a move, before the end-of-game sweep."""
    cells = list(before.board)
    for step in steps:
        if step["kind"] == "pickup":
            cells[step["cell"]] = 0
        elif step["kind"] == "sow":
            for c in step["cells"]:
                cells[c] += 1
        elif step["kind"] == "capture":
            for c in step["cells"]:
                cells[c] = 0
            cells[step["store"]] += step["seeds"]
    return cells


# --- Bao --------------------------------------------------------------------------------


def _bao_legal(game: Bao, state: BaoState) -> list[dict]:
    moves = game.legal_moves(state)
    pairs: dict[tuple[int, int], int] = {}
    for m in moves:
        pairs[(m.hole, m.direction)] = pairs.get((m.hole, m.direction), 0) + 1
    out = []
    for m in moves:
        kichwa = None
        if m.capture and m.namua:
            kichwa = "left" if m.direction == CW else "right"
        out.append(
            {
                "move": str(m),
                "hole": hole_name(m.player, m.hole),
                "dir": m.letter,
                "sow": "cw" if m.direction == CW else "acw",
                "capture": m.capture,
                "house": m.house if pairs[(m.hole, m.direction)] > 1 else None,
                "kichwa": kichwa,
            }
        )
    return out


def _bao_last(game: Bao, before: BaoState, move, after: BaoState) -> dict:
    notices, steps = _bao_events(game, before, after)
    ev = after.last
    return {"notices": notices, "steps": steps, "laps_total": ev.lap_count if ev else 0}


def _bao_board(game: Bao, state: BaoState) -> dict:
    def hole(p: int, i: int) -> dict:
        return {"name": hole_name(p, i), "player": p, "index": i, "seeds": state.holes[p][i]}

    rows = [
        [hole(1, i) for i in range(8, 16)],  # North back: b8..b1
        [hole(1, i) for i in range(7, -1, -1)],  # North front: a8..a1
        [hole(0, i) for i in range(0, 8)],  # South front: A1..A8
        [hole(0, i) for i in range(15, 7, -1)],
    ]  # South back: B1..B8
    return {
        "kind": "bao",
        "rows": rows,
        "holes": [list(state.holes[0]), list(state.holes[1])],
        "stock": list(state.stock),
        "stage": ["namua" if s else "mtaji" for s in state.stock],
        "nyumba": [
            {"hole": hole_name(p, NYUMBA), "owned": state.owns[p], "functional": state.functional(p)} for p in (0, 1)
        ],
        "takasia": hole_name(state.player, state.takasia) if state.takasia is not None else None,
        "must_capture": (hole_name(1 - state.player, state.must_capture) if state.must_capture is not None else None),
        "to_move": state.player,
    }


def _bao_events(game: Bao, before: BaoState, after: BaoState) -> tuple[list, list]:
    ev = after.last
    if ev is None:
        return [], []
    p, q = ev.player, 1 - ev.player
    steps: list[dict] = []
    if ev.move.namua:
        steps.append({"kind": "stock", "hole": hole_name(p, ev.move.hole)})
    previous_end: int | None = None
    for lap in ev.laps:
        if lap.kind == "capture":
            assert lap.captured is not None  # a capture lap names the captured hole
            source = hole_name(q, lap.captured)
        elif lap.kind == "tax":
            source = hole_name(p, NYUMBA)
        elif lap.kind == "sow":
            source = hole_name(p, ev.move.hole)
        else:  # relay or house: the hole where the previous lap ended
            assert previous_end is not None  # a relay or house lap follows another lap
            source = hole_name(p, previous_end)
        previous_end = lap.last
        steps.append(
            {
                "kind": lap.kind,
                "player": p,
                "from": source,
                "holes": [hole_name(p, h) for h in lap.holes()],
                "seeds": lap.seeds,
                "captured": hole_name(q, lap.captured) if lap.captured is not None else None,
                "captured_seeds": next((n for h, n in ev.captures if h == lap.captured), 0)
                if lap.captured is not None
                else 0,
            }
        )
    notices = []
    if ev.captures:
        total = sum(n for _, n in ev.captures)
        notices.append(
            {
                "kind": "capture",
                "text": f"{len(ev.captures)} capture{'s' if len(ev.captures) > 1 else ''} "
                f"({total} seed{'s' if total != 1 else ''})",
            }
        )
    if ev.taxed:
        notices.append({"kind": "tax", "text": "tax: 2 seeds from the nyumba"})
    if ev.house_played:
        notices.append({"kind": "house", "text": "the nyumba is played (safari)"})
    if ev.house_stopped:
        notices.append({"kind": "house", "text": "the move stops in the nyumba"})
    for lost in ev.houses_lost:
        notices.append({"kind": "house", "text": f"{game.player_name(lost)} loses the nyumba"})
    if ev.takasia is not None:
        notices.append(
            {
                "kind": "takasia",
                "text": f"takasia: {game.player_name(q)} may not empty {hole_name(q, ev.takasia)} next move",
            }
        )
    if game.is_terminal(after):
        w = game.winner(after)
        notices.append(
            {
                "kind": "game_over",
                "text": f"game over: {game.player_name(w)} wins" if w is not None else "game over: draw",
            }
        )
    return notices, steps


# --- tic-tac-toe ------------------------------------------------------------------------


def _ttt_board(state: TicTacToeState) -> dict:
    line = None
    for a, b, c in LINES:
        if state.cells[a] != "." and state.cells[a] == state.cells[b] == state.cells[c]:
            line = [a, b, c]
            break
    return {"kind": "tictactoe", "cells": list(state.cells), "line": line}


def _ttt_legal(game: TicTacToe, state: TicTacToeState) -> list[dict]:
    return [{"move": str(m), "cell": m.cell} for m in game.legal_moves(state)]


def _ttt_last(game: TicTacToe, before: TicTacToeState, move, after: TicTacToeState) -> dict:
    player = game.to_move(before)
    return {
        "notices": _game_over(game, after, ["X", "O"]),
        "steps": [{"kind": "place", "cell": move.cell, "mark": "XO"[player]}],
    }


# --- Oware ------------------------------------------------------------------------------


def _oware_board(game: Oware, state: OwareState) -> dict:
    n = state.size
    return {
        "kind": "oware",
        "houses": n,
        # the houses in sowing order (South's A.. then North's a..), then South's and North's stores
        "cells": [*state.houses, *state.stores],
        "stores": [2 * n, 2 * n + 1],
        "names": [house_name(n, i) for i in range(2 * n)],
        "rows": {"south": list(range(n)), "north": list(range(2 * n - 1, n - 1, -1))},
        "to_move": state.seat,
        "finished": state.finished,
        "total": game.rules.total,
        "unscored": state.unscored,
        "restricted": _oware_restricted(game, state),
    }


def _oware_restricted(game: Oware, state: OwareState) -> dict | None:
    """Why some non-empty houses of the player to move may not be sown (must feed, a
    forbidden grand slam), or None when every one may."""
    if state.finished:
        return None
    n = state.size
    seat = state.seat
    legal = {m.house for m in game.legal_moves(state)}
    barred = [h for h in range(seat * n, seat * n + n) if state.houses[h] and h not in legal]
    if not barred:
        return None
    me, other = seat_name(seat), seat_name(1 - seat)
    allowed = _names(n, sorted(legal))
    if game.rules.must_feed and not any(state.row(1 - seat)):
        text = f"{other} has no seeds: {me} must feed them, and only {allowed} reach{'es' if len(legal) == 1 else ''} {other}'s row"
        return {"kind": "must_feed", "seat": seat, "houses": [house_name(n, h) for h in barred], "text": text}
    text = (
        f"{_names(n, barred)} would capture every seed of {other} (a grand slam), which these rules forbid; "
        f"{me} may sow {allowed}"
    )
    return {"kind": "no_grand_slam", "seat": seat, "houses": [house_name(n, h) for h in barred], "text": text}


def _names(n: int, houses: list[int]) -> str:
    """House names as a list in words: ``D``, ``D and E``, ``D, E and F``."""
    words = [house_name(n, h) for h in houses]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _oware_legal(game: Oware, state: OwareState) -> list[dict]:
    n = state.size
    # number: the house counted from its owner's left (a number key plays it, as `mancala play` reads it)
    return [{"move": str(m), "cell": m.house, "number": m.house % n + 1} for m in game.legal_moves(state)]


def oware_sowing_path(game: Oware, houses: tuple[int, ...], origin: int) -> list[tuple[str, int]]:
    """The sowing from ``origin`` seed by seed: ``("sow", house)`` for each seed, in order,
    with ``("skip", house)`` where the hand passes a house without sowing (the origin on a lap,
    a house of 12 under ``skip_twelve``) and ``("back", origin)`` for seeds returned to the origin
    when every other house is skipped.  Gives the houses of :meth:`Oware.sowing`."""
    rules = game.rules
    size = len(houses)
    cells = list(houses)
    seeds = cells[origin]
    cells[origin] = 0
    path: list[tuple[str, int]] = []
    i, passed = origin, 0
    while seeds:
        i = (i + 1) % size
        skip = (i == origin and rules.skip_origin) or (rules.skip_twelve and i != origin and cells[i] >= 12)
        if skip:
            path.append(("skip", i))
            passed += 1
            if passed >= size:  # nowhere to sow: the seeds left go back to the origin
                path[-passed:] = []
                path += [("back", origin)] * seeds
                break
            continue
        passed = 0
        cells[i] += 1
        seeds -= 1
        path.append(("sow", i))
    return path


def _oware_last(game: Oware, before: OwareState, move, after: OwareState) -> dict:
    ev = after.last
    if ev is None:
        return {"notices": [], "steps": []}
    n = before.size
    seat = ev.seat
    origin = move.house
    cells = list(before.houses)
    steps: list[dict] = [{"kind": "pickup", "cell": origin, "seeds": cells[origin]}]
    cells[origin] = 0
    for kind, house in oware_sowing_path(game, before.houses, origin):
        if kind == "skip":
            steps.append({"kind": "skip", "cell": house, "why": "origin" if house == origin else "twelve"})
            continue
        cells[house] += 1
        if steps[-1]["kind"] == "sow":
            steps[-1]["cells"].append(house)
        else:
            steps.append({"kind": "sow", "cells": [house]})
    stores = list(before.stores)
    if ev.grand_slam:
        chain = game.capture_chain(cells, seat, ev.landing)
        steps.append({"kind": "grand_slam", "cells": chain, "rule": ev.grand_slam})
    for house, seeds in ev.captures:
        steps.append({"kind": "capture", "cell": house, "seeds": seeds, "store": 2 * n + seat})
        cells[house] = 0
        stores[seat] += seeds
    if after.finished:
        sweep = _oware_sweep(n, ev, cells, stores, after)
        if sweep is not None:
            steps.append(sweep)
    return {"notices": _oware_notices(game, before, after, ev, cells), "steps": steps}


def _oware_sweep(n: int, ev: OwareEvent, cells: list[int], stores: list[int], after: OwareState) -> dict | None:
    """The end's share-out of the seeds left (``cells`` and ``stores`` after the move's
    captures), as moves from each emptied house to a store (None: nobody's store)."""
    left = [h for h in range(2 * n) if cells[h] and not after.houses[h]]
    if not left:
        return None
    gained = [after.stores[s] - stores[s] for s in (0, 1)]
    rows = [sum(cells[:n]), sum(cells[n : 2 * n])]
    to: list[int | None]
    if ev.end == "grand-slam":
        to = [2 * n + 1 - ev.seat] * (2 * n)
    elif gained == rows:
        to = [2 * n if h < n else 2 * n + 1 for h in range(2 * n)]
    elif gained == [sum(rows), 0] or gained == [0, sum(rows)]:
        to = [2 * n + (0 if gained[0] else 1)] * (2 * n)
    else:  # split evenly, or nobody's
        to = [None] * (2 * n)
    return {
        "kind": "sweep",
        "moves": [{"from": h, "to": to[h], "seeds": cells[h]} for h in left],
        "stores": list(after.stores),
    }


_OWARE_SLAM_WORDS = {
    "no-capture": "grand slam: it would take every seed of {other}, so nothing is captured",
    "illegal": "grand slam",
    "illegal-unless-only": "grand slam, allowed as every move left is one: it captures as usual",
    "capture-all": "grand slam: every seed of {other} is captured",
    "opponent-takes-rest": "grand slam: every seed of {other}'s row is captured, and {other} takes the seeds left on the board",
    "leave-left": "grand slam: the last house reached is left to {other}",
    "leave-right": "grand slam: {other}'s first house is left to them",
}


def _oware_notices(game: Oware, before: OwareState, after: OwareState, ev: OwareEvent, cells: list[int]) -> list[dict]:
    n = before.size
    other = seat_name(1 - ev.seat)
    notices = []
    if ev.skipped_origin:
        notices.append({"kind": "lap", "text": f"a lap of {ev.sown} seeds: {ev.move} is skipped (it stays empty)"})
    if ev.grand_slam:
        notices.append({"kind": "grand_slam", "text": _OWARE_SLAM_WORDS[ev.grand_slam].format(other=other)})
    if ev.captures:
        houses = ", ".join(f"{house_name(n, h)} {s}" for h, s in ev.captures)
        notices.append({"kind": "capture", "text": f"capture of {ev.captured} ({houses})"})
    if after.finished:  # (a rule barring the next player's moves is the board's `restricted`)
        notices.append({"kind": "game_over", "text": _oware_end_text(game, after, ev.seat, ev.end, cells)})
    return notices


_SHARE_WORDS = {
    "own-row": "each side takes the seeds of its own row",
    "split": "the seeds left are split evenly",
    "unscored": "the seeds left count for nobody",
    "none": "",
}


def _oware_end_text(game: Oware, after: OwareState, seat: int, end: str | None, cells: list[int]) -> str:
    """Why the game ended with ``seat``'s move (``end``: the move's, see :class:`OwareEvent`;
    ``cells``: the houses after the move, before the share-out), and the final count."""
    rules = game.rules
    n = after.size
    mover, other = seat_name(seat), seat_name(1 - seat)
    if end == "majority":
        best = max((0, 1), key=lambda s: after.stores[s])
        why = f"{seat_name(best)} has captured {after.stores[best]} of the {rules.total} seeds, more than half"
        if rules.sweep_at_majority and any(cells[: 2 * n]):
            why += f"; {_SHARE_WORDS['own-row']}"
    elif end == "repetition":
        why = f"the position repeats with no capture since it was last seen, so {_SHARE_WORDS[rules.repetition.value]}"
    elif end == "no-move":
        theirs, mine = cells[(1 - seat) * n : (2 - seat) * n], cells[seat * n : seat * n + n]
        if not any(theirs):
            why = f"{other} has no seeds to sow"
        elif rules.must_feed and not any(mine):
            why = f"{other} cannot feed {mover}: no move of {other}'s reaches {mover}'s empty row"
        else:
            why = f"every move of {other}'s would be a grand slam, which these rules forbid"
        left = sum(cells[: 2 * n])
        if left and rules.cannot_move.value == "own-row" and not (any(theirs) and any(mine)):
            owner = other if any(theirs) else mover
            why += f"; {owner} takes the {left} seed{'s' if left != 1 else ''} left, all in its row"
        elif left:
            why += f"; {_SHARE_WORDS[rules.cannot_move.value]}"
    elif end == "grand-slam":
        why = f"{mover}'s grand slam ends it: {other} takes the seeds left"
    else:
        why = f"the limit of {rules.max_plies} moves is reached: each side takes the seeds of its own row"
    count = f"South {game.final_seeds(after, 0)}, North {game.final_seeds(after, 1)}"
    if after.unscored:
        count += f" ({after.unscored} unscored)"
    return f"game over: {why}. Final count: {count}"


# --- Togyz Kumalak ------------------------------------------------------------------------


def _togyz_board(game: TogyzKumalak, state: TogyzState) -> dict:
    n = state.size
    return {
        "kind": "togyz",
        "houses": n,
        # the houses in sowing order (South's 1.. then North's 1..), then South's and North's kazans
        "cells": [*state.houses, *state.kazans],
        "stores": [2 * n, 2 * n + 1],
        "names": [str(i % n + 1) for i in range(2 * n)],
        "rows": {"south": list(range(n)), "north": list(range(2 * n - 1, n - 1, -1))},
        # each player's tuzdik: the house (board index) on the opponent's row, or null
        "tuzdiks": [t if t >= 0 else None for t in state.tuzdiks],
        "to_move": state.seat,
        "finished": state.finished,
        "total": game.rules.total,
        "unscored": 0,
        "restricted": None,
    }


def _togyz_legal(game: TogyzKumalak, state: TogyzState) -> list[dict]:
    n = state.size
    return [{"move": str(m), "cell": m.house, "number": m.house % n + 1} for m in game.legal_moves(state)]


def _togyz_last(game: TogyzKumalak, before: TogyzState, move, after: TogyzState) -> dict:
    """The move stone by stone (the first back into the origin unless it is a single stone; a
    stone reaching a tuzdik goes to its owner's kazan), the capture or the tuzdik made, and the
    end's share-out, with notices in words."""
    ev = after.last
    if ev is None:
        return {"notices": [], "steps": []}
    n = before.size
    origin = move.house
    count = before.houses[origin]
    steps: list[dict] = [{"kind": "pickup", "cell": origin, "seeds": count}]
    first = origin + 1 if count == 1 else origin
    cells = list(before.houses)
    cells[origin] = 0
    for k in range(count):
        cell = (first + k) % (2 * n)
        owner = before.tuzdik_owner(cell)
        if owner is not None:
            steps.append({"kind": "deliver", "cell": cell, "store": 2 * n + owner})
        elif steps[-1]["kind"] == "sow":
            steps[-1]["cells"].append(cell)
            cells[cell] += 1
        else:
            steps.append({"kind": "sow", "cells": [cell]})
            cells[cell] += 1
    if ev.capture is not None:
        steps.append({"kind": "capture", "cell": ev.capture[0], "seeds": ev.capture[1], "store": 2 * n + ev.seat})
        cells[ev.capture[0]] = 0
    if ev.tuzdik is not None:
        steps.append({"kind": "tuzdik", "cell": ev.tuzdik, "seeds": 3, "store": 2 * n + ev.seat, "owner": ev.seat})
        cells[ev.tuzdik] = 0
    if after.finished and ev.end != "majority":
        left = [h for h in range(2 * n) if cells[h]]
        if left:
            moves = [{"from": h, "to": 2 * n + h // n, "seeds": cells[h]} for h in left]
            steps.append({"kind": "sweep", "moves": moves, "stores": list(after.kazans)})
    return {"notices": _togyz_notices(game, after, ev), "steps": steps}


def _togyz_notices(game: TogyzKumalak, after: TogyzState, ev) -> list[dict]:
    n = after.size
    me, other = seat_name(ev.seat), seat_name(1 - ev.seat)
    notices = []
    for owner in (0, 1):
        if ev.delivered[owner]:
            k = ev.delivered[owner]
            text = f"{k} stone{'s' if k != 1 else ''} fell into {seat_name(owner)}'s tuzdik: {seat_name(owner)}'s kazan"
            notices.append({"kind": "tuzdik_delivery", "text": text})
    if ev.capture is not None:
        text = f"{me} captures {ev.capture[1]} stones from {house_label(n, ev.capture[0])}: an even count"
        notices.append({"kind": "capture", "text": text})
    if ev.tuzdik is not None:
        text = (
            f"tuzdik! 3 stones make {house_label(n, ev.tuzdik)} {me}'s tuzdik for the rest of the game: "
            f"+3 now, and every stone sown there goes to {me}'s kazan"
        )
        notices.append({"kind": "tuzdik", "text": text})
    if ev.refused is not None:
        why = {
            "owned": f"{me} already has a tuzdik (one a player)",
            "last-house": f"house {n}, the last of a row, cannot be a tuzdik",
            "opposite": f"{other}'s tuzdik has the same number (a tuzdik may not face the other)",
        }[ev.refused]
        notices.append(
            {"kind": "tuzdik_refused", "text": f"3 stones in {house_label(n, ev.landing)}, but no tuzdik: {why}"}
        )
    if after.finished:
        if ev.end == "majority":
            best = max((0, 1), key=lambda s: after.kazans[s])
            why = f"{seat_name(best)} has {after.kazans[best]} of the {game.rules.total} stones, more than half"
        elif ev.end == "no-move":
            why = f"{other} has no stones to move, so {me} takes every stone left on the board"
        else:
            why = f"the limit of {game.rules.max_plies} moves is reached: each side takes the stones of its own row"
        count = f"South {game.final_stones(after, 0)}, North {game.final_stones(after, 1)}"
        notices.append({"kind": "game_over", "text": f"game over: {why}. Final count: {count}"})
    return notices


#: the boards the page draws, by board kind (a game's ``Traits.board``)
VIEWS: dict[str, GameView] = {
    "kalah": GameView(_kalah_board, _kalah_legal, _kalah_last),
    "bao": GameView(_bao_board, _bao_legal, _bao_last),
    "tictactoe": GameView(lambda game, state: _ttt_board(state), _ttt_legal, _ttt_last),
    "oware": GameView(_oware_board, _oware_legal, _oware_last, _oware_start_end),
    "togyz": GameView(_togyz_board, _togyz_legal, _togyz_last),
}
