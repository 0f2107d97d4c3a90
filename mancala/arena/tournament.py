"""Tournaments (``mancala arena``): many players, balanced openings, both seats, parallel, resumable.

A tournament is a list of player specs on one game.  Each *pairing* (every two players in
a round robin, or the first player against each other in a gauntlet) plays every opening
twice, once from each seat, so neither player gets the luckier side of an opening and
deterministic players never replay one game.

Openings are ``plies`` random legal moves from the start, kept only when the position is
*close*: its value for the side to move, judged by a fixed search, is within ``balance``
of 0.  The judge is the engine of a game whose engine proves positions (Kalah's: its record
``solves``) at a fixed depth (:data:`JUDGE_DEPTH` turns, store difference; exact when it sees
the end), and alpha-beta to depth 2 with the game's default evaluation for other games.  The random moves come from
``random.Random(seed)``, so the same seed gives the same openings everywhere.

Every game is identified by its key ``A|B|opening|seat`` and, when it finishes, appended
to the results file as one JSON line (written, flushed and fsynced by the one process
that writes), so an interrupted run loses no finished game; running the same command
again skips the keys already in the file.  Games run in worker processes (default: all
cores), or on a Ray cluster (``ray_address``); each game is a pure function of its task
(players that draw random numbers are seeded from the tournament seed and the game key),
so serial, parallel and Ray runs give the same games for the same seed.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import random
import signal
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Callable, Sequence

from mancala import jsonread
from mancala.arena.match import follow_record, play_game
from mancala.atomic import append_durably
from mancala.engine.support import engine_support
from mancala.errors import BadInput, IllegalMove, MancalaError
from mancala.evaluation import default_evaluation
from mancala.games import make_game
from mancala.games.base import Game
from mancala.players import make_player
from mancala.record import GameRecord
from mancala.search import alphabeta

#: the engine's search depth (turns) that judges whether an opening is close (Kalah's)
JUDGE_DEPTH = 10
#: how many random openings may be drawn per opening kept before giving up
MAX_DRAWS_PER_OPENING = 200


@dataclass(frozen=True)
class TournamentSpec:
    """What a tournament plays: the game, the players and the openings."""

    game: str
    players: tuple[str, ...]
    #: gauntlet: the first player meets each other player; otherwise a round robin
    gauntlet: bool = False
    #: openings per pairing (each is played twice, once from each seat)
    openings: int = 10
    #: random plies in an opening
    plies: int = 4
    #: largest |value| (judge's margin for the side to move) an opening may have
    balance: float = 2.0
    seed: int = 1
    #: moves after which an unfinished game is scored as it stands (a draw if level)
    max_moves: int = 2000

    def pairings(self) -> list[tuple[str, str]]:
        """The pairings, in order: (first player, second player)."""
        p = self.players
        if self.gauntlet:
            return [(p[0], q) for q in p[1:]]
        return [(p[i], p[j]) for i in range(len(p)) for j in range(i + 1, len(p))]


@dataclass(frozen=True)
class Opening:
    """A balanced opening: its moves (as text) and the judge's value for the side to move."""

    moves: tuple[str, ...]
    value: float


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing else."""

    key: str
    game: str
    a: str
    b: str
    #: 0: ``a`` is player 0 (moves first from the start); 1: ``b`` is
    seat: int
    opening_index: int
    opening: tuple[str, ...]
    seed: int
    max_moves: int


def game_key(a: str, b: str, opening: int, seat: int) -> str:
    """The identity of one game in a results file."""
    return f"{a}|{b}|{opening}|{seat}"


def _parse_moves(game: Game, moves: Sequence[str]) -> list:
    """Moves given as text, replayed from the start (each checked by the rules)."""
    state = game.initial_state()
    out = []
    for text in moves:
        move = game.parse_move(state, text)
        out.append(move)
        state = game.apply(state, move)
    return out


def judge(game: Game, state) -> float:
    """The opening judge's value of ``state`` for the side to move (see the module doc)."""
    if game.is_terminal(state):
        return float(game.score(state, game.to_move(state)))
    record = engine_support(game.name)
    if record is not None and record.solves and record.plays(game):  # a solving engine judges (Kalah's)
        return float(record.best(game, state, 1e9, JUDGE_DEPTH, None, None, False).value)
    return float(alphabeta(game, state, 2, default_evaluation(game)).value)


def make_openings(game: Game, count: int, plies: int, balance: float, seed: int) -> list[Opening]:
    """``count`` balanced openings (see the module doc), the same for the same arguments."""
    if count < 1:
        raise BadInput(f"a tournament needs at least one opening, got {count}")
    if plies < 0 or plies > 200:
        raise BadInput(f"opening plies must be 0-200, got {plies}")
    rng = random.Random(seed)
    out: list[Opening] = []
    seen: set[tuple[str, ...]] = set()
    for _ in range(count * MAX_DRAWS_PER_OPENING):
        if len(out) == count:
            break
        state = game.initial_state()
        moves: list[str] = []
        for _ in range(plies):
            legal = game.legal_moves(state)
            if game.is_terminal(state) or not legal:
                break
            move = rng.choice(list(legal))
            moves.append(str(move))
            state = game.apply(state, move)
        if game.is_terminal(state) or (tuple(moves) in seen and plies > 0):
            continue
        value = judge(game, state)
        if abs(value) <= balance:
            seen.add(tuple(moves))
            out.append(Opening(tuple(moves), value))
        if plies == 0 and out:
            out = out * count
            break
    if len(out) < count:
        raise BadInput(
            f"found only {len(out)} of {count} openings of {plies} plies within ±{balance:g}; "
            f"allow more (--balance) or use fewer plies or openings"
        )
    return out[:count]


def make_tasks(spec: TournamentSpec, openings: Sequence[Opening]) -> list[GameTask]:
    """Every game of the tournament, opening by opening (so a run stopped early has played
    every pairing about equally often)."""
    tasks = []
    for k, opening in enumerate(openings):
        for a, b in spec.pairings():
            for seat in (0, 1):
                tasks.append(
                    GameTask(
                        game_key(a, b, k, seat), spec.game, a, b, seat, k, opening.moves, spec.seed, spec.max_moves
                    )
                )
    return tasks


def _derived_seed(task: GameTask, who: int) -> int:
    digest = hashlib.sha256(f"{task.seed}|{task.key}|{who}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


class PlayerFailed(MancalaError):
    """A player raised an error (or gave no move) when asked for one: it forfeits the game."""

    def __init__(self, player: int, message: str) -> None:
        super().__init__(message)
        self.player = player


class _Timed:
    """A player wrapper that times each move and turns a player's own error into a forfeit."""

    def __init__(self, player, index: int, times: list) -> None:
        self.player = player
        self.index = index
        self.times = times
        self.spec = player.spec

    def choose(self, game: Game, state):
        start = time.perf_counter()
        try:
            move = self.player.choose(game, state)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - a player's failure is its forfeit, recorded
            raise PlayerFailed(self.index, f"{type(e).__name__}: {e}") from e
        self.times.append(round(time.perf_counter() - start, 5))
        return move


def machine() -> dict:
    """Where a game ran: host, processor count, Python, and the load average then."""
    try:
        load = round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - not on every platform
        load = None
    return {
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "load": load,
    }


def play_task(task: GameTask) -> dict:
    """Play one game and return its result line (see :func:`run_tournament`).

    The referee is :func:`mancala.arena.play_game`: an illegal move, or an error raised
    by a player, loses the game for that player (recorded under ``forfeit``).
    """

    game = make_game(task.game)
    specs = (task.a, task.b) if task.seat == 0 else (task.b, task.a)
    times: list[float] = []
    players = []
    for i, spec in enumerate(specs):
        p = make_player(spec)
        seed = _derived_seed(task, i)
        if hasattr(p, "reseed"):
            p.reseed(seed)
        elif getattr(p, "seed", 0) is None and hasattr(p, "rng"):
            p.rng.seed(seed)
        players.append(_Timed(p, i, times))
    opening = _parse_moves(game, task.opening)
    record = GameRecord(game, list(specs), list(opening))
    follow_record([p.player for p in players], record)
    forfeit = None
    error = None
    start = time.perf_counter()
    try:
        play_game(game, players, record, max_moves=task.max_moves)
    except PlayerFailed as e:
        forfeit, error = e.player, str(e)
    except IllegalMove as e:
        forfeit, error = game.to_move(record.final_state()), str(e)
    final = record.final_state()
    winner: int | None
    if forfeit is not None:
        winner = 1 - forfeit
        margin = 0
    else:
        margin = game.score(final, 0)
        winner = 0 if margin > 0 else 1 if margin < 0 else None
    a_player = 0 if task.seat == 0 else 1
    points_a = 0.5 if winner is None else (1.0 if winner == a_player else 0.0)
    for p in players:
        close = getattr(p.player, "close", None)
        if close is not None:
            close()
    return {
        "key": task.key,
        "game": task.game,
        "seed": task.seed,
        "pairing": [task.a, task.b],
        "seat": task.seat,
        "opening_index": task.opening_index,
        "players": list(specs),
        "opening": list(task.opening),
        "moves": [str(m) for m in record.moves[len(opening) :]],
        "score": margin,
        "winner": winner,
        "points_a": points_a,
        "margin_a": margin if a_player == 0 else -margin,
        "finished": bool(game.is_terminal(final)),
        "forfeit": forfeit,
        "error": error,
        "seconds": times,
        "game_seconds": round(time.perf_counter() - start, 4),
        "machine": machine(),
    }


# --- the results file -------------------------------------------------------------------

#: the longest result line read, in bytes (a 2,000-move game's line is about 40 KB)
MAX_RESULT_LINE = 1 << 20
#: how every result line starts, as :class:`ResultsWriter` writes it
RESULT_LINE_START = b'{"key":'


def _result_row(p: Path, number: int, line: bytes) -> dict:
    """Line ``number`` of the results file ``p`` as a result; :class:`BadInput` otherwise."""
    try:
        row = jsonread.loads(line, max_bytes=MAX_RESULT_LINE)
    except (ValueError, UnicodeDecodeError):
        row = None
    if not isinstance(row, dict) or "key" not in row or "pairing" not in row:
        raise BadInput(
            f"{p}, line {number}: not a tournament result line, so {p} is not an arena results "
            f"file; it was left as it is: give another results file"
        )
    return row


def read_results(path: str | os.PathLike, *, repair: bool = False) -> list[dict]:
    """The result lines of ``path`` ([] when it does not exist).

    Every line must be a result line as :class:`ResultsWriter` writes it; anything else
    (another file given by mistake, a binary file, a damaged line) is a :class:`BadInput`
    naming the line, and the file is left byte for byte as it was.  The one exception is
    a last line cut short by a crash while writing (it starts like a result line and has
    no line end): it is ignored, and with ``repair`` cut off so that appending starts on
    a fresh line.  A complete last line without its line end is kept (and, with
    ``repair``, given its line end).
    """
    p = Path(path)
    if not p.exists():
        return []
    if not p.is_file():
        raise BadInput(f"{p}: not a regular file, so not an arena results file; give another results file")
    try:
        with open(p, "rb") as f:
            first = f.readline(MAX_RESULT_LINE + 1)
            # check the first line before reading the rest: a large file of something else is not read
            if first.endswith(b"\n") and first.strip():
                _result_row(p, 1, first)
            elif first.strip() and not first.startswith(RESULT_LINE_START):
                raise BadInput(
                    f"{p}, line 1: not a tournament result line, so {p} is not an arena results "
                    f"file; it was left as it is: give another results file"
                )
            data = first + f.read()
    except OSError as e:
        raise BadInput(f"cannot read results file {p}: {e.strerror}") from None
    out = []
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: b"" when the file ends cleanly
    for number, line in enumerate(lines, 1):
        if line.strip():
            out.append(_result_row(p, number, line))
    if not tail.strip():
        return out
    number = len(lines) + 1
    try:
        whole = _result_row(p, number, tail)
    except BadInput:
        if not tail.startswith(RESULT_LINE_START) or len(tail) > MAX_RESULT_LINE:
            raise
        whole = None
    if whole is not None:
        out.append(whole)
    if repair:
        with open(p, "r+b") as f:
            if whole is None:  # cut short: drop it
                f.truncate(len(data) - len(tail))
            else:  # complete: end it
                f.seek(0, os.SEEK_END)
                f.write(b"\n")
            f.flush()
            os.fsync(f.fileno())
    return out


class ResultsWriter:
    """Appends result lines to the results file: one write, flush and fsync per line.  A line
    that cannot be written (a full disk) is one :class:`BadInput` line; the lines before it are
    kept, and a line cut short is repaired when the same command resumes."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.failed = False
        try:
            if self.path.parent and not self.path.parent.exists():
                raise BadInput(f"cannot write results to {self.path}: folder {self.path.parent} does not exist")
            self.stream = open(self.path, "a", encoding="utf-8", newline="\n")
        except OSError as e:
            raise BadInput(f"cannot write results to {self.path}: {e.strerror}") from None

    def append(self, row: dict) -> None:
        """Write one result line durably."""
        try:
            append_durably(self.stream, json.dumps(row, separators=(",", ":")) + "\n")
        except OSError as e:
            self.failed = True
            raise BadInput(
                f"cannot write results to {self.path}: {e.strerror or e}; the games recorded before are kept: "
                f"make room and run the same command again to resume"
            ) from None

    def close(self) -> None:
        """Close the file (after a failed write, whose line the close cannot flush either, quietly)."""
        try:
            self.stream.close()
        except OSError:
            if not self.failed:
                raise


# --- running ----------------------------------------------------------------------------


def _ignore_sigint() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it stops the workers itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held():
    """Hold SIGINT for this thread while the block runs (a Ctrl-C then arrives just after it)."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _run_processes(todo: list[GameTask], workers: int, record: Callable[[dict], None]) -> None:
    """Play ``todo`` in ``workers`` processes, recording each result as it arrives.  A pool
    broken by a dying worker is rebuilt (up to 3 times) and the unfinished games resubmitted."""
    pending = list(todo)
    breaks = 0
    while pending:
        broken = False
        # Ctrl-C while a worker is being spawned would cut its start-up data short and print
        # the worker's traceback: hold the signal until the workers are started.
        with _sigint_held():
            pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=_ignore_sigint)
            futures = {pool.submit(play_task, t): t for t in pending}
        try:
            not_done = set(futures)
            while not_done:
                done, not_done = wait(not_done, return_when=FIRST_COMPLETED)
                for f in done:
                    error = f.exception()
                    if error is None:
                        record(f.result())
                        pending.remove(futures[f])
                    elif isinstance(error, BrokenProcessPool):
                        broken = True
                    else:
                        raise error
        except BrokenProcessPool:
            broken = True
        except BaseException:
            _stop_pool(pool)
            raise
        _stop_pool(pool)
        if broken:
            breaks += 1
            if breaks >= 3:
                raise BadInput(
                    f"worker processes died {breaks} times; the finished games are saved: "
                    f"run the same command again to resume"
                )


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: cancel what has not started, end the workers."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(5)


def _run_ray(todo: list[GameTask], address: str, workers: int, record: Callable[[dict], None]) -> None:
    """Play ``todo`` as Ray tasks (``address`` ``local`` starts a local Ray with ``workers`` CPUs;
    a cluster's workers get this mancala as a runtime environment)."""
    from mancala.engine.cluster import connected  # noqa: PLC0415 (Ray loads only for --ray)

    with connected(address, workers, ship_package=True) as ray:
        remote = ray.remote(play_task)
        refs = {remote.remote(t): t for t in todo}
        try:
            waiting = list(refs)
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                for ref in done:
                    record(ray.get(ref))
        except BaseException:
            for ref in refs:
                ray.cancel(ref, force=True)
            raise


def run_tournament(
    spec: TournamentSpec,
    path: str | os.PathLike,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: bool = True,
    limit: int | None = None,
) -> list[dict]:
    """Play every game of ``spec`` not already in the results file ``path`` and return all
    of its result lines (old and new).  ``limit`` stops after that many new games."""
    if len(spec.players) < 2:
        raise BadInput("a tournament needs at least two players")
    if len(set(spec.players)) != len(spec.players):
        raise BadInput("each player may be named once in a tournament")
    game = make_game(spec.game)
    for p in spec.players:
        player = make_player(p)
        if player.spec == "human":
            raise BadInput("a tournament is between AIs; 'human' cannot play in it")
        check = getattr(player, "check_game", None)
        if check is not None:
            check(game)
    if workers is None:
        workers = os.cpu_count() or 1
    if workers < 1 or workers > 1024:
        raise BadInput(f"--workers must be 1-1024, got {workers}")
    existing = read_results(path, repair=True)
    done_keys = {r["key"] for r in existing if r.get("game") == spec.game and r.get("seed") == spec.seed}
    openings = make_openings(game, spec.openings, spec.plies, spec.balance, spec.seed)
    tasks = make_tasks(spec, openings)
    todo = [t for t in tasks if t.key not in done_keys]
    if limit is not None:
        todo = todo[:limit]
    results = list(existing)
    writer = ResultsWriter(path)
    bar = None
    old_term = _on_sigterm_interrupt()
    try:
        if progress:
            from rich.console import Console  # noqa: PLC0415
            from rich.progress import (  # noqa: PLC0415
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("games"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            bar.start()
            task_id = bar.add_task(f"arena {spec.game}", total=len(tasks), completed=len(tasks) - len(todo))

        def record(row: dict) -> None:
            writer.append(row)
            results.append(row)
            if bar is not None:
                bar.advance(task_id)

        if not todo:
            pass
        elif ray_address:
            _run_ray(todo, ray_address, workers, record)
        elif workers == 1 or len(todo) == 1:
            for t in todo:
                record(play_task(t))
        else:
            _run_processes(todo, min(workers, len(todo)), record)
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        if bar is not None:
            bar.stop()
        writer.close()
    return results


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _on_sigterm_interrupt():
    """Make SIGTERM stop a run the way Ctrl-C does (workers ended, finished games kept);
    returns the previous handler (None off the main thread, where signals cannot be set)."""
    import threading  # noqa: PLC0415

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_interrupt)


def comparable(row: dict) -> dict:
    """A result line without what depends on where and when it ran (times, machine)."""
    return {k: v for k, v in row.items() if k not in ("seconds", "game_seconds", "machine")}


__all__ = [
    "TournamentSpec",
    "Opening",
    "GameTask",
    "make_openings",
    "make_tasks",
    "play_task",
    "judge",
    "read_results",
    "ResultsWriter",
    "run_tournament",
    "comparable",
    "game_key",
    "JUDGE_DEPTH",
    "PlayerFailed",
    "machine",
]
