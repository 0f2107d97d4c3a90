"""The time control of a hosted game: each player's move and game clocks, and the flag
that falls when one runs out (``docs/protocol.md``'s ``clock``).

A :class:`Clock` knows nothing of the game it times: when a player's time is up it calls
the ``flagged`` function its game gave :meth:`Clock.start`, which ends the game.

An AI's move may include time that is not its thinking: the compiled engine's preparation
(compiling it on a machine that never ran it, loading it in a fresh worker process), which
the worker reports with the move.  Its game starts its clock with ``patience``: when the
time is up the flag waits that much longer for the move, and :meth:`Clock.charge` then takes
the thinking time only (less the preparation) and says whether the move came in time.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Protocol

from mancala.errors import BadInput

#: called when a player's time is up, with the player and why (``ran out of time (5 s per move)``)
Flagged = Callable[[int, str], None]


class Timer(Protocol):
    """A pending call (``asyncio.TimerHandle``) that can be cancelled."""

    def cancel(self) -> None:
        """Do not call it."""


class Clock:
    """Per-move and per-game clocks of both players; running out loses."""

    #: the time in seconds (monotonic) the clocks read: a test's fake clock replaces it
    now: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self, per_move: float | None, per_game: float | None) -> None:
        self.per_move = per_move
        self.per_game = per_game
        #: each player's time left on the game clock (None entries when there is no game clock)
        self.remaining: list[Any] = [per_game, per_game]
        self.running: int | None = None
        self.since = 0.0
        self.handle: Timer | None = None
        #: whether the running player's time is up and its flag waits (``patience``) for its move
        self.overdue = False

    def later(self, delay: float, fn: Callable[..., None], *args: Any) -> Timer:
        """Call ``fn(*args)`` in ``delay`` seconds (on the event loop; a test's fake clock replaces it)."""
        return asyncio.get_running_loop().call_later(delay, fn, *args)

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

    def charge(self, player: int, excluded: float = 0.0) -> str | None:
        """``player`` has just moved: take its thinking time (the time its clock ran, less
        ``excluded`` seconds: its engine's preparation) off its game clock.  Returns why it
        lost on time (``ran out of time (3 s per move)``) if the move came too late, else None."""
        late = None
        if self.running == player:
            if self.handle is not None:
                self.handle.cancel()
                self.handle = None
            thought = max(0.0, self.now() - self.since - max(0.0, excluded))
            if self.per_game is not None:
                self.remaining[player] = max(0.0, self.remaining[player] - thought)
            if self.per_move is not None and thought > self.per_move:
                late = self._why("move")
            elif self.per_game is not None and thought > 0 and self.remaining[player] <= 0:
                late = self._why("game")
        self.running = None
        self.overdue = False
        return late

    def start(self, player: int, flagged: Flagged, patience: float = 0.0) -> None:
        """``player``'s clock runs; the timer calls ``flagged`` if it runs out (``patience``
        seconds later: the flag then waits that much for a move whose time :meth:`charge`
        decides, see the module doc)."""
        if self.handle is not None:
            self.handle.cancel()
        self.running = player
        self.overdue = False
        self.since = self.now()
        limits = [x for x in (self.per_move, self.remaining[player]) if x is not None]
        budget = min(limits)
        self.handle = self.later(budget, self._time_up, player, flagged, self.since, patience)

    def _time_up(self, player: int, flagged: Flagged, since: float, patience: float) -> None:
        if self.running != player or self.since != since:
            return
        if patience > 0:  # the move may be on its way, its engine's preparation not counted: wait for it
            self.overdue = True
            self.handle = self.later(patience, self._time_up, player, flagged, since, 0.0)
            return
        elapsed = self.now() - since
        if self.per_game is not None:
            self.remaining[player] = max(0.0, self.remaining[player] - elapsed)
        self.running = None
        self.overdue = False
        self.handle = None
        which = (
            "move" if self.per_move is not None and (self.per_game is None or self.remaining[player] > 0) else "game"
        )
        flagged(player, self._why(which))

    def _why(self, which: str) -> str:
        """Why a player lost on time, by the ``move`` or the ``game`` clock."""
        limit = self.per_move if which == "move" else self.per_game
        return f"ran out of time ({limit:g} s per {which})"

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
            remaining[self.running] = max(0.0, remaining[self.running] - (self.now() - self.since))
        return {
            "move": self.per_move,
            "game": self.per_game,
            "remaining": [None if r is None else round(r, 2) for r in remaining],
            "running": self.running if running is not None else None,
            "move_elapsed": round(self.now() - self.since, 2) if self.running is not None else None,
        }
