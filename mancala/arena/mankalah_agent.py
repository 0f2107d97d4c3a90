"""Our players as ManKalah agents (``mancala mankalah-agent``): one of our players answers a
referee over stdin/stdout (``docs/mankalah.md``)."""

from __future__ import annotations

import argparse
import os
import time
import traceback
from dataclasses import replace
from typing import IO, Callable

from mancala.errors import BadInput
from mancala.games.kalah import Kalah, KalahMove, KalahState
from mancala.mankalah.protocol import (
    SIDES,
    Change,
    End,
    ProtocolError,
    Start,
    mankalah_game,
    move_message,
    parse_engine_message,
    state_text,
)
from mancala.players import make_player

# --- our agent ------------------------------------------------------------------------


class AgentSession:
    """Our side of the protocol, without any input or output: feed it the referee's lines
    with :meth:`handle`, write back what it returns.

    It tracks the game with our rules and cross-checks every CHANGE against its own board.
    The referee is authoritative: on a mismatch (board, turn, or a move that is illegal
    by our count) it logs both boards and continues from the referee's board and turn,
    keeping its own count of moves and of the swap (see :func:`resync`).
    """

    def __init__(self, player, log: Callable[[str], None] = lambda text: None) -> None:
        self.game = mankalah_game()
        self.player = player
        self.log = log
        #: our player number (0 started South), once START was read
        self.me: int | None = None
        self.state: KalahState = self.game.initial_state()
        #: the move we sent last, to compare with the referee's echo
        self.sent: KalahMove | None = None
        #: whether a CHANGE said END, and whether END itself was read
        self.finished = False
        self.ended = False
        self.mismatches = 0

    def handle(self, line: str) -> list[str]:
        """The replies to one referee line (empty when none is due)."""
        message = parse_engine_message(line, self.game.rules.pits)
        if isinstance(message, End):
            self.ended = True
            return []
        if isinstance(message, Start):
            if self.me is not None:
                raise ProtocolError(f"{line!r}: a second START in one game")
            self.me = message.player
            self.log(f"we play {SIDES[self.me]}; {self.player.spec} chooses the moves")
            return self._answer() if self.me == self.game.to_move(self.state) else []
        if self.me is None:
            raise ProtocolError(f"{line!r} before START")
        if self.finished:
            raise ProtocolError(f"{line!r} after the game ended")
        self._follow(message)
        if message.who == "END":
            self.finished = True
            self.log(f"game over: our store {self._store(self.me)}, theirs {self._store(1 - self.me)}")
            return []
        if message.who == "YOU":
            return self._answer()
        return []

    def _store(self, player: int) -> int:
        return self.state.store(self.state.player_seat(player))

    def _follow(self, change: Change) -> None:
        """Apply a CHANGE to our state, resyncing from it when it disagrees with us."""
        before = self.state
        if (
            self.sent is not None
            and change.move.pit is not None
            and self.game.to_move(before) == self.me
            and change.move != self.sent
        ):
            self.log(f"MISMATCH: we sent {move_message(self.sent)} but the referee reports move {change.move}")
        self.sent = None
        expected = None
        if change.move in self.game.legal_moves(before):
            expected = self.game.apply(before, change.move)
        who = self._who(expected) if expected is not None else None
        if expected is not None and expected.board == change.board and who == change.who:
            self.state = expected
            return
        self.mismatches += 1
        if expected is None:
            self.log(f"MISMATCH: move {change.move} is not legal on our board\n{self.game.render(before)}")
        else:
            self.log(
                f"MISMATCH after move {change.move}: we expected {state_text(expected.board)};{who}, "
                f"the referee says {state_text(change.board)};{change.who}; continuing from the referee's"
            )
        assert self.me is not None  # a CHANGE comes after START, which set our side
        self.state = resync(self.game, before, change, self.me)

    def _who(self, state: KalahState) -> str:
        if state.finished:
            return "END"
        return "YOU" if self.game.to_move(state) == self.me else "OPP"

    def _answer(self) -> list[str]:
        state = self.state
        if not self.game.legal_moves(state):
            raise ProtocolError("the referee says it is our move but we have no legal move on our board")
        started = time.monotonic()
        move = self.player.choose(self.game, state)
        self.log(f"{move_message(move)} after {time.monotonic() - started:.2f} s")
        if move.pit is None:  # no CHANGE comes back for our own swap
            self.state = self.game.apply(state, move)
        else:
            self.sent = move
        return [move_message(move)]


def resync(game: Kalah, before: KalahState, change: Change, me: int) -> KalahState:
    """The state a CHANGE describes, when it disagrees with ours: the referee's board and
    turn, our count of moves and turns, the swap flipped by a SWAP message, the pie rule's
    swap allowed only right after the first move (as the Java referee allows it)."""
    swapped = before.swapped ^ (change.move.pit is None)
    ply = before.ply + 1
    finished = change.who == "END"
    mover = me if change.who == "YOU" else 1 - me
    if finished:
        mover = 1 - game.to_move(before)
    seat = mover ^ int(swapped)
    turns = before.turns + (0 if mover == game.to_move(before) and change.move.pit is not None else 1)
    swap_allowed = game.rules.pie_rule and ply == 1 and not swapped and not finished
    return replace(
        before,
        board=change.board,
        seat=seat,
        ply=ply,
        turns=turns,
        swapped=swapped,
        swap_allowed=swap_allowed,
        finished=finished,
        last=None,
    )


def run_agent(player, lines_in: IO[bytes], lines_out: IO[bytes], log: Callable[[str], None]) -> int:
    """Play one game over the given streams; returns the exit code (0 after END or a
    finished game, 1 when the referee went away early, 2 on a malformed message)."""
    session = AgentSession(player, log)
    while True:
        raw = lines_in.readline()
        if not raw:
            log("the referee closed our input" + ("" if session.finished else " before the game ended"))
            return 0 if session.finished else 1
        line = raw.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r")
        log(f"< {line}")
        try:
            replies = session.handle(line)
        except ProtocolError as e:
            log(f"ERROR: {e}")
            return 2
        for reply in replies:
            lines_out.write(reply.encode("ascii") + b"\n")
            lines_out.flush()
            log(f"> {reply}")
        if session.ended:
            if session.mismatches:
                log(f"{session.mismatches} mismatch(es) with the referee's states in this game")
            return 0


def agent_main(args: argparse.Namespace) -> int:
    """``mancala mankalah-agent``: stdout carries protocol lines only, stderr nothing;
    everything else (library output included) goes to the log file or nowhere."""
    player = make_player(args.player)
    if player.spec == "human":
        raise BadInput("a ManKalah agent needs an AI player, not human")
    log_file = _open_log(args.log)
    protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
    protocol_in = os.fdopen(os.dup(0), "rb")
    sink = log_file.fileno() if log_file else os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    started = time.monotonic()

    def log(text: str) -> None:
        if log_file:
            stamp = f"[{time.strftime('%H:%M:%S')} {time.monotonic() - started:8.3f}] "
            log_file.write(stamp + text.replace("\n", "\n" + " " * len(stamp)) + "\n")
            log_file.flush()

    log(f"mancala mankalah-agent --player {player.spec} (pid {os.getpid()})")
    try:
        return run_agent(player, protocol_in, protocol_out, log)
    except (BrokenPipeError, ConnectionError):
        log("the referee stopped reading our output")
        return 1
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    except Exception:  # noqa: BLE001 (an agent must never print a traceback: it goes to the log)
        log("ERROR:\n" + traceback.format_exc())
        return 1


def _open_log(path: str | None):
    if not path:
        return None
    try:
        return open(path, "a", encoding="utf-8", buffering=1)
    except OSError as e:
        raise BadInput(f"--log {path}: cannot write there ({e.strerror})") from None
