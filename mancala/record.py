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

Version 4 adds ``"ended"``: how a game ended off the board, other than by a resignation
(which stays ``resigned``, version 2): ``{"reason": R, "loser": P, "why": "..."}``, ``R`` one
of :data:`REASONS` (``time``: a clock ran out; ``disconnect``: the player left a match and
did not come back; ``illegal``: a program chose an illegal move), ``P`` the player who lost
and ``why`` what happened in words after the loser's name (optional).  The game is then over
after the moves listed; ``result`` also says ``"winner"`` and ``"reason"``.  A record of a
game that ended otherwise is still written as version 1, 2 or 3.  A game server's results file
written before version 4 (version 1, its end only in ``result``'s ``reason`` and ``winner``)
loads with that end too.

Version 5 adds ``"names"``: the people who played, ``[name or null, name or null]`` (a person's
name, at most :data:`MAX_NAME` printable characters; null for an AI, named by its spec in
``players``, or a person who gave no name).  A record without names is still written as an
older version.

A record is replayed move by move on load, so a file that names an illegal
move is rejected with the move's number rather than giving a wrong board.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mancala.atomic import check_writable, json_format, refuse_foreign, write_atomically, write_problem
from mancala.errors import BadInput, IllegalMove, echo
from mancala.games import CATALOGUE, game_spec, make_game
from mancala.games.base import Game, game_text_of, outcome_text, winner
from mancala.jsonread import JSONLimitError, loads, read_text

FORMAT = "mancala-game"
#: the newest version this module reads and writes (2: ``resigned``, 3: ``variations``, 4: ``ended``,
#: 5: ``names``)
VERSION = 5
#: the longest name of a person a record holds (and a person may give: ``hello``, ``create``,
#: ``join``, ``name`` of the server's protocol, ``mancala agent --name``)
MAX_NAME = 40
#: the ways a game ends off the board, and what the loser did in words (an ending's default ``why``)
REASONS = {
    "resign": "resigned",
    "time": "ran out of time",
    "disconnect": "left and did not come back",
    "illegal": "chose an illegal move",
}
#: the longest ``why`` of an ending a record may hold
MAX_WHY = 200
#: the most side lines a record may hold
MAX_VARIATIONS = 200
#: the largest saved game read, in bytes (a 10,000-move game takes about 100 KB)
MAX_RECORD_BYTES = 8 * 2**20


@dataclass(frozen=True)
class Ending:
    """How a game ended off the board: ``loser`` lost by ``reason`` (one of :data:`REASONS`);
    ``why`` says what happened after the loser's name (``ran out of time (3 s per move)``)."""

    reason: str
    loser: int
    why: str = ""

    @property
    def winner(self) -> int:
        """The player who won."""
        return 1 - self.loser

    def text(self, names: list[str]) -> str:
        """The end in words, ``names`` the players' (``South (human) resigned: North (easy) wins.``)."""
        return f"{names[self.loser]} {self.why or REASONS[self.reason]}: {names[self.winner]} wins."


@dataclass
class GameRecord:
    """A game: its rules, its players and the moves played so far."""

    game: Game
    players: list[str]
    moves: list[Any] = field(default_factory=list)
    #: side lines beside the main line: (the main line's moves before it, its moves)
    variations: list[tuple[int, list[Any]]] = field(default_factory=list)
    #: how the game ended off the board (a resignation, time, a disconnect), or None
    ending: Ending | None = None
    #: the people's names by player (None: an AI, or a person who gave none)
    people: list[str | None] = field(default_factory=lambda: [None, None])

    @property
    def resigned(self) -> int | None:
        """The player who resigned (ending the game), or None."""
        return self.ending.loser if self.ending is not None and self.ending.reason == "resign" else None

    def is_over(self) -> bool:
        """Whether the game has ended, on the board or off it (a resignation, time, a disconnect)."""
        return self.ending is not None or self.game.is_terminal(self.final_state())

    def winner(self) -> int | None:
        """The winning player (None: a draw or not finished)."""
        if self.ending is not None:
            return self.ending.winner
        return winner(self.game, self.final_state())

    def names(self) -> list[str]:
        """``South (human)``, ``North (medium)``: each player's seat at the end and spec (a
        person's name instead where the record has it: ``South (Ann)``)."""
        state = self.final_state()
        return [f"{self.game.player_name(p, state)} ({self.people[p] or self.players[p]})" for p in (0, 1)]

    def end_text(self, names: list[str] | None = None) -> str | None:
        """How the game ended in words (``names`` the players', default :meth:`names`), an end
        off the board included (``South (human) ran out of time: North (easy) wins.``); None
        while it runs."""
        names = names or self.names()
        if self.ending is not None:
            return self.ending.text(names)
        state = self.final_state()
        return outcome_text(self.game, state, names) if self.game.is_terminal(state) else None

    def version(self) -> int:
        """The oldest record version that holds this game (so older readers keep reading it)."""
        if any(self.people):
            return 5
        if self.ending is not None and self.ending.reason != "resign":
            return 4
        return 3 if self.variations else 1 if self.resigned is None else 2

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
            "version": self.version(),
            "game": game_spec(self.game),
            "players": list(self.players),
            "moves": [str(m) for m in self.moves],
            "result": {"finished": self.is_over(), "score": [self.game.score(state, 0), self.game.score(state, 1)]},
        }
        ending = self.ending
        if ending is not None:
            data["result"].update(winner=ending.winner, reason=ending.reason)
            if ending.reason == "resign":
                data["resigned"] = ending.loser
                data["result"]["resigned"] = ending.loser
            else:
                data["ended"] = {
                    "reason": ending.reason,
                    "loser": ending.loser,
                    "why": ending.why or REASONS[ending.reason],
                }
        if any(self.people):
            data["names"] = list(self.people)
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
        outside = record_from_game_text(text, str(path))
        if outside is None:
            raise BadInput(f"{path} line {e.lineno}: not valid JSON ({e.msg}); the file is corrupt") from None
        return outside
    return record_from_json(data, str(path))


def record_text(record: GameRecord) -> str:
    """The game as text people copy and paste: the game's own file format where it declares
    one (the ``game_text`` capability: Togyz Kumalak's PlayOK records), else a ``[Game "spec"]``
    header, the result, and the moves in the game's notation separated by spaces (what
    :func:`record_from_game_text` reads back)."""
    game = record.game
    writer = game_text_of(game)
    if writer is not None:
        return writer.write_game_text(game.initial_state(), record.moves, record.people)
    result = "*"
    if record.is_over():
        who = record.winner()
        result = "1-0" if who == 0 else "0-1" if who == 1 else "1/2-1/2"
    headers = f'[Game "{game_spec(game)}"]\n[Result "{result}"]\n'
    for player, name in zip(_seat_headers(game), record.people):
        if name is not None:  # the people who played, by seat: [South "Ann"]
            headers += f'[{player} "{header_value(name)}"]\n'
    if record.ending is not None:
        headers += f'[Termination "{record.end_text()}"]\n'
    return headers + "\n" + " ".join([*(str(m) for m in record.moves), result]) + "\n"


#: the words of a move list that are not moves: move numbers (``12.``, ``3...``) and results
_NOT_MOVES = re.compile(r"[0-9]*\.+|1-0|0-1|1/2-1/2|\*")
#: a header line of a game text: ``[Name "value"]``
_HEADER = re.compile(r'\[(\w+)\s+"(.*)"\]')
#: the longest game text read
MAX_TEXT_BYTES = MAX_RECORD_BYTES


def record_from_game_text(text: str, where: str = "game record", spec: str | None = None) -> GameRecord | None:
    """A game record from text: what :func:`record_text` writes (a ``[Game "spec"]`` header and
    the moves), a record kept outside this program (PlayOK's files, read by a game that
    declares the ``game_text`` capability), or a bare move list in the notation of the game
    ``spec`` names; None when nothing takes the text.  Raises :class:`BadInput` naming the
    first illegal move."""
    if len(text) > MAX_TEXT_BYTES:
        raise BadInput(f"{where}: larger than {MAX_TEXT_BYTES // 2**20} MB, so not a game")
    headers, words = _headers_and_words(text)
    if "Game" in headers:
        try:
            game = make_game(headers["Game"])
        except BadInput as e:
            raise BadInput(f'{where}: bad [Game "…"] header: {e}') from None
        record = _replayed(game, words, where)
        record.people = _people_of(headers, game)
        return record
    failed: BadInput | None = None  # (records of several games look alike: the first that replays)
    for info in CATALOGUE.values():
        if "game_text" not in info.traits.capabilities or (spec and info.name != make_game(spec).name):
            continue
        reader = game_text_of(make_game(info.name))
        assert reader is not None
        try:
            options, moves = reader.read_game_text(text)
        except BadInput:  # not this game's kind of record
            continue
        try:
            record = _replayed(make_game(spec or info.name, **options), moves, where)
        except BadInput as e:  # this game's kind of record, but not a game of it
            failed = failed or e
            continue
        record.people = _people_of(headers, record.game)
        return record
    if failed is not None:
        raise failed
    if spec and words and not headers:
        return _replayed(make_game(spec), words, where)
    return None


def header_value(text: str) -> str:
    """``text`` as the value of a ``[Name "value"]`` header (a double quote would end it)."""
    return text.replace('"', "'")


def _seat_headers(game: Game) -> list[str]:
    """The headers naming each player's person in a game text: the seats' names (``South``,
    ``North``; ``X``, ``O``), each a single word."""
    start = game.initial_state()
    return [re.sub(r"\W", "", game.player_name(p, start)) or f"Player{p + 1}" for p in (0, 1)]


def _people_of(headers: dict[str, str], game: Game) -> list[str | None]:
    """The people's names a game text's headers give: under the seats' names (ours:
    ``[South "Ann"]``), else under ``White`` and ``Black`` (PlayOK's: the first player is
    White); a name that is not one a record may hold is left out."""
    seats = _seat_headers(game)
    keys = seats if any(key in headers for key in seats) else ["White", "Black"]
    names: list[str | None] = []
    for key in keys:
        try:
            names.append(person_name(headers[key]) if key in headers else None)
        except ValueError:
            names.append(None)
    return names


def _headers_and_words(text: str) -> tuple[dict[str, str], list[str]]:
    """The ``[Name "value"]`` headers of a game text and the words of its moves (move numbers,
    results and ``{comments}`` left out)."""
    headers: dict[str, str] = {}
    body = []
    for line in text.splitlines():
        header = _HEADER.fullmatch(line.strip())
        if header:
            headers[header.group(1)] = header.group(2)
        else:
            body.append(line)
    words = re.sub(r"\{[^}]*\}", " ", " ".join(body)).split()
    return headers, [w for w in words if not _NOT_MOVES.fullmatch(w)]


def _replayed(game: Game, moves: list[str], where: str) -> GameRecord:
    """A record of ``moves`` (as text) played from ``game``'s start; raises :class:`BadInput`
    naming the first illegal one."""
    record = GameRecord(game, ["human", "human"])
    state = game.initial_state()
    for number, text_move in enumerate(moves, start=1):
        try:
            move = game.parse_move(state, text_move)
        except IllegalMove as e:
            raise BadInput(f"{where}: move {number} ({echo(text_move)}) is illegal: {e}") from None
        record.moves.append(move)
        state = game.apply(state, move)
    return record


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
    record = GameRecord(game, players, ending=read_ending(data, version, path), people=read_names(data, version, path))
    state = game.initial_state()
    for number, text_move in enumerate(data["moves"], start=1):
        try:
            move = game.parse_move(state, str(text_move))
        except IllegalMove as e:
            raise BadInput(f"{path}: move {number} ({text_move!r}) is illegal: {e}") from None
        record.moves.append(move)
        state = game.apply(state, move)
    if record.ending is not None and game.is_terminal(state):
        raise BadInput(
            f"{path}: the game ended on the board after move {len(record.moves)}, so it cannot also have ended "
            f'by {record.ending.reason!r}; remove "resigned" or "ended"'
        )
    if record.ending is None and version < 4 and not game.is_terminal(state):
        record.ending = _older_server_ending(data)
    if "variations" in data:
        if version < 3:
            raise BadInput(f'{path}: "variations" needs format version 3, the file says {version}')
        record.variations = read_variations(game, record.moves, data["variations"], path)
    return record


def person_name(value: str) -> str:
    """A person's name as given, trimmed (runs of spaces made one); raises
    :class:`ValueError` with the reason when it is empty, longer than :data:`MAX_NAME`
    characters, or holds a character that is not printable (a control or format character)."""
    name = " ".join(part for part in value.strip().split(" ") if part)
    if not name:
        raise ValueError("it is empty; leave the field out to stay unnamed")
    if len(name) > MAX_NAME:
        raise ValueError(f"it has {len(name)} characters, more than {MAX_NAME}")
    bad = next((ch for ch in name if not ch.isprintable()), None)
    if bad is not None:
        raise ValueError(f"it holds a character that is not printable (U+{ord(bad):04X})")
    return name


def read_names(data: dict, version: int, where: str) -> list[str | None]:
    """The people's names of a record (version 5's ``names``), ``[None, None]`` when it has
    none; raises :class:`BadInput` naming ``where`` and what is wrong."""
    if "names" not in data:
        return [None, None]
    if version < 5:
        raise BadInput(f'{where}: "names" needs format version 5, the file says {version}')
    names = data["names"]
    if (
        not isinstance(names, list)
        or len(names) != 2
        or not all(
            n is None or (isinstance(n, str) and 0 < len(n) <= MAX_NAME and n.isprintable() and n == n.strip())
            for n in names
        )
    ):
        raise BadInput(f'{where}: bad "names" (expected two names, each null or 1-{MAX_NAME} printable characters)')
    return list(names)


def read_ending(data: dict, version: int, where: str) -> Ending | None:
    """How the game ended off the board, from a record's ``resigned`` (version 2) or ``ended``
    (version 4), or None; raises :class:`BadInput` naming ``where`` and what is wrong."""
    if "resigned" in data and "ended" in data:
        raise BadInput(f'{where}: both "resigned" and "ended": a game ends once; keep one')
    if "resigned" in data:
        if version < 2:
            raise BadInput(f'{where}: "resigned" needs format version 2, the file says {version}')
        if data["resigned"] not in (0, 1) or isinstance(data["resigned"], bool):
            raise BadInput(f'{where}: bad "resigned" (expected the player who resigned, 0 or 1)')
        return Ending("resign", data["resigned"])
    if "ended" not in data:
        return None
    if version < 4:
        raise BadInput(f'{where}: "ended" needs format version 4, the file says {version}')
    ended = data["ended"]
    if not isinstance(ended, dict) or ended.get("reason") not in REASONS:
        raise BadInput(f'{where}: bad "ended" (expected {{"reason": R, "loser": P}}, R one of {", ".join(REASONS)})')
    loser, why = ended.get("loser"), ended.get("why", "")
    if loser not in (0, 1) or isinstance(loser, bool):
        raise BadInput(f'{where}: bad "ended": "loser" must be the player who lost, 0 or 1')
    if not isinstance(why, str) or len(why) > MAX_WHY:
        raise BadInput(f'{where}: bad "ended": "why" must be a text of at most {MAX_WHY} characters')
    return Ending(ended["reason"], loser, why)


def _older_server_ending(data: dict) -> Ending | None:
    """The ending a game server's results file written before version 4 (with its ``server``
    section) names only in its ``result`` (``{"reason": "time", "winner": 0, ...}``), or None."""
    result = data.get("result")
    if not isinstance(data.get("server"), dict) or not isinstance(result, dict) or result.get("reason") not in REASONS:
        return None
    winner = result.get("winner")
    if winner not in (0, 1) or isinstance(winner, bool):
        return None
    return Ending(result["reason"], 1 - winner)


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
