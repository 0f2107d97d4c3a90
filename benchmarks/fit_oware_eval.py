"""Fit the Oware evaluation's weights to labelled positions (issue 29, item 3): a data
generator and a least-squares fitter for :class:`mancala.evaluation.oware.OwareWeights`.

Positions come from self-play games of the engine (both sides the ``best`` search with
:data:`~mancala.evaluation.oware.DEFAULT` weights at ``--play-nodes`` a move, its late move
reductions, the cache's endgame table at the root and inside the search), each from a random
opening (``--plies`` random moves from a printed ``--seed``).  Every position of a game
before it enters the table gets one of two labels, both "what the board is worth to the
player to move" (its final margin less the current store margin, the value the terms of
the evaluation estimate):

* ``exact``: a position with ``--exact-low`` .. ``--exact-high`` seeds on the board (just
  above the 18-seed table) is valued by search down to the table within ``--label-nodes``
  (:func:`exact_label`: bounds searched as :func:`mancala.engine.oware.search.prove_value`
  does, kept when they meet, dropped otherwise; the counts are printed).  A plain search's
  "exact" flag (every line ends in the table) almost never comes up here: a proven win
  found early cuts the other lines, which stay estimates;
* ``selfplay``: a position with ``--selfplay-low`` seeds or more (the middle game) is
  labelled by the game's own final margin (the engine played it on from there).

The fit: ordinary least squares, without intercept, of the label on the six terms
"mine minus the opponent's" of :func:`features` (the store margin weighs 1 and is not
fitted: it is already in the final margin).  The held-out split is by game (``--holdout``
of the games), so positions of one game are never on both sides; the report gives the
root-mean-square and mean absolute error of ``DEFAULT``'s and the fitted weights on the
held-out positions, for each label kind and both together.  ``fit-balanced`` fits both
kinds with each kind's positions weighing as much in all as the other's (the self-play
positions outnumber the exact ones many times over).

``fit-table`` fits the house table of :class:`OwareWeights` (what each house's count is worth
to the mover) with ``threat`` and ``waiting`` by ridge regression, the opponent's houses as
the negation of the mover's plus a constant for having the move (:func:`table_features`),
cross-validated by game beside ``PLAY_TERMS`` and ``PLAY``, and writes the weights as JSON
(``--out``: what ``benchmarks/oware_match.py`` takes as a candidate, and what
``mancala/evaluation/oware.py`` holds as ``PLAY``).

Usage::

    python benchmarks/fit_oware_eval.py generate --games 120 --seed 29 --out /work/scratch/fit/data.json
    python benchmarks/fit_oware_eval.py fit --data /work/scratch/fit/data.json --holdout 0.2 --seed 1 --folds 5
    python benchmarks/fit_oware_eval.py generate-search --games 150 --seed 3005 --label-nodes 150000 --out s.json
    python benchmarks/fit_oware_eval.py fit-table --data s.json --out weights.json

The dataset is JSON, written to a temporary file beside ``--out`` and renamed (atomic);
progress goes to stderr, the fit's report to stdout.  Node budgets make the data
independent of the machine's load.  Stdlib and numpy only (with the package itself).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.oware_match import random_opening  # noqa: E402
from benchmarks.script import run  # noqa: E402
from mancala.evaluation.oware import (  # noqa: E402
    DEFAULT,
    HOUSE_CAP,
    PLAY,
    PLAY_TERMS,
    TERM_NAMES,
    WIN,
    OwareWeights,
    make_evaluation,
    threat,
)
from mancala.games.oware import Oware, OwareState  # noqa: E402

#: the fitted terms, in :class:`OwareWeights` field order (the house table apart)
TERMS: tuple[str, ...] = TERM_NAMES
#: the terms fitted beside a house table (it can express the others: they are functions of one house)
TABLE_TERMS: tuple[str, ...] = ("threat", "waiting")


def features(game: Oware, state: OwareState) -> tuple[int, ...]:
    """The terms of :func:`mancala.evaluation.oware.make_evaluation` for the player to move
    of the unfinished ``state``, in :data:`TERMS` order: row, targets, kroo, empty (each
    "mine minus the opponent's"), the mover's threat and the waiting side's (negated).  The
    evaluation of the mover is the store margin plus their dot product with the weights."""
    n = len(state.houses) // 2
    p = state.seat
    q = 1 - p
    mine, theirs = state.houses[p * n : p * n + n], state.houses[q * n : q * n + n]
    row = sum(mine) - sum(theirs)
    targets = sum(1 for b in theirs if 1 <= b <= 2) - sum(1 for a in mine if 1 <= a <= 2)
    kroo = sum(1 for a in mine if a >= 12) - sum(1 for b in theirs if b >= 12)
    empty = sum(1 for b in theirs if b == 0) - sum(1 for a in mine if a == 0)
    return (row, targets, kroo, empty, threat(game.rules, state.houses, p), -threat(game.rules, state.houses, q))


def store_margin(state: OwareState) -> int:
    """The mover's store margin."""
    return state.stores[state.seat] - state.stores[1 - state.seat]


@dataclass(frozen=True)
class Sample:
    """One labelled position."""

    game: int
    kind: str
    seeds: int
    features: tuple[int, ...]
    #: what the board is worth to the mover: final margin less the store margin
    label: float
    houses: tuple[int, ...]
    stores: tuple[int, int]
    seat: int


def fit(x: np.ndarray, y: np.ndarray, sample_weights: Sequence[float] | None = None) -> np.ndarray:
    """Least-squares weights ``w`` minimising ``sum(sample_weights * (x @ w - y) ** 2)``
    (no intercept; every sample weighing 1 when ``sample_weights`` is None)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if sample_weights is not None:
        root = np.sqrt(np.asarray(sample_weights, dtype=float))
        x, y = x * root[:, None], y * root
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    return w


def errors(x: np.ndarray, y: np.ndarray, w: Sequence[float]) -> tuple[float, float]:
    """Root-mean-square and mean absolute error of ``x @ w`` against ``y`` (nan when empty)."""
    if len(y) == 0:
        return math.nan, math.nan
    r = np.asarray(x, dtype=float) @ np.asarray(w, dtype=float) - np.asarray(y, dtype=float)
    return float(np.sqrt(np.mean(r * r))), float(np.mean(np.abs(r)))


def split_games(games: Sequence[int], fraction: float, seed: int) -> set[int]:
    """The held-out games: ``fraction`` of the distinct ids in ``games``, drawn by ``seed``."""
    ids = sorted(set(games))
    rng = random.Random(seed)
    rng.shuffle(ids)
    return set(ids[: round(len(ids) * fraction)])


def weights_of(values: Sequence[float]) -> OwareWeights:
    """Weights in :data:`TERMS` order as :class:`OwareWeights` (rounded to 2 decimals: what
    a match is given)."""
    return OwareWeights(**{name: round(float(v), 2) for name, v in zip(TERMS, values)})


def weights_text(w: OwareWeights) -> str:
    """``row=0.25,targets=-0.5,...`` (``benchmarks/oware_match.py``'s form; zeros left out)."""
    return ",".join(f"{k}={v:g}" for k, v in zip(TERMS, w.as_tuple()) if v != 0.0)


def arrays(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """The samples' features and labels as arrays."""
    x = np.array([s.features for s in samples], dtype=float).reshape(len(samples), len(TERMS))
    y = np.array([s.label for s in samples], dtype=float)
    return x, y


# --- generation ---------------------------------------------------------------------------


def self_play(
    game: Oware, start: OwareState, nodes: int, table: Any, weights: OwareWeights = DEFAULT
) -> tuple[list[OwareState], int]:
    """The positions of a game the engine plays on from ``start`` (``weights``, ``nodes`` a
    move, the ``best`` player's reductions, ``table`` at the root and in the search) and
    South's final margin."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)
    from mancala.engine.oware import search as S  # noqa: PLC0415

    sides = [S.OwareSearcher(game, entries=1 << 18, **S.play_settings(game.rules.houses, weights)) for _ in range(2)]
    state, seen = start, []
    while not state.finished:
        seen.append(state)
        result = S.search(
            game,
            state,
            None,
            max_nodes=nodes,
            searcher=sides[state.seat],
            probe=exact.probe_move,
            table=table,
            weights=weights,
        )
        state = game.apply(state, result.move)
    return seen, game.score(state, 0)


def search_label(game: Oware, state: OwareState, nodes: int, table: Any, weights: OwareWeights) -> float:
    """The board's worth to the mover of ``state`` by a deeper search: the value of the
    ``best`` search of ``nodes`` nodes (``weights``, its reductions, ``table`` inside the
    search, no root probe), a proved end read as its final margin, less the store margin."""
    from mancala.engine.oware import search as S  # noqa: PLC0415 (numba loads only when needed)

    searcher = S.OwareSearcher(game, entries=1 << 20, **S.play_settings(game.rules.houses, weights))
    value = S.search(
        game, state, None, max_nodes=nodes, searcher=searcher, probe=None, table=table, weights=weights
    ).value
    if abs(value) > WIN / 2:  # a proved end: its final margin
        value = S.margin_of(value)
    return value - store_margin(state)


def exact_label(game: Oware, state: OwareState, nodes: int, table: Any) -> float | None:
    """The board's worth to the mover of ``state`` with perfect play, proved by search down
    to ``table`` within ``nodes`` (or None when the bounds did not meet).

    As :func:`mancala.engine.oware.search.prove_value` does, but on a node budget: each depth
    is searched twice, every leaf at the depth limit worth the worst, then the best, final
    margin the mover can get there, so the two values bound the true one; the depth grows
    until they meet (the value) or the budget runs out."""
    from mancala.engine.oware import search as S  # noqa: PLC0415

    low_side, high_side = S.OwareSearcher(game, entries=1 << 20), S.OwareSearcher(game, entries=1 << 20)
    low_side.ctl[S.C_LEAF] = S.LEAF_LOW
    high_side.ctl[S.C_LEAF] = S.LEAF_HIGH
    for side in (low_side, high_side):
        side.use_table(table)
    seeds = sum(state.houses)
    diff = store_margin(state)
    low, high = diff - seeds, diff + seeds
    for depth in range(1, S.MAX_DEPTH + 1):
        lv, _, done, _ = low_side.run(state, depth, 0.0, nodes // 2)
        if not done:
            return None
        hv, _, done, _ = high_side.run(state, depth, 0.0, nodes // 2)
        if not done:
            return None
        low, high = max(low, S.margin_of(lv)), min(high, S.margin_of(hv))
        if low >= high:
            return float(low - diff)
    return None


def generate(args: argparse.Namespace) -> None:
    """Play ``--games`` self-play games, label their positions, write the dataset."""
    game, table, rng = _dataset_start(args)
    samples: list[Sample] = []
    tried = resolved = 0
    began = time.process_time()
    for g in range(args.games):
        start = random_opening(game, rng, rng.randint(args.plies // 2, args.plies))
        positions, south = self_play(game, start, args.play_nodes, table)
        for state in positions:
            seeds = sum(state.houses)
            if seeds <= table.max_seeds:
                continue
            margin = south if state.seat == 0 else -south
            if seeds < args.selfplay_low:
                if not args.exact_low <= seeds <= args.exact_high:
                    continue
                tried += 1
                label = exact_label(game, state, args.label_nodes, table)
                if label is None:
                    continue
                resolved += 1
                kind = "exact"
            else:
                label, kind = float(margin - store_margin(state)), "selfplay"
            samples.append(Sample(g, kind, seeds, features(game, state), label, state.houses, state.stores, state.seat))
        print(
            f"game {g + 1}/{args.games}: {len(positions)} plies, South {south:+d}; "
            f"{len(samples)} samples, exact {resolved}/{tried}; cpu {time.process_time() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    meta = {
        "exact_range": [args.exact_low, args.exact_high],
        "selfplay_low": args.selfplay_low,
        "exact_tried": tried,
        "exact_resolved": resolved,
    }
    _write_dataset(args, table, samples, began, meta)


def generate_search(args: argparse.Namespace) -> None:
    """Self-play with :data:`PLAY` (``--play-nodes`` a move); every position above the table
    (every second one of a game with more than 40) labelled twice: by a ``--label-nodes``
    search (kind ``search``) and by the game's result (``selfplay``)."""
    game, table, rng = _dataset_start(args)
    samples: list[Sample] = []
    began = time.process_time()
    for g in range(args.games):
        start = random_opening(game, rng, rng.randint(args.plies // 2, args.plies))
        positions, south = self_play(game, start, args.play_nodes, table, PLAY)
        picked = [s for s in positions if sum(s.houses) > table.max_seeds]
        for state in picked[::2] if len(picked) > 40 else picked:
            margin = south if state.seat == 0 else -south
            f, seeds = features(game, state), sum(state.houses)
            label = search_label(game, state, args.label_nodes, table, PLAY)
            samples.append(Sample(g, "search", seeds, f, label, state.houses, state.stores, state.seat))
            label = float(margin - store_margin(state))
            samples.append(Sample(g, "selfplay", seeds, f, label, state.houses, state.stores, state.seat))
        print(
            f"game {g + 1}/{args.games}: {len(positions)} plies, South {south:+d}; {len(samples)} samples; "
            f"cpu {time.process_time() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    _write_dataset(
        args, table, samples, began, {"weights": weights_text(PLAY) + (", house table" if PLAY.houses else "")}
    )


def _dataset_start(args: argparse.Namespace) -> tuple[Oware, Any, random.Random]:
    """A generator's game, the cache's endgame table (exit when there is none) and its
    random draws from ``--seed``."""
    from mancala.engine.oware import exact  # noqa: PLC0415 (numba loads only when needed)

    game = Oware()
    table = exact.table_for(game.rules)
    if table is None:
        raise SystemExit("no Oware endgame table in the cache (mancala db build)")
    print(f"seed {args.seed}; table {table.max_seeds} seeds", file=sys.stderr, flush=True)
    return game, table, random.Random(args.seed)


def _write_dataset(args: argparse.Namespace, table: Any, samples: list[Sample], began: float, meta: dict) -> None:
    """Write a generator's samples with what made them (``meta`` and the common settings)."""
    meta = {
        "seed": args.seed,
        "games": args.games,
        "plies": args.plies,
        "play_nodes": args.play_nodes,
        "label_nodes": args.label_nodes,
        **meta,
        "table_seeds": table.max_seeds,
        "cpu_seconds": round(time.process_time() - began, 1),
        "terms": list(TERMS),
    }
    write_json(Path(args.out), {"meta": meta, "samples": [s.__dict__ for s in samples]})
    print(f"wrote {len(samples)} samples to {args.out}", file=sys.stderr, flush=True)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (a temporary file beside it, renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load(paths: Sequence[str]) -> list[Sample]:
    """The samples of one or more datasets (game ids made distinct across files)."""
    out: list[Sample] = []
    for k, path in enumerate(paths):
        data = json.loads(Path(path).read_text())
        for s in data["samples"]:
            s = dict(s, game=k * 1_000_000 + s["game"])
            s.update(features=tuple(s["features"]), houses=tuple(s["houses"]), stores=tuple(s["stores"]))
            out.append(Sample(**s))
    return out


# --- fitting ------------------------------------------------------------------------------


KINDS: dict[str, tuple[str, ...]] = {
    "exact": ("exact",),
    "selfplay": ("selfplay",),
    "both": ("exact", "selfplay"),
    "search": ("search",),
}


def fits(train: Sequence[Sample]) -> dict[str, OwareWeights]:
    """The store margin alone, ``DEFAULT``, ``PLAY_TERMS`` and the weights fitted to ``train``: to each
    label kind, to both, and to both with each kind weighing as much in all (``balanced``)."""
    out = {"margin": OwareWeights(), "DEFAULT": DEFAULT, "PLAY_TERMS": PLAY_TERMS}
    for k, kinds in KINDS.items():
        part = [s for s in train if s.kind in kinds]
        if part:
            out[f"fit-{k}"] = weights_of(fit(*arrays(part)))
    counts = {k: sum(1 for s in train if s.kind == k) for k in ("exact", "selfplay")}
    if all(counts.values()):
        out["fit-balanced"] = weights_of(fit(*arrays(train), [1.0 / counts[s.kind] for s in train]))
    return out


def table(rows: dict[str, OwareWeights], residuals: dict[str, dict[str, list[float]]]) -> None:
    """Print each set's weights with its RMSE / MAE over the ``residuals`` of each kind."""
    print(f"{'weights':<12} " + " ".join(f"{t:>7}" for t in TERMS) + "   held-out RMSE / MAE: " + ", ".join(KINDS))
    for name, w in rows.items():
        cells = []
        for k in KINDS:
            r = np.asarray(residuals[name][k])
            cells.append(f"{np.sqrt(np.mean(r * r)):5.2f}/{np.mean(np.abs(r)):5.2f}" if len(r) else "  -  ")
        print(f"{name:<12} " + " ".join(f"{v:7.2f}" for v in w.as_tuple()) + "   " + "  ".join(cells))


def residuals_of(w: OwareWeights, test: Sequence[Sample]) -> dict[str, list[float]]:
    """Prediction minus label on ``test``, by kind (``both``: all)."""
    out = {}
    for k, kinds in KINDS.items():
        x, y = arrays([s for s in test if s.kind in kinds])
        out[k] = list(x @ np.asarray(w.as_tuple()) - y)
    return out


def report(samples: Sequence[Sample], holdout: float, seed: int) -> dict[str, OwareWeights]:
    """Print the fits with their held-out errors beside ``DEFAULT``'s (``holdout`` of the
    games held out, drawn by ``seed``); return the fitted weights by name."""
    held = split_games([s.game for s in samples], holdout, seed)
    train = [s for s in samples if s.game not in held]
    test = [s for s in samples if s.game in held]
    for k, kinds in KINDS.items():
        print(
            f"{k}: {sum(1 for s in train if s.kind in kinds)} training positions, "
            f"{sum(1 for s in test if s.kind in kinds)} held out"
        )
    fitted = fits(train)
    table(fitted, {name: residuals_of(w, test) for name, w in fitted.items()})
    for name, w in fitted.items():
        print(f"{name}: {weights_text(w)}")
    return fitted


def cross_validate(samples: Sequence[Sample], folds: int, seed: int) -> None:
    """``folds``-fold cross-validation by game: every game held out once, the fits made
    without it; print the pooled held-out errors and each weight's range over the folds."""
    ids = sorted({s.game for s in samples})
    random.Random(seed).shuffle(ids)
    fold_of = {g: i % folds for i, g in enumerate(ids)}
    pooled: dict[str, dict[str, list[float]]] = {}
    seen: dict[str, list[OwareWeights]] = {}
    for f in range(folds):
        train = [s for s in samples if fold_of[s.game] != f]
        test = [s for s in samples if fold_of[s.game] == f]
        for name, w in fits(train).items():
            seen.setdefault(name, []).append(w)
            for k, r in residuals_of(w, test).items():
                pooled.setdefault(name, {}).setdefault(k, []).extend(r)
    print(
        f"{folds}-fold cross-validation by game ({len(ids)} games, {len(samples)} positions); weights: the folds' mean"
    )
    means = {n: weights_of(np.mean([w.as_tuple() for w in ws], axis=0)) for n, ws in seen.items()}
    table(means, pooled)
    for name, ws in seen.items():
        spans = [f"{t} {min(v):.2f}..{max(v):.2f}" for t, v in zip(TERMS, zip(*(w.as_tuple() for w in ws)))]
        print(f"{name}: " + ", ".join(spans))


# --- the house table ------------------------------------------------------------------------


def table_features(samples: Sequence[Sample]) -> np.ndarray:
    """Each sample's :data:`TABLE_TERMS`, then one column per (house, count) for the six
    house positions of a row (the mover's house there counts +1, the opponent's at the same
    place -1; counts capped at ``HOUSE_CAP``), then a constant 1 (having the move): the
    antisymmetric house table :func:`table_weights` turns into the evaluation's.  A house
    of the opponent is worth minus the same house of the mover, which halves the cells to fit
    (and fits held-out positions better than twelve free rows: docs/oware.md)."""
    stride = HOUSE_CAP + 1
    picks = [TERMS.index(name) for name in TABLE_TERMS]
    k = len(picks)
    x = np.zeros((len(samples), k + 6 * stride + 1))
    for i, s in enumerate(samples):
        x[i, :k] = [s.features[t] for t in picks]
        n = len(s.houses) // 2
        for j in range(n):
            x[i, k + j * stride + min(s.houses[s.seat * n + j], HOUSE_CAP)] += 1.0
            x[i, k + j * stride + min(s.houses[(1 - s.seat) * n + j], HOUSE_CAP)] -= 1.0
        x[i, -1] = 1.0
    return x


def ridge(x: np.ndarray, y: np.ndarray, strength: float) -> np.ndarray:
    """Least squares with an L2 penalty ``strength * |w|^2`` (the table's cells that few
    positions reach stay near 0 instead of fitting their noise)."""
    return np.linalg.solve(x.T @ x + strength * np.eye(x.shape[1]), x.T @ y)


def table_weights(w: Sequence[float]) -> OwareWeights:
    """Fitted :func:`table_features` coefficients as weights (rounded to 3 decimals): the
    mover's rows hold the fitted cells, the opponent's their negation, and every cell a
    twelfth of the constant (each position adds exactly one cell per house)."""
    k = len(TABLE_TERMS)
    stride = HOUSE_CAP + 1
    terms = {name: round(float(v), 3) for name, v in zip(TABLE_TERMS, w[:k])}
    cells = np.asarray(w[k : k + 6 * stride], dtype=float)
    share = float(w[-1]) / 12
    table = np.concatenate([cells + share, -cells + share])
    return OwareWeights(**terms, houses=tuple(round(float(v), 3) for v in table))


def board_worths(weights: OwareWeights, samples: Sequence[Sample]) -> np.ndarray:
    """What the evaluation with ``weights`` says each sample's board is worth to the mover
    (under ``abapa``, the datasets' rules): its value less the store margin."""
    game = Oware()
    evaluate = make_evaluation(weights)
    out = []
    for s in samples:
        state = game.position(list(s.houses), s.stores, s.seat)
        out.append(evaluate(game, state, s.seat) - store_margin(state))
    return np.array(out)


def fit_table(samples: Sequence[Sample], kind: str, strength: float, folds: int, seed: int) -> OwareWeights:
    """Fit :data:`TABLE_TERMS` and a house table to the ``kind`` labels by ridge regression;
    print the ``folds``-fold cross-validated error (by game) beside ``PLAY_TERMS``' and
    ``PLAY``'s (what each says the board is worth, on every position); return the
    fit to all of them."""
    part = [s for s in samples if s.kind == kind]
    if not part:
        raise SystemExit(f"no positions of kind {kind!r} in the data")
    x, y = table_features(part), np.array([s.label for s in part])
    terms = arrays(part)[0] @ np.asarray(PLAY_TERMS.as_tuple())
    games = np.array([s.game for s in part])
    ids = sorted(set(games.tolist()))
    random.Random(seed).shuffle(ids)
    place = {g: i for i, g in enumerate(ids)}
    fold = np.array([place[g] % folds for g in games]) if folds > 1 else np.zeros(len(part), dtype=int)
    held: list[np.ndarray] = []
    for f in range(folds if folds > 1 else 0):
        test = fold == f
        held.append(x[test] @ ridge(x[~test], y[~test], strength) - y[test])
    print(f"{len(part)} {kind} positions from {len(ids)} games")
    for name, guess in (("PLAY_TERMS", terms), ("PLAY", board_worths(PLAY, part))):
        print(f"{name}: RMSE {np.sqrt(np.mean((guess - y) ** 2)):.3f}")
    if held:
        r = np.concatenate(held)
        print(f"house table + {', '.join(TABLE_TERMS)} (ridge {strength:g}), {folds}-fold by game: "
              f"RMSE {np.sqrt(np.mean(r * r)):.3f}, MAE {np.mean(np.abs(r)):.3f}")  # fmt: skip
    return table_weights(ridge(x, y, strength))


def main(argv: list[str] | None = None) -> None:
    """``generate`` a dataset or ``fit`` one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="self-play games and labelled positions")
    gen.add_argument("--games", type=int, default=100)
    gen.add_argument("--seed", type=int, default=29)
    gen.add_argument("--plies", type=int, default=8, help="random opening moves (from half this to this)")
    gen.add_argument("--play-nodes", type=int, default=30_000, help="nodes a self-play move")
    gen.add_argument("--label-nodes", type=int, default=300_000, help="nodes of an exact label's search")
    gen.add_argument("--exact-low", type=int, default=19)
    gen.add_argument("--exact-high", type=int, default=22)
    gen.add_argument("--selfplay-low", type=int, default=25, help="the fewest seeds of a self-play label")
    gen.add_argument("--out", required=True, help="the dataset (JSON; not in the repository)")
    gsearch = sub.add_parser("generate-search", help="self-play with PLAY, positions labelled by a deeper search")
    gsearch.add_argument("--games", type=int, default=60)
    gsearch.add_argument("--seed", type=int, default=1129)
    gsearch.add_argument("--plies", type=int, default=8, help="random opening moves (from half this to this)")
    gsearch.add_argument("--play-nodes", type=int, default=20_000, help="nodes a self-play move")
    gsearch.add_argument("--label-nodes", type=int, default=100_000, help="nodes of a label's search")
    gsearch.add_argument("--out", required=True, help="the dataset (JSON; not in the repository)")
    fitp = sub.add_parser("fit", help="fit the weights and report held-out errors")
    fitp.add_argument("--data", action="append", required=True, help="a dataset (repeatable)")
    fitp.add_argument("--holdout", type=float, default=0.2, help="the fraction of games held out")
    fitp.add_argument("--seed", type=int, default=1, help="the held-out games' draw")
    fitp.add_argument("--folds", type=int, default=0, help="also cross-validate over this many folds of games")
    tab = sub.add_parser("fit-table", help="fit a house table (with threat and waiting) and write it")
    tab.add_argument("--data", action="append", required=True, help="a dataset (repeatable)")
    tab.add_argument("--kind", default="search", choices=("search", "selfplay", "exact"), help="the labels fitted")
    tab.add_argument("--ridge", type=float, default=10.0, help="the L2 penalty's strength")
    tab.add_argument("--folds", type=int, default=5, help="cross-validate over this many folds of games (0: none)")
    tab.add_argument("--seed", type=int, default=1, help="the folds' draw")
    tab.add_argument("--out", help="write the fitted weights here (JSON: OwareWeights' fields)")
    args = parser.parse_args(argv)
    if args.command == "fit-table":
        w = fit_table(load(args.data), args.kind, args.ridge, args.folds, args.seed)
        print(f"fitted: {weights_text(w)}, house table of {w.table_rows()} houses")
        if args.out:
            write_json(Path(args.out), {name: getattr(w, name) for name in OwareWeights.__dataclass_fields__})
    elif args.command == "generate":
        generate(args)
    elif args.command == "generate-search":
        generate_search(args)
    else:
        samples = load(args.data)
        report(samples, args.holdout, args.seed)
        if args.folds > 1:
            cross_validate(samples, args.folds, args.seed)


if __name__ == "__main__":
    run(main, "fit_oware_eval", (OSError, ValueError))  # a dataset or output path that cannot be read or written
