"""How far from perfect does our ``best`` player fall?  Its shortfall against the exact value.

Plays ``best:nodes=N`` (about 1 s a move here at N = 2,000,000) against OpenSpiel's MCTS
(``--sims``, default 100,000) on standard Kalah(6,4), from balanced random openings (the
arena's: ``--plies`` random moves kept when the engine judges them within ±``--balance``),
each opening from both seats.  For each game it prints the exact value of the position
after the opening for our side (our solver: ``mancala.engine.solve``), our final margin,
and our shortfall = max(0, exact − margin): 0 when we kept at least the value the opening
gave us.  Also the first of our moves whose value the engine proved (``exact from``) and
the shortfall from that proved value (0 whenever exact moves keep the value).

With ``--mankalah-jar JAR ...`` it also plays each ManKalah agent (``java -jar JAR``, our
``command:`` player) on Kalah(7,7) with the ManKalah rules, from the start (an external agent
cannot join a game under way), seats alternating; the solver cannot value the start
(98 seeds), so only the result and the shortfall from our first proved value are reported.  The jars are fetched by whoever runs this and kept outside the
repository.

With ``--check-moves`` every move our player made is checked by the solver afterwards (the
game is replayed once it is over, so the check does not change our player's table during
play): the exact value of the position before the move and of the position after it, both
for the mover (an extra turn keeps the same mover: the side to move is read), and a move
with value_after < value_before is *point-losing*, by the difference.  Positions with more
than ``--check-seeds`` seeds in the pits (default 40) are not solved (early (6,4) positions
take tens of seconds each): each game reports ``checked_moves``, ``unchecked_moves``,
``point_losing_moves`` and ``lost_points`` (each with the moves so far, to replay it, and how
our player found it: book, exact or depth).  Solved values are cached for the whole run
(many positions repeat).  Games already in ``--results`` without the check are checked too,
and the file rewritten with them.  ManKalah games (98 seeds) are checked the same way.

Results go to a JSON-lines file (``--results``), one line per game, appended as games
finish: running the same command again skips the games already in it.

    python benchmarks/bench_shortfall.py --games 20 --sims 100000 --nodes 2000000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.arena.match import play_game  # noqa: E402
from mancala.arena.tournament import _parse_moves, make_openings  # noqa: E402
from mancala.games import make_game  # noqa: E402
from mancala.games.kalah import Kalah, KalahState  # noqa: E402
from mancala.players import make_player  # noqa: E402
from mancala.record import GameRecord  # noqa: E402


class Watched:
    """Our player, remembering how each of its moves was found (book, exact, depth)."""

    def __init__(self, player) -> None:
        self.player = player
        self.spec = player.spec
        self.moves: list[tuple[int, str, float, float]] = []  # (ply, algorithm, value, seconds)

    def choose(self, game, state):
        start = time.perf_counter()
        move = self.player.choose(game, state)
        last = self.player.last
        self.moves.append((state.ply, last.algorithm, float(last.value), time.perf_counter() - start))
        return move


#: exact values (for the player to move) of the positions solved so far in this process
_SOLVED: dict[tuple, int] = {}


def position_key(state: KalahState) -> tuple:
    """A Kalah position's identity for the value cache (the ply and how it was reached aside)."""
    return (state.board, state.seat, state.swapped, state.swap_allowed)


def exact_value(game: Kalah, state: KalahState) -> int:
    """The exact final margin of ``state`` for its player to move (cached in :data:`_SOLVED`)."""
    if state.finished:
        return game.score(state, game.to_move(state))
    key = position_key(state)
    if key not in _SOLVED:
        from mancala.engine.solver import prove  # noqa: PLC0415

        _SOLVED[key] = prove(game, state)[0]
    return _SOLVED[key]


def pit_seeds(state: KalahState) -> int:
    """Seeds in the pits (what a proof's size depends on)."""
    return sum(state.row(0)) + sum(state.row(1))


def check_moves(
    game: Kalah, opening: list[str], moves: list[str], ours: int, max_seeds: int, found: dict[int, str] | None = None
) -> dict:
    """The solver's verdict on each move player ``ours`` made in a game (``opening`` then
    ``moves``, as text): positions with at most ``max_seeds`` seeds in the pits are solved
    before and after the move (values for the mover; an extra turn keeps the mover), the
    others are counted unchecked.  ``found`` maps a ply to how the move was found
    (``book(exact)``, ``engine(exact)``, ``engine(depth d)``), when known."""
    state = game.initial_state()
    played: list[str] = []
    for word in opening:
        state = game.apply(state, game.parse_move(state, word))
        played.append(word)
    checked = unchecked = 0
    lost: list[dict] = []
    for word in moves:
        move = game.parse_move(state, word)
        child = game.apply(state, move)
        mover = game.to_move(state)
        if mover == ours:
            if pit_seeds(state) > max_seeds:
                unchecked += 1
            else:
                checked += 1
                before = exact_value(game, state)
                if child.finished:
                    after = game.score(child, mover)
                else:
                    after = exact_value(game, child)
                    after = after if game.to_move(child) == mover else -after
                if after < before:
                    lost.append(
                        {
                            "ply": state.ply,
                            "moves_so_far": list(played),
                            "move": word,
                            "before": before,
                            "after": after,
                            "lost": before - after,
                            "seeds": pit_seeds(state),
                            "found_by": (found or {}).get(state.ply),
                        }
                    )
        played.append(word)
        state = child
    return {
        "check_seeds": max_seeds,
        "checked_moves": checked,
        "unchecked_moves": unchecked,
        "point_losing_moves": len(lost),
        "lost_points": lost,
    }


def play_one(task: dict) -> dict:
    """One game: ``task`` names the game, the opening, our seat and the players."""
    game = make_game(task["game"])
    ours = Watched(make_player(task["ours"]))
    other = make_player(task["other"])
    if hasattr(other, "reseed"):
        other.reseed(task["seed"])
    seat = task["seat"]
    players = [ours, other] if seat == 0 else [other, ours]
    opening = _parse_moves(game, task["opening"])
    state = game.initial_state()
    for m in opening:
        state = game.apply(state, m)
        if hasattr(other, "sync"):  # the OpenSpiel bot follows the opening move by move
            other.sync(game, state)
    exact = None
    solve_seconds = None
    if task.get("exact") is not None:
        exact = task["exact"]
    elif task["solve"]:
        from mancala.engine import solve  # noqa: PLC0415

        start = time.perf_counter()
        value = solve(game, state, progress=False).value  # for the mover after the opening
        solve_seconds = round(time.perf_counter() - start, 1)
        exact = value if game.to_move(state) == 0 else -value  # for player 0
    from mancala.engine.engine import reset  # noqa: PLC0415

    reset()  # our player starts from an empty table and its usual database, not the solve's proof
    start = time.perf_counter()
    record = play_game(game, players, GameRecord(game, [p.spec for p in players], list(opening)))
    final = record.final_state()
    margin = game.score(final, seat)
    close = getattr(other, "close", None)
    if close is not None:
        close()
    ours_exact = None if exact is None else (exact if seat == 0 else -exact)
    proved = [(ply, v) for ply, alg, v, _ in ours.moves if "exact" in alg]
    row = {
        "key": task["key"],
        "game": task["game"],
        "ours": task["ours"],
        "other": task["other"],
        "seat": seat,
        "opening_index": task["opening_index"],
        "opening": task["opening"],
        "exact_p0": exact,
        "exact": ours_exact,
        "margin": margin,
        "shortfall": None if ours_exact is None else max(0, ours_exact - margin),
        "exact_from": proved[0][0] if proved else None,
        "shortfall_from_exact": max(0, int(proved[0][1]) - margin) if proved else None,
        "book_moves": sum("book" in alg for _, alg, _, _ in ours.moves),
        "our_moves": len(ours.moves),
        "our_seconds": round(sum(s for *_, s in ours.moves), 2),
        "max_move_seconds": round(max((s for *_, s in ours.moves), default=0.0), 2),
        "solve_seconds": solve_seconds,
        "game_seconds": round(time.perf_counter() - start, 1),
        "moves": [str(m) for m in record.moves[len(opening) :]],
        "found_by": {str(ply): alg for ply, alg, _, _ in ours.moves},
    }
    if task.get("check_seeds") is not None:
        row.update(check_row(row, task["check_seeds"]))
    return row


def check_row(row: dict, max_seeds: int) -> dict:
    """:func:`check_moves` of a result row (a game already played), on a fresh engine."""
    from mancala.engine.engine import reset  # noqa: PLC0415

    game = make_game(row["game"])
    assert isinstance(game, Kalah)
    player = row["seat"]
    # the seat of player ``seat`` moves; under the pie rule a swap changes seats, not players
    found = {int(k): v for k, v in row.get("found_by", {}).items()}
    out = check_moves(game, list(row["opening"]), list(row["moves"]), player, max_seeds, found)
    reset()
    return out


def play_opening(tasks: list[dict]) -> list[dict]:
    """The games of one opening, in order; the first one's solve gives the others the value."""
    rows = []
    for t in tasks:
        if rows and t.get("exact") is None:
            t["exact"] = rows[0]["exact_p0"]
        rows.append(play_one(t))
    return rows


def tasks_for(args, game_spec: str, other: str, prefix: str, solve: bool, count: int, plies: int) -> list[dict]:
    """Both seats of ``count`` // 2 balanced openings (an odd count plays one more seat 0)."""
    game = make_game(game_spec)
    openings = make_openings(game, (count + 1) // 2, plies, args.balance, args.seed)
    out = []
    for k, op in enumerate(openings):
        for seat in (0, 1):
            if len(out) < count:
                out.append(
                    {
                        "key": f"{prefix}|{other}|{k}|{seat}",
                        "game": game_spec,
                        "ours": args.ours or f"best:nodes={args.nodes}",
                        "other": other,
                        "seat": seat,
                        "opening_index": k,
                        "opening": list(op.moves),
                        "seed": args.seed * 1000 + k * 2 + seat,
                        "solve": solve,
                        "check_seeds": args.check_seeds if args.check_moves else None,
                    }
                )
    return out


def drop_positions(paths: list[str]) -> list[dict]:
    """The distinct point-losing positions recorded in result files (``lost_points``), in
    the order met: each with its moves so far and its exact value for the mover."""
    seen: dict[tuple, dict] = {}
    for name in paths:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            for x in row.get("lost_points", []):
                key = (row["game"], tuple(x["moves_so_far"]))
                seen.setdefault(key, {"game": row["game"], **x})
    return list(seen.values())


def replay_drop(drop: dict, spec: str) -> dict:
    """What player ``spec`` plays at a recorded point-losing position, from an empty table
    (a fresh engine, its usual database: the largest cached one that fits), and the exact
    value of its move for the mover."""
    from mancala.engine.engine import reset  # noqa: PLC0415

    game = make_game(drop["game"])
    assert isinstance(game, Kalah)
    state = game.initial_state()
    for word in drop["moves_so_far"]:
        state = game.apply(state, game.parse_move(state, word))
    reset()
    player = make_player(spec)
    start = time.perf_counter()
    move = player.choose(game, state)
    seconds = time.perf_counter() - start
    mover = game.to_move(state)
    child = game.apply(state, move)
    if child.finished:
        after = game.score(child, mover)
    else:
        after = exact_value(game, child)
        after = after if game.to_move(child) == mover else -after
    reset()
    return {
        "moves_so_far": drop["moves_so_far"],
        "seeds": drop["seeds"],
        "exact": drop["before"],
        "recorded": f"{drop['move']} ({drop['after']:+d})",
        "move": str(move),
        "after": after,
        "lost": drop["before"] - after,
        "found_by": player.last.algorithm,
        "seconds": round(seconds, 2),
    }


def summary(rows: list[dict]) -> list[str]:
    """The summary lines of one opponent's games."""
    out = []
    valued = [r for r in rows if r["shortfall"] is not None]
    n = len(rows)
    wins = sum(r["margin"] > 0 for r in rows)
    draws = sum(r["margin"] == 0 for r in rows)
    out.append(
        f"  games {n}: {wins} won, {draws} drawn, {n - wins - draws} lost; mean margin "
        f"{sum(r['margin'] for r in rows) / max(1, n):+.2f}"
    )
    if valued:
        zero = sum(r["shortfall"] == 0 for r in valued)
        can_win = [r for r in valued if r["exact"] > 0]
        can_draw = [r for r in valued if r["exact"] == 0]
        out.append(
            f"  shortfall 0 in {zero}/{len(valued)} games ({100 * zero / len(valued):.0f}%), mean shortfall "
            f"{sum(r['shortfall'] for r in valued) / len(valued):.2f}, mean gain over the exact value "
            f"{sum(r['margin'] - r['exact'] for r in valued) / len(valued):+.2f}"
        )
        out.append(
            f"  exact value > 0 (a win is there): won {sum(r['margin'] > 0 for r in can_win)}/{len(can_win)}; "
            f"= 0: won or drew {sum(r['margin'] >= 0 for r in can_draw)}/{len(can_draw)}; "
            f"< 0: won {sum(r['margin'] > 0 for r in valued if r['exact'] < 0)}/"
            f"{sum(r['exact'] < 0 for r in valued)}"
        )
    proved = [r for r in rows if r["shortfall_from_exact"] is not None]
    if proved:
        out.append(
            f"  after our first proved value: shortfall 0 in {sum(r['shortfall_from_exact'] == 0 for r in proved)}"
            f"/{len(proved)} games; first proved at ply {sum(r['exact_from'] for r in proved) / len(proved):.1f} "
            f"on average"
        )
    checked = [r for r in rows if "point_losing_moves" in r]
    if checked:
        lost = [x for r in checked for x in r["lost_points"]]
        out.append(
            f"  point_losing_moves: {len(lost)} in {sum(r['point_losing_moves'] > 0 for r in checked)}/{len(checked)} "
            f"games ({sum(x['lost'] for x in lost)} points); moves checked {sum(r['checked_moves'] for r in checked)}, "
            f"unchecked {sum(r['unchecked_moves'] for r in checked)} (more than {checked[0]['check_seeds']} seeds "
            f"in the pits)"
        )
    moves = sum(r["our_moves"] for r in rows)
    if moves:
        out.append(
            f"  our moves: {moves}, {sum(r['our_seconds'] for r in rows) / moves:.2f} s each on average, "
            f"longest {max(r['max_move_seconds'] for r in rows):.2f} s; book moves {sum(r['book_moves'] for r in rows)}"
        )
    return out


def main() -> int:
    """Run (or resume) the games and print each game and the summary."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games against MCTS (both seats of games/2 openings)")
    ap.add_argument("--sims", type=int, default=100_000, help="OpenSpiel MCTS simulations a move")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="our engine nodes a move (~1 s here)")
    ap.add_argument(
        "--ours", default=None, metavar="SPEC", help="our player instead of best:nodes=N (e.g. strongest, best:time=1)"
    )
    ap.add_argument("--check-moves", action="store_true", help="check each of our moves with the solver")
    ap.add_argument(
        "--check-seeds", type=int, default=40, help="solve positions with at most this many seeds in the pits"
    )
    ap.add_argument("--plies", type=int, default=4, help="random plies of an opening (the arena's default 4)")
    ap.add_argument("--balance", type=float, default=2.0, help="openings judged within +-BALANCE")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="games in parallel (processes)")
    ap.add_argument("--results", default="shortfall.jsonl", help="JSON-lines results, resumed from")
    ap.add_argument("--mankalah-jar", nargs="*", default=[], metavar="JAR", help="ManKalah agents to play too")
    ap.add_argument(
        "--mankalah-games",
        type=int,
        default=2,
        help="games against each ManKalah agent, from the start, seats alternating (default 2)",
    )
    ap.add_argument("--report-only", action="store_true", help="print the games already in --results; play none")
    ap.add_argument(
        "--replay-drops",
        nargs="+",
        default=[],
        metavar="FILE",
        help="play none: ask our player (fresh, --ours or best:nodes=N) again at every point-losing position "
        "recorded in these result files, and check its move with the solver",
    )
    args = ap.parse_args()
    if args.replay_drops:
        spec = args.ours or f"best:nodes={args.nodes}"
        drops = drop_positions(args.replay_drops)
        print(f"{len(drops)} point-losing positions in {', '.join(args.replay_drops)}; {spec} again:", flush=True)
        kept = lost = 0
        for d in drops:
            r = replay_drop(d, spec)
            kept += r["lost"] <= 0
            lost += max(0, r["lost"])
            print(
                f"  {' '.join(r['moves_so_far']):<60} {r['seeds']:>2} seeds, exact {r['exact']:+d}: "
                f"plays {r['move']} ({r['after']:+d}, {r['found_by']}, {r['seconds']} s); recorded {r['recorded']}",
                flush=True,
            )
        print(f"keeps the value at {kept} of {len(drops)}; {lost} points lost", flush=True)
        return 0
    path = Path(args.results)
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["key"]] = row
    tasks = []
    if args.games > 0:
        tasks += tasks_for(
            args,
            "kalah",
            f"openspiel-mcts:sims={args.sims}",
            f"p{args.plies}s{args.seed}" + (f"n{args.nodes}" if args.ours is None else args.ours),
            True,
            args.games,
            args.plies,
        )
    for jar in args.mankalah_jar:
        # an external agent cannot join a game under way: ManKalah games start from the start
        tasks += tasks_for(
            args,
            "kalah(preset=mankalah)",
            f"command:java -jar {jar}",
            f"p0s{args.seed}" + (f"n{args.nodes}" if args.ours is None else args.ours),
            False,
            args.mankalah_games,
            0,
        )
    values = {(r["game"], r["opening_index"], tuple(r["opening"])): r["exact_p0"] for r in done.values()}
    todo = [] if args.report_only else [t for t in tasks if t["key"] not in done]
    print(f"{len(tasks)} games, {len(tasks) - len(todo)} already in {path}; {args.workers} worker(s)", flush=True)
    head = f"{'game':>38} {'seat':>4} {'exact':>5} {'margin':>6} {'short':>5} {'exact from':>10} {'solve s':>7} {'game s':>6}"
    head += " lost (checked/our moves)" if args.check_moves else ""
    print(head, flush=True)

    def show(r: dict) -> None:
        print(
            f"{r['key']:>38} {r['seat']:>4} {'-' if r['exact'] is None else r['exact']:>5} {r['margin']:>6} "
            f"{'-' if r['shortfall'] is None else r['shortfall']:>5} {'-' if r['exact_from'] is None else r['exact_from']:>10} "
            f"{'-' if r['solve_seconds'] is None else r['solve_seconds']:>7} {r['game_seconds']:>6}"
            + (
                f" {r['point_losing_moves']:>4} ({r['checked_moves']}/{r['checked_moves'] + r['unchecked_moves']})"
                if "point_losing_moves" in r
                else ""
            ),
            flush=True,
        )
        for x in r.get("lost_points", []):
            print(
                f"    lost {x['lost']} at ply {x['ply']} ({x['seeds']} seeds, {x['found_by']}): {x['move']} "
                f"({x['before']} -> {x['after']}) after {' '.join(x['moves_so_far'])}",
                flush=True,
            )

    keys = {t["key"] for t in tasks}
    if args.check_moves:  # games played before without the check: checked now, the file rewritten
        stale = [k for k, r in done.items() if k in keys and r.get("check_seeds") != args.check_seeds]
        for i, k in enumerate(stale):
            done[k].update(check_row(done[k], args.check_seeds))
            r = done[k]
            print(
                f"checked {i + 1}/{len(stale)} games played before: {k} {r['point_losing_moves']} point-losing "
                f"({r['checked_moves']} checked, {r['unchecked_moves']} not) {r['lost_points']}",
                file=sys.stderr,
                flush=True,
            )
        if stale:
            tmp = path.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(r) + "\n" for r in done.values()), encoding="utf-8")
            tmp.replace(path)
    for r in done.values():
        if r["key"] in keys:
            show(r)
    # one opening at a time in a worker: its value is solved once, then both seats are played
    groups: dict = {}
    for t in todo:
        groups.setdefault((t["game"], t["opening_index"]), []).append(t)
    for group in groups.values():
        for t in group:
            t["exact"] = values.get((t["game"], t["opening_index"], tuple(t["opening"])))
    with open(path, "a", encoding="utf-8") as out, ProcessPoolExecutor(max(1, args.workers)) as pool:
        for fut in as_completed([pool.submit(play_opening, g) for g in groups.values()]):
            for r in fut.result():
                out.write(json.dumps(r) + "\n")
                out.flush()
                os.fsync(out.fileno())
                done[r["key"]] = r
                show(r)
    rows = [done[t["key"]] for t in tasks if t["key"] in done]
    if not rows:
        return 0
    for other in dict.fromkeys(t["other"] for t in tasks):
        print(f"\n{rows[0]['ours']} against {other}:")
        print("\n".join(summary([r for r in rows if r["other"] == other])))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
