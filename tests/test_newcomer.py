"""Issue 11: a newcomer's first hour.  Each test drives the case the issue reproduced
(through the CLI, real directories, real read-only folders, child processes) and fails
without its fix."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import scripted

from mancala.cli.main import main

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """``mancala ARGS`` in a child process (so a traceback or a crash is seen as such)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "mancala", *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env
    )


def one_error_line(done: subprocess.CompletedProcess, *words: str) -> str:
    """The single stderr line of a refused command (exit 2, no traceback), checked for ``words``."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- item 2 and 3: save paths, checked before the game starts ------------------------------


@pytest.mark.processes
def test_save_to_a_directory_is_refused_before_the_first_move(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    done = cli("play", "--save", str(folder), stdin="3\nquit\n")
    one_error_line(done, str(folder), "is a directory")
    assert "South plays" not in done.stdout  # refused before the game started
    assert list(folder.iterdir()) == []


@pytest.mark.processes
def test_save_into_a_missing_directory_is_refused_before_the_first_move(tmp_path):
    path = tmp_path / "nonexistent" / "dir" / "g.json"
    done = cli("play", "--save", str(path), stdin="3\nquit\n")
    one_error_line(done, str(path), "no such directory")
    assert "South plays" not in done.stdout


@pytest.mark.processes
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write into read-only folders")
def test_save_into_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = cli("play", "--save", str(folder / "g.json"), stdin="3\nquit\n")
    finally:
        folder.chmod(0o755)
    one_error_line(done, str(folder / "g.json"), "permission denied")


@pytest.mark.processes
@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs Linux's /sys (unwritable even for root)")
def test_save_where_nobody_may_write_is_refused():
    done = cli("play", "--save", "/sys/g.json", stdin="3\nquit\n")
    one_error_line(done, "/sys/g.json", "permission denied")


@pytest.mark.processes
def test_save_command_in_the_game_names_the_file_not_the_temporary_one(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    done = cli("play", "--level", "easy", stdin=f"3\nsave {folder}\nsave {tmp_path / 'no' / 'g.json'}\nquit\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    out = " ".join(done.stdout.split())  # rich may wrap long lines
    assert f"Not saved: {folder}: is a directory" in out
    assert "no such directory" in out
    assert ".tmp" not in out


def test_a_full_disk_while_autosaving_is_one_line_and_the_game_goes_on(tmp_path, monkeypatch):
    def full_disk(src, dst):
        raise OSError(28, "No space left on device", str(src))

    monkeypatch.setattr(os, "replace", full_disk)
    path = tmp_path / "g.json"
    code, out = run_terminal(
        "kalah(pits=3,seeds=1)", ["human", "human"], ["1", "quit"], save_path=str(path), autosave=True
    )
    assert code == 0
    assert f"Not saved: {path}: cannot write it (No space left on device)" in out
    assert ".tmp" not in out and "Bye." in out


def run_terminal(spec: str, players: list[str], lines: list[str], width: int = 100, **kw) -> tuple[int, str]:
    """Play ``lines`` in a TerminalGame on a recording console; (exit code, plain text shown)."""
    from rich.console import Console  # noqa: PLC0415

    from mancala.games import make_game  # noqa: PLC0415
    from mancala.players import make_player  # noqa: PLC0415
    from mancala.record import GameRecord  # noqa: PLC0415
    from mancala.ui.terminal import TerminalGame  # noqa: PLC0415

    console = Console(record=True, width=width, file=io.StringIO())  # recorded, not shown
    record = kw.pop("record", None) or GameRecord(make_game(spec), players)
    read = scripted(lines)

    def read_and_show(prompt: str) -> str:  # the transcript shows the prompts, as a terminal would
        line = read(prompt)
        console.print(prompt + line, markup=False, highlight=False, soft_wrap=True)
        return line

    game = TerminalGame(record, [make_player(p) for p in players], console=console, read_line=read_and_show, **kw)
    return game.run(), console.export_text()


# --- item 9: options that were silently ignored ---------------------------------------------


@pytest.fixture
def saved_game(tmp_path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(
        json.dumps({"format": "mancala-game", "version": 1, "game": "bao", "players": ["human", "easy"], "moves": []})
    )
    return path


@pytest.mark.parametrize(
    "options, named",
    [
        (["--level", "hard"], "--level"),
        (["--game", "kalah"], "--game"),
        (["--preset", "egyptian"], "--preset"),
        (["--pits", "4"], "--pits"),
        (["--seeds", "3"], "--seeds"),
        (["--ai-first"], "--ai-first"),
    ],
)
def test_load_refuses_options_it_cannot_apply(saved_game, capsys, options, named):
    assert main(["play", "--load", str(saved_game), *options]) == 2
    err = capsys.readouterr().err
    assert named in err and str(saved_game) in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("value", ["0", "-1", "nan"])
def test_hint_time_must_be_positive(capsys, value):
    assert main(["play", f"--hint-time={value}"]) == 2
    assert "--hint-time must be a positive number" in capsys.readouterr().err


def test_a_game_spec_may_not_give_an_option_twice(capsys):
    assert main(["play", "--game", "kalah(pits=6,pits=4)"]) == 2
    assert "gives pits twice" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["solve", "explain", "play"])
def test_an_empty_position_is_an_error_not_the_standard_board(capsys, command):
    assert main([command, "--position", ""]) == 2
    assert "--position is empty" in capsys.readouterr().err


# --- item 10: small messages -----------------------------------------------------------------


def test_an_unknown_player_in_a_save_names_the_file(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(
        json.dumps(
            {"format": "mancala-game", "version": 1, "game": "kalah", "players": ["human", "wizard"], "moves": ["3"]}
        )
    )
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "wizard" in err and len(err.strip().splitlines()) == 1


def test_a_position_of_the_wrong_length_says_what_is_expected(capsys):
    assert main(["solve", "--position", "1 2 3"]) == 2
    err = capsys.readouterr().err
    assert "2n+2 numbers" in err and "got 3" in err and "1 pits" not in err


def test_a_match_between_two_equal_specs_names_them_apart(capsys):
    assert main(["match", "greedy", "greedy", "--games", "2", "--pits", "3"]) == 0
    out = capsys.readouterr().out
    assert "greedy (A): " in out and "greedy (B): " in out


# --- item 6: seat labels after the pie rule's swap -------------------------------------------


def test_after_a_pie_rule_swap_every_label_follows_the_seat():
    # the AI (player 0) opens from South; the human swaps and so plays South from then on
    code, out = run_terminal("kalah(preset=mankalah)", ["random:seed=1", "human"], ["swap", "4", "quit"])
    assert code == 0
    before_swap, after_swap = out.split("North swaps sides (pie rule).")
    assert "North (human) to move" in before_swap
    assert "Seats changed: North (random:seed=1) and South (human)." in after_swap
    assert "South (human) to move" in after_swap and "North (human)" not in after_swap
    assert "South plays 4" in after_swap  # the human's move, from South
    ai_moves = [line for line in after_swap.splitlines() if line.endswith("[random:seed=1]")]
    assert ai_moves and all(line.startswith("North plays") for line in ai_moves)


def test_player_names_follow_the_seat_in_the_rules():
    from mancala.games import make_game  # noqa: PLC0415

    game = make_game("kalah(preset=mankalah)")
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[0])
    swapped = game.apply(state, game.parse_move(state, "swap"))
    assert [game.player_name(p, state) for p in (0, 1)] == ["South", "North"]
    assert [game.player_name(p, swapped) for p in (0, 1)] == ["North", "South"]


# --- item 12: the terminal board ---------------------------------------------------------------


def test_the_board_marks_changed_cells_and_colours_captures():
    from mancala.games import make_game  # noqa: PLC0415
    from mancala.ui.terminal import CAPTURED_STYLE, CHANGED_STYLE, SOWN_FROM_STYLE, board_text  # noqa: PLC0415

    # South pit 1 holds 1 seed: it lands in the empty South 2 and captures North 2's 3 seeds
    game = make_game("kalah(pits=3,seeds=0,start=1 0 1 0 0 3 1 0)")
    before = game.initial_state()
    move = game.parse_move(before, "1")
    after = game.apply(before, move)
    assert after.last.capture
    text, changed, captured = board_text(game, after, before)
    styles = [str(span.style) for span in text.spans]
    assert captured == ["North 2"]
    assert changed == ["South 1 (sown from)", "South store"]  # South 2 got the seed and lost it to the store
    assert styles.count(CAPTURED_STYLE) == 1 and styles.count(SOWN_FROM_STYLE) == 1
    assert styles.count(CHANGED_STYLE) == 1
    assert "South store" in changed
    # unmarked without a previous position
    assert board_text(game, after)[0].spans == []


@pytest.mark.processes
def test_piped_output_has_no_colour_codes_and_says_what_changed():
    done = cli("play", "--pits", "3", "--seeds", "2", "--p2", "greedy", stdin="1\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" not in done.stdout
    assert "Changed: " in done.stdout


def test_kalah_stores_are_labelled():
    from mancala.games import make_game  # noqa: PLC0415

    text = make_game("kalah").render(make_game("kalah").initial_state())
    assert "North store" in text and "South store" in text
    small = make_game("kalah(pits=2)")
    assert "North's on the left, South's on the right" in small.render(small.initial_state())


@pytest.mark.parametrize("pits", [14, 17, 20])
@pytest.mark.parametrize("seeds", [4, 99])
def test_wide_kalah_boards_fit_in_80_columns(pits, seeds):
    from mancala.games import make_game  # noqa: PLC0415

    game = make_game(f"kalah(pits={pits},seeds={seeds})")
    lines = game.render(game.initial_state()).splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[1].split() == [str(seeds)] * pits


def test_tictactoe_shows_empty_cells_apart_from_o():
    code, out = run_terminal("tictactoe", ["human", "human"], ["0", "4", "quit"])
    board = out.split("X plays 0.")[1].split("O plays 4.")[0]
    assert "X | · | ·" in board
    grid = out.split("O plays 4.")[1]
    assert "· | O | ·" in grid
    # the grid itself shows no digits; the cell numbers are printed beside it
    for line in grid.splitlines()[:5]:
        cells = line.split("   ")[0]
        assert not any(ch.isdigit() for ch in cells.replace(" ", "")[:5]), line


def test_the_bao_board_stays_on_one_side_unless_flipped():
    code, out = run_terminal("bao", ["human", "random:seed=3"], ["A6L*", "board", "flip", "quit"])
    assert code == 0
    sides = [line.split()[0] for line in out.splitlines() if line.startswith(("South (A/B)", "North (a/b)"))]
    boards = list(zip(sides[::2], sides[1::2]))  # (top, bottom) of every board drawn
    assert len(boards) == 5  # start, after A6L*, after North's reply, board, flip
    assert boards[:4] == [("North", "South")] * 4  # South's view, also when North is to move
    assert boards[4] == ("South", "North")  # flip turns it round


@pytest.mark.processes
def test_the_bao_board_can_be_asked_from_north():
    done = cli("play", "--game", "bao", "--view", "north", "--p1", "human", "--p2", "human", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    sides = [line.split()[0] for line in out.splitlines() if line.startswith(("South (A/B)", "North (a/b)"))]
    assert sides[:2] == ["South", "North"]  # North's rows at the bottom


def test_help_explains_the_games_move_syntax():
    code, out = run_terminal("bao", ["human", "random:seed=3"], ["help", "quit"])
    assert "Bao moves: <row><hole><direction><house><takasa>" in out and "'**'" in out and "resign" in out
    code, out = run_terminal("kalah(preset=ethiopian)", ["human", "human"], ["help", "quit"])
    assert "3L (clockwise)" in out
    code, out = run_terminal("tictactoe", ["human", "human"], ["help", "quit"])
    assert "empty cell, 0-8" in out


def test_resign_ends_the_game_with_a_recorded_result(tmp_path):
    from mancala.record import load_record  # noqa: PLC0415

    path = tmp_path / "bao.json"
    code, out = run_terminal("bao", ["human", "random:seed=3"], ["A6L*", "resign"], save_path=str(path), autosave=True)
    assert code == 0 and "Game over. South (human) resigned: North (random:seed=3) wins." in out
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["resigned"] == 0
    assert data["result"]["finished"] is True and data["result"]["winner"] == 1
    loaded = load_record(path)
    assert loaded.resigned == 0 and loaded.is_over() and loaded.winner() == 1
    code, out = run_terminal("bao", ["human", "random:seed=3"], ["A6L*"], record=loaded)
    assert "resigned" in out and "(human) to move" not in out  # a finished game is not played on


def test_a_game_without_resignation_is_still_written_as_version_1(tmp_path):
    from mancala.games import make_game  # noqa: PLC0415
    from mancala.record import GameRecord, save_record  # noqa: PLC0415

    save_record(GameRecord(make_game("kalah"), ["human", "easy"]), tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text())["version"] == 1


def test_resigned_needs_version_2(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(
        json.dumps(
            {
                "format": "mancala-game",
                "version": 1,
                "game": "kalah",
                "players": ["human", "easy"],
                "moves": [],
                "resigned": 0,
            }
        )
    )
    assert main(["play", "--load", str(path)]) == 2
    assert "version 2" in capsys.readouterr().err


# --- item 7 (terminal half): preparing and thinking -------------------------------------------


def test_the_first_hint_says_it_prepares_the_engine(monkeypatch):
    import mancala.engine.engine as engine  # noqa: PLC0415
    import mancala.ui.terminal as terminal  # noqa: PLC0415
    from mancala.analysis import budget  # noqa: PLC0415
    from mancala.engine import readiness  # noqa: PLC0415
    from mancala.games import make_game  # noqa: PLC0415

    # the engine compiled (else a person's hint comes from the Python search meanwhile,
    # with no preparing), whatever the numba cache holds when this test runs
    monkeypatch.setattr(readiness, "engine_ready", lambda record: True)
    calls = []

    def prepare(game, notice=None):  # the engine's: it says so once, while it is not ready
        if "prepare" not in calls and notice is not None:
            notice()
        calls.append("prepare")
        return 0.0

    monkeypatch.setattr(engine, "prepare", prepare)

    def hint(game, state, nodes):
        calls.append(("search", nodes))
        move = str(game.legal_moves(state)[0])
        return {"move": move, "value": 0, "line": [move], "turns": [f"South {move}"], "depth": 3, "exact": False}

    monkeypatch.setattr(terminal, "hint", hint)
    code, out = run_terminal("kalah", ["human", "human"], ["hint", "hint", "quit"], hint_seconds=2.5)
    assert out.count("preparing the engine (once)…") == 1
    assert out.index("preparing the engine (once)…") < out.index("Hint:")
    nodes = budget(make_game("kalah"), 2.5)
    assert calls == ["prepare", ("search", nodes), "prepare", ("search", nodes)]  # prepared before each search
    assert "depth 3" in out  # the estimate names its depth


def test_thinking_shows_the_seconds_only_after_a_moment():
    from types import SimpleNamespace  # noqa: PLC0415

    from mancala.ui.terminal import THINKING_AFTER, _ThinkingColumn  # noqa: PLC0415

    column = _ThinkingColumn("thinking")
    assert column.render(SimpleNamespace(elapsed=THINKING_AFTER / 2)).plain == ""
    assert column.render(SimpleNamespace(elapsed=3.2)).plain == "thinking… 3s"


# --- Ctrl-C: never a traceback -----------------------------------------------------------------


def _in_a_pty(
    args: list[str], steps: list[tuple[str, str]], then_wait_for: str, timeout: float = 120, settle: float = 0.0
):
    """Run ``mancala ARGS`` in a pseudo-terminal: for each (text, prompt) wait for the prompt and
    type the text; then wait for ``then_wait_for``, ``settle`` seconds more, and press Ctrl-C.
    Returns (exit code, output)."""
    import pty  # noqa: PLC0415
    import select  # noqa: PLC0415
    import time  # noqa: PLC0415

    pid, fd = pty.fork()
    if pid == 0:  # the child
        import signal  # noqa: PLC0415

        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C as in a fresh shell, whatever the test runner set
        env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100")
        os.execve(sys.executable, [sys.executable, "-m", "mancala", *args], env)
    out = b""

    def read_until(token: str, limit: float) -> bool:
        nonlocal out
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return False
                if not chunk:
                    return False
                out += chunk
                if token.encode() in out:
                    return True
        return False

    try:
        for text, prompt in steps:
            assert read_until(prompt, timeout), out.decode(errors="replace")[-1500:]
            os.write(fd, text.encode())
        assert read_until(then_wait_for, timeout), out.decode(errors="replace")[-1500:]
        time.sleep(settle)
        os.write(fd, b"\x03")  # Ctrl-C, as typed
        read_until("\0never", 30)  # the rest of the output, until the end
    finally:
        done, status = os.waitpid(pid, os.WNOHANG)
        if not done:  # a child that missed its cue must not hang the suite
            read_until("\0never", 30)
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                os.kill(pid, 9)
                _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


@pytest.mark.processes
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_c_while_the_engine_thinks_is_one_line():
    from mancala.engine import readiness  # noqa: PLC0415
    from mancala.engine.support import engine_support  # noqa: PLC0415

    # the engine compiled first (on an empty numba cache the reply would come at once from the
    # Python search while it compiles, and never show "thinking…"), whatever ran before
    if not readiness.engine_ready(engine_support("kalah")):
        readiness.compile_engine("kalah")
    # book=off: the reply to 1 is in the opening book, answered at once
    code, out = _in_a_pty(["play", "--p2", "best:time=30,book=off"], [("1\n", "to move")], "thinking…")
    assert code == 130, out[-1500:]
    assert "Traceback" not in out and "SystemError" not in out
    assert "Interrupted; leaving the game." in out


@pytest.mark.processes
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_ctrl_c_at_the_prompt_is_one_line():
    # a person presses Ctrl-C at a prompt they have read: the moment after it appears belongs
    # to CPython, whose input() can miss a SIGINT that lands before its read starts (then the
    # key is seen only with the next key typed), so the key comes a moment later, as a person's
    code, out = _in_a_pty(["play", "--game", "tictactoe"], [], "] > ", settle=0.5)
    assert code == 130 and "Traceback" not in out and "Interrupted; leaving the game." in out


@pytest.mark.processes
def test_sigint_during_a_python_search_is_one_line():
    import signal  # noqa: PLC0415
    import time  # noqa: PLC0415

    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen(
        [sys.executable, "-m", "mancala", "play", "--p2", "alphabeta:depth=40"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.stdin.write("1\n")
    child.stdin.flush()
    out = ""
    while "South plays 1" not in out:  # the human's move is made; the AI now searches
        line = child.stdout.readline()
        assert line, out
        out += line
    time.sleep(0.5)  # (not an assert: only lets the search start)
    child.send_signal(signal.SIGINT)
    rest, err = child.communicate(timeout=60)
    assert child.returncode == 130, (rest, err)
    assert "Traceback" not in err + rest and "Interrupted; leaving the game." in rest


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs a folder that takes no new files (/proc)")
def test_save_into_a_folder_that_takes_no_files_says_so(capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    assert main(["play", "--save", "/proc/g.json"]) == 2
    err = capsys.readouterr().err
    assert "files cannot be created in /proc" in err and "no such directory" not in err
