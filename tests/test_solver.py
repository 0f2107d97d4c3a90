"""The exact solver against published game values, the reference search, and itself;
endgame databases (values, cache files)."""

from __future__ import annotations

import hashlib
import os
import random
import threading

import numpy as np
import pytest
from helpers import random_position

from mancala.engine import analyse, best_move, bridge, endgame, solve, solver
from mancala.engine import engine as E
from mancala.engine.kernels import EXTRA, OVER, PASS, composition_table, gen_moves, is_over, make_move, rank, sweep
from mancala.engine.searcher import FULL_DEPTH, Searcher
from mancala.evaluation import score_difference
from mancala.games import make_game
from mancala.games.kalah import Capture, GameEnd, Kalah, KalahRules, Remaining
from mancala.search import alphabeta


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MANCALA_TT_MB", "16")
    monkeypatch.delenv("MANCALA_ENDGAME_SEEDS", raising=False)
    E.reset()
    yield
    E.reset()


def sign(v: int) -> str:
    return "W" if v > 0 else ("L" if v < 0 else "D")


# Irving, Donkers & Uiterwijk (2000), empty-capture rules: first player's margin
PUBLISHED = {
    (1, 1): "D",
    (1, 2): "L",
    (1, 3): "W",
    (1, 4): "L",
    (1, 5): "W",
    (1, 6): "D",
    (2, 1): "W",
    (2, 2): "L",
    (2, 3): "L",
    (2, 4): "L",
    (2, 5): "W",
    (2, 6): "W",
    (3, 1): "D",
    (3, 2): "W",
    (3, 3): "W",
    (3, 4): "W",
    (3, 5): "W",
    (3, 6): "L",
    (4, 1): 2,
    (4, 2): 6,
    (4, 3): 8,
    (4, 4): 2,
    (5, 1): 0,
    (5, 2): 0,
    (6, 1): 2,
    (6, 2): 10,
    (6, 3): 2,
}


@pytest.mark.parametrize("pits,seeds", sorted(PUBLISHED))
def test_published_empty_capture_values(pits, seeds, monkeypatch):
    monkeypatch.setenv("MANCALA_ENDGAME_SEEDS", "10")
    game = make_game(f"kalah(preset=empty-capture,pits={pits},seeds={seeds})")
    result = solve(game, game.initial_state(), progress=False)
    expected = PUBLISHED[(pits, seeds)]
    if isinstance(expected, str):
        assert sign(result.value) == expected
    else:
        assert result.value == expected


def test_standard_rules_small_values_match_exhaustive_reference():
    for pits, seeds in [(3, 2), (4, 1), (3, 3)]:
        game = Kalah(KalahRules(pits=pits, seeds=seeds))
        state = game.initial_state()
        assert solve(game, state, progress=False).value == alphabeta(game, state, 10_000, score_difference).value


def test_perfect_line_reaches_the_value():
    game = make_game("kalah(preset=empty-capture,pits=6,seeds=2)")
    state = game.initial_state()
    result = solve(game, state, progress=False)
    assert result.line[0] == result.move
    player = game.to_move(state)
    for move in result.line:
        state = game.apply(state, move)
    assert state.finished
    assert game.score(state, player) == result.value == 10


@pytest.mark.parametrize("no_first", [True, False])
def test_pie_rule_solve_and_line(no_first):
    game = Kalah(KalahRules(pits=3, seeds=3, pie_rule=True, no_first_extra_turn=no_first))
    state = game.initial_state()
    result = solve(game, state, progress=False)
    assert result.value == alphabeta(game, state, 10_000, score_difference).value
    player = game.to_move(state)
    for move in result.line:
        state = game.apply(state, move)
    assert state.finished and game.score(state, player) == result.value


def test_best_move_is_never_worse_than_the_best_exact_value():
    rng = random.Random(2)
    game = make_game("kalah(preset=standard,pits=4,seeds=3)")
    for _ in range(12):
        state = random_position(game, rng, rng.randint(0, 8))
        if state.finished:
            continue
        r = best_move(game, state, 10.0)
        table = analyse(game, state, 10.0)
        assert all(mv.exact for mv in table)
        values = {mv.move: mv.value for mv in table}
        assert r.algorithm == "engine(exact)"
        assert values[r.move] == max(values.values()) == r.value == table[0].value
        assert table.line[0] == table[0].move


def test_database_values_match_exhaustive_reference(monkeypatch):
    for rules in [
        KalahRules(pits=2, seeds=2),
        KalahRules(pits=3, seeds=2, empty_capture=True),
        KalahRules(
            pits=3, seeds=2, capture=Capture.OPPOSITE_ONLY, end=GameEnd.MOVER_CANNOT_MOVE, remaining=Remaining.OPPONENT
        ),
    ]:
        game = Kalah(rules)
        db = endgame.build(bridge.rules_array(rules), 5)
        n = rules.pits
        rng = random.Random(1)
        for _ in range(40):
            s = rng.randint(1, 5)
            cuts = sorted(rng.randint(0, s) for _ in range(2 * n - 1))
            parts = [b - a for a, b in zip([0] + cuts, cuts + [s])]
            board = parts[:n] + [0] + parts[n:] + [0]
            state = game.position(board, 0)
            ref = alphabeta(game, state, 10_000, score_difference).value if not state.finished else game.score(state, 0)
            b = np.array(board, dtype=np.int64)
            assert db.value(b) == ref, (rules, board)


@pytest.mark.parametrize("pits,k", [(2, 16), (2, 33), (3, 9)])
def test_packed_database_holds_every_value_of_the_plain_search(pits, k):
    """Packed entries (4, 5 or 8 bits as K grows) equal a plain recursive solve (memoised
    negamax over the rules kernels, every value kept as a whole int) of every position."""
    rules = KalahRules(pits=pits, seeds=2, empty_capture=True)
    arr = bridge.rules_array(rules)
    db = endgame.build(arr, k)
    assert db.bits == (4 if k <= 15 else 5 if k <= 31 else 8)
    assert db.values.size == endgame.nbytes(pits, k)
    got = db.unpacked()
    memo: dict = {}
    rng = random.Random(k)
    for s in sorted(rng.sample(range(k + 1), min(k + 1, 6))) + [k]:
        for r in rng.sample(range(int(db.comp[2 * pits, s])), min(150, int(db.comp[2 * pits, s]))):
            parts = endgame.unrank(r, 2 * pits, s, db.comp)
            board = np.array(list(parts[:pits]) + [0] + list(parts[pits:]) + [0], dtype=np.int64)
            assert got[db.offsets[s] + r] == _plain_value(tuple(board), arr, memo), board


def _plain_value(board: tuple, arr: np.ndarray, memo: dict) -> int:
    """The relative value of ``board`` (mover to move, empty stores) by plain memoised
    negamax with the kernels' move generation (no database, no table, no packing)."""
    if board in memo:
        return memo[board]
    n = (len(board) - 2) // 2
    b = np.array(board, dtype=np.int64)
    child = np.zeros_like(b)
    if is_over(b, arr, 1):
        child[:] = b
        sweep(child, arr)
        memo[board] = int(child[n] - child[2 * n + 1])
        return memo[board]
    moves = np.zeros(2 * n, dtype=np.int64)
    best = None
    for m in moves[: gen_moves(b, arr, moves)]:
        st = make_move(b, m, child, arr, 0)
        gain = int(child[n] - child[2 * n + 1]) if st != PASS else int(child[2 * n + 1] - child[n])
        child[n] = child[2 * n + 1] = 0
        if st >= OVER:
            v = gain
        elif st == EXTRA:
            v = gain + _plain_value(tuple(child), arr, memo)
        else:
            v = gain - _plain_value(tuple(child), arr, memo)
        best = v if best is None else max(best, v)
    memo[board] = best
    return best


def test_unrank_inverts_rank():
    comp = composition_table(6, 5)
    for s in range(6):
        for r in range(int(comp[6, s])):
            parts = endgame.unrank(r, 6, s, comp)
            assert parts.sum() == s and (parts >= 0).all()
            b = np.array(list(parts[:3]) + [0] + list(parts[3:]) + [0], dtype=np.int64)
            assert rank(b, 3, s, comp) == r


#: the packed bytes of small databases, from the memoised depth-first builder the ordered one
#: replaced (issue 31): the database format is a file format, so the bytes must not move
OLD_BUILDER_SHA256 = [
    ("kalah(pits=3)", 12, "b4bf4ad365f2f579"),
    ("kalah(pits=4,preset=empty-capture)", 10, "d834bee8db52fe47"),
    (
        "kalah(pits=4,skip_origin=true,end=no-move,remaining=opponent,capture=opposite,empty_capture=true)",
        16,
        "976325579d13a1d0",
    ),
    ("kalah(pits=2,capture=none)", 20, "06a2f807cffcd435"),
]


@pytest.mark.parametrize("spec,k,sha", OLD_BUILDER_SHA256)
def test_database_bytes_are_the_old_builders(spec, k, sha):
    db = endgame.build(bridge.rules_array(make_game(spec).rules), k)
    assert hashlib.sha256(db.values.tobytes()).hexdigest()[:16] == sha


@pytest.mark.parametrize(
    "spec,k",
    [
        ("kalah(pits=3)", 10),
        ("kalah(pits=3,preset=empty-capture)", 10),
        ("kalah(pits=2,capture=opposite,empty_capture=true,skip_origin=true)", 14),
        ("kalah(pits=3,capture=opposite,end=no-move,remaining=opponent)", 9),
        ("kalah(pits=2,capture=none,end=no-move)", 12),
        ("kalah(pits=1)", 6),
    ],
)
def test_every_database_entry_keeps_its_equation(spec, k):
    """Every entry is the best of its moves, each read from the database itself or the game's
    end (:func:`endgame.check_sample` over every entry), under rules that take every path of
    the builder's move code (captures of either kind, empty or not, laps, both end rules)."""
    arr = bridge.rules_array(make_game(spec).rules)
    db = endgame.build(arr, k)
    assert endgame.check_sample(db, arr, int(db.offsets[-1])) == 0


def test_a_cancelled_build_stops():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(KeyboardInterrupt):
        endgame.build(bridge.rules_array(KalahRules(pits=4)), 12, cancel=cancel)


@pytest.mark.parametrize("threads", ["1", "3"])
def test_threaded_database_build_matches_the_single_threaded_one(threads, monkeypatch):
    rules = KalahRules(pits=3, seeds=3, empty_capture=True)
    monkeypatch.setenv("MANCALA_BUILD_THREADS", "1")
    ref = endgame.build(bridge.rules_array(rules), 8).values
    monkeypatch.setenv("MANCALA_BUILD_THREADS", threads)
    db = endgame.build(bridge.rules_array(rules), 8)
    assert np.array_equal(db.values, ref)


@pytest.mark.parametrize("preset", ["standard", "empty-capture"])
def test_perfect_line_from_table_proofs_reaches_the_value(preset):
    game = make_game(f"kalah(preset={preset},pits=5,seeds=3)")
    state = game.initial_state()
    result = solve(game, state, progress=False)
    if preset == "empty-capture":
        assert result.value == 8  # Irving et al.
    player = game.to_move(state)
    for move in result.line:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)
    assert state.finished and game.score(state, player) == result.value


def test_database_file_is_cached_checked_and_rebuilt(tmp_path, monkeypatch):
    rules = KalahRules(pits=3, seeds=3)
    key = bridge.play_key(rules)
    arr = bridge.rules_array(rules)
    db = endgame.obtain(key, arr, 6)
    assert db.built and db.path.exists()
    again = endgame.obtain(key, arr, 6)
    assert not again.built and np.array_equal(again.values, db.values)
    data = bytearray(db.path.read_bytes())
    data[-1] ^= 0x7F
    db.path.write_bytes(bytes(data))
    assert endgame.load(db.path, key, 6) is None
    rebuilt = endgame.obtain(key, arr, 6)
    assert rebuilt.built and np.array_equal(rebuilt.values, db.values)
    assert not list(db.path.parent.glob("*.tmp"))
    db.path.write_bytes(db.path.read_bytes()[:-100])  # truncated (an interrupted copy)
    assert endgame.load(db.path, key, 6) is None
    again = endgame.obtain(key, arr, 6)
    assert again.built and np.array_equal(again.values, db.values)
    assert endgame.load(db.path, key, 6) is not None


def test_database_extended_from_a_smaller_cached_one_equals_a_full_build(monkeypatch):
    rules = KalahRules(pits=3, seeds=3, empty_capture=True)
    key, arr = bridge.play_key(rules), bridge.rules_array(rules)
    full = endgame.build(arr, 13)
    small = endgame.obtain(key, arr, 10)
    data = bytearray(small.path.read_bytes())
    data[-3] ^= 0x10  # a corrupted base is not trusted: the extension starts from nothing
    small.path.write_bytes(bytes(data))
    calls = []
    real = endgame.build
    monkeypatch.setattr(endgame, "build", lambda *a, **kw: calls.append(a[4] if len(a) > 4 else None) or real(*a))
    assert np.array_equal(endgame.obtain(key, arr, 11).values, endgame.build(arr, 11).values)
    assert calls[0] is None
    grown = endgame.obtain(key, arr, 13)  # on top of the (intact) 11-seed one just saved
    assert calls[-1].seeds == 11
    assert grown.built and np.array_equal(grown.values, full.values)


def test_solve_uses_a_larger_cached_database_that_fits(monkeypatch):
    rules = KalahRules(pits=3, seeds=3)
    key = bridge.play_key(rules)
    monkeypatch.setattr(endgame, "DEFAULT_ENTRIES", 10)
    monkeypatch.setattr(endgame, "SOLVE_BYTES", 10)
    monkeypatch.setattr(endgame, "SHARED_SEEDS", 0)
    plain = endgame.solve_seeds(3, 40, key, 10**9)
    assert plain < 6 and endgame.cached_seeds(key, 3, 10**9) == 0
    db = endgame.obtain(key, bridge.rules_array(rules), 6)
    assert endgame.cached_seeds(key, 3, 10**9) == 6
    assert endgame.solve_seeds(3, 40, key, 10**9) == 6
    assert endgame.solve_seeds(3, 5, key, 10**9) == min(endgame.default_seeds(3), 5)  # small solves: no
    assert endgame.solve_seeds(3, 40, key, endgame.nbytes(3, 6) - 1) == plain  # does not fit the memory
    db.path.write_bytes(db.path.read_bytes()[: endgame.nbytes(3, 6) // 2])  # truncated: not offered
    assert endgame.cached_seeds(key, 3, 10**9) == 0


def test_players_use_a_larger_cached_database_that_fits(tmp_path, monkeypatch):
    from mancala.engine import tables

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MANCALA_ENDGAME_SEEDS", raising=False)
    monkeypatch.setattr(endgame, "DEFAULT_ENTRIES", 10)
    monkeypatch.setattr(endgame, "PLAY_ENTRIES", 10)
    game = Kalah(KalahRules(pits=3, seeds=3))
    played = endgame.play_seeds(3)
    assert played < 6

    def players_k(megabytes: float | None = None) -> int:
        tables.drop_all()  # (a fresh process: this also lifts the memory bound)
        tables.set_memory_limit(megabytes)
        db = tables.database(game, tables.context(game, 18))
        assert db is not None
        return db.seeds

    try:
        assert players_k() == played  # nothing larger in the cache: the players' own K
        endgame.obtain(bridge.play_key(game.rules), bridge.rules_array(game.rules), 6)  # mancala db build
        assert players_k() == 6
        path = tmp_path / endgame.file_name(bridge.play_key(game.rules), 6)
        intact = path.read_bytes()
        path.write_bytes(intact[:-1] + bytes([intact[-1] ^ 1]))  # damaged since: not rebuilt in a move's time
        assert players_k() == played and not (tmp_path / endgame.file_name(bridge.play_key(game.rules), 5)).exists()
        assert path.read_bytes() != intact
        path.write_bytes(intact)
        share = 4 * (endgame.nbytes(3, 6) - 1) / 2**20  # the databases' share cannot hold it
        assert players_k(share) == played  # back to the players' K, not a size in between built anew
        assert not (tmp_path / endgame.file_name(bridge.play_key(game.rules), 5)).exists()
        monkeypatch.setenv("MANCALA_ENDGAME_SEEDS", "2")  # the variable still decides
        assert players_k() == 2
    finally:
        tables.drop_all()


# --- commands (through the one CLI entry point) -------------------------------------------

from mancala.cli.main import main  # noqa: E402
from mancala.games.kalah import KalahMove  # noqa: E402
from mancala.record import GameRecord, save_record  # noqa: E402


def test_solve_command_prints_value_move_and_line(capsys):
    assert main(["solve", "--game", "kalah(preset=empty-capture,pits=6,seeds=2)", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "value: +10 for South" in out and "perfect line: " in out


def test_solve_command_builds_the_database_asked_for(capsys, tmp_path, monkeypatch):
    # a cache of its own: the players of these rules would use this larger database after it
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    assert endgame.play_seeds(6) < 17  # (so the command's database is a new one)
    assert main(["solve", "--game", "kalah(pits=6,seeds=2)", "--endgame-seeds", "17", "--no-progress"]) == 0
    assert "value: " in capsys.readouterr().out
    key = bridge.play_key(KalahRules(pits=6, seeds=2))
    assert endgame.load(endgame.cache_dir() / endgame.file_name(key, 17), key, 17) is not None


def test_solve_command_says_when_the_database_asked_for_does_not_fit(capsys, tmp_path, monkeypatch):
    """A database above the databases' quarter of the memory bound is not built: the solve uses
    a smaller one and says so in one line, with the bound that would hold it."""
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("MANCALA_MEMORY_MB", "64")  # 16 MB for databases
    assert endgame.nbytes(4, 32) > 16 * 2**20
    assert main(["solve", "--game", "kalah(pits=4,seeds=4)", "--endgame-seeds", "32", "--no-progress"]) == 0
    captured = capsys.readouterr()
    said = [line for line in captured.err.splitlines() if line.startswith("mancala solve:")]
    assert len(said) == 1 and "a 32-seed database takes 73 MB" in said[0] and "MANCALA_MEMORY_MB=1000" in said[0]
    assert "value: " in captured.out
    assert not list(tmp_path.glob("*k32.db"))  # not built


def test_solve_command_reads_a_position(capsys):
    assert main(["solve", "--position", "0,0,1,0,0,0,20, 0,0,0,0,2,0,25", "--to-move", "north", "--no-progress"]) == 0
    game = Kalah(KalahRules())
    state = game.position([0, 0, 1, 0, 0, 0, 20, 0, 0, 0, 0, 2, 0, 25], 1)
    expected = alphabeta(game, state, 10_000, score_difference).value
    assert f"value: {expected:+d} for North" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["--position", "1 2 x"],
        ["--position", "1 2 3"],
        ["--game", "tictactoe"],
        ["--game", "kalah(pits=99)"],
        ["--position", "0 0 0 0 0 0 24 0 0 0 0 0 0 24"],
        ["--seeds", "2", "--endgame-seeds", "-3"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert main(["solve", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mancala solve: ") and err.count("\n") == 1


def test_analyse_command_on_a_position_and_a_saved_game(capsys, tmp_path):
    assert main(["analyse", "--game", "kalah(pits=3,seeds=2)", "--position", "2 2 2 0 2 2 2 0", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    assert "exact" in out and "best line: " in out
    game = Kalah(KalahRules(pits=3, seeds=2))
    path = tmp_path / "game.json"
    save_record(GameRecord(game, ["human", "easy"], [KalahMove(1)]), path)
    assert main(["analyse", str(path), "--last", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    assert "North to move" in out and "best line: " in out
    assert main(["analyse", str(path), "--seconds", "0"]) == 2
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "empty-capture"])
@pytest.mark.parametrize("threads", [2, 3])
def test_parallel_full_depth_search_matches_the_single_threaded_one(preset, threads):
    rng = random.Random(7)
    checked = 0
    for pits, seeds, plies in ((4, 3, 0), (5, 3, 0), (6, 2, 0), (6, 3, 0), (4, 4, 3), (5, 3, 4), (6, 3, 5)):
        game = make_game(f"kalah(preset={preset},pits={pits},seeds={seeds})")
        state = random_position(game, rng, plies)
        if state.finished:
            continue
        E.reset()
        ref = Searcher(game, state)
        want, _, complete, exact = ref.run(FULL_DEPTH, 0)
        assert complete and exact
        for guess in (want - 3, want, want + 5):
            E.reset()
            par = Searcher(game, state)
            assert len(par.root_tasks()) >= 1
            g, code, complete, exact = par.run_parallel(guess, threads)
            assert (g, complete, exact) == (want, True, True)
            assert par.nodes > 0
            # the move keeps the value: its child, searched alone, is worth as much
            child = game.apply(state, bridge.code_move(game, code))
            v = solve(game, child, progress=False).value
            assert (v if game.to_move(child) == game.to_move(state) else -v) == ref.acc + want
            checked += 1
    assert checked >= 15


@pytest.mark.parametrize("preset", ["standard", "empty-capture"])
def test_threaded_solve_reaches_the_published_value_and_its_line_plays_out(preset, monkeypatch):
    monkeypatch.setenv("MANCALA_SOLVE_THREADS", "2")
    monkeypatch.setattr(solver, "GUESS_DEPTH", 1)  # the full-depth (threaded) passes do the proof
    game = make_game(f"kalah(preset={preset},pits=6,seeds=3)")
    state = game.initial_state()
    result = solve(game, state, progress=False)
    assert result.value == 2
    player = game.to_move(state)
    for move in result.line:
        state = game.apply(state, move)
    assert state.finished and game.score(state, player) == result.value


def test_a_table_row_torn_between_two_writes_reads_as_absent():
    from mancala.engine import search as S

    words = 2
    tt = np.zeros((16, words + 1), dtype=np.uint64)
    a = np.array([12345, 678], dtype=np.int64)
    b = np.array([12345, 999], dtype=np.int64)
    h = np.uint64(6)  # both in bucket 6..7
    S.table_store(tt, h, a, words, -5, 3, 7, 2, 10)
    idx, d = S.table_probe(tt, h, a, words)
    assert idx == 6 and S.unpack(d)[:4] == (-5, 3, 7, 2)
    S.table_store(tt, h, b, words, 1, 1, 9, 1, 12)  # deeper: takes row 6, a moves to row 7
    assert S.table_probe(tt, h, a, words)[0] == 7
    assert S.table_probe(tt, h, b, words)[0] == 6
    # row 7 torn: a's key words with b's data word, or one key word of each
    torn = tt.copy()
    torn[7, words] = tt[6, words]
    assert S.table_probe(torn, h, a, words)[0] == -1
    torn = tt.copy()
    torn[7, 1] = tt[6, 1]
    assert S.table_probe(torn, h, a, words)[0] == -1
    assert S.table_probe(torn, h, b, words)[0] == 6


def test_large_solves_get_the_database_that_solves_kalah_6_4_fastest(monkeypatch):
    from mancala.engine.endgame import default_seeds, solve_seeds

    monkeypatch.delenv("MANCALA_ENDGAME_SEEDS", raising=False)
    # the shared database of the players' background build: K = 20 for six pits, 17 for seven
    # (265 M positions); five and four pits get SOLVE_BYTES' larger ones (159 and 145 MB)
    assert solve_seeds(6, 48) == 20 == endgame.shared_seeds(6, 48)
    assert solve_seeds(5, 50) == 26 and endgame.nbytes(5, 26) <= endgame.SOLVE_BYTES < endgame.nbytes(5, 27)
    assert solve_seeds(7, 98) == 17
    assert solve_seeds(4, 48) == 35
    assert solve_seeds(5, 50, room=endgame.nbytes(5, 24)) == 24
    assert solve_seeds(6, 48, room=endgame.nbytes(6, 19)) == 19  # within the memory share
    assert solve_seeds(6, 36) == default_seeds(6, 36)  # small solves keep the quick default
    monkeypatch.setenv("MANCALA_ENDGAME_SEEDS", "8")
    assert solve_seeds(6, 48) == 8  # an explicit choice wins


def test_a_solve_builds_its_larger_database_instead_of_the_players_own_first(monkeypatch, tmp_path):
    """A first solve whose database is larger than the players' makes only its own: the
    players' smaller one is not built on the way (``prepare(seeds=K)``); the value is the one a
    plain negamax gives."""
    from mancala.games import make_game

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MANCALA_ENDGAME_SEEDS", raising=False)
    monkeypatch.setattr(endgame, "DEFAULT_ENTRIES", 30)  # two pits: the players' K = 2
    monkeypatch.setattr(endgame, "PLAY_ENTRIES", 30)
    game = make_game("kalah(preset=cs151,pits=2,seeds=5)")  # rules no other test prepares
    assert endgame.players_seeds(2, 20) == 2
    state = game.initial_state()
    result = solve(game, state, progress=False, endgame_seeds=6)
    built = sorted(p.name.rsplit("-", 1)[-1] for p in tmp_path.glob("*.db"))
    assert built == ["k6.db"]

    def negamax(s) -> int:
        """The mover's final margin with perfect play (extra turns: the same mover again)."""
        me = game.to_move(s)
        best = -(10**9)
        for m in game.legal_moves(s):
            child = game.apply(s, m)
            if game.is_terminal(child):
                v = game.score(child, me)
            else:
                v = negamax(child) if game.to_move(child) == me else -negamax(child)
            best = max(best, v)
        return best

    assert result.value == negamax(state)


def test_a_kalah_build_off_a_terminal_says_each_level(tmp_path, monkeypatch, capsys):
    """``mancala db build`` with its output in a log: one line a level as it is solved (on a
    terminal the bar shows it), after one line for the levels a cached smaller one supplied."""
    from mancala.cli.main import main  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    assert main(["db", "build", "--game", "kalah(pits=3)", "--seeds", "5"]) == 0
    err = capsys.readouterr().err
    assert [line.split(":")[0] for line in err.splitlines()[1:]] == [f"level {s} of 5" for s in range(6)]
    assert f"level 5 of 5: {endgame.entries(3, 5) - endgame.entries(3, 4):,} positions in " in err
    assert main(["db", "build", "--game", "kalah(pits=3)", "--seeds", "7"]) == 0
    err = capsys.readouterr().err.splitlines()[1:]
    assert err[0] == "levels 0-5: from the cached 5-seed database"
    assert [line.split(":")[0] for line in err[1:]] == ["level 6 of 7", "level 7 of 7"]
    assert main(["db", "build", "--game", "kalah(pits=3)", "--seeds", "8", "--no-progress"]) == 0
    assert capsys.readouterr().err.count("\n") == 1  # the build's first line alone


def test_solve_table_size_follows_the_seeds_and_the_machine(monkeypatch):
    """A solve's table: 1/16 of the memory, 64 MB to 1 GB, and at most 128 MB up to 50 seeds
    (Kalah(6,4), (5,5): the 20-seed database leaves such proofs nothing to gain from more);
    ``$MANCALA_TT_MB`` overrides it."""
    monkeypatch.delenv("MANCALA_TT_MB")
    pages = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 24 * 2**30 // 4096}
    monkeypatch.setattr(os, "sysconf", lambda name: pages[name])
    assert solver.solve_table_megabytes(48) == 128
    assert solver.solve_table_megabytes(50) == 128
    assert solver.solve_table_megabytes(60) == 1024
    pages["SC_PHYS_PAGES"] = 2 * 2**30 // 4096  # 2 GB: a sixteenth is 128 MB
    assert solver.solve_table_megabytes(72) == 128
    pages["SC_PHYS_PAGES"] = 2**29 // 4096  # 512 MB: the floor of 64 MB
    assert solver.solve_table_megabytes(48) == 64
    monkeypatch.setenv("MANCALA_TT_MB", "40")
    assert solver.solve_table_megabytes(72) == 40
