"""Tic-tac-toe: the teaching aid the CS151 assignment uses to show that alpha-beta is right.

Cells are numbered 0-8 in reading order; a move prints as its cell number.
X (player 0) moves first.  The board is written as nine characters, ``X``,
``O`` and ``.`` (or ``_``/``-``/a space) for an empty cell, row by row.
"""

from __future__ import annotations

from dataclasses import dataclass

from mancala.errors import BadInput, IllegalMove, echo, is_whole_number
from mancala.games.base import Segment
from mancala.games.catalogue import GameInfo, Traits, register

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("X", "O")


@dataclass(frozen=True)
class TicTacToeMove:
    """Putting the mover's mark in ``cell`` (0-8, reading order)."""

    cell: int

    def __str__(self) -> str:
        return str(self.cell)


@dataclass(frozen=True)
class TicTacToeState:
    """Nine cells (``X``, ``O`` or ``.``) and the player to move (0 = X, 1 = O)."""

    cells: str
    player: int

    def line_winner(self) -> int | None:
        """The player with three in a row, if any."""
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return MARKS.index(self.cells[a])
        return None


@dataclass(frozen=True)
class TicTacToeRules:
    """Tic-tac-toe's one option: a start position other than the empty board."""

    #: the position the game starts from, as :meth:`TicTacToe.position_string` writes it
    #: (``XX./.O./...``), or None for the empty board
    start: str | None = None

    def __post_init__(self) -> None:
        if self.start is not None:  # checked, and written the one way
            object.__setattr__(self, "start", TicTacToe().position_string(TicTacToe().parse_position(self.start)))

    def to_dict(self) -> dict:
        """The options as JSON-ready data."""
        return {"start": self.start}

    @classmethod
    def from_dict(cls, data: dict) -> "TicTacToeRules":
        """Rules from :meth:`to_dict` output (values as text)."""
        unknown = set(data) - {"start"}
        if unknown:
            raise BadInput(f"unknown tic-tac-toe option(s) {', '.join(sorted(unknown))}; known: start")
        start = data.get("start")
        return cls(start=None if start in (None, "", "none") else str(start))

    def describe(self) -> str:
        """``standard``, or the start position."""
        return "standard" if self.start is None else f"start={self.start}"


class TicTacToe:
    """Tic-tac-toe; implements :class:`mancala.games.base.Game`."""

    name = "tictactoe"

    def __init__(self, rules: TicTacToeRules | None = None) -> None:
        self.rules = rules or TicTacToeRules()

    def __repr__(self) -> str:
        return "TicTacToe()" if self.rules.start is None else f"TicTacToe(start={self.rules.start!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, TicTacToe) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash(("tictactoe", self.rules.start))

    def initial_state(self) -> TicTacToeState:
        """The empty board, X to move (or the rules' start position)."""
        if self.rules.start is not None:
            return self.parse_position(self.rules.start)
        return TicTacToeState("." * 9, 0)

    def position_string(self, state: TicTacToeState) -> str:
        """The cells row by row, rows split by ``/`` (``XX./.O./...``): what :meth:`parse_position` reads."""
        return "/".join(state.cells[i : i + 3] for i in (0, 3, 6))

    def parse_position(self, text: str) -> TicTacToeState:
        """A position from nine cells of text (rows may be separated by ``/`` or new lines).

        The player to move is X when both have played equally often, else O.
        """
        cells = "".join(ch for ch in text if ch not in "/\n\r\t|")
        cells = cells.upper().replace("_", ".").replace("-", ".").replace(" ", ".")
        if len(cells) != 9 or any(ch not in "XO." for ch in cells):
            raise BadInput(f"a tic-tac-toe board is 9 cells of X, O or . (e.g. 'XX./.O./...'); got {text!r}")
        x, o = cells.count("X"), cells.count("O")
        if o not in (x, x - 1):
            raise BadInput(f"X moves first, so X must have as many marks as O or one more; got X={x}, O={o}")
        lined = {cells[a] for a, b, c in LINES if cells[a] != "." and cells[a] == cells[b] == cells[c]}
        if len(lined) == 2:
            raise BadInput(f"both X and O have three in a row, which no game reaches; got {text!r}")
        if "X" in lined and x == o:
            raise BadInput(
                f"X has three in a row, so the game ended on X's move and O cannot have moved since; got {text!r}"
            )
        if "O" in lined and x > o:
            raise BadInput(
                f"O has three in a row, so the game ended on O's move and X cannot have moved since; got {text!r}"
            )
        return TicTacToeState(cells, 0 if x == o else 1)

    def to_move(self, state: TicTacToeState) -> int:
        """0 for X, 1 for O."""
        return state.player

    def legal_moves(self, state: TicTacToeState) -> tuple[TicTacToeMove, ...]:
        """The empty cells in reading order; none once the game is over."""
        if self.is_terminal(state):
            return ()
        return tuple(TicTacToeMove(i) for i, ch in enumerate(state.cells) if ch == ".")

    def apply(self, state: TicTacToeState, move: TicTacToeMove) -> TicTacToeState:
        """Place the mover's mark."""
        if move not in self.legal_moves(state):
            raise IllegalMove(self._reason(state, move))
        cells = state.cells[: move.cell] + MARKS[state.player] + state.cells[move.cell + 1 :]
        return TicTacToeState(cells, 1 - state.player)

    def is_terminal(self, state: TicTacToeState) -> bool:
        """Three in a row, or a full board."""
        return state.line_winner() is not None or "." not in state.cells

    def score(self, state: TicTacToeState, player: int) -> int:
        """+1 if ``player`` has three in a row, -1 if the opponent has, else 0."""
        w = state.line_winner()
        if w is None:
            return 0
        return 1 if w == player else -1

    def parse_move(self, state: TicTacToeState, text: str) -> TicTacToeMove:
        """A move from a cell number 0-8."""
        if not is_whole_number(text.strip()):
            raise IllegalMove(f"{echo(text.strip())} is not a cell number; {self._expected(state)}")
        move = TicTacToeMove(int(text.strip()))
        if move not in self.legal_moves(state):
            raise IllegalMove(self._reason(state, move))
        return move

    def render(self, state: TicTacToeState) -> str:
        """Three rows; empty cells show their number, as in the CS151 assignment (``XX2``)."""
        shown = [ch if ch != "." else str(i) for i, ch in enumerate(state.cells)]
        return "\n".join("".join(shown[r * 3 : r * 3 + 3]) for r in range(3))

    def move_help(self) -> str:
        """How moves are written (for a UI's ``help``)."""
        return "Tic-tac-toe moves: the number of an empty cell, 0-8 (row by row from the top left, as shown beside the board)."

    def layout(self, state: TicTacToeState, view: int | None = None) -> list[list[Segment]]:
        """A grid for people: empty cells as ``·`` (so ``O`` is never read as ``0``), with the
        cell numbers beside it; segments name the cell each mark shows (``(None, "4")``)."""
        lines: list[list[Segment]] = []
        for r in range(3):
            line: list[Segment] = [(" ", None)]
            for c in range(3):
                i = r * 3 + c
                ch = state.cells[i]
                line += [(" | " if c else " ", None), ("·" if ch == "." else ch, (None, str(i)))]
            line.append((f"        {r * 3} {r * 3 + 1} {r * 3 + 2}" + ("   (cell numbers)" if r == 0 else ""), None))
            lines.append(line)
            if r < 2:
                lines.append([(" ---+---+---", None)])
        return lines

    def player_name(self, player: int, state: TicTacToeState | None = None) -> str:
        """``X`` or ``O``."""
        return MARKS[player]

    def describe_move(self, before: TicTacToeState, move: TicTacToeMove, after: TicTacToeState) -> str:
        """E.g. ``X plays 4.`` or ``O plays 2: three in a row.``"""
        tail = (
            ": three in a row"
            if after.line_winner() is not None
            else (": board full" if self.is_terminal(after) else "")
        )
        return f"{MARKS[before.player]} plays {move}{tail}."

    def _expected(self, state: TicTacToeState) -> str:
        moves = self.legal_moves(state)
        return ("empty cells are " + ", ".join(str(m) for m in moves)) if moves else "the game is over"

    def _reason(self, state: TicTacToeState, move) -> str:
        if self.is_terminal(state):
            return "the game is over: no move is legal"
        if isinstance(move, TicTacToeMove) and 0 <= move.cell <= 8:
            return f"cell {move.cell} is taken; {self._expected(state)}"
        return f"{move} is not a cell (0-8); {self._expected(state)}"


def _tictactoe_from_options(options: dict[str, str]) -> TicTacToe:
    return TicTacToe(TicTacToeRules.from_dict(options))


#: tic-tac-toe in the game catalogue
TICTACTOE = register(
    GameInfo(
        "tictactoe",
        "Tic-tac-toe",
        "tic-tac-toe, the teaching aid for alpha-beta (option: start, a position such as XX./.O./...)",
        _tictactoe_from_options,
        TicTacToeRules,
        traits=Traits(
            board="tictactoe",
            teaching_evaluation="percent",
            capabilities=frozenset({"position", "layout", "move_help"}),
        ),
        rank=2,
    )
)
