"""Oware evaluation weights head to head: the engine at a fixed depth with candidate weights
against a base, from the same random openings, each opening played from both seats.  The
matches behind :data:`mancala.evaluation.oware.DEFAULT` (docs/oware.md, "Values").

Usage::

    python benchmarks/oware_match.py --base '' --candidate row=0.25 --candidate targets=-0.5
    python benchmarks/oware_match.py --base row=0.25 --candidate row=0.25,targets=-0.5 --depth 6 --openings 50

Weights are written ``name=value`` joined by commas (names: the fields of ``OwareWeights``);
an empty text is the store margin alone.  Depth budgets: the result does not depend on the
machine's speed.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.engine.oware import search as oware_search  # noqa: E402
from mancala.errors import BadInput  # noqa: E402
from mancala.evaluation.oware import OwareWeights  # noqa: E402
from mancala.games.oware import Oware, OwareState  # noqa: E402


def parse_weights(text: str) -> OwareWeights:
    """``row=0.25,targets=-0.5`` as weights (unnamed weights 0)."""
    values: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name not in OwareWeights.__dataclass_fields__:
            raise BadInput(f"unknown Oware weight {name!r}; known: {', '.join(OwareWeights.__dataclass_fields__)}")
        values[name] = float(value)
    return OwareWeights(**values)


def openings(game: Oware, count: int, plies: int, seed: int) -> list[OwareState]:
    """``count`` positions after ``plies`` random moves from the start."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(plies):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return out


def play(game: Oware, south: OwareWeights, north: OwareWeights, start: OwareState, depth: int) -> int:
    """South's final margin in a game between the two weights from ``start``."""
    searchers = [oware_search.OwareSearcher(game, w, entries=1 << 16) for w in (south, north)]
    weights = (south, north)
    state = start
    while not state.finished:
        result = oware_search.search(
            game, state, None, max_depth=depth, weights=weights[state.seat], searcher=searchers[state.seat]
        )
        state = game.apply(state, result.move)
    return game.score(state, 0)


def main(argv: list[str] | None = None) -> None:
    """Print each candidate's score and mean margin against the base."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="", help="the base weights (default: the store margin alone)")
    parser.add_argument("--candidate", action="append", required=True, help="candidate weights (repeatable)")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--openings", type=int, default=50)
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    game = Oware()
    base = parse_weights(args.base)
    starts = openings(game, args.openings, args.plies, args.seed)
    for text in args.candidate:
        weights = parse_weights(text)
        points = 0.0
        margin = 0
        for start in starts:
            for m in (play(game, weights, base, start, args.depth), -play(game, base, weights, start, args.depth)):
                points += 1.0 if m > 0 else 0.5 if m == 0 else 0.0
                margin += m
        games = 2 * len(starts)
        print(
            f"{text or 'margin'} vs {args.base or 'margin'}: {points / games:.1%} of {games}, mean margin {margin / games:+.2f}"
        )


if __name__ == "__main__":
    main()
