"""Python players written against the CS151 assignment's starter code, as ``module:`` players.

The CS151 assignment hands out ``MancalaBoard.py`` and ``Player.py``: a board with
``P1Cups``, ``P2Cups`` (each player's cups 1..NCUPS in sowing order) and ``scoreCups``
(``[player 1's store, player 2's store]``), ``legalMove(player, cup)``,
``legalMoves(player)``, ``makeMove(player, cup)`` (True when the player moves again),
``gameOver()``, ``hasWon(num)``, ``getPlayersCups(num)``; and a ``Player(num, type, ply)``
class whose ``chooseMove(board)`` returns a cup number 1..NCUPS.  ``player.num`` is 1 for
the first player and 2 for the second.

Spec: ``module:path/to/file.py[:Class][,ply=N][,type=NAME]``.  The class defaults to
``MancalaPlayer`` when the file defines one, else ``Player``; ``type`` names one of the
class's type constants (default ``CUSTOM``, else ``ABPRUNE``, else ``MINIMAX`` when the
class has them); ``ply`` (default 4) is passed as the third argument when the
constructor takes one.  The file's folder is put on ``sys.path`` while it loads, so its
own ``from MancalaBoard import *`` works.

Our referee stays authoritative: before each move the player gets a *fresh* board built
from our position (the module's own ``MancalaBoard`` class when it has one, else
:class:`StarterBoard`, which implements the starter API on our rules), whatever it does
to that board is thrown away, and the cup it returns is checked by our rules — anything
but a legal cup number raises :class:`~mancala.errors.IllegalMove`, which loses the game
in the arena.  Seat 0 (South) is the starter's player 1 (``P1Cups``), seat 1 player 2.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala.errors import BadInput, IllegalMove, echo, whole_number
from mancala.games.base import Game
from mancala.games.kalah import Kalah, KalahMove, KalahRules, KalahState, Sowing
from mancala.players.registry import PlayerKind, register_kind

_counter = itertools.count()


class StarterBoard:
    """The starter code's ``MancalaBoard`` API on our rules (for modules that bring none)."""

    def __init__(self, game: Kalah | None = None) -> None:
        self.game = game or Kalah()
        self.reset()

    def reset(self) -> None:
        """The start position."""
        self.load(self.game.initial_state())

    def load(self, state: KalahState) -> None:
        """Set the cups from one of our positions."""
        n = state.pits
        self.NCUPS = n
        self.P1Cups = list(state.board[0:n])
        self.P2Cups = list(state.board[n + 1 : 2 * n + 1])
        self.scoreCups = [state.board[n], state.board[2 * n + 1]]

    def _state(self, num: int) -> KalahState:
        board = tuple(self.P1Cups) + (self.scoreCups[0],) + tuple(self.P2Cups) + (self.scoreCups[1],)
        return self.game.position(board, num - 1)

    def getPlayersCups(self, playerNum: int) -> list[int]:  # noqa: N802,N803 (the starter's names)
        """The cups of player 1 or 2."""
        return self.P1Cups if playerNum == 1 else self.P2Cups

    def legalMove(self, player, cup: int) -> bool:  # noqa: N802
        """Whether ``cup`` (1..NCUPS) is a legal move for ``player`` (a Player or its number)."""
        cups = self.getPlayersCups(_num(player))
        return isinstance(cup, int) and 0 < cup <= len(cups) and cups[cup - 1] > 0

    def legalMoves(self, player) -> list[int]:  # noqa: N802
        """The legal cups of ``player``."""
        return [i + 1 for i, c in enumerate(self.getPlayersCups(_num(player))) if c]

    def makeMove(self, player, cup: int) -> bool:  # noqa: N802
        """Sow ``cup`` for ``player`` by our rules; True when the player moves again."""
        num = _num(player)
        after = self.game.apply(self._state(num), KalahMove(cup))
        self.load(after)
        return not after.finished and after.seat == num - 1

    def gameOver(self) -> bool:  # noqa: N802
        """Whether either row is empty."""
        return not any(self.P1Cups) or not any(self.P2Cups)

    def hasWon(self, playerNum: int) -> bool:  # noqa: N802,N803
        """Whether the game is over and ``playerNum`` has more in its store."""
        if not self.gameOver():
            return False
        return self.scoreCups[playerNum - 1] > self.scoreCups[2 - playerNum]

    def __repr__(self) -> str:
        return f"P2 {self.P2Cups[::-1]} [{self.scoreCups[1]}|{self.scoreCups[0]}] P1 {self.P1Cups}"


def _num(player) -> int:
    return player if isinstance(player, int) else int(player.num)


def load_module(path: str):
    """Import the Python file ``path`` (its folder on ``sys.path`` while it loads)."""
    file = Path(path)
    try:
        found = file.is_file()
    except OSError:  # e.g. a name too long for the file system
        found = False
    if not found:
        raise BadInput(f"module player: no Python file {echo(path)}")
    name = f"_mancala_starter_{file.stem}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        raise BadInput(f"module player: cannot load {path} as Python")
    module = importlib.util.module_from_spec(spec)
    folder = str(file.resolve().parent)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - someone else's code: report it in one line
        raise BadInput(f"module player: loading {path} failed: {type(e).__name__}: {e}") from None
    finally:
        try:
            sys.path.remove(folder)
        except ValueError:
            pass
    return module


@dataclass
class ModulePlayer:
    """A seed-003-style ``Player`` class from a Python file (see the module doc)."""

    path: str
    class_name: str | None = None
    ply: int = 4
    type_name: str | None = None
    spec: str = ""
    _module: Any = field(default=None, init=False, repr=False)
    _cls: Any = field(default=None, init=False, repr=False)
    _players: dict = field(default_factory=dict, init=False, repr=False)
    #: the module's objects may remember anything: they stay in the process that loaded them
    portable = False

    def __post_init__(self) -> None:
        self._module = load_module(self.path)
        name = self.class_name or ("MancalaPlayer" if hasattr(self._module, "MancalaPlayer") else "Player")
        cls = getattr(self._module, name, None)
        if not inspect.isclass(cls):
            raise BadInput(f"module player: {self.path} has no class {name}")
        if not callable(getattr(cls, "chooseMove", None)):
            raise BadInput(f"module player: {name} in {self.path} has no chooseMove(board) method")
        self._cls = cls
        if self.type_name is not None and not hasattr(cls, self.type_name):
            raise BadInput(f"module player: {name} has no player type {self.type_name}")
        self.spec = self.spec or f"module:{self.path}" + (f":{self.class_name}" if self.class_name else "")

    def _player(self, num: int):
        if num not in self._players:
            params = [
                p
                for p in inspect.signature(self._cls.__init__).parameters.values()
                if p.name != "self" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            ]
            args: list = [num]
            if len(params) >= 2:
                tname = self.type_name or next(
                    (t for t in ("CUSTOM", "ABPRUNE", "MINIMAX") if hasattr(self._cls, t)), None
                )
                args.append(getattr(self._cls, tname) if tname else 0)
            if len(params) >= 3:
                args.append(self.ply)
            try:
                self._players[num] = self._cls(*args)
            except Exception as e:  # noqa: BLE001
                raise BadInput(
                    f"module player: {self._cls.__name__}{tuple(args)} failed: {type(e).__name__}: {e}"
                ) from None
        return self._players[num]

    def _board(self, game: Any, state: KalahState) -> Any:
        board_cls: Any = getattr(self._module, "MancalaBoard", None)
        board: Any
        if not inspect.isclass(board_cls) or issubclass(board_cls, StarterBoard):
            maker: Any = board_cls if inspect.isclass(board_cls) else StarterBoard
            board = maker(game)
            board.load(state)
            return board
        try:
            board = board_cls()
        except TypeError:
            board = board_cls.__new__(board_cls)
        n = state.pits
        board.NCUPS = n
        board.P1Cups = list(state.board[0:n])
        board.P2Cups = list(state.board[n + 1 : 2 * n + 1])
        board.scoreCups = [state.board[n], state.board[2 * n + 1]]
        return board

    def check_game(self, game: Any) -> None:
        """Raise :class:`BadInput` unless the starter API can describe ``game``."""
        rules = getattr(game, "rules", None)
        if not isinstance(rules, KalahRules) or rules.sowing is not Sowing.COUNTER_CLOCKWISE or rules.pie_rule:
            raise BadInput("module players play Kalah with counter-clockwise sowing and no pie rule")

    def choose(self, game: Game, state) -> KalahMove:
        """The module's ``chooseMove`` on a fresh board of ``state``, as our move."""
        self.check_game(game)
        num = state.seat + 1
        cup = self._player(num).chooseMove(self._board(game, state))
        if isinstance(cup, bool) or not isinstance(cup, int):
            raise IllegalMove(f"{self.spec} chose {cup!r}, not a cup number")
        move = KalahMove(cup)
        if move not in game.legal_moves(state):
            raise IllegalMove(f"{self.spec} chose cup {cup}, which is not legal")
        return move


def make_module_player(spec: str) -> ModulePlayer:
    """Build a :class:`ModulePlayer` from ``module:path.py[:Class][,ply=N][,type=NAME]``."""
    body = spec.strip()[len("module:") :]
    first, *rest = body.split(",")
    path, _, class_name = first.strip().partition(":")
    if not path:
        raise BadInput(f"player {echo(spec)}: expected module:path/to/file.py[:Class]")
    options = {}
    for part in rest:
        key, eq, value = part.partition("=")
        if not eq:
            raise BadInput(f"cannot read {echo(part.strip())} in player {echo(spec)}: expected key=value")
        options[key.strip().lower()] = value.strip()
    ply = 4
    if "ply" in options:
        ply = whole_number(options.pop("ply"), f"player {echo(spec)}: ply")
    type_name = options.pop("type", None)
    if options:
        raise BadInput(f"player {echo(spec)}: unknown option(s) {echo(', '.join(options))}")
    return ModulePlayer(path, class_name or None, ply, type_name, spec=spec.strip())


register_kind(
    PlayerKind(
        "module",
        "a player class in a Python file (module:path/to/file.py[:Class][,ply=N][,type=NAME])",
        "module:player.py",
        "module:player.py",
        lambda spec, options, ask: make_module_player(spec),
        raw=True,
        listed=False,
        label="A player class in a Python file",
        title="Python player {rest}",
        rank=30,
    )
)
