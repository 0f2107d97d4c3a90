"""Kalah's endgame database built on one machine and on a Ray cluster of this machine, side by
side in one run: wall time, positions per second (per worker), the Ray build's overhead against
the single-machine builder at equal cores (goal: within 20 %), 1 against 2 workers; every
build's file checked byte for byte against the first.  With ``--proof``, a solve on one
machine (2 threads) against the same proof on the cluster (MTD(f), passes split over 2 workers).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_distributed.py --seeds 16 --rounds 3

The cluster is a Ray head (no CPU) and worker nodes of one CPU each, started here
(``ray.cluster_utils.Cluster``): the same processes and object store a cluster of machines
uses, without the network.  Runs are interleaved (single 1 thread, Ray 1 worker, single 2
threads, Ray 2 workers, again), each into a fresh cache; measure on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from mancala.engine import bridge, distributed, endgame, solver
from mancala.games import make_game


def single(rules_arr, key, k: int, threads: int, cache: Path) -> tuple[float, bytes]:
    """One single-machine build of ``threads`` threads: (seconds, the file's bytes)."""
    os.environ["MANCALA_BUILD_THREADS"] = str(threads)
    began = time.perf_counter()
    db = endgame.build(rules_arr, k)
    seconds = time.perf_counter() - began
    path = cache / endgame.file_name(key, k)
    endgame.save(path, key, k, db.values)
    return seconds, path.read_bytes()


def on_ray(ray, rules_arr, key, k: int, cache: Path) -> tuple[float, bytes]:
    """One Ray build into the fresh cache ``cache``: (seconds of the build, the file's bytes)."""
    os.environ["MANCALA_CACHE_DIR"] = str(cache)
    report = distributed.build_on_ray(ray, key, rules_arr, k)
    assert report.database.path is not None
    return report.seconds, report.database.path.read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="kalah", help="a Kalah rule set (default: kalah, standard 6x4)")
    parser.add_argument("--seeds", type=int, default=16, help="the database's seeds (default 16)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--proof", help="also prove this game's start, e.g. 'kalah(pits=5,seeds=3)'")
    args = parser.parse_args()
    import ray
    from ray.cluster_utils import Cluster

    game = make_game(args.game)
    rules_arr, key, k = bridge.rules_array(game.rules), bridge.play_key(game.rules), args.seeds
    entries = endgame.entries(game.rules.pits, k)
    endgame.build(rules_arr, 4)  # compile before timing
    print(f"{args.game}, {k}-seed database: {entries:,} positions, {endgame.nbytes(game.rules.pits, k):,} bytes")
    print(f"load before: {os.getloadavg()[0]:.2f}")
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    nodes = [cluster.add_node(num_cpus=1)]
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    times: dict[str, list[float]] = {
        "single 1 thread": [],
        "Ray 1 worker": [],
        "single 2 threads": [],
        "Ray 2 workers": [],
    }
    reference = None
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        on_ray(ray, rules_arr, key, 6, base / "warm")  # the worker compiles (or loads) its kernels
        for r in range(args.rounds):
            for name in times:
                workers = 2 if "2" in name else 1
                if name.startswith("Ray") and len(nodes) < workers:
                    nodes.append(cluster.add_node(num_cpus=1))
                    cluster.wait_for_nodes()
                    on_ray(ray, rules_arr, key, 6, base / f"warm{r}")
                if name.startswith("Ray") and len(nodes) > workers:
                    cluster.remove_node(nodes.pop())
                    time.sleep(2)
                cache = base / f"{name.replace(' ', '-')}-{r}"
                if name.startswith("Ray"):
                    seconds, data = on_ray(ray, rules_arr, key, k, cache)
                else:
                    seconds, data = single(rules_arr, key, k, workers, cache)
                reference = reference or data
                assert data == reference, f"{name}: the file differs from the first build's"
                times[name].append(seconds)
                print(f"round {r + 1} {name}: {seconds:.2f} s  (load {os.getloadavg()[0]:.2f})", flush=True)
        best = {name: min(t) for name, t in times.items() if t}
        print()
        if args.rounds > 0:
            summarise(times, best, entries)
        if args.proof:
            while len(nodes) < 2:
                nodes.append(cluster.add_node(num_cpus=1))
                cluster.wait_for_nodes()
            prove(ray, args.proof)
    ray.shutdown()
    cluster.shutdown()


def summarise(times: dict, best: dict, entries: int) -> None:
    """The builds' table and ratios."""
    print(f"{'build':<18}{'min s':>8}{'median s':>10}{'positions/s':>14}{'per worker':>12}")
    for name, t in times.items():
        workers = 2 if "2" in name else 1
        rate = entries / best[name]
        print(f"{name:<18}{best[name]:>8.2f}{statistics.median(t):>10.2f}{rate:>14,.0f}{rate / workers:>12,.0f}")
    print("every file byte for byte the same: yes")
    print(f"Ray overhead at 1 core:  {best['Ray 1 worker'] / best['single 1 thread']:.2f}x the single machine's time")
    print(f"Ray overhead at 2 cores: {best['Ray 2 workers'] / best['single 2 threads']:.2f}x (goal: at most 1.20)")
    print(f"Ray 2 workers against 1: {best['Ray 1 worker'] / best['Ray 2 workers']:.2f}x faster")


def prove(ray, spec: str) -> None:
    """One machine's solve against the proof on the cluster, each from a fresh engine (no
    table left from the other) and a fresh cache (each builds its database)."""
    from mancala.engine import engine  # noqa: PLC0415

    game = make_game(spec)
    state = game.initial_state()
    os.environ["MANCALA_BUILD_THREADS"] = "2"
    os.environ["MANCALA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-one-")
    engine.reset()
    began = time.perf_counter()
    alone = solver.solve(game, state, progress=False)
    t_alone = time.perf_counter() - began
    os.environ["MANCALA_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-ray-")
    engine.reset()
    split = distributed.solve_on_ray(ray, game, state)
    assert split.value == alone.value
    print(
        f"proof of {spec}: value {alone.value:+d}; one machine, 2 threads: {t_alone:.2f} s "
        f"({alone.setup_seconds:.2f} s database), {alone.proof_nodes:,} nodes in the proof; "
        f"Ray, 2 workers: {split.seconds:.2f} s ({split.setup_seconds:.2f} s database and first guess), "
        f"{split.nodes:,} nodes, {split.tasks} passes: {t_alone / split.seconds:.2f}x"
    )


if __name__ == "__main__":
    main()
