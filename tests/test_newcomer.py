"""Issue 11: a newcomer's first hour.  Each test drives the case the issue reproduced
(through the CLI, real directories, real read-only folders, child processes) and fails
without its fix."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.cli import main

REPO = Path(__file__).resolve().parents[1]


def cli(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """``mancala ARGS`` in a child process (so a traceback or a crash is seen as such)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "mancala", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env)


def one_error_line(done: subprocess.CompletedProcess, *words: str) -> str:
    """The single stderr line of a refused command (exit 2, no traceback), checked for ``words``."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- item 2 and 3: save paths, checked before the game starts ------------------------------

def test_save_to_a_directory_is_refused_before_the_first_move(tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    done = cli("play", "--save", str(folder), stdin="3\nquit\n")
    one_error_line(done, str(folder), "is a directory")
    assert "South plays" not in done.stdout  # refused before the game started
    assert list(folder.iterdir()) == []


def test_save_into_a_missing_directory_is_refused_before_the_first_move(tmp_path):
    path = tmp_path / "nonexistent" / "dir" / "g.json"
    done = cli("play", "--save", str(path), stdin="3\nquit\n")
    one_error_line(done, str(path), "no such directory")
    assert "South plays" not in done.stdout


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


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs Linux's /sys (unwritable even for root)")
def test_save_where_nobody_may_write_is_refused():
    done = cli("play", "--save", "/sys/g.json", stdin="3\nquit\n")
    one_error_line(done, "/sys/g.json", "permission denied")


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
    code, out = run_terminal("kalah(pits=3,seeds=1)", ["human", "human"], ["1", "quit"], save_path=str(path),
                             autosave=True)
    assert code == 0
    assert f"Not saved: {path}: cannot write it (No space left on device)" in out
    assert ".tmp" not in out and "Bye." in out


def scripted(lines):
    """A read_line that answers prompts from ``lines`` and then reports end of input."""
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def run_terminal(spec: str, players: list[str], lines: list[str], width: int = 100, **kw) -> tuple[int, str]:
    """Play ``lines`` in a TerminalGame on a recording console; (exit code, plain text shown)."""
    from rich.console import Console  # noqa: PLC0415

    from mancala.games import make_game  # noqa: PLC0415
    from mancala.players import make_player  # noqa: PLC0415
    from mancala.record import GameRecord  # noqa: PLC0415
    from mancala.ui.terminal import TerminalGame  # noqa: PLC0415
    console = Console(record=True, width=width, file=open(os.devnull, "w"))
    record = kw.pop("record", None) or GameRecord(make_game(spec), players)
    game = TerminalGame(record, [make_player(p) for p in players], console=console, read_line=scripted(lines), **kw)
    return game.run(), console.export_text()


# --- item 9: options that were silently ignored ---------------------------------------------

@pytest.fixture
def saved_game(tmp_path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"format": "mancala-game", "version": 1, "game": "bao",
                                "players": ["human", "easy"], "moves": []}))
    return path


@pytest.mark.parametrize("options, named", [
    (["--level", "hard"], "--level"),
    (["--game", "kalah"], "--game"),
    (["--preset", "egyptian"], "--preset"),
    (["--pits", "4"], "--pits"),
    (["--seeds", "3"], "--seeds"),
    (["--ai-first"], "--ai-first"),
])
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
    path.write_text(json.dumps({"format": "mancala-game", "version": 1, "game": "kalah",
                                "players": ["human", "wizard"], "moves": ["3"]}))
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
