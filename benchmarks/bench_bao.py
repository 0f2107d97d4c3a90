"""The fast Bao engine against the reference search, measured side by side in one run.

1. Speed: nodes per second of the reference alpha-beta (``mancala.search.alphabeta``
   with ``bao_eval``, what ``hard`` and ``best`` ran before the engine) and of the
   engine (``mancala.engine.bao.search``, iterative deepening to depth 8), on the same
   positions, and their ratio; also the time each needs to finish the same depth.
2. ``hard`` (depth 8): the depth it completes and its time from each position.
3. Strength: a match, old ``best`` (reference iterative deepening) against new ``best``
   (the engine) at the same time per move, from the same random openings, each side
   playing each opening from both seats.

Usage::

    python benchmarks/bench_bao.py                       # all three, 50 openings (100 games), 0.1 s a move
    python benchmarks/bench_bao.py --openings 10 --seconds 0.2
    python benchmarks/bench_bao.py --skip-match

Times are wall-clock: on a shared machine say how loaded it was with the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.progress import Progress  # noqa: E402

from mancala.engine.bao import search as bao_search  # noqa: E402
from mancala.evaluation.bao import evaluate  # noqa: E402
from mancala.games.bao import Bao  # noqa: E402
from mancala.players import LEVEL_SECONDS, LEVELS, make_player  # noqa: E402
from mancala.search import alphabeta  # noqa: E402
from mancala.search.deepening import iterative_deepening  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bao_match import openings  # noqa: E402


def sample_positions(game: Bao, count: int, seed: int) -> list:
    """Half from engine self-play games (depth 4) after random 4-ply openings, one every
    9 plies (namua and mtaji alike); half from random games, the positions with the most
    legal moves (Bao's widest)."""
    rng = random.Random(seed)
    out = []
    while len(out) < (count + 1) // 2:
        state = game.initial_state()
        for _ in range(4):
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        while not game.is_terminal(state) and len(out) < (count + 1) // 2:
            if state.ply % 9 == 0:
                out.append(state)
            state = game.apply(state, bao_search.search(game, state, None, max_depth=4).move)
    wide = []
    for _ in range(100):
        state = game.initial_state()
        while not game.is_terminal(state):
            moves = game.legal_moves(state)
            wide.append((len(moves), rng.random(), state))
            state = game.apply(state, rng.choice(moves))
    wide.sort(key=lambda x: x[:2], reverse=True)
    return out + [state for _, _, state in wide[: count // 2]]


def speed(game: Bao, positions: list, ref_depth: int, depth: int) -> None:
    """Nodes per second and time to depth, reference against engine."""
    print(f"\n1. speed: reference alpha-beta to depth {ref_depth}, engine iterative deepening to depth {depth}")
    print(
        f"{'pos':>3} {'ply':>4} {'stage':6} {'moves':>5} | {'ref nodes':>9} {'ref s':>7} {'ref n/s':>8} | "
        f"{'eng nodes':>9} {'eng s':>7} {'eng n/s':>9} | eng s to depth {ref_depth}"
    )
    totals = [0, 0.0, 0, 0.0, 0.0]
    for k, state in enumerate(positions):
        t = time.perf_counter()
        ref = alphabeta(game, state, ref_depth, evaluate)
        ref_s = time.perf_counter() - t
        t = time.perf_counter()
        same = bao_search.search(game, state, None, max_depth=ref_depth)
        same_s = time.perf_counter() - t
        if same.value != ref.value and same.algorithm != "bao-engine(exact)":
            raise SystemExit(f"value mismatch at position {k}: engine {same.value}, reference {ref.value}")
        t = time.perf_counter()
        eng = bao_search.search(game, state, None, max_depth=depth)
        eng_s = time.perf_counter() - t
        stage = "namua" if state.stock[state.player] else "mtaji"
        print(
            f"{k:3d} {state.ply:4d} {stage:6} {len(game.legal_moves(state)):5d} | {ref.nodes:9d} {ref_s:7.3f} "
            f"{ref.nodes / ref_s:8.0f} | {eng.nodes:9d} {eng_s:7.3f} {eng.nodes / eng_s:9.0f} | {same_s:.4f} "
            f"({ref_s / max(same_s, 1e-9):.0f}x faster)",
            flush=True,
        )
        totals[0] += ref.nodes
        totals[1] += ref_s
        totals[2] += eng.nodes
        totals[3] += eng_s
        totals[4] += same_s
    ref_nps, eng_nps = totals[0] / totals[1], totals[2] / totals[3]
    print(
        f"all: reference {ref_nps:,.0f} nodes/s, engine {eng_nps:,.0f} nodes/s: ratio {eng_nps / ref_nps:.1f}x; "
        f"time to depth {ref_depth}: {totals[1]:.2f} s vs {totals[4]:.3f} s ({totals[1] / totals[4]:.0f}x)"
    )


def hard(game: Bao, positions: list) -> None:
    """The hard level's completed depth and time per position, before (the reference
    iterative deepening, depth 8, 15 s cap) and now (the engine)."""
    print("\n2. hard (depth 8, cap 15 s): completed depth and time per position, old (reference) and new (engine)")
    old_times, times = [], []
    for k, state in enumerate(positions):
        t = time.perf_counter()
        old = iterative_deepening(game, state, LEVEL_SECONDS["hard"], evaluate, max_depth=LEVELS["hard"])
        old_times.append(time.perf_counter() - t)
        player = make_player("hard")
        t = time.perf_counter()
        player.choose(game, state)
        dt = time.perf_counter() - t
        times.append(dt)
        print(
            f"{k:3d} ply {state.ply:3d}: old depth {old.depth} in {old_times[-1]:.2f} s; new depth "
            f"{player.last.depth} in {dt:.3f} s ({player.last.nodes} nodes, {player.last.algorithm})",
            flush=True,
        )
    print(
        f"hard: old max {max(old_times):.2f} s, mean {sum(old_times) / len(old_times):.2f} s; "
        f"new max {max(times):.3f} s, mean {sum(times) / len(times):.3f} s"
    )


def hard_sweep(game: Bao, games: int, seed: int) -> None:
    """The hard level from every position of random games: its worst and mean time."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            states.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    times = []
    shallow = 0
    with Progress() as progress:
        task = progress.add_task("hard", total=len(states))
        for state in states:
            player = make_player("hard")
            t = time.perf_counter()
            player.choose(game, state)
            times.append(time.perf_counter() - t)
            shallow += player.last.depth < 8 and player.last.algorithm != "bao-engine(exact)"
            progress.advance(task)
    times.sort()
    print(
        f"hard from all {len(times)} positions of {games} random games: mean {sum(times) / len(times):.3f} s, "
        f"99th percentile {times[int(0.99 * (len(times) - 1))]:.3f} s, max {times[-1]:.3f} s; "
        f"{shallow} stopped short of depth 8"
    )


def match(game: Bao, count: int, plies: int, seed: int, seconds: float) -> None:
    """Old best (reference iterative deepening) against new best (engine), equal time a move."""
    starts = openings(game, count, plies, seed)
    print(
        f"\n3. match at {seconds:g} s a move: new best (engine) vs old best (reference iterative deepening), "
        f"{len(starts)} openings of {plies} random plies, both seats ({2 * len(starts)} games)"
    )

    def old(state):
        return iterative_deepening(game, state, seconds, evaluate)

    def new(state):
        return bao_search.search(game, state, seconds)

    wins = losses = draws = 0
    used = {"new": [0.0, 0, 0], "old": [0.0, 0, 0]}  # seconds, moves, sum of depths
    with Progress() as progress:
        task = progress.add_task("games", total=2 * len(starts))
        for state0 in starts:
            for new_seat in (0, 1):
                state = state0
                while not game.is_terminal(state):
                    who = "new" if state.player == new_seat else "old"
                    t = time.perf_counter()
                    result = (new if who == "new" else old)(state)
                    used[who][0] += time.perf_counter() - t
                    used[who][1] += 1
                    used[who][2] += result.depth
                    state = game.apply(state, result.move)
                winner = game.winner(state)
                if winner is None:
                    draws += 1
                elif winner == new_seat:
                    wins += 1
                else:
                    losses += 1
                progress.advance(task)
    games = wins + losses + draws
    score = (wins + 0.5 * draws) / games
    half = 1.96 * math.sqrt(score * (1 - score) / games)
    print(
        f"new vs old: {games} games, {wins} wins, {losses} losses, {draws} draws: score {100 * score:.1f}% "
        f"± {100 * half:.1f}% (95%)"
    )
    for who in ("new", "old"):
        s, n, d = used[who]
        print(f"  {who}: {s / n:.3f} s a move on average, mean depth {d / n:.1f} ({n} moves)")


def main(argv=None) -> int:
    """Run the benchmark (see the module doc)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=8, help="positions for parts 1 and 2 (default 8)")
    ap.add_argument("--ref-depth", type=int, default=5, help="reference search depth in part 1 (default 5)")
    ap.add_argument("--openings", type=int, default=50, help="match openings, each played twice (default 50)")
    ap.add_argument("--plies", type=int, default=6, help="random plies per opening (default 6)")
    ap.add_argument("--seconds", type=float, default=0.1, help="match time per move (default 0.1)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--hard-games",
        type=int,
        default=10,
        help="also run hard from every position of this many random games (default 10; 0: skip)",
    )
    ap.add_argument("--skip-match", action="store_true")
    ap.add_argument("--match-only", action="store_true")
    args = ap.parse_args(argv)
    if args.positions < 1 or args.openings < 1 or args.seconds <= 0 or not 1 <= args.ref_depth <= 8:
        ap.error("positions and openings must be at least 1, seconds positive, ref-depth 1..8")
    game = Bao()
    t = time.perf_counter()
    bao_search.warm_up()
    print(f"engine ready in {time.perf_counter() - t:.1f} s (compiled or loaded from numba's cache)")
    if not args.match_only:
        positions = sample_positions(game, args.positions, args.seed)
        speed(game, positions, args.ref_depth, 8)
        hard(game, positions)
        if args.hard_games:
            hard_sweep(game, args.hard_games, args.seed)
    if not args.skip_match:
        match(game, args.openings, args.plies, args.seed, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
