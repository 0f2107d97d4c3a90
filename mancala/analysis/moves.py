"""Move choice off the event loop: an AI's move in a worker process from data (game spec,
position, player spec and memory), the players kept per seat, and the engines' warm-up."""

from __future__ import annotations

import time
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from mancala.engine import readiness
from mancala.engine.support import engine_support
from mancala.games import make_game
from mancala.games.base import Game
from mancala.players import Memory, Player, player_memory, rebuild_player, restore_memory


def warm_kernels() -> None:
    """Load (or compile, the first time in a tree) the fast Kalah engine's kernels in this
    process (each worker does it when it starts)."""
    from mancala.engine.engine import warm_up  # noqa: PLC0415 (numba loads only when needed)

    warm_up()


#: about how long an engine's warm-up takes when its compiled kernels are on disk (loading
#: them), and when they are not (compiling them: the first run after install), in seconds
#: (:mod:`mancala.engine.readiness`, which measures the compile on this machine)
LOAD_SECONDS = readiness.LOAD_SECONDS
COMPILE_SECONDS = readiness.COMPILE_SECONDS


def engine_on_disk() -> bool:
    """Whether every engine's compiled kernels are in numba's disk cache (the warm-up then
    loads them instead of compiling them).  Reads file names only: the server's own process
    never loads numba."""
    return readiness.every_engine_cached()


def warm_up_estimate() -> float:
    """About how many seconds the engines' warm-up (:func:`warm_engine`) will take here: the
    compiles left, each by its measured rate (:func:`mancala.engine.readiness.compile_left`)."""
    from mancala.engine.support import engine_records  # noqa: PLC0415

    left = [readiness.compile_left(record) for record in engine_records() if record.warm_up is not None]
    return sum(x for x in left if x is not None) or LOAD_SECONDS


def warm_engine() -> bool:
    """Make the engines ready, the default game's first: each engine's warm-up, in the order
    the engines registered (standard Kalah's kernels, table and endgame database, then Bao's
    kernels, then Oware's, then Togyz Kumalak's)."""
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


def ready_engine(game: Game) -> float:
    """Make ``game``'s engine ready in this process (load its kernels, tables and databases:
    its record's ``prepare``, else ``warm_up``); the seconds that took (about 0 when it was
    ready).  An engine not compiled yet is not compiled here: its compile starts in the
    background and its player searches in Python meanwhile (0 s)."""
    record = engine_support(game.name)
    if record is None or not record.plays(game):
        return 0.0
    if readiness.python_meanwhile(record):
        # not compiled yet: compile it in the background; the player searches in Python meanwhile
        readiness.start_compile(record)
        return 0.0
    start = time.monotonic()
    if record.prepare is not None:
        record.prepare(game, None)
    elif record.warm_up is not None:
        record.warm_up()
    readiness.mark_loaded(record.game)
    return time.monotonic() - start


def think_prepared(
    engine: bool, game_spec: str, state, spec: str, memory: Memory | None = None, seat: str | None = None
) -> tuple[Any, Memory, float]:
    """:func:`think`, after making the game's engine ready in this process when the player
    searches with it (``engine``); also the seconds that preparation took, which is not the
    player's thinking (the server's clock does not count it)."""
    prepared = ready_engine(game_of(game_spec)) if engine else 0.0
    move, after = think(game_spec, state, spec, memory, seat)
    return move, after, prepared


def forget(seat: str) -> None:
    """Drop the player kept for ``seat`` (its game is over)."""
    entry = _SEATED.pop(seat, None)
    close = getattr(entry[1], "close", None) if entry else None
    if callable(close):
        close()
