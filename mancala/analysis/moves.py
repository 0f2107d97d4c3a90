"""Move choice off the event loop: an AI's move in a worker process from data (game spec,
position, player spec and memory), the players kept per seat, and the engines' warm-up."""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from typing import Any

from mancala.games import make_game
from mancala.games.base import Game
from mancala.players import Memory, Player, player_memory, rebuild_player, restore_memory


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
        ("togyz/__pycache__", "search.negamax-"),
    )
    return all(any(any((root / folder).glob(prefix + "*.nbi")) for root in roots) for folder, prefix in wanted)


def warm_up_estimate() -> float:
    """About how many seconds the engines' warm-up (:func:`warm_engine`) will take here."""
    return LOAD_SECONDS if engine_on_disk() else COMPILE_SECONDS


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


def forget(seat: str) -> None:
    """Drop the player kept for ``seat`` (its game is over)."""
    entry = _SEATED.pop(seat, None)
    close = getattr(entry[1], "close", None) if entry else None
    if callable(close):
        close()
