"""The small protocol every game implements, so that search, players and UIs
are written once for all of them.

A game object holds the rules (immutable); states are immutable values.
Players are numbered 0 (moves first from the standard start) and 1.  The side
to move is always read from the state (:meth:`Game.to_move`), never assumed to
alternate: Kalah has extra turns and Bao relay moves.
"""

from __future__ import annotations

from typing import Hashable, Protocol, Sequence, TypeVar, cast, runtime_checkable

from mancala.errors import BadInput
from mancala.games.catalogue import game_info, has_capability, start_options_of, takes_start, traits_of

S = TypeVar("S")
M = TypeVar("M", bound=Hashable)


#: one piece of a drawn board: its text and the cell it shows, ``(owner, name)`` (owner
#: None for a cell nobody owns), or None for labels and spacing.  Games that can say which
#: text shows which cell offer ``layout(state, view=None) -> list[list[Segment]]`` (one list
#: per line), so a UI can mark the cells a move changed without parsing the picture.
Segment = tuple[str, "tuple[int | None, str] | None"]


def layout_text(lines: Sequence[Sequence[Segment]]) -> str:
    """The plain text of a board layout (trailing spaces removed)."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines)


@runtime_checkable
class Game(Protocol[S, M]):
    """A two-player, perfect-information, deterministic game."""

    #: short registry name, e.g. ``"kalah"``
    name: str

    def initial_state(self) -> S:
        """The position the game starts from."""
        ...

    def to_move(self, state: S) -> int:
        """The player (0 or 1) whose move it is in ``state``."""
        ...

    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move in ``state``, in the game's natural order; empty when terminal."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; ``state`` itself is unchanged.

        Raises :class:`mancala.errors.IllegalMove` for a move not in :meth:`legal_moves`.
        """
        ...

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        ...

    def score(self, state: S, player: int) -> int:
        """Final (or, before the end, current) margin for ``player``: positive means ahead."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """The legal move written ``text`` in the game's notation.

        Raises :class:`mancala.errors.IllegalMove` naming what was expected.
        """
        ...

    def render(self, state: S) -> str:
        """A plain-text picture of the position."""
        ...

    def describe_move(self, before: S, move: M, after: S) -> str:
        """What ``move`` did, in words, e.g. ``South plays 3: capture of 5, extra turn.``"""
        ...

    def player_name(self, player: int, state: S | None = None) -> str:
        """How the rules call ``player`` (``South``, ``X``, ...) in ``state`` (a player's seat,
        and so its name, may change during a game, as with Kalah's pie rule; without a state:
        the name at the start)."""
        ...


class PositionNotation(Protocol):
    """The ``position`` capability: a one-line position notation."""

    def position_string(self, state) -> str:
        """The position as one line."""
        ...

    def parse_position(self, text: str):
        """The state :meth:`position_string` wrote; raises BadInput saying what was expected."""
        ...


class Layout(Protocol):
    """The ``layout`` capability: which text of the picture shows which cell."""

    def layout(self, state, view: int | None = None) -> list[list[Segment]]:
        """The picture of ``state`` (from ``view``'s side), one list of segments a line."""
        ...


class MoveHelp(Protocol):
    """The ``move_help`` capability: how moves are written, in words."""

    def move_help(self) -> str:
        """A paragraph for a UI's help."""
        ...


class SeatNames(Protocol):
    """The ``seat_names`` capability: seats that players may swap (Kalah's pie rule)."""

    def seat_name(self, seat: int) -> str:
        """The name of ``seat`` (``South``, ``North``)."""
        ...


class DecidesWinner(Protocol):
    """The ``winner`` capability: a winner not given by the score's sign (Bao)."""

    def winner(self, state) -> int | None:
        """The winner of a finished game, None for a draw or a running game."""
        ...


class GameText(Protocol):
    """The ``game_text`` capability: game records as players keep them (PlayOK's files)."""

    def read_game_text(self, text: str) -> tuple[dict, list[str]]:
        """The rules options a record names (a start position) and its moves, as text the
        game's ``parse_move`` reads; raises BadInput for a text that is not such a record."""
        ...

    def write_game_text(self, start, moves: Sequence, names: Sequence[str | None] = (None, None)) -> str:
        """The record of ``moves`` played from ``start``, as those files write it, with the
        people who played each side (``names``, None: nobody named) where the files name them."""
        ...


def game_text_of(game: Game) -> GameText | None:
    """``game`` as :class:`GameText` when it declares the ``game_text`` capability."""
    return cast(GameText, game) if has_capability(game, "game_text") else None


def position_notation(game: Game) -> PositionNotation | None:
    """``game`` as a :class:`PositionNotation` when it declares the ``position`` capability."""
    return cast(PositionNotation, game) if has_capability(game, "position") else None


def layout_of(game: Game) -> Layout | None:
    """``game`` as a :class:`Layout` when it declares the ``layout`` capability."""
    return cast(Layout, game) if has_capability(game, "layout") else None


def move_help_of(game: Game) -> MoveHelp | None:
    """``game`` as a :class:`MoveHelp` when it declares the ``move_help`` capability."""
    return cast(MoveHelp, game) if has_capability(game, "move_help") else None


def seat_names_of(game: Game) -> SeatNames | None:
    """``game`` as :class:`SeatNames` when it declares the ``seat_names`` capability."""
    return cast(SeatNames, game) if has_capability(game, "seat_names") else None


def winner_rule_of(game: Game) -> DecidesWinner | None:
    """``game`` as :class:`DecidesWinner` when it declares the ``winner`` capability."""
    return cast(DecidesWinner, game) if has_capability(game, "winner") else None


#: the longest position string a link may carry
MAX_POSITION_CHARS = 400


def position_string(game: Game, state) -> str | None:
    """The position as one line a link can carry (the game's own ``position_string``: Kalah's
    counts in board order and the side to move, ``4-4-4-4-4-4-0-4-4-4-4-4-4-0-S``;
    tic-tac-toe's ``XX./.O./...``), or None for a game without a position notation its rules
    can start from."""
    info = game_info(game)
    notation = position_notation(game)
    if notation is None or (info.start_options is None and not takes_start(info)):
        return None
    return notation.position_string(state)


def position_options(name: str, text: object) -> dict:
    """The rules options that start game ``name`` at the position ``text`` (what
    :func:`position_string` writes); raises :class:`BadInput` saying what was expected."""
    if not isinstance(text, str) or not text.strip():
        raise BadInput("a position must be a non-empty string")
    if len(text) > MAX_POSITION_CHARS:
        raise BadInput(f"a position is at most {MAX_POSITION_CHARS} characters, got {len(text)}")
    return start_options_of(game_info(name), text.strip())


class RulesGame:
    """Plumbing shared by games whose variants are a frozen dataclass of rules
    (:attr:`rules_class`): construction, equality, hashing and ``repr`` by the rules."""

    #: the rules dataclass; its ``describe()`` names the options that differ from the defaults
    rules_class: type

    def __init__(self, rules=None) -> None:
        self.rules = rules if rules is not None else self.rules_class()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules.describe()})"

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.rules))


def winner(game: Game, state) -> int | None:
    """The winning player of a finished game, or None for a draw (or an unfinished game)."""
    if not game.is_terminal(state):
        return None
    margin = game.score(state, 0)
    if margin > 0:
        return 0
    if margin < 0:
        return 1
    return None


def outcome_text(game: Game, state, names: Sequence[str] = ("Player 1", "Player 2")) -> str:
    """A one-line description of a finished game's result (with the margin, in the game's
    traits' ``margin_unit``, for games whose score counts something, like Kalah's seeds)."""
    w = winner(game, state)
    if w is None:
        return "Draw."
    unit = traits_of(game).margin_unit
    return f"{names[w]} wins by {abs(game.score(state, 0))} {unit}." if unit else f"{names[w]} wins."
