"""The ``state`` message (``docs/protocol.md``): what every client of a hosted game is told
after each change: the board, the players, the moves, the clock, the status line, and
for each client its own seats, legal moves and whether it may undo.
"""

from __future__ import annotations

import time
from typing import Any

from mancala.games import game_spec
from mancala.games.base import position_string
from mancala.games.catalogue import title_of
from mancala.server.protocol import message
from mancala.server.session import Client, GameSession
from mancala.server.views import board_view, last_view, legal_view, traits_view


def state_message(
    session: GameSession, client: Client | None, request_id: Any = None, common: dict | None = None
) -> dict:
    """The ``state`` message for ``client`` (its seats, legal moves and undo); ``common``
    is :func:`common_state` when already built (a broadcast builds it once)."""
    common = common if common is not None else common_state(session)
    mover = common["to_move"]
    you = list(client.seats) if client is not None and client.session is session else []
    legal = common["_legal"] if mover is not None and mover in you else []
    out = message("state", request_id)
    out.update((k, v) for k, v in common.items() if k != "_legal")
    out.update(you=you, legal=legal, can_undo=session.can_undo(client))
    if client is not None and client.delta_history:
        start, out["history"] = history_delta(session, client)
        out["history_from"] = start
    return out


def history_delta(session: GameSession, client: Client) -> tuple[int, list[dict]]:
    """The moves of ``session``'s history ``client`` has not been sent, and where they start
    (the length of the history it was sent that still holds: an undo or a promoted side line
    takes back the rest); counts them as sent."""
    history = session.history
    start = 0
    if client.history_sent is not None and client.history_sent[0] == session.id:
        sent = client.history_sent[1]
        end = min(len(sent), len(history))
        while start < end and sent[start] is history[start]:
            start += 1
    client.history_sent = (session.id, list(history))
    return start, history[start:]


def common_state(session: GameSession) -> dict:
    """The part of the ``state`` message every client of the game gets alike."""
    game, state = session.game, session.state
    mover = session.to_move()
    legal = (
        legal_view(game, state)
        if (mover is not None and session.seats[mover].kind != "ai" and not session.waiting)
        else []
    )
    last = None
    if session.history:
        last = last_view(game, session.states[-2], session.record.moves[-1], state, len(session.record.moves))
    players = [
        {
            "player": p,
            "name": game.player_name(p, state),
            "spec": s.spec,
            "title": session.who(p),
            "kind": s.kind,
            "connected": s.kind == "ai" or s.holder is not None,
            "person": s.person if s.kind != "ai" else None,
            "held": session.held(p),
            **({"client": s.client_name} if s.client_name else {}),
        }
        for p, s in enumerate(session.seats)
    ]
    detail = session.hub.engine_detail(game)
    thinking = None
    if session.thinking is not None:
        thinking = dict(session.thinking, since=round(time.monotonic() - session.thinking["since"], 2))
        if "engine_left" in thinking:  # the header chip's number, never a second one
            thinking["engine_left"] = detail["left"] if detail is not None else None
    elif mover is not None and session.seats[mover].kind == "remote":
        thinking = {"player": mover, "spec": "remote", "since": round(time.monotonic() - session.last_move_time, 2)}
    return dict(
        game_id=session.id,
        ply=len(session.record.moves),
        game={
            "name": game.name,
            "spec": game_spec(game),
            "title": title_of(game),
            "options": game.rules.to_dict() if hasattr(game, "rules") else {},
            **traits_view(game),
        },
        players=players,
        to_move=mover,
        waiting=session.waiting,
        status=status(session, mover),
        board=board_view(game, state),
        position=position_string(game, state),
        _legal=legal,
        last=last,
        history=list(session.history),
        variations=session.lines.view(),
        can_redo=bool(session.redo_stack) and not session.strict,
        thinking=thinking,
        paused=session.paused,
        move_delay=session.move_delay,
        clock=session.clock.view(mover if not session.over() else None) if session.clock else None,
        engine="ready" if detail is None else "preparing",
        engine_detail=detail,
        table_build=session.hub.table_detail(game),
        result=result_of(session),
    )


def result_of(session: GameSession) -> dict | None:
    """The ``state``'s ``result``: the game's, with ``saved`` (whether its file is written in
    the results folder: false while it waits to be, see ``server/journal.py``) once it went there."""
    result = session.result()
    saved = session.hub.journal.saved(session.id) if session.in_results else None
    return result if result is None or saved is None else dict(result, saved=saved)


def status(session: GameSession, mover: int | None) -> str:
    """One line for the status bar (a seat held for its player who lost the connection said too)."""
    line = _status(session, mover)
    for p in range(len(session.seats)):
        held = session.held(p)
        if held is not None and p != mover:
            line += f" {session.names()[p]} disconnected: the seat is held for {held:.0f} s more."
    return line


def _status(session: GameSession, mover: int | None) -> str:
    result = result_of(session)
    if result is not None:
        if result.get("saved") is False:
            return (
                f"Game over. {result['text']} Not saved yet: the results folder cannot be written "
                f"({session.hub.journal.problem}); the server keeps the game and saves it when it can."
            )
        return "Game over. " + result["text"]
    if session.waiting:
        return f"Waiting for the remote player to join game {session.id}."
    assert mover is not None  # the game is not over
    seat = session.seats[mover]
    name = session.names()[mover]
    held = session.held(mover)
    if held is not None:
        return f"{name} disconnected: the seat is held for {held:.0f} s more."
    if seat.kind == "ai":
        doing = session.thinking.get("doing", "searching") if session.thinking is not None else "searching"
        if doing != "searching":
            return f"{name} is thinking ({doing})…"
        if session.paused:
            return f"Paused; {name} to move."
        return f"{name} is thinking…"
    if seat.kind == "remote" and seat.holder is None:
        return (
            f"Waiting for {name} to join (game {session.id})."
            if seat.gone_since is None
            else f"{name} disconnected; waiting for it to come back."
        )
    return f"{name} to move."
