"""Opening books: the solver's exact results for the positions near the start, saved.

A book holds, for one Kalah rule set, the exact value (the mover's final margin with
perfect play) and a best move of the positions a player can meet in its first turns.
It is a cache of :func:`mancala.engine.solve` results, never hand-entered: ``mancala book
build`` rebuilds it (:func:`build_book`), and the ``best`` player plays its move when a
position is in it (:func:`probe`).

**Reach.**  Turn 0 is the start.  A player following the book meets, at turn ``t``,
the positions reached by its own book turns at turns ``t-2, t-4, ...`` and by *every*
turn of its opponent at ``t-1, t-3, ...``: so turn 0 is the start, turn 1 every position
after any first turn (the book player moves second), turn 2 every reply to the start's
book turn, turn 3 every reply to the book turn of each turn-1 position, and so on.  A
turn follows extra-turn chains to their end; the positions inside the book player's own
chains are in the book too (read from the solver's perfect line, which keeps the value).

**Keys.**  A position is keyed canonically, independent of which seat moves: the board
seen from the mover (its pits and store first, as the engine sees it), plus the engine's
root flags (first-move rule, pending pie rule) and whether the swap is legal.  A book
file names its rule set by :func:`rules_key` (the rules that change play from a position
on), so one book serves every game of those rules whatever the board size or start.

**File.**  UTF-8 JSON: ``format``, ``version``, ``rules_key``, the game it was built
from, how it was built (turns, seconds, nodes), the entries, and ``sha256`` over the
canonical JSON of everything else.  :func:`load_book` refuses (one line,
:class:`~mancala.errors.BadInput`) a file of another format or version, of other rules
than asked for, or whose checksum does not match (an edited or damaged file).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from mancala import jsonread
from mancala.atomic import json_format, refuse_foreign, write_atomically, write_problem
from mancala.engine import bridge
from mancala.errors import BadInput
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahRules, KalahState

FORMAT = "mancala-book"
VERSION = 1
#: the largest book file read, in bytes (the shipped books are far smaller)
MAX_BOOK_BYTES = 256 * 2**20
#: where the shipped books live (package data)
BOOK_DIR = Path(__file__).with_name("books")
#: default reach of a build, in turns (see the module doc): the start and every position
#: after the first turn, so the book player's first turn is exact from either seat (the
#: shipped Kalah(6,4) books; a third turn costs about ten more full solves)
DEFAULT_TURNS = 2

Key = tuple


def rules_key(rules: KalahRules) -> list:
    """The rule options a book's values depend on: those that change play from a position on
    (:func:`mancala.engine.bridge.play_key`) and the first-turn rules (pie rule, no extra turn
    on the first move).  Board size and start are not part of it: positions carry their board."""
    return list(bridge.play_key(rules)) + [bool(rules.pie_rule), bool(rules.no_first_extra_turn)]


def position_key(game: Kalah, state: KalahState) -> Key:
    """The canonical key of a live position: the board from the mover's side (its pits,
    its store, then the other side's), the engine's root flags and whether the swap is legal."""
    return (
        tuple(int(x) for x in bridge.relative_board(state)),
        bridge.root_flags(game, state),
        bool(state.swap_allowed),
    )


@dataclass(frozen=True)
class Entry:
    """One solved position: its key, its exact value for the mover and a move keeping it."""

    key: Key
    #: the mover's final margin (own store minus the other) with perfect play
    value: int
    #: a best move, as text in the mover's own pit numbering (``swap`` for the pie rule's swap)
    move: str
    #: nodes the solver spent (0 for a position read off a solved position's perfect line)
    nodes: int = 0
    #: seconds the solver spent
    seconds: float = 0.0

    def to_json(self) -> dict:
        """The entry as it is written in a book file."""
        board, flags, swap = self.key
        return {
            "board": list(board),
            "flags": flags,
            "swap": swap,
            "value": self.value,
            "move": self.move,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Entry":
        """An entry read from a book file (``ValueError``/``KeyError``/``TypeError`` when malformed)."""
        board = tuple(int(x) for x in data["board"])
        if len(board) < 4 or len(board) % 2 or any(x < 0 for x in board):
            raise ValueError("bad board")
        return cls(
            (board, int(data["flags"]), bool(data["swap"])),
            int(data["value"]),
            str(data["move"]),
            int(data.get("nodes", 0)),
            float(data.get("seconds", 0.0)),
        )


@dataclass
class Book:
    """The entries of one rule set, by key, and how they were made."""

    rules_key: list
    entries: dict[Key, Entry] = field(default_factory=dict)
    #: the game the book was built from (``KalahRules.to_dict()``), the reach and the cost
    game: dict = field(default_factory=dict)
    turns: int = 0
    seconds: float = 0.0
    nodes: int = 0

    def get(self, game: Kalah, state: KalahState) -> Entry | None:
        """The entry of ``state`` (None when it is not in the book or the game is over)."""
        if state.finished or rules_key(game.rules) != self.rules_key:
            return None
        return self.entries.get(position_key(game, state))

    def add(self, entry: Entry) -> None:
        """Add (or replace) an entry."""
        self.entries[entry.key] = entry

    def body(self) -> dict:
        """Everything the file holds but its checksum, entries in key order (canonical)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules_key": self.rules_key,
            "game": self.game,
            "turns": self.turns,
            "seconds": round(self.seconds, 1),
            "nodes": self.nodes,
            "entries": [self.entries[k].to_json() for k in sorted(self.entries)],
        }


def checksum(body: dict) -> str:
    """SHA-256 of the canonical JSON of a book file's body (sorted keys, no spaces)."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def dumps(book: Book) -> str:
    """The book file's text: its body and checksum, one entry a line (small diffs)."""
    body = book.body()
    head = {k: v for k, v in body.items() if k != "entries"}
    lines = ["{", f'"sha256": "{checksum(body)}",']
    lines += [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}," for k, v in head.items()]
    lines.append('"entries": [')
    rows = [json.dumps(e, sort_keys=True) for e in body["entries"]]
    lines += [r + ("," if i < len(rows) - 1 else "") for i, r in enumerate(rows)]
    lines += ["]", "}"]
    return "\n".join(lines) + "\n"


def loads(text: str, source: str = "book", rules: list | None = None) -> Book:
    """The book in ``text`` (a file's content), checked: format, version, rules key (when
    ``rules`` is given), checksum and entries.  Any problem is one :class:`BadInput` line
    naming ``source``."""
    try:
        data = jsonread.loads(text, max_bytes=MAX_BOOK_BYTES)
    except jsonread.JSONLimitError as e:
        raise BadInput(f"{source}: not a book file ({e.msg})") from None
    except ValueError:
        raise BadInput(f"{source}: not a book file (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInput(f"{source}: not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise BadInput(
            f"{source}: book version {data.get('version')!r}, this program reads version {VERSION}; "
            f"rebuild it with 'mancala book build'"
        )
    stated = data.pop("sha256", None)
    if stated != checksum(data):
        raise BadInput(
            f"{source}: checksum mismatch (the file was edited or damaged); rebuild it with 'mancala book build'"
        )
    if rules is not None and data.get("rules_key") != rules:
        raise BadInput(f"{source}: a book for other rules ({data.get('rules_key')}), not {rules}")
    try:
        book = Book(
            list(data["rules_key"]),
            {},
            dict(data.get("game", {})),
            int(data.get("turns", 0)),
            float(data.get("seconds", 0.0)),
            int(data.get("nodes", 0)),
        )
        for row in data["entries"]:
            book.add(Entry.from_json(row))
    except (KeyError, TypeError, ValueError):
        raise BadInput(f"{source}: malformed book entries") from None
    return book


def load_book(path: str | os.PathLike, rules: list | None = None) -> Book:
    """Read and check the book file ``path`` (see :func:`loads`)."""
    try:
        text = jsonread.read_text(path, MAX_BOOK_BYTES)
    except jsonread.JSONLimitError:
        raise BadInput(f"{path}: larger than {MAX_BOOK_BYTES // 2**20} MB, so not a book file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read book {path}: {getattr(e, 'strerror', None) or e}") from None
    return loads(text, str(path), rules)


def refuse_book_paths(path: str | os.PathLike) -> None:
    """Raise :class:`BadInput` when a build writing the book ``path`` would replace a file
    that is not ours: ``path`` itself unless it is a book, its ``.partial`` unless it is a
    partial book (:func:`build_book`)."""
    path = Path(path)
    instead = "give --out another file"
    refuse_foreign(path, json_format(FORMAT), "an opening book written by mancala book", instead)
    partial = path.with_name(path.name + ".partial")
    refuse_foreign(partial, json_format(FORMAT + "-partial"), "a partial book of mancala book build", instead)


def save_book(book: Book, path: str | os.PathLike) -> None:
    """Write ``book`` to ``path`` atomically (a temporary file beside it, then renamed); a
    file there that is not a book is left as it is (:func:`refuse_book_paths`)."""
    refuse_book_paths(path)
    try:
        write_atomically(path, dumps(book))
    except OSError as e:
        raise BadInput(write_problem(path, e)) from None


# --- the shipped books, found by rules ---------------------------------------------------

_loaded: dict[tuple, Book | None] = {}


def book_files(directory: Path | None = None) -> list[Path]:
    """The book files shipped with the package (or in ``directory``), by name."""
    directory = BOOK_DIR if directory is None else directory
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


def shipped_book(rules: KalahRules, directory: Path | None = None) -> Book | None:
    """The shipped book for ``rules`` (every shipped file of those rules merged), or None.
    Loaded and checked once per process; a damaged file is refused (:class:`BadInput`)."""
    directory = BOOK_DIR if directory is None else directory
    want = rules_key(rules)
    cache_key = (str(directory), tuple(want))
    if cache_key not in _loaded:
        merged: Book | None = None
        for path in book_files(directory):
            book = load_book(path)
            if book.rules_key != want:
                continue
            if merged is None:
                merged = book
            else:
                merged.entries.update(book.entries)
        _loaded[cache_key] = merged
    return _loaded[cache_key]


def probe(game: Kalah, state: KalahState, book: Book | None = None) -> tuple[KalahMove, int] | None:
    """The book's (move, exact value for the mover) at ``state``, or None when it is not in
    ``book`` (default: the shipped book of ``game``'s rules)."""
    if state.finished:
        return None
    book = book if book is not None else shipped_book(game.rules)
    entry = book.get(game, state) if book is not None else None
    if entry is None:
        return None
    move = SWAP if entry.move == "swap" else game.parse_move(state, entry.move)
    if move not in game.legal_moves(state):  # pragma: no cover - a checked file of these rules
        raise BadInput(f"the book's move {entry.move} is not legal in {state.board}")
    return move, entry.value


def book_line(game: Kalah, state: KalahState, book: Book | None = None, limit: int = 40) -> tuple:
    """The book's moves from ``state`` for as long as the positions they lead to are in the
    book (a perfect line: every book move keeps the value); () when ``state`` is not in it."""
    line: list = []
    while len(line) < limit:
        hit = probe(game, state, book)
        if hit is None:
            break
        line.append(hit[0])
        state = game.apply(state, hit[0])
    return tuple(line)


# --- building ----------------------------------------------------------------------------


def turn_ends(game: Kalah, state: KalahState) -> list[KalahState]:
    """Every position after one whole turn from ``state`` (extra-turn chains followed to
    their end), unfinished ones only, each once, in move order."""
    mover = game.to_move(state)
    ends: list[KalahState] = []

    def walk(s: KalahState) -> None:
        for m in game.legal_moves(s):
            c = game.apply(s, m)
            if c.finished:
                continue
            if game.to_move(c) == mover and m != SWAP:
                walk(c)
            else:
                ends.append(c)

    walk(state)
    return _unique(game, ends)


def book_turn(game: Kalah, state: KalahState, book: Book) -> tuple[list[KalahState], KalahState | None]:
    """The book player's turn from ``state``: the positions inside it where it moves again
    (``state`` first) and the position where the turn ends (None when the game ends, or
    when a position of the turn is missing from the book)."""
    mover = game.to_move(state)
    inside = [state]
    current = state
    while True:
        hit = probe(game, current, book)
        if hit is None:
            return inside, None
        after = game.apply(current, hit[0])
        if after.finished:
            return inside, None
        if game.to_move(after) != mover or hit[0] == SWAP:
            return inside, after
        inside.append(after)
        current = after


def book_positions(game: Kalah, turn: int, book: Book) -> list[KalahState]:
    """The positions a book player meets at ``turn`` (see the module doc), given the book's
    entries of the earlier turns (positions whose earlier book turn is missing are skipped)."""
    level = [game.initial_state()]
    if turn % 2 == 1:
        level = _unique(game, [e for s in level for e in turn_ends(game, s)])
    for _ in range(turn // 2):
        after = [book_turn(game, s, book)[1] for s in level]
        level = _unique(game, [e for s in after if s is not None for e in turn_ends(game, s)])
    return level


def _unique(game: Kalah, states: Iterable[KalahState]) -> list[KalahState]:
    out, seen = [], set()
    for s in states:
        k = position_key(game, s)
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


def solved_entries(game: Kalah, state: KalahState, solve_fn: Callable | None = None) -> list[Entry]:
    """Solve ``state`` and return its entry, then one for each position of the mover's turn
    along the perfect line (the mover moves again there; the line keeps the value)."""
    if solve_fn is None:
        from mancala.engine.solver import solve  # noqa: PLC0415 (the solver's tables: only when building)

        solve_fn = solve
    result = solve_fn(game, state, progress=False)
    assert result.move is not None  # a position with a move to solve
    mover = game.to_move(state)
    out = [Entry(position_key(game, state), result.value, str(result.move), result.nodes, round(result.seconds, 3))]
    current = game.apply(state, result.move)
    for move in result.line[1:]:
        if current.finished or game.to_move(current) != mover or result.move == SWAP:
            break
        out.append(Entry(position_key(game, current), result.value, str(move)))
        current = game.apply(current, move)
    return out


#: called after each solve with (positions solved, positions known so far, entry)
Progress = Callable[[int, int, Entry | None], None]


def build_book(
    game: Kalah,
    turns: int = DEFAULT_TURNS,
    *,
    partial: str | os.PathLike | None = None,
    progress: Progress | None = None,
    solve_fn: Callable | None = None,
) -> Book:
    """Solve every position a book player meets in its first ``turns`` turns (see the module
    doc) with the exact solver, and return the book.

    With ``partial``, each solved position is appended to that file as one JSON line
    (flushed and synced), and a build started again with the same file skips the positions
    it holds: an interrupted build (Ctrl-C) loses at most the solve in progress."""
    if not isinstance(game, Kalah):
        raise BadInput("opening books are for Kalah")
    if not 1 <= turns <= 8:
        raise BadInput(f"a book reaches 1-8 turns, got {turns}")
    book = Book(rules_key(game.rules), {}, game.rules.to_dict(), turns)
    header = {"format": FORMAT + "-partial", "version": VERSION, "rules_key": book.rules_key, "game": book.game}
    stream = None
    if partial is not None:
        stream = _open_partial(Path(partial), header, book)
    try:
        done = 0
        for turn in range(turns):
            level = book_positions(game, turn, book)
            todo = [s for s in level if book.get(game, s) is None]
            total = done + len(todo)
            if progress is not None:
                progress(done, total, None)
            for s in todo:
                if book.get(game, s) is None:  # else reached on an earlier solve's line
                    _solve_into(book, game, s, solve_fn, stream)
                done += 1
                if progress is not None:
                    progress(done, total, book.entries[position_key(game, s)])
    finally:
        if stream is not None:
            stream.close()
    book.seconds = sum(e.seconds for e in book.entries.values())
    book.nodes = sum(e.nodes for e in book.entries.values())
    return book


def _solve_into(book: Book, game: Kalah, state: KalahState, solve_fn: Callable | None, stream) -> None:
    """Solve ``state``, add its entries to ``book`` and to the partial file ``stream``."""
    for entry in solved_entries(game, state, solve_fn):
        if entry.key not in book.entries:
            book.add(entry)
            if stream is not None:
                stream.write(json.dumps(entry.to_json(), sort_keys=True) + "\n")
                stream.flush()
                os.fsync(stream.fileno())


def _open_partial(path: Path, header: dict, book: Book):
    """Open the partial file of a build: read back its entries when it is of the same rules
    (a resumed build), else start it afresh with ``header``."""
    if path.exists():
        lines = path.read_text(encoding="utf-8").split("\n")
        try:
            first = jsonread.loads(lines[0])
        except ValueError:
            first = None
        if first == header:
            good = 1
            for line in lines[1:]:
                try:
                    book.add(Entry.from_json(jsonread.loads(line)))
                except (ValueError, KeyError, TypeError):
                    break  # a line cut short by an interruption: dropped, and solved again
                good += 1
            text = "\n".join(lines[:good]) + "\n"
            path.write_text(text, encoding="utf-8")
            return open(path, "a", encoding="utf-8")
    stream = open(path, "w", encoding="utf-8")
    stream.write(json.dumps(header, sort_keys=True) + "\n")
    stream.flush()
    return stream


def check_consistency(game: Kalah, book: Book) -> list[str]:
    """What is wrong with ``book`` by its own entries (empty when nothing): every entry's move
    must be legal and lead to a position whose value, when it is in the book or the game is
    over, gives the entry's value back; and no other move may lead to a position the book
    proves better for the mover.  (A cache of solver results passes; an edited value, as a
    rule, does not.)"""
    problems = []
    for key, entry in book.entries.items():
        state = state_of(game, key)
        if state is None:
            problems.append(f"{key}: not a position of these rules")
            continue
        mover = game.to_move(state)
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if child.finished:
                v = game.score(child, mover)
            else:
                ce = book.get(game, child)
                if ce is None:
                    continue
                v = ce.value if game.to_move(child) == mover else -ce.value
                if child.swap_allowed:
                    v = None
            if v is None:
                continue
            if str(move) == entry.move and v != entry.value:
                problems.append(f"{key}: value {entry.value} but its move {move} leads to {v}")
            if v > entry.value:
                problems.append(f"{key}: value {entry.value} but move {move} leads to {v}")
    return problems


def state_of(game: Kalah, key: Key) -> KalahState | None:
    """A position with ``key`` (South to move; the first-turn flags set up through the move
    and turn counts), or None when the key does not fit ``game``'s board size or rules."""
    board, flags, swap = key
    if len(board) != 2 * game.rules.pits + 2:
        return None
    state = replace(
        game.position(board, 0),
        ply=0 if flags & bridge.FLAG_FIRST else 1,
        turns=0 if flags & bridge.FLAG_PIE else 1,
        swap_allowed=swap,
    )
    if state.finished or position_key(game, state) != key:
        return None
    return state
