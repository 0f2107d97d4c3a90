"""``benchmarks/oware_decided.py``: the table's verdict on a game as it entered the table, and
the seeds each side's moves gave up inside it."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from helpers import benchmark_module

from mancala.engine.oware import endgame
from mancala.engine.oware.exact import move_values
from mancala.errors import BadInput
from mancala.games.oware import Oware

SEEDS = 8


D = benchmark_module("oware_decided")


@pytest.fixture(scope="module")
def table():
    return endgame.build(Oware().rules, SEEDS)


def _game(table, seed: int, worse_at: int | None = None):
    """Random moves until the board holds at most SEEDS seeds, then the table's best move for
    both sides (at the ``worse_at``-th table move, the worst instead) until the end: the moves,
    the table's value for South at entry and what the worse move gave up."""
    game = Oware()
    rng = random.Random(seed)
    state = game.initial_state()
    moves: list[str] = []
    entry, given, inside = None, 0, 0
    while not game.is_terminal(state) and len(moves) < 600:
        values = move_values(game, state, table)
        if values is None:
            move = rng.choice(game.legal_moves(state))
        else:
            if entry is None:
                entry = values[0][1] if state.seat == 0 else -values[0][1]
            move = values[0][0]
            if inside == worse_at and len(values) > 1:
                move, given = values[-1][0], values[0][1] - values[-1][1]
            inside += 1
        state = game.apply(state, move)
        moves.append(str(move))
    if not game.is_terminal(state) or entry is None:
        return None
    margin = game.score(state, 0)
    row = {"moves": "".join(moves), "our_seat": 0, "margin": margin, "end": state.last.end if state.last else None}
    row["result"] = "W" if margin > 0 else "L" if margin < 0 else "D"
    return row, entry, given


def _games(table, worse_at=None, count=4):
    found = []
    for seed in range(200):
        made = _game(table, seed, worse_at)
        if made and (worse_at is None or made[2] > 0):
            found.append(made)
        if len(found) == count:
            return found
    raise AssertionError("too few games ended")


def test_table_moves_give_up_nothing_and_the_entry_value_is_the_tables(table):
    """Both sides playing the table's best move from entry: nothing given up, and the verdict
    at entry is the table's value for us, from either seat."""
    game = Oware()
    for row, entry, _ in _games(table):
        south = D.judge(game, table, row, "test")
        north = D.judge(game, table, {**row, "our_seat": 1, "margin": -row["margin"]}, "test")
        assert (south.entry_value, south.ours_given, south.theirs_given) == (entry, 0, 0)
        assert (north.entry_value, north.ours_given, north.theirs_given) == (-entry, 0, 0)
        assert south.entry_ply == north.entry_ply


def test_a_worse_move_is_counted_for_its_side(table):
    """One worse move of South's or North's inside the table is counted, to the seed, for the
    side that played it."""
    game = Oware()
    for worse_at in (0, 1):
        for row, _, given in _games(table, worse_at):
            verdict = D.judge(game, table, row, "test")
            mover_is_south = worse_at == 0 if _south_enters(game, table, row) else worse_at == 1
            assert (verdict.ours_given, verdict.theirs_given) == ((given, 0) if mover_is_south else (0, given))


def _south_enters(game, table, row) -> bool:
    """Whether South is to move at the game's first position within the table."""
    state = game.initial_state()
    for text in row["moves"]:
        if move_values(game, state, table):
            return state.seat == 0
        state = game.apply(state, game.parse_move(state, text))
    raise AssertionError("never in the table")


def test_report_counts_and_lists_the_odd_losses(table):
    """The report counts games by result and verdict, and names a loss that entered ahead."""
    verdicts = [
        D.Verdict("W", 6, "majority", 4, 50, 0, 3),
        D.Verdict("L", -2, "repetition", 1, 60, 0, 0),
        D.Verdict("L", -4, "majority", -4, 40, 2, 0),
        D.Verdict("D", 0, "no-move", None, None, 0, 0),
    ]
    out = io.StringIO()
    D.report(Path("x.jsonl"), verdicts, out)
    text = out.getvalue()
    assert "x.jsonl: 4 games" in text
    assert "L, at entry losing: 1" in text and "L, at entry winning: 1" in text
    assert "D, at entry never in the table: 1" in text
    assert "seeds given up inside the table: ours 2, theirs 3" in text
    assert "game 2: entered at ply 60 worth +1 to us, lost -2 (repetition)" in text


@pytest.mark.parametrize(
    "line, says",
    [
        ("[1, 2]", "line 1: a game is a JSON object"),
        ("{", "line 1: not JSON"),
        ('{"moves": "Zz", "our_seat": 0, "result": "W", "margin": 2}', "move 1 (Z)"),
        ('{"moves": "Ab", "our_seat": 3, "result": "W", "margin": 2}', "our_seat 0 or 1"),
        ('{"moves": "Ab", "result": "W", "margin": 2}', "a field is missing or wrong"),
    ],
)
def test_bad_files_are_one_line_and_exit_2(tmp_path, capsys, table, line, says):
    path = tmp_path / "games.jsonl"
    path.write_text(line + "\n")
    assert D.main([str(path), "--seeds", str(SEEDS)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and str(path) in err


def test_a_missing_file_is_one_line(tmp_path, capsys, table):
    assert D.main([str(tmp_path / "none.jsonl"), "--seeds", str(SEEDS)]) == 2
    assert "cannot read it" in capsys.readouterr().err


def test_a_game_is_read_whole(tmp_path, table):
    """Every game of a file is judged (blank lines skipped)."""
    rows, _, _ = zip(*_games(table, count=2))
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    assert len(D.read_games(path)) == 2
    with pytest.raises(BadInput):
        D.judge(
            Oware(), table, {"moves": rows[0]["moves"] + "A", **{k: v for k, v in rows[0].items() if k != "moves"}}, "t"
        )
