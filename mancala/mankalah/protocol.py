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

Three roles live here, sharing the message code:

* :class:`AgentSession` / :func:`run_agent` — ``mancala mankalah-agent``: one of our
  players answering a referee (the Java one or ours);
* :func:`referee_game` / :func:`run_referee` — ``mancala referee``: two agent processes,
  refereed with our rules;
* :class:`CommandPlayer` — the ``command:CMD`` player spec: an external agent process as
  a player of ``mancala play``/``match`` and the arena, driven as a referee would.
"""

from __future__ import annotations

import argparse
import collections
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
import traceback
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Callable, Sequence

from mancala.errors import BadInput
from mancala.games import make_game
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
    return make_game(GAME_SPEC)


def is_mankalah(game) -> bool:
    """Whether ``game`` is Kalah under exactly the ManKalah rules."""
    return isinstance(game, Kalah) and game.rules == PRESETS["mankalah"]


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
    cells = list(board[n + 1:2 * n + 2]) + list(board[0:n + 1])
    return ",".join(str(c) for c in cells)


def board_from_text(text: str, pits: int = 7) -> tuple[int, ...]:
    """Our board order from the protocol's state numbers; raises :class:`ProtocolError`."""
    words = text.split(",")
    if len(words) != 2 * pits + 2 or not all(re.fullmatch(r"\d+", w) for w in words):
        raise ProtocolError(f"a state must be {2 * pits + 2} whole numbers separated by commas "
                            f"(North holes 1-{pits}, North store, South holes 1-{pits}, South store), "
                            f"got {text!r}")
    cells = [int(w) for w in words]
    return tuple(cells[pits + 1:] + cells[:pits + 1])


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
    if not re.fullmatch(r"[+-]?\d+", text) or not -2 ** 31 <= int(text) < 2 ** 31:  # Java's parseInt
        reason = "ends in a carriage return (lines must end in \\n alone)" if text.endswith("\r") else \
            "is not a whole number (a Java int)"
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
        if self.sent is not None and change.move.pit is not None and self.game.to_move(before) == self.me \
                and change.move != self.sent:
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
            self.log(f"MISMATCH after move {change.move}: we expected {state_text(expected.board)};{who}, "
                     f"the referee says {state_text(change.board)};{change.who}; continuing from the referee's")
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
    return replace(before, board=change.board, seat=seat, ply=ply, turns=turns, swapped=swapped,
                   swap_allowed=swap_allowed, finished=finished, last=None)


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
    from mancala.players import make_player  # noqa: PLC0415
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


# --- agent processes ------------------------------------------------------------------

_EOF = None


class AgentProcess:
    """An agent program run as a process: lines to its stdin, lines from its stdout with a
    time limit (a reader thread), its stderr drained and kept (the last 64 KB) so a chatty
    agent can never block.  It runs in its own process group and is stopped by :meth:`close`."""

    def __init__(self, command: str, label: str = "agent",
                 transcript: Callable[[str], None] | None = None) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise BadInput(f"cannot read the command {command!r}: {e}") from None
        if not self.argv:
            raise BadInput("an agent command cannot be empty")
        self.command = command
        self.label = label
        self.transcript = transcript or (lambda text: None)
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque = collections.deque(maxlen=64 * 1024)
        self.proc: subprocess.Popen | None = None
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        """Start the program; raises :class:`BadInput` when it cannot be run."""
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        except OSError as e:
            raise BadInput(f"cannot run {self.command!r}: {e.strerror or e}") from None
        self.threads = [threading.Thread(target=self._read_lines, daemon=True),
                        threading.Thread(target=self._drain_stderr, daemon=True)]
        for t in self.threads:
            t.start()

    def _read_lines(self) -> None:
        stream = self.proc.stdout
        try:
            while True:
                data = stream.readline(MAX_LINE + 1)
                if not data:
                    break
                self.lines.put(data)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _drain_stderr(self) -> None:
        try:
            while True:
                data = self.proc.stderr.read1(65536) if hasattr(self.proc.stderr, "read1") \
                    else self.proc.stderr.read(65536)
                if not data:
                    break
                self.stderr_tail.extend(data)
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        """Write one line; raises :class:`Fault` when the program no longer reads."""
        self.transcript(f"to {self.label}: {line}")
        try:
            self.proc.stdin.write(line.encode("ascii") + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise Fault("connection broke down", f"{self.label} no longer reads its input"
                        + self._exit_note()) from None

    def pending(self) -> bool:
        """Whether the program wrote a line (or closed its output) that was not read yet."""
        return not self.lines.empty()

    def receive(self, timeout: float) -> str:
        """The next line without its newline, within ``timeout`` seconds; raises
        :class:`Fault` on a timeout, a closed output or a line not ended by a newline."""
        try:
            data = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise Fault("timeout", f"{self.label} did not answer in time") from None
        if data is _EOF:
            self.lines.put(_EOF)  # later reads see the end too
            raise Fault("connection broke down", f"{self.label} closed its output" + self._exit_note())
        text = data.decode("utf-8", errors="replace")
        self.transcript(f"from {self.label}: {text.rstrip(chr(10))}")
        if not text.endswith("\n"):
            if len(data) > MAX_LINE:
                raise Fault("invalid message", f"{self.label} sent a line longer than {MAX_LINE} characters")
            raise Fault("invalid message", f"{self.label} sent {text!r} without a newline and closed its output")
        return text[:-1]

    def _exit_note(self) -> str:
        if self.proc is None:
            return ""
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return ""
        return f" (it exited with code {code})"

    def stderr_text(self) -> str:
        """What the program wrote to stderr (the last 64 KB)."""
        return bytes(self.stderr_tail).decode("utf-8", errors="replace")

    def close(self, grace: float = EXIT_GRACE) -> int | None:
        """Close its input, give it ``grace`` seconds to exit, then stop its process group.
        Returns the exit code (None if it had to be killed and did not report one)."""
        proc = self.proc
        if proc is None:
            return None
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            code = proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                try:
                    proc.wait(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    continue
        for t in self.threads:
            t.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        return code


# --- the referee ----------------------------------------------------------------------

@dataclass
class RefereeResult:
    """One refereed game: the record, and the fault that ended it early (if any)."""

    record: object
    #: the command of player 0 (South at the start) and player 1
    commands: tuple[str, str]
    #: the player who lost by a fault, and what it did
    faulty: int | None = None
    fault: Fault | None = None
    #: thinking time used and replies sent, per player
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    replies: list[int] = field(default_factory=lambda: [0, 0])
    #: what each agent wrote to stderr (the last 64 KB), never read as protocol
    stderr: list[str] = field(default_factory=lambda: ["", ""])

    @property
    def winner(self) -> int | None:
        """The winning player (a fault loses), None for a draw."""
        if self.faulty is not None:
            return 1 - self.faulty
        margin = self.margin
        return None if margin == 0 else (0 if margin > 0 else 1)

    @property
    def margin(self) -> int:
        """Player 0's store minus player 1's at the end (or when the game was stopped)."""
        game = self.record.game
        return game.score(self.record.final_state(), 0)

    def stores(self) -> tuple[int, int]:
        """Each player's store at the end."""
        state = self.record.final_state()
        return state.store(state.player_seat(0)), state.store(state.player_seat(1))


def referee_game(commands: Sequence[str], total_seconds: float = DEFAULT_TOTAL_SECONDS,
                 labels: Sequence[str] = ("South", "North"),
                 transcript: Callable[[str], None] | None = None,
                 on_move: Callable[[int], None] | None = None) -> RefereeResult:
    """Run one game between two agent programs (``commands[0]`` starts South) with the
    Java referee's rules and messages; ``total_seconds`` is each agent's thinking time
    for the game.  An agent that cannot be started raises :class:`BadInput`."""
    from mancala.record import GameRecord  # noqa: PLC0415
    game = mankalah_game()
    record = GameRecord(game, [f"command:{c}" for c in commands])
    result = RefereeResult(record, (commands[0], commands[1]))
    agents = [AgentProcess(c, labels[i], transcript) for i, c in enumerate(commands)]
    try:
        for agent in agents:
            agent.start()
        state = game.initial_state()
        _referee_loop(game, agents, state, record, result, total_seconds, on_move)
    finally:
        for agent in agents:
            if agent.proc is not None:
                try:
                    agent.send(END_MESSAGE)
                except Fault:
                    pass
        for p, agent in enumerate(agents):
            agent.close()
            result.stderr[p] = agent.stderr_text()
    return result


def _referee_loop(game, agents, state, record, result, total_seconds, on_move) -> None:
    player = None
    try:
        for player in (1, 0):  # the Java referee tells North first
            agents[player].send(start_message(player))
        while not state.finished:
            player = game.to_move(state)
            other = 1 - player
            if agents[other].pending():
                player = other
                line = agents[other].receive(0)
                raise Fault("invalid message", f"{agents[other].label} sent {line!r} when it was not its turn")
            started = time.monotonic()
            line = agents[player].receive(total_seconds - result.seconds[player])
            result.seconds[player] += time.monotonic() - started
            result.replies[player] += 1
            move = parse_agent_message(line, game, state)
            after = game.apply(state, move)
            record.moves.append(move)
            waiting = 1 - game.to_move(after)
            for q in (waiting, 1 - waiting):
                message = change_message(game, after, move, q)
                if message is not None:
                    player = q  # a broken pipe is this agent's fault
                    agents[q].send(message)
            state = after
            if on_move is not None:
                on_move(len(record.moves))
    except Fault as fault:
        result.faulty = player
        result.fault = fault


def run_referee(args: argparse.Namespace) -> int:
    """``mancala referee``: games between two agent programs, seats alternating, progress
    shown, results printed (and saved with ``--log DIR``).  A SIGTERM is handled like
    Ctrl-C, so the agents' processes are always stopped."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _referee_games(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _referee_games(args: argparse.Namespace) -> int:
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress  # noqa: PLC0415

    commands = [args.agent1, args.agent2]
    if not 1 <= args.games <= 100_000:
        raise BadInput(f"--games must be 1-100000, got {args.games}")
    if not 0 < args.timeout <= 10 * 24 * 3600:
        raise BadInput(f"--timeout must be more than 0 and at most 864000 seconds, got {args.timeout:g}")
    for c in commands:
        AgentProcess(c)  # a command that cannot be split fails here, before any game
    log_dir = Path(args.log) if args.log else None
    if log_dir is not None:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise BadInput(f"--log {log_dir}: cannot create that folder ({e.strerror})") from None
        if not os.access(log_dir, os.W_OK | os.X_OK):
            raise BadInput(f"--log {log_dir}: cannot write in that folder")
    totals = {"wins": [0, 0], "draws": 0, "margin": [0, 0], "faults": [0, 0], "seconds": [0.0, 0.0],
              "replies": [0, 0]}
    console = Console(stderr=True)
    out = Console(highlight=False, soft_wrap=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("games", total=args.games)
        for i in range(args.games):
            order = (0, 1) if i % 2 == 0 else (1, 0)  # order[p]: the agent (0 = CMD1) playing player p
            lines: list[str] = []
            t0 = time.monotonic()

            def note(text: str, _lines=lines, _t0=t0) -> None:
                _lines.append(f"[{time.monotonic() - _t0:9.3f}] {text}")

            labels = [f"agent {order[p] + 1}" for p in (0, 1)]
            progress.update(task, description=f"game {i + 1}/{args.games}")
            result = referee_game([commands[order[0]], commands[order[1]]], args.timeout, labels, note,
                                  on_move=lambda n, _i=i: progress.update(
                                      task, description=f"game {_i + 1}/{args.games}, move {n}"))
            out.print(f"game {i + 1}: " + game_line(result, labels))
            winner = result.winner
            for p in (0, 1):
                a = order[p]
                totals["seconds"][a] += result.seconds[p]
                totals["replies"][a] += result.replies[p]
                totals["margin"][a] += result.margin if p == 0 else -result.margin
            if winner is None:
                totals["draws"] += 1
            else:
                totals["wins"][order[winner]] += 1
            if result.faulty is not None:
                totals["faults"][order[result.faulty]] += 1
            if log_dir is not None:
                save_game(log_dir / f"game-{i + 1:03d}", result, labels, lines)
            progress.advance(task)
    games = args.games
    for a in (0, 1):
        per_move = 1000 * totals["seconds"][a] / totals["replies"][a] if totals["replies"][a] else 0.0
        losses = games - totals["wins"][a] - totals["draws"]
        out.print(f"agent {a + 1} ({commands[a]}): {totals['wins'][a]} wins, {totals['draws']} draws, "
                  f"{losses} losses ({totals['faults'][a]} by fault), average margin "
                  f"{totals['margin'][a] / games:+.2f}, {per_move:.0f} ms per move")
    if log_dir is not None:
        out.print(f"game records and transcripts in {log_dir}/")
    return 0


def save_game(stem: Path, result: RefereeResult, labels: Sequence[str], transcript: list[str]) -> None:
    """Write ``stem.json`` (the game record) and ``stem.log`` (the transcript, the agents'
    stderr and the result), each atomically."""
    from mancala.atomic import write_atomically  # noqa: PLC0415
    from mancala.record import save_record  # noqa: PLC0415
    lines = list(transcript)
    for p in (0, 1):
        if result.stderr[p]:
            lines.append(f"stderr of {labels[p]} (its last 64 KB):\n{result.stderr[p].rstrip()}")
    lines.append("result: " + game_line(result, labels))
    try:
        save_record(result.record, stem.with_suffix(".json"))
        write_atomically(stem.with_suffix(".log"), "\n".join(lines) + "\n")
    except OSError as e:
        raise BadInput(f"cannot save {stem}: {e.strerror or e}") from None


def game_line(result: RefereeResult, labels: Sequence[str]) -> str:
    """One line about a refereed game (``labels`` by player: South at the start first), e.g.
    ``agent 1 52 - 46 agent 2 (agent 1 started South): agent 1 wins``."""
    first, second = result.stores()
    text = f"{labels[0]} {first} - {second} {labels[1]} ({labels[0]} started South"
    if result.record.moves[1:2] == [SWAP]:
        text += f"; {labels[1]} swapped"
    text += ")"
    if result.faulty is not None:
        text += f"; {labels[result.faulty]} loses by {result.fault.kind}: {result.fault.detail}"
    winner = result.winner
    return text + (": draw" if winner is None else f": {labels[winner]} wins")


# --- external agents as players -------------------------------------------------------

class CommandPlayer:
    """An external ManKalah agent program as a player (spec ``command:CMD``).

    It is started at its first move and told START; before each of its moves it gets
    the CHANGE lines for every move since it last played, exactly as a referee sends them
    (moves between two calls are recovered from the two positions: only the opponent can
    have moved).  Our game stays authoritative: a reply that is malformed, illegal or late
    (its hour per game) raises :class:`ProtocolError`.  The process gets END and is
    stopped when the game ends after its own move, or when the player is dropped.
    """

    #: its memory is a running program: it stays in the process that started it
    portable = False

    def __init__(self, command: str, total_seconds: float = DEFAULT_TOTAL_SECONDS) -> None:
        self.command = command.strip()
        if not self.command:
            raise BadInput("command: needs a program to run, e.g. 'command:python3 my_agent.py'")
        AgentProcess(self.command)  # check that the command can be split
        self.spec = f"command:{self.command}"
        self.total_seconds = total_seconds
        self.agent: AgentProcess | None = None
        self.me: int | None = None
        self.known: KalahState | None = None
        self.used = 0.0
        self._finalizer = None

    def choose(self, game, state) -> KalahMove:
        """Tell the program what happened since its last move and read its move."""
        if not is_mankalah(game):
            raise BadInput(f"{self.spec}: external agents speak the ManKalah protocol and play only "
                           f"{GAME_SPEC} (e.g. mancala play --preset mankalah)")
        if self.agent is None:
            self._start(game)
        for before, move, after in self._moves_since(game, state):
            message = change_message(game, after, move, self.me)
            if message is not None:
                self._send(message)
        started = time.monotonic()
        try:
            line = self.agent.receive(self.total_seconds - self.used)
            self.used += time.monotonic() - started
            move = parse_agent_message(line, game, state)
        except Fault as e:
            self.close()
            raise ProtocolError(f"{self.spec} loses by {e.kind}: {e.detail}") from None
        after = game.apply(state, move)
        message = change_message(game, after, move, self.me)
        if message is not None:
            self._send(message)
        self.known = after
        if after.finished:
            self.close()
        return move

    def _start(self, game) -> None:
        self.known = game.initial_state()
        self.me = None
        self.agent = AgentProcess(self.command, self.spec)
        self.agent.start()
        self._finalizer = weakref.finalize(self, _stop_agent, self.agent)

    def _send(self, line: str) -> None:
        try:
            self.agent.send(line)
        except Fault as e:
            self.close()
            raise ProtocolError(f"{self.spec} loses by {e.kind}: {e.detail}") from None

    def _moves_since(self, game, state) -> list[tuple]:
        """The moves from the last position the program saw to ``state``."""
        me = game.to_move(state)
        if self.me is None:
            self.me = me
            self._send(start_message(me))
        elif me != self.me:
            raise BadInput(f"{self.spec} plays {SIDES[self.me]}'s moves only")
        path = _opponent_path(game, self.known, state, self.me)
        if path is None:
            raise BadInput(f"{self.spec} cannot follow the game: this position does not follow from the last one "
                           f"it saw by the opponent's moves (an external agent cannot take back moves or join a "
                           f"game under way)")
        return path

    def close(self) -> None:
        """Send END and stop the program (harmless when it is not running)."""
        if self._finalizer is not None:
            self._finalizer()
        self.agent = None


def _stop_agent(agent: AgentProcess) -> None:
    try:
        agent.send(END_MESSAGE)
    except Fault:
        pass
    agent.close()


def _opponent_path(game, start: KalahState, goal: KalahState, me: int, budget: int = 100_000):
    """The (before, move, after) steps from ``start`` to ``goal`` in which only the player
    other than ``me`` moves (one turn: a move, its extra turns, or the swap); None when
    there is none within ``budget`` positions."""
    if start == goal:
        return []
    depth = goal.ply - start.ply
    if depth <= 0:
        return None
    seen = [0]

    def search(state, left):
        if left == 0:
            return [] if state == goal else None
        if game.is_terminal(state) or game.to_move(state) == me:
            return None
        seen[0] += 1
        if seen[0] > budget:
            return None
        moves = list(game.legal_moves(state))
        if goal.last is not None and goal.last.move in moves and left == 1:
            moves.remove(goal.last.move)
            moves.insert(0, goal.last.move)
        for move in moves:
            after = game.apply(state, move)
            rest = search(after, left - 1)
            if rest is not None:
                return [(state, move, after)] + rest
        return None

    return search(start, depth)


def make_command_player(spec: str) -> CommandPlayer:
    """The player for ``command:CMD`` (the text after the first colon is the command)."""
    return CommandPlayer(spec.split(":", 1)[1])


# --- command line ---------------------------------------------------------------------

def register(sub) -> None:
    """Add ``mankalah-agent`` and ``referee`` to the CLI's subcommands."""
    agent = sub.add_parser(
        "mankalah-agent", help="one of our players as a ManKalah agent (stdin/stdout protocol)",
        description="Speak the Manchester ManKalah protocol on stdin/stdout (Kalah(7,7), pie rule): our player "
                    "chooses the moves. Only protocol lines go to stdout and nothing to stderr; --log FILE "
                    "records the exchange, the moves' thinking times and any mismatch with the referee's states.",
        epilog="examples:\n  java -jar ManKalah.jar \"mancala mankalah-agent --player best:time=2\" "
               "\"java -jar MKRefAgent.jar\"\n"
               "  mancala referee \"mancala mankalah-agent --player best:time=1\" "
               "\"mancala mankalah-agent --player greedy\"",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    agent.add_argument("--player", default="best:time=1", metavar="SPEC",
                       help="who chooses the moves (default best:time=1), e.g. alphabeta:depth=6")
    agent.add_argument("--log", metavar="FILE", help="append a log of the game to FILE (default: no log)")
    agent.set_defaults(func=agent_main)

    ref = sub.add_parser(
        "referee", help="referee games between two ManKalah agent programs",
        description="Run two ManKalah agent programs (any language) and referee games between them with the "
                    "Java referee's rules and messages: a timeout, an illegal move or a malformed message loses. "
                    "Seats alternate over the games; each agent has --timeout seconds per game.",
        epilog="example:\n  mancala referee \"mancala mankalah-agent --player best:time=1\" "
               "\"java -jar MKRefAgent.jar\" --games 4 --log results/",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ref.add_argument("agent1", metavar="CMD1", help="the first agent's command (South in odd-numbered games)")
    ref.add_argument("agent2", metavar="CMD2", help="the second agent's command")
    ref.add_argument("--games", type=int, default=2, help="number of games, seats alternating (default 2)")
    ref.add_argument("--timeout", type=float, default=DEFAULT_TOTAL_SECONDS, metavar="S",
                     help="thinking time per agent per game in seconds (default 3600, as the Java referee)")
    ref.add_argument("--log", metavar="DIR",
                     help="save each game as DIR/game-NNN.json (a game record) and DIR/game-NNN.log (the transcript)")
    ref.set_defaults(func=run_referee)
