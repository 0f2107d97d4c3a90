"""The lobby (``docs/protocol.md``'s ``lobby`` message): the games of this server that people
may join or watch, each with its game and rules in words, its clock, who waits and which
seats are free.

Only games created with a ``remote`` seat are listed (a match someone opened to others),
until they end; games between a person and an AI, hot-seat games and games between two AIs
stay private to the browser that made them (their id still opens them to watch).
"""

from __future__ import annotations

from typing import Iterable

from mancala.games.catalogue import game_info
from mancala.players import player_title
from mancala.server.session import GameSession


def rules_text(game) -> str:
    """The rules in words: the preset they match (``ethiopian``), else the rules' own
    description (``6 pits, 4 seeds, …``), ``standard`` for a game without options."""
    info = game_info(game)
    if info.rules is None:
        return "standard"
    preset = next((name for name, rules in info.presets.items() if rules == game.rules), None)
    return preset or game.rules.describe()


def clock_text(clock: dict | None) -> str:
    """A clock in words: ``5 min a game, 30 s a move``, ``no clock``."""
    if not clock:
        return "no clock"
    parts = []
    if clock.get("game"):
        game = clock["game"]
        parts.append(f"{game / 60:g} min a game" if game >= 60 else f"{game:g} s a game")
    if clock.get("move"):
        parts.append(f"{clock['move']:g} s a move")
    return ", ".join(parts) or "no clock"


def listed(session: GameSession) -> bool:
    """Whether the lobby lists ``session``: a game with a remote seat, not over yet."""
    return session.network and not session.over()


def free_seats(session: GameSession) -> list[int]:
    """The remote seats nobody has taken yet (a held seat is not free)."""
    return [p for p, s in enumerate(session.seats) if s.kind == "remote" and s.holder is None and s.gone_since is None]


def lobby_entry(session: GameSession) -> dict:
    """One game as the lobby lists it."""
    game, state = session.game, session.state
    free = free_seats(session)
    clock = session.clock.view(None) if session.clock is not None else None
    clock_spec = {"move": clock["move"], "game": clock["game"]} if clock else None
    players = []
    for p, seat in enumerate(session.seats):
        if seat.kind == "ai":
            who: str | None = player_title(seat.spec)
        else:
            who = seat.person
        players.append(
            {
                "player": p,
                "name": game.player_name(p, state),
                "kind": seat.kind,
                "who": who,
                "free": p in free,
                "connected": seat.kind == "ai" or seat.holder is not None,
                "held": session.held(p) is not None,
            }
        )
    return {
        "game_id": session.id,
        "game": game_info(game).title,
        "rules": rules_text(game),
        "clock": clock_spec,
        "clock_text": clock_text(clock_spec),
        "players": players,
        "seats_free": free,
        "started": not session.waiting,
    }


def lobby_games(sessions: Iterable[GameSession]) -> list[dict]:
    """The games the lobby lists, those with a free seat first, then the oldest first."""
    entries = [lobby_entry(s) for s in sessions if listed(s)]
    return sorted(entries, key=lambda e: not e["seats_free"])
