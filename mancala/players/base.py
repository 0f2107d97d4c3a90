"""What every player is: something that picks a move (:class:`Player`), rebuilt from its
spec in any process, with whatever it remembers between moves as plain data."""

from __future__ import annotations

from typing import Any, Protocol

from mancala.games.base import Game


class Player(Protocol):
    """Anything that picks a move for the player to move.

    A player crosses a process boundary as data only: its ``spec`` rebuilds it, and whatever
    it must remember from one move to the next is its :func:`player_memory` (plain data that
    :func:`restore_memory` takes up again).  Players whose memory is a live thing (an outside
    program's process) say ``portable = False``: they stay in the process that started them."""

    #: the spec string that rebuilds this player
    spec: str

    def choose(self, game: Game, state) -> Any:
        """A legal move for the player to move in ``state``."""
        ...


#: what a player carries from one move to the next, as plain data (JSON-ready: numbers,
#: strings, lists and dicts); empty for players that remember nothing
Memory = dict[str, Any]


def player_memory(player: Player) -> Memory:
    """What ``player`` must remember to go on playing in another process (``{}``: nothing)."""
    memory = getattr(player, "memory", None)
    return memory() if callable(memory) else {}


def restore_memory(player: Player, memory: Memory | None) -> Player:
    """``player`` (just built from its spec) with ``memory`` taken up again; returns it."""
    restore = getattr(player, "restore", None)
    if memory and callable(restore):
        restore(memory)
    return player


def is_portable(player: Player) -> bool:
    """Whether ``player`` can be rebuilt from its spec and memory in any process (outside
    programs cannot: their process holds the game)."""
    return bool(getattr(player, "portable", True))


def uses_engine(player: Player, game: Game) -> bool:
    """Whether ``player`` searches ``game`` with a compiled engine: its first move in a process
    loads the engine, and on a machine that never ran it, compiles it first (a minute or more)."""
    method = getattr(player, "uses_engine", None)
    return bool(method(game)) if callable(method) else False


def uses_table(player: Player, game: Game) -> bool:
    """Whether ``player``'s moves of ``game`` read an endgame table its engine builds in the
    background on first use (:mod:`mancala.engine.table_builds`): a UI where a person plays
    it starts that build."""
    method = getattr(player, "uses_table", None)
    return bool(method(game)) if callable(method) else False


def wall_budget(player: Player, game: Game) -> float | None:
    """The most ``player`` may take a move of ``game`` in wall time, whatever the machine's load:
    its time budget, else the cap on its depth or node budget (a level's, see
    :class:`mancala.players.levels.Level`); None when it has neither."""
    method = getattr(player, "wall_budget", None)
    return method(game) if callable(method) else expected_seconds(player, game)


def expected_seconds(player: Player, game: Game) -> float | None:
    """The most ``player`` may think about a move of ``game`` when it has a time budget
    (what a person waiting is told); None when its budget is depth or nodes, not time."""
    method = getattr(player, "expected_seconds", None)
    return method(game) if callable(method) else None
