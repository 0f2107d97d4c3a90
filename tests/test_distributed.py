"""Kalah's endgame databases built on a real Ray cluster (a head and two worker nodes started
here, on this machine): the file is byte for byte the single machine's, a worker killed mid-build
changes nothing, and a driver stopped by Ctrl-C resumes from the shards it kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from math import comb
from pathlib import Path

import numpy as np
import pytest

from mancala.engine import bridge, distributed, endgame
from mancala.engine.kernels import composition_table, rank
from mancala.games import make_game

ROOT = Path(__file__).resolve().parents[1]


def _rules(spec: str):
    game = make_game(spec)
    return bridge.play_key(game.rules), bridge.rules_array(game.rules)


def single_machine_file(folder: Path, spec: str, k: int) -> bytes:
    """The database file one machine builds (:func:`mancala.engine.endgame.build`)."""
    key, rules_arr = _rules(spec)
    db = endgame.build(rules_arr, k)
    path = folder / endgame.file_name(key, k)
    endgame.save(path, key, k, db.values)
    return path.read_bytes()


# --- the shards, without Ray -------------------------------------------------------------------


@pytest.mark.parametrize("pits", [1, 3, 6])
def test_a_levels_shards_are_its_positions_once_each(pits):
    k = 8
    comp = composition_table(2 * pits, k)
    board = np.zeros(2 * pits + 2, dtype=np.int64)
    for s in range(k + 1):
        ranks = []
        for a in endgame.level_shards(s):
            for li in range(endgame.shard_size(pits, s, a)):
                endgame._local_board(li, board, pits, s, a, comp)
                assert sorted({int(board[:pits].sum()), int(board[pits + 1 : -1].sum())}) == sorted({a, s - a})
                assert endgame._local_index(board, pits, s, a, comp) == li
                ranks.append(int(rank(board, pits, s, comp)))
        assert sorted(ranks) == list(range(comb(s + 2 * pits - 1, 2 * pits - 1)))


@pytest.mark.parametrize(
    "spec,k",
    [("kalah", 9), ("kalah(pits=4,seeds=3)", 12), ("kalah(preset=empty-capture,pits=5)", 9), ("kalah(pits=3)", 14)],
)
def test_shards_solved_alone_make_the_single_machine_database(spec, k, monkeypatch):
    """Every shard solved on its own, with only the levels below it, in any order: the packed
    database equals the one a single thread builds, entry for entry (the shards share no work)."""
    key, rules_arr = _rules(spec)
    n = int(rules_arr[0])
    monkeypatch.setenv("MANCALA_BUILD_THREADS", "1")
    reference = endgame.build(rules_arr, k)
    offsets, comp, bits = endgame._offsets(n, k), composition_table(2 * n, k), int(endgame.value_bits(k))
    values = np.zeros(endgame.nbytes(n, k), dtype=np.uint8)
    for s in range(k + 1):
        for a in reversed(endgame.level_shards(s)):
            lower = values.copy()
            lower.flags.writeable = False  # what a worker gets from the object store
            cur = distributed.solve_shard(rules_arr, k, s, a, lower)
            assert endgame.pack_shard(cur, values, offsets[s], n, s, a, comp, bits) == 0
    assert np.array_equal(values, reference.values)


def test_a_damaged_shard_file_is_not_used(tmp_path):
    key, _ = _rules("kalah")
    values = np.arange(endgame.shard_size(6, 4, 2), dtype=np.int64).astype(np.int8)
    distributed.save_shard(tmp_path, key, 4, 2, values)
    assert np.array_equal(distributed.load_shard(tmp_path, key, 6, 4, 2), values)
    path = next(tmp_path.glob("*.part"))
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    assert distributed.load_shard(tmp_path, key, 6, 4, 2) is None
    path.write_bytes(bytes(data[:-5]))
    assert distributed.load_shard(tmp_path, key, 6, 4, 2) is None
    assert distributed.load_shard(tmp_path, _rules("kalah(pits=5)")[0], 6, 4, 2) is None


# --- a real cluster ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    """A Ray head (no CPU: it only schedules) and two worker nodes of one CPU each; the test
    process is the driver."""
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster  # noqa: PLC0415

    if ray.is_initialized():
        ray.shutdown()
    made = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    workers = [made.add_node(num_cpus=1) for _ in range(2)]
    made.wait_for_nodes()
    ray.init(address=made.address, log_to_driver=False)
    try:
        yield made, workers, ray
    finally:
        ray.shutdown()
        made.shutdown()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cluster-cache"
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(folder))
    return folder


@pytest.mark.cluster
def test_cluster_nodes_run_this_mancala(cluster):
    from mancala.engine import cluster as connect  # noqa: PLC0415

    made, _, ray = cluster
    connect.check_versions(ray)  # raises BadInput when a node differs
    connect.check_address(made.address)  # a real cluster's address passes the probe a non-Ray service fails


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.parametrize("spec,k", [("kalah", 11), ("kalah(preset=empty-capture,pits=4)", 14)])
def test_a_database_built_on_the_cluster_is_the_single_machines(cluster, cache, tmp_path, spec, k):
    _, _, ray = cluster
    key, rules_arr = _rules(spec)
    lines: list[str] = []
    report = distributed.build_on_ray(ray, key, rules_arr, k, say=lines.append)
    assert report.database.path is not None
    assert report.database.path.read_bytes() == single_machine_file(tmp_path, spec, k)
    assert report.solved == sum(len(endgame.level_shards(s)) for s in range(k + 1)) and report.resumed == 0
    assert len(lines) == k + 1 and lines[-1].startswith(f"level {k}/{k}:")
    assert not distributed.shard_folder(key, k).exists()  # the kept shards are gone once it is saved
    again = distributed.build_on_ray(ray, key, rules_arr, k)  # built: loaded, nothing solved
    assert again.solved == 0 and np.array_equal(again.database.values, report.database.values)


def shard_workers() -> list[int]:
    """Worker processes running a shard right now (Ray names them after the task)."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if command.startswith(b"ray::solve_shard"):
                found.append(int(pid))
    return found


@pytest.mark.cluster
@pytest.mark.slow
def test_a_worker_killed_mid_build_changes_nothing(cluster, cache, tmp_path):
    _, _, ray = cluster
    key, rules_arr = _rules("kalah")
    k = 13
    outcome: dict = {}

    def build() -> None:
        try:
            outcome["report"] = distributed.build_on_ray(ray, key, rules_arr, k)
        except BaseException as e:  # surfaced below
            outcome["error"] = e

    driver = threading.Thread(target=build)
    driver.start()
    killed = None
    deadline = time.monotonic() + 300
    folder = distributed.shard_folder(key, k)
    while driver.is_alive() and killed is None and time.monotonic() < deadline:
        if any(folder.glob("level011-*")):  # the build is into its big levels
            for pid in shard_workers():
                os.kill(pid, signal.SIGKILL)
                killed = pid
                break
        time.sleep(0.02)
    driver.join(300)
    assert killed is not None, "no worker was caught running a shard"
    assert "error" not in outcome, outcome.get("error")
    assert outcome["report"].database.path.read_bytes() == single_machine_file(tmp_path, "kalah", k)


def run_driver(address: str, cache: Path, k: int) -> subprocess.Popen:
    env = dict(os.environ, MANCALA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "mancala", "db", "build", "--game", "kalah", "--seeds", str(k), "--ray", address],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.processes
@pytest.mark.cluster
@pytest.mark.slow
def test_a_stopped_driver_resumes_from_its_kept_shards(cluster, cache, tmp_path):
    made, _, _ = cluster
    key, _ = _rules("kalah")
    k = 13
    folder = distributed.shard_folder(key, k)
    first = run_driver(made.address, cache, k)
    deadline = time.monotonic() + 300
    while first.poll() is None and not any(folder.glob("level012-*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    first.send_signal(signal.SIGINT)  # Ctrl-C
    _, err = first.communicate(timeout=120)
    assert first.returncode != 0, err
    assert "the finished shards are kept" in err and "Traceback" not in err, err  # (the whole of it when not)
    kept = sorted(p.name for p in folder.glob("*.part"))
    assert len(kept) >= sum(len(endgame.level_shards(s)) for s in range(12))
    damaged = folder / kept[-1]  # a shard file cut short is solved again, not trusted
    damaged.write_bytes(damaged.read_bytes()[:-3])
    second = run_driver(made.address, cache, k)
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    resumed = int(out.split(" shards solved, ")[1].split(" resumed")[0])
    assert resumed == len(kept) - 1
    assert (cache / endgame.file_name(key, k)).read_bytes() == single_machine_file(tmp_path, "kalah", k)


@pytest.mark.processes
def test_bad_requests_are_one_line(cache):
    cases = [
        (["--game", "oware", "--seeds", "4", "--ray", "local"], "--ray builds Kalah's databases"),
        (["--game", "kalah", "--seeds", "4", "--workers", "2"], "--workers sizes a local Ray"),
        (["--game", "kalah", "--seeds", "4", "--ray", "local", "--workers", "0"], "--workers must be 1-4096"),
        (["--game", "kalah(sowing=choice)", "--seeds", "4"], "choice-of-direction"),
        (["--game", "kalah", "--seeds", "101"], "--seeds must be 0-100"),
        (["--game", "kalah", "--seeds", "30", "--memory", "0.01"], "more than --memory"),
    ]
    cases = [(["db", "build", *options], expected) for options, expected in cases] + [
        (["solve", "--pits", "3", "--seeds", "2", "--workers", "2"], "give --ray local"),
        (["solve", "--pits", "3", "--seeds", "2", "--ray", "local", "--split-plies", "9"], "--split-plies must be 1-4"),
        (["solve", "--pits", "3", "--seeds", "2", "--ray", "127.0.0.1:1"], "cannot reach a Ray cluster"),
    ]
    for options, expected in cases:
        done = subprocess.run(
            [sys.executable, "-m", "mancala", *options],
            env=dict(os.environ, MANCALA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT)),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2, (options, done.stderr)
        assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1, (options, done.stderr)


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.parametrize(
    "spec,plies",
    [
        ("kalah(pits=4,seeds=3)", 1),
        ("kalah(pits=4,seeds=3,pie_rule=true)", 2),
        ("kalah(preset=empty-capture,pits=5)", 2),
    ],
)
def test_a_proof_split_over_the_cluster_has_the_single_machines_value(cluster, cache, spec, plies):
    from mancala.engine import solver  # noqa: PLC0415

    _, _, ray = cluster
    game = make_game(spec)
    state = game.initial_state()
    if "pits=5" in spec:  # a middle game position: two moves in
        state = game.apply(game.apply(state, game.legal_moves(state)[2]), game.legal_moves(state)[0])
        state = game.apply(state, game.legal_moves(state)[0])
    proof = distributed.solve_on_ray(ray, game, state, plies=plies, endgame_seeds=8)
    alone = solver.solve(game, state, progress=False)
    assert proof.value == alone.value
    assert proof.move_values[proof.move] == proof.value or str(proof.move) == "swap"
    assert proof.tasks >= len(game.legal_moves(state)) - 1
    for move, value in proof.move_values.items():  # each root move's value, proved alone too
        child = game.apply(state, move)
        if not child.finished:
            got = solver.solve(game, child, progress=False).value
            assert value == (got if game.to_move(child) == game.to_move(state) else -got)


@pytest.mark.cluster
@pytest.mark.slow
def test_a_split_on_the_cluster_finishes_a_journal_begun_on_one_machine(cluster, cache, tmp_path):
    """A split proof stopped here after three sub-proofs, finished on the cluster: only the
    sub-proofs the journal does not hold exactly are sent, each recorded as it returns, and the
    journal checks to the single machine's value."""
    from mancala.engine import solver, split_proof  # noqa: PLC0415

    _, _, ray = cluster
    game = make_game("kalah(preset=empty-capture,pits=4,seeds=3)")
    state = game.initial_state()
    path = tmp_path / "proof.journal"
    journal = split_proof.Journal.open(path, split_proof.journal_header(game, state, 2))
    with pytest.raises(split_proof.SplitStopped):
        split_proof.prove_split(game, state, 2, journal=journal, stop=lambda proved: proved >= 3)
    exact = sum(lo == hi for lo, hi in journal.contents.entries.values())
    _, leaves = split_proof.split_tree(game, state, 2)
    proof = distributed.solve_on_ray(ray, game, state, plies=2, endgame_seeds=8, journal=journal)
    journal.close()
    alone = solver.solve(game, state, progress=False)
    assert proof.value == alone.value and proof.tasks == len(leaves) - exact
    report = split_proof.check_journal(path)
    assert report.recorded == alone.value and report.records == 3 + proof.tasks


@pytest.mark.cluster
@pytest.mark.slow
@pytest.mark.parametrize("spec", ["kalah(pits=5,seeds=3)", "kalah(preset=empty-capture,pits=4,seeds=4)"])
def test_mtdf_with_its_passes_split_over_the_cluster_has_the_single_machines_value(cluster, cache, monkeypatch, spec):
    """A first guess cut short (so the passes run on the workers, not in the guess): the
    value and a best move that keeps it, as one machine proves them."""
    from mancala.engine import solver  # noqa: PLC0415

    _, _, ray = cluster
    monkeypatch.setattr(solver, "GUESS_NODES", 50)
    monkeypatch.setattr(solver, "GUESS_DEPTH", 2)
    game = make_game(spec)
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[1])
    lines: list[str] = []
    proof = distributed.solve_on_ray(ray, game, state, endgame_seeds=8, say=lines.append)
    alone = solver.solve(game, state, progress=False)
    assert proof.value == alone.value and proof.tasks >= 1 and any(line.startswith("pass 1 at") for line in lines)
    after = game.apply(state, proof.move)
    if after.finished:
        assert game.score(after, game.to_move(state)) == proof.value
    else:
        got = solver.solve(game, after, progress=False).value
        assert (got if game.to_move(after) == game.to_move(state) else -got) == proof.value


@pytest.mark.processes
def test_kalah_db_build_and_check_on_one_machine(cache):
    """``mancala db build --game kalah`` writes the engine's database; ``db check`` passes it and
    refuses it, in one line, once a byte of it is changed."""

    def db(*options: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "mancala", "db", *options, "--game", "kalah(pits=4)", "--seeds", "9"],
            env=dict(os.environ, MANCALA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT)),
            capture_output=True,
            text=True,
            timeout=300,
        )

    built = db("build", "--no-progress")
    assert built.returncode == 0 and "built on this machine" in built.stdout, built.stderr
    key, rules_arr = _rules("kalah(pits=4)")
    path = cache / endgame.file_name(key, 9)
    assert path.read_bytes()[-100:] == single_machine_file(cache.parent, "kalah(pits=4)", 9)[-100:]
    checked = db("check", "--sample", "5000")
    assert checked.returncode == 0 and "checked" in checked.stdout, checked.stderr
    data = bytearray(path.read_bytes())
    data[-50] ^= 0x10
    path.write_bytes(bytes(data))
    refused = db("check")
    assert refused.returncode == 2 and "no intact Kalah endgame database" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


@pytest.mark.processes
@pytest.mark.cluster
@pytest.mark.slow
def test_mancala_solve_on_the_cluster_prints_the_value(cluster, cache):
    made, _, _ = cluster
    env = dict(os.environ, MANCALA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "mancala", "solve", "--pits", "4", "--seeds", "3", "--ray", made.address]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "value: +6 for South" in done.stdout and "best move: 2" in done.stdout  # Kalah(4,3) = +6
    split = subprocess.run([*command, "--split-plies", "1"], env=env, capture_output=True, text=True, timeout=300)
    assert split.returncode == 0, split.stderr
    assert "moves: 1 -6  2 +6  3 +2  4 -2" in split.stdout
