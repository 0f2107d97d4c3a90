"""Kalah (Kalaha): the reference rules, with every variant as data.

Board layout.  ``KalahState.board`` lists the cells in counter-clockwise
sowing order, as OpenSpiel and the Manchester engine do::

    index  0 .. n-1   South's pits 1..n (South sees them left to right)
    index  n          South's store (South's right)
    index  n+1 .. 2n  North's pits 1..n (North's left to right: South sees right to left)
    index  2n+1       North's store (South's left)

So each player numbers its own pits 1..n in its sowing direction, pit n
being next to its store; South's pit i faces North's pit n+1-i.
Seat 0 is South, seat 1 North.  Player 0 is whoever sits South at the start;
the pie rule's swap exchanges seats (the board stays).

Moves print as the pit number (``3``), with ``L``/``R`` added when the
rules let the mover choose the direction (``R`` = counter-clockwise, towards
the mover's own store; ``L`` = clockwise), and ``swap`` for the pie rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from mancala.errors import BadInput, IllegalMove, is_whole_number
from mancala.games.base import RulesGame, Segment, layout_text
from mancala.games.catalogue import GameInfo, Traits, options_with_preset, register
from mancala.games.options import RulesOptions, bool_option, enum_option, int_option


class Capture(Enum):
    """What happens when the last seed lands in an empty pit of the mover."""

    #: no capture at all ("no stealing", the CSE481 project)
    NONE = "none"
    #: the opposite pit's seeds and the capturing seed go to the mover's store
    OPPOSITE_AND_LAST = "opposite+last"
    #: only the opposite pit's seeds go to the store; the last seed stays in its pit
    OPPOSITE_ONLY = "opposite"


class GameEnd(Enum):
    """When the game is over."""

    #: at once, when either row is empty after any move (even inside an extra-turn chain)
    EITHER_ROW_EMPTY = "either-row-empty"
    #: only when the player to move has no legal move
    MOVER_CANNOT_MOVE = "no-move"


class Remaining(Enum):
    """Where the seeds still on the board go when the game ends."""

    #: each row's seeds go to the store of the row's owner
    OWNER = "owner"
    #: each row's seeds go to the store of the row owner's opponent
    OPPONENT = "opponent"


class Sowing(Enum):
    """Which way seeds are sown."""

    #: always counter-clockwise, towards the mover's own store
    COUNTER_CLOCKWISE = "ccw"
    #: the mover chooses the direction each move and may not start from a pit
    #: holding a single seed (the Ethiopian rule); when every
    #: non-empty pit holds one seed, single seeds may be moved after all
    CHOICE = "choice"


#: the most seeds a pit may start with (``seeds``, the CLI's ``--seeds``)
MAX_SEEDS = 1000


def max_board_seeds(pits: int) -> int:
    """The most seeds a board of ``pits`` pits a side may hold: :data:`MAX_SEEDS` for every
    pit and store, (2 x pits + 2) x 1000 -- the largest start (1000 in every pit) with room
    for stores that start non-empty, as homework inputs may."""
    return (2 * pits + 2) * MAX_SEEDS


def check_board_seeds(board, pits: int) -> None:
    """Reject a board holding more seeds than :func:`max_board_seeds` allows (one line
    naming the limit): the engine's integers and tables are sized for that."""
    total = sum(board)
    if total > max_board_seeds(pits):
        raise BadInput(
            f"a {pits}-pit position may hold at most {max_board_seeds(pits):,} seeds in all "
            f"({MAX_SEEDS} for each of its {2 * pits} pits and 2 stores); this one holds {total:,}"
        )


@dataclass(frozen=True)
class KalahRules(RulesOptions):
    """Every Kalah rule option, as immutable data (see ``docs/rules.md``)."""

    OPTIONS_OF = "Kalah"

    #: pits per side (1-20)
    pits: int = 6
    #: seeds in each pit at the start (0-1000); ignored when ``start`` is given
    seeds: int = 4
    #: an explicit start position: 2*pits+2 counts in board order (see the module doc)
    start: tuple[int, ...] | None = None
    #: seat that moves first: 0 South, 1 North
    first: int = 0
    #: the capture rule
    capture: Capture = Capture.OPPOSITE_AND_LAST
    #: whether a capture happens when the opposite pit is empty (the capturing seed is banked)
    empty_capture: bool = False
    #: whether sowing skips the emptied origin pit on laps of 2*pits+1 seeds or more
    skip_origin: bool = False
    #: when the game ends
    end: GameEnd = GameEnd.EITHER_ROW_EMPTY
    #: where the seeds left on the board go at the end
    remaining: Remaining = Remaining.OWNER
    #: sowing direction rule
    sowing: Sowing = Sowing.COUNTER_CLOCKWISE
    #: the pie rule: the second player may swap sides instead of its first move
    pie_rule: bool = False
    #: the first move of the game never earns an extra turn (Manchester ManKalah)
    no_first_extra_turn: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.pits <= 20:
            raise BadInput(f"pits must be 1-20, got {self.pits}")
        if not 0 <= self.seeds <= MAX_SEEDS:
            raise BadInput(f"seeds must be 0-{MAX_SEEDS}, got {self.seeds}")
        if self.first not in (0, 1):
            raise BadInput(f"first must be 0 (South) or 1 (North), got {self.first}")
        if self.start is not None:
            start = tuple(self.start)
            object.__setattr__(self, "start", start)
            if len(start) != 2 * self.pits + 2:
                raise BadInput(
                    f"a start position for {self.pits} pits needs {2 * self.pits + 2} numbers "
                    f"(South pits, South store, North pits, North store), got {len(start)}"
                )
            if any((not isinstance(c, int)) or c < 0 for c in start):
                raise BadInput("a start position needs whole numbers of seeds, none negative")
            check_board_seeds(start, self.pits)

    @property
    def positions_can_repeat(self) -> bool:
        """Whether a position can come back while the seeds on the board stay the same: only
        when sowing may go either way.  With one direction, a move that banks nothing sows
        within the mover's row, every seed nearer its store, so no position recurs; the
        engine's endgame databases are built on that."""
        return self.sowing is Sowing.CHOICE

    def describe(self) -> str:
        """The options that differ from standard Kalah, as ``key=value`` text."""
        parts = []
        for name, default in _DEFAULTS.items():
            value = getattr(self, name)
            if value != default:
                if isinstance(value, Enum):
                    value = value.value
                elif isinstance(value, tuple):
                    value = " ".join(map(str, value))
                parts.append(f"{name}={value}")
        return ", ".join(parts) or "standard"

    @classmethod
    def coerce_option(cls, name: str, value):
        """One option given as text (or JSON) as the field's type."""
        return _coerce_option(name, value)


_ENUM_OPTIONS = {"capture": Capture, "end": GameEnd, "remaining": Remaining, "sowing": Sowing}
_BOOL_OPTIONS = {"empty_capture", "skip_origin", "pie_rule", "no_first_extra_turn"}
_INT_OPTIONS = {"pits", "seeds", "first"}


def _coerce_option(name: str, value):
    """Turn an option value given as text (or JSON) into the field's type."""
    if name in _ENUM_OPTIONS:
        return enum_option(name, _ENUM_OPTIONS[name], value)
    if name in _BOOL_OPTIONS:
        return bool_option(name, value)
    if name == "first" and str(value).lower() in ("south", "north"):
        return 0 if str(value).lower() == "south" else 1
    if name in _INT_OPTIONS:
        return int_option(name, value)
    if name == "start":
        if value is None:
            return None
        words = value.replace(",", " ").split() if isinstance(value, str) else value
        return tuple(int_option("start", w) for w in words)
    raise BadInput(f"unknown Kalah option {name!r}")


_DEFAULTS = {name: f.default for name, f in KalahRules.__dataclass_fields__.items()}


#: Named rule sets.  Each is documented with its source in docs/rules.md.
PRESETS: dict[str, KalahRules] = {
    # Wikipedia's Kalah and OpenSpiel's `mancala`: no capture from an empty opposite pit.
    "standard": KalahRules(),
    # Irving, Donkers & Uiterwijk, "Solving Kalah" (2000): the capturing seed is banked
    # even when the opposite pit is empty.
    "empty-capture": KalahRules(empty_capture=True),
    # The Mancala homework's file interface: same rules as Irving et al.
    "homework": KalahRules(empty_capture=True),
    # The Egyptian Mancala project's rules: capture the opposite pit only; the game ends when a row is empty.
    "egyptian": KalahRules(capture=Capture.OPPOSITE_ONLY),
    # Its Ethiopian rules: Egyptian plus a choice of direction, no single-seed starts.
    "ethiopian": KalahRules(capture=Capture.OPPOSITE_ONLY, sowing=Sowing.CHOICE),
    # the CSE481 project's "without stealing" mode.
    "no-stealing": KalahRules(capture=Capture.NONE),
    # the CSE481 project's "with stealing" mode (same as standard).
    "stealing": KalahRules(),
    # the CS151 assignment's starter code (MancalaBoard.py): the opposite pit is taken, even when
    # empty, and the capturing seed stays where it landed.
    "cs151": KalahRules(capture=Capture.OPPOSITE_ONLY, empty_capture=True),
    # The Manchester ManKalah engine: 7 pits x 7 seeds, standard captures, pie rule,
    # and the first move of the game never earns an extra turn.
    "mankalah": KalahRules(pits=7, seeds=7, pie_rule=True, no_first_extra_turn=True),
}


@dataclass(frozen=True)
class KalahMove:
    """One sowing (or the pie rule's swap).

    ``pit`` is 1..pits in the mover's own numbering, or None for the swap.
    ``clockwise`` is only ever True under :attr:`Sowing.CHOICE`.
    """

    pit: int | None
    clockwise: bool = False
    #: whether to write the direction letter (rules with a choice of direction)
    directed: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        if self.pit is None:
            return "swap"
        if self.directed:
            return f"{self.pit}{'L' if self.clockwise else 'R'}"
        return str(self.pit)


SWAP = KalahMove(None)


@dataclass(frozen=True)
class KalahEvent:
    """What the move that produced a state did, for players to read."""

    move: KalahMove
    seat: int
    #: board index where the last seed landed (-1 for a swap)
    last_index: int = -1
    extra_turn: bool = False
    #: seeds moved to the store by a capture (0 when there was none)
    captured: int = 0
    #: whether a capture took place (it may bank a single seed when the opposite pit is empty)
    capture: bool = False
    game_over: bool = False


@dataclass(frozen=True)
class KalahState:
    """An immutable Kalah position.  Equality ignores :attr:`last` (how we got here)."""

    board: tuple[int, ...]
    #: seat to move: 0 South, 1 North (in a finished game: who would have moved)
    seat: int
    #: moves played so far (swap included)
    ply: int = 0
    #: turn changes so far
    turns: int = 0
    #: whether the pie rule's swap has happened (player 0 then sits North)
    swapped: bool = False
    #: whether the swap is legal now
    swap_allowed: bool = False
    #: whether the game is over (the board is then already swept)
    finished: bool = False
    #: the move that led here, with what it did
    last: KalahEvent | None = field(default=None, compare=False, repr=False)

    @property
    def pits(self) -> int:
        """Pits per side."""
        return (len(self.board) - 2) // 2

    def row(self, seat: int) -> tuple[int, ...]:
        """The pits of ``seat`` in that seat's own numbering (pit 1 first)."""
        n = self.pits
        start = 0 if seat == 0 else n + 1
        return self.board[start : start + n]

    def store(self, seat: int) -> int:
        """Seeds in the store of ``seat``."""
        n = self.pits
        return self.board[n] if seat == 0 else self.board[2 * n + 1]

    def player_seat(self, player: int) -> int:
        """The seat player ``player`` sits at (they change with the pie rule's swap)."""
        return player ^ int(self.swapped)


def store_index(n: int, seat: int) -> int:
    """Board index of the store of ``seat`` on a board with ``n`` pits a side."""
    return n if seat == 0 else 2 * n + 1


def pit_index(n: int, seat: int, pit: int) -> int:
    """Board index of pit ``pit`` (1..n) of ``seat``."""
    return pit - 1 if seat == 0 else n + pit


def opposite_index(n: int, index: int) -> int:
    """Board index of the pit facing pit ``index``."""
    return 2 * n - index


def owner_of(n: int, index: int) -> int:
    """The seat owning board cell ``index`` (pit or store)."""
    return 0 if index <= n else 1


class Kalah(RulesGame):
    """Kalah under the given rules (``Kalah()`` is standard Kalah(6,4));
    implements :class:`mancala.games.base.Game`."""

    name = "kalah"
    rules_class = KalahRules
    rules: KalahRules

    # --- protocol --------------------------------------------------------

    def initial_state(self) -> KalahState:
        """The start position (all pits filled, or the rules' explicit start)."""
        r = self.rules
        n = r.pits
        if r.start is not None:
            board = r.start
        else:
            board = tuple([r.seeds] * n + [0] + [r.seeds] * n + [0])
        return self.position(board, r.first)

    def position(self, board, seat: int) -> KalahState:
        """A state with ``board`` (board order) and ``seat`` to move, finished if the rules say so."""
        board = tuple(int(c) for c in board)
        n = self.rules.pits
        if len(board) != 2 * n + 2:
            raise BadInput(f"a {n}-pit board needs {2 * n + 2} numbers, got {len(board)}")
        if any(c < 0 for c in board):
            raise BadInput("a board cannot hold a negative number of seeds")
        check_board_seeds(board, n)
        cells = list(board)
        finished = self._end_reached(cells, seat)
        if finished:
            self._sweep(cells)
        return KalahState(board=tuple(cells), seat=seat, finished=finished)

    def to_move(self, state: KalahState) -> int:
        """The player to move (seat, corrected for the pie rule's swap)."""
        return state.seat ^ int(state.swapped)

    def legal_moves(self, state: KalahState) -> tuple[KalahMove, ...]:
        """Pits 1..n holding seeds (both directions under the choice rule), then ``swap``."""
        if state.finished:
            return ()
        r = self.rules
        row = state.row(state.seat)
        if r.sowing is Sowing.CHOICE:
            minimum = 2 if any(c >= 2 for c in row) else 1
            moves = []
            for i, c in enumerate(row):
                if c >= minimum:
                    moves.append(KalahMove(i + 1, False, True))
                    moves.append(KalahMove(i + 1, True, True))
        else:
            moves = [KalahMove(i + 1) for i, c in enumerate(row) if c > 0]
        if state.swap_allowed:
            moves.append(SWAP)
        return tuple(moves)

    def apply(self, state: KalahState, move: KalahMove) -> KalahState:
        """Sow (or swap) and return the new state; raises IllegalMove when not legal."""
        if move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))
        if move.pit is None:
            return replace(
                state,
                swapped=not state.swapped,
                ply=state.ply + 1,
                turns=state.turns + 1,
                swap_allowed=False,
                last=KalahEvent(move=move, seat=state.seat),
            )
        return self._sow(state, move)

    def is_terminal(self, state: KalahState) -> bool:
        """Whether the game is over."""
        return state.finished

    def score(self, state: KalahState, player: int) -> int:
        """``player``'s store minus the opponent's store."""
        seat = state.player_seat(player)
        return state.store(seat) - state.store(1 - seat)

    def move_help(self) -> str:
        """How moves are written under these rules (for a UI's ``help``)."""
        n = self.rules.pits
        text = (
            f"Kalah moves: the number of one of your pits, 1-{n}, counted from your left "
            f"(the numbers printed beside your row); its seeds are sown counter-clockwise"
            f" into your store (not your opponent's)."
        )
        if self.rules.sowing is Sowing.CHOICE:
            text = f"Kalah moves: a pit number 1-{n} and a direction, e.g. 3L (clockwise) or 3R (counter-clockwise)."
        if self.rules.pie_rule:
            text += " Pie rule: as the second player's first move you may type swap to take over your opponent's side."
        return text

    def parse_move(self, state: KalahState, text: str) -> KalahMove:
        """A move from its text: ``3``, ``3L``/``3R`` (choice of direction) or ``swap``."""
        t = text.strip().lower()
        if t in ("swap", "pie"):
            move = SWAP
        else:
            m = re.fullmatch(r"([0-9]+)\s*([lr]?)", t)
            if not m or not is_whole_number(m.group(1)):
                raise IllegalMove(f"{text.strip()!r} is not a move: {self._expected(state)}")
            directed = self.rules.sowing is Sowing.CHOICE
            move = KalahMove(int(m.group(1)), m.group(2) == "l", directed)
            if m.group(2) and not directed:
                raise IllegalMove(
                    f"these rules sow counter-clockwise only: write the pit number alone ({self._expected(state)})"
                )
        if move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))
        return move

    def render(self, state: KalahState) -> str:
        """The board as South sees it: North's row on top, stores at the ends (North's on
        the left, South's on the right, both labelled), pit numbers shown."""
        return layout_text(self.layout(state))

    def layout(self, state: KalahState, view: int | None = None) -> list[list[Segment]]:
        """The board of :meth:`render` as segments naming the cell each number shows (see
        :data:`mancala.games.base.Segment`); cells are ``(seat, "3")`` for pit 3 and
        ``(seat, "store")``.  Wide boards (14+ pits) drop the brackets to fit 80 columns."""
        n = state.pits
        w = max(2, max(len(str(c)) for c in state.board))
        sw = max(len(str(state.store(1))), len(str(state.store(0)))) + 2
        pad = " " * (sw + 1)
        compact = len(pad) + n * (w + 3) - 1 + len("   North") > 80
        cw, sep = (w + 1, "") if compact else (w + 2, " ")
        cell = (lambda v: str(v).rjust(cw)) if compact else (lambda v: f"({str(v).rjust(w)})")  # noqa: E731
        num = lambda p: str(p).rjust(cw) if compact else str(p).center(cw)  # noqa: E731

        def row(seat: int, pits) -> list[Segment]:
            out: list[Segment] = [(pad, None)]
            for k, p in enumerate(pits):
                out += [(sep if k else "", None), (cell(state.board[pit_index(n, seat, p)]), (seat, str(p)))]
            return out

        inner = n * (cw + len(sep)) - len(sep)
        labels = ("North store", "South store")
        middle = ("  " + labels[0]).ljust(inner - len(labels[1]) - 2) + labels[1] + "  "
        fits = len(middle) <= inner
        stores: list[Segment] = [
            (f"[{state.store(1)}]".ljust(sw), (1, "store")),
            (" ", None),
            ((middle if fits else " " * inner), None),
            (" ", None),
            (f"[{state.store(0)}]", (0, "store")),
        ]
        lines: list[list[Segment]] = [
            [(pad + sep.join(num(p) for p in range(n, 0, -1)) + "   North", None)],
            row(1, range(n, 0, -1)),
            stores,
            row(0, range(1, n + 1)),
            [(pad + sep.join(num(p) for p in range(1, n + 1)) + "   South", None)],
        ]
        if not fits:
            lines.append([("stores: North's on the left, South's on the right", None)])
        return lines

    def position_string(self, state: KalahState) -> str:
        """The position as one line a link can carry: the counts in board order (South's pits,
        South's store, North's pits, North's store) and the seat to move,
        ``4-4-4-4-4-4-0-4-4-4-4-4-4-0-S``."""
        return "-".join(map(str, state.board)) + "-" + "SN"[state.seat]

    def parse_position(self, text: str) -> KalahState:
        """The position :meth:`position_string` writes, on this game's board; raises
        :class:`BadInput` saying what was expected."""
        options = kalah_start_options(text)
        if "first" not in options:
            raise BadInput(f"the position {text[:80]!r} does not say who is to move: end it with -S or -N")
        if options["pits"] != self.rules.pits:
            raise BadInput(
                f"the position {text[:80]!r} has {options['pits']} pits a side; this game has {self.rules.pits}"
            )
        return self.position(tuple(int(c) for c in options["start"].split()), options["first"])

    # --- helpers -----------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        """``South`` or ``North``."""
        return "South" if seat == 0 else "North"

    def _expected(self, state: KalahState) -> str:
        moves = self.legal_moves(state)
        if not moves:
            return "the game is over"
        return "legal moves are " + ", ".join(str(m) for m in moves)

    def _illegal_reason(self, state: KalahState, move) -> str:
        if state.finished:
            return "the game is over: no move is legal"
        if not isinstance(move, KalahMove):
            return f"{move!r} is not a Kalah move; {self._expected(state)}"
        if move.pit is None:
            return f"swap is only allowed as the second player's first move under the pie rule; {self._expected(state)}"
        n = self.rules.pits
        if not 1 <= move.pit <= n:
            return f"there is no pit {move.pit} (pits are 1-{n}); {self._expected(state)}"
        seeds = state.row(state.seat)[move.pit - 1]
        if seeds == 0:
            return f"pit {move.pit} is empty; {self._expected(state)}"
        if self.rules.sowing is Sowing.CHOICE and seeds == 1:
            return f"pit {move.pit} holds a single seed, which may not be moved while a pit holds more; {self._expected(state)}"
        return f"{move} is not legal here; {self._expected(state)}"

    def _end_reached(self, cells: list[int], seat_to_move: int) -> bool:
        n = self.rules.pits
        south_empty = not any(cells[0:n])
        north_empty = not any(cells[n + 1 : 2 * n + 1])
        if self.rules.end is GameEnd.EITHER_ROW_EMPTY:
            return south_empty or north_empty
        return north_empty if seat_to_move == 1 else south_empty

    def _sweep(self, cells: list[int]) -> None:
        n = self.rules.pits
        for seat in (0, 1):
            start = 0 if seat == 0 else n + 1
            seeds = sum(cells[start : start + n])
            for i in range(start, start + n):
                cells[i] = 0
            to = seat if self.rules.remaining is Remaining.OWNER else 1 - seat
            cells[store_index(n, to)] += seeds

    def sowing_cycle(self, seat: int, origin: int, clockwise: bool = False) -> list[int]:
        """The board cells seeds sown by ``seat`` from cell ``origin`` land in, in order,
        starting just after the origin (the opponent's store skipped, the origin itself
        last unless the rules skip it): seed ``k`` lands in ``cycle[k % len(cycle)]``."""
        n = self.rules.pits
        step = -1 if clockwise else 1
        size = 2 * n + 2
        skip_store = store_index(n, 1 - seat)
        cycle = []
        i = origin
        for _ in range(size - 1):
            i = (i + step) % size
            if i != skip_store:
                cycle.append(i)
        if not self.rules.skip_origin:
            cycle.append(origin)
        return cycle

    def _sow(self, state: KalahState, move: KalahMove) -> KalahState:
        assert move.pit is not None  # a swap is not sown
        r = self.rules
        n = r.pits
        seat = state.seat
        cells = list(state.board)
        origin = pit_index(n, seat, move.pit)
        seeds = cells[origin]
        cells[origin] = 0
        cycle = self.sowing_cycle(seat, origin, move.clockwise)
        laps, rest = divmod(seeds, len(cycle))
        if laps:
            for c in cycle:
                cells[c] += laps
        for c in cycle[:rest]:
            cells[c] += 1
        last = cycle[(seeds - 1) % len(cycle)]

        own_store = store_index(n, seat)
        extra_turn = last == own_store and not (r.no_first_extra_turn and state.ply == 0)
        captured = 0
        capture = False
        if r.capture is not Capture.NONE and last != own_store and owner_of(n, last) == seat and cells[last] == 1:
            opposite = opposite_index(n, last)
            if cells[opposite] > 0 or r.empty_capture:
                capture = True
                captured = cells[opposite]
                cells[opposite] = 0
                if r.capture is Capture.OPPOSITE_AND_LAST:
                    captured += 1
                    cells[last] = 0
                cells[own_store] += captured

        next_seat = seat if extra_turn else 1 - seat
        finished = self._end_reached(cells, next_seat)
        if finished:
            self._sweep(cells)
        turns = state.turns + (0 if extra_turn else 1)
        swap_allowed = r.pie_rule and not extra_turn and not state.swapped and state.turns == 0 and not finished
        event = KalahEvent(
            move=move,
            seat=seat,
            last_index=last,
            extra_turn=extra_turn and not finished,
            captured=captured,
            capture=capture,
            game_over=finished,
        )
        return KalahState(
            board=tuple(cells),
            seat=next_seat,
            ply=state.ply + 1,
            turns=turns,
            swapped=state.swapped,
            swap_allowed=swap_allowed,
            finished=finished,
            last=event,
        )

    def player_name(self, player: int, state: KalahState | None = None) -> str:
        """The name of the seat ``player`` sits at in ``state``: ``South`` for player 0 and
        ``North`` for player 1 at the start, exchanged after the pie rule's swap."""
        return self.seat_name(player if state is None else state.player_seat(player))

    def describe_move(self, before: KalahState, move: KalahMove, after: KalahState) -> str:
        """What the move did, from ``after.last``; a game-ending move also gives the final stores."""
        text = self.describe_event(after.last) if after.last else f"{move} played."
        if after.finished:
            text += f" Final stores: South {after.store(0)}, North {after.store(1)}."
        return text

    def describe_event(self, event: KalahEvent) -> str:
        """The move's effect in words, e.g. ``South plays 3: capture of 5, extra turn.``"""
        who = self.seat_name(event.seat)
        if event.move.pit is None:
            return f"{who} swaps sides (pie rule)."
        parts = []
        if event.capture:
            parts.append(f"capture of {event.captured}")
        if event.extra_turn:
            parts.append("extra turn")
        if event.game_over:
            parts.append("game over")
        tail = (": " + ", ".join(parts)) if parts else ""
        return f"{who} plays {event.move}{tail}."


def kalah_start_options(text: str) -> dict[str, Any]:
    """The rules options (``pits``, ``start``, and ``first`` when the text names the side to
    move) that start Kalah at the position ``text``: the counts in board order (South's pits,
    South's store, North's pits, North's store) joined by ``-`` and the side to move, as
    :meth:`Kalah.position_string` writes it (``4-4-4-4-4-4-0-4-4-4-4-4-4-0-S``), or the
    counts alone separated by spaces or commas; raises :class:`BadInput` saying what was
    expected."""
    text = text.strip()
    if "-" not in text:  # the counts alone: the side to move is another option's
        counts = text.replace(",", " ").split()
        if len(counts) < 4 or len(counts) % 2:
            raise BadInput(
                f"a Kalah position needs 2n+2 numbers (n pits a side, 1..20, and the two stores: "
                f"14 for 6 pits), got {len(counts)}"
            )
        return {"pits": (len(counts) - 2) // 2, "start": " ".join(counts)}
    parts = text.split("-")
    expected = (
        "the pits and stores in board order (South's pits, South's store, North's pits, North's store) "
        "and S or N, joined by '-', e.g. 4-4-4-4-4-4-0-4-4-4-4-4-4-0-S"
    )
    if len(parts) < 5 or len(parts) % 2 == 0 or not all(is_whole_number(p) for p in parts[:-1]):
        raise BadInput(f"cannot read Kalah position {text[:80]!r}: expected {expected}")
    if parts[-1].upper() not in ("S", "N"):
        raise BadInput(f"cannot read Kalah position {text[:80]!r}: the side to move must be S or N")
    counts = parts[:-1]
    return {
        "pits": (len(counts) - 2) // 2,
        "start": " ".join(str(int(c)) for c in counts),
        "first": "SN".index(parts[-1].upper()),
    }


def _kalah_from_options(options: dict[str, str]) -> Kalah:
    return Kalah(KalahRules.from_dict(options_with_preset(KALAH, options)))


#: Kalah in the game catalogue
KALAH = register(
    GameInfo(
        "kalah",
        "Kalah",
        "Kalah with every rule variant (options: preset, pits, seeds, capture, ...)",
        _kalah_from_options,
        KalahRules,
        PRESETS,
        "standard",
        seeds=lambda state: sum(state.board),
        traits=Traits(
            board="kalah",
            sides=("South", "North"),
            margin_unit="seeds",
            value_unit="seeds",
            evaluation="material",
            terms="kalah",
            teaching_evaluation="score",
            capabilities=frozenset({"position", "seat_names", "layout", "move_help"}),
        ),
        start_options=kalah_start_options,
        start_text="counts: South pits, store, North pits, store",
        rank=0,
    )
)
