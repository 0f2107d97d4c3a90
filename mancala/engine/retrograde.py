"""Retrograde analysis' level steps, shared by the endgame tables of Oware
(:mod:`mancala.engine.oware.endgame`) and Togyz Kumalak (:mod:`mancala.engine.togyz.endgame`).

A tier (the positions of one count of seeds or stones on the board) is solved level by level,
``u = s, s-1, ..., 1``: at level ``u`` a position is won by ``u`` when its best exit (a move
leaving the tier, valued from the smaller tiers) is ``u`` or a move inside the tier reaches a
position lost by ``u``; it is lost by ``u`` when no move inside the tier is left unresolved
and its best exit is ``-u`` or less.  The game's own module finds each newly decided
position's predecessors inside the tier (by un-sowing) and hands them to :func:`settle`;
these steps know nothing of the game, and :func:`solve_tier` drives a whole tier through them
with the game's forward pass, predecessors and one-thread settling as callbacks.  Every array is one entry a position of the tier:
``val`` (int8, :data:`UNDECIDED` until decided), ``counter`` (moves inside the tier still
unresolved), ``best_exit`` (int8).  Each step splits the tier into ``parts`` ranges, one a
thread (numba ``prange``), so no two threads write one entry.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numba
import numpy as np
from numba import njit, prange

from mancala import jsonread
from mancala.atomic import StagedFile, write_problem
from mancala.engine.endgame import build_threads, file_header
from mancala.errors import BadInput, whole_number

#: an entry not decided yet (a margin is never below -127)
UNDECIDED = -128


@njit(cache=True, parallel=True)
def settle(won, u, out, found, count, val, counter, best_exit, parts, news, news_count):
    """Decide the predecessors of ``count`` newly decided positions (``out``/``found`` from
    :func:`predecessors`).  ``won``: those positions are won by ``u``, so each predecessor
    has one unresolved successor fewer and, with none left and no exit better than ``-u``,
    is lost by ``u``; else they are lost by ``u`` and every predecessor is won by ``u``.
    Part ``t`` of the tier is settled by thread ``t`` alone (no two threads write one
    entry); the positions it decides go to row ``t`` of ``news``."""
    size = val.shape[0]
    for t in prange(parts):
        lo = size * t // parts
        hi = size * (t + 1) // parts
        k = 0
        for i in range(count):
            for j in range(found[i]):
                q = out[i, j]
                if q < lo or q >= hi or val[q] != UNDECIDED:
                    continue
                if won:
                    counter[q] -= 1
                    if counter[q] == 0 and best_exit[q] <= -u:
                        val[q] = -u
                        news[t, k] = q
                        k += 1
                else:
                    val[q] = u
                    news[t, k] = q
                    k += 1
        news_count[t] = k


@njit(cache=True, parallel=True)
def scan_level(u, start, end, val, counter, best_exit, parts, wins, losses, counts):
    """Positions ``start..end-1`` decided at level ``u`` by their exits alone: won by ``u``
    (best exit ``u``) into row ``t`` of ``wins``, lost by ``u`` (no successor unresolved,
    best exit ``-u``) into ``losses``; ``counts[t]`` = (wins, losses) of part ``t``."""
    size = end - start
    for t in prange(parts):
        a = start + size * t // parts
        b = start + size * (t + 1) // parts
        w = 0
        lo = 0
        for q in range(a, b):
            e = best_exit[q]
            if e != u and e != -u:  # the common case, one byte read
                continue
            if val[q] != UNDECIDED:
                continue
            if e == u:
                val[q] = u
                wins[t, w] = q
                w += 1
            elif counter[q] == 0:
                val[q] = -u
                losses[t, lo] = q
                lo += 1
        counts[t, 0] = w
        counts[t, 1] = lo


@njit(cache=True, parallel=True)
def finish_tier(val, parts):
    """Every position still undecided is endless play: margin 0."""
    size = val.shape[0]
    for t in prange(parts):
        for q in range(size * t // parts, size * (t + 1) // parts):
            if val[q] == UNDECIDED:
                val[q] = 0


@njit(cache=True)
def push(stack, size, q):
    """Push ``q`` on a growable stack; returns the stack (a bigger one when it was full)."""
    if size == stack.shape[0]:
        bigger = np.empty(2 * size + 1024, dtype=stack.dtype)
        bigger[:size] = stack[:size]
        stack = bigger
    stack[size] = q
    return stack


# --- the driver of a tier (Python: it calls the game's kernels and the steps above) ---------

#: positions per call of the forward pass (Ctrl-C is seen between calls)
FORWARD_CHUNK = 1 << 22
#: positions per scan of a level
SCAN_CHUNK = 1 << 22
#: newly decided positions whose predecessors are generated together
BATCH = 1 << 17
#: fewer newly decided positions than this are settled on one thread (the game's ``serial``)
SERIAL = 1 << 15


def threads() -> int:
    """The threads a build runs on: :func:`mancala.engine.endgame.build_threads`, at most numba's."""
    return max(1, min(build_threads(), numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def joined(pieces: list[np.ndarray]) -> np.ndarray:
    """The positions of ``pieces`` in one array."""
    return np.concatenate(pieces) if pieces else np.empty(0, dtype=np.uint32)


#: ``forward(start, end, counter, best_exit)``: the forward pass over positions start..end-1
Forward = Callable[[int, int, np.ndarray, np.ndarray], None]
#: ``predecessors(front, out, found)``: row ``i`` of ``out`` gets the in-tier predecessors of
#: ``front[i]``, ``found[i]`` how many
Predecessors = Callable[[np.ndarray, np.ndarray, np.ndarray], None]
#: ``serial(won, lost, u, counter, best_exit, limit, budget) -> (won, lost)``: the game's
#: one-thread settling of small frontiers (its own un-sowing), returning those still waiting
Serial = Callable[[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, int, int], tuple[np.ndarray, np.ndarray]]


def solve_tier(
    s: int, val: np.ndarray, forward: Forward, predecessors: Predecessors, serial: Serial, width: int, parts: int
) -> int:
    """Solve the tier of ``s`` seeds or stones whose entries are ``val`` (the smaller tiers
    are known to the game's kernels): the forward pass, then the levels ``u = s … 1`` (each
    decided position's predecessors settled in batches on ``parts`` threads, small frontiers
    on one), then endless play.  ``width``: room for predecessors per position in a batch
    (more is made when one has more).  Returns the batches of predecessors generated."""
    size = val.shape[0]
    counter = np.empty(size, dtype=np.uint8)
    best_exit = np.empty(size, dtype=np.int8)
    for start in range(0, size, FORWARD_CHUNK):
        forward(start, min(size, start + FORWARD_CHUNK), counter, best_exit)
    out = np.empty((BATCH, width), dtype=np.uint32)
    found = np.empty(BATCH, dtype=np.int64)
    batches = 0

    def spread(front: np.ndarray, won: bool, u: int) -> list[np.ndarray]:
        """Settle the predecessors of the positions ``front`` (won or lost by ``u``);
        returns the positions that decides (lost or won by ``u``), in pieces."""
        nonlocal batches, out
        decided = []
        for a in range(0, front.size, BATCH):
            piece = front[a : a + BATCH]
            predecessors(piece, out, found)
            most = int(found[: piece.size].max())
            if most > out.shape[1]:  # rare: a position with more predecessors than the rows hold
                out = np.empty((BATCH, most), dtype=np.uint32)
                predecessors(piece, out, found)
            total = int(found[: piece.size].sum())
            if total == 0:
                continue
            news = np.empty((parts, total), dtype=np.uint32)
            news_count = np.zeros(parts, dtype=np.int64)
            settle(won, u, out, found, piece.size, val, counter, best_exit, parts, news, news_count)
            batches += 1
            decided += [news[t, : news_count[t]].copy() for t in range(parts) if news_count[t]]
        return decided

    for u in range(s, 0, -1):
        won: list[np.ndarray] = []
        lost: list[np.ndarray] = []
        for start in range(0, size, SCAN_CHUNK):
            end = min(size, start + SCAN_CHUNK)
            chunk = end - start
            wins = np.empty((parts, chunk // parts + 1), dtype=np.uint32)
            losses = np.empty((parts, chunk // parts + 1), dtype=np.uint32)
            counts = np.zeros((parts, 2), dtype=np.int64)
            scan_level(u, start, end, val, counter, best_exit, parts, wins, losses, counts)
            won += [wins[t, : counts[t, 0]].copy() for t in range(parts) if counts[t, 0]]
            lost += [losses[t, : counts[t, 1]].copy() for t in range(parts) if counts[t, 1]]
        while won or lost:  # rounds: the won decide losses, the lost decide wins
            waiting = sum(a.size for a in won) + sum(a.size for a in lost)
            if waiting < SERIAL:
                w, lo = serial(joined(won), joined(lost), u, counter, best_exit, 4 * SERIAL, 1 << 20)
                won, lost = [w] if w.size else [], [lo] if lo.size else []
                continue
            front_won, front_lost = joined(won), joined(lost)
            won, lost = [], []
            lost += spread(front_won, True, u)
            del front_won
            won += spread(front_lost, False, u)
            del front_lost
    finish_tier(val, parts)
    return batches


# --- tier files ------------------------------------------------------------------------------


def save_tier_file(path: Path, magic: bytes, meta: dict, payload: np.ndarray) -> Path:
    """Write one finished tier atomically: ``magic``, a JSON header (``meta``, the entries
    and the SHA-256 of the payload: :func:`mancala.engine.endgame.file_header`), the entries."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with StagedFile(path, binary=True) as staged:
        staged.stream.write(magic + file_header(meta, payload))
        staged.stream.write(payload.data)
        staged.commit()
    return path


def read_tier_file(
    path: Path, magic: bytes, meta: dict, into: np.ndarray, title: str, corrupt: type[Exception]
) -> bool:
    """Read the tier file ``path`` into ``into``: False when there is no file; raises
    ``corrupt`` (one line naming the file and what is wrong) when it is not a ``title``
    endgame table of this version (``magic``), its header differs from ``meta`` (other rules,
    convention or tier), or it is truncated or its checksum does not match."""
    try:
        f = jsonread.open_regular(path)
    except FileNotFoundError:
        return False
    except OSError as e:
        raise corrupt(f"{path}: cannot read this {title} endgame table ({e.strerror or e})") from None
    with f:
        problem = None
        try:
            if f.read(len(magic)) != magic:
                article = "an" if title[:1] in "AEIOU" else "a"
                problem = f"not {article} {title} endgame table of this version"
            else:
                found = jsonread.loads(f.readline(1 << 16))
                differs = next((k for k, v in meta.items() if found.get(k) != v), None)
                if differs is not None:
                    problem = f"its header's {differs} is not the one its name says"
                elif found.get("entries") != into.size or into.size != os.fstat(f.fileno()).st_size - f.tell():
                    problem = "truncated or the wrong size"
                elif f.readinto(into.view(np.uint8).data) != into.size:
                    problem = "truncated"
                elif found.get("sha256") != hashlib.sha256(into.data).hexdigest():
                    problem = "checksum mismatch"
        except (OSError, ValueError, AttributeError, TypeError):
            problem = "unreadable header"
    if problem:
        raise corrupt(f"{path}: corrupt {title} endgame table ({problem}); delete it and build again")
    return True


# --- a whole table: the tiers built or read, with progress -----------------------------------

#: the default memory bound of a build (``$MANCALA_DB_MEMORY`` in bytes overrides it)
DEFAULT_MEMORY = 8 << 30


def memory_limit() -> int:
    """The memory bound of a build: ``$MANCALA_DB_MEMORY`` (bytes) or :data:`DEFAULT_MEMORY`."""
    env = os.environ.get("MANCALA_DB_MEMORY", "").strip()
    return whole_number(env, "$MANCALA_DB_MEMORY (bytes)") if env else DEFAULT_MEMORY


def check_memory(what: str, need: int, memory: int | None, raise_it: str) -> None:
    """Refuse (:class:`BadInput`, one line) a build of ``what`` that needs ``need`` bytes,
    more than ``memory`` (default :func:`memory_limit`); ``raise_it`` says how to raise it."""
    bound = memory_limit() if memory is None else memory
    if need > bound:
        raise BadInput(
            f"{what} needs about {need / 2**30:.1f} GiB, more than the bound of {bound / 2**30:.1f} GiB ({raise_it})"
        )


@dataclass
class TierReport:
    """One tier of a build, for progress displays."""

    tier: int
    positions: int
    seconds: float
    #: read from the cache instead of built
    loaded: bool
    #: batches of newly decided positions whose predecessors were generated
    batches: int = 0

    def line(self) -> str:
        """``tier 8: 29,124,936 positions in 11.3 s (2.58 M positions/s)`` (or ``loaded``)."""
        if self.loaded:
            return f"tier {self.tier}: {self.positions:,} positions loaded from the cache"
        rate = self.positions / self.seconds / 1e6 if self.seconds > 0 else float("inf")
        return f"tier {self.tier}: {self.positions:,} positions in {self.seconds:.1f} s ({rate:.2f} M positions/s)"


#: ``read(tier, into) -> bool``: a tier's file into its entries (False: no file)
ReadTier = Callable[[int, np.ndarray], bool]


def build_tiers(
    values: np.ndarray,
    starts: np.ndarray,
    read: ReadTier,
    save: Callable[[int, np.ndarray], Path],
    solve: Callable[[int, int], int],
    path: Callable[[int], Path],
    title: str,
    corrupt: type[Exception],
    progress: bool | Callable[[TierReport], None] | None,
) -> None:
    """Fill ``values`` tier by tier (tier ``s`` is ``values[starts[s]:starts[s+1]]``): each
    tier is ``read`` from the cache, or, when it has no file or a ``corrupt`` one, built
    (``solve(s, threads) -> batches``, the smaller tiers in place) and ``save``\\ d at once, so
    Ctrl-C loses only the tier under way.  ``progress``: True prints a line a tier on stderr,
    or a function gets each :class:`TierReport`.  A cache that cannot be written is a
    :class:`BadInput` naming the file (``path``) and the ``title`` game's table."""
    report: Callable[[TierReport], None] | None
    if progress is True:
        report = lambda r: print(r.line(), file=sys.stderr, flush=True)  # noqa: E731
    else:
        report = progress or None
    parts = threads()
    numba.set_num_threads(parts)
    for s in range(len(starts) - 1):
        tier = values[int(starts[s]) : int(starts[s + 1])]
        began = time.perf_counter()
        try:
            loaded = read(s, tier)
        except corrupt as e:
            if report is not None:
                print(f"{e}: building it again", file=sys.stderr, flush=True)
            loaded = False
        batches = 0
        if not loaded:
            batches = solve(s, parts)
            try:
                save(s, tier)
            except OSError as e:
                raise BadInput(
                    f"cannot cache the {title} endgame table: {write_problem(path(s), e)} (or set MANCALA_CACHE_DIR)"
                ) from None
        if report is not None:
            report(TierReport(s, tier.size, time.perf_counter() - began, loaded, batches))


def read_tiers(values: np.ndarray, starts: np.ndarray, read: ReadTier) -> bool:
    """Fill ``values`` with every tier's file from the cache; False when a tier has none."""
    return all(read(s, values[int(starts[s]) : int(starts[s + 1])]) for s in range(len(starts) - 1))
