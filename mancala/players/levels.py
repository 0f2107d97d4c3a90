"""Difficulty levels, weakest first: each level is a player spec on Kalah (where the ladder
was measured) and one on the other games; each registers itself as a player kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from mancala.games.base import Game
from mancala.players.base import Memory, Player, expected_seconds, player_memory, restore_memory, uses_engine
from mancala.players.builtin import SearchPlayer
from mancala.players.registry import PlayerKind, make_player, register_kind
from mancala.search import SearchResult


@dataclass(frozen=True)
class Level:
    """A difficulty level: the player it is on Kalah and on the other games.

    Budgets are depths (turns) and engine nodes, never seconds alone, so a level plays the
    same on a busy machine; ``seconds`` only caps Python alpha-beta in wide games (Bao's
    middle game), where the depth is reached by iterative deepening.  The Kalah ladder
    was measured with ``mancala arena`` (docs/evaluation.md, "Difficulty levels")."""

    name: str
    kalah: str
    other: str
    seconds: float = 30.0


#: the evaluation the Python levels use on Kalah (docs/evaluation.md)
LEVEL_EVAL = "store:1,seeds:0.25,extra:0.5,threat:0.5"

#: difficulty levels, weakest first (the CSE481 project asked for easy, medium and hard).  Measured on
#: Kalah(6,4) with ``mancala arena`` (docs/evaluation.md, "Difficulty levels": Elo on one
#: joint scale, and the score against OpenSpiel's MCTS at 100 / 1000 / 5000 simulations):
#:
#:    beginner   random                     -832   0% /  0% /  0%
#:    easy       greedy                     -418  25% /  0% / 25%
#:    medium     alpha-beta depth 2, E      -205  70% / 40% / 10%
#:    hard       alpha-beta depth 4, E       +18  90% / 75% / 55%
#:    expert     engine, depth 5            +207 100% / 75% / 85%
#:    strongest  engine, 6,000,000 nodes, E +482   (100% vs 5000)
#:
#: Every step is more than 180 Elo and neighbours' 95% intervals do not overlap.
#: On Bao the levels are the Bao engine at depths 4, 8, 10 and 14 (docs/evaluation.md, "The
#: levels on Bao, measured": every step >= 100 Elo; depth 12 for strongest was only ~110
#: above depth 10, depth 14 is ~200 above).
LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("beginner", "random", "random", 1.0),
        Level("easy", "greedy", "greedy", 2.0),
        Level("medium", f"alphabeta:depth=2,eval={LEVEL_EVAL}", "alphabeta:depth=4", 5.0),
        Level("hard", f"alphabeta:depth=4,eval={LEVEL_EVAL}", "alphabeta:depth=8", 15.0),
        Level("expert", "best:depth=5", "alphabeta:depth=10", 30.0),
        Level("strongest", f"best:nodes=6000000,eval={LEVEL_EVAL}", "alphabeta:depth=14", 60.0),
    )
}
#: the most a level may think per move in wide games, in seconds
LEVEL_SECONDS = {name: lv.seconds for name, lv in LEVELS.items()}


@dataclass
class LevelPlayer:
    """A difficulty level: plays as its Kalah player on Kalah, its other player elsewhere."""

    level: Level
    spec: str = ""
    _players: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.spec = self.spec or self.level.name

    def _inner(self, name: str) -> Player:
        """The level's player on games called ``name`` (``kalah`` or ``other``), built once."""
        if name not in self._players:
            kalah = name == "kalah"
            player = make_player(self.level.kalah if kalah else self.level.other)
            if isinstance(player, SearchPlayer) and player.algorithm == "alphabeta" and not kalah:
                player.seconds = self.level.seconds
            self._players[name] = player
        return self._players[name]

    def player_for(self, game: Game) -> Player:
        """The player this level is on ``game``."""
        return self._inner("kalah" if game.name == "kalah" else "other")

    def choose(self, game: Game, state) -> Any:
        """The level's move."""
        player = self.player_for(game)
        self._last_player = player
        return player.choose(game, state)

    def memory(self) -> Memory:
        """The memories of the players this level has been so far (by ``kalah``/``other``)."""
        out = {name: player_memory(p) for name, p in self._players.items()}
        return {k: v for k, v in out.items() if v}

    def restore(self, memory: Memory) -> None:
        """Take up :meth:`memory` again (in another process)."""
        for name, inner in memory.items():
            restore_memory(self._inner("kalah" if name == "kalah" else "other"), inner)

    def uses_engine(self, game: Game) -> bool:
        """Whether the level's player on ``game`` searches with an engine."""
        return uses_engine(self.player_for(game), game)

    def expected_seconds(self, game: Game) -> float | None:
        """The level's player's time budget on ``game``, when it has one."""
        return expected_seconds(self.player_for(game), game)

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
            f"the AI at level {_name}: {_lv.kalah} on Kalah, {_lv.other} elsewhere",
            _name,
            _name,
            _level(_name),
            label=f"AI — {_name}",
            title=f"{_name.capitalize()} AI",
            level=True,
            rank=10 + list(LEVELS).index(_name),
        )
    )
