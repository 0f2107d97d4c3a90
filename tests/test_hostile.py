"""Hostile and careless input: every case ends in one clear line on stderr and exit 2 (never
a traceback, a hang or unbounded work), and no file is lost, clobbered or half-written."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import socket
import subprocess
import sys
import threading
import types
from pathlib import Path

import pytest

from mancala import jsonread
from mancala.arena.tournament import TournamentSpec, read_results, run_tournament
from mancala.cli import homework
from mancala.errors import BadInput
from mancala.server.protocol import ProtocolError, parse

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parent.parent
#: a small, fast arena (3 pits of 2 seeds, one opening of one ply)
SMALL_ARENA = ("--pits", "3", "--seeds", "2", "--openings", "1", "--plies", "1", "--workers", "1", "--no-progress")


def mancala(*args: str, cwd: Path, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the CLI in a separate process, as a user would."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "mancala", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def refused(proc: subprocess.CompletedProcess, *fragments: str) -> str:
    """Assert exit 2 and exactly one line on stderr (no traceback) holding ``fragments``; return it."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- arena: the results file and the report beside it ------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"not json", bytes(range(256)) * 4, b'{"a": 1}\n', b"[]\n[]\n"],
    ids=["text", "binary", "json-object", "json-lists"],
)
def test_arena_refuses_a_results_file_that_is_not_one_and_leaves_it_byte_for_byte(content, tmp_path):
    (tmp_path / "x.json").write_bytes(content)
    line = refused(
        mancala("arena", "greedy", "random", "--results", "x.json", *SMALL_ARENA, cwd=tmp_path),
        "x.json",
        "line 1",
        "not an arena results file",
    )
    assert line.startswith("mancala arena: ")
    assert snapshot(tmp_path) == {"x.json": content}  # untouched, and no report beside it


def test_only_a_cut_short_last_result_line_is_repaired(tmp_path):
    path = tmp_path / "r.jsonl"
    rows = run_tournament(
        TournamentSpec("kalah(pits=3,seeds=2)", ("greedy", "random"), openings=1, plies=1),
        path,
        workers=1,
        progress=False,
    )
    whole = path.read_bytes()
    assert len(rows) == 2 and whole.count(b"\n") == 2
    path.write_bytes(whole + whole.split(b"\n")[0][:25])  # a crash while writing a third line
    assert read_results(path) == rows and path.read_bytes() == whole + whole.split(b"\n")[0][:25]
    assert read_results(path, repair=True) == rows and path.read_bytes() == whole
    path.write_bytes(whole[:-1])  # a complete last line without its line end is kept, and ended
    assert read_results(path, repair=True) == rows and path.read_bytes() == whole
    path.write_bytes(whole + b"garbage")  # anything else at the end is not ours to cut
    with pytest.raises(BadInput, match="line 3: not a tournament result line"):
        read_results(path, repair=True)
    assert path.read_bytes() == whole + b"garbage"


@pytest.mark.parametrize("name, content", [("r.md", b"# my notes\n"), ("r.png", b"\x89PNG\r\n\x1a\nnot ours")])
def test_arena_never_replaces_a_report_file_it_did_not_write(name, content, tmp_path):
    (tmp_path / name).write_bytes(content)
    refused(
        mancala("arena", "greedy", "random", "--results", "r.jsonl", *SMALL_ARENA, cwd=tmp_path),
        name,
        "not a report written by mancala arena",
        "move it away",
    )
    assert snapshot(tmp_path) == {name: content}  # nothing played, nothing written


def test_arena_rewrites_its_own_report(tmp_path):
    args = ("arena", "greedy", "random", "--results", "r.jsonl", *SMALL_ARENA)
    assert mancala(*args, cwd=tmp_path).returncode == 0
    before = {name: (tmp_path / name).stat().st_ino for name in ("r.md", "r.png")}
    again = mancala(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    for name, inode in before.items():  # each replaced (atomically: a new file moved into place)
        assert (tmp_path / name).stat().st_ino != inode
    refused(
        mancala("arena", "greedy", "random", "--results", "r.md", *SMALL_ARENA, cwd=tmp_path),
        "--results r.md",
        "the report is written to r.md itself",
    )


@pytest.mark.parametrize(
    "options, fragments",
    [
        (("--workers", "0"), ("--workers must be 1-1024, got 0",)),
        (("--ray", "127.0.0.1:1"), ("--ray 127.0.0.1:1", "cannot reach a Ray cluster")),
        (("--results", ""), ("--results is empty",)),
    ],
)
def test_arena_refuses_bad_options_before_playing(options, fragments, tmp_path):
    # the option given last wins, so --workers 0 replaces SMALL_ARENA's --workers 1
    refused(mancala("arena", "greedy", "random", *SMALL_ARENA, *options, cwd=tmp_path, timeout=30), *fragments)
    assert snapshot(tmp_path) == {}


# --- JSON: size and nesting bounds -------------------------------------------------------------


def test_the_json_reader_bounds_nesting_and_size_and_ignores_brackets_in_strings():
    assert jsonread.loads('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')
    assert jsonread.loads("[" * 64 + "]" * 64) is not None
    with pytest.raises(jsonread.JSONLimitError, match="nested more than 64 deep"):
        jsonread.loads("[" * 65 + "]" * 65)
    with pytest.raises(jsonread.JSONLimitError, match="more than the limit of 10"):
        jsonread.loads('"' + "x" * 20 + '"', max_bytes=10)
    with pytest.raises(ValueError):  # the error every JSON reader already handles
        jsonread.loads("[" * 100_000)


@pytest.mark.parametrize("command", ["play --load deep.json", "analyse deep.json"])
def test_a_deeply_nested_saved_game_is_one_line_not_a_recursion_traceback(command, tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000)
    refused(mancala(*command.split(), cwd=tmp_path), "deep.json line 1", "nested more than 64 deep")


def test_a_deeply_nested_frame_is_bad_json():
    for text in ("[" * 60_000, '{"a":' * 10_000 + "1" + "}" * 10_000):
        with pytest.raises(ProtocolError) as caught:
            parse(text)
        assert caught.value.code == "bad_json" and "nested" in caught.value.message


def test_over_the_websocket_a_nested_frame_is_bad_json_and_a_token_not_a_string_is_a_bad_token(caplog):
    from server_helpers import TEST_HOSTS, Conn  # noqa: PLC0415
    from starlette.testclient import TestClient  # noqa: PLC0415
    from starlette.websockets import WebSocketDisconnect  # noqa: PLC0415

    from mancala.server.app import create_app  # noqa: PLC0415
    from mancala.server.config import ServerConfig  # noqa: PLC0415

    with TestClient(create_app(ServerConfig(token="s3cret", warm=False, workers=1, hosts=TEST_HOSTS))) as client:
        with client.websocket_connect("/ws") as ws:
            conn = Conn(ws)
            conn.raw("[" * 60_000)
            assert conn.recv()["code"] == "bad_json"
            conn.raw(json.dumps({"v": 1, "type": "hello", "id": 1, "token": 5}))
            assert conn.recv()["code"] == "bad_token"
            with pytest.raises((ConnectionError, WebSocketDisconnect)) as closed:
                conn.recv(timeout=10)
            assert "4401" in str(closed.value) or getattr(closed.value, "code", None) == 4401
    assert "Traceback" not in caplog.text and "message failed" not in caplog.text


# --- homework: bounded input and bounded search ------------------------------------------------


def test_homework_reads_a_bounded_amount_of_an_endless_input(tmp_path):
    refused(
        mancala("homework", "/dev/zero", "--out", str(tmp_path), cwd=tmp_path, timeout=30),
        "/dev/zero",
        "more than 65,536 bytes",
    )
    assert snapshot(tmp_path) == {}


def test_homework_refuses_a_search_far_over_the_limit_at_once(tmp_path):
    row = " ".join(["1000"] * 10)
    for task, name in ((2, "minimax"), (3, "alpha-beta")):
        (tmp_path / "input.txt").write_text(f"{task}\n1\n50\n{row}\n{row}\n0\n0\n")
        refused(
            mancala("homework", "input.txt", cwd=tmp_path, timeout=30),
            "input.txt line 3",
            f"{name} to depth 50",
            "more than the limit of 30,000,000",
            "smaller depth",
        )
        assert set(snapshot(tmp_path)) == {"input.txt"}


def test_a_search_that_passes_the_log_limit_stops_and_writes_nothing(tmp_path, monkeypatch):
    (tmp_path / "next_state.txt").write_text("earlier\n")
    problem = homework.parse_input("2\n1\n3\n4 4 4\n4 4 4\n0\n0\n")
    monkeypatch.setattr(homework, "check_search_size", lambda *a, **k: None)  # the estimate let it through
    monkeypatch.setattr(homework, "MAX_LOG_LINES", 50)
    with pytest.raises(BadInput, match="more than 50 lines, the limit; give a smaller depth"):
        homework.solve(problem, tmp_path)
    assert snapshot(tmp_path) == {"next_state.txt": b"earlier\n"}


def test_the_estimate_is_near_the_true_log_size(tmp_path):
    problem = homework.parse_input("2\n1\n3\n3 3 3 3\n3 3 3 3\n0\n0\n")
    outcome = homework.solve(problem, tmp_path)
    game, state = homework.to_position(problem)
    estimate, _ = homework.estimate_log_lines(game, state, 3)
    assert outcome.log_lines / 3 < estimate < outcome.log_lines * 3


def test_homework_out_folder_that_takes_no_files_is_exit_2(tmp_path):
    (tmp_path / "input.txt").write_text("2\n1\n1\n1 1 1\n1 1 1\n0\n0\n")
    refused(mancala("homework", "input.txt", "--out", "/proc", cwd=tmp_path), "--out /proc", "cannot be created")


def test_cr_line_ends_are_read_and_never_echoed_raw(tmp_path):
    good = "2\n1\n2\n1 2 1\n2 1 1\n0\n0\n"
    (tmp_path / "lf").mkdir()
    (tmp_path / "cr").mkdir()
    (tmp_path / "lf" / "input.txt").write_text(good)
    (tmp_path / "cr" / "input.txt").write_bytes(good.replace("\n", "\r").encode())
    for folder in ("lf", "cr"):
        assert mancala("homework", "input.txt", cwd=tmp_path / folder).returncode == 0
    assert snapshot(tmp_path / "cr") == {**snapshot(tmp_path / "lf"), "input.txt": good.replace("\n", "\r").encode()}
    (tmp_path / "cr" / "input.txt").write_bytes(b"2\r1\rdeep\r1 1 1\r1 1 1\r0\r0\r")
    line = refused(mancala("homework", "input.txt", cwd=tmp_path / "cr"), "input.txt line 3", "got 'deep'")
    assert "\r" not in line


# --- unbounded work and empty values in the other commands ---------------------------------------


@pytest.mark.parametrize(
    "args, fragments",
    [
        (("explain", "--depth", "1000000"), ("--depth must be 1-12, got 1000000",)),
        (("match", "greedy", "random", "--games", str(10**30)), ("--games must be 1-100,000",)),
        (("play", "--load", ""), ("--load is empty",)),
        (("play", "--p1", ""), ("--p1 is empty",)),
        (("play", "--game", ""), ("--game is empty",)),
        (("analyse", ""), ("file name is empty",)),
        (("serve", "--port", "-1"), ("--port must be 0-65535, got -1",)),
        (("homework", "input.txt", "--out", ""), ("--out is empty",)),
    ],
)
def test_unbounded_or_empty_options_are_refused_before_anything_happens(args, fragments, tmp_path):
    refused(mancala(*args, cwd=tmp_path, timeout=30), *fragments)
    assert list(tmp_path.iterdir()) == []  # serve made no results folder, play saved nothing


def test_piped_moves_with_cr_line_ends_are_read_line_by_line(tmp_path):
    proc = mancala("play", "--p2", "random:seed=1", cwd=tmp_path, stdin="3\rfoo\r")
    assert proc.returncode == 0, proc.stderr
    assert "'foo' is not a move" in proc.stdout and "\r" not in proc.stdout
    assert "South 3 (sown from)" in proc.stdout  # the first line, 3, was played


def test_piped_input_that_is_not_text_is_refused_not_looped_on(tmp_path):
    (tmp_path / "zeros").write_bytes(b"\0" * 200_000)
    with open(tmp_path / "zeros") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "mancala", "play", "--p2", "greedy"],
            cwd=tmp_path,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=30,
        )
    refused(proc, "standard input is not text")


@pytest.mark.parametrize("name", ["/", ".", ".."])
def test_arena_refuses_a_results_name_that_is_a_folder(name, tmp_path):
    refused(mancala("arena", "greedy", "random", "--results", name, *SMALL_ARENA, cwd=tmp_path), name, "names a folder")


# --- whole numbers: the digits 0-9 only, never a traceback -------------------------------------

#: a Bao position with one count written as a circled digit (``isdigit`` accepts it, ``int`` not)
BAO_CIRCLED = "2-2-2-2-2-2-2-2/2-2-2-2-2-2-2-2/2-2-2-2-2-2-2-2/2-2-2-2-2-2-2-\u2460/0-0/S/-"


def cli(capsys, *args: str) -> tuple[int, str]:
    """Run the command line in this process, as the CLI's main does (a command given --ray as
    its Ray driver process would, here: see test_a_ray_driver_that_ray_ends_gets_a_line_of_ours);
    returns its exit code and its stderr."""
    from mancala.cli.main import build_parser, run  # noqa: PLC0415

    code = run(build_parser().parse_args(list(args)))
    return code, capsys.readouterr().err


def refused_here(code: int, err: str, *fragments: str) -> str:
    """:func:`refused` for :func:`cli`'s answer."""
    return refused(subprocess.CompletedProcess([], code, "", err), *fragments)


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("--game", "oware", "--position", "\u2074-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), ("cannot read Oware position",)),
        (("--game", "kalah", "--position", "\u2074-4-4-4-4-4-0-4-4-4-4-4-4-0-S"), ("cannot read Kalah position",)),
        (
            ("--game", "kalah", "--position", "\u00b2,4,4,4,4,4,0,4,4,4,4,4,4,0"),
            ("start must be a whole number", "0-9"),
        ),
        (("--game", "bao", "--position", BAO_CIRCLED), ("cannot read Bao position", "8 whole numbers")),
        (("--game", "kalah(pits=\u2074)"), ("pits must be a whole number",)),
    ],
)
def test_a_position_or_option_in_other_digits_is_one_line(args, fragments, capsys):
    refused_here(*cli(capsys, "explain", *args), *fragments)


def test_a_ray_port_in_other_digits_is_one_line(tmp_path, capsys):
    refused_here(*cli(capsys, "arena", "greedy", "random", "--ray", "127.0.0.1:\u2074\u2074"), "expected host:port")


@pytest.mark.parametrize("value", ["\u2074", "\u2460", "abc", "1_000"])
def test_the_oware_table_bound_in_other_digits_is_one_line(value, monkeypatch, capsys):
    monkeypatch.setenv("MANCALA_OWARE_TABLE_BYTES", value)
    refused_here(*cli(capsys, "solve", "--game", "oware"), "$MANCALA_OWARE_TABLE_BYTES must be a whole number")


def test_whole_numbers_are_the_digits_0_to_9():
    from mancala.errors import is_whole_number, whole_number  # noqa: PLC0415

    assert [is_whole_number(t) for t in ("0", "42", "\u2074", "\u0663", "1_0", "", "-3", " 3")] == [
        True, True, False, False, False, False, False, False,
    ]  # fmt: skip
    assert whole_number(" 7 ", "x") == 7 and whole_number("-3", "x", signed=True) == -3
    with pytest.raises(BadInput, match="x must be a whole number"):
        whole_number("\u2460", "x")


# --- memory bounds: a finite, positive number ---------------------------------------------------


@pytest.mark.parametrize("game", ["oware", "kalah"])
@pytest.mark.parametrize("memory", ["inf", "nan", "-1"])
def test_db_build_refuses_a_memory_bound_that_is_not_a_positive_number(game, memory, capsys):
    refused_here(
        *cli(capsys, "db", "build", "--game", game, "--seeds", "2", "--memory", memory),
        "--memory must be a positive number of gigabytes",
    )


@pytest.mark.parametrize(
    ("variable", "value", "args", "words"),
    [
        ("MANCALA_DB_MEMORY", "abc", ("db", "build", "--game", "oware", "--seeds", "2"), "$MANCALA_DB_MEMORY"),
        ("MANCALA_DB_MEMORY", "1e9", ("db", "build", "--game", "oware", "--seeds", "2"), "$MANCALA_DB_MEMORY"),
        ("MANCALA_MEMORY_MB", "inf", ("solve", "--game", "kalah(pits=3,seeds=2)"), "$MANCALA_MEMORY_MB"),
    ],
)
def test_a_memory_variable_that_is_not_a_number_is_one_line(variable, value, args, words, monkeypatch, capsys):
    monkeypatch.setenv(variable, value)
    refused_here(*cli(capsys, *args), words)


# --- a full disk: no temporary file is left ------------------------------------------------------


class _FullDisk(io.FileIO):
    """A file on a full disk: every write fails with ENOSPC (so the buffered layers above it
    fail at their flush, and again at their close)."""

    def write(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")


def _full_disk_open(file, mode="r", buffering=-1, encoding=None, newline=None):
    """``open(file, mode, ...)``, writing or appending on :class:`_FullDisk` (reading as ever)."""
    if "w" not in mode and "a" not in mode:
        return open(file, mode, buffering, encoding, newline=newline)
    raw = _FullDisk(file, "a" if "a" in mode else "w")
    buffered = io.BufferedWriter(raw, buffer_size=buffering if buffering > 1 else io.DEFAULT_BUFFER_SIZE)
    return buffered if "b" in mode else io.TextIOWrapper(buffered, encoding=encoding, newline=newline)


@pytest.fixture
def full_disk(monkeypatch):
    """Every file :mod:`mancala.atomic` writes is on a full disk."""
    from mancala import atomic  # noqa: PLC0415

    monkeypatch.setattr(atomic, "open", _full_disk_open, raising=False)


@pytest.mark.parametrize("size", [10, 3 << 20])  # fails at the flush; fails at the write
@pytest.mark.parametrize("binary", [False, True])
def test_an_atomic_write_on_a_full_disk_leaves_no_temporary_file(size, binary, tmp_path, full_disk):
    from mancala.atomic import write_atomically  # noqa: PLC0415

    (tmp_path / "old.json").write_text("kept")
    with pytest.raises(OSError) as caught:
        write_atomically(tmp_path / "old.json", b"x" * size if binary else "x" * size)
    assert caught.value.errno == errno.ENOSPC
    assert snapshot(tmp_path) == {"old.json": b"kept"} and os.listdir(tmp_path) == ["old.json"]


def test_play_save_on_a_full_disk_says_so_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys, full_disk):
    monkeypatch.chdir(tmp_path)
    players = ("--p1", "random:seed=1", "--p2", "random:seed=2")
    from mancala.cli import main  # noqa: PLC0415

    assert main(["play", "--game", "kalah(pits=3,seeds=2)", *players, "--save", "game.json"]) == 0
    out, err = capsys.readouterr()
    assert "Not saved: game.json: cannot write it (No space left on device)" in out and "Traceback" not in err
    assert os.listdir(tmp_path) == []


# --- what an error repeats of a long input is cut ------------------------------------------------

LONG = "x" * 100_000


@pytest.mark.parametrize(
    "args",
    [
        ("explain", "--game", LONG),
        ("explain", "--game", f"kalah({LONG})"),
        ("explain", "--game", f"kalah(pits={'9' * 100_000})"),
        ("explain", "--game", f"kalah(preset={LONG})"),
        ("explain", "--game", f"bao({LONG}=1)"),
        ("explain", "--game", f"oware(must_feed={LONG})"),
        ("explain", "--game", f"oware(grand_slam={LONG})"),
        ("explain", "--position", "4" * 100_000),
        ("solve", "--game", f"tictactoe{LONG}"),
        ("play", "--p1", LONG),
        ("play", "--p1", f"alphabeta:{LONG}=3"),
        ("play", "--p1", f"alphabeta:depth={'3' * 100_000}"),
        ("play", "--p1", f"best:time={LONG}"),
        ("play", "--p1", f"module:{LONG}"),
        ("play", "--p1", f"module:x.py,ply={LONG}"),
    ],
    ids=lambda args: " ".join(a[:24] for a in args),
)
def test_a_100000_character_input_is_not_echoed_whole(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    line = refused_here(*cli(capsys, *args))
    assert len(line) < 500, line[:600]


# --- a FIFO where a file is read: refused at once, never waited on ------------------------------


def _fifo_tables(folder: Path) -> None:
    """FIFOs in ``folder`` (the cache) in place of a Kalah database and Oware's first tier."""
    from mancala.engine import bridge, endgame  # noqa: PLC0415
    from mancala.engine.oware import endgame as oware_endgame  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    kalah = make_game("kalah(pits=3,seeds=2)")
    os.mkfifo(folder / endgame.file_name(bridge.play_key(kalah.rules), 4))
    os.mkfifo(folder / oware_endgame.tier_path(make_game("oware").rules, 0).name)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("db", "check", "--game", "kalah(pits=3,seeds=2)", "--seeds", "4"), "not a regular file"),
        (("db", "check", "--game", "oware", "--seeds", "0"), "not a regular file"),
        (("solve", "--game", "oware"), "not a regular file"),
        (("play", "--load", "fifo.json"), "fifo.json: cannot read it (not a regular file)"),
        (("analyse", "fifo.json"), "not a regular file"),
    ],
)
def test_a_fifo_in_place_of_a_file_we_read_is_refused_at_once(args, words, tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    _fifo_tables(tmp_path)
    os.mkfifo(tmp_path / "fifo.json")
    refused(mancala(*args, cwd=tmp_path, timeout=60), words)  # before: waits for a writer forever


# --- every file we write replaces only a file of ours (as arena's report does) -----------------


@pytest.mark.parametrize(
    ("args", "name", "words"),
    [
        (("play", "--p2", "random", "--save", "notes.txt"), "notes.txt", "not a game saved by mancala"),
        (("book", "build", "--pits", "3", "--seeds", "2", "--out", "notes.txt"), "notes.txt", "not an opening book"),
        (("book", "build", "--pits", "3", "--seeds", "2", "--out", "b.json"), "b.json.partial", "not a partial book"),
    ],
)
def test_a_file_that_is_not_ours_is_never_replaced(args, name, words, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text('{"format": "my notes"}\n')
    refused_here(*cli(capsys, *args), name, words, "left as it is")
    assert snapshot(tmp_path) == {name: b'{"format": "my notes"}\n'}


def test_the_terminal_save_command_never_replaces_a_file_that_is_not_ours(tmp_path, monkeypatch, capsys):
    from mancala.cli import main  # noqa: PLC0415

    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("my notes\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nsave notes.txt\nsave g.json\nquit\n"))
    assert main(["play", "--game", "kalah(pits=3,seeds=2)", "--p2", "random:seed=1"]) == 0
    out = capsys.readouterr().out
    assert "Not saved: notes.txt: already exists and is not a game saved by mancala" in out
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert "Saved to g.json" in out  # a saved game of ours is written (and may be written again)
    from mancala.record import load_record, save_record  # noqa: PLC0415

    save_record(load_record(tmp_path / "g.json"), tmp_path / "g.json")


def test_arena_results_on_a_full_disk_is_one_line(tmp_path, monkeypatch, capsys):
    from mancala.arena import tournament  # noqa: PLC0415

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tournament, "open", _full_disk_open, raising=False)
    refused_here(
        *cli(capsys, "arena", "greedy", "random", "--results", "r.jsonl", *SMALL_ARENA),
        "cannot write results to r.jsonl: No space left on device",
        "run the same command again to resume",
    )


def test_the_arena_report_on_a_full_disk_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli(capsys, "arena", "greedy", "random", "--results", "r.jsonl", *SMALL_ARENA)[0] == 0
    before = snapshot(tmp_path)
    from mancala import atomic  # noqa: PLC0415

    monkeypatch.setattr(atomic, "open", _full_disk_open, raising=False)
    refused_here(*cli(capsys, "arena", "report", "r.jsonl"), "r.md: cannot write it (No space left on device)")
    assert snapshot(tmp_path) == before and sorted(os.listdir(tmp_path)) == sorted(before)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("--ray", "local"), "--ray shapes a Kalah proof"),
        (("--workers", "2"), "--workers shapes a Kalah proof"),
        (("--split-plies", "2"), "--split-plies shapes a Kalah proof"),
        (("--endgame-seeds", "4"), "--endgame-seeds sizes Kalah's database"),
    ],
)
def test_solve_oware_refuses_what_only_kalahs_solver_reads(options, words, capsys):
    refused_here(*cli(capsys, "solve", "--game", "oware", *options), words)


# --- the server's journal: a corrupt one is said, and kept ---------------------------------------


@pytest.mark.parametrize(
    "content",
    [b'{"format": "mancala-journal", "games": [', b"[]", b'{"games": 5}', b'{"format": "other", "games": []}', b""],
)
def test_a_corrupt_journal_is_one_warning_naming_it_and_is_kept(content, tmp_path, caplog):
    from mancala.server.journal import JOURNAL_NAME, Journal  # noqa: PLC0415

    (tmp_path / JOURNAL_NAME).write_bytes(content)
    with caplog.at_level("WARNING", logger="mancala.server"):
        assert Journal(tmp_path, list).open() == []
    [warning] = [r.getMessage() for r in caplog.records]
    assert f"the journal {tmp_path / JOURNAL_NAME} is unreadable" in warning and "not restored" in warning
    assert (tmp_path / (JOURNAL_NAME + ".corrupt")).read_bytes() == content  # kept for a person to look at
    assert json.loads((tmp_path / JOURNAL_NAME).read_text())["games"] == []  # a fresh journal


def test_journal_entries_that_are_not_games_are_said(tmp_path, caplog):
    from mancala.server.journal import JOURNAL_NAME, Journal  # noqa: PLC0415

    game = {"game_id": "g1", "started": "20260101", "game": "kalah", "moves": []}
    (tmp_path / JOURNAL_NAME).write_text(json.dumps({"format": "mancala-journal", "version": 1, "games": [5, game]}))
    with caplog.at_level("WARNING", logger="mancala.server"):
        found = Journal(tmp_path, list).open()
    assert [g["game_id"] for g in found] == ["g1"]
    assert [r.getMessage() for r in caplog.records] == [
        f"the journal {tmp_path / JOURNAL_NAME} holds entries that are not games; they are passed over"
    ]


# --- --ray at a service that is not Ray: one line, at once ---------------------------------------

#: an HTTP/2 SETTINGS frame's header, as Ray's gRPC sends it first
SETTINGS_FRAME = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


@contextlib.contextmanager
def tcp_service(answer: bytes | None):
    """A TCP service on 127.0.0.1 that accepts every connection and sends ``answer`` (None:
    says nothing, and holds the connection open until the block ends); yields its port."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.05)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (None, "no answer to Ray's handshake within 0.5 s"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "it does not speak Ray's protocol (gRPC)"),
        (b"+OK\r\n", "it does not speak Ray's protocol (gRPC)"),
    ],
)
def test_ray_refuses_a_service_that_is_not_ray(answer, words, monkeypatch):
    from mancala.engine import cluster  # noqa: PLC0415

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 0.5)
    with tcp_service(answer) as port, pytest.raises(BadInput, match="is not a Ray cluster") as refused:
        cluster.check_address(f"127.0.0.1:{port}")
    assert words in str(refused.value)
    with tcp_service(SETTINGS_FRAME + bytes(24)) as port:  # what Ray's gRPC says first: taken for Ray
        cluster.check_address(f"127.0.0.1:{port}")


@pytest.mark.parametrize(
    "args",
    [
        ("arena", "greedy", "random", *SMALL_ARENA),
        ("db", "build", "--game", "kalah", "--seeds", "2"),
        ("solve", "--pits", "3", "--seeds", "2"),
    ],
    ids=lambda args: args[0],
)
def test_every_command_refuses_ray_at_a_silent_service_in_one_line(args, tmp_path, monkeypatch, capsys):
    from mancala.engine import cluster  # noqa: PLC0415

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 0.5)
    with tcp_service(None) as port:
        refused_here(*cli(capsys, *args, "--ray", f"127.0.0.1:{port}"), "is not a Ray cluster", "no answer")


# --- Ray failing during the work: a line of ours -------------------------------------------------


class _FakeRayError(Exception):
    """Stands for ``ray.exceptions.RayError`` (a node, worker or agent of Ray died)."""


class _FakeRay:
    """A connected Ray whose cluster fails on the first work (as when Ray's dashboard agent or
    a raylet is killed during a build)."""

    exceptions = types.SimpleNamespace(RayError=_FakeRayError)

    def is_initialized(self) -> bool:
        return True  # (so nothing is started, probed or shut down)

    def cluster_resources(self) -> dict:
        return {"CPU": 2}


def _cluster_fails(*args, **kwargs):
    raise _FakeRayError(
        "The node with node id: 1f2e has been marked dead because the detector has missed too many heartbeats\nmore of Ray's log"
    )


@pytest.mark.parametrize(
    ("args", "where"),
    [
        (("db", "build", "--game", "kalah", "--seeds", "4", "--no-progress"), "build_on_ray"),
        (("solve", "--pits", "3", "--seeds", "2", "--no-progress"), "solve_on_ray"),
    ],
    ids=lambda v: v[0] if isinstance(v, tuple) else v,
)
def test_ray_failing_during_the_work_is_a_line_of_ours_and_exit_2(args, where, tmp_path, monkeypatch, capsys):
    from mancala.engine import cluster, distributed  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cluster, "ray_module", _FakeRay)
    monkeypatch.setattr(cluster, "check_versions", lambda ray: None)  # (the nodes run this mancala)
    monkeypatch.setattr(distributed, where, _cluster_fails)
    code, err = cli(capsys, *args, "--ray", "10.0.0.5:6379")
    assert code == 2 and "Traceback" not in err, err
    assert err.splitlines()[-1] == (
        f"mancala {args[0]}: the Ray cluster at 10.0.0.5:6379 failed during the work (_FakeRayError: The node with "
        "node id: 1f2e has been marked dead because the detector has missed too many heartbeats); what was "
        "finished is kept (a build's shards, an arena's results): run the same command again once the cluster is whole"
    )


def test_an_error_of_ours_raised_in_a_ray_task_keeps_its_own_line(monkeypatch):
    from mancala.engine import cluster  # noqa: PLC0415

    class OursFromATask(_FakeRayError, BadInput):
        """What Ray raises for a task that raised BadInput: both Ray's error and its cause."""

    monkeypatch.setattr(cluster, "ray_module", _FakeRay)
    with pytest.raises(BadInput, match="^the shard is too big$"), cluster.connected("local"):
        raise OursFromATask("the shard is too big")


def _ended_by_ray(args) -> None:
    """A Ray driver that Ray ends, as when its raylet dies: exit code 1, no word of ours."""
    os._exit(1)


def _ends_in_its_own_words(args) -> None:
    """A Ray driver that refuses its work in one line of ours."""
    print(f"mancala {args.command}: a line of ours", file=sys.stderr, flush=True)
    os._exit(2)


@pytest.mark.parametrize(
    ("target", "code", "last"),
    [
        (_ended_by_ray, 2, "mancala db: the Ray driver ended without a word of ours (exit code 1;"),
        (_ends_in_its_own_words, 2, "mancala db: a line of ours"),
    ],
)
def test_a_ray_driver_that_ray_ends_gets_a_line_of_ours(target, code, last, capfd):
    from mancala.cli.driver import ray_driver  # noqa: PLC0415
    from mancala.cli.main import build_parser  # noqa: PLC0415

    args = build_parser().parse_args(["db", "build", "--game", "kalah", "--seeds", "4", "--ray", "10.0.0.5:6379"])
    assert ray_driver(target, args) == code
    err = capfd.readouterr().err
    assert err.splitlines()[-1].startswith(last) and len(err.splitlines()) == 1, err
    assert "what was finished is kept" in err or target is _ends_in_its_own_words
