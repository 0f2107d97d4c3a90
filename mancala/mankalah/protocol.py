"""The Manchester ManKalah protocol: our players as ManKalah agents, our own referee,
and external ManKalah programs as players (see ``docs/mankalah.md``).

ManKalah is Kalah(7,7) with standard captures, the pie rule, and a first move that never
earns an extra turn (our ``kalah(preset=mankalah)``).  A referee starts each agent as a
process and talks over its stdin/stdout, one message per line, no spaces::

    referee -> agent   START;South | START;North
                       CHANGE;<move>;<state>;YOU|OPP|END    after every move, to both agents
                       END
    agent -> referee   MOVE;<hole> | SWAP

``<move>`` is the mover's hole 1..7 or ``SWAP``; ``<state>`` is 16 absolute numbers:
North holes 1..7, North store, South holes 1..7, South store.  The agent that swaps gets
no CHANGE for its swap; its opponent gets ``CHANGE;SWAP;<state>;YOU``.  Timeouts (one
hour per agent per game), illegal moves and malformed messages lose.

This module holds the messages, shared by three roles:

* :mod:`mancala.arena.mankalah_agent` — ``mancala mankalah-agent``: one of our players
  answering a referee (the Java one or ours);
* :mod:`mancala.arena.referee` — ``mancala referee``: two agent processes
  (:mod:`mancala.mankalah.process`), refereed with our rules;
* :mod:`mancala.players.command` — the ``command:CMD`` player spec: an outside agent process
  as a player of ``mancala play``/``match`` and the arena, driven as a referee would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from mancala.errors import BadInput
from mancala.games.kalah import PRESETS, SWAP, Kalah, KalahMove, KalahState

#: the game every ManKalah referee plays
GAME_SPEC = "kalah(preset=mankalah)"
#: thinking time per agent per game, in seconds (the Java referee's hour)
DEFAULT_TOTAL_SECONDS = 3600.0
#: the longest line read from an agent; anything longer is a malformed message
MAX_LINE = 4096
#: seconds an agent may take to exit after END before it is stopped
EXIT_GRACE = 2.0

SIDES = ("South", "North")


def mankalah_game() -> Kalah:
    """Kalah under the ManKalah rules (7 holes, 7 seeds, pie rule, first-move quirk)."""
    return Kalah(PRESETS["mankalah"])


def is_mankalah(game) -> bool:
    """Whether ``game`` is Kalah under exactly the ManKalah rules."""
    return game == Kalah(PRESETS["mankalah"])


class ProtocolError(BadInput):
    """A line that breaks the ManKalah protocol (says which line and what was expected)."""


# --- messages -------------------------------------------------------------------------


@dataclass(frozen=True)
class Start:
    """``START;South`` or ``START;North``: the side the agent starts on."""

    #: 0 South (moves first), 1 North
    player: int


@dataclass(frozen=True)
class Change:
    """``CHANGE;<move>;<state>;<who>``: a move, the board after it, and who moves next."""

    move: KalahMove
    #: the board in our order (South holes, South store, North holes, North store)
    board: tuple[int, ...]
    #: ``YOU``, ``OPP`` or ``END``
    who: str


@dataclass(frozen=True)
class End:
    """``END``: the match is over; the agent should exit."""


def state_text(board: Sequence[int]) -> str:
    """The protocol's 16 numbers for a board in our order: North holes 1..n, North store,
    South holes 1..n, South store."""
    n = (len(board) - 2) // 2
    cells = list(board[n + 1 : 2 * n + 2]) + list(board[0 : n + 1])
    return ",".join(str(c) for c in cells)


def board_from_text(text: str, pits: int = 7) -> tuple[int, ...]:
    """Our board order from the protocol's state numbers; raises :class:`ProtocolError`."""
    words = text.split(",")
    if len(words) != 2 * pits + 2 or not all(re.fullmatch(r"\d+", w) for w in words):
        raise ProtocolError(
            f"a state must be {2 * pits + 2} whole numbers separated by commas "
            f"(North holes 1-{pits}, North store, South holes 1-{pits}, South store), "
            f"got {text!r}"
        )
    cells = [int(w) for w in words]
    return tuple(cells[pits + 1 :] + cells[: pits + 1])


def start_message(player: int) -> str:
    """``START;South`` for player 0, ``START;North`` for player 1."""
    return f"START;{SIDES[player]}"


def move_message(move: KalahMove) -> str:
    """What an agent sends for ``move``: ``MOVE;<hole>`` or ``SWAP``."""
    return "SWAP" if move.pit is None else f"MOVE;{move.pit}"


END_MESSAGE = "END"


def change_message(game: Kalah, after: KalahState, move: KalahMove, player: int) -> str | None:
    """The CHANGE line a referee sends ``player`` after ``move`` led to ``after``; None for
    the player who swapped (it gets no message for its swap)."""
    state = state_text(after.board)
    if move.pit is None:
        if game.to_move(after) != player:
            return None
        return f"CHANGE;SWAP;{state};YOU"
    if after.finished:
        who = "END"
    else:
        who = "YOU" if game.to_move(after) == player else "OPP"
    return f"CHANGE;{move.pit};{state};{who}"


def parse_engine_message(line: str, pits: int = 7) -> Start | Change | End:
    """A referee's message (without its newline); raises :class:`ProtocolError` naming
    what was expected."""
    expected = "expected START;South, START;North, CHANGE;<move>;<state>;YOU|OPP|END or END"
    if line == "END":
        return End()
    if line in ("START;South", "START;North"):
        return Start(0 if line.endswith("South") else 1)
    parts = line.split(";")
    if parts[0] != "CHANGE":
        raise ProtocolError(f"cannot read {line!r}: {expected}")
    if len(parts) != 4:
        raise ProtocolError(f"cannot read {line!r}: a CHANGE has 4 fields separated by ';', got {len(parts)}")
    _, move_text, state, who = parts
    if move_text == "SWAP":
        move = SWAP
    elif re.fullmatch(r"\d+", move_text) and 1 <= int(move_text) <= pits:
        move = KalahMove(int(move_text))
    else:
        raise ProtocolError(f"cannot read {line!r}: the move must be a hole 1-{pits} or SWAP, got {move_text!r}")
    if who not in ("YOU", "OPP", "END"):
        raise ProtocolError(f"cannot read {line!r}: the last field must be YOU, OPP or END, got {who!r}")
    return Change(move, board_from_text(state, pits), who)


class Fault(Exception):
    """Something an agent did that loses it the game under the referee's rules."""

    #: the kinds of fault, as the Java referee reports them
    KINDS = ("timeout", "illegal move", "invalid message", "connection broke down")

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


def parse_agent_message(line: str, game: Kalah, state: KalahState) -> KalahMove:
    """The move an agent's line (without its newline) names in ``state``, judged as the
    Java referee does: ``MOVE;<n>`` with a whole number n, or ``SWAP`` where the pie rule
    allows it.  Raises :class:`Fault` (``invalid message`` or ``illegal move``)."""
    if line == "SWAP":
        if not state.swap_allowed:
            raise Fault("invalid message", "SWAP is only allowed as North's answer to South's first move")
        return SWAP
    if not line.startswith("MOVE;"):
        shown = line if len(line) <= 60 else line[:60] + "..."
        raise Fault("invalid message", f"{shown!r} is neither MOVE;<hole> nor SWAP")
    text = line[5:]
    if not re.fullmatch(r"[+-]?\d+", text) or not -(2**31) <= int(text) < 2**31:  # Java's parseInt
        reason = (
            "ends in a carriage return (lines must end in \\n alone)"
            if text.endswith("\r")
            else "is not a whole number (a Java int)"
        )
        raise Fault("invalid message", f"the hole in {line!r} {reason}")
    hole = int(text)
    if hole < 1:
        raise Fault("invalid message", f"the hole must be positive, got {hole}")
    move = KalahMove(hole)
    if move not in game.legal_moves(state):
        row = state.row(state.seat)
        why = f"there is no hole {hole}" if hole > state.pits else f"hole {hole} is empty"
        raise Fault("illegal move", f"MOVE;{hole}: {why} (its holes hold {','.join(map(str, row))})")
    return move
