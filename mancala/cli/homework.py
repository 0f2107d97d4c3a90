"""The Mancala homework's file interface: ``input.txt`` in, ``next_state.txt`` and
``traverse_log.txt`` out, exactly in the homework's file format (``tests/data/homework`` holds its
official samples).

This module only translates.  The rules are the project's Kalah with the
``homework`` preset, the searches are :mod:`mancala.search`'s own greedy, minimax
and alpha-beta, and the log is written by a :class:`~mancala.search.core.Tracer`
that turns search events into log lines.  Nothing here knows how to sow or search.

The homework's board, and how it maps onto :class:`~mancala.games.kalah.Kalah`::

          A1 | A2 A3 ... A(N+1)          player 2 (row A, top)     = seat 1, North
             | B2 B3 ... B(N+1) | B(N+2) player 1 (row B, bottom)  = seat 0, South

South's pit ``p`` is ``B(p+1)``; North's pit ``p`` is ``A(N+2-p)`` (North numbers its
pits in its sowing direction, right to left as printed), so player 2's positional
order A2..A(N+1) is North's pits n..1.

Limits: an input file is read only up to :data:`MAX_INPUT_BYTES` (it is seven short
lines), and a minimax or alpha-beta search whose traverse log would pass
:data:`MAX_LOG_LINES` lines is refused with a message saying so: before it starts when
an estimate (:func:`estimate_log_lines`) says it is far too big, or when its log reaches
the limit (then nothing is written).

Outputs are staged in temporary files beside their final names and moved into place
(``os.replace``) only after the search has finished, so a failure never leaves a
half-written file and never replaces a good one.  The traverse log is streamed to its
temporary file while the search runs: it can be far larger than memory would like.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from mancala import players
from mancala.atomic import StagedFile, check_writable, write_problem
from mancala.cli.common import add_command
from mancala.errors import BadInput, MancalaError, is_whole_number
from mancala.evaluation.basic import score_difference
from mancala.games.kalah import PRESETS, Kalah, KalahMove, KalahState
from mancala.search.core import INF, Node, SearchResult, Tracer, alphabeta, greedy, minimax, turn_moves

#: task number (input line 1) -> name
TASKS = {1: "greedy", 2: "minimax", 3: "alpha-beta", 4: "competition"}
#: tasks that write traverse_log.txt
LOGGED_TASKS = (2, 3)
#: pits a side allowed by the assignment
MIN_PITS, MAX_PITS = 3, 10
#: stones a pit may hold in an input
MAX_STONES = 1000
#: lines of input.txt
INPUT_LINES = 7
#: output file names
NEXT_STATE = "next_state.txt"
TRAVERSE_LOG = "traverse_log.txt"
#: default time budget of task 4, in seconds
DEFAULT_SECONDS = 1.0
#: the largest input file read, in bytes (seven lines of at most ten 4-digit numbers need ~400)
MAX_INPUT_BYTES = 64 * 1024
#: the longest traverse log written, in lines (about 250 MB; minimax to depth 7 on the
#: standard 6-pit, 4-stone board writes 26 million lines, in about ten minutes here)
MAX_LOG_LINES = 30_000_000
#: random descents of the search-size estimate (deterministic: a fixed seed)
ESTIMATE_PROBES = 256
#: the deepest line of moves a search may follow (each move is a level of recursion)
MAX_LINE_MOVES = 300


# --- input.txt ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HomeworkInput:
    """The contents of an ``input.txt``, checked, in the homework's own terms."""

    #: 1 greedy, 2 minimax, 3 alpha-beta, 4 competition
    task: int
    #: my player: 1 (row B, bottom) or 2 (row A, top)
    player: int
    #: cutting-off depth in turns (only tasks 2 and 3 use it)
    depth: int
    #: player 2's pits A2..A(N+1), as printed left to right
    row_a: tuple[int, ...]
    #: player 1's pits B2..B(N+1), as printed left to right
    row_b: tuple[int, ...]
    #: stones in player 2's mancala A1
    store_a: int
    #: stones in player 1's mancala B(N+2)
    store_b: int

    @property
    def pits(self) -> int:
        """N, the pits on each side."""
        return len(self.row_a)


def _quote(text: str, limit: int = 60) -> str:
    """A line's text for an error message, shortened when long."""
    text = text.strip()
    if not text:
        return "an empty line"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    # control characters (a NUL, an escape sequence) are shown escaped, never sent to the terminal
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"'{text}'"


#: what each input line holds, for error messages
_LINE_MEANINGS = (
    "the task: 1 (greedy), 2 (minimax), 3 (alpha-beta) or 4 (competition)",
    "my player: 1 (row B, bottom) or 2 (row A, top)",
    "the cutting-off depth, a whole number",
    "player 2's pits A2..A(N+1): N stone counts (whole numbers 0-1000) separated by spaces",
    "player 1's pits B2..B(N+1): N stone counts (whole numbers 0-1000) separated by spaces",
    "the stones in player 2's mancala (A1), a whole number",
    "the stones in player 1's mancala (B(N+2)), a whole number",
)


class _Lines:
    """The lines of an input file, and error messages that point at them."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        while lines and not lines[-1].strip():  # a final newline, blank lines at the end
            lines.pop()
        self.lines = lines

    def error(self, number: int, expected: str, got: str | None = None) -> BadInput:
        """``source line N: expected ..., got ...`` (``got`` defaults to the line itself)."""
        if got is None:
            got = _quote(self.lines[number - 1])
        return BadInput(f"{self.source} line {number}: expected {expected}, got {got}")

    def text(self, number: int) -> str:
        """Line ``number`` (1-based); raises when the file ends before it."""
        if number > len(self.lines):
            found = len(self.lines)
            got = (
                "an empty file"
                if not found
                else f"the end of the file (it has {found} line{'s' if found != 1 else ''}, {INPUT_LINES} are needed)"
            )
            raise self.error(number, _LINE_MEANINGS[number - 1], got)
        return self.lines[number - 1]

    def check_end(self) -> None:
        """Raise when there is more than :data:`INPUT_LINES` lines (blank lines at the end are ignored)."""
        if len(self.lines) > INPUT_LINES:
            raise self.error(INPUT_LINES + 1, f"the end of the file after line {INPUT_LINES}")

    def number(self, number: int, expected: str, allowed: Callable[[int], bool] = lambda v: True) -> int:
        """Line ``number`` as one whole number accepted by ``allowed``."""
        fields = self.text(number).split()
        if len(fields) != 1 or not is_whole_number(fields[0]) or not allowed(int(fields[0])):
            raise self.error(number, expected)
        return int(fields[0])

    def row(self, number: int, count: int | None) -> tuple[int, ...]:
        """Line ``number`` as stone counts 0..MAX_STONES: ``count`` of them, or 3..10 when None."""
        text = self.text(number)
        fields = text.split()
        expected = f"{'N' if count is None else count} stone counts (whole numbers 0-{MAX_STONES}) separated by spaces"
        if count is not None:
            expected += ", as many as on line 4"
        if not fields:
            raise self.error(number, expected)
        for field in fields:
            if re.fullmatch(r"-[0-9]+", field):
                raise self.error(number, expected, f"{_quote(text)} ({field} is negative)")
            if not is_whole_number(field):
                raise self.error(number, expected)
            if int(field) > MAX_STONES:
                raise self.error(number, expected, f"{_quote(text)} ({field} is more than {MAX_STONES})")
        if count is None and not MIN_PITS <= len(fields) <= MAX_PITS:
            raise self.error(
                number,
                expected,
                f"{_quote(text)} ({len(fields)} "
                f"count{'s' if len(fields) != 1 else ''}; N must be {MIN_PITS} to {MAX_PITS})",
            )
        if count is not None and len(fields) != count:
            raise self.error(number, expected, f"{_quote(text)} ({len(fields)} count{'s' if len(fields) != 1 else ''})")
        return tuple(int(f) for f in fields)


def parse_input(text: str, source: str = "input.txt") -> HomeworkInput:
    """Read the seven lines of an ``input.txt`` (FORMAT.md §2).

    Accepts CRLF and CR line ends, spaces or tabs around and between numbers, and blank lines
    after line 7.  Anything else raises :class:`BadInput` with one line naming
    ``source``, the line number and what was expected there.
    """
    lines = _Lines(text, source)
    task = lines.number(1, _LINE_MEANINGS[0], lambda v: v in TASKS)
    player = lines.number(2, _LINE_MEANINGS[1], lambda v: v in (1, 2))
    if task in LOGGED_TASKS:
        depth = lines.number(
            3, f"the cutting-off depth for {TASKS[task]}, a whole number of at least 1", lambda v: v >= 1
        )
    else:
        depth = lines.number(3, f"the cutting-off depth, a whole number ({TASKS[task]} ignores it)")
    row_a = lines.row(4, None)
    row_b = lines.row(5, len(row_a))
    store_a = lines.number(6, _LINE_MEANINGS[5])
    store_b = lines.number(7, _LINE_MEANINGS[6])
    lines.check_end()
    return HomeworkInput(task, player, depth, row_a, row_b, store_a, store_b)


def read_input(path: str | os.PathLike) -> HomeworkInput:
    """Read and check the input file at ``path`` (errors name it as given)."""
    if not str(path):
        raise BadInput("the input file name is empty; give the input file (default: input.txt)")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as e:
        raise BadInput(f"{path}: cannot read the input file: {e.strerror or e}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise BadInput(
            f"{path}: more than {MAX_INPUT_BYTES:,} bytes, so not an input file (expected 7 lines of numbers)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a text file (expected 7 lines of numbers)") from None
    return parse_input(text, str(path))


# --- the homework board as a Kalah position ---------------------------------------------------


def homework_game(pits: int) -> Kalah:
    """Kalah under the project's ``homework`` preset, with ``pits`` pits a side."""
    return Kalah(replace(PRESETS["homework"], pits=pits))


def player_seat(player: int) -> int:
    """The Kalah seat of homework player 1 (South, 0) or 2 (North, 1)."""
    return player - 1


def to_position(problem: HomeworkInput) -> tuple[Kalah, KalahState]:
    """The game and the position described by ``problem``, with my player to move."""
    game = homework_game(problem.pits)
    board = problem.row_b + (problem.store_b,) + tuple(reversed(problem.row_a)) + (problem.store_a,)
    return game, game.position(board, player_seat(problem.player))


def format_next_state(state: KalahState) -> str:
    """next_state.txt for ``state``: row A (A2..A(N+1)), row B, A1, B(N+2); LF, final newline."""
    row_a = reversed(state.row(1))
    return (
        " ".join(map(str, row_a))
        + "\n"
        + " ".join(map(str, state.row(0)))
        + "\n"
        + f"{state.store(1)}\n{state.store(0)}\n"
    )


def pit_label(pits: int, seat: int, pit: int) -> str:
    """The homework's name of pit ``pit`` (1..n in ``seat``'s own numbering): ``B3``, ``A7``."""
    return f"B{pit + 1}" if seat == 0 else f"A{pits + 2 - pit}"


def positional_order(game: Any, state: Any, moves: Sequence[Any]) -> Sequence[Any]:
    """The homework's expansion order: B2..B(N+1) for player 1, A2..A(N+1) for player 2.

    South's own order is already B2..B(N+1); North's own order (pit 1 = A(N+1)) is the
    reverse of A2..A(N+1).
    """
    return moves if state.seat == 0 else tuple(reversed(moves))


def already_over(problem: HomeworkInput, source: str) -> BadInput | None:
    """The error to report when the input position is a finished game (a row is empty), else None."""
    empty = [line for line, row in ((4, problem.row_a), (5, problem.row_b)) if not any(row)]
    if not empty:
        return None
    rows = {4: "player 2's row A", 5: "player 1's row B"}
    which = " and ".join(f"{rows[line]} (line {line})" for line in empty)
    verb = "are" if len(empty) > 1 else "is"
    return BadInput(
        f"{source} line {empty[0]}: the game is already over: {which} {verb} empty, so there is no move to choose"
    )


# --- traverse_log.txt -------------------------------------------------------------------------


def format_value(value: float) -> str:
    """A log value: an integer, ``Infinity`` or ``-Infinity``."""
    if value == INF:
        return "Infinity"
    if value == -INF:
        return "-Infinity"
    return str(int(value))


class TraverseLog(Tracer):
    """A tracer that writes FORMAT.md's traverse log straight to ``stream``, line by line.

    The header is written at once.  Then, per search event (FORMAT.md §4, §5):

    * a node to be expanded, when entered: its initial ±Infinity;
    * a leaf: its evaluation, preceded for a game-over node (root excepted) by the TA
      reference's ``name,depth,±Infinity<TAB>OPTIONAL`` line when ``optional`` is set
      (``-Infinity`` when my player would move next, as for any max node);
    * after every child returns: the parent's value (and window) after the update,
      including the update that triggers a cut.

    Alpha-beta lines carry the window the node holds when the line is written.
    """

    def __init__(
        self, stream: IO[str], pits: int, *, with_window: bool, optional: bool = True, max_lines: int | None = None
    ) -> None:
        self._write = stream.write
        #: more lines than this raise :class:`SearchTooLarge` (default :data:`MAX_LOG_LINES`)
        self.max_lines = MAX_LOG_LINES if max_lines is None else max_lines
        self.with_window = with_window
        self.optional = optional
        #: lines written, header included
        self.lines = 0
        self._labels = [[""] + [pit_label(pits, seat, p) for p in range(1, pits + 1)] for seat in (0, 1)]
        self._emit("Node,Depth,Value,Alpha,Beta" if with_window else "Node,Depth,Value")

    def _emit(self, line: str) -> None:
        self._write(line + "\n")
        self.lines += 1
        if self.lines > self.max_lines:
            raise SearchTooLarge(self.lines)

    def name(self, node: Node) -> str:
        """``root``, or the label of the pit whose move led to ``node``."""
        if node.parent is None:
            return "root"
        return self._labels[node.parent.state.seat][node.move.pit]

    def _record(self, node: Node, value: float, suffix: str = "") -> None:
        line = f"{self.name(node)},{node.depth},{format_value(value)}"
        if self.with_window:
            assert node.alpha is not None and node.beta is not None  # alpha-beta nodes carry a window
            line += f",{format_value(node.alpha)},{format_value(node.beta)}"
        self._emit(line + suffix)

    def enter(self, node: Node) -> None:
        """Log a node to be expanded, or the OPTIONAL line of a game-over node."""
        if not node.leaf:
            self._record(node, node.value)
        elif node.terminal and self.optional and node.parent is not None:
            self._record(node, -INF if node.maximizing else INF, "\tOPTIONAL")

    def leaf(self, node: Node) -> None:
        """Log a leaf with its evaluation."""
        self._record(node, node.value)

    def update(self, node: Node, move: Any, child_value: float) -> None:
        """Log the parent after a child returned."""
        self._record(node, node.value)


# --- the size of a search --------------------------------------------------------------------


class SearchTooLarge(Exception):
    """Raised by :class:`TraverseLog` when the log passes its line limit (the search stops)."""

    def __init__(self, lines: int) -> None:
        super().__init__(f"the traverse log passed {lines - 1:,} lines")
        self.lines = lines


def estimate_log_lines(
    game: Kalah,
    state: KalahState,
    depth: int,
    *,
    optional: bool = True,
    probes: int = ESTIMATE_PROBES,
    give_up: float = math.inf,
) -> tuple[float, int]:
    """An estimate of the lines of minimax's traverse log from ``state`` to ``depth`` turns,
    and the most moves seen in one line of play.

    Knuth's estimator (Knuth 1975, "Estimating the efficiency of backtrack programs"): a
    random descent from the root, each node counted with the product of the branching
    factors above it, averaged over ``probes`` descents from a fixed seed.  Its expected
    value is the exact count; it costs ``probes`` times one line of play.  It stops early
    (returning a value above ``give_up``) once the estimate is sure to pass ``give_up``,
    and a descent stops after :data:`MAX_LINE_MOVES` moves.
    """
    rng = random.Random(0)
    total = 0.0
    longest = 0
    bound = give_up * probes
    for _ in range(probes):
        st, d, extra, weight, moves_played = state, 0, False, 1.0, 0
        while True:
            terminal = game.is_terminal(st)
            if terminal or (d >= depth and not extra):
                total += weight * (2 if terminal and optional and moves_played else 1)
                break
            if moves_played >= MAX_LINE_MOVES:
                break
            moves = game.legal_moves(st)
            total += weight * (1 + len(moves))  # the node entered, and an update per child
            weight *= len(moves)
            child = game.apply(st, moves[rng.randrange(len(moves))])
            st, d, extra = child, (d if extra else d + 1), game.to_move(child) == game.to_move(st)
            moves_played += 1
        longest = max(longest, moves_played)
        if total > bound:
            return total / probes, longest
    return total / probes, longest


def check_search_size(problem: HomeworkInput, source: str, optional: bool = True) -> None:
    """Refuse (:class:`BadInput`, naming the depth line) a minimax or alpha-beta search that
    would clearly write more than :data:`MAX_LOG_LINES` log lines or follow lines of play
    too long to search.  Alpha-beta is refused only when even its best case (about twice
    the square root of minimax's count) passes the limit."""
    if problem.task not in LOGGED_TASKS:
        return
    game, state = to_position(problem)
    limit = MAX_LOG_LINES
    give_up = limit if problem.task == 2 else (limit / 2) ** 2
    lines, longest = estimate_log_lines(game, state, problem.depth, optional=optional, give_up=give_up)
    if longest >= MAX_LINE_MOVES:
        raise BadInput(
            f"{source} line 3: depth {problem.depth} lets the search follow lines of more than "
            f"{MAX_LINE_MOVES} moves, more than it can; give a smaller depth"
        )
    expected = lines if problem.task == 2 else 2 * math.sqrt(lines)
    if expected > limit:
        raise BadInput(
            f"{source} line 3: {TASKS[problem.task]} to depth {problem.depth} would write a "
            f"traverse log of about {_count(expected)} lines, more than the limit of "
            f"{limit:,}; give a smaller depth"
        )


def _count(value: float) -> str:
    """A large count for a message: ``45,000,000`` or ``1.2e+50``."""
    return f"{value:,.0f}" if value < 1e12 else f"{value:.1e}"


# --- solving ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What :func:`solve` did."""

    #: the pits played in my turn, in order (``B6``, ``B2``, ...)
    turn: tuple[str, ...]
    #: the position after the turn (swept when the game ended in it)
    state: KalahState
    #: the root's value (None for task 4, whose player may use another evaluation)
    value: float | None
    #: search nodes visited (None for task 4)
    nodes: int | None
    #: traverse log lines written, header included (0 when no log is written)
    log_lines: int
    #: the files written
    written: tuple[Path, ...]


def search_turn(game: Kalah, state: KalahState, task: int, depth: int, tracer: Tracer | None = None) -> SearchResult:
    """Run the task's search (greedy, minimax or alpha-beta) from ``state`` in positional order."""
    if task == 1:
        return greedy(game, state, score_difference, tracer=tracer, order=positional_order)
    search = minimax if task == 2 else alphabeta
    return search(game, state, depth, score_difference, tracer=tracer, order=positional_order)


def play_turn(game: Kalah, state: KalahState, moves: Sequence[KalahMove]) -> KalahState:
    """The state after ``moves`` (one turn)."""
    for move in moves:
        state = game.apply(state, move)
    return state


def competition_turn(
    game: Kalah,
    state: KalahState,
    seconds: float,
    search: Callable[[Kalah, KalahState, float], SearchResult] | None = None,
    clock: Callable[[], float] | None = None,
) -> tuple[KalahMove, ...]:
    """Task 4: the whole turn our strongest player plays within ``seconds``.

    ``search(game, state, seconds)`` (default :func:`mancala.players.best_search`, the
    search behind :func:`mancala.players.best_move`) returns a result whose principal
    line starts with the turn, so one search normally decides the whole turn.  If the
    line stops before the turn does, the turn is completed by further searches on the
    time left (each gets at least 1% of the budget, so a legal move is always found).
    ``clock`` defaults to ``time.monotonic``.
    """
    clock = clock or time.monotonic
    if search is None:
        search = players.best_search  # read at call time (tests replace it)
    deadline = clock() + seconds
    mover = game.to_move(state)
    turn: list[KalahMove] = []
    budget = seconds
    while True:
        result = search(game, state, budget)
        line = tuple(result.line) or (result.move,)
        for move in turn_moves(game, state, line):
            turn.append(move)
            state = game.apply(state, move)
        if game.is_terminal(state) or game.to_move(state) != mover:
            return tuple(turn)
        budget = max(deadline - clock(), seconds / 100)


def solve(
    problem: HomeworkInput,
    out_dir: str | os.PathLike,
    *,
    seconds: float = DEFAULT_SECONDS,
    optional: bool = True,
    source: str = "input.txt",
) -> Outcome:
    """Solve ``problem`` and write its output files into ``out_dir`` (which must exist).

    Tasks 2 and 3 stream their traverse log into a staged file during the search; the
    files are moved into place only once the search and the turn are complete.  Raises
    :class:`BadInput` for a finished start position or a search over the size limit
    (:func:`check_search_size`, :data:`MAX_LOG_LINES`), and nothing is written then.
    """
    finished = already_over(problem, source)
    if finished is not None:
        raise finished
    check_search_size(problem, source, optional)
    game, state = to_position(problem)
    out = Path(out_dir)
    try:
        return _solve(problem, game, state, out, seconds, optional)
    except SearchTooLarge:
        raise BadInput(
            f"{source} line 3: {TASKS[problem.task]} to depth {problem.depth} writes a traverse "
            f"log of more than {MAX_LOG_LINES:,} lines, the limit; give a smaller depth "
            f"(nothing was written)"
        ) from None
    except RecursionError:
        raise BadInput(
            f"{source} line 3: depth {problem.depth} lets the search follow lines of play too "
            f"long to search; give a smaller depth (nothing was written)"
        ) from None


def _solve(
    problem: HomeworkInput, game: Kalah, state: KalahState, out: Path, seconds: float, optional: bool
) -> Outcome:
    """:func:`solve` once the input is checked: search, then write the staged files."""
    with ExitStack() as stack:
        stage = lambda name: stack.enter_context(StagedFile(out / name, encoding="ascii", buffering=1 << 20))  # noqa: E731
        next_state = stage(NEXT_STATE)
        log = stage(TRAVERSE_LOG) if problem.task in LOGGED_TASKS else None
        tracer = (
            None
            if log is None
            else TraverseLog(log.stream, problem.pits, with_window=problem.task == 3, optional=optional)
        )
        if problem.task == 4:
            moves = competition_turn(game, state, seconds)
            value = nodes = None
        else:
            result = search_turn(game, state, problem.task, problem.depth, tracer)
            moves, value, nodes = turn_moves(game, state, result.line), result.value, result.nodes
        after = play_turn(game, state, moves)
        next_state.stream.write(format_next_state(after))
        staged = tuple(f for f in (log, next_state) if f is not None)
        for f in staged:
            f.commit()
    return Outcome(
        turn=tuple(pit_label(problem.pits, state.seat, m.pit) for m in moves if m.pit is not None),
        state=after,
        value=value,
        nodes=nodes,
        log_lines=0 if tracer is None else tracer.lines,
        written=tuple(f.path for f in staged),
    )


# --- the command ------------------------------------------------------------------------------


#: what ``mancala homework --help`` says the command does (``python -m mancala.cli.homework``
#: says it in its own words: :func:`add_arguments`)
DESCRIPTION = (
    "Read a homework input file (task 1 greedy, 2 minimax, 3 alpha-beta, "
    "4 competition) and write next_state.txt (and traverse_log.txt) beside it."
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``homework`` to the CLI's subcommands."""
    summary = "the homework file interface: input.txt -> next_state.txt, traverse_log.txt"
    hw = add_command(sub, "homework", summary, DESCRIPTION)
    add_arguments(hw)
    hw.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``mancala homework``."""
    parser.description = parser.description or (
        "Solve a Mancala homework input.txt (the homework's file format): task 1 greedy, 2 minimax, "
        "3 alpha-beta (these two also write traverse_log.txt), 4 competition."
    )
    parser.add_argument(
        "input", nargs="?", default="input.txt", help="the input file (default: input.txt in the current directory)"
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=None,
        help="directory for next_state.txt and traverse_log.txt (default: beside the input)",
    )
    parser.add_argument(
        "--time",
        metavar="SECONDS",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"task 4's time budget for the whole turn (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--no-optional",
        dest="optional",
        action="store_false",
        help="log a game-over node once, like a leaf, without the TA reference's "
        "'...Infinity<TAB>OPTIONAL' line before it",
    )


def _summary(problem: HomeworkInput, outcome: Outcome) -> str:
    """One line for the terminal: what was played and what was written."""
    what = TASKS[problem.task] + (f" to depth {problem.depth}" if problem.task in LOGGED_TASKS else "")
    value = "" if outcome.value is None else f" (value {format_value(outcome.value)})"
    over = ", game over" if outcome.state.finished else ""
    files = " and ".join(str(p) for p in outcome.written)
    return f"player {problem.player}, {what}: plays {' '.join(outcome.turn)}{value}{over}; wrote {files}"


def check_out_dir(out: Path, given: bool) -> None:
    """Raise :class:`BadInput` (one line naming the folder and what is wrong) unless the
    output files can be written in ``out`` (``given``: it came from ``--out``)."""
    if not out.is_dir():
        raise BadInput(f"--out {out}: not an existing directory" if given else f"{out}: not a directory")
    for name in (NEXT_STATE, TRAVERSE_LOG):
        try:
            check_writable(out / name)
        except OSError as e:
            raise BadInput(("--out " if given else "") + write_problem(out / name, e)) from None


def run(args: argparse.Namespace) -> int:
    """Run ``mancala homework``: 0 on success, 2 for bad input, a finished game or an
    output folder that cannot be written.  Errors are one line on stderr."""
    out = Path(args.out) if args.out is not None else Path(args.input).parent
    try:
        if args.out is not None and not args.out.strip():
            raise BadInput("--out is empty; give a folder for the output files, or leave it out (beside the input)")
        seconds = float(args.time)
        if not (seconds > 0 and seconds != INF):
            raise BadInput(f"--time must be a positive number of seconds, got {args.time:g}")
        problem = read_input(args.input)
        check_out_dir(out, args.out is not None)
        outcome = solve(problem, out, seconds=seconds, optional=args.optional, source=str(args.input))
    except BadInput as e:
        print(f"mancala homework: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"mancala homework: cannot write the output files in {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    except MancalaError as e:
        print(f"mancala homework: {e}", file=sys.stderr)
        return 1
    print(_summary(problem, outcome))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command without the rest of the CLI (``python -m mancala.cli.homework [INPUT] ...``)."""
    parser = argparse.ArgumentParser(prog="mancala homework", allow_abbrev=False)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
