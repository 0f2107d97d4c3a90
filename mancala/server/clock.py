"""The time control of a hosted game: each player's move and game clocks, and the flag
that falls when one runs out (``docs/protocol.md``'s ``clock``).

A :class:`Clock` knows nothing of the game it times: when a player's time is up it calls
the ``flagged`` function its game gave :meth:`Clock.start`, which ends the game.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from mancala.errors import BadInput

#: called when a player's time is up, with the player and why (``ran out of time (5 s per move)``)
Flagged = Callable[[int, str], None]


class Clock:
    """Per-move and per-game clocks of both players; running out loses."""

    def __init__(self, per_move: float | None, per_game: float | None) -> None:
        self.per_move = per_move
        self.per_game = per_game
        #: each player's time left on the game clock (None entries when there is no game clock)
        self.remaining: list[Any] = [per_game, per_game]
        self.running: int | None = None
        self.since = 0.0
        self.handle: asyncio.TimerHandle | None = None

    @classmethod
    def from_spec(cls, spec: dict) -> "Clock":
        """A clock from ``{"move": s, "game": s}``; raises BadInput for bad values."""
        unknown = set(spec) - {"move", "game"}
        if unknown:
            raise BadInput(f"clock: unknown field(s) {', '.join(sorted(unknown))}; use move and game (seconds)")
        values: dict[str, float | None] = {}
        for key in ("move", "game"):
            v = spec.get(key)
            if v is None:
                values[key] = None
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.05 <= v <= 86400:
                raise BadInput(f"clock: {key} must be a number of seconds from 0.05 to 86400, got {v!r}")
            values[key] = float(v)
        if values["move"] is None and values["game"] is None:
            raise BadInput("clock: give move and/or game (seconds)")
        return cls(values["move"], values["game"])

    def charge(self, player: int) -> None:
        """``player`` has just moved: take its thinking time off its game clock."""
        if self.running == player and self.per_game is not None:
            self.remaining[player] = max(0.0, self.remaining[player] - (time.monotonic() - self.since))
        self.running = None

    def start(self, player: int, flagged: Flagged) -> None:
        """``player``'s clock runs; the timer calls ``flagged`` if it runs out."""
        if self.handle is not None:
            self.handle.cancel()
        self.running = player
        self.since = time.monotonic()
        limits = [x for x in (self.per_move, self.remaining[player]) if x is not None]
        budget = min(limits)
        self.handle = asyncio.get_running_loop().call_later(budget, self._flag, player, flagged, self.since)

    def _flag(self, player: int, flagged: Flagged, since: float) -> None:
        if self.running != player or self.since != since:
            return
        elapsed = time.monotonic() - since
        if self.per_game is not None:
            self.remaining[player] = max(0.0, self.remaining[player] - elapsed)
        self.running = None
        which = (
            "move" if self.per_move is not None and (self.per_game is None or self.remaining[player] > 0) else "game"
        )
        limit = self.per_move if which == "move" else self.per_game
        flagged(player, f"ran out of time ({limit:g} s per {which})")

    def stop(self) -> None:
        """The game is over (or is put away): stop the timer."""
        if self.running is not None:
            self.charge(self.running)
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def view(self, running: int | None) -> dict:
        """The clock as the ``state`` message shows it."""
        remaining = list(self.remaining)
        if self.running is not None and self.per_game is not None:
            remaining[self.running] = max(0.0, remaining[self.running] - (time.monotonic() - self.since))
        return {
            "move": self.per_move,
            "game": self.per_game,
            "remaining": [None if r is None else round(r, 2) for r in remaining],
            "running": self.running if running is not None else None,
            "move_elapsed": round(time.monotonic() - self.since, 2) if self.running is not None else None,
        }
