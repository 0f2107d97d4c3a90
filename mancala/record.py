"""The saved-game file: a versioned JSON game record, written atomically.

Format (version 1, and version 2 which adds ``resigned``)::

    {
      "format": "mancala-game",
      "version": 1,
      "game": "kalah(pits=6,seeds=4)",      # a spec for mancala.games.make_game
      "players": ["human", "alphabeta:depth=5"],
      "moves": ["3", "6", "2"],             # in the game's own notation
      "result": {"finished": false, "score": [1, -1]}  # score: margin per player
    }

Version 2 adds ``"resigned": P`` (0 or 1): player ``P`` resigned after the moves listed
(Bao rules §12 "a player may resign"; any game), so the game is over and the other player
won; ``result`` then also says ``"winner"`` and ``"resigned"``.  A record without a
resignation is still written as version 1, so older readers keep reading it.

Version 3 adds ``"variations"``: side lines tried beside the main line (the analysis board),
each ``{"from": N, "moves": [...]}``, moves in notation played from the position after the
main line's first ``N`` moves (side lines of side lines are written whole from the main line,
so a record holds a move tree as a list of lines).  A record without side lines is still
written as version 1 (or 2), so older readers keep reading it; versions 1 and 2 load unchanged.

A record is replayed move by move on load, so a file that names an illegal
move is rejected with the move's number rather than giving a wrong board.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala.atomic import check_writable, json_format, refuse_foreign, write_atomically, write_problem
from mancala.errors import BadInput, IllegalMove
from mancala.games import game_spec, make_game
from mancala.games.base import Game, winner
from mancala.jsonread import JSONLimitError, loads, read_text

FORMAT = "mancala-game"
#: the newest version this module reads and writes (2: ``resigned``, 3: ``variations``)
VERSION = 3
#: the most side lines a record may hold
MAX_VARIATIONS = 200
#: the largest saved game read, in bytes (a 10,000-move game takes about 100 KB)
MAX_RECORD_BYTES = 8 * 2**20


@dataclass
class GameRecord:
    """A game: its rules, its players and the moves played so far."""

    game: Game
    players: list[str]
    moves: list[Any] = field(default_factory=list)
    #: the player who resigned (ending the game), or None
    resigned: int | None = None
    #: side lines beside the main line: (the main line's moves before it, its moves)
    variations: list[tuple[int, list[Any]]] = field(default_factory=list)

    def is_over(self) -> bool:
        """Whether the game has ended, on the board or by a resignation."""
        return self.resigned is not None or self.game.is_terminal(self.final_state())

    def winner(self) -> int | None:
        """The winning player (None: a draw or not finished)."""
        if self.resigned is not None:
            return 1 - self.resigned
        return winner(self.game, self.final_state())

    def states(self) -> list:
        """Every position of the game, from the start to the current one."""
        state = self.game.initial_state()
        out = [state]
        for move in self.moves:
            state = self.game.apply(state, move)
            out.append(state)
        return out

    def final_state(self):
        """The position after the last move."""
        return self.states()[-1]

    def to_json(self) -> dict:
        """The record as JSON-ready data (see the module doc)."""
        state = self.final_state()
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": 3 if self.variations else 1 if self.resigned is None else 2,
            "game": game_spec(self.game),
            "players": list(self.players),
            "moves": [str(m) for m in self.moves],
            "result": {"finished": self.is_over(), "score": [self.game.score(state, 0), self.game.score(state, 1)]},
        }
        if self.resigned is not None:
            data["resigned"] = self.resigned
            data["result"].update(winner=1 - self.resigned, resigned=self.resigned)
        if self.variations:
            data["variations"] = [{"from": start, "moves": [str(m) for m in moves]} for start, moves in self.variations]
        return data


def save_record(record: GameRecord, path: str | os.PathLike) -> None:
    """Write ``record`` to ``path`` atomically: a temp file beside it, then a rename,
    so a crash never leaves a half-written file in place of a good one.  A file there that
    is not a saved game is left as it is (:class:`BadInput`)."""
    path = Path(path)
    text = json.dumps(record.to_json(), indent=2) + "\n"
    if not path.is_dir():  # (a folder: the write below says so)
        refuse_foreign(path, json_format(FORMAT), "a game saved by mancala", "save to another file")
    try:
        write_atomically(path, text)
    except (IsADirectoryError, NotADirectoryError, FileNotFoundError, PermissionError) as e:
        raise BadInput(write_problem(path, e)) from None


def check_save_path(path: str | os.PathLike) -> None:
    """Raise :class:`BadInput` (one line) unless a game can be saved at ``path`` (writable,
    and not a file other than a saved game): used before a game starts, so a bad ``--save``
    is refused before the first move."""
    try:
        check_writable(path)
    except OSError as e:
        raise BadInput(write_problem(path, e)) from None
    refuse_foreign(path, json_format(FORMAT), "a game saved by mancala", "save to another file")


def load_record(path: str | os.PathLike) -> GameRecord:
    """Read and replay a saved game; raises :class:`BadInput` with a one-line reason
    (missing, not JSON, not a game record, a newer version, an illegal move)."""
    if not str(path):
        raise BadInput("the saved game's file name is empty; give the file to load")
    path = Path(path)
    try:
        text = read_text(path, MAX_RECORD_BYTES)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except JSONLimitError:
        raise BadInput(f"{path}: larger than {MAX_RECORD_BYTES // 2**20} MB, so not a saved game") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read it ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = loads(text, max_bytes=MAX_RECORD_BYTES)
    except JSONLimitError as e:
        raise BadInput(f"{path} line {e.lineno}: not a saved game (JSON {e.msg})") from None
    except json.JSONDecodeError as e:
        raise BadInput(f"{path} line {e.lineno}: not valid JSON ({e.msg}); the file is corrupt") from None
    return record_from_json(data, str(path))


def record_from_json(data: Any, where: str = "game record") -> GameRecord:
    """A game record from its JSON data (as :meth:`GameRecord.to_json` gives it), replayed
    move by move; raises :class:`BadInput` naming ``where`` and what is wrong."""
    path = where
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInput(f'{path}: not a mancala saved game (expected "format": "{FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadInput(f'{path}: missing or bad "version" (expected a whole number)')
    if version > VERSION:
        raise BadInput(
            f"{path}: saved by a newer version of mancala (file version {version}, "
            f"this program reads up to {VERSION}); upgrade mancala to load it"
        )
    for key, kind in (("game", str), ("players", list), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise BadInput(f'{path}: missing or bad "{key}" (expected a {kind.__name__})')
    try:
        game = make_game(data["game"])
    except BadInput as e:
        raise BadInput(f'{path}: bad "game": {e}') from None
    players = [str(p) for p in data["players"]]
    if len(players) != 2:
        raise BadInput(f'{path}: "players" must name two players, got {len(players)}')
    record = GameRecord(game, players)
    if "resigned" in data:
        if version < 2:
            raise BadInput(f'{path}: "resigned" needs format version 2, the file says {version}')
        if data["resigned"] not in (0, 1) or isinstance(data["resigned"], bool):
            raise BadInput(f'{path}: bad "resigned" (expected the player who resigned, 0 or 1)')
        record.resigned = data["resigned"]
    state = game.initial_state()
    for number, text_move in enumerate(data["moves"], start=1):
        try:
            move = game.parse_move(state, str(text_move))
        except IllegalMove as e:
            raise BadInput(f"{path}: move {number} ({text_move!r}) is illegal: {e}") from None
        record.moves.append(move)
        state = game.apply(state, move)
    if "variations" in data:
        if version < 3:
            raise BadInput(f'{path}: "variations" needs format version 3, the file says {version}')
        record.variations = read_variations(game, record.moves, data["variations"], path)
    return record


def read_variations(game: Game, main: list[Any], data: Any, where: str) -> list[tuple[int, list[Any]]]:
    """Side lines from their JSON (``[{"from": N, "moves": [...]}]``), each replayed from the
    main line's position after ``N`` moves; raises :class:`BadInput` naming the line and move."""
    if not isinstance(data, list) or len(data) > MAX_VARIATIONS:
        raise BadInput(f'{where}: bad "variations" (expected a list of at most {MAX_VARIATIONS} side lines)')
    states = [game.initial_state()]
    for move in main:
        states.append(game.apply(states[-1], move))
    out = []
    for number, line in enumerate(data, start=1):
        start = line.get("from") if isinstance(line, dict) else None
        moves = line.get("moves") if isinstance(line, dict) else None
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= len(main):
            raise BadInput(
                f'{where}: side line {number}: "from" must be 0-{len(main)} (moves of the main line before it)'
            )
        if not isinstance(moves, list) or not moves:
            raise BadInput(f'{where}: side line {number}: "moves" must be a non-empty list of moves')
        state, parsed = states[start], []
        for k, text_move in enumerate(moves, start=1):
            try:
                move = game.parse_move(state, str(text_move))
            except IllegalMove as e:
                raise BadInput(f"{where}: side line {number}, move {k} ({text_move!r}) is illegal: {e}") from None
            parsed.append(move)
            state = game.apply(state, move)
        out.append((start, parsed))
    return out
