"""Oware engine settings head to head: the engine with candidate weights (and, optionally,
other search settings) against a base, from the same random openings, each opening played
from both seats.  The matches behind :data:`mancala.evaluation.oware.DEFAULT` (docs/oware.md,
"Values").

Usage::

    python benchmarks/oware_match.py --base '' --candidate row=0.25 --candidate targets=-0.5
    python benchmarks/oware_match.py --base row=0.25 --candidate row=0.25,targets=-0.5 --depth 6 --openings 50
    python benchmarks/oware_match.py --base row=0.25,targets=-0.5 --candidate row=0.25,targets=-0.5 \\
        --seconds 0.2 --table --search-table candidate      # the endgame table inside the search

Weights are written ``name=value`` joined by commas (names: the fields of ``OwareWeights``);
an empty text is the store margin alone.  Depth budgets (the default) do not depend on the
machine's speed; ``--seconds`` gives each side a time per move instead (as ``best:time=``).
``--table`` loads the largest endgame table of the cache (``exact.table_for``) and plays
its moves at the root for both sides, as ``best`` does; ``--search-table`` says which side
also uses it inside its search (``--base-table-seeds N``: the base only its first ``N`` seeds,
to measure what a larger table is worth); ``--keep`` which side keeps its transposition table from
move to move (else a fresh one a move).  One game at a time.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.script import run  # noqa: E402
from mancala import jsonread  # noqa: E402
from mancala.engine.oware import exact  # noqa: E402
from mancala.engine.oware import search as oware_search  # noqa: E402
from mancala.engine.oware.endgame import OwareTable  # noqa: E402
from mancala.errors import BadInput  # noqa: E402
from mancala.evaluation.oware import TERM_NAMES, OwareWeights  # noqa: E402
from mancala.games.oware import Oware, OwareState  # noqa: E402


def parse_weights(text: str) -> OwareWeights:
    """``row=0.25,targets=-0.5`` as weights (unnamed weights 0), or the weights of a JSON
    file named ``*.json`` (an object of :class:`OwareWeights`' fields, the house table a list:
    what ``fit_oware_eval.py fit-table --out`` writes)."""
    if text.endswith(".json"):
        return read_weights(text)
    values: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name not in TERM_NAMES:
            raise BadInput(f"unknown Oware weight {name!r}; known: {', '.join(TERM_NAMES)}, or a weights file (*.json)")
        try:
            values[name] = float(value)
        except ValueError:
            raise BadInput(f"Oware weight {name}: expected a number, got {value!r}") from None
    return OwareWeights(**values)


def read_weights(path: str) -> OwareWeights:
    """The weights of a JSON file (see :func:`parse_weights`); one line on a bad file."""
    try:
        data = jsonread.read_file(path)
    except (OSError, ValueError) as e:
        raise BadInput(f"{path}: cannot read Oware weights ({e})") from None
    if not isinstance(data, dict) or not set(data) <= set(OwareWeights.__dataclass_fields__):
        raise BadInput(f"{path}: expected an object of {', '.join(OwareWeights.__dataclass_fields__)}")
    try:
        values = {k: (tuple(float(x) for x in v) if k == "houses" else float(v)) for k, v in data.items()}
    except (TypeError, ValueError):
        raise BadInput(f"{path}: every weight must be a number (houses: a list of numbers)") from None
    return OwareWeights(**values)


def table_mode(name: str) -> int:
    """A table mode's number from its name (``exact.TABLE_MODES``)."""
    if name not in exact.TABLE_MODES:
        raise BadInput(f"unknown table mode {name!r}; known: {', '.join(exact.TABLE_MODES)}")
    return exact.TABLE_MODES[name]


def parse_search(text: str) -> dict:
    """``reductions=3`` as ``OwareSearcher`` keyword arguments (``table_mode=ends``: how the
    endgame table is used, a name of ``exact.TABLE_MODES``, at the root's probe too)."""
    kinds: dict[str, Callable[[str], int]] = {
        "reductions": int,
        "reduce_depth": int,
        "reduce_two": int,
        "table_mode": table_mode,
    }
    out: dict = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if name not in kinds:
            raise BadInput(f"unknown search setting {name!r}; known: {', '.join(kinds)}")
        try:
            out[name] = kinds[name](value)
        except ValueError:
            raise BadInput(f"search setting {name}: expected a whole number, got {value!r}") from None
    return out


def random_opening(game: Oware, rng: random.Random, plies: int) -> OwareState:
    """An unfinished position after ``plies`` random moves from the start (drawn again
    while a draw ends the game)."""
    while True:
        state = game.initial_state()
        for _ in range(plies):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            return state


def openings(game: Oware, count: int, plies: int, seed: int) -> list[OwareState]:
    """``count`` positions after ``plies`` random moves from the start."""
    rng = random.Random(seed)
    return [random_opening(game, rng, plies) for _ in range(count)]


def endgames(game: Oware, starts: list[OwareState], seeds: int, table: Any, nodes: int) -> list[OwareState]:
    """From each start, the first position of a game played on by a plain search (``nodes`` a
    move) with at most ``seeds`` seeds on the board, kept when the table gives its board 0
    (endless play: where own-row repetition decides) or holds no more than ``seeds``."""
    out = []
    for state in starts:
        while not state.finished and sum(state.houses) > seeds:
            move = oware_search.search(game, state, None, max_nodes=nodes, probe=_no_probe).move
            state = game.apply(state, move)
        if not state.finished and exact.board_value(table, state) in (None, 0):
            out.append(state)
    return out


def _no_probe(game: Oware, state: OwareState) -> None:
    """No endgame answer at the root (the plain search)."""
    return None


def smaller_table(table: OwareTable, seeds: int) -> OwareTable:
    """``table`` cut to its first ``seeds`` seeds (a view: no copy)."""
    if not 0 <= seeds <= table.max_seeds:
        raise BadInput(f"--base-table-seeds must be 0..{table.max_seeds} (the table's seeds), got {seeds}")
    offsets = table.offsets[: seeds + 2]
    return OwareTable(table.rules, seeds, table.values[: int(offsets[-1])], offsets)


@dataclass
class Side:
    """One side's settings."""

    weights: OwareWeights
    #: the endgame table inside the search (an ``OwareTable``) or None
    table: Any = None
    #: one transposition table for the whole game (else a fresh one a move)
    keep: bool = False
    #: the root's endgame probe (``exact.probe_move``) or None
    probe: Any = None
    #: ``OwareSearcher`` settings (``reductions``)
    search: dict = field(default_factory=dict)


def play(
    game: Oware,
    sides: tuple[Side, Side],
    start: OwareState,
    depth: int,
    seconds: float | None,
    nodes: int | None = None,
) -> int:
    """South's final margin in a game between the two sides from ``start`` (each move
    searched to ``depth``, or for ``seconds``, or ``nodes``)."""
    entries = oware_search.TABLE_ENTRIES if seconds or nodes else 1 << 16

    def searcher_of(side: Side) -> oware_search.OwareSearcher:
        return oware_search.OwareSearcher(game, side.weights, entries=entries, **side.search)

    kept = [searcher_of(side) if side.keep else None for side in sides]
    state = start
    while not state.finished:
        side = sides[state.seat]
        searcher = kept[state.seat] or searcher_of(side)
        result = oware_search.search(
            game,
            state,
            seconds,
            max_depth=oware_search.MAX_DEPTH if seconds or nodes else depth,
            max_nodes=nodes,
            weights=side.weights,
            searcher=searcher,
            probe=side.probe,
            table=side.table,
        )
        state = game.apply(state, result.move)
    return game.score(state, 0)


def main(argv: list[str] | None = None) -> None:
    """Print each candidate's score (with a 95% interval), W-D-L and mean margin against the base."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="", help="the base weights (default: the store margin alone)")
    parser.add_argument("--candidate", action="append", required=True, help="candidate weights (repeatable)")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--openings", type=int, default=50)
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=None, help="time per move instead of a depth")
    parser.add_argument("--table", action="store_true", help="the cache's endgame table at the root, both sides")
    sides = ("both", "candidate", "base", "none")
    parser.add_argument("--search-table", choices=sides, default="both", help="who uses the table in its search")
    parser.add_argument(
        "--base-table-seeds", type=int, default=None, help="the base's search table cut to this many seeds"
    )
    parser.add_argument("--keep", choices=sides, default="none", help="who keeps its transposition table")
    parser.add_argument("--nodes", type=int, default=None, help="nodes per move instead of a depth")
    parser.add_argument("--candidate-search", default="", help="the candidate's search settings: reductions=3")
    parser.add_argument("--base-search", default="", help="the base's search settings")
    parser.add_argument(
        "--endgame", type=int, default=None,
        help="start instead where a game from each opening (the default search at --nodes) first has at "
        "most this many seeds on the board (when the table holds that many: only positions it values 0)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    game = Oware()
    table = probe = None
    if args.table:
        table = exact.table_for(game.rules)
        probe = exact.probe_move
        print(f"endgame table: {table.max_seeds if table else 'none'} seeds", flush=True)

    def side(weights: OwareWeights, who: str) -> Side:
        uses = args.search_table in ("both", who) and table is not None
        settings = parse_search(args.candidate_search if who == "candidate" else args.base_search)
        side_probe = probe
        if probe is not None and "table_mode" in settings:
            side_probe = partial(probe, mode=settings["table_mode"])
        own = table
        if who == "base" and table is not None and args.base_table_seeds is not None:
            own = smaller_table(table, args.base_table_seeds)
        return Side(weights, own if uses else None, args.keep in ("both", who), side_probe, settings)

    base = side(parse_weights(args.base), "base")
    starts = openings(game, args.openings, args.plies, args.seed)
    if args.endgame is not None:
        if table is None:
            raise BadInput("--endgame needs --table and a table in the cache")
        starts = endgames(game, starts, args.endgame, table, args.nodes or 20_000)
        print(f"{len(starts)} endgame starts of at most {args.endgame} seeds", flush=True)
    for text in args.candidate:
        candidate = side(parse_weights(text), "candidate")
        results: list[int] = []
        for k, start in enumerate(starts):
            results.append(play(game, (candidate, base), start, args.depth, args.seconds, args.nodes))
            results.append(-play(game, (base, candidate), start, args.depth, args.seconds, args.nodes))
            if args.seconds or args.nodes:
                print(f"  opening {k + 1}: {results[-2]:+d} {results[-1]:+d}", flush=True)
        points = [1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in results]
        games = len(points)
        wins, draws = points.count(1.0), points.count(0.5)
        spread = 1.96 * statistics.pstdev(points) / math.sqrt(games)
        print(
            f"{text or 'margin'} vs {args.base or 'margin'}: {sum(points) / games:.1%} ± {spread:.1%} of {games} "
            f"(W-D-L {wins}-{draws}-{games - wins - draws}), mean margin {sum(results) / games:+.2f}",
            flush=True,
        )


if __name__ == "__main__":
    run(main, "oware_match")
