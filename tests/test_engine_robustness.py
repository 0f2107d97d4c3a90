"""The engine at its edges: Ctrl-C while it thinks, positions beyond its limits, its memory
bound over many rule sets, preparation outside the time budget, analysis that never names
a move proved worse than another, and the review of a whole saved game."""

from __future__ import annotations

import _thread
import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import random_position

from mancala import analysis as study
from mancala.cli.main import main
from mancala.engine import analyse, best_move, is_prepared, memory_in_use, prepare, set_memory_limit, solve
from mancala.engine import engine as E
from mancala.engine.searcher import FULL_DEPTH, Searcher
from mancala.errors import BadInput
from mancala.games import make_game
from mancala.games.kalah import Kalah, KalahRules, KalahState
from mancala.record import GameRecord, load_record, save_record

ROOT = Path(__file__).resolve().parents[1]
HUGE = "99999999999999999999 0 0 0 0 0 0 1 0 0 0 0 0 0"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MANCALA_TT_MB", "16")
    monkeypatch.delenv("MANCALA_ENDGAME_SEEDS", raising=False)
    monkeypatch.delenv("MANCALA_MEMORY_MB", raising=False)
    E.reset()
    yield
    E.reset()


# --- item 1: Ctrl-C while the engine thinks -------------------------------------------------


def _interrupt_child(args: list[str], tmp_path, ready: str | None) -> tuple[int, str, str]:
    """Run ``mancala ARGS`` in a child, send SIGINT once ``ready`` appeared on stdout (if
    given) and the engine has had a moment to start searching; return (exit code, stdout,
    stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), MANCALA_CACHE_DIR=str(tmp_path / "cache"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mancala", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen = []
    while ready is not None:
        line = proc.stdout.readline()
        seen.append(line)
        if ready in line or not line:
            break
    threading.Event().wait(3.0)  # loading the kernels, then well into the search
    assert proc.poll() is None, "the search ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, "".join(seen) + out, err


@pytest.mark.processes
@pytest.mark.parametrize(
    "args,ready",
    [
        (["analyse", "--seeds", "6", "--seconds", "60"], "South"),  # (no opening book for 6 seeds)
        (["solve", "--pits", "6", "--seeds", "6", "--no-progress", "--no-limit"], None),
        (["play", "--p1", "best:time=60", "--p2", "best:time=60"], "South"),
        # Oware's and Bao's engines read the clock from compiled code: a Ctrl-C there was a
        # SystemError and exit 1 (issue 33)
        (["play", "--game", "oware", "--p1", "best:time=600", "--p2", "random"], "South"),
        (["play", "--game", "bao", "--p1", "best:time=600", "--p2", "random"], "South"),
    ],
)
def test_ctrl_c_while_the_engine_thinks_exits_cleanly(args, ready, tmp_path):
    code, out, err = _interrupt_child(args, tmp_path, ready)
    assert "Traceback" not in err and "SystemError" not in err
    if args[0] == "play":  # the terminal game says so in its own words (ui/terminal.py)
        assert code == 130 and "interrupted" in (out + err).lower(), (code, err)
    else:
        assert code == 130, err
        assert err.strip().splitlines()[-1] == f"mancala {args[0]}: interrupted"


_INTERRUPTED_WHILE_COMPILING = """
import argparse, atexit, sys, threading, time
import mancala.cli
cli = sys.modules["mancala.cli.main"]
atexit.register(lambda: print("shutdown ran", flush=True))
def command(args):
    # an engine's worker still busy after the grace (a first compilation), then Ctrl-C
    if args.busy:
        threading.Thread(target=time.sleep, args=(60,), name="mancala-engine", daemon=True).start()
    raise KeyboardInterrupt
cli.main = lambda argv=None: cli.run(argparse.Namespace(func=command, command="play", busy=sys.argv[1] == "busy"))
cli.entry()
"""


@pytest.mark.parametrize("busy", [True, False])
def test_ctrl_c_with_an_engine_thread_still_compiling_ends_without_the_interpreter_shutdown(busy):
    # the shutdown would free the compiler's objects under the running LLVM (exit -2/-6/-11)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    args = [sys.executable, "-c", _INTERRUPTED_WHILE_COMPILING, "busy" if busy else "idle"]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 130 and done.stderr.strip() == "mancala play: interrupted"
    assert ("shutdown ran" in done.stdout) is not busy


def test_ctrl_c_in_process_raises_keyboard_interrupt_and_the_engine_still_works():
    game = make_game("kalah")
    prepare(game)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        best_move(game, game.initial_state(), 60.0)
    timer.cancel()
    r = best_move(game, game.initial_state(), max_depth=3)
    assert r.move in game.legal_moves(game.initial_state()) and r.depth == 3


@pytest.mark.parametrize("spec", ["oware", "bao"])
def test_ctrl_c_during_a_timed_search_of_oware_or_bao_is_a_keyboard_interrupt(spec):
    from mancala.engine.bao.search import BaoSearcher
    from mancala.engine.bao.search import search as bao_search
    from mancala.engine.oware.search import OwareSearcher
    from mancala.engine.oware.search import search as oware_search

    game = make_game(spec)
    searcher, search = (OwareSearcher(game), oware_search) if spec == "oware" else (BaoSearcher(game), bao_search)
    done = threading.Event()

    def interrupt_once_searching() -> None:
        while searcher.nodes < 200_000 and not done.is_set():  # the event: the search is well under way
            done.wait(0.001)
        if not done.is_set():
            os.kill(os.getpid(), signal.SIGINT)

    watcher = threading.Thread(target=interrupt_once_searching)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt):  # (was SystemError: ... returned a result with an exception set)
            search(game, game.initial_state(), 600.0, searcher=searcher)
    finally:
        done.set()
        watcher.join()
    assert search(game, game.initial_state(), None, max_depth=2).depth == 2  # the engine still works


# --- item 4: positions beyond the engine's limits ----------------------------------------


@pytest.mark.parametrize("command", ["analyse", "solve"])
def test_huge_positions_are_refused_in_one_line(command, capsys):
    assert main([command, "--position", HUGE]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "at most 14,000 seeds" in err and "pits and 2 stores" in err


def test_position_limits_are_checked_where_positions_are_read():
    with pytest.raises(BadInput, match="at most 14,000 seeds"):
        KalahRules(start=(14_001,) + (0,) * 13)
    KalahRules(start=(14_000,) + (0,) * 13)  # the limit itself is fine
    with pytest.raises(BadInput, match="at most 4,000 seeds"):
        Kalah(KalahRules(pits=1, seeds=0)).position((4001, 0, 0, 0), 0)
    game = make_game("kalah")
    too_big = KalahState(board=(2**70,) + (0,) * 6 + (1,) + (0,) * 6, seat=0)  # made by hand, unchecked
    with pytest.raises(BadInput, match="at most 14,000 seeds"):
        best_move(game, too_big, max_depth=1)


def test_the_largest_board_is_searched():
    game = make_game("kalah(pits=20,seeds=1000)")
    state = game.initial_state()
    r = best_move(game, state, max_depth=2)
    assert r.move in game.legal_moves(state) and r.depth == 2


# --- items 5 and issue 12: the memory bound --------------------------------------------------

RULE_SETS = ["standard", "empty-capture", "egyptian", "no-stealing", "cs151"]


def test_solving_many_rule_sets_keeps_the_engine_within_its_memory_bound():
    set_memory_limit(64)  # tables get 48 MB: one 32 MB table at a time
    for preset in RULE_SETS:
        game = make_game(f"kalah(preset={preset},pits=3,seeds=3)")
        solve(game, game.initial_state(), progress=False, megabytes=1024)  # each asks for 1 GB
        use = memory_in_use()
        assert use["tables"] + use["databases"] <= use["limit"] == 64 * 2**20
        assert use["contexts"] == 1  # one table in the process
    # and the answers stay right after the other rule sets took the memory
    game = make_game("kalah(preset=empty-capture,pits=3,seeds=3)")
    assert solve(game, game.initial_state(), progress=False, megabytes=1024).value == 2  # alpha-beta agrees


def test_the_memory_bound_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("MANCALA_MEMORY_MB", "40")
    for preset in RULE_SETS[:3]:
        game = make_game(f"kalah(preset={preset},pits=4,seeds=2)")
        best_move(game, game.initial_state(), max_depth=4)
        use = memory_in_use()
        assert use["tables"] + use["databases"] <= 40 * 2**20 == use["limit"]
    monkeypatch.setenv("MANCALA_MEMORY_MB", "lots")
    with pytest.raises(BadInput, match="MANCALA_MEMORY_MB"):
        memory_in_use()


def test_a_searcher_whose_table_was_taken_attaches_a_new_one():
    set_memory_limit(1)
    a = make_game("kalah(preset=standard,pits=3,seeds=2)")
    b = make_game("kalah(preset=egyptian,pits=3,seeds=2)")
    searcher = Searcher(a, a.initial_state())
    first = searcher.ctx
    Searcher(b, b.initial_state())  # takes the memory: the idle table of ``a`` goes
    assert first.evicted
    g, _, complete, exact = searcher.run(FULL_DEPTH, 0)
    assert complete and exact and searcher.acc + g == solve(a, a.initial_state(), progress=False).value
    assert not searcher.ctx.evicted


def test_databases_shrink_to_fit_the_bound():
    set_memory_limit(1)  # databases get 256 kB: K=8 for 6 pits (125,970 entries), not the usual 10
    game = make_game("kalah(preset=empty-capture,pits=6,seeds=1)")
    result = solve(game, game.initial_state(), progress=False)
    assert result.value == 2  # Irving et al.: (6,1) = +2
    assert memory_in_use()["databases"] <= 2**18


# --- item 7: preparation is not part of the budget --------------------------------------


def test_prepare_is_idempotent_and_reported():
    game = make_game("kalah(preset=empty-capture,pits=4,seeds=2)")
    assert not is_prepared(game)
    told = []
    assert prepare(game, notice=lambda: told.append(1), notice_after=0.0) >= 0.0
    assert is_prepared(game) and told == [1]
    assert prepare(game) == 0.0
    other = make_game("kalah(preset=standard,pits=4,seeds=2)")
    assert not is_prepared(other)
    with pytest.raises(BadInput):
        prepare(make_game("tictactoe"))


def test_the_budget_starts_after_the_engine_is_ready(monkeypatch):
    game = make_game("kalah")
    now = [0.0]
    real_prepare = E.prepare

    def slow_prepare(g, **kw):  # a first compilation that takes 100 (fake) seconds
        now[0] += 100.0
        return real_prepare(g, **kw)

    def clock():  # each look at the clock costs 0.1 s: about six iterations fit in 1 s
        now[0] += 0.1
        return now[0]

    monkeypatch.setattr(E, "prepare", slow_prepare)
    r = best_move(game, game.initial_state(), 1.0, clock=clock, max_nodes=2_000_000)
    assert r.depth > 1  # with preparation counted, depth 1 would be all


# --- item 10: no stray output on stderr -----------------------------------------------------


def test_solve_and_analyse_print_nothing_on_stderr_when_it_is_not_a_terminal(capsys):
    game = "kalah(preset=empty-capture,pits=3,seeds=2)"
    prepare(make_game(game))
    assert main(["solve", "--game", game]) == 0
    assert capsys.readouterr().err == ""
    assert main(["analyse", "--game", game, "--seconds", "1"]) == 0
    assert capsys.readouterr().err == ""


# --- item 8: analysis over the whole root ------------------------------------------------


def _exact_values(game, state) -> dict:
    mover = game.to_move(state)
    out = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        if child.finished:
            out[move] = game.score(child, mover)
            continue
        v = solve(game, child, progress=False).value
        out[move] = v if game.to_move(child) == mover else -v
    return out


@pytest.mark.parametrize("preset,pits,seeds", [("standard", 4, 3), ("empty-capture", 3, 4), ("egyptian", 4, 2)])
def test_analysis_agrees_with_exact_solves_and_never_names_a_refuted_move(preset, pits, seeds):
    game = make_game(f"kalah(preset={preset},pits={pits},seeds={seeds})")
    rng = random.Random(pits * 10 + seeds)
    for _ in range(6):
        state = random_position(game, rng, rng.randint(0, 6))
        if state.finished:
            continue
        truth = _exact_values(game, state)
        full = analyse(game, state, 1000.0)
        assert all(mv.exact for mv in full)
        assert {mv.move: mv.value for mv in full} == truth
        assert full[0].value == max(truth.values()) and full.line[0] == full[0].move
        for budget in (300, 3_000, 30_000):  # cut short by nodes: bounds must hold, the best not refuted
            E.reset()
            part = analyse(game, state, 1000.0, max_nodes=budget)
            assert {mv.move for mv in part} == set(truth)
            for mv in part:
                assert mv.lower <= truth[mv.move] <= mv.upper
                assert mv.lower <= mv.value <= mv.upper
                if mv.exact:
                    assert mv.value == truth[mv.move]
            best = part[0]
            assert all(best.value >= mv.lower for mv in part)
            if best.exact:
                assert best.value == max(truth.values())


def test_analysis_of_empty_capture_3_5_names_the_best_move():
    game = make_game("kalah(preset=empty-capture,pits=3,seeds=5)")
    state = game.initial_state()
    truth = _exact_values(game, state)
    table = analyse(game, state, 1000.0, max_nodes=20_000)
    assert truth[table[0].move] == max(truth.values())


# --- item 11: reviewing a whole game -----------------------------------------------------------


def _saved_game(tmp_path) -> Path:
    game = make_game("kalah(pits=4,seeds=3)")
    record = GameRecord(game, ["human", "medium"])
    state = game.initial_state()
    for text in ["1", "4", "2", "3", "1"]:
        move = game.parse_move(state, text)
        record.moves.append(move)
        state = game.apply(state, move)
    path = tmp_path / "game.json"
    save_record(record, path)
    return path


def test_review_judges_every_move_against_exact_values(tmp_path):
    record = load_record(_saved_game(tmp_path))
    game = record.game
    review = study.review(game, list(record.moves), study.budget(game, 1000.0))
    states = record.states()
    assert [m["ply"] for m in review["moves"]] == [1, 2, 3, 4, 5]
    for m, state, move in zip(review["moves"], states, record.moves):
        truth = _exact_values(game, state)
        assert m["move"] == str(move) and m["mover"] == game.seat_name(state.seat)
        assert m["exact"] and m["value"] == truth[move] and m["best_value"] == max(truth.values())
        assert m["loss"] == m["proven_loss"] == max(truth.values()) - truth[move]
    mistakes = review["mistakes"]
    assert (
        mistakes
        and [m["loss"] for m in mistakes]
        == sorted((m["loss"] for m in review["moves"] if m["loss"] > 0), reverse=True)[:5]
    )
    assert json.loads(json.dumps(review)) == review


def test_analyse_command_reviews_a_game_or_its_last_position(tmp_path, capsys):
    path = _saved_game(tmp_path)
    assert main(["analyse", str(path), "--seconds", "2"]) == 0
    out = capsys.readouterr().out
    assert "Review of" in out and "Turning points" in out
    assert "move 1: South played 1 (-6) instead of 2 (+6): 12 seeds lost (proved)" in out
    assert main(["analyse", str(path), "--last", "--seconds", "2"]) == 0
    out = capsys.readouterr().out
    assert "North to move" in out and "Review of" not in out
    assert main(["analyse", "--last", "--pits", "3"]) == 2
    assert "--last" in capsys.readouterr().err
