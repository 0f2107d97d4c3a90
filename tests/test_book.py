"""Opening books (mancala.engine.book): built by the solver, keyed canonically, checked on
load, used by the best player; and the best player's exact moves."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from helpers import random_position

from mancala.engine import best_move, solve
from mancala.engine import book as B
from mancala.errors import BadInput
from mancala.games.kalah import Capture, Kalah, KalahRules
from mancala.players import BestPlayer, make_player

SMALL = Kalah(KalahRules(pits=4, seeds=3))
EMPTY = Kalah(KalahRules(pits=3, seeds=3, empty_capture=True))


@pytest.fixture(autouse=True)
def _small_table(monkeypatch):
    monkeypatch.setenv("MANCALA_TT_MB", "16")  # solves of small boards need no 1 GB table


@pytest.fixture(scope="module")
def small_book() -> B.Book:
    import os

    os.environ.setdefault("MANCALA_TT_MB", "16")
    return B.build_book(SMALL, 3)


def test_every_entry_is_the_solvers_value(small_book):
    assert len(small_book.entries) >= 10
    for key, entry in small_book.entries.items():
        state = B.state_of(SMALL, key)
        assert state is not None
        result = solve(SMALL, state, progress=False)
        assert entry.value == result.value, key
        # the book's move keeps the value
        child = SMALL.apply(state, SMALL.parse_move(state, entry.move))
        sign = 1 if SMALL.to_move(child) == SMALL.to_move(state) else -1
        after = (
            SMALL.score(child, SMALL.to_move(state))
            if child.finished
            else sign * solve(SMALL, child, progress=False).value
        )
        assert after == entry.value, key


def test_the_book_reaches_the_first_turns(small_book):
    start = SMALL.initial_state()
    assert small_book.get(SMALL, start) is not None
    for s in B.turn_ends(SMALL, start):  # the book player moving second: every first turn
        assert small_book.get(SMALL, s) is not None
    inside, end = B.book_turn(SMALL, start, small_book)  # moving first: every reply to its book turn
    assert end is not None and all(small_book.get(SMALL, s) is not None for s in inside)
    replies = B.turn_ends(SMALL, end)
    assert replies and all(small_book.get(SMALL, s) is not None for s in replies)
    assert B.check_consistency(SMALL, small_book) == []


def test_keys_are_canonical_whoever_moves(small_book):
    start = SMALL.initial_state()
    north = SMALL.position(start.board[5:] + start.board[:5], 1)  # the same position, North to move
    assert B.position_key(SMALL, north) == B.position_key(SMALL, start)
    assert B.probe(SMALL, north, small_book) == B.probe(SMALL, start, small_book)
    other = Kalah(KalahRules(pits=4, seeds=3, empty_capture=True))
    assert small_book.get(other, other.initial_state()) is None  # other rules: not this book's


def test_file_round_trip_and_tampering(small_book, tmp_path):
    path = tmp_path / "book.json"
    B.save_book(small_book, path)
    again = B.load_book(path, B.rules_key(SMALL.rules))
    assert again.entries == small_book.entries
    text = path.read_text()
    root = B.position_key(SMALL, SMALL.initial_state())
    value = small_book.entries[root].value
    board = json.dumps(list(root[0]))
    lines = text.splitlines()
    i = next(k for k, line in enumerate(lines) if f'"board": {board}' in line)
    edited = lines[i].replace(f'"value": {value}', f'"value": {value + 2}')
    assert edited != lines[i]
    cases = {
        "checksum mismatch": "\n".join(lines[:i] + [edited] + lines[i + 1 :]),
        "not JSON": text[: len(text) // 2],
        "not a mancala-book": json.dumps({"format": "other"}),
        "version": text.replace('"version": 1', '"version": 99'),
    }
    for expected, bad in cases.items():
        path.write_text(bad)
        with pytest.raises(BadInput, match=expected) as info:
            B.load_book(path)
        assert "\n" not in str(info.value)
    path.write_text(text)
    with pytest.raises(BadInput, match="other rules"):
        B.load_book(path, B.rules_key(EMPTY.rules))


def test_an_edited_value_with_a_fresh_checksum_is_inconsistent(small_book):
    root = B.position_key(SMALL, SMALL.initial_state())
    forged = B.Book(small_book.rules_key, dict(small_book.entries), small_book.game, small_book.turns)
    e = forged.entries[root]
    forged.add(B.Entry(root, e.value + 2, e.move))
    text = B.dumps(forged)  # a valid file: right checksum
    assert B.loads(text).entries[root].value == e.value + 2
    assert B.check_consistency(SMALL, B.loads(text))


def test_the_best_player_plays_the_book_at_the_start(small_book, tmp_path, monkeypatch):
    B.save_book(small_book, tmp_path / "small.json")
    monkeypatch.setattr(B, "BOOK_DIR", tmp_path)
    monkeypatch.setattr(B, "_loaded", {})
    start = SMALL.initial_state()
    entry = small_book.get(SMALL, start)
    player = make_player("best:nodes=50")
    move = player.choose(SMALL, start)
    assert str(move) == entry.move and player.last.algorithm == "book(exact)"
    assert player.last.value == entry.value
    off = make_player("best:nodes=50,book=off")
    assert off.spec == "best:nodes=50,book=off"
    off.choose(SMALL, start)
    assert off.last.algorithm.startswith("engine")
    # a damaged shipped book is refused, in one line
    (tmp_path / "small.json").write_text((tmp_path / "small.json").read_text().replace('"value"', '"valeur"', 1))
    monkeypatch.setattr(B, "_loaded", {})
    with pytest.raises(BadInput, match="checksum"):
        make_player("best:nodes=50").choose(SMALL, start)
    with pytest.raises(BadInput, match="book must be on or off"):
        make_player("best:book=maybe")


def test_an_interrupted_build_resumes(tmp_path):
    calls = []

    def counting(game, state, progress=False):
        calls.append(state)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return solve(game, state, progress=False)

    partial = tmp_path / "b.partial"
    with pytest.raises(KeyboardInterrupt):
        B.build_book(EMPTY, 3, partial=partial, solve_fn=counting)
    first_run = {B.position_key(EMPTY, s) for s in calls[:-1]}  # the solves that finished
    assert len(first_run) == 3 and partial.exists()
    with open(partial, "a") as f:
        f.write('{"board": [1, 2')  # a line cut short by the interruption
    calls.clear()
    resumed = B.build_book(
        EMPTY,
        3,
        partial=partial,
        solve_fn=lambda g, s, progress=False: (calls.append(s), solve(g, s, progress=False))[1],
    )
    full = B.build_book(EMPTY, 3)
    assert resumed.entries.keys() == full.entries.keys()
    assert {k: e.value for k, e in resumed.entries.items()} == {k: e.value for k, e in full.entries.items()}
    assert calls and not first_run & {B.position_key(EMPTY, s) for s in calls}  # none solved again


def test_shipped_books_are_valid_and_consistent():
    files = B.book_files()
    assert files, "the package ships opening books"
    for path in files:
        book = B.load_book(path)
        game = Kalah(KalahRules.from_dict(book.game))
        assert book.rules_key == B.rules_key(game.rules)
        assert book.get(game, game.initial_state()) is not None
        assert B.check_consistency(game, book) == []
        assert path.stat().st_size < 200_000  # a small data file


@pytest.mark.processes
def test_book_command_builds_and_checks(tmp_path):
    out = tmp_path / "b.json"
    run = lambda *a: subprocess.run(
        [sys.executable, "-m", "mancala", "book", *a],
        capture_output=True,  # noqa: E731
        text=True,
        env={**__import__("os").environ, "MANCALA_TT_MB": "16"},
    )
    r = run("build", "--pits", "3", "--seeds", "2", "--turns", "2", "--out", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "positions" in r.stdout and out.exists() and not (tmp_path / "b.json.partial").exists()
    assert run("check", str(out)).returncode == 0
    out.write_text(out.read_text().replace('"value": ', '"value": 1', 1))
    r = run("check", str(out))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "checksum" in r.stderr
    r = run("build", "--pits", "3", "--turns", "0", "--out", str(out))
    assert r.returncode == 2 and "1-8 turns" in r.stderr


@pytest.mark.parametrize("game", [SMALL, EMPTY, Kalah(KalahRules(pits=4, seeds=2, capture=Capture.OPPOSITE_ONLY))])
def test_exact_engine_results_keep_the_value(game):
    """Once the engine proves a position's value, its move keeps that value (checked against
    the solver on the child), and the value is the solver's."""
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        state = random_position(game, rng, rng.randrange(0, 12))
        if state.finished:
            continue
        r = best_move(game, state, 1e9, max_nodes=200_000)
        if r.algorithm != "engine(exact)":
            continue
        exact = solve(game, state, progress=False).value
        assert r.value == exact
        child = game.apply(state, r.move)
        mover = game.to_move(state)
        after = (
            game.score(child, mover)
            if child.finished
            else (1 if game.to_move(child) == mover else -1) * solve(game, child, progress=False).value
        )
        assert after == exact
        checked += 1
    assert checked >= 15


def test_the_best_player_finds_exact_moves_near_the_end():
    player = BestPlayer(nodes=100_000, book=False)
    rng = random.Random(3)
    game = Kalah(KalahRules(pits=6, seeds=4))
    state = random_position(game, rng, 40)
    while state.finished:
        state = random_position(game, rng, 30)
    player.choose(game, state)
    assert player.last.algorithm == "engine(exact)"
    assert player.last.value == solve(game, state, progress=False).value


@pytest.mark.processes
def test_ctrl_c_during_a_build_exits_130_and_the_build_resumes(tmp_path):
    import os
    import signal

    out = tmp_path / "b.json"
    env = dict(os.environ, MANCALA_CACHE_DIR=str(tmp_path / "cache"), MANCALA_TT_MB="16", PYTHONUNBUFFERED="1")
    args = [
        sys.executable,
        "-m",
        "mancala",
        "book",
        "build",
        "--pits",
        "6",
        "--seeds",
        "3",
        "--turns",
        "3",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    for line in proc.stderr:
        if line.startswith("solved 2/"):
            break
    assert proc.poll() is None, "the build ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().splitlines()[-1] == "mancala book: interrupted"
    assert "Traceback" not in err and not out.exists()
    partial = tmp_path / "b.json.partial"
    assert len(partial.read_text().splitlines()) >= 3  # the header and the first solves
    # resumed (to one turn): the start is read back from the partial file, not solved again
    r = subprocess.run(args[:-3] + ["1", "--out", str(out)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "solved" not in r.stderr and out.exists() and not partial.exists()
    assert B.load_book(out).get(Kalah(KalahRules(pits=6, seeds=3)), Kalah(KalahRules(pits=6, seeds=3)).initial_state())


def test_book_line_follows_the_book(small_book):
    start = SMALL.initial_state()
    line = B.book_line(SMALL, start, small_book)
    assert line and line[0] == B.probe(SMALL, start, small_book)[0]
    state = start
    for m in line:
        assert small_book.get(SMALL, state) is not None
        state = SMALL.apply(state, m)


def test_a_book_under_the_mankalah_rules_pie_and_first_move():
    """ManKalah's rules (pie rule, no extra turn on the first move) on a small board: the
    keys carry the first-turn flags, and every entry is the solver's value."""
    game = Kalah(KalahRules(pits=3, seeds=2, pie_rule=True, no_first_extra_turn=True))
    book = B.build_book(game, 3)
    flagged = [k for k in book.entries if k[1] or k[2]]
    assert flagged and B.check_consistency(game, book) == []
    for key, entry in book.entries.items():
        state = B.state_of(game, key)
        assert state is not None and B.position_key(game, state) == key
        assert solve(game, state, progress=False).value == entry.value
