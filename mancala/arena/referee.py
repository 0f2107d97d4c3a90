"""Our ManKalah referee (``mancala referee``): two agent programs play with our rules and the
Java referee's messages; games saved as records and transcripts."""

from __future__ import annotations

import argparse
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from mancala.atomic import write_atomically
from mancala.errors import BadInput
from mancala.games.kalah import SWAP
from mancala.mankalah.process import AgentProcess
from mancala.mankalah.protocol import (
    DEFAULT_TOTAL_SECONDS,
    END_MESSAGE,
    Fault,
    change_message,
    mankalah_game,
    parse_agent_message,
    start_message,
)
from mancala.record import GameRecord, save_record

# --- the referee ----------------------------------------------------------------------


@dataclass
class RefereeResult:
    """One refereed game: the record, and the fault that ended it early (if any)."""

    record: GameRecord
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


def referee_game(
    commands: Sequence[str],
    total_seconds: float = DEFAULT_TOTAL_SECONDS,
    labels: Sequence[str] = ("South", "North"),
    transcript: Callable[[str], None] | None = None,
    on_move: Callable[[int], None] | None = None,
) -> RefereeResult:
    """Run one game between two agent programs (``commands[0]`` starts South) with the
    Java referee's rules and messages; ``total_seconds`` is each agent's thinking time
    for the game.  An agent that cannot be started raises :class:`BadInput`."""
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
    totals: dict[str, Any] = {
        "wins": [0, 0],
        "draws": 0,
        "margin": [0, 0],
        "faults": [0, 0],
        "seconds": [0.0, 0.0],
        "replies": [0, 0],
    }
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

            def moved(n: int, _i: int = i) -> None:
                progress.update(task, description=f"game {_i + 1}/{args.games}, move {n}")

            result = referee_game([commands[order[0]], commands[order[1]]], args.timeout, labels, note, on_move=moved)
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
        out.print(
            f"agent {a + 1} ({commands[a]}): {totals['wins'][a]} wins, {totals['draws']} draws, "
            f"{losses} losses ({totals['faults'][a]} by fault), average margin "
            f"{totals['margin'][a] / games:+.2f}, {per_move:.0f} ms per move"
        )
    if log_dir is not None:
        out.print(f"game records and transcripts in {log_dir}/")
    return 0


def save_game(stem: Path, result: RefereeResult, labels: Sequence[str], transcript: list[str]) -> None:
    """Write ``stem.json`` (the game record) and ``stem.log`` (the transcript, the agents'
    stderr and the result), each atomically."""
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
    if result.faulty is not None and result.fault is not None:
        text += f"; {labels[result.faulty]} loses by {result.fault.kind}: {result.fault.detail}"
    winner = result.winner
    return text + (": draw" if winner is None else f": {labels[winner]} wins")
