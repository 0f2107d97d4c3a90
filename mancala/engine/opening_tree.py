"""Opening books grown by search, for every game with an engine of ours: drop-out expansion.

Kalah's book (:mod:`mancala.engine.book`) holds the exact solver's results; the other games'
boards are far beyond a solver near the start, so their books are *opening trees* grown
best-first, as Lincke's drop-out expansion (DOE) grows them (Samurai's and Aalina's books):

**The tree.**  Nodes are positions, keyed by the game's position string (the board, the
stores or kazans, the side to move: the ``position`` capability; a game without one is not
offered).  A node is a *leaf*, valued by the game's engine ``best`` search at a fixed node
budget (deterministic: nodes, never time; the endgame tables and books off), or *expanded*:
every legal move's position is in the tree (or the game ends there), and its value is the
negamax of its children's values.  Values are for the player to move, in the game's units
(seeds, stones: the engine record's ``value_scale``), rounded to hundredths.  Positions that
transpose share one node.  A move whose position is an ancestor on the path being valued (a
cycle, which the rules would end by repetition) is left out of that node's negamax.

**Expansion.**  The book's player plays only good moves; the opponent may play any.  So each
node has a cost for each seat p: the root costs 0, and a child costs its parent's cost plus
one (a ply deeper) plus ``weight`` times the value the move gives up against the parent's
best when p is the one moving there (its opponent's moves cost only the ply).  The leaves of
least cost for either seat are expanded first (their *drop-out* order); leaves tie by key.
Expansions run in batches: a batch of ``max(1, s // 32)`` leaves chosen from the tree of the
first ``s`` expansions, so the costs are recomputed once a batch, not once a leaf (a 200,000
position tree would otherwise spend more time on bookkeeping than on search).  Every step is
a function of the tree so far: a build is deterministic, whatever interrupts it.  With
``jobs`` > 1 a batch's new positions are searched ahead in worker processes (:class:`Searches`):
the same book, sooner.

**Files.**  A build journals to ``FILE.partial`` as it goes (each searched position and each
expansion a line, flushed and synced): Ctrl-C loses at most the expansion in progress, and
the same command resumes it; a finished book given as ``--out`` again grows further.  The
book itself is gzip'd text (``.tree.gz``, gzip's time stamp zeroed so one tree gives one
file): a JSON header line (``format``, ``version``, the game and its rules key, the spec, the
engine's fingerprint, the leaf budget, the weight, counts, ``sha256`` over the header's other
fields and every line after it), then one tab-separated line a position, in key order::

    key  seat  score  search-move  search-nodes  seq  batch  value  move  work

``seq``/``batch`` (``-`` for a leaf) number the expansions, so the tree can be grown or
checked again; ``value``/``move``/``work`` are derived (the negamax, its move, and the
search nodes behind it: a leaf's own search, an expanded node's children's work summed),
kept so a player reads a book without replaying it.  Text over a binary because it diffs,
greps and is read by anything; gzip makes it about 15 bytes a position.
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from mancala.atomic import refuse_foreign, write_atomically, write_problem
from mancala.engine.support import BookAnswer, engine_support
from mancala.errors import BadInput
from mancala.games.catalogue import game_info, has_capability

FORMAT = "mancala-opening-tree"
VERSION = 1
#: the file name ending of a tree book (a gzip'd text file)
SUFFIX = ".tree.gz"
#: where the shipped books live (package data), beside Kalah's exact books
BOOK_DIR = Path(__file__).with_name("books")
#: a build's defaults: the positions of the shipped books and the search behind each leaf
DEFAULT_POSITIONS = 4000
DEFAULT_NODES = 50_000
#: plies of depth the book player's giving up one unit of value (a seed, a stone) costs
DEFAULT_WEIGHT = 1.0
#: a batch is ``max(1, expansions so far // BATCH_DIVISOR)`` leaves
BATCH_DIVISOR = 32
#: the largest book read, uncompressed, in bytes (200,000 positions are about 14 MB)
MAX_TREE_BYTES = 1 << 30
#: the most a build takes: positions (10 M are about 700 MB of text, within the read bound),
#: engine nodes a leaf (a billion is many minutes a leaf), worker processes
MAX_POSITIONS = 10_000_000
MAX_NODES = 1_000_000_000
MAX_JOBS = 64
#: how far a book line is followed
LINE_LIMIT = 40

#: ``scorer(game, state, nodes) -> (value for the mover in the game's units, move, nodes spent)``
Scorer = Callable[[Any, Any, int], tuple[float, str, int]]
#: ``progress(positions, target)`` after each expansion
Progress = Callable[[int, int], None]


# --- what a book is for ------------------------------------------------------------------


def rules_key(game: Any) -> dict:
    """What a book's values depend on: the game's name and its rules options (all of them but
    the start position: a game from a set position meets the same positions)."""
    rules = getattr(game, "rules", None)
    options = rules.to_dict() if rules is not None else {}
    return {"game": game.name, "rules": {k: v for k, v in options.items() if k != "start"}}


def refusal(game: Any, read: bool = True) -> str | None:
    """Why no opening tree can be built for ``game`` (None: one can).  With ``read``, only for
    a game whose engine record reads opening trees (its players and explorer would use it:
    what ``mancala book build`` offers); without, for any game an engine of ours plays (the
    builder itself, e.g. on Kalah in the tests)."""
    record = engine_support(game.name)
    if record is None or not record.plays(game):
        return f"{game.name}: no engine of ours plays these rules, so it has no book to build"
    if read and record.opening_book is not opening_book:
        return f"{game.name}: its engine reads no opening tree (only Kalah's exact book, or none)"
    if not has_capability(game, "position"):
        return f"{game.name}: the game has no position notation to key a book by"
    return None


def engine_fingerprint(game: Any) -> str:
    """The version of ``game``'s engine: the package version and a digest of the sources of the
    engine package that plays it (a changed search may score the leaves differently)."""
    from importlib import import_module  # noqa: PLC0415

    import mancala  # noqa: PLC0415 (the package's version)

    record = engine_support(game.name)
    module = import_module(record.best.__module__ if record is not None else __name__)
    folder = Path(module.__file__ or __file__).parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.read_bytes())
    return f"{mancala.__version__} ({digest.hexdigest()[:12]})"


def engine_scorer(game: Any) -> Scorer:
    """The leaf search: the game's engine ``best`` at a node budget, without books or tables
    (so a build is the same on any machine), its value in the game's units."""
    record = engine_support(game.name)
    if record is None:  # pragma: no cover - refused before
        raise BadInput(f"{game.name}: no engine")

    def score(g: Any, state: Any, nodes: int) -> tuple[float, str, int]:
        result = record.best(g, state, 1e9, None, nodes, None, False)
        return round(float(record.value_scale(result.value)), 2), str(result.move), int(result.nodes)

    return score


# --- the tree ----------------------------------------------------------------------------


class Node:
    """One position of the tree: its leaf search, and once expanded its order and children."""

    __slots__ = ("key", "seat", "score", "smove", "snodes", "seq", "batch", "children")

    def __init__(self, key: str, seat: int, score: float, smove: str, snodes: int) -> None:
        self.key = key
        self.seat = seat
        #: the leaf search's value (for the mover), move and nodes
        self.score = score
        self.smove = smove
        self.snodes = snodes
        #: the expansion's number and its batch's first number (None: a leaf)
        self.seq: int | None = None
        self.batch: int | None = None
        #: (move, child key or None, the final margin for the mover where the game ends)
        self.children: list[tuple[str, str | None, float]] | None = None


#: a node's derived value, move and work
Derived = tuple[float, str, int]


@dataclass
class OpeningTree:
    """A book being grown (or read back to grow or check): its positions by key."""

    game: Any
    nodes_budget: int = DEFAULT_NODES
    weight: float = DEFAULT_WEIGHT
    nodes: dict[str, Node] = field(default_factory=dict)
    #: seconds of building so far (every run)
    seconds: float = 0.0
    #: positions searched ahead of the expansion that places them (a parallel build's, or a
    #: journal's from an interrupted batch): not in the book until then
    ready: dict[str, Node] = field(default_factory=dict)

    @property
    def root(self) -> str:
        """The start position's key."""
        return self.game.position_string(self.game.initial_state())

    def header(self) -> dict:
        """What a file of this tree says of it (no counts): game, rules, budget, weight."""
        from mancala.games.catalogue import spec_of  # noqa: PLC0415

        return {
            "format": FORMAT,
            "version": VERSION,
            **rules_key(self.game),
            "spec": spec_of(self.game),
            "nodes": self.nodes_budget,
            "weight": self.weight,
            "root": self.root,
        }

    @property
    def expanded(self) -> int:
        """How many positions are expanded."""
        return sum(n.seq is not None for n in self.nodes.values())

    def children(self, node: Node) -> list[tuple[str, str | None, float]]:
        """An expanded node's children (worked out again from its key when read from a file)."""
        if node.children is None:
            game = self.game
            state = game.parse_position(node.key)
            out: list[tuple[str, str | None, float]] = []
            for move in game.legal_moves(state):
                child = game.apply(state, move)
                if game.is_terminal(child):
                    out.append((str(move), None, float(game.score(child, node.seat))))
                else:
                    out.append((str(move), game.position_string(child), 0.0))
            node.children = out
        return node.children

    # --- valuing ---------------------------------------------------------------------

    def derive(self, upto: int | None = None) -> dict[str, Derived]:
        """Every reachable position's (value, move, work) by negamax from the leaves, counting
        only the expansions numbered below ``upto`` (None: all of them)."""
        nodes = self.nodes
        out: dict[str, Derived] = {}

        def open_(node: Node) -> bool:
            return node.seq is not None and (upto is None or node.seq < upto)

        root = self.root
        if root not in nodes:
            return out
        frames: list[list[Any]] = [[root, 0]]
        on_path = {root}
        while frames:
            key, i = frames[-1]
            node = nodes[key]
            if not open_(node):
                out[key] = (node.score, node.smove, node.snodes)
                frames.pop()
                on_path.discard(key)
                continue
            children = self.children(node)
            while i < len(children) and (children[i][1] is None or children[i][1] in out or children[i][1] in on_path):
                i += 1
            if i < len(children):
                frames[-1][1] = i + 1
                child = children[i][1]
                frames.append([child, 0])
                on_path.add(child)
                continue
            best: tuple[float, str] | None = None
            work = 0
            for move, child, end in children:
                if child is None:
                    value = end
                elif child in on_path:
                    continue  # a cycle: left out
                else:
                    cv, _, cw = out[child]
                    value = cv if nodes[child].seat == node.seat else -cv
                    work += cw
                if best is None or value > best[0]:
                    best = (value, move)
            out[key] = (best if best is not None else (node.score, node.smove)) + (work,)
            frames.pop()
            on_path.discard(key)
        return out

    def costs(self, derived: dict[str, Derived], upto: int | None = None) -> dict[str, float]:
        """Each reachable leaf's drop-out cost (see the module doc): the less for either seat."""
        best: dict[str, float] = {}
        for seat in (0, 1):
            dist = {self.root: 0.0}
            heap = [(0.0, self.root)]
            while heap:
                d, key = heapq.heappop(heap)
                if d > dist[key]:
                    continue
                node = self.nodes[key]
                if node.seq is None or (upto is not None and node.seq >= upto):
                    continue
                value = derived[key][0]
                for _, child, _ in self.children(node):
                    if child is None:
                        continue
                    cv = derived[child][0]
                    lost = value - (cv if self.nodes[child].seat == node.seat else -cv)
                    step = 1.0 + (self.weight * max(0.0, lost) if node.seat == seat else 0.0)
                    if d + step < dist.get(child, float("inf")):
                        dist[child] = d + step
                        heapq.heappush(heap, (d + step, child))
            for key, d in dist.items():
                node = self.nodes[key]
                if (node.seq is None or (upto is not None and node.seq >= upto)) and d < best.get(key, float("inf")):
                    best[key] = d
        return best

    def select(self, upto: int, size: int) -> list[str]:
        """The batch of ``size`` leaves to expand after the first ``upto`` expansions."""
        costs = self.costs(self.derive(upto), upto)
        return [k for _, k in sorted((c, k) for k, c in costs.items())[:size]]

    # --- growing ---------------------------------------------------------------------

    def add(self, key: str, seat: int, scorer: Scorer) -> Node:
        """Search the position ``key`` (unless it is :attr:`ready`) and add it as a leaf."""
        node = self.ready.pop(key, None)
        if node is None:
            value, move, spent = scorer(self.game, self.game.parse_position(key), self.nodes_budget)
            node = Node(key, seat, round(float(value), 2), move, int(spent))
        self.nodes[key] = node
        return node

    def placed(self) -> set[str]:
        """The positions in the book: the start and every expanded position's children."""
        out = {self.root}
        for node in self.nodes.values():
            if node.seq is not None:
                out.update(child for _, child, _ in self.children(node) if child is not None)
        return out

    def expand(self, key: str, seq: int, batch: int, scorer: Scorer, journal: Callable[[str, Node], None]) -> None:
        """Expand the leaf ``key``: search each new child, then number it ``seq`` of ``batch``."""
        game = self.game
        node = self.nodes[key]
        state = game.parse_position(key)
        children: list[tuple[str, str | None, float]] = []
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            if game.is_terminal(child):
                children.append((str(move), None, float(game.score(child, node.seat))))
                continue
            child_key = game.position_string(child)
            if child_key not in self.nodes:
                searched = child_key not in self.ready
                added = self.add(child_key, game.to_move(child), scorer)
                if searched:
                    journal("N", added)
            children.append((str(move), child_key, 0.0))
        node.children = children
        node.seq, node.batch = seq, batch
        journal("E", node)


def batch_size(start: int) -> int:
    """How many leaves the batch starting after ``start`` expansions expands."""
    return max(1, start // BATCH_DIVISOR)


def grow(
    tree: OpeningTree,
    positions: int,
    scorer: Scorer | None = None,
    *,
    progress: Progress | None = None,
    journal: Callable[[str, Node], None] | None = None,
    jobs: int = 1,
) -> OpeningTree:
    """Grow ``tree`` until it holds ``positions`` positions (or nothing is left to expand):
    batch after batch of drop-out expansions (a batch left half done is finished first).
    ``journal(kind, node)`` hears of each searched position (``N``) and expansion (``E``);
    ``progress(positions, target)`` of each expansion (and, with ``jobs``, of each search).
    ``jobs`` > 1 searches a batch's new positions in that many processes first (the same
    book: a position's search depends on its key only).  Ctrl-C (``KeyboardInterrupt``)
    stops it with everything journalled so far kept."""
    scorer = scorer or engine_scorer(tree.game)
    note = journal or (lambda kind, node: None)
    game = tree.game
    if tree.root not in tree.nodes:
        note("N", tree.add(tree.root, game.to_move(game.initial_state()), scorer))
    placed = tree.placed()
    for key in [k for k in tree.nodes if k not in placed]:  # an interrupted batch's searches
        tree.ready[key] = tree.nodes.pop(key)
    opened = [n for n in tree.nodes.values() if n.seq is not None]
    done = len(opened)
    start = max((n.batch for n in opened if n.batch is not None), default=None)
    todo: list[str] = []
    if start is not None:  # the last batch, if a build stopped half way through it
        todo = [k for k in tree.select(start, batch_size(start)) if tree.nodes[k].seq is None]
    pool = Searches(tree, jobs) if jobs > 1 else None
    try:
        if pool is not None and todo:
            pool.prefetch(todo, positions, note, progress)
        while len(tree.nodes) < positions:
            if not todo:
                start = done
                todo = tree.select(start, batch_size(start))
                if not todo:
                    break  # every position is expanded: the game's whole tree
                if pool is not None:
                    pool.prefetch(todo, positions, note, progress)
            assert start is not None
            tree.expand(todo.pop(0), done, start, scorer, note)
            done += 1
            if progress is not None:
                progress(len(tree.nodes), positions)
    finally:
        if pool is not None:
            pool.close()
    return tree


class Searches:
    """A parallel build's worker processes: the new positions a batch's expansions will meet,
    searched ahead (each worker has its own engine; the positions are the same, in any order)."""

    def __init__(self, tree: OpeningTree, jobs: int) -> None:
        import multiprocessing  # noqa: PLC0415
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

        from mancala.games.catalogue import spec_of  # noqa: PLC0415

        self.tree = tree
        self.executor = ProcessPoolExecutor(
            jobs,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
            initargs=(spec_of(tree.game),),
        )

    def prefetch(
        self, todo: list[str], positions: int, note: Callable[[str, Node], None], progress: Progress | None
    ) -> None:
        """Search the new children of the leaves ``todo`` (in order, no further than the
        expansion that reaches ``positions``) and keep them :attr:`OpeningTree.ready`."""
        from concurrent.futures import as_completed  # noqa: PLC0415

        tree, game = self.tree, self.tree.game
        count, wanted = len(tree.nodes), []
        planned: set[str] = set()
        for key in todo:
            if count >= positions:
                break
            state = game.parse_position(key)
            for move in game.legal_moves(state):
                child = game.apply(state, move)
                if game.is_terminal(child):
                    continue
                child_key = game.position_string(child)
                if child_key in tree.nodes or child_key in planned:
                    continue
                planned.add(child_key)
                count += 1
                if child_key not in tree.ready:
                    wanted.append(child_key)
        futures = [self.executor.submit(_worker_search, k, tree.nodes_budget) for k in wanted]
        for future in as_completed(futures):
            key, seat, value, move, spent = future.result()
            node = Node(key, seat, round(float(value), 2), move, int(spent))
            tree.ready[key] = node
            note("N", node)
            if progress is not None:
                progress(len(tree.nodes) + len(tree.ready), positions)

    def close(self) -> None:
        """Stop the workers (a search under way ends first; the queued ones are dropped)."""
        self.executor.shutdown(wait=False, cancel_futures=True)


_WORKER: dict[str, Any] = {}


def _worker_start(spec: str) -> None:
    """A worker process's start: its game and engine (Ctrl-C is the parent's to handle)."""
    import signal  # noqa: PLC0415

    import mancala.engine  # noqa: F401, PLC0415 (registers the engines)
    from mancala.games import make_game  # noqa: PLC0415

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    game = make_game(spec)
    _WORKER.update(game=game, scorer=engine_scorer(game))


def _worker_search(key: str, nodes: int) -> tuple[str, int, float, str, int]:
    """One leaf search in a worker: (key, seat, value, move, nodes spent)."""
    game = _WORKER["game"]
    state = game.parse_position(key)
    value, move, spent = _WORKER["scorer"](game, state, nodes)
    return key, game.to_move(state), value, move, spent


# --- files -------------------------------------------------------------------------------


def _cell(value: int | None) -> str:
    return "-" if value is None else str(value)


def body_lines(tree: OpeningTree) -> list[str]:
    """The book's position lines, in key order (see the module doc)."""
    derived = tree.derive()
    lines = []
    for key in sorted(derived):
        n = tree.nodes[key]
        value, move, work = derived[key]
        lines.append(
            f"{key}\t{n.seat}\t{n.score:.2f}\t{n.smove}\t{n.snodes}\t{_cell(n.seq)}\t{_cell(n.batch)}"
            f"\t{value:.2f}\t{move}\t{work}"
        )
    return lines


def _digest(header: dict, body: str) -> str:
    text = json.dumps({k: v for k, v in header.items() if k != "sha256"}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((text + "\n" + body).encode("utf-8")).hexdigest()


def dumps(tree: OpeningTree) -> bytes:
    """The book file's bytes (gzip'd, its time stamp zeroed: one tree, one file)."""
    lines = body_lines(tree)
    body = "".join(line + "\n" for line in lines)
    head = tree.header() | {
        "engine": engine_fingerprint(tree.game),
        "positions": len(lines),
        "expanded": tree.expanded,
        "searched": sum(n.snodes for n in tree.nodes.values()),
        "seconds": round(tree.seconds, 1),
    }
    head["sha256"] = _digest(head, body)
    text = json.dumps(head, sort_keys=True) + "\n" + body
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def is_tree_file(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a gzip'd file (a tree book, not Kalah's JSON book)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"\x1f\x8b"
    except OSError:
        return False


def _text(path: str | os.PathLike) -> str:
    try:
        with gzip.open(path, "rb") as f:
            data = f.read(MAX_TREE_BYTES + 1)
    except (OSError, EOFError, gzip.BadGzipFile) as e:
        raise BadInput(f"{path}: not an opening tree file ({getattr(e, 'strerror', None) or e})") from None
    if len(data) > MAX_TREE_BYTES:
        raise BadInput(f"{path}: larger than {MAX_TREE_BYTES >> 20} MB unpacked, so not an opening tree file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not an opening tree file (not text)") from None


def read_header(path: str | os.PathLike) -> dict:
    """The header of the book file ``path`` (its first line), unchecked."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            head = json.loads(f.readline(1 << 16))
    except (OSError, EOFError, ValueError, UnicodeDecodeError):
        raise BadInput(f"{path}: not an opening tree file") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BadInput(f"{path}: not a {FORMAT} file")
    return head


def _checked(path: str | os.PathLike, game: Any | None) -> tuple[dict, list[str]]:
    """The header and position lines of the book file ``path``: format, version, checksum and
    (with ``game``) rules checked, each problem one :class:`BadInput` line."""
    text = _text(path)
    first, _, body = text.partition("\n")
    try:
        head = json.loads(first)
    except ValueError:
        raise BadInput(f"{path}: not an opening tree file (no header)") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BadInput(f"{path}: not a {FORMAT} file")
    if head.get("version") != VERSION:
        raise BadInput(
            f"{path}: opening tree version {head.get('version')!r}, this program reads version {VERSION}; "
            f"rebuild it with 'mancala book build'"
        )
    if head.get("sha256") != _digest(head, body):
        raise BadInput(
            f"{path}: checksum mismatch (the file was edited or damaged); rebuild it with 'mancala book build'"
        )
    if game is not None:
        want = rules_key(game)
        if {"game": head.get("game"), "rules": head.get("rules")} != want:
            raise BadInput(
                f"{path}: a book for {head.get('spec', head.get('game'))}, not for these rules ({want['game']})"
            )
    return head, body.splitlines()


def _fields(path: Any, line: str) -> list[str]:
    cells = line.split("\t")
    if len(cells) != 10:
        raise BadInput(f"{path}: malformed book line {line[:60]!r}")
    return cells


def load_tree(path: str | os.PathLike, game: Any) -> OpeningTree:
    """The tree of the book file ``path`` for ``game`` (to grow or check it)."""
    head, lines = _checked(path, game)
    tree = OpeningTree(game, int(head["nodes"]), float(head["weight"]), seconds=float(head.get("seconds", 0.0)))
    try:
        for line in lines:
            key, seat, score, smove, snodes, seq, batch, *_ = _fields(path, line)
            node = Node(key, int(seat), float(score), smove, int(snodes))
            node.seq = None if seq == "-" else int(seq)
            node.batch = None if batch == "-" else int(batch)
            tree.nodes[key] = node
    except ValueError:
        raise BadInput(f"{path}: malformed book lines") from None
    return tree


def save_tree(tree: OpeningTree, path: str | os.PathLike) -> None:
    """Write the book file atomically; a file there that is not an opening tree is left alone."""
    refuse_tree_paths(path)
    try:
        write_atomically(path, dumps(tree))
    except OSError as e:
        raise BadInput(write_problem(path, e)) from None


def refuse_tree_paths(path: str | os.PathLike) -> None:
    """Raise :class:`BadInput` when writing the book ``path`` (or its ``.partial``) would
    replace a file that is not one of ours."""
    path = Path(path)
    instead = "give --out another file"

    def tree(p: Path) -> bool:
        try:
            read_header(p)
        except BadInput:
            return False
        return True

    def partial(p: Path) -> bool:
        with open(p, "rb") as f:
            return f'"format": "{FORMAT}-partial"'.encode() in f.read(4096)

    refuse_foreign(path, tree, "an opening tree written by mancala book build", instead)
    refuse_foreign(path.with_name(path.name + ".partial"), partial, "a partial opening tree", instead)


def check_tree(path: str | os.PathLike, game: Any) -> list[str]:
    """What is wrong with the book file ``path`` by its own lines (empty when nothing): every
    expanded position's children must be in it, and the stored values, moves and work must be
    the negamax the tree gives.  (The leaf searches are not run again.)"""
    tree = load_tree(path, game)
    _, lines = _checked(path, None)
    problems = []
    if tree.root not in tree.nodes:
        return ["the start position is not in the book"]
    for node in tree.nodes.values():
        if node.seq is None:
            continue
        for move, child, _ in tree.children(node):
            if child is not None and child not in tree.nodes:
                problems.append(f"{node.key}: expanded, but {move} leads out of the book")
    if problems:
        return problems
    derived = tree.derive()
    for line in lines:
        key, *_, value, move, work = _fields(path, line)
        if key not in derived:
            problems.append(f"{key}: not reached from the start")
        elif (float(value), move, int(work)) != (round(derived[key][0], 2), derived[key][1], derived[key][2]):
            problems.append(
                f"{key}: says {value} {move} {work}, the tree gives {derived[key][0]:.2f} {derived[key][1]} {derived[key][2]}"
            )
    return problems


# --- the partial file (the journal of a build) ---------------------------------------------


class Journal:
    """A build's ``FILE.partial``: a header line, then a line a searched position and a line an
    expansion, each flushed and synced."""

    def __init__(self, path: Path, tree: OpeningTree) -> None:
        self.path = path
        self.header = tree.header() | {"format": FORMAT + "-partial"}
        self.stream = self._open(tree)

    def _open(self, tree: OpeningTree):
        path = self.path
        if path.exists():
            lines = path.read_text(encoding="utf-8").split("\n")
            try:
                first = json.loads(lines[0])
            except ValueError:
                first = None
            if first == self.header:
                good = 1
                for line in lines[1:-1]:  # whole lines only (the piece after the last line end is dropped)
                    if not self._replay(tree, line):
                        break  # a line cut short by an interruption: dropped, done again
                    good += 1
                path.write_text("\n".join(lines[:good]) + "\n", encoding="utf-8")
                return open(path, "a", encoding="utf-8")
        stream = open(path, "w", encoding="utf-8")
        stream.write(json.dumps(self.header, sort_keys=True) + "\n")
        for node in sorted(tree.nodes.values(), key=lambda n: (n.seq is not None, n.seq or 0, n.key)):
            stream.write(self._line("N", node) + "\n")
        for node in sorted((n for n in tree.nodes.values() if n.seq is not None), key=lambda n: n.seq or 0):
            stream.write(self._line("E", node) + "\n")
        stream.flush()
        return stream

    @staticmethod
    def _line(kind: str, node: Node) -> str:
        if kind == "N":
            return f"N\t{node.key}\t{node.seat}\t{node.score:.2f}\t{node.smove}\t{node.snodes}"
        return f"E\t{node.key}\t{node.seq}\t{node.batch}"

    @staticmethod
    def _replay(tree: OpeningTree, line: str) -> bool:
        cells = line.split("\t")
        try:
            if cells[0] == "N" and len(cells) == 6:
                node = Node(cells[1], int(cells[2]), float(cells[3]), cells[4], int(cells[5]))
                tree.nodes[node.key] = node
                return True
            if cells[0] == "E" and len(cells) == 4 and cells[1] in tree.nodes:
                node = tree.nodes[cells[1]]
                node.seq, node.batch = int(cells[2]), int(cells[3])
                return True
        except ValueError:
            pass
        return False

    def __call__(self, kind: str, node: Node) -> None:
        """Write one event and sync it."""
        self.stream.write(self._line(kind, node) + "\n")
        self.stream.flush()
        if kind == "E":
            os.fsync(self.stream.fileno())

    def close(self) -> None:
        """Close the file."""
        self.stream.close()


def build(
    game: Any,
    positions: int = DEFAULT_POSITIONS,
    nodes: int = DEFAULT_NODES,
    *,
    weight: float = DEFAULT_WEIGHT,
    out: str | os.PathLike | None = None,
    scorer: Scorer | None = None,
    progress: Progress | None = None,
    clock: Callable[[], float] | None = None,
    jobs: int = 1,
) -> OpeningTree:
    """Build (or resume, or grow) the opening tree of ``game`` to ``positions`` positions, each
    leaf searched with ``nodes`` nodes (by ``jobs`` processes: the same book).  With ``out``: a finished book there of the same rules
    and budget is grown, ``out.partial`` journals the build (and resumes an interrupted one),
    and the book is written to ``out`` at the end (the partial file then goes)."""
    problem = refusal(game, read=False)
    if problem is not None:
        raise BadInput(problem)
    if positions < 1:
        raise BadInput(f"a book holds at least 1 position, got {positions}")
    if nodes < 1:
        raise BadInput(f"a leaf search takes at least 1 node, got {nodes}")
    tree = OpeningTree(game, nodes, weight)
    journal: Journal | None = None
    if out is not None:
        out = Path(out)
        refuse_tree_paths(out)
        if out.exists():
            tree = load_tree(out, game)
            if (tree.nodes_budget, tree.weight) != (nodes, weight):
                raise BadInput(
                    f"{out}: built with --nodes {tree.nodes_budget} and weight {tree.weight}; give those to grow it, "
                    f"or another --out"
                )
        journal = Journal(out.with_name(out.name + ".partial"), tree)
    import time  # noqa: PLC0415

    clock = clock or time.perf_counter
    start = clock()
    try:
        grow(tree, positions, scorer, progress=progress, journal=journal, jobs=jobs)
    finally:
        tree.seconds += clock() - start
        if journal is not None:
            journal.close()
    if out is not None:
        save_tree(tree, out)
        Path(out).with_name(Path(out).name + ".partial").unlink(missing_ok=True)
    return tree


# --- reading a book to play ----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A book position as a player reads it."""

    seat: int
    value: float
    move: str
    work: int
    expanded: bool


class TreeBook:
    """A book file read to play: its positions by key (no children, no replay)."""

    def __init__(self, path: str | os.PathLike, game: Any) -> None:
        head, lines = _checked(path, game)
        self.path = Path(path)
        self.header = head
        self.entries: dict[str, Entry] = {}
        try:
            for line in lines:
                key, seat, _, _, _, seq, _, value, move, work = _fields(path, line)
                self.entries[key] = Entry(int(seat), float(value), move, int(work), seq != "-")
        except ValueError:
            raise BadInput(f"{path}: malformed book lines") from None

    def get(self, game: Any, state: Any) -> Entry | None:
        """The entry of ``state`` (None: not in the book, or the game is over)."""
        if game.is_terminal(state):
            return None
        return self.entries.get(game.position_string(state))


def book_dirs() -> list[Path]:
    """Where books are looked for: the cache's ``books`` folder (what ``mancala book build``
    writes by default), then the shipped ones."""
    return [cache_dir() / "books", BOOK_DIR]


def cache_dir() -> Path:
    """The cache folder of the endgame databases (:func:`mancala.engine.endgame.cache_dir`,
    not imported: that module loads numba): ``$MANCALA_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/mancala``, else ``~/.cache/mancala``."""
    env = os.environ.get("MANCALA_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mancala"


def default_path(game: Any) -> Path:
    """Where ``mancala book build --game G`` writes G's book: ``NAME-PRESET.tree.gz`` (or
    ``-custom``) in the cache's ``books`` folder."""
    return book_dirs()[0] / file_name(game)


def file_name(game: Any) -> str:
    """A book's file name for ``game``'s rules: ``oware-abapa.tree.gz``."""
    info = game_info(game)
    want = rules_key(game)

    def key_of(rules: Any) -> dict:
        return {"game": game.name, "rules": {k: v for k, v in rules.to_dict().items() if k != "start"}}

    preset = next((name for name, r in info.presets.items() if key_of(r) == want), None)
    if preset is None and info.rules is not None and key_of(info.rules()) == want:
        preset = "default"
    return f"{game.name}-{preset or 'custom'}{SUFFIX}"


_books: dict[str, TreeBook | None] = {}


def book_for(game: Any, directories: list[Path] | None = None) -> TreeBook | None:
    """The largest book for ``game``'s rules in ``directories`` (default :func:`book_dirs`),
    read and checked once per process; None when there is none."""
    dirs = book_dirs() if directories is None else directories
    cache_key = json.dumps([rules_key(game), [str(d) for d in dirs]], sort_keys=True)
    if cache_key not in _books:
        want = rules_key(game)
        found: list[tuple[int, str, Path]] = []
        for folder in dirs:
            for path in sorted(folder.glob("*" + SUFFIX)) if folder.is_dir() else []:
                try:
                    head = read_header(path)
                except BadInput:
                    continue
                if {"game": head.get("game"), "rules": head.get("rules")} == want:
                    found.append((-int(head.get("positions", 0)), str(path), path))
        _books[cache_key] = TreeBook(min(found)[2], game) if found else None
    return _books[cache_key]


def book_line(game: Any, state: Any, book: TreeBook, limit: int = LINE_LIMIT) -> list[str]:
    """The book's moves from ``state`` while they reach expanded positions (its main line)."""
    line: list[str] = []
    seen: set[str] = set()
    while len(line) < limit:
        entry = book.get(game, state)
        if entry is None or not entry.expanded:
            break
        key = game.position_string(state)
        if key in seen:
            break
        seen.add(key)
        line.append(entry.move)
        state = game.apply(state, game.parse_move(state, entry.move))
    return line


def answer(game: Any, state: Any, book: TreeBook) -> BookAnswer:
    """The book's answer at ``state``: each legal move's value for the mover where the book
    holds its position (or the game ends), and the main line from here."""
    mover = game.to_move(state)
    found: list[tuple[str, float | None]] = []
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        value: float | None = None
        if game.is_terminal(child):
            value = float(game.score(child, mover))
        else:
            entry = book.get(game, child)
            if entry is not None:
                value = entry.value if entry.seat == mover else -entry.value
        found.append((str(move), value))
    here = book.get(game, state)
    line = book_line(game, state, book) if here is not None else []
    return BookAnswer(found, line, exact=False, nodes=here.work if here is not None and here.expanded else 0)


def opening_book(game: Any, state: Any) -> BookAnswer | None:
    """The engine records' ``opening_book`` hook for a game with a tree book: the answer of
    the book of ``game``'s rules (None: there is none)."""
    book = book_for(game)
    if book is None:
        return None
    if game.is_terminal(state):
        return BookAnswer([], [], exact=False)
    return answer(game, state, book)


def iter_books(directory: Path | None = None) -> Iterator[Path]:
    """The tree book files in ``directory`` (default: the shipped ones)."""
    folder = BOOK_DIR if directory is None else directory
    yield from sorted(folder.glob("*" + SUFFIX)) if folder.is_dir() else []
