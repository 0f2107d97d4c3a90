"""Kalah's endgame databases built on a Ray cluster, byte for byte the single machine's.

The database (:mod:`mancala.engine.endgame`) is solved level by level: level ``s`` holds the
positions with ``s`` seeds in the pits, and a move either keeps every seed in the pits or sends
some to a store, which leaves a smaller level.  The levels form the tiers here: a tier needs
only the tiers below it, finished.

A tier splits into shards with no work shared between them.  A move that keeps its level
sows only inside the mover's row (reaching the opponent's row means passing the mover's store,
and a capture empties pits into it), so it keeps the number of seeds in each row and then hands
the board over: a position whose rows hold ``a`` and ``s - a`` seeds leads, within its level,
only to positions whose rows hold ``s - a`` and ``a``.  Shard ``(s, a)`` (``a <= s - a``) is the
positions with ``a`` seeds in one row and ``s - a`` in the other; it is solved alone, by the
same kernel as the single-machine builder (:func:`endgame.solve_shard_kernel`), its lower-level answers read
from the finished tiers below, which reach every worker through Ray's object store.  A level of
``s`` seeds has ``s // 2 + 1`` shards, their sizes ``C(a+n-1, n-1) * C(s-a+n-1, n-1)`` (twice
that when ``a < s - a``).

The driver keeps every finished shard in a file (checksummed, written atomically) beside the
database, so a build that stops, Ctrl-C or a killed driver, resumes from the shards it has; a
worker killed mid-shard has its shard run again by Ray.  When every tier is in, the driver packs
the levels exactly as :func:`mancala.engine.endgame.build` does and saves the same file with the
same checksum, then removes the shard files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mancala import jsonread
from mancala.atomic import StagedFile
from mancala.engine import endgame
from mancala.engine.kernels import (
    R_CHOICE,
    R_PITS,
    composition_table,
)
from mancala.errors import BadInput

if TYPE_CHECKING:
    from mancala.engine.split_proof import Journal

SHARD_MAGIC = b"MANCALA-SHARD-1\n"
#: a shard's scratch entry not solved yet
UNKNOWN = endgame.UNKNOWN


# --- shards: see :mod:`mancala.engine.endgame` for their numbering and kernels -----------------


def solve_shard(rules_arr: np.ndarray, k: int, s: int, a: int, packed: np.ndarray) -> np.ndarray:
    """Shard ``(s, a)`` of the ``k``-seed database, solved: its values (signed bytes) in the
    shard's own order.  ``packed`` holds the levels below ``s``, as the database packs them.
    A pure function of its arguments: what a Ray task runs."""
    n = int(rules_arr[R_PITS])
    cur = np.full(endgame.shard_size(n, s, a), UNKNOWN, dtype=np.int8)
    endgame.fill_shard(
        rules_arr, s, a, packed, endgame.value_bits(k), endgame._offsets(n, k), composition_table(2 * n, k), cur
    )
    return cur


# --- shard files -----------------------------------------------------------------------------


def shard_folder(key: tuple, k: int) -> Path:
    """Where a distributed build of the ``k``-seed database for play rules ``key`` keeps its
    finished shards until the database is saved."""
    return endgame.cache_dir() / (endgame.file_name(key, k)[: -len(".db")] + ".shards")


def _shard_path(folder: Path, s: int, a: int) -> Path:
    return folder / f"level{s:03d}-shard{a:03d}.part"


def save_shard(folder: Path, key: tuple, s: int, a: int, values: np.ndarray) -> None:
    """Keep a finished shard (atomically: a shard file is whole or absent)."""
    meta = {
        "rules": list(key),
        "level": s,
        "shard": a,
        "entries": int(values.size),
        "sha256": hashlib.sha256(values.data).hexdigest(),
    }
    folder.mkdir(parents=True, exist_ok=True)
    with StagedFile(_shard_path(folder, s, a), binary=True) as staged:
        staged.stream.write(SHARD_MAGIC + json.dumps(meta, sort_keys=True).encode() + b"\n")
        staged.stream.write(values.data)
        staged.commit()


def load_shard(folder: Path, key: tuple, pits: int, s: int, a: int) -> np.ndarray | None:
    """A kept shard if its file is whole and its checksum holds; else None (solved again)."""
    size = endgame.shard_size(pits, s, a)
    try:
        with jsonread.open_regular(_shard_path(folder, s, a)) as f:
            if f.read(len(SHARD_MAGIC)) != SHARD_MAGIC:
                return None
            meta = jsonread.loads(f.readline(1 << 16))
            if meta.get("rules") != list(key) or meta.get("level") != s or meta.get("shard") != a:
                return None
            if meta.get("entries") != size or os.fstat(f.fileno()).st_size - f.tell() != size:
                return None
            return endgame.read_payload(f, size, meta.get("sha256"), np.empty(size, dtype=np.int8))
    except (OSError, ValueError, AttributeError, TypeError):
        return None


# --- the driver ------------------------------------------------------------------------------


@dataclass
class BuildReport:
    """What a distributed build did: shards solved on the cluster and taken from files."""

    database: endgame.Database
    solved: int = 0
    resumed: int = 0
    workers: int = 0
    seconds: float = 0.0


def shard_memory(pits: int, k: int, s: int, a: int) -> int:
    """Bytes a worker holds for shard ``(s, a)``: the packed database (levels below ``s``) and
    the shard's scratch and result."""
    return endgame.nbytes(pits, k) + 2 * endgame.shard_size(pits, s, a) + (1 << 20)


def build_on_ray(
    ray,
    key: tuple,
    rules_arr: np.ndarray,
    k: int,
    *,
    memory: int | None = None,
    say: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build the ``k``-seed database for play rules ``key`` on the Ray cluster ``ray`` is
    connected to, keep it in the cache, and return it with what was done.  ``memory``: the most
    bytes a worker may hold for one shard (refused in one line before any work when a shard
    needs more).  ``say`` gets a line of progress a level."""
    n = int(rules_arr[R_PITS])
    if rules_arr[R_CHOICE]:
        raise BadInput("no endgame database under the choice-of-direction rule")
    began = time.perf_counter()
    path = endgame.cache_dir() / endgame.file_name(key, k)
    found = endgame.load(path, key, k)
    if found is not None and found.size == endgame.nbytes(n, k):
        db = endgame.Database(k, found, endgame._offsets(n, k), composition_table(2 * n, k), path)
        return BuildReport(db, seconds=time.perf_counter() - began)
    biggest = max(shard_memory(n, k, k, a) for a in range(k // 2 + 1))
    if memory is not None and biggest > memory:
        raise BadInput(
            f"the {k}-seed database needs {biggest / 2**30:.2f} GiB a worker for its largest shard, "
            f"more than --memory {memory / 2**30:.2f} GiB; give fewer seeds or more memory"
        )
    room = max((node["Resources"].get("memory", 0) for node in ray.nodes() if node.get("Alive")), default=0)
    if room and biggest > room:
        raise BadInput(
            f"the {k}-seed database needs {biggest / 2**30:.2f} GiB a worker for its largest shard; "
            f"the Ray cluster's largest node offers {room / 2**30:.2f} GiB"
        )
    offsets = endgame._offsets(n, k)
    comp = composition_table(2 * n, k)
    bits = int(endgame.value_bits(k))
    values = np.zeros(endgame.nbytes(n, k), dtype=np.uint8)
    first = 0
    for smaller in range(k - 1, 0, -1):  # a cached smaller database of the same width: its levels
        if endgame.value_bits(smaller) != bits:
            break
        base = endgame.load(endgame.cache_dir() / endgame.file_name(key, smaller), key, smaller)
        if base is not None and base.size == endgame.nbytes(n, smaller):
            values[: base.size - 1] = base[:-1]
            first = smaller + 1
            break
    folder = shard_folder(key, k)
    remote = ray.remote(max_retries=8)(solve_shard)
    report = BuildReport(endgame.Database(k, values, offsets, comp), workers=_cluster_cpus(ray))
    total = int(offsets[-1] - offsets[first])

    def place(cur: np.ndarray, s: int, a: int) -> None:
        if endgame.pack_shard(cur, values, offsets[s], n, s, a, comp, bits):  # pragma: no cover - a bug
            raise RuntimeError(f"distributed endgame build: shard ({s}, {a}) has unsolved entries")

    done = 0
    for s in range(first, k + 1):
        size = int(offsets[s + 1] - offsets[s])
        todo = []
        for a in endgame.level_shards(s):
            kept = load_shard(folder, key, n, s, a)
            if kept is not None:
                place(kept, s, a)
                report.resumed += 1
            else:
                todo.append(a)
        if todo:
            lower = ray.put(values)  # the finished levels, to every worker once
            refs = {remote.options(memory=shard_memory(n, k, s, a)).remote(rules_arr, k, s, a, lower): a for a in todo}
            waiting = list(refs)
            try:
                while waiting:
                    ready, waiting = ray.wait(waiting, num_returns=1)
                    for ref in ready:
                        a = refs[ref]
                        cur = ray.get(ref)
                        save_shard(folder, key, s, a, cur)
                        place(cur, s, a)
                        report.solved += 1
            except BaseException:
                for ref in waiting:
                    ray.cancel(ref, force=True)
                raise
            del lower
        done += size
        if say is not None:
            say(
                f"level {s}/{k}: {size:,} positions in {len(endgame.level_shards(s))} shards "
                f"({len(todo)} solved, {len(endgame.level_shards(s)) - len(todo)} kept); "
                f"{done:,}/{total:,} of the build, {time.perf_counter() - began:.1f} s"
            )
    endgame.save(path, key, k, values)
    shutil.rmtree(folder, ignore_errors=True)
    report.database.path = path
    report.database.built = True
    report.seconds = time.perf_counter() - began
    return report


def _cluster_cpus(ray) -> int:
    return int(ray.cluster_resources().get("CPU", 0))


def stderr_line(text: str) -> None:
    """A progress line on stderr (flushed: a build's log is read while it runs)."""
    print(text, file=sys.stderr, flush=True)


# --- distributed proofs ------------------------------------------------------------------------


def prove_task(spec: str, position: dict, k: int, packed: np.ndarray) -> tuple[int, int, float]:
    """A Ray task of a distributed proof: the exact value (for its mover) and nodes of the
    position ``position`` of the game ``spec``, with the ``k``-seed database ``packed`` the
    driver shipped (every worker reads the same one).  Pure data in, data out."""
    from mancala.engine import solver, tables  # noqa: PLC0415 (a worker's imports)
    from mancala.engine.split_proof import state_from_data  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    began = time.perf_counter()
    game: Any = make_game(spec)  # a Kalah spec: the driver sent its own game's
    state = state_from_data(position)
    n = game.rules.pits
    values = np.array(packed)  # writable, as the engine's kernels are compiled for
    tables.install_database(game, endgame.Database(k, values, endgame._offsets(n, k), composition_table(2 * n, k)))
    value, nodes = solver.prove(game, state, endgame_seeds=k)
    return value, nodes, time.perf_counter() - began


@dataclass
class DistributedProof:
    """A distributed proof's answer: the exact value for the player to move, a best move, the
    value of each of the root's moves (for the root's mover), tasks, nodes and time."""

    value: int
    move: object
    move_values: dict
    tasks: int
    nodes: int
    seconds: float
    setup_seconds: float
    workers: int


def solve_on_ray(
    ray,
    game,
    state,
    *,
    plies: int | None = None,
    endgame_seeds: int | None = None,
    say: Callable[[str], None] | None = None,
    journal: Journal | None = None,
) -> DistributedProof:
    """Prove ``state`` of the Kalah game ``game`` on the Ray cluster ``ray`` is connected to,
    every worker reading the one database it gets from the object store (built on the
    cluster when missing).  With ``plies``, the positions that many moves below the root are
    proved exactly, one Ray task each, and combined by negamax: every root move's exact
    value.  Without, MTD(f) runs at the root here, each null-window pass split over the
    workers by root move (:func:`mtdf_on_ray`): the value and a best move, with far fewer
    nodes; a root under a first-move rule (the pie rule, no extra turn on the first move)
    takes the split of one move.  ``journal`` (with ``plies``): the split's sub-proofs recorded
    there as they return, and those it holds not sent again."""
    if state.finished:
        raise BadInput("that position is already finished: there is nothing to solve")
    if plies is not None and not 1 <= plies <= 4:
        raise BadInput(f"--split-plies must be 1-4, got {plies}")
    if journal is not None and plies is None:
        plies = journal.contents.header["plies"]
    began = time.perf_counter()
    k, db, packed = _proof_database(ray, game, state, endgame_seeds, say)
    if plies is None:
        database_seconds = time.perf_counter() - began
        proof = mtdf_on_ray(ray, game, state, k, db, packed, say)
        if proof is not None:
            proof.seconds = time.perf_counter() - began
            proof.setup_seconds += database_seconds
            return proof
        plies = 1
    return split_on_ray(ray, game, state, plies, k, packed, began, say, journal)


def _proof_database(ray, game, state, endgame_seeds: int | None, say) -> tuple[int, endgame.Database, Any]:
    """(K, the database, its object in the store) for a distributed proof of ``state``."""
    from mancala.engine import bridge  # noqa: PLC0415
    from mancala.engine.tables import proof_seeds  # noqa: PLC0415

    rules_arr = bridge.rules_array(game.rules)
    if rules_arr[R_CHOICE]:
        raise BadInput("a distributed proof needs an endgame database: not under the choice-of-direction rule")
    seeds = sum(state.row(0)) + sum(state.row(1))
    key = bridge.play_key(game.rules)
    if endgame_seeds is None:
        endgame_seeds = proof_seeds(game, seeds)
    k = min(endgame_seeds, seeds)
    db = build_on_ray(ray, key, rules_arr, k, say=say).database
    return k, db, ray.put(db.values)


def split_on_ray(
    ray, game, state, plies: int, k: int, packed, began: float, say, journal: Journal | None = None
) -> DistributedProof:
    """The positions ``plies`` moves below the root (extra turns count as moves:
    :func:`mancala.engine.split_proof.split_tree`) proved exactly as Ray tasks, each recorded in
    ``journal`` as it returns (the sub-proofs it already holds exactly are not sent), and
    combined by minimax (:func:`mancala.engine.split_proof.combine`: the pie rule's swap as
    :func:`mancala.engine.solver.solve` treats it)."""
    from mancala.engine.split_proof import best_move, combine, split_tree, state_data  # noqa: PLC0415
    from mancala.games import spec_of  # noqa: PLC0415

    setup = time.perf_counter() - began
    root, leaves = split_tree(game, state, plies)
    values: dict[str, tuple[float, float]] = {}
    if journal is not None:
        values = {key: iv for key, iv in journal.contents.entries.items() if iv[0] == iv[1] and key in leaves}
    todo = [key for key in leaves if key not in values]
    spec = spec_of(game)
    remote = ray.remote(max_retries=8)(prove_task)
    refs = {remote.remote(spec, state_data(leaves[key]), k, packed): key for key in todo}
    waiting = list(refs)
    nodes = 0
    try:
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                key = refs[ref]
                value, spent, seconds = ray.get(ref)
                values[key] = (float(value), float(value))
                nodes += spent
                if journal is not None:
                    journal.record(key, leaves[key], values[key], spent, seconds)
                if say is not None:
                    say(
                        f"sub-proof {len(leaves) - len(waiting)}/{len(leaves)} "
                        f"({len(leaves) - len(todo)} from the journal): {value:+d}; "
                        f"{time.perf_counter() - began:.1f} s in all"
                    )
    except BaseException:
        for ref in waiting:
            ray.cancel(ref, force=True)
        raise
    (lo, _), moves = combine(game, root, lambda key, s, a, b: values[key], prune=False)
    move = best_move(state, moves)
    moves = {m: moves[m] for m in game.legal_moves(state) if m in moves}  # (in the moves' order)
    if journal is not None and journal.contents.result is None:
        journal.finish(int(lo), move, moves)
    return DistributedProof(
        value=int(lo),
        move=move,
        move_values={m: int(v) for m, (v, _) in moves.items()},
        tasks=len(todo),
        nodes=nodes,
        seconds=time.perf_counter() - began,
        setup_seconds=setup,
        workers=_cluster_cpus(ray),
    )


class ProofWorker:
    """A Ray actor of a distributed MTD(f) proof: it holds the database and a transposition
    table for the whole proof, and answers null-window tests of the root moves' positions
    given to it (each position always to the same worker, so its table serves every pass)."""

    def __init__(self, spec: str, k: int, database: list) -> None:
        """``database``: the database's object reference, in a list (the actor fetches it, so a
        restarted actor fetches it again)."""
        import ray  # noqa: PLC0415 (a worker's imports)

        from mancala.engine import tables  # noqa: PLC0415
        from mancala.games import make_game  # noqa: PLC0415

        packed = ray.get(database[0])
        game: Any = make_game(spec)  # a Kalah spec: the driver sent its own game's
        self.game = game
        n = game.rules.pits
        values = np.array(packed)  # writable, as the engine's kernels are compiled for
        tables.install_database(game, endgame.Database(k, values, endgame._offsets(n, k), composition_table(2 * n, k)))
        self.k = k
        self.searchers: dict = {}

    def test(self, board: list[int], beta: int) -> tuple[int, int]:
        """A full-depth null-window test at ``beta`` of the position ``board`` (mover-relative,
        stores empty): (fail-soft value for its mover, nodes it took)."""
        from mancala.engine.searcher import Searcher  # noqa: PLC0415
        from mancala.engine.solver import SOLVE_HW, SOLVE_TTMIN, solve_table_megabytes  # noqa: PLC0415
        from mancala.games.kalah import KalahState  # noqa: PLC0415

        key = tuple(board)
        searcher = self.searchers.get(key)
        if searcher is None:
            state = KalahState(board=key, seat=0, ply=2, turns=2)
            searcher = Searcher(
                self.game,
                state,
                db_seeds=self.k,
                hw=SOLVE_HW,
                ttmin=SOLVE_TTMIN,
                megabytes=solve_table_megabytes(sum(board)),
            )
            self.searchers[key] = searcher
        before = searcher.nodes
        value = searcher.null_window(beta)
        return value, searcher.nodes - before


def mtdf_on_ray(ray, game, state, k: int, db: endgame.Database, packed, say) -> DistributedProof | None:
    """MTD(f) at the root of ``state``, here; each null-window pass's refutations of the root
    moves (extra-turn chains followed, as :meth:`mancala.engine.searcher.Searcher.run_parallel`
    splits them over threads) are tests run by :class:`ProofWorker` actors, one a CPU of the
    cluster.  The first guess comes from a short iterative deepening here.  None under a
    first-move rule (the root's moves are then not plain refutations)."""
    from mancala.engine import bridge, tables  # noqa: PLC0415
    from mancala.engine.search import BIG  # noqa: PLC0415
    from mancala.engine.searcher import Searcher  # noqa: PLC0415
    from mancala.engine.solver import GUESS_DEPTH, GUESS_NODES, SOLVE_HW, SOLVE_TTMIN  # noqa: PLC0415
    from mancala.games import spec_of  # noqa: PLC0415

    began = time.perf_counter()
    tables.install_database(game, db)
    searcher = Searcher(game, state, db_seeds=k, hw=SOLVE_HW, ttmin=SOLVE_TTMIN)
    tasks = searcher.root_tasks()
    if tasks is None:
        return None
    g, code, exact = 0, -1, False
    for depth in range(1, GUESS_DEPTH + 1):  # the first guess, as the solver makes it
        before = searcher.nodes
        g, code, _, exact = searcher.run(depth, g)
        if exact or searcher.nodes - before > GUESS_NODES:
            break
    nodes = searcher.nodes
    setup = time.perf_counter() - began
    workers = max(1, _cluster_cpus(ray))
    passes = 0
    if not exact:
        live = [(c, gain, board) for c, gain, board in tasks if board is not None]
        ended = [(c, gain) for c, gain, board in tasks if board is None]
        actor = ray.remote(num_cpus=1, max_restarts=4, max_task_retries=4)(ProofWorker)
        spec = spec_of(game)
        actors = [actor.remote(spec, k, [packed]) for _ in range(min(workers, len(live)) or 1)]
        lo, hi = -BIG, BIG
        try:
            while lo < hi:
                beta = g if g > lo + 1 else lo + 1
                best, move = max(ended, key=lambda t: t[1], default=(-1, -BIG))[::-1]
                refs = [
                    actors[i % len(actors)].test.remote([int(x) for x in board], gain - beta + 1)
                    for i, (_, gain, board) in enumerate(live)
                ]
                for (c, gain, _), (r, spent) in zip(live, ray.get(refs), strict=True):
                    nodes += spent
                    if gain - r > best:
                        best, move = gain - r, c
                passes += 1
                g = best
                if g < beta:
                    hi = g
                else:
                    lo, code = g, move
                if say is not None:
                    say(
                        f"pass {passes} at {searcher.acc + beta:+d}: bounds {_bound(lo, searcher.acc)}..{_bound(hi, searcher.acc)}"
                    )
        finally:
            for a in actors:
                ray.kill(a)
    value = searcher.acc + g
    best_move = bridge.code_move(game, code)
    return DistributedProof(
        value=value,
        move=best_move,
        move_values={best_move: value},
        tasks=passes,
        nodes=nodes,
        seconds=time.perf_counter() - began,
        setup_seconds=setup,
        workers=workers,
    )


def _bound(v: int, acc: int) -> str:
    from mancala.engine.search import BIG  # noqa: PLC0415

    return "-inf" if v <= -BIG else "+inf" if v >= BIG else f"{acc + v:+d}"
