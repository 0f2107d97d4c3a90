"""Kalah proofs that outlive one sitting: the root split into sub-proofs, each recorded when done.

A split proof expands the root ``plies`` moves deep (a move is one sowing: an extra turn is a
move of the same player, so the side to move is read at every node) and proves the positions
there, the *sub-proofs*, one at a time on this machine (:func:`prove_split`) or as Ray tasks
(:func:`mancala.engine.distributed.split_on_ray`).  The values are combined by minimax over
the top of the tree, each child's value turned to its parent's mover (the same mover after
an extra turn, the other one otherwise), the pie rule's swap as the solver treats it (a
position where the swap is legal is worth ``|v|``, ``v`` its value without the swap).

Locally the top of the tree is searched by MTD(f), as the solver searches its root: passes of
alpha-beta with a null window, from the solver's first guess, until the root's bounds meet.
A sub-proof then needs only to show that its position is above or below the window it gets,
so it is proved against that window (:func:`mancala.engine.solver.prove_window`, one
full-depth test) and ends with a bound instead of a value.  Every sub-proof keeps an interval ``lower..upper`` of proved bounds
(equal when exact), and the combination works on intervals: whatever the journal holds, the
root's interval it gives is proved; it is exact once every sub-proof has decided its window.

**The journal** (``--journal FILE``): a text file, one record a line, each line
``JSON<TAB>checksum`` (the first 16 hex digits of the SHA-256 of the JSON text).  Line 1 is the
header: the format and its version, the mancala version and engine source fingerprint
(:func:`mancala.engine.cluster.engine_version`), the game spec, the play rules, the root
position and the split depth.  Line 2 is the first guess the passes start from.  Each further
line is a finished sub-proof: its position, the
bounds proved on its mover's value (``null`` for none), nodes and seconds; a sub-proof proved
again against another window appends a line, and its bounds are the intersection of its lines.
The last line, once the root is proved, holds the root's value, a best move and every root
move's bounds.  Lines are appended with one write, flush and fsync each, so a stopped proof
keeps every finished sub-proof; a last line cut short (the process killed while writing) is
ignored and cut off when the proof resumes, and a damaged line before it is refused.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from mancala import jsonread
from mancala.atomic import StagedFile, append_durably, write_problem
from mancala.errors import BadInput
from mancala.games.kalah import SWAP, Kalah, KalahMove, KalahState

#: the journal's ``format`` and its version (a file of another version is refused)
FORMAT = "mancala-split-proof"
FORMAT_VERSION = 1
#: hex digits of a line's SHA-256 kept as its checksum
CHECK_DIGITS = 16
#: the split depths a proof accepts (``--split-plies``)
MAX_PLIES = 4
#: the split depth of a proof given a journal and no ``--split-plies``
DEFAULT_PLIES = 2
#: the longest journal line read (a position is a few hundred bytes)
MAX_LINE = 1 << 16

#: proved bounds ``(lower, upper)`` on a value (``-inf``/``inf``: none)
Interval = tuple[float, float]
UNKNOWN: Interval = (-math.inf, math.inf)


# --- positions as data ---------------------------------------------------------------------------


def state_data(state: KalahState) -> dict:
    """A Kalah position as plain data: what a journal line holds and a Ray task receives."""
    return {
        "board": list(state.board),
        "seat": state.seat,
        "ply": state.ply,
        "turns": state.turns,
        "swapped": state.swapped,
        "swap_allowed": state.swap_allowed,
        "finished": state.finished,
    }


def state_from_data(data: Any) -> KalahState:
    """The position :func:`state_data` wrote (raises ``ValueError`` on anything else)."""
    if not isinstance(data, dict) or set(data) != {
        "board",
        "seat",
        "ply",
        "turns",
        "swapped",
        "swap_allowed",
        "finished",
    }:
        raise ValueError("not a position")
    board = data["board"]
    if not isinstance(board, list) or len(board) < 4 or len(board) % 2 or not all(_count(x) for x in board):
        raise ValueError("not a board")
    if data["seat"] not in (0, 1) or not _count(data["ply"]) or not _count(data["turns"]):
        raise ValueError("not a position")
    if not all(isinstance(data[k], bool) for k in ("swapped", "swap_allowed", "finished")):
        raise ValueError("not a position")
    return KalahState(
        board=tuple(board),
        seat=data["seat"],
        ply=data["ply"],
        turns=data["turns"],
        swapped=data["swapped"],
        swap_allowed=data["swap_allowed"],
        finished=data["finished"],
    )


def _count(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 10_000


def position_key(state: KalahState) -> str:
    """The key a sub-proof is recorded under: its position as canonical JSON (two move orders
    reaching one position share one sub-proof)."""
    return json.dumps(state_data(state), sort_keys=True, separators=(",", ":"))


# --- the tree's top and the combination ---------------------------------------------------------


@dataclass
class SplitNode:
    """A position of a split proof's top levels: its children (move, node), or none when it
    is a sub-proof's position or the game is over."""

    state: KalahState
    children: list[tuple[KalahMove, SplitNode]] = field(default_factory=list)
    #: the sub-proof's key (a live position at the split depth), else None
    key: str | None = None


def split_tree(game: Kalah, state: KalahState, plies: int) -> tuple[SplitNode, dict[str, KalahState]]:
    """The root expanded ``plies`` moves deep (extra turns are moves; the pie rule's swap is not
    a move here: the combination takes it), each node's moves in the order alpha-beta tries
    them (:func:`_promise`), and the sub-proofs' positions by key, in the order the tree meets
    them."""
    if not 1 <= plies <= MAX_PLIES:
        raise BadInput(f"--split-plies must be 1-{MAX_PLIES}, got {plies}")
    leaves: dict[str, KalahState] = {}

    def expand(s: KalahState, depth: int) -> SplitNode:
        node = SplitNode(s)
        if s.finished:
            return node
        if depth == 0:
            node.key = position_key(s)
            leaves.setdefault(node.key, s)
            return node
        after = [(m, game.apply(s, m)) for m in game.legal_moves(s) if m != SWAP]
        after.sort(key=lambda mc: _promise(game, s, mc[1]), reverse=True)
        node.children = [(m, expand(child, depth - 1)) for m, child in after]
        return node

    return expand(state, plies), leaves


def _promise(game: Kalah, s: KalahState, child: KalahState) -> tuple[int, int]:
    """How good a move looks before any search, the order alpha-beta tries the moves in (the
    likely best first makes the cut-offs): a finished game by its score, then an extra turn,
    then the store difference it gains for the mover (a capture).  Stores are the seats'."""
    if child.finished:
        score = game.score(child, game.to_move(s))
        return (2 if score > 0 else -1), score
    seat, other = s.seat, 1 - s.seat
    gain = (child.store(seat) - s.store(seat)) - (child.store(other) - s.store(other))
    return (1 if child.seat == seat else 0), gain


#: a sub-proof's bounds for its mover against a window: (key, position, alpha, beta) -> bounds
LeafBounds = Callable[[str, KalahState, float, float], Interval]


def _absolute(iv: Interval) -> Interval:
    """The bounds of ``|v|`` given bounds of ``v`` (the pie rule's swap: the mover takes the
    better of the position and its mirror)."""
    lo, hi = iv
    if lo >= 0:
        return lo, hi
    if hi <= 0:
        return -hi, -lo
    return 0.0, max(-lo, hi)


def combine(
    game: Kalah,
    root: SplitNode,
    leaf: LeafBounds,
    alpha: float = -math.inf,
    beta: float = math.inf,
    *,
    prune: bool = True,
) -> tuple[Interval, dict[KalahMove, Interval]]:
    """Alpha-beta over the split tree: the bounds proved on the root's value for its mover and
    each root move's bounds for that mover.  ``leaf`` gives a sub-proof's bounds against a
    window; whatever it returns (bounds it proved), the answer is proved, and it is exact when
    every call's bounds decide their window (equal, or at most ``alpha``, or at least
    ``beta``).  ``prune=False``: plain minimax, every node with the whole window (with exact
    sub-proofs, every root move's exact value).  Children are searched in the order of their moves; after an extra turn the
    child's value is its parent mover's, else its negation."""

    def edge(parent: KalahState, child: SplitNode, a: float, b: float) -> Interval:
        same = game.to_move(child.state) == game.to_move(parent)
        if same:
            return node_bounds(child, a, b)
        lo, hi = node_bounds(child, -b, -a)
        return -hi, -lo

    def node_bounds(node: SplitNode, a: float, b: float) -> Interval:
        s = node.state
        if s.finished:
            v = float(game.score(s, game.to_move(s)))
            return v, v
        if node.key is not None:
            return leaf(node.key, s, a, b)
        if s.swap_allowed:  # |v|: every move's exact value (no window passes through)
            best = (-math.inf, -math.inf)
            for _, child in node.children:
                lo, hi = edge(s, child, -math.inf, math.inf)
                best = (max(best[0], lo), max(best[1], hi))
            return _absolute(best)
        return search(node, a, b)[0]

    def search(node: SplitNode, a: float, b: float) -> tuple[Interval, dict[KalahMove, Interval]]:
        lo = hi = -math.inf
        moves: dict[KalahMove, Interval] = {}
        for i, (move, child) in enumerate(node.children):
            clo, chi = edge(node.state, child, max(a, lo), b) if prune else edge(node.state, child, a, b)
            moves[move] = (clo, chi)
            lo, hi = max(lo, clo), max(hi, chi)
            if prune and lo >= b and i + 1 < len(node.children):
                return (lo, math.inf), moves  # a cut-off: the moves left are not searched
        return (lo, hi), moves

    if root.key is not None or root.state.finished:
        return node_bounds(root, alpha, beta), {}
    if root.state.swap_allowed:
        moves = {m: edge(root.state, child, -math.inf, math.inf) for m, child in root.children}
        best = (max(lo for lo, _ in moves.values()), max(hi for _, hi in moves.values()))
        return _absolute(best), moves
    return search(root, alpha, beta)


def proved_lines(game: Kalah, root: SplitNode, leaf: LeafBounds) -> list[tuple[tuple[str, ...], Interval]]:
    """Every line of the split tree with something proved about it: each node's moves from the
    root (``S3``, ``N1``: the mover's seat initial and the move, so that an extra turn reads
    as two moves of one seat) and the bounds on its value for the root's mover, by plain
    minimax over the recorded bounds (no window: what the journal proves, not what a pass
    needed).  Depth first, in the tree's move order; nodes with no bound left out.  What an
    unfinished proof publishes: e.g. the bounds on the first moves."""
    mover = game.to_move(root.state)
    out: list[tuple[tuple[str, ...], Interval]] = []

    def walk(node: SplitNode, line: tuple[str, ...]) -> None:
        lo, hi = combine(game, node, leaf, prune=False)[0]
        if game.to_move(node.state) != mover:
            lo, hi = -hi, -lo
        if line and (lo, hi) != UNKNOWN:
            out.append((line, (lo, hi)))
        seat = game.player_name(game.to_move(node.state), node.state)[0]
        for move, child in node.children:
            walk(child, (*line, f"{seat}{move}"))

    walk(root, ())
    return out


def best_move(state: KalahState, moves: dict[KalahMove, Interval]) -> KalahMove | None:
    """A root move proved to keep the root's value (combined from ``moves``, each root move's
    bounds for the root's mover): the first whose lower bound is the best lower bound (exact
    there, as alpha-beta leaves it), or the pie rule's swap when it is worth more."""
    top = max((lo for lo, _ in moves.values()), default=-math.inf)
    if state.swap_allowed and -top > top:
        return SWAP
    return next((m for m, (lo, _) in moves.items() if lo >= top), None)


def show_bounds(iv: Interval) -> str:
    """Bounds as a person reads them: ``+3``, ``>=+3``, ``<=-1``, ``-2..+4`` or ``?``."""
    lo, hi = iv
    if lo == hi:
        return f"{int(lo):+d}"
    if lo == -math.inf and hi == math.inf:
        return "?"
    if hi == math.inf:
        return f">={int(lo):+d}"
    if lo == -math.inf:
        return f"<={int(hi):+d}"
    return f"{int(lo):+d}..{int(hi):+d}"


# --- the journal ---------------------------------------------------------------------------------


def engine_version() -> str:
    """The mancala version and its engine's source fingerprint (a journal written by another is
    refused: another engine could prove other bounds, were it wrong)."""
    from mancala.engine.cluster import engine_version as version  # noqa: PLC0415

    return version()


def journal_header(game: Kalah, state: KalahState, plies: int) -> dict:
    """The header line of a split proof of ``state`` under ``game``'s rules, ``plies`` deep."""
    from mancala.engine import bridge  # noqa: PLC0415
    from mancala.games import spec_of  # noqa: PLC0415

    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "mancala": engine_version(),
        "game": spec_of(game),
        "rules": list(bridge.play_key(game.rules)),
        "root": state_data(state),
        "plies": plies,
    }


def encode_line(record: dict) -> bytes:
    """One journal line: the record as compact sorted JSON, a tab, its checksum, a line end."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return f"{text}\t{hashlib.sha256(text.encode()).hexdigest()[:CHECK_DIGITS]}\n".encode()


def decode_line(line: bytes) -> dict | None:
    """The record of a whole journal line (its line end included), None when it is not one:
    cut short, its checksum wrong, or not JSON."""
    if not line.endswith(b"\n"):
        return None
    text, tab, check = line[:-1].rpartition(b"\t")
    if not tab or hashlib.sha256(text).hexdigest()[:CHECK_DIGITS].encode() != check:
        return None
    try:
        record = jsonread.loads(text)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _bound(v: Any) -> float:
    if v is None:
        return math.nan
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError("not a bound")
    return float(v)


@dataclass
class JournalContents:
    """What a journal file holds: its header, each sub-proof's bounds (the intersection of its
    lines), the positions, the result line if the proof ended, and whether its last line was
    cut short (then ``good_bytes`` is where the whole lines end)."""

    path: Path
    header: dict
    entries: dict[str, Interval] = field(default_factory=dict)
    positions: dict[str, KalahState] = field(default_factory=dict)
    #: line numbers (from 1) of each key's lines
    lines: dict[str, list[int]] = field(default_factory=dict)
    records: int = 0
    #: the first guess of the proof's MTD(f) over the split (recorded before its first pass)
    guess: int | None = None
    result: dict | None = None
    cut: bool = False
    good_bytes: int = 0


def read_journal(path: str | os.PathLike) -> JournalContents:
    """Read a journal, refusing in one line (:class:`BadInput`, naming the file and line) one
    that is not a split-proof journal of this format, or whose line before the last is damaged;
    a last line cut short is noted (``cut``) and left out."""
    p = Path(path)
    try:
        with jsonread.open_regular(p) as f:
            first = f.readline(MAX_LINE)
            header = decode_line(first)  # (checked before the rest is read: a large other file is not)
            if header is None or header.get("format") != FORMAT:
                raise BadInput(
                    f"{p}: not a split-proof journal (its first line is not one's header); it was left as it is"
                )
            data = first + f.read()
    except FileNotFoundError:
        raise BadInput(f"{p}: no such journal file") from None
    except OSError as e:
        raise BadInput(f"{p}: cannot read this journal ({e.strerror or e})") from None
    lines = data.splitlines(keepends=True)
    if header.get("version") != FORMAT_VERSION:
        raise BadInput(
            f"{p}: a split-proof journal of format version {header.get('version')!r}; this mancala reads "
            f"version {FORMAT_VERSION}"
        )
    out = JournalContents(p, header, good_bytes=len(lines[0]))
    for number, line in enumerate(lines[1:], 2):
        record = decode_line(line)
        last = number == len(lines)
        if record is None and last:
            out.cut = True  # the process stopped while writing it: proved again
            break
        try:
            if record is None:
                raise ValueError("checksum mismatch or cut short")
            _take(out, record, number)
        except (ValueError, TypeError, KeyError) as e:
            raise BadInput(
                f"{p}, line {number}: damaged ({e}); it was left as it is (only a last line cut short is "
                f"ignored): restore it, or start the proof again in another file"
            ) from None
        out.good_bytes += len(line)
    return out


def _take(out: JournalContents, record: dict, number: int) -> None:
    """Add a checked line's record to ``out`` (raises ``ValueError`` on a record of no kind)."""
    kind = record.get("kind")
    if kind == "result":
        out.result = record
        return
    if kind == "guess":
        value = record["value"]
        if not isinstance(value, int) or isinstance(value, bool) or out.guess is not None:
            raise ValueError("a second guess, or one that is not a whole number")
        out.guess = value
        return
    if kind != "sub-proof":
        raise ValueError(f"a record of kind {kind!r}")
    state = state_from_data(record["position"])
    lo, hi = _bound(record["lower"]), _bound(record["upper"])
    lo = -math.inf if math.isnan(lo) else lo
    hi = math.inf if math.isnan(hi) else hi
    if lo > hi:
        raise ValueError("a lower bound above its upper bound")
    key = position_key(state)
    old = out.entries.get(key, UNKNOWN)
    new = (max(old[0], lo), min(old[1], hi))
    if new[0] > new[1]:
        raise ValueError("bounds that contradict an earlier line's")
    out.entries[key] = new
    out.positions[key] = state
    out.lines.setdefault(key, []).append(number)
    out.records += 1


def header_difference(found: dict, wanted: dict) -> str | None:
    """What differs between a journal's header and the proof asked for, in words (None: the same)."""
    if found.get("mancala") != wanted["mancala"]:
        return f"written by mancala {found.get('mancala')}, this is {wanted['mancala']}"
    if found.get("game") != wanted["game"] or found.get("rules") != wanted["rules"]:
        return f"written for the rules {found.get('game')!r}, not {wanted['game']!r}"
    if found.get("root") != wanted["root"]:
        root = found.get("root")
        there: dict = root if isinstance(root, dict) else {}
        return (
            f"written for another position (board {there.get('board')}, seat {there.get('seat')} to move; "
            f"this one is {wanted['root']['board']}, seat {wanted['root']['seat']})"
        )
    if found.get("plies") != wanted["plies"]:
        return f"split {found.get('plies')} moves deep, not {wanted['plies']} (give --split-plies {found.get('plies')})"
    return None


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT while a line is written (a Ctrl-C then lands just after the line is whole)."""
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, ValueError, OSError):  # pragma: no cover - no pthread_sigmask
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Journal:
    """A split proof's journal open for appending: its sub-proofs so far (:attr:`contents`),
    and :meth:`record` to keep one more, durably."""

    def __init__(self, contents: JournalContents, stream: BinaryIO) -> None:
        self.contents = contents
        self.path = contents.path
        self.stream = stream
        self.failed = False

    @classmethod
    def open(cls, path: str | os.PathLike, header: dict) -> Journal:
        """The journal at ``path`` for the proof ``header`` describes: created with that header
        when there is no file, else read (a last line cut short is cut off) and refused in one
        line when it was written for another proof, rules, position, split or mancala."""
        p = Path(path)
        if os.path.lexists(p):
            if p.is_dir():
                raise BadInput(f"{p}: is a directory; give a journal file name (e.g. {p / 'proof.journal'})")
            contents = read_journal(p)
            problem = header_difference(contents.header, header)
            if problem is not None:
                raise BadInput(f"{p}: {problem}; resume it with what began it, or give another journal file")
            try:
                stream = open(p, "r+b")  # noqa: SIM115 (kept open for the whole proof)
                if contents.cut:
                    stream.truncate(contents.good_bytes)
                    stream.flush()
                    os.fsync(stream.fileno())
                stream.seek(0, os.SEEK_END)
            except OSError as e:
                raise BadInput(write_problem(p, e)) from None
            return cls(contents, stream)
        try:
            with StagedFile(p, binary=True) as staged:
                staged.stream.write(encode_line(header))
                staged.commit()
            created = open(p, "ab")  # noqa: SIM115 (kept open for the whole proof)
        except OSError as e:
            raise BadInput(write_problem(p, e)) from None
        first = len(encode_line(header))
        return cls(JournalContents(p, header, good_bytes=first), created)

    def _append(self, record: dict) -> None:
        line = encode_line(record)
        try:
            with _sigint_held():
                append_durably(self.stream, line)
        except OSError as e:
            self.failed = True
            raise BadInput(
                f"cannot record in {self.path}: {e.strerror or e}; the sub-proofs recorded before are kept: "
                f"make room and resume (mancala solve --resume {self.path})"
            ) from None

    def record_guess(self, value: int) -> None:
        """Keep the first guess of the proof's passes (a resumed proof makes the same passes)."""
        self._append({"kind": "guess", "value": int(value)})
        self.contents.guess = int(value)

    def record(self, key: str, state: KalahState, bounds: Interval, nodes: int, seconds: float) -> None:
        """Keep a finished sub-proof: the bounds proved on its position's value for its mover."""
        lo, hi = bounds
        self._append(
            {
                "kind": "sub-proof",
                "position": state_data(state),
                "lower": None if lo == -math.inf else int(lo),
                "upper": None if hi == math.inf else int(hi),
                "nodes": int(nodes),
                "seconds": round(seconds, 3),
            }
        )
        old = self.contents.entries.get(key, UNKNOWN)
        self.contents.entries[key] = (max(old[0], lo), min(old[1], hi))
        self.contents.positions[key] = state
        self.contents.records += 1

    def kept(self) -> int:
        """The sub-proof lines the file holds, read back: what a stopped proof reports, since a
        Ctrl-C can land between a line's write and the count kept in memory (another thread
        may take the signal while the writer holds it); the count in memory when the file
        cannot be read."""
        try:
            self.stream.flush()  # a line written but not yet flushed when the signal came
            return read_journal(self.path).records
        except (BadInput, OSError, ValueError):
            return self.contents.records

    def finish(self, value: int, move: KalahMove | None, moves: dict[KalahMove, Interval]) -> None:
        """Keep the root's value, a best move and each root move's bounds (the proof's last line)."""
        record = {
            "kind": "result",
            "value": int(value),
            "move": None if move is None else str(move),
            "moves": {str(m): show_bounds(iv) for m, iv in moves.items()},
        }
        self._append(record)
        self.contents.result = record

    def close(self) -> None:
        """Close the file (quietly after a failed write, whose close fails too)."""
        try:
            self.stream.close()
        except OSError:
            if not self.failed:
                raise


# --- proving -------------------------------------------------------------------------------------


class SplitStopped(KeyboardInterrupt):
    """A split proof stopped (Ctrl-C, or its ``stop`` hook): what it kept, to say how to resume."""

    def __init__(self, recorded: int, total: int, path: Path | None) -> None:
        super().__init__(f"{recorded} of {total} sub-proofs recorded")
        self.recorded = recorded
        self.total = total
        self.path = path


@dataclass
class SplitResult:
    """A split proof's answer: the root's exact value for its mover, a best move, each root
    move's proved bounds (exact for the moves alpha-beta had to value), and what was done."""

    value: int
    move: KalahMove | None
    moves: dict[KalahMove, Interval]
    #: distinct positions at the split, sub-proofs proved in this run, taken from the journal
    subproofs: int
    proved: int
    resumed: int
    nodes: int
    seconds: float


class Prover(Protocol):
    """What proves a split proof's sub-proofs: a first guess of the root's value, and a
    sub-proof's bounds against a window."""

    def guess(self) -> int:
        """A first guess of the root's value for its mover (MTD(f)'s first pass tests it)."""
        ...

    def __call__(self, state: KalahState, alpha: float, beta: float, known: Interval) -> tuple[Interval, int]:
        """Bounds on ``state``'s value for its mover that decide the window ``alpha``..``beta``,
        starting from the ``known`` ones, and the nodes spent."""
        ...


def decides(iv: Interval, alpha: float, beta: float) -> bool:
    """Whether bounds ``iv`` are all a window ``alpha``..``beta`` needs of a value."""
    lo, hi = iv
    return lo == hi or hi <= alpha or lo >= beta


class LocalProver:
    """Sub-proofs on this machine (:func:`mancala.engine.solver.prove_window`), one after the
    other, each on every solver thread; their table is shared, sized for the root and cleared
    before the first (as :func:`mancala.engine.solver.solve` starts)."""

    def __init__(self, game: Kalah, root: KalahState, endgame_seeds: int | None = None) -> None:
        from mancala.engine import solver  # noqa: PLC0415 (numba loads only for a proof)
        from mancala.engine.tables import proof_seeds  # noqa: PLC0415

        self.game, self.root = game, root
        self.seeds = sum(root.row(0)) + sum(root.row(1))
        if endgame_seeds is None:
            endgame_seeds = proof_seeds(game, self.seeds)
        self.k = endgame_seeds
        self.megabytes = solver.solve_table_megabytes(self.seeds)
        self.ready = False

    def _ready(self) -> None:
        """The engine, the database and the table, once (the table sized for the root's seeds)."""
        if self.ready:
            return
        from mancala.engine import solver  # noqa: PLC0415
        from mancala.engine.endgame import LARGE_SOLVE_SEEDS  # noqa: PLC0415
        from mancala.engine.engine import prepare  # noqa: PLC0415
        from mancala.engine.jobs import run_job  # noqa: PLC0415
        from mancala.engine.searcher import Searcher  # noqa: PLC0415

        prepare(self.game, seeds=self.k)

        def setup(job: Any) -> None:
            searcher = Searcher(
                self.game,
                self.root,
                db_seeds=self.k,
                job=job,
                megabytes=self.megabytes,
                hw=solver.SOLVE_HW,
                ttmin=solver.SOLVE_TTMIN,
            )
            with searcher.lease() as (ctx, _, _):
                ctx.clear(touch=self.seeds >= LARGE_SOLVE_SEEDS)

        run_job(setup)
        self.ready = True

    def guess(self) -> int:
        """The solver's first guess at the root (its short iterative deepening)."""
        from mancala.engine import solver  # noqa: PLC0415

        self._ready()
        if self.root.swap_allowed:
            return 0  # (the combination proves every move of such a root exactly)
        return solver.first_guess(self.game, self.root, endgame_seeds=self.k, megabytes=self.megabytes)

    def __call__(self, state: KalahState, alpha: float, beta: float, known: Interval) -> tuple[Interval, int]:
        """A sub-proof against its window (see :class:`Prover`)."""
        from mancala.engine import solver  # noqa: PLC0415

        self._ready()
        lo, hi, nodes = solver.prove_window(
            self.game, state, alpha, beta, endgame_seeds=self.k, known=known, megabytes=self.megabytes
        )
        return (lo, hi), nodes


def prove_split(
    game: Kalah,
    state: KalahState,
    plies: int,
    *,
    journal: Journal | None = None,
    prover: Prover | None = None,
    endgame_seeds: int | None = None,
    say: Callable[[str], None] | None = None,
    stop: Callable[[int], bool] | None = None,
) -> SplitResult:
    """Prove ``state`` by a split ``plies`` moves deep on this machine: MTD(f) over the top of the
    tree (null-window passes of alpha-beta from the prover's first guess, as the solver runs
    them at the root), each sub-proof against its window, recorded in ``journal`` when done and
    taken from it when what it holds decides the window, so a resumed proof re-does nothing
    (the guess is recorded too: the passes are the same).  ``say`` gets a line of progress a
    sub-proof; ``stop(proved)``, asked after each one recorded, ends the proof there when true
    (as Ctrl-C does): :class:`SplitStopped` either way."""
    if state.finished:
        raise BadInput("that position is already finished: there is nothing to solve")
    began = time.perf_counter()
    root, leaves = split_tree(game, state, plies)
    prover = prover or LocalProver(game, state, endgame_seeds)
    known = journal.contents.entries if journal is not None else {}
    memo: dict[str, Interval] = dict(known)
    counts = {"proved": 0, "resumed": 0, "nodes": 0, "pass": 0}
    seen: set[str] = set()

    def leaf(key: str, s: KalahState, alpha: float, beta: float) -> Interval:
        have = memo.get(key, UNKNOWN)
        if decides(have, alpha, beta):
            if key in known and key not in seen:
                counts["resumed"] += 1
            seen.add(key)
            return have
        t = time.perf_counter()
        bounds, nodes = prover(s, alpha, beta, have)
        bounds = (max(have[0], bounds[0]), min(have[1], bounds[1]))
        took = time.perf_counter() - t
        if journal is not None:
            journal.record(key, s, bounds, nodes, took)
        memo[key] = bounds
        seen.add(key)
        counts["proved"] += 1
        counts["nodes"] += nodes
        if say is not None:
            say(
                f"pass {counts['pass']}: sub-proof {len(seen)}/{len(leaves)} ({counts['resumed']} from the journal) "
                f"{show_bounds(bounds)} in {took:.1f} s, {nodes:,} nodes; {time.perf_counter() - began:.1f} s in all"
            )
        if stop is not None and stop(counts["proved"]):
            raise KeyboardInterrupt
        return bounds

    moves: dict[KalahMove, Interval] = {}
    lo, hi = -math.inf, math.inf
    try:
        guess = journal.contents.guess if journal is not None else None
        if guess is None:
            guess = prover.guess()
            if journal is not None:
                journal.record_guess(guess)
        g = float(guess)
        while lo < hi:
            counts["pass"] += 1
            b = max(g, lo + 1) if not state.swap_allowed else math.inf
            found, passed = combine(game, root, leaf, b - 1, b)
            for m, (mlo, mhi) in passed.items():
                old = moves.get(m, UNKNOWN)
                moves[m] = (max(old[0], mlo), min(old[1], mhi))
            lo, hi = max(lo, found[0]), min(hi, found[1])
            g = found[0] if found[0] >= b else found[1]
            if state.swap_allowed and lo != hi:  # pragma: no cover - its moves are all exact
                raise RuntimeError(f"split proof under the pie rule ended with bounds {show_bounds((lo, hi))}")
    except KeyboardInterrupt:
        recorded = journal.kept() if journal is not None else counts["proved"]
        raise SplitStopped(recorded, len(leaves), journal.path if journal is not None else None) from None
    value = int(lo)
    move = best_move(state, moves)
    moves = {m: moves[m] for m in game.legal_moves(state) if m in moves}  # (in the moves' order)
    if journal is not None and journal.contents.result is None:
        journal.finish(value, move, moves)
    return SplitResult(
        value=value,
        move=move,
        moves=moves,
        subproofs=len(leaves),
        proved=counts["proved"],
        resumed=counts["resumed"],
        nodes=counts["nodes"],
        seconds=time.perf_counter() - began,
    )


# --- checking a journal --------------------------------------------------------------------------


@dataclass
class CheckReport:
    """What :func:`check_journal` found: the root's bounds the recorded sub-proofs prove, the
    result line's value (None before the proof ended), lines read, sub-proofs re-proved."""

    header: dict
    bounds: Interval
    recorded: int | None
    records: int
    subproofs: int
    reproved: int
    cut: bool
    same_engine: bool
    #: the lines with bounds proved (:func:`proved_lines`), for the root's mover
    lines: list = field(default_factory=list)
    #: the root's mover by name (``South``)
    mover: str = ""


def check_journal(
    path: str | os.PathLike, reprove: int = 0, *, say: Callable[[str], None] | None = None
) -> CheckReport:
    """Check a journal on its own: every line's checksum (a damaged one refused in one line),
    every sub-proof's position a position of its split, the root's bounds the recorded
    bounds combine to, and that they hold the result line's value.  ``reprove``: that many
    recorded sub-proofs (spread evenly over the file) proved again exactly by this engine,
    each value inside its recorded bounds.  A failed check is a :class:`BadInput` line."""
    from mancala.engine import bridge  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    contents = read_journal(path)
    p, header = contents.path, contents.header
    try:
        game: Any = make_game(str(header.get("game")))
        root = state_from_data(header.get("root"))
        plies = header.get("plies")
        if not isinstance(plies, int) or not _solves(game):
            raise ValueError("no split depth")
    except (ValueError, TypeError) as e:
        raise BadInput(f"{p}, line 1: a header that names no Kalah game, position or split ({e})") from None
    if header.get("rules") != list(bridge.play_key(game.rules)):
        raise BadInput(f"{p}, line 1: the header's rules are not its game's ({header.get('game')})")
    tree, leaves = split_tree(game, root, plies)
    for key, numbers in contents.lines.items():
        if key not in leaves:
            raise BadInput(f"{p}, line {numbers[0]}: a position that is not one of the split's sub-proofs")
    recorded_bounds: LeafBounds = lambda key, s, a, b: contents.entries.get(key, UNKNOWN)  # noqa: E731
    bounds, moves = combine(game, tree, recorded_bounds)
    recorded = None
    if contents.result is not None:
        recorded = contents.result.get("value")
        if not isinstance(recorded, int) or not bounds[0] <= recorded <= bounds[1] or bounds[0] != bounds[1]:
            raise BadInput(
                f"{p}: its result line says {recorded!r} but its sub-proofs prove {show_bounds(bounds)} for the root"
            )
    reproved = 0
    if reprove > 0 and contents.positions:
        from mancala.engine.solver import prove_window  # noqa: PLC0415

        keys = list(contents.positions)
        picks = sorted({keys[i * len(keys) // min(reprove, len(keys))] for i in range(min(reprove, len(keys)))})
        picks = [k for k in keys if k in picks]
        k = _seeds(game, root)
        for key in picks:
            state = contents.positions[key]
            lo, hi, _ = prove_window(game, state, -math.inf, math.inf, endgame_seeds=k)
            want = contents.entries[key]
            if lo != hi or not want[0] <= lo <= want[1]:
                raise BadInput(
                    f"{p}, line {contents.lines[key][0]}: recorded {show_bounds(want)}, but the position's value "
                    f"is {show_bounds((lo, hi))}"
                )
            reproved += 1
            if say is not None:
                say(f"re-proved {reproved}/{len(picks)}: line {contents.lines[key][0]}, value {int(lo):+d}")
    return CheckReport(
        header=header,
        bounds=bounds,
        recorded=recorded,
        records=contents.records,
        subproofs=len(leaves),
        reproved=reproved,
        cut=contents.cut,
        same_engine=header.get("mancala") == engine_version(),
        lines=proved_lines(game, tree, recorded_bounds),
        mover=game.player_name(game.to_move(root), root),
    )


def _seeds(game: Kalah, root: KalahState) -> int:
    """The endgame database a re-proof uses: the one a proof of the root would use."""
    from mancala.engine.tables import proof_seeds  # noqa: PLC0415

    return proof_seeds(game, sum(root.row(0)) + sum(root.row(1)))


def _solves(game: Any) -> bool:
    """Whether ``game``'s engine proves positions by search (Kalah's solver), asked of the
    engine catalogue rather than of the game's class."""
    from mancala.engine.support import engine_support  # noqa: PLC0415

    record = engine_support(game.name)
    return record is not None and record.solves
