"""Outside ManKalah agent programs as players (the ``command:CMD`` spec): driven as a referee
would, our game staying authoritative."""

from __future__ import annotations

import time
import weakref

from mancala.errors import BadInput, echo
from mancala.games.kalah import KalahMove, KalahState
from mancala.mankalah.process import AgentProcess
from mancala.mankalah.protocol import (
    DEFAULT_TOTAL_SECONDS,
    END_MESSAGE,
    GAME_SPEC,
    SIDES,
    Fault,
    ProtocolError,
    change_message,
    is_mankalah,
    parse_agent_message,
    start_message,
)
from mancala.players.registry import PlayerKind, register_kind

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
        self._finalizer: weakref.finalize | None = None

    def choose(self, game, state) -> KalahMove:
        """Tell the program what happened since its last move and read its move."""
        if not is_mankalah(game):
            raise BadInput(
                f"{echo(self.spec)}: external agents speak the ManKalah protocol and play only "
                f"{GAME_SPEC} (e.g. mancala play --preset mankalah)"
            )
        agent = self.agent if self.agent is not None else self._start(game)
        moves = self._moves_since(game, state)
        me = self._side()
        for _before, move, after in moves:
            message = change_message(game, after, move, me)
            if message is not None:
                self._send(message)
        started = time.monotonic()
        try:
            line = agent.receive(self.total_seconds - self.used)
            self.used += time.monotonic() - started
            move = parse_agent_message(line, game, state)
        except Fault as e:
            self.close()
            raise ProtocolError(f"{self.spec} loses by {e.kind}: {e.detail}") from None
        after = game.apply(state, move)
        message = change_message(game, after, move, me)
        if message is not None:
            self._send(message)
        self.known = after
        if after.finished:
            self.close()
        return move

    def _start(self, game) -> AgentProcess:
        self.known = game.initial_state()
        self.me = None
        agent = self.agent = AgentProcess(self.command, self.spec)
        agent.start()
        self._finalizer = weakref.finalize(self, _stop_agent, agent)
        return agent

    def _side(self) -> int:
        """The side the program plays (known once it has been told START)."""
        assert self.me is not None, "the program is told its side before any move"
        return self.me

    def _send(self, line: str) -> None:
        assert self.agent is not None, "the program is started before anything is sent"
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
            raise BadInput(f"{echo(self.spec)} plays {SIDES[self.me]}'s moves only")
        assert self.known is not None  # set when the program started
        path = _opponent_path(game, self.known, state, self.me)
        if path is None:
            raise BadInput(
                f"{self.spec} cannot follow the game: this position does not follow from the last one "
                f"it saw by the opponent's moves (an external agent cannot take back moves or join a "
                f"game under way)"
            )
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


register_kind(
    PlayerKind(
        "command",
        "a ManKalah agent program (command:CMD; Kalah under the ManKalah rules only)",
        "command:",
        "command:",
        lambda spec, options, ask: make_command_player(spec),
        raw=True,
        listed=False,
        label="A ManKalah agent program",
        title="ManKalah program {rest}",
        rank=31,
    )
)
