"""The homework file interface (``mancala homework``), checked against FORMAT.md.

The four official samples must come out byte for byte.  Every other expected output
below was worked out by hand from the rules in shared/homework/FORMAT.md on boards
small enough to follow; the comment above each case gives the reasoning.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.cli import homework
from mancala.cli.homework import (
    HomeworkInput,
    competition_turn,
    format_next_state,
    parse_input,
    pit_label,
    solve,
    to_position,
)
from mancala.cli.main import main as cli_main
from mancala.errors import BadInput
from mancala.evaluation import default_evaluation
from mancala.search.core import SearchResult
from mancala.search.deepening import iterative_deepening

REPO = Path(__file__).resolve().parents[1]
#: the official samples (copied byte for byte from shared/homework/samples, so the suite runs in any clone)
SAMPLES = REPO / "tests" / "data" / "homework" / "samples"


def run_homework(folder: Path, text: str | None, *options: str, capsys=None) -> tuple[int, str, str]:
    """Write ``text`` to folder/input.txt (unless None) and run ``mancala homework`` on it
    through the project's CLI; returns (exit code, stdout, stderr)."""
    if text is not None:
        (folder / "input.txt").write_text(text, newline="")
    code = cli_main(["homework", str(folder / "input.txt"), *options])
    out, err = capsys.readouterr() if capsys else ("", "")
    return code, out, err


def read(folder: Path, name: str) -> str:
    """An output file's exact text (no newline translation)."""
    return (folder / name).read_bytes().decode("ascii")


def files(folder: Path) -> set[str]:
    """Every file name in ``folder``, temporary ones included."""
    return {p.name for p in folder.iterdir()}


def board(task: int, player: int, depth: int, row_a: str, row_b: str, a1: int = 0, b_store: int = 0) -> str:
    """An input.txt."""
    return f"{task}\n{player}\n{depth}\n{row_a}\n{row_b}\n{a1}\n{b_store}\n"


def log(*lines: str, window: bool = False) -> str:
    """A traverse log with its header."""
    header = "Node,Depth,Value,Alpha,Beta" if window else "Node,Depth,Value"
    return "\n".join((header,) + lines) + "\n"


# --- the official samples -----------------------------------------------------------------


@pytest.mark.parametrize("sample", ["sample1", "sample2", "sample3", "sample4"])
def test_official_samples_byte_for_byte(sample, tmp_path, capsys):
    source = SAMPLES / sample
    assert source.is_dir(), f"the official samples are expected at {SAMPLES}"
    (tmp_path / "input.txt").write_bytes((source / "input.txt").read_bytes())
    code, _, err = run_homework(tmp_path, None, capsys=capsys)
    assert (code, err) == (0, "")
    expected = {p.name for p in source.iterdir()}
    assert files(tmp_path) == expected  # sample1 (greedy) has no traverse log, and none is written
    for name in expected - {"input.txt"}:
        assert (tmp_path / name).read_bytes() == (source / name).read_bytes(), name


def test_outputs_go_beside_the_input_by_default_and_into_out_dir_when_asked(tmp_path, capsys):
    work, out = tmp_path / "work", tmp_path / "out"
    work.mkdir()
    out.mkdir()
    (work / "input.txt").write_bytes((SAMPLES / "sample2" / "input.txt").read_bytes())
    assert run_homework(work, None, "--out", str(out), capsys=capsys)[0] == 0
    assert files(work) == {"input.txt"}
    assert files(out) == {"next_state.txt", "traverse_log.txt"}
    assert read(out, "next_state.txt") == (SAMPLES / "sample2" / "next_state.txt").read_text()


@pytest.mark.processes
def test_default_input_is_input_txt_in_the_current_directory(tmp_path):
    (tmp_path / "input.txt").write_bytes((SAMPLES / "sample3" / "input.txt").read_bytes())
    done = run_cli_process(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for name in ("next_state.txt", "traverse_log.txt"):
        assert (tmp_path / name).read_bytes() == (SAMPLES / "sample3" / name).read_bytes()


# --- hand-worked cases, one or more rules each --------------------------------------------

# Extra turn at the cutoff depth (FORMAT §4), capture (§3).  Player 1, minimax, depth 1,
# A = 1 1 1, B = 2 0 1.  B2 (2 stones) -> B3, B4: last in B4 which held 1, no capture,
# E = 0, a leaf at depth 1.  B4 (1) -> B5: extra turn, so B4 is expanded although it is at
# the cutoff; it is a max node (player 1 moves next) and starts at -Infinity.  Its only
# child B2 (2) -> B3, B4: B4 was empty -> capture with A4 (1): 2 stones -> B5 = 3, E = 3,
# logged at depth 1 (same turn).  The turn B4, B2 gives A = 1 1 0, B = 0 1 0, A1 = 0, B5 = 3.
EXTRA_TURN_AT_CUTOFF = (
    board(2, 1, 1, "1 1 1", "2 0 1"),
    "1 1 0\n0 1 0\n0\n3\n",
    log("root,0,-Infinity", "B2,1,0", "root,0,0", "B4,1,-Infinity", "B2,1,3", "B4,1,3", "root,0,3"),
)

# Capture from an empty opposite pit (§3) and ties to the first move (§6).  Player 1,
# minimax, depth 1, A = 2 0 2, B = 1 0 3.  B2 (1) -> B3, which was empty; A3 is empty but
# the capture still happens: the single stone goes to B5, E = 1.  B4 (3) -> B5, A4, A3:
# E = 1.  Tie: B2 is kept (without the empty capture B2 would score 0 and B4 win).
EMPTY_OPPOSITE_CAPTURE = (
    board(2, 1, 1, "2 0 2", "1 0 3"),
    "2 0 2\n0 0 3\n0\n1\n",
    log("root,0,-Infinity", "B2,1,1", "root,0,1", "B4,1,1", "root,0,1"),
)

# The emptied origin is not skipped, and a lap ending in it captures (§3).  Player 1,
# greedy, A = 5 1 1, B = 7 0 0.  B2's 7 stones go to B3, B4, B5, A4, A3, A2 (A1 skipped)
# and back into B2, now holding 1: capture with A2 (5 + 1 = 6), so B5 = 1 + 7 = 8.
# (With "skip origin" the last stone would land in B3 instead.)
LAP_INTO_ORIGIN = (
    board(1, 1, 9, "5 1 1", "7 0 0"),
    "0 2 2\n0 1 1\n0\n8\n",
    None,
)

# FORMAT §6's example: the game ends inside the turn and the board is swept.  Player 1,
# greedy, A = 1 1 1, B = 0 0 1.  B4 -> B5 (an extra turn, but row B is now empty): the
# game is over and row A's 3 stones go to A1.
SWEEP_AT_GAME_END = (
    board(1, 1, 2, "1 1 1", "0 0 1"),
    "0 0 0\n0 0 0\n3\n1\n",
    None,
)

# The same position with minimax, depth 3: B4 is a game-over node.  Its OPTIONAL line comes
# first, with -Infinity because player 1 (my player) would move next after an extra turn;
# then its evaluation after the sweep: 1 - 3 = -2 (§3, §4).
SWEEP_LOGGED_MINIMAX = (
    board(2, 1, 3, "1 1 1", "0 0 1"),
    "0 0 0\n0 0 0\n3\n1\n",
    log("root,0,-Infinity", "B4,1,-Infinity\tOPTIONAL", "B4,1,-2", "root,0,-2"),
)

SWEEP_LOGGED_ALPHABETA = (
    board(3, 1, 3, "1 1 1", "0 0 1"),
    "0 0 0\n0 0 0\n3\n1\n",
    log(
        "root,0,-Infinity,-Infinity,Infinity",
        "B4,1,-Infinity,-Infinity,Infinity\tOPTIONAL",
        "B4,1,-2,-Infinity,Infinity",
        "root,0,-2,-2,Infinity",
        window=True,
    ),
)

# A game-ending capture inside the chosen chain, with non-zero starting mancalas (§2, §3,
# §6).  Player 1, minimax, depth 1, A = 1 0 5, B = 0 1 1, A1 = 3, B5 = 2.
# B3 (1) -> B4 (held 1): no capture, E = 2 - 3 = -1.
# B4 (1) -> B5 = 3: extra turn, max node.  Then B3 (1) -> B4, empty: capture with A4 (5),
# B5 = 3 + 6 = 9; row B is empty, the game is over, A2's stone is swept to A1 = 4: E = 5.
# That node's OPTIONAL line says +Infinity: no extra turn, so player 2 would move next.
# The whole turn B4, B3 is played: next_state is the swept board.
GAME_ENDS_INSIDE_CHAIN = (
    board(2, 1, 1, "1 0 5", "0 1 1", a1=3, b_store=2),
    "0 0 0\n0 0 0\n4\n9\n",
    log(
        "root,0,-Infinity",
        "B3,1,-1",
        "root,0,-1",
        "B4,1,-Infinity",
        "B3,1,Infinity\tOPTIONAL",
        "B3,1,5",
        "B4,1,5",
        "root,0,5",
    ),
)

# Pruning on equality at a min node (§5).  Player 1, alpha-beta, depth 2, A = 2 1 1, B = 1 1 2.
# B2 (1) -> B3: min node.  A2 (2) -> A1, B2: E = -1, beta = -1.  A3 (1) -> A2: E = 0.
#   A4 (1) -> A3: E = 0.  B2 = -1, so the root's alpha = -1.
# B3 (1) -> B4: min node with window (-1, Inf).  A2 (2) -> A1, B2: E = -1 = alpha: cut,
#   beta stays Infinity, A3 and A4 are never generated.
# B4 (2) -> B5, A4: min node (-1, Inf).  A2 -> A1, B2: E = 1 - 1 = 0, beta = 0.
#   A3 (1) -> A2: E = 1.  A4 (2) -> A3, A2: E = 1.  B4 = 0 > -1: the root plays B4.
PRUNE_ON_EQUALITY_AT_MIN = (
    board(3, 1, 2, "2 1 1", "1 1 2"),
    "2 1 2\n1 1 0\n0\n1\n",
    log(
        "root,0,-Infinity,-Infinity,Infinity",
        "B2,1,Infinity,-Infinity,Infinity",
        "A2,2,-1,-Infinity,Infinity",
        "B2,1,-1,-Infinity,-1",
        "A3,2,0,-Infinity,-1",
        "B2,1,-1,-Infinity,-1",
        "A4,2,0,-Infinity,-1",
        "B2,1,-1,-Infinity,-1",
        "root,0,-1,-1,Infinity",
        "B3,1,Infinity,-1,Infinity",
        "A2,2,-1,-1,Infinity",
        "B3,1,-1,-1,Infinity",
        "root,0,-1,-1,Infinity",
        "B4,1,Infinity,-1,Infinity",
        "A2,2,0,-1,Infinity",
        "B4,1,0,-1,0",
        "A3,2,1,-1,0",
        "B4,1,0,-1,0",
        "A4,2,1,-1,0",
        "B4,1,0,-1,0",
        "root,0,0,0,Infinity",
        window=True,
    ),
)

# Pruning on equality at a max node (§5), player 2's empty capture, game-ending extra
# turns logged with -Infinity OPTIONAL lines.  Player 1, alpha-beta, depth 3, A = 0 1 0,
# B = 0 3 0.  B3 (3) -> B4, B5, A4 (B5 = 1): min node.
#   A3 (1) -> A2, which was empty: capture with empty B2, A1 = 1.  Max node at depth 2.
#     B4 (1) -> B5 = 2, extra turn, but row B is empty: over, A4's stone swept, A1 = 2, E = 0.
#     A3 = 0 (alpha 0); B3 = 0 (beta 0).
#   A4 (1) -> A3 (held 1).  Max node, window (-Infinity, 0).
#     B4 (1) -> B5 = 2, row B empty: over, A1 = 0 + 2 swept = 2, E = 0.
#     v = 0 >= beta = 0: cut, alpha is NOT raised (stays -Infinity).
PRUNE_ON_EQUALITY_AT_MAX = (
    board(3, 1, 3, "0 1 0", "0 3 0"),
    "0 1 1\n0 0 1\n0\n1\n",
    log(
        "root,0,-Infinity,-Infinity,Infinity",
        "B3,1,Infinity,-Infinity,Infinity",
        "A3,2,-Infinity,-Infinity,Infinity",
        "B4,3,-Infinity,-Infinity,Infinity\tOPTIONAL",
        "B4,3,0,-Infinity,Infinity",
        "A3,2,0,0,Infinity",
        "B3,1,0,-Infinity,0",
        "A4,2,-Infinity,-Infinity,0",
        "B4,3,-Infinity,-Infinity,0\tOPTIONAL",
        "B4,3,0,-Infinity,0",
        "A4,2,0,-Infinity,0",
        "B3,1,0,-Infinity,0",
        "root,0,0,0,Infinity",
        window=True,
    ),
)

# Player 2's positional order A2..A(N+1) and its ties (§4, §6).  Player 2, minimax, depth 1,
# A = 3 0 4, B = 1 1 1.  A2 (3) -> A1, B2, B3: E = 1.  A4 (4) -> A3, A2, A1, B2: E = 1.
# A2 comes first and is kept (North's own pit order would try A4 first and keep it).
PLAYER_2_ORDER_AND_TIE = (
    board(2, 2, 1, "3 0 4", "1 1 1"),
    "0 0 4\n2 2 1\n1\n0\n",
    log("root,0,-Infinity", "A2,1,1", "root,0,1", "A4,1,1", "root,0,1"),
)

PLAYER_2_GREEDY_TIE = (board(1, 2, 5, "3 0 4", "1 1 1"), "0 0 4\n2 2 1\n1\n0\n", None)

HAND_CASES = {
    "extra turn at the cutoff": EXTRA_TURN_AT_CUTOFF,
    "capture from an empty opposite pit, tie": EMPTY_OPPOSITE_CAPTURE,
    "lap back into the emptied origin": LAP_INTO_ORIGIN,
    "sweep at game end (greedy)": SWEEP_AT_GAME_END,
    "sweep at game end (minimax log)": SWEEP_LOGGED_MINIMAX,
    "sweep at game end (alpha-beta log)": SWEEP_LOGGED_ALPHABETA,
    "game ends inside the chosen chain": GAME_ENDS_INSIDE_CHAIN,
    "prune on equality at a min node": PRUNE_ON_EQUALITY_AT_MIN,
    "prune on equality at a max node": PRUNE_ON_EQUALITY_AT_MAX,
    "player 2 order and tie (minimax)": PLAYER_2_ORDER_AND_TIE,
    "player 2 tie (greedy)": PLAYER_2_GREEDY_TIE,
}


@pytest.mark.parametrize("name", list(HAND_CASES))
def test_hand_worked_case(name, tmp_path, capsys):
    text, next_state, traverse_log = HAND_CASES[name]
    code, _, err = run_homework(tmp_path, text, capsys=capsys)
    assert (code, err) == (0, "")
    assert read(tmp_path, "next_state.txt") == next_state
    if traverse_log is None:
        assert not (tmp_path / "traverse_log.txt").exists()
    else:
        assert read(tmp_path, "traverse_log.txt") == traverse_log


def test_no_optional_logs_a_game_over_node_once(tmp_path, capsys):
    text, next_state, traverse_log = GAME_ENDS_INSIDE_CHAIN
    assert run_homework(tmp_path, text, "--no-optional", capsys=capsys)[0] == 0
    assert read(tmp_path, "traverse_log.txt") == traverse_log.replace("B3,1,Infinity\tOPTIONAL\n", "")
    assert read(tmp_path, "next_state.txt") == next_state


def test_greedy_ignores_the_depth_line(tmp_path, capsys):
    text, next_state, _ = LAP_INTO_ORIGIN
    assert run_homework(tmp_path, text.replace("\n9\n", "\n0\n", 1), capsys=capsys)[0] == 0
    assert read(tmp_path, "next_state.txt") == next_state


def test_crlf_tabs_and_trailing_blanks_are_accepted(tmp_path, capsys):
    text, next_state, traverse_log = EXTRA_TURN_AT_CUTOFF
    messy = "\r\n".join(" \t" + line + "  \t" for line in text.splitlines()) + "\r\n\r\n  \r\n"
    assert run_homework(tmp_path, messy, capsys=capsys)[0] == 0
    assert read(tmp_path, "next_state.txt") == next_state
    assert read(tmp_path, "traverse_log.txt") == traverse_log


def test_pit_labels_and_board_mapping():
    # player 1's pit p is B(p+1); player 2 numbers its pits in its sowing direction, so its pit 1 is A(N+1)
    assert [pit_label(4, 0, p) for p in range(1, 5)] == ["B2", "B3", "B4", "B5"]
    assert [pit_label(4, 1, p) for p in range(1, 5)] == ["A5", "A4", "A3", "A2"]
    problem = parse_input(board(2, 2, 1, "1 2 3", "4 5 6", 7, 8))
    game, state = to_position(problem)
    assert state.row(0) == (4, 5, 6) and state.store(0) == 8
    assert state.row(1) == (3, 2, 1) and state.store(1) == 7  # North's pit 1 is A4
    assert state.seat == 1
    assert format_next_state(state) == "1 2 3\n4 5 6\n7\n8\n"


# --- minimax and alpha-beta agree (§5, §6) -------------------------------------------------


def test_minimax_and_alphabeta_choose_the_same_next_state(tmp_path):
    rng = random.Random(20)
    checked = 0
    while checked < 40:
        n = rng.randint(3, 5)
        row_a = tuple(rng.randint(0, 5) for _ in range(n))
        row_b = tuple(rng.randint(0, 5) for _ in range(n))
        if not any(row_a) or not any(row_b):
            continue
        player, depth = rng.randint(1, 2), rng.randint(1, 3)
        results = []
        for task in (2, 3):
            folder = tmp_path / f"{checked}-{task}"
            folder.mkdir()
            outcome = solve(HomeworkInput(task, player, depth, row_a, row_b, 1, 2), folder)
            last = read(folder, "traverse_log.txt").splitlines()[-1]
            results.append((read(folder, "next_state.txt"), outcome.value, last.split(",")[:3]))
        assert results[0] == results[1], (player, depth, row_a, row_b)
        checked += 1


# --- large inputs ---------------------------------------------------------------------------


def test_ten_pits_of_1000_stones_run_fast_and_conserve_stones(tmp_path, capsys):
    row = " ".join(["1000"] * 10)
    assert run_homework(tmp_path, board(3, 2, 2, row, row, 5, 7), capsys=capsys)[0] == 0  # depth 2: few nodes
    lines = read(tmp_path, "next_state.txt").splitlines()
    numbers = [int(x) for line in lines for x in line.split()]
    assert len(lines[0].split()) == len(lines[1].split()) == 10
    assert sum(numbers) == 20 * 1000 + 12
    logged = read(tmp_path, "traverse_log.txt").splitlines()
    assert logged[0] == "Node,Depth,Value,Alpha,Beta"
    assert logged[1] == "root,0,-Infinity,-Infinity,Infinity"
    assert logged[-1].startswith("root,0,")


# --- task 4 ------------------------------------------------------------------------------------


def whole_turns(game, state) -> set[str]:
    """next_state.txt text of every complete turn from ``state`` (extra turns followed)."""
    mover = game.to_move(state)
    found: set[str] = set()

    def walk(current) -> None:
        for move in game.legal_moves(current):
            after = game.apply(current, move)
            if game.is_terminal(after) or game.to_move(after) != mover:
                found.add(format_next_state(after))
            else:
                walk(after)

    walk(state)
    return found


def run_cli_process(folder: Path, *options: str) -> subprocess.CompletedProcess:
    """``mancala homework`` in a separate process, in ``folder`` (so a crash is a failure, not the end
    of the test run)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "mancala", "homework", *options],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("player", [1, 2])
def test_competition_writes_a_whole_legal_turn_within_its_budget(player, tmp_path, capsys, monkeypatch):
    # The budget is checked on a fake clock, not the wall clock (a busy machine must not fail
    # the test): every search is taken to use all the time it is given, and the searches of
    # one turn together may be given only the --time budget (plus the 1% floor that
    # guarantees a move once it is spent).
    from types import SimpleNamespace

    import mancala.players as players

    now = [1000.0]
    budgets = []

    def search_using_its_whole_budget(game, state, seconds):
        budgets.append(seconds)
        result = iterative_deepening(
            game, state, seconds, default_evaluation(game), max_depth=3, clock=lambda: 0.0
        )  # a real, bounded search
        now[0] += seconds
        return result

    monkeypatch.setattr(players, "best_search", search_using_its_whole_budget)
    monkeypatch.setattr(homework, "time", SimpleNamespace(monotonic=lambda: now[0]))
    text = board(4, player, 7, "3 0 1 4 2", "1 4 0 2 3", 2, 1)
    code, out, err = run_homework(tmp_path, text, "--time", "0.3", capsys=capsys)
    assert (code, err) == (0, "")
    assert files(tmp_path) == {"input.txt", "next_state.txt"}
    game, state = to_position(parse_input(text))
    assert read(tmp_path, "next_state.txt") in whole_turns(game, state)
    assert budgets[0] == pytest.approx(0.3)
    assert all(b == pytest.approx(0.003) for b in budgets[1:])  # nothing left after the first: the floor
    assert now[0] - 1000.0 <= 0.3 + 0.003 * (len(budgets) - 1) + 1e-9


@pytest.mark.processes
def test_competition_in_a_separate_process_writes_a_whole_legal_turn(tmp_path):
    text = board(4, 1, 7, "3 0 1 4 2", "1 4 0 2 3", 2, 1)
    (tmp_path / "input.txt").write_text(text)
    done = run_cli_process(tmp_path, "--time", "0.3")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert files(tmp_path) == {"input.txt", "next_state.txt"}
    game, state = to_position(parse_input(text))
    assert read(tmp_path, "next_state.txt") in whole_turns(game, state)


@pytest.mark.parametrize("player", [1, 2])
def test_competition_with_the_pure_python_player(player, tmp_path, capsys, monkeypatch):
    # the same path with the engine left out: iterative-deepening alpha-beta in Python
    from types import SimpleNamespace

    import mancala.players as players

    # a fake clock that advances 1 ms at every reading, the search's and the turn's (whose
    # deadline gives the later searches of a turn their budgets): the search must stop by itself
    # once the 0.3 s are spent, i.e. after a bounded number of readings (nodes), however slow the machine
    ticks = [0]

    def clock():
        ticks[0] += 1
        return ticks[0] / 1000

    monkeypatch.setattr(
        players,
        "best_search",
        lambda game, state, seconds: iterative_deepening(game, state, seconds, default_evaluation(game), clock=clock),
    )
    monkeypatch.setattr(homework, "time", SimpleNamespace(monotonic=clock))
    text = board(4, player, 7, "3 0 1 4 2", "1 4 0 2 3", 2, 1)
    code, out, err = run_homework(tmp_path, text, "--time", "0.3", capsys=capsys)
    assert (code, err) == (0, "")
    assert 300 <= ticks[0] < 2000  # the budget was used, and the search stopped soon after it
    assert files(tmp_path) == {"input.txt", "next_state.txt"}
    game, state = to_position(parse_input(text))
    assert read(tmp_path, "next_state.txt") in whole_turns(game, state)
    assert "competition" in out


def test_competition_completes_the_turn_when_the_search_gives_only_a_first_move():
    # Player 1, A = 1 1 1, B = 0 1 1: B4 earns an extra turn, after which B3 must still be played.
    game, state = to_position(parse_input(board(4, 1, 1, "1 1 1", "0 1 1")))
    calls = []

    def last_pit_first(game_, state_, seconds):
        calls.append(seconds)
        move = game_.legal_moves(state_)[-1]  # South's last pit: B4 first
        return SearchResult(move, 0, (move,), 1, 1, "test")

    turn = competition_turn(game, state, 1.0, search=last_pit_first)
    assert [pit_label(3, 0, m.pit) for m in turn] == ["B4", "B3"]
    assert len(calls) == 2 and calls[0] == 1.0 and 0 < calls[1] <= 1.0


# --- bad input ---------------------------------------------------------------------------------

GOOD = board(2, 1, 2, "1 2 3", "3 2 1")

BAD_INPUTS = [
    # (name, input text, line named in the message, text the message must contain)
    ("empty file", "", 1, "got an empty file"),
    ("too few lines", "1\n1\n2\n1 1 1\n1 1 1\n0\n", 7, "got the end of the file"),
    ("too many lines", GOOD + "5\n", 8, "expected the end of the file"),
    ("blank line inside", "2\n1\n\n1 1 1\n1 1 1\n0\n0\n", 3, "got an empty line"),
    ("task not a number", GOOD.replace("2", "x", 1), 1, "got 'x'"),
    ("unknown task", "5" + GOOD[1:], 1, "4 (competition), got '5'"),
    ("task 0", "0" + GOOD[1:], 1, "got '0'"),
    ("unknown player", "2\n3\n2\n1 1 1\n1 1 1\n0\n0\n", 2, "got '3'"),
    ("two numbers on a line", "2\n1 2\n2\n1 1 1\n1 1 1\n0\n0\n", 2, "got '1 2'"),
    ("depth 0 for minimax", board(2, 1, 0, "1 1 1", "1 1 1"), 3, "at least 1, got '0'"),
    ("depth 0 for alpha-beta", board(3, 1, 0, "1 1 1", "1 1 1"), 3, "at least 1, got '0'"),
    ("negative depth", board(2, 1, -2, "1 1 1", "1 1 1"), 3, "got '-2'"),
    ("non-numbers in a row", board(2, 1, 2, "a b c", "1 1 1"), 4, "got 'a b c'"),
    ("fraction in a row", board(2, 1, 2, "1 1 1", "1 1.5 1"), 5, "got '1 1.5 1'"),
    ("negative stones", board(2, 1, 2, "1 1 1", "1 -1 1"), 5, "(-1 is negative)"),
    ("too many stones", board(2, 1, 2, "1 1001 1", "1 1 1"), 4, "(1001 is more than 1000)"),
    ("N too small", board(2, 1, 2, "1 1", "1 1"), 4, "(2 counts; N must be 3 to 10)"),
    ("N too large", board(2, 1, 2, " ".join(["1"] * 11), " ".join(["1"] * 11)), 4, "(11 counts; N must be 3 to 10)"),
    (
        "rows of different length",
        board(2, 1, 2, "1 1 1", "1 1 1 1"),
        5,
        "as many as on line 4, got '1 1 1 1' (4 counts)",
    ),
    ("empty row line", board(2, 1, 2, "1 1 1", ""), 5, "got an empty line"),
    ("negative mancala", board(2, 1, 2, "1 1 1", "1 1 1", a1=-3), 6, "player 2's mancala (A1)"),
    (
        "mancala not a number",
        "2\n1\n2\n1 1 1\n1 1 1\n0\nten\n",
        7,
        "player 1's mancala (B(N+2)), a whole number, got 'ten'",
    ),
]


@pytest.mark.parametrize("name, text, line, fragment", BAD_INPUTS, ids=[case[0] for case in BAD_INPUTS])
def test_bad_input_is_one_line_exit_2_and_nothing_written(name, text, line, fragment, tmp_path, capsys):
    # good outputs from an earlier run must survive untouched
    (tmp_path / "next_state.txt").write_text("earlier next state\n")
    (tmp_path / "traverse_log.txt").write_text("earlier log\n")
    code, out, err = run_homework(tmp_path, text, capsys=capsys)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith(f"mancala homework: {tmp_path / 'input.txt'} line {line}: expected "), err
    assert fragment in err
    assert files(tmp_path) == {"input.txt", "next_state.txt", "traverse_log.txt"}
    assert read(tmp_path, "next_state.txt") == "earlier next state\n"
    assert read(tmp_path, "traverse_log.txt") == "earlier log\n"


def test_the_exact_message_for_a_row_of_non_numbers(capsys):
    with pytest.raises(BadInput) as caught:
        parse_input(board(2, 1, 2, "a b c", "1 1 1"), "input.txt")
    assert str(caught.value) == (
        "input.txt line 4: expected N stone counts (whole numbers 0-1000) separated by spaces, got 'a b c'"
    )


@pytest.mark.parametrize(
    "row_a, row_b, player, line",
    [
        ("0 0 0", "1 2 3", 1, 4),  # my row has stones, but the opponent's is empty: already over
        ("1 2 3", "0 0 0", 1, 5),
        ("0 0 0", "0 0 0", 2, 4),
    ],
)
def test_an_already_finished_position_is_reported_not_searched(row_a, row_b, player, line, tmp_path, capsys):
    code, out, err = run_homework(tmp_path, board(2, player, 2, row_a, row_b, 4, 5), capsys=capsys)
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith(f"mancala homework: {tmp_path / 'input.txt'} line {line}: the game is already over")
    assert files(tmp_path) == {"input.txt"}


def test_a_missing_input_file_is_exit_2(tmp_path, capsys):
    code, _, err = run_homework(tmp_path, None, capsys=capsys)
    assert code == 2
    assert err.startswith("mancala homework: ") and "input.txt" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "options, fragment",
    [
        (("--time", "0"), "--time must be a positive number"),
        (("--time", "-1"), "--time must be a positive number"),
        (("--out", "no/such/dir"), "not an existing directory"),
    ],
)
def test_bad_options_are_exit_2(options, fragment, tmp_path, capsys):
    code, _, err = run_homework(tmp_path, GOOD, *options, capsys=capsys)
    assert code == 2 and fragment in err
    assert files(tmp_path) == {"input.txt"}


def test_a_failure_after_the_search_leaves_earlier_outputs_untouched(tmp_path, monkeypatch):
    (tmp_path / "next_state.txt").write_text("earlier next state\n")
    (tmp_path / "traverse_log.txt").write_text("earlier log\n")

    def broken(state):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(homework, "format_next_state", broken)
    with pytest.raises(RuntimeError):
        solve(parse_input(SWEEP_LOGGED_MINIMAX[0]), tmp_path)
    assert files(tmp_path) == {"next_state.txt", "traverse_log.txt"}  # no temporary file left behind
    assert read(tmp_path, "next_state.txt") == "earlier next state\n"
    assert read(tmp_path, "traverse_log.txt") == "earlier log\n"


def test_the_log_is_streamed_while_the_search_runs(tmp_path, monkeypatch):
    # the staged log file exists in the output directory before the search returns
    seen = []
    original = homework.search_turn

    def watching(*args, **kwargs):
        result = original(*args, **kwargs)
        seen.extend(p.name for p in tmp_path.iterdir() if p.name.startswith(".traverse_log.txt."))
        return result

    monkeypatch.setattr(homework, "search_turn", watching)
    solve(parse_input(PRUNE_ON_EQUALITY_AT_MAX[0]), tmp_path)
    assert len(seen) == 1
    assert read(tmp_path, "traverse_log.txt") == PRUNE_ON_EQUALITY_AT_MAX[2]
