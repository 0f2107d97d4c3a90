"""``mancala solve``: the exact value of a position, a best move and a perfect line: Kalah by
the engine's solver (on this machine or a Ray cluster), Oware from its endgame database, or by a
search down to it."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import Any

from mancala.cli.common import (
    add_command,
    add_game_arguments,
    build_game,
    prepare_engine,
    solver_position,
    solver_record,
)
from mancala.errors import BadInput

#: ``mancala solve --help``'s description and examples
DESCRIPTION = (
    "Solve a Kalah game or position exactly with the fast engine: the value "
    "(final store difference with perfect play), a best move, a perfect line, "
    "nodes and time, with progress while it runs.  An Oware position with few seeds is "
    "answered from its endgame database (build it first: mancala db build); one with more seeds "
    "is proved by a search down to the database, within --seconds."
)
EPILOG = (
    "examples:\n  mancala solve --preset empty-capture --seeds 3\n"
    "  mancala solve --position '0 0 1 0 0 0 20 0 0 0 0 2 0 25' --to-move north\n"
    "  mancala solve --pits 6 --seeds 4 --ray 10.0.0.5:6379 --split-plies 2\n"
    "  MANCALA_MEMORY_MB=9000 mancala solve --pits 6 --seeds 5 --no-limit --endgame-seeds 26"
    "   (about 10 minutes on two cores, a 1.7 GB database)\n"
    "  mancala solve --pits 6 --seeds 5 --no-limit --journal k65.journal   (Ctrl-C keeps what is proved)\n"
    "  mancala solve --resume k65.journal   (and mancala solve --check k65.journal --reprove 3)\n"
    "  mancala db build --game 'oware(preset=awari)' --seeds 16 && "
    "mancala solve --game 'oware(preset=awari)' --position 0-0-0-0-0-0-1-3-3-0-0-3-24-14-N\n"
    "  mancala solve --game oware --position 1-4-5-3-3-0-0-4-1-3-3-3-14-4-N --seconds 120"
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``solve`` to the CLI's subcommands."""
    summary = "the exact value of a position (Kalah; Oware endgames), a best move and a perfect line"
    solve = add_command(sub, "solve", summary, DESCRIPTION, EPILOG)
    add_game_arguments(solve)
    solve.add_argument("--no-progress", action="store_true", help="do not show the progress display")
    solve.add_argument(
        "--endgame-seeds",
        type=int,
        metavar="K",
        help="use an endgame database of at least K seeds (built once and cached; later solves "
        "use the largest cached one that fits the memory bound)",
    )
    solve.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="Kalah: prove on the Ray cluster at ADDRESS (host:port), or 'local' for a Ray of this machine; "
        "MTD(f) at the root with each pass's root moves tested on the workers, all against one database",
    )
    solve.add_argument(
        "--split-plies",
        type=int,
        metavar="N",
        help="Kalah: split the proof N moves below the root (1-4; extra turns are moves), proving the positions "
        "there one by one (alpha-beta over the split, each against its window), or as Ray tasks with --ray; "
        "default with --journal 2, with --ray 1",
    )
    solve.add_argument(
        "--journal",
        metavar="FILE",
        help="Kalah: a split proof recording each finished sub-proof in FILE (appended, fsynced, each line "
        "checksummed); Ctrl-C keeps them, and the same command (or --resume FILE) continues",
    )
    solve.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the split proof recorded in FILE: its game, position and split are read from it",
    )
    solve.add_argument(
        "--check",
        metavar="FILE",
        help="check a split proof's journal on its own: every line's checksum, that its sub-proofs combine "
        "to the root's value it records; with --reprove N, N sub-proofs proved again",
    )
    solve.add_argument(
        "--reprove", type=int, metavar="N", help="with --check: prove N recorded sub-proofs again (default 0)"
    )
    solve.add_argument("--workers", type=int, help="with --ray local: CPUs of the local Ray (default: all)")
    solve.add_argument(
        "--no-limit",
        action="store_true",
        help="Kalah: start a proof larger than standard Kalah(6,4)'s from its start too (refused without this)",
    )
    solve.add_argument(
        "--seconds",
        type=float,
        help="Oware above its endgame database: the most time the proof by search may take (default 60); "
        "it ends with the bounds it reached (two transposition tables, 200 MB)",
    )
    solve.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``mancala solve``: the exact value of a position, a best move and a perfect line:
    Kalah by the engine's solver, Oware from its endgame database (``mancala db build``)."""
    if args.check is not None:
        return _check(args)
    if args.reprove is not None:
        raise BadInput("--reprove goes with --check FILE")
    if args.resume is not None:
        return _resume(args)
    if solver_record(args) is None:
        return _solve_from_table(args)
    from mancala.engine import solve  # noqa: PLC0415 (numba loads only when needed)

    if args.seconds is not None:
        raise BadInput("--seconds bounds an Oware proof above its endgame database; Kalah's solver runs to the end")
    if args.endgame_seeds is not None and not 0 <= args.endgame_seeds <= 100:
        raise BadInput(f"--endgame-seeds must be 0-100, got {args.endgame_seeds}")
    game, state = solver_position(args)
    if game.is_terminal(state):
        raise BadInput("that position is already finished: there is nothing to solve")
    from mancala.engine.solver import MAX_SOLVE_POSITIONS, solve_positions  # noqa: PLC0415

    if not args.no_limit and solve_positions(state) > MAX_SOLVE_POSITIONS:
        raise BadInput(
            f"the seeds in play can form about {solve_positions(state):.1e} positions, more than the "
            f"{MAX_SOLVE_POSITIONS:.1e} of standard Kalah(6,4) from its start (a few minutes' proof): this "
            f"proof could run for days; give --no-limit to start it anyway"
        )
    if args.endgame_seeds is not None:
        _say_if_the_database_does_not_fit(game, state, args.endgame_seeds)
    if args.ray is not None:
        return _solve_on_ray(args, game, state)
    if args.workers is not None:
        raise BadInput("--workers sizes a local Ray; give --ray local (or --ray ADDRESS)")
    if args.journal is not None or args.split_plies is not None:
        return _split(args, game, state, args.journal)
    # solve readies the engine itself, with the database of the proof (not the players' first)
    result = solve(
        game,
        state,
        progress=not args.no_progress,
        endgame_seeds=args.endgame_seeds,
        notice=lambda: print("preparing the engine (once)…", file=sys.stderr, flush=True),
    )
    who = game.seat_name(state.seat)
    print(f"value: {result.value:+d} for {who} (final store difference with perfect play)")
    print(f"best move: {result.move}")
    print("perfect line: " + " ".join(str(m) for m in result.line))
    print(f"nodes: {result.nodes:,}  time: {result.seconds:.2f} s")
    return 0


def _say_if_the_database_does_not_fit(game, state, k: int) -> None:
    """One line on stderr when ``--endgame-seeds K`` asks for a database larger than the
    databases' share of the memory bound: the solve then uses a smaller one, and the line says
    how to raise the bound."""
    from mancala.engine import endgame, tables  # noqa: PLC0415 (numba loads only when needed)

    k = min(k, sum(state.row(0)) + sum(state.row(1)))
    need, room = endgame.nbytes(game.rules.pits, k), tables.database_room()
    if need > room:
        mb = -(-4 * need // 2**20 // 1000) * 1000  # the databases get a quarter of the bound
        print(
            f"mancala solve: a {k}-seed database takes {need / 2**20:,.0f} MB, more than the databases' share "
            f"of the memory bound ({room / 2**20:,.0f} MB), so a smaller one is used; "
            f"for this one set MANCALA_MEMORY_MB={mb}",
            file=sys.stderr,
            flush=True,
        )


def _solve_on_ray(args: argparse.Namespace, game, state) -> int:
    """``mancala solve --ray``: the positions a few moves below the root proved as Ray tasks."""
    from mancala.engine import cluster, distributed  # noqa: PLC0415 (Ray loads only for --ray)

    plies = args.split_plies
    if plies is not None and not 1 <= plies <= 4:
        raise BadInput(f"--split-plies must be 1-4, got {plies}")
    if args.workers is not None and not 1 <= args.workers <= 4096:
        raise BadInput(f"--workers must be 1-4096, got {args.workers}")
    if args.workers is not None and args.ray != "local":
        raise BadInput("--workers sizes a local Ray (--ray local); a cluster's workers are its own")
    say = None if args.no_progress else distributed.stderr_line
    journal = None
    if args.journal is not None:
        from mancala.engine import split_proof  # noqa: PLC0415

        plies = plies if plies is not None else split_proof.DEFAULT_PLIES
        split_proof.split_tree(game, state, plies)  # (its depth checked before the journal is made)
        journal = split_proof.Journal.open(args.journal, split_proof.journal_header(game, state, plies))
    try:
        with cluster.connected(args.ray, args.workers) as ray:
            proof = distributed.solve_on_ray(
                ray, game, state, plies=plies, endgame_seeds=args.endgame_seeds, say=say, journal=journal
            )
    except KeyboardInterrupt:
        if journal is None:
            raise
        _stopped(journal.kept(), journal.path, args)
        return 130
    finally:
        if journal is not None:
            journal.close()
    who = game.seat_name(state.seat)
    print(f"value: {proof.value:+d} for {who} (final store difference with perfect play)")
    print(f"best move: {proof.move}")
    if plies is not None:
        print("moves: " + "  ".join(f"{m} {v:+d}" for m, v in proof.move_values.items()))
        how = f"{proof.tasks} positions {plies} move(s) deep proved exactly"
    else:
        how = f"MTD(f) at the root, {proof.tasks} null-window passes split by root move"
    print(
        f"proved on Ray ({how}) on {proof.workers} CPUs, "
        f"nodes: {proof.nodes:,}  time: {proof.seconds:.2f} s (database and first guess {proof.setup_seconds:.2f} s)"
    )
    return 0


def _split(args: argparse.Namespace, game, state, path: str | None) -> int:
    """``mancala solve --split-plies N`` / ``--journal FILE`` on this machine: the proof split
    into sub-proofs (:mod:`mancala.engine.split_proof`), each recorded in the journal when done."""
    from mancala.engine import split_proof  # noqa: PLC0415

    plies = args.split_plies if args.split_plies is not None else split_proof.DEFAULT_PLIES
    header = split_proof.journal_header(game, state, plies)
    split_proof.split_tree(game, state, plies)  # (its depth checked before the journal is made)
    journal = split_proof.Journal.open(path, header) if path is not None else None
    prepare_engine(game)
    began = time.perf_counter()

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if journal is not None and journal.contents.records and not args.no_progress:
        say(f"resuming {journal.path}: {journal.contents.records} sub-proof line(s) recorded")
    try:
        result = split_proof.prove_split(
            game,
            state,
            plies,
            journal=journal,
            endgame_seeds=args.endgame_seeds,
            say=None if args.no_progress else say,
        )
    except split_proof.SplitStopped as stopped:
        _stopped(stopped.recorded, stopped.path, args, stopped.total)
        return 130
    finally:
        if journal is not None:
            journal.close()
    who = game.seat_name(state.seat)
    print(f"value: {result.value:+d} for {who} (final store difference with perfect play)")
    print(f"best move: {result.move}")
    print("moves: " + "  ".join(f"{m} {split_proof.show_bounds(iv)}" for m, iv in result.moves.items()))
    where = f", recorded in {journal.path}" if journal is not None else ""
    print(
        f"split {plies} move(s) deep: {result.subproofs} positions, {result.proved} proved now, "
        f"{result.resumed} from the journal{where}; nodes: {result.nodes:,}  time: {time.perf_counter() - began:.2f} s"
    )
    return 0


def _stopped(recorded: int, path: Any, args: argparse.Namespace, total: int | None = None) -> None:
    """The one line a stopped split proof prints: what it kept and how to go on."""
    if path is None:
        print("mancala solve: interrupted (no journal: give --journal FILE to keep sub-proofs)", file=sys.stderr)
        return
    again = f"mancala solve --resume {path}" + (f" --ray {args.ray}" if args.ray is not None else "")
    print(
        f"mancala solve: stopped; {recorded} sub-proof line(s) kept in {path}"
        + (f" (the split has {total} positions)" if total is not None else "")
        + f"; resume with: {again}",
        file=sys.stderr,
        flush=True,
    )


def _resume(args: argparse.Namespace) -> int:
    """``mancala solve --resume FILE``: the proof recorded in FILE continued (its game,
    position and split read from its header), on this machine or with ``--ray``."""
    from mancala.engine import split_proof  # noqa: PLC0415
    from mancala.engine.support import engine_support  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    if args.journal is not None:
        raise BadInput("--resume FILE continues the proof in FILE; give --journal or --resume, not both")
    header = split_proof.read_journal(args.resume).header
    try:
        game: Any = make_game(str(header.get("game")))
        state = split_proof.state_from_data(header.get("root"))
        plies = header.get("plies")
        record = engine_support(game.name)
        if record is None or not record.solves or not isinstance(plies, int):
            raise ValueError("not a Kalah split")
    except (ValueError, TypeError) as e:
        raise BadInput(f"{args.resume}, line 1: a header that names no Kalah game, position or split ({e})") from None
    if args.split_plies is not None and args.split_plies != plies:
        raise BadInput(f"{args.resume}: split {plies} moves deep; --split-plies {args.split_plies} cannot resume it")
    args.split_plies, args.journal = plies, args.resume
    if args.ray is not None:
        return _solve_on_ray(args, game, state)
    if args.workers is not None:
        raise BadInput("--workers sizes a local Ray; give --ray local (or --ray ADDRESS)")
    return _split(args, game, state, args.resume)


def _check(args: argparse.Namespace) -> int:
    """``mancala solve --check FILE``: a split proof's journal checked on its own."""
    from mancala.engine import split_proof  # noqa: PLC0415

    for given, option in ((args.resume, "--resume"), (args.journal, "--journal"), (args.ray, "--ray")):
        if given is not None:
            raise BadInput(f"--check reads a journal on its own; {option} does not go with it")
    reprove = args.reprove if args.reprove is not None else 0
    if not 0 <= reprove <= 1_000_000:
        raise BadInput(f"--reprove must be 0-1000000, got {reprove}")

    def say(line: str) -> None:
        if not args.no_progress:
            print(line, file=sys.stderr, flush=True)

    report = split_proof.check_journal(args.check, reprove, say=say)
    head = report.header
    print(f"journal: {args.check}: {head.get('game')}, split {head.get('plies')} move(s) deep")
    print(
        f"written by mancala {head.get('mancala')}"
        + ("" if report.same_engine else f" (this is {split_proof.engine_version()})")
    )
    cut = "; its last line was cut short (ignored)" if report.cut else ""
    print(f"lines: {report.records} sub-proof line(s), every checksum whole{cut}")
    bounds = split_proof.show_bounds(report.bounds)
    if report.recorded is not None:
        print(f"root value: {report.recorded:+d} (recorded), and the sub-proofs combine to it")
    elif report.bounds[0] == report.bounds[1]:
        print(f"root value: {bounds} (the sub-proofs prove it; the proof's last line is not written yet)")
    else:
        print(f"root value: {bounds} so far (unfinished: resume with mancala solve --resume {args.check})")
    if report.lines and report.recorded is None:
        print(f"proved so far, for {report.mover} (S/N: South's/North's move; an extra turn is two moves of one side):")
        for line, iv in report.lines:
            print(f"  {' '.join(line)}: {split_proof.show_bounds(iv)}")
    print(
        f"re-proved: {report.reproved} sub-proof(s), each inside its recorded bounds"
        if reprove
        else "re-proved: none (give --reprove N to prove N sub-proofs again)"
    )
    return 0


def _solve_from_table(args: argparse.Namespace) -> int:
    """``mancala solve`` on a game answered from an endgame database (Oware)."""
    from mancala.engine.support import engine_records, engine_support  # noqa: PLC0415
    from mancala.games import game_spec  # noqa: PLC0415
    from mancala.games.catalogue import traits_of  # noqa: PLC0415

    for given, option in (
        (args.ray, "--ray"),
        (args.split_plies, "--split-plies"),
        (args.workers, "--workers"),
        (args.journal, "--journal"),
    ):
        if given is not None:  # (Kalah's solver reads them; a table answers here, on this machine)
            raise BadInput(f"{option} shapes a Kalah proof; this game is answered from its endgame database here")
    if args.endgame_seeds is not None:
        raise BadInput(
            "--endgame-seeds sizes Kalah's database; this game uses the largest one built (mancala db build)"
        )
    if args.seconds is not None and not 0 < args.seconds <= 86400:
        raise BadInput(f"--seconds must be more than 0 and at most 86400 (a day), got {args.seconds:g}")
    game, state = build_game(args)
    record = engine_support(game.name)
    if record is None or record.exact is None or record.table_seeds is None:
        tables = ", ".join(r.game for r in engine_records() if r.exact)
        raise BadInput(
            f"mancala solve solves Kalah (its solver) and {tables} (endgame databases); {game.name} has neither"
        )
    if game.is_terminal(state):
        raise BadInput("that position is already finished: there is nothing to solve")
    answer_of, seeds_of = record.exact, record.table_seeds
    units = traits_of(game).margin_unit or "seeds"  # (Oware's seeds, Togyz Kumalak's stones)
    unit = units[:-1] if units.endswith("s") else units
    answer = answer_of(game, state)
    have = seeds_of(game) if answer is None else -1  # the cache's largest table (a scan of its files)
    if answer is None and have >= 0 and record.table_proof is not None:
        return _prove_above_table(args, game, state, have, record.table_proof)
    if answer is None:
        board = sum(state.houses)
        has = f"the largest in the cache holds {have} {units}" if have >= 0 else "none is in the cache"
        rules: Any = getattr(game, "rules", None)
        bare = type(game)(dataclasses.replace(rules, start=None)) if hasattr(rules, "start") else game
        size = max(board, have + 1)
        room = record.table_build(game, size) if record.table_build is not None else size
        if room <= have:
            raise BadInput(
                f"this position has {board} {units} on the board and {has}; no larger one fits the memory bound ($MANCALA_DB_MEMORY)"
            )
        if room < board and record.table_proof is None:  # no search proves above this game's tables
            raise BadInput(
                f"this position has {board} {units} on the board, more than the largest endgame table that fits the "
                f"memory bound ($MANCALA_DB_MEMORY): {room} {units} (mancala db build --game '{game_spec(bare)}' "
                f"--seeds {room}); mancala solve answers this game within its tables"
            )
        above = (
            "; mancala solve then proves this position by a search down to it"
            if room < board and record.table_proof is not None
            else ""
        )
        raise BadInput(
            f"this position has {board} {units} on the board and {has}; build one first: "
            f"mancala db build --game '{game_spec(bare)}' --seeds {room}{above}"
        )
    mover = game.player_name(game.to_move(state))
    best_move, value = answer.moves[0]
    kind = (
        "exact"
        if answer.exact
        else answer.note
        or "the table's estimate: its rules end a repetition by the rows, which it values as an even split"
    )
    print(f"value: {value:+d} for {mover} (final {unit} difference with perfect play; {kind})")
    print("moves: " + ", ".join(f"{m} {v:+d}" for m, v in answer.moves))
    print(f"best move: {best_move}")
    print("perfect line: " + " ".join(str(m) for m in answer.line))
    print(f"from the {answer.seeds}-{unit} endgame database")
    return 0


def _prove_above_table(args: argparse.Namespace, game, state, seeds: int, prove: Any) -> int:
    """``mancala solve`` on a position with more seeds than the cached endgame database: a
    search down to the database bounds the value, deeper each round, until the bounds meet
    (proven) or ``--seconds`` run out (the bounds so far)."""
    seconds = args.seconds if args.seconds is not None else 60.0
    mover = game.player_name(game.to_move(state))
    start = time.perf_counter()

    def report(depth: int, low: int, high: int, nodes: int) -> None:
        if not args.no_progress:
            print(
                f"depth {depth}: {mover}'s value {low:+d} .. {high:+d} ({nodes:,} nodes, "
                f"{time.perf_counter() - start:.1f} s)",
                file=sys.stderr,
                flush=True,
            )

    if not args.no_progress:
        print(f"proving by search down to the {seeds}-seed endgame database (loading it first)", file=sys.stderr)
    bounds = prove(game, state, seconds, report)
    took = time.perf_counter() - start
    how = (
        f"searched {bounds.depth} plies down to the {seeds}-seed endgame database, {bounds.nodes:,} nodes, {took:.1f} s"
    )
    kind = "exact" if bounds.exact else "with the database's estimate of a forced repetition"
    if bounds.proven:
        print(f"value: {bounds.low:+d} for {mover} (final seed difference with perfect play; {kind})")
        print(f"best move: {bounds.move}")
        print(f"proved: {how}")
        return 0
    print(f"not proved within {seconds:g} s: {mover}'s value lies in {bounds.low:+d} .. {bounds.high:+d} ({kind})")
    if bounds.move is not None:
        print(f"a move that keeps at least {bounds.low:+d}: {bounds.move}")
    print(f"{how}; give more --seconds, or build a larger database (mancala db build)")
    return 0
