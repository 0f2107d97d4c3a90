"""Head-to-head matches between Bao evaluation settings (fixed-depth alpha-beta).

Each match plays the same set of random openings (a few random plies from the start
position, distinct positions) twice, once with each evaluation in each seat, so neither
side profits from the seat or the opening.  Usage::

    python benchmarks/bao_match.py                       # round 1: each variant against material and v1
    python benchmarks/bao_match.py --openings 150 --seed 11 --pairs default:material default:v1
    python benchmarks/bao_match.py --list

Prints one line per match: wins, losses, draws (ply limit) and the score of the first
setting with a 95% interval (normal approximation).  The figures chosen for docs/bao.md
come from this script.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.evaluation.bao import FIRST, MATERIAL, BaoWeights, make_evaluation  # noqa: E402
from mancala.games.bao import Bao  # noqa: E402
from mancala.search import alphabeta  # noqa: E402

#: the first hand-set weights; the first rounds varied one feature of these at a time
V1 = FIRST

#: the settings compared: name -> weights
SETTINGS: dict[str, BaoWeights] = {
    "material": MATERIAL,
    "v1": V1,
    "no-threats": replace(V1, threat_to_move=0.0, threat_waiting=0.0),
    "no-mobility": replace(V1, mobility=0.0),
    "no-house": replace(V1, house=0.0),
    "no-stage": replace(V1, namua_front=0.0),
    "threats-x2": replace(V1, threat_to_move=1.6, threat_waiting=0.6),
    "threats-x3": replace(V1, threat_to_move=2.4, threat_waiting=0.9),
    "back-equal": replace(V1, back=1.0),
    "back-low": replace(V1, back=0.3),
    "mobility-x3": replace(V1, mobility=0.9),
    # the three changes that scored best in round 1, together: the chosen default
    "combined": replace(V1, threat_to_move=1.6, threat_waiting=0.6, namua_front=0.0, back=1.0),
    "default": BaoWeights(),
}


def openings(game: Bao, count: int, plies: int, seed: int) -> list:
    """``count`` distinct positions reached by ``plies`` random moves from the start."""
    rng = random.Random(seed)
    seen, out = set(), []
    attempts = 0
    while len(out) < count and attempts < 100 * count:
        attempts += 1
        state = game.initial_state()
        for _ in range(plies):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state) and state not in seen:
            seen.add(state)
            out.append(state)
    return out


def play(game: Bao, state, evals, depth: int):
    """Play from ``state`` to the end; ``evals[p]`` is player p's evaluation.  Returns the winner."""
    while not game.is_terminal(state):
        result = alphabeta(game, state, depth, evals[state.player])
        state = game.apply(state, result.move)
    return game.winner(state), state.ply


def match(game: Bao, a: str, b: str, starts: list, depth: int) -> dict:
    """``a`` against ``b`` from every start, both seats."""
    ea, eb = make_evaluation(SETTINGS[a]), make_evaluation(SETTINGS[b])
    wins = losses = draws = 0
    plies = 0
    t0 = time.time()
    for state in starts:
        for a_seat in (0, 1):
            evals = (ea, eb) if a_seat == 0 else (eb, ea)
            winner, n = play(game, state, evals, depth)
            plies += n
            if winner is None:
                draws += 1
            elif winner == a_seat:
                wins += 1
            else:
                losses += 1
    games = wins + losses + draws
    score = (wins + 0.5 * draws) / games
    half = 1.96 * math.sqrt(score * (1 - score) / games)
    return dict(
        a=a,
        b=b,
        games=games,
        wins=wins,
        losses=losses,
        draws=draws,
        score=score,
        half=half,
        plies=plies / games,
        seconds=time.time() - t0,
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=3, help="search depth in turns (default 3)")
    ap.add_argument("--openings", type=int, default=50, help="distinct random openings (default 50)")
    ap.add_argument("--plies", type=int, default=6, help="random plies per opening (default 6)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument(
        "--pairs", nargs="*", help="matches as a:b (default: every setting against material and against default)"
    )
    ap.add_argument("--list", action="store_true", help="list the settings and exit")
    args = ap.parse_args(argv)
    if args.list:
        for name, w in SETTINGS.items():
            print(f"{name:12} {w}")
        return 0
    if args.pairs:
        pairs = [tuple(p.split(":")) for p in args.pairs]
    else:
        # round 1 of docs/bao.md: every variant of v1 against material and against v1
        variants = [n for n in SETTINGS if n not in ("material", "v1", "combined", "default", "threats-x3")]
        pairs = [("v1", "material")] + [(n, "material") for n in variants] + [(n, "v1") for n in variants]
    for a, b in pairs:
        if a not in SETTINGS or b not in SETTINGS:
            ap.error(f"unknown setting in {a}:{b}; known: {', '.join(SETTINGS)}")
    game = Bao()
    starts = openings(game, args.openings, args.plies, args.seed)
    print(f"depth {args.depth}, {len(starts)} openings of {args.plies} random plies, both seats")
    print(f"{'match':28} {'games':>5} {'W':>4} {'L':>4} {'D':>3} {'score':>7} {'95%':>6} {'plies':>6} {'time':>6}")
    for a, b in pairs:
        r = match(game, a, b, starts, args.depth)
        print(
            f"{a + ' vs ' + b:28} {r['games']:5d} {r['wins']:4d} {r['losses']:4d} {r['draws']:3d} "
            f"{100 * r['score']:6.1f}% {100 * r['half']:5.1f}% {r['plies']:6.1f} {r['seconds']:5.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
