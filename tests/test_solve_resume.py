"""Split proofs that outlive one sitting (:mod:`mancala.engine.split_proof`): the same value as
the plain solver, a stopped proof resumed without re-doing a sub-proof, its journal refused when
it was written for another proof, a last line cut short tolerated and a damaged one refused, a
journal checked on its own, and the command's one-line errors."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.cli.main import main
from mancala.engine import solver, split_proof
from mancala.engine.split_proof import (
    Journal,
    LocalProver,
    SplitStopped,
    check_journal,
    encode_line,
    journal_header,
    prove_split,
    read_journal,
    split_tree,
)
from mancala.errors import BadInput
from mancala.games import make_game
from mancala.games.kalah import KalahState

ROOT = Path(__file__).resolve().parents[1]


def _extra_turns(spec: str) -> tuple:
    """A middle game where every South move ends in South's store (chains of extra turns: a
    ply of the split is a move, not a turn)."""
    game = make_game(spec)
    return game, KalahState(board=(5, 4, 3, 2, 1, 0, 2, 1, 0, 3, 0, 3), seat=0, ply=8, turns=6)


CASES = [
    ("kalah(pits=4,seeds=3)", 1),
    ("kalah(pits=4,seeds=3)", 3),
    ("kalah(preset=empty-capture,pits=4,seeds=3)", 2),
    ("kalah(pits=4,seeds=3,pie_rule=true)", 2),
    ("kalah(pits=4,seeds=3,no_first_extra_turn=true)", 2),
    ("kalah(pits=6,seeds=2)", 2),
    ("kalah(preset=empty-capture,pits=5,seeds=2)", 3),
]


class Logged(LocalProver):
    """The local prover, remembering which positions it proved."""

    def __init__(self, game, root) -> None:
        super().__init__(game, root)
        self.proved: list[str] = []
        self.calls: list[tuple[str, float, float]] = []

    def __call__(self, state, alpha, beta, known):
        self.proved.append(split_proof.position_key(state))
        self.calls.append((self.proved[-1], alpha, beta))
        return super().__call__(state, alpha, beta, known)


@pytest.mark.parametrize("spec,plies", CASES)
def test_a_split_proof_has_the_plain_solvers_value(spec, plies):
    game = make_game(spec)
    state = game.initial_state()
    result = prove_split(game, state, plies)
    plain = solver.solve(game, state, progress=False)
    assert result.value == plain.value
    after = game.apply(state, result.move)  # the best move named keeps the value
    if after.finished:
        assert game.score(after, game.to_move(state)) == plain.value
    else:
        value = solver.solve(game, after, progress=False).value
        assert (value if game.to_move(after) == game.to_move(state) else -value) == plain.value
    for move, (lo, hi) in result.moves.items():  # every root move's bounds hold its exact value
        child = game.apply(state, move)
        if child.finished:
            exact = game.score(child, game.to_move(state))
        else:
            v = solver.solve(game, child, progress=False).value
            exact = v if game.to_move(child) == game.to_move(state) else -v
        assert lo <= exact <= hi, (move, lo, hi, exact)


def test_a_split_proof_on_one_thread_has_the_plain_solvers_value(monkeypatch):
    """One solver thread: each sub-proof's window passes are single null-window searches."""
    monkeypatch.setenv("MANCALA_SOLVE_THREADS", "1")
    game = make_game("kalah(preset=empty-capture,pits=6,seeds=2)")
    state = game.initial_state()
    assert prove_split(game, state, 2).value == solver.solve(game, state, progress=False).value


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_a_split_through_extra_turn_chains_has_the_plain_solvers_value(plies):
    game, state = _extra_turns("kalah(pits=5,seeds=3)")
    root, leaves = split_tree(game, state, plies)
    # the side to move is read at each node: after an extra turn South moves again
    assert any(game.to_move(child.state) == game.to_move(state) for _, child in root.children)
    result = prove_split(game, state, plies)
    assert result.value == solver.solve(game, state, progress=False).value
    assert result.subproofs == len(leaves)


@pytest.mark.parametrize("spec", ["kalah(pits=4,seeds=3,pie_rule=true)", "kalah(pits=5,seeds=2,pie_rule=true)"])
@pytest.mark.parametrize("plies", [1, 2])
def test_a_split_where_the_pie_rules_swap_is_legal_has_the_plain_solvers_value(spec, plies):
    game = make_game(spec)
    for move in game.legal_moves(game.initial_state()):  # the second player may swap
        state = game.apply(game.initial_state(), move)
        if state.finished:
            continue
        plain = solver.solve(game, state, progress=False)
        result = prove_split(game, state, plies)
        assert result.value == plain.value
        assert (str(result.move) == "swap") == (str(plain.move) == "swap")


def _stop_after(k: int):
    return lambda proved: proved >= k


def test_a_stopped_proof_resumes_to_the_same_value_and_re_does_no_sub_proof(tmp_path):
    game = make_game("kalah(pits=6,seeds=2)")
    state = game.initial_state()
    path = tmp_path / "proof.journal"
    header = journal_header(game, state, 3)
    first = Logged(game, state)
    journal = Journal.open(path, header)
    with pytest.raises(SplitStopped) as stopped:
        prove_split(game, state, 3, journal=journal, prover=first, stop=_stop_after(3))
    journal.close()
    assert stopped.value.recorded == 3 and first.proved and len(first.proved) == 3
    assert read_journal(path).records == 3 and read_journal(path).guess is not None
    kept_before = dict(read_journal(path).entries)
    second = Logged(game, state)
    journal = Journal.open(path, header)
    result = prove_split(game, state, 3, journal=journal, prover=second)
    journal.close()
    assert result.value == solver.solve(game, state, progress=False).value
    # nothing proved twice: no sub-proof against a window what the first run kept decides
    assert not set(first.calls) & set(second.calls)
    assert all(not split_proof.decides(kept_before.get(key, split_proof.UNKNOWN), a, b) for key, a, b in second.calls)
    assert result.resumed >= 1 and result.proved == len(second.proved) > 0
    contents = read_journal(path)
    assert contents.result is not None and contents.result["value"] == result.value
    third = Logged(game, state)  # a finished proof resumed proves nothing
    journal = Journal.open(path, header)
    again = prove_split(game, state, 3, journal=journal, prover=third)
    journal.close()
    assert again.value == result.value and third.proved == [] and again.proved == 0


def test_a_ctrl_c_just_after_a_line_is_written_is_counted_with_that_line(tmp_path, monkeypatch):
    """The count a stopped proof reports is what its journal holds, even when the interrupt
    lands between a sub-proof line's write and the count kept in memory (another thread can
    take the signal while the writer holds it): here the third line's write raises it."""
    game = make_game("kalah(pits=6,seeds=2)")
    state = game.initial_state()
    path = tmp_path / "proof.journal"
    written = {"sub-proofs": 0}
    real = split_proof.append_durably

    def append_then_interrupt(stream, text):
        real(stream, text)
        if b'"kind":"sub-proof"' in (text if isinstance(text, bytes) else text.encode()):
            written["sub-proofs"] += 1
            if written["sub-proofs"] == 3:
                raise KeyboardInterrupt

    monkeypatch.setattr(split_proof, "append_durably", append_then_interrupt)
    journal = Journal.open(path, journal_header(game, state, 3))
    with pytest.raises(SplitStopped) as stopped:
        prove_split(game, state, 3, journal=journal, prover=LocalProver(game, state))
    journal.close()
    assert read_journal(path).records == 3 == stopped.value.recorded


def _rewrite(path: Path, number: int, change) -> None:
    """Line ``number`` (from 1) of a journal rewritten by ``change(record)``, its checksum renewed."""
    lines = path.read_bytes().splitlines(keepends=True)
    record = split_proof.decode_line(lines[number - 1])
    assert record is not None
    change(record)
    lines[number - 1] = encode_line(record)
    path.write_bytes(b"".join(lines))


def _finished_journal(tmp_path: Path, spec: str = "kalah(pits=4,seeds=3)", plies: int = 2) -> tuple:
    game = make_game(spec)
    state = game.initial_state()
    path = tmp_path / "done.journal"
    journal = Journal.open(path, journal_header(game, state, plies))
    result = prove_split(game, state, plies, journal=journal)
    journal.close()
    return game, state, path, result


@pytest.mark.parametrize(
    "field,value,said",
    [
        ("mancala", "0.0.1 (000000000000)", "written by mancala 0.0.1"),
        ("game", "kalah(pits=4,seeds=2)", "written for the rules"),
        ("root", None, "written for another position"),
        ("plies", 3, "split 3 moves deep, not 2"),
    ],
)
def test_a_journal_of_another_proof_is_refused_in_one_line(tmp_path, field, value, said):
    game, state, path, _ = _finished_journal(tmp_path)

    def change(header: dict) -> None:
        header[field] = (
            value if field != "root" else split_proof.state_data(game.apply(state, game.legal_moves(state)[0]))
        )

    _rewrite(path, 1, change)
    before = path.read_bytes()
    with pytest.raises(BadInput) as refused:
        Journal.open(path, journal_header(game, state, 2))
    assert said in str(refused.value) and str(path) in str(refused.value) and "\n" not in str(refused.value)
    assert path.read_bytes() == before


def test_a_last_line_cut_short_is_proved_again_and_a_damaged_middle_line_refused(tmp_path):
    game = make_game("kalah(pits=6,seeds=2)")
    state = game.initial_state()
    path = tmp_path / "cut.journal"
    header = journal_header(game, state, 2)
    journal = Journal.open(path, header)
    with pytest.raises(SplitStopped):
        prove_split(game, state, 2, journal=journal, stop=_stop_after(4))
    journal.close()
    whole = path.read_bytes()
    lines = whole.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])  # killed mid-write
    contents = read_journal(path)
    assert contents.cut and contents.records == 3
    lost = split_proof.decode_line(lines[-1])
    assert lost is not None
    prover = Logged(game, state)
    journal = Journal.open(path, header)
    result = prove_split(game, state, 2, journal=journal, prover=prover)
    journal.close()
    assert result.value == solver.solve(game, state, progress=False).value
    assert prover.proved[0] == split_proof.position_key(split_proof.state_from_data(lost["position"]))
    assert path.read_bytes().startswith(b"".join(lines[:-1])) and path.read_bytes().endswith(b"\n")
    damaged = bytearray(path.read_bytes())
    second = damaged.index(b"\n") + 1
    damaged[second + 20] ^= 1  # a bit flipped in line 2
    path.write_bytes(bytes(damaged))
    with pytest.raises(BadInput, match=r"line 2: damaged"):
        Journal.open(path, header)
    assert path.read_bytes() == bytes(damaged)


def test_a_journal_is_checked_on_its_own(tmp_path):
    game, state, path, result = _finished_journal(tmp_path, "kalah(preset=empty-capture,pits=5,seeds=2)", 2)
    report = check_journal(path, reprove=4)
    assert report.recorded == result.value and report.bounds == (result.value, result.value)
    assert report.reproved == 4 and report.same_engine and not report.cut
    # a recorded bound that is false: the combination may not notice, a re-proof does
    contents = read_journal(path)
    number = min(n for lines in contents.lines.values() for n in lines)
    _rewrite(path, number, lambda r: r.update(lower=40, upper=40))
    with pytest.raises(BadInput):
        check_journal(path, reprove=10_000)
    # a result line that its sub-proofs do not prove
    (tmp_path / "again").mkdir()
    game, state, path, result = _finished_journal(tmp_path / "again")
    last = len(path.read_bytes().splitlines())
    _rewrite(path, last, lambda r: r.update(value=r["value"] + 2))
    with pytest.raises(BadInput, match="its result line says"):
        check_journal(path)


def test_an_unfinished_journal_checks_to_bounds(tmp_path):
    game = make_game("kalah(pits=6,seeds=2)")
    state = game.initial_state()
    path = tmp_path / "part.journal"
    journal = Journal.open(path, journal_header(game, state, 2))
    with pytest.raises(SplitStopped):
        prove_split(game, state, 2, journal=journal, stop=_stop_after(2))
    journal.close()
    report = check_journal(path)
    assert report.recorded is None and report.records == 2
    lo, hi = report.bounds
    value = solver.solve(game, state, progress=False).value
    assert lo <= value <= hi
    # the lines it proves something about: each one's exact value (for South, the root's
    # mover) lies within the bounds it reports, and every recorded sub-proof is one of them
    assert report.mover == "South" and report.lines
    for line, (lo, hi) in report.lines:
        assert (lo, hi) != (-math.inf, math.inf)
        position = state
        for token in line:
            assert token[0] == game.player_name(game.to_move(position), position)[0]
            position = game.apply(position, next(m for m in game.legal_moves(position) if str(m) == token[1:]))
        exact = solver.solve(game, position, progress=False).value if not position.finished else None
        if exact is None:
            exact = game.score(position, game.to_move(state))
        elif game.to_move(position) != game.to_move(state):
            exact = -exact
        assert lo <= exact <= hi, (line, lo, hi, exact)
    assert sum(len(line) == 2 for line, _ in report.lines) >= len(read_journal(path).entries) >= 1


# --- the command ---------------------------------------------------------------------------------


def _mancala(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mancala", *argv],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_solve_journal_then_resume_and_check_print_the_value(tmp_path, capsys):
    path = tmp_path / "j"
    spec = "kalah(preset=empty-capture,pits=5,seeds=2)"
    assert main(["solve", "--game", spec, "--journal", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    value = solver.solve(make_game(spec), make_game(spec).initial_state(), progress=False).value
    assert f"value: {value:+d} for South" in out and "recorded in" in out
    assert main(["solve", "--resume", str(path), "--no-progress"]) == 0
    assert f"value: {value:+d} for South" in capsys.readouterr().out
    assert main(["solve", "--check", str(path), "--reprove", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"root value: {value:+d} (recorded)" in out and "re-proved: 2" in out


@pytest.mark.processes
def test_ctrl_c_keeps_the_sub_proofs_and_says_how_to_resume(tmp_path):
    path = tmp_path / "k.journal"
    command = [sys.executable, "-m", "mancala", "solve", "--pits", "6", "--seeds", "3", "--journal", str(path)]
    child = subprocess.Popen(
        command, env=dict(os.environ, PYTHONPATH=str(ROOT)), stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stderr is not None
    for line in child.stderr:
        if line.startswith("pass 1: sub-proof 2/"):
            break
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    if child.returncode == 0:  # pragma: no cover - the proof ended before the signal landed
        pytest.skip("the proof ended before Ctrl-C")
    assert child.returncode == 130, err
    said = [line for line in err.splitlines() if line.startswith("mancala solve:")]
    assert len(said) == 1 and f"resume with: mancala solve --resume {path}" in said[0]
    kept = read_journal(path).records
    assert kept >= 2 and f"{kept} sub-proof line(s) kept" in said[0]
    checked = _mancala("solve", "--check", str(path), "--no-progress")  # what is proved so far
    assert checked.returncode == 0 and "proved so far, for South" in checked.stdout, checked.stderr
    assert "so far (unfinished" in checked.stdout
    done = _mancala("solve", "--resume", str(path), "--no-progress")
    assert done.returncode == 0, done.stderr
    game = make_game("kalah(seeds=3)")
    assert f"value: {solver.solve(game, game.initial_state(), progress=False).value:+d}" in done.stdout
    assert "from the journal" in done.stdout and " 0 from the journal" not in done.stdout


@pytest.mark.processes
def test_bad_journal_requests_are_one_line_and_exit_2(tmp_path):
    other = tmp_path / "other.journal"
    assert main(["solve", "--pits", "4", "--seeds", "2", "--journal", str(other), "--no-progress"]) == 0
    damaged = tmp_path / "damaged.journal"
    lines = other.read_bytes().splitlines(keepends=True)
    assert len(lines) >= 4
    damaged.write_bytes(lines[0] + lines[1] + b"garbage\n" + b"".join(lines[2:]))
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my notes\n")
    cases = [
        (["solve", "--pits", "4", "--seeds", "3", "--journal", str(other)], "written for the rules"),
        (["solve", "--pits", "4", "--seeds", "3", "--journal", str(tmp_path / "no" / "j")], "no such directory"),
        (["solve", "--pits", "4", "--seeds", "3", "--journal", str(tmp_path)], "is a directory"),
        (["solve", "--pits", "4", "--seeds", "3", "--journal", str(foreign)], "not a split-proof journal"),
        (["solve", "--resume", str(damaged)], "line 3: damaged"),
        (["solve", "--check", str(damaged)], "line 3: damaged"),
        (["solve", "--resume", str(tmp_path / "missing")], "no such journal file"),
        (["solve", "--resume", str(other), "--split-plies", "3"], "cannot resume it"),
        (["solve", "--pits", "4", "--seeds", "3", "--split-plies", "9"], "--split-plies must be 1-4"),
        (["solve", "--pits", "4", "--seeds", "3", "--reprove", "2"], "--reprove goes with --check"),
        (["solve", "--check", str(other), "--reprove", "-1"], "--reprove must be"),
        (["solve", "--game", "oware", "--journal", str(tmp_path / "o")], "--journal shapes a Kalah proof"),
    ]
    for argv, expected in cases:
        done = _mancala(*argv)
        assert done.returncode == 2, (argv, done.stderr)
        assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1, (argv, done.stderr)
    assert foreign.read_text() == "my notes\n" and not (tmp_path / "o").exists()


def test_journal_lines_are_checksummed_json():
    line = encode_line({"kind": "guess", "value": 3})
    assert split_proof.decode_line(line) == {"kind": "guess", "value": 3}
    assert split_proof.decode_line(line[:-1]) is None  # no line end: cut short
    assert split_proof.decode_line(line.replace(b"3", b"4", 1)) is None
    text, _, check = line.decode().rstrip("\n").rpartition("\t")
    assert json.loads(text) == {"kind": "guess", "value": 3} and len(check) == split_proof.CHECK_DIGITS
