"""Players: who chooses the moves.  The same players play every game.

A player is built from a short spec string (the CLI's ``--p1``/``--p2``) or
directly as an object::

    make_player("alphabeta:depth=6")        SearchPlayer("alphabeta", 6)
    make_player("minimax:depth=3,eval=material")
    make_player("alphabeta:time=0.05")      iterative deepening within 0.05 s a move
    make_player("hard")                     a difficulty level (beginner ... strongest, see LEVELS)
    make_player("best:time=2")              iterative deepening within 2 s a move (opening book first)
    make_player("best:nodes=2000000,book=off")   2 M engine nodes a move, no opening book
    make_player("best:nodes=20000,eval=store:1,extra:0.5")   the engine, leaves by evaluation terms
    make_player("random:seed=7"), make_player("greedy"), make_player("human")

The kinds live in their own modules and register themselves in the catalogue
(:mod:`.registry`): :mod:`.builtin`, :mod:`.levels`, and the outside ones, :mod:`.openspiel`
(OpenSpiel's bots), :mod:`.module` (a Python file's player class) and :mod:`.command` (a
ManKalah agent program).  The spec grammar is :mod:`.spec`, the player protocol :mod:`.base`.
"""

# every kind registers itself when its module is imported (the catalogue keeps their rank order)
from mancala.players import command, module, openspiel  # noqa: E402,F401,I001
from mancala.players.base import (
    Memory,
    Player,
    expected_seconds,
    wall_budget,
    is_portable,
    player_memory,
    restore_memory,
    uses_engine,
    uses_table,
)
from mancala.players.builtin import BestPlayer, HumanPlayer, RandomPlayer, SearchPlayer, best_move, best_search
from mancala.players.levels import LEVEL_SECONDS, LEVELS, Level, LevelPlayer
from mancala.players.registry import (
    PLAYER_KINDS,
    PlayerKind,
    ai_specs,
    kind_available,
    make_player,
    player_choices,
    player_title,
    rebuild_player,
    register_kind,
)
from mancala.players.spec import MAX_DEPTH, MAX_MOVE_SECONDS, ON_OFF, parse_player_spec, take_option

__all__ = [
    "BestPlayer",
    "HumanPlayer",
    "LEVELS",
    "LEVEL_SECONDS",
    "Level",
    "LevelPlayer",
    "MAX_DEPTH",
    "MAX_MOVE_SECONDS",
    "Memory",
    "ON_OFF",
    "PLAYER_KINDS",
    "Player",
    "PlayerKind",
    "RandomPlayer",
    "SearchPlayer",
    "ai_specs",
    "best_move",
    "best_search",
    "expected_seconds",
    "wall_budget",
    "is_portable",
    "kind_available",
    "make_player",
    "parse_player_spec",
    "player_choices",
    "player_title",
    "player_memory",
    "rebuild_player",
    "register_kind",
    "restore_memory",
    "take_option",
    "uses_engine",
    "uses_table",
]
