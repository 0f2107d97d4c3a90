"""Difficulty levels, weakest first: each level is a player spec per game whose engine has a
measured ladder of its own (its engine-support record's level budgets,
:mod:`mancala.engine.support`) and one for the other games; each registers itself as a
player kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from mancala.engine.support import engine_records
from mancala.games.base import Game
from mancala.players.base import (
    Memory,
    Player,
    expected_seconds,
    player_memory,
    restore_memory,
    uses_engine,
    uses_table,
    wall_budget,
)
from mancala.players.builtin import BestPlayer, SearchPlayer, has_engine
from mancala.players.registry import PlayerKind, make_player, register_kind
from mancala.search import SearchResult


@dataclass(frozen=True)
class Level:
    """A difficulty level: the player it is on each game that has a ladder of its own
    (``specs``: game name -> player spec), and on every other game (``specs["other"]``).

    Budgets are depths (turns) and engine nodes, never seconds alone, so a level plays the
    same on a busy machine; ``seconds`` caps Python alpha-beta in wide games (Bao's middle
    game), where the depth is reached by iterative deepening, and bounds an engine's depth or
    node budget in wall time (a loaded machine may slow a move down that much, no more).  The games' own
    ladders were measured with ``mancala arena`` (see their engine records)."""

    name: str
    specs: dict[str, str]
    seconds: float = 30.0

    def spec_for(self, game_name: str) -> str:
        """The player spec of this level on games called ``game_name``."""
        return self.specs.get(game_name, self.specs["other"])

    def ladder(self, game_name: str) -> str:
        """The key of ``specs`` that plays ``game_name`` (its own, or ``other``)."""
        return game_name if game_name in self.specs else "other"

    def ladder_for(self, game: Game) -> str:
        """The key of ``specs`` that plays ``game``: its own ladder, but ``other`` on rules its
        engine declines (Oware's ``skip_twelve``, ``max_plies``: its ladder's node budgets
        mean nothing to Python alpha-beta)."""
        ladder = self.ladder(game.name)
        if ladder != "other" and not has_engine(game):
            return "other"
        return ladder

    @property
    def other(self) -> str:
        """The level on games without a ladder of their own."""
        return self.specs["other"]


#: the generic ladder (games whose engine has no ladder of its own) and the most a level may
#: think per move there, in seconds.  On Bao the levels are the Bao engine at depths 4, 8, 10
#: and 14 (docs/evaluation.md, "The levels on Bao, measured": every step >= 100 Elo; depth 12
#: for strongest was only ~110 above depth 10, depth 14 is ~200 above).  The levels were
#: first measured on Kalah (docs/evaluation.md, "Difficulty levels"): every step more than
#: 180 Elo; the CSE481 project asked for easy, medium and hard.
GENERIC_LADDER = {
    "beginner": ("random", 1.0),
    "easy": ("greedy", 2.0),
    "medium": ("alphabeta:depth=4", 5.0),
    "hard": ("alphabeta:depth=8", 15.0),
    "expert": ("alphabeta:depth=10", 30.0),
    "strongest": ("alphabeta:depth=14", 60.0),
}


def _specs(name: str, other: str) -> dict[str, str]:
    """Level ``name``'s player specs: on each game whose engine record has a ladder, then
    ``other``."""
    own = {record.game: record.level_budgets[name] for record in engine_records() if record.level_budgets}
    return {**own, "other": other}


#: difficulty levels, weakest first
LEVELS: dict[str, Level] = {
    name: Level(name, _specs(name, other), seconds) for name, (other, seconds) in GENERIC_LADDER.items()
}
#: the most a level may think per move in wide games, in seconds
LEVEL_SECONDS = {name: lv.seconds for name, lv in LEVELS.items()}


@dataclass
class LevelPlayer:
    """A difficulty level: plays as its player on the game's own ladder (where its engine
    has one), its ``other`` player elsewhere."""

    level: Level
    spec: str = ""
    _players: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.spec = self.spec or self.level.name

    def _inner(self, ladder: str) -> Player:
        """The level's player of ``ladder`` (a game name of ``Level.specs``, or ``other``),
        built once; an ``other`` alpha-beta gets the level's seconds as a cap."""
        if ladder not in self._players:
            player = make_player(self.level.spec_for(ladder))
            if isinstance(player, SearchPlayer) and player.algorithm == "alphabeta" and ladder == "other":
                player.seconds = self.level.seconds
            if isinstance(player, BestPlayer) and player.seconds >= 1e8:
                # a depth or node budget, bounded in wall time too: a loaded machine slows it down
                player.cap = self.level.seconds
            self._players[ladder] = player
        return self._players[ladder]

    def player_for(self, game: Game) -> Player:
        """The player this level is on ``game``."""
        return self._inner(self.level.ladder_for(game))

    def choose(self, game: Game, state) -> Any:
        """The level's move."""
        player = self.player_for(game)
        self._last_player = player
        return player.choose(game, state)

    def memory(self) -> Memory:
        """The memories of the players this level has been so far (by ladder: a game's name,
        or ``other``)."""
        out = {name: player_memory(p) for name, p in self._players.items()}
        return {k: v for k, v in out.items() if v}

    def restore(self, memory: Memory) -> None:
        """Take up :meth:`memory` again (in another process)."""
        for name, inner in memory.items():
            restore_memory(self._inner(self.level.ladder(name)), inner)

    def uses_engine(self, game: Game) -> bool:
        """Whether the level's player on ``game`` searches with an engine."""
        return uses_engine(self.player_for(game), game)

    def uses_table(self, game: Game) -> bool:
        """Whether the level's player on ``game`` reads an endgame table built in the background."""
        return uses_table(self.player_for(game), game)

    def expected_seconds(self, game: Game) -> float | None:
        """The level's player's time budget on ``game``, when it has one."""
        return expected_seconds(self.player_for(game), game)

    def wall_budget(self, game: Game) -> float | None:
        """The most the level takes a move on ``game`` in wall time (its ``seconds`` caps an
        engine's depth or node budget)."""
        return wall_budget(self.player_for(game), game)

    @property
    def last(self) -> SearchResult | None:
        """The search behind the last move chosen (None for players that do not search)."""
        return getattr(getattr(self, "_last_player", None), "last", None)


def _level(name: str) -> Callable[[str, dict[str, str], Callable | None], LevelPlayer]:
    return lambda spec, options, ask: LevelPlayer(LEVELS[name])


for _name, _lv in LEVELS.items():
    register_kind(
        PlayerKind(
            _name,
            f"the AI at level {_name}: "
            + "".join(f"{spec} on {game.capitalize()}, " for game, spec in _lv.specs.items() if game != "other")
            + f"{_lv.other} elsewhere",
            _name,
            _name,
            _level(_name),
            label=f"AI — {_name}",
            title=f"{_name.capitalize()} AI",
            level=True,
            rank=10 + list(LEVELS).index(_name),
        )
    )
