"""The arena (mancala/tournament.py): balanced openings, resume, serial = parallel = Ray, adapters, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.arena import tournament as T
from mancala.arena.report import report_paths, summarize
from mancala.arena.tournament import TournamentSpec, comparable, judge, make_openings, read_results, run_tournament
from mancala.games import make_game

pytestmark = pytest.mark.processes

GAME = "kalah(pits=3,seeds=2)"
PLAYERS = ("greedy", "alphabeta:depth=2", "random")
ROOT = Path(__file__).resolve().parent.parent


def spec(**kw) -> TournamentSpec:
    base = dict(game=GAME, players=PLAYERS, openings=2, plies=2, balance=2, seed=5)
    base.update(kw)
    return TournamentSpec(**base)


def keys(rows):
    return [r["key"] for r in rows]


def test_openings_are_balanced_distinct_and_reproducible():
    game = make_game("kalah")
    openings = make_openings(game, 6, 4, 1.0, seed=3)
    assert openings == make_openings(game, 6, 4, 1.0, seed=3)
    assert len({o.moves for o in openings}) == 6
    for o in openings:
        assert len(o.moves) == 4
        state = game.initial_state()
        for text in o.moves:
            state = game.apply(state, game.parse_move(state, text))
        # the stated criterion: the judge (engine, depth JUDGE_DEPTH) values it within the balance
        assert abs(judge(game, state)) <= 1.0
        assert judge(game, state) == o.value
    with pytest.raises(Exception, match="openings"):
        make_openings(make_game("kalah(pits=2,seeds=1)"), 50, 3, 0.0, seed=1)


def test_every_pairing_plays_each_opening_from_both_seats(tmp_path):
    rows = run_tournament(spec(), tmp_path / "r.jsonl", workers=1, progress=False)
    assert len(rows) == 3 * 2 * 2 and len(set(keys(rows))) == len(rows)
    for row in rows:
        a, b = row["pairing"]
        assert row["players"] == ([a, b] if row["seat"] == 0 else [b, a])
        assert row["finished"] and row["forfeit"] is None
        assert len(row["seconds"]) == len(row["moves"])
        assert {"host", "cpus", "load"} <= set(row["machine"])
        # replaying opening + moves gives the recorded margin
        game = make_game(row["game"])
        state = game.initial_state()
        for text in row["opening"] + row["moves"]:
            state = game.apply(state, game.parse_move(state, text))
        assert game.is_terminal(state) and game.score(state, 0) == row["score"]
    for s in summarize(rows):
        assert s.games == 4


def test_resume_after_interruption_and_torn_line(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"
    full = run_tournament(spec(), tmp_path / "full.jsonl", workers=1, progress=False)
    # an interruption (Ctrl-C) after three games: the three finished games are on disk
    real = T.play_task
    calls = {"n": 0}

    def interrupted(task):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(T, "play_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_tournament(spec(), path, workers=1, progress=False)
    monkeypatch.setattr(T, "play_task", real)
    assert len(read_results(path)) == 3
    # a crash in the middle of writing a line leaves a torn last line: it is dropped, not kept
    with open(path, "a") as f:
        f.write('{"key": "greedy|alphabeta:depth=2|1|0", "pair')
    first = path.read_text().splitlines()[:3]
    rows = run_tournament(spec(), path, workers=1, progress=False)
    lines = path.read_text().splitlines()
    assert lines[:3] == first
    assert all(json.loads(line) for line in lines)
    assert sorted(keys(rows)) == sorted(keys(full)) and len(set(keys(rows))) == len(rows)
    assert sorted(map(json.dumps, map(comparable, rows))) == sorted(map(json.dumps, map(comparable, full)))
    # running again plays nothing new
    again = run_tournament(spec(), path, workers=1, progress=False)
    assert len(again) == len(rows) and path.read_text().splitlines() == lines


@pytest.mark.slow
@pytest.mark.cluster
def test_serial_parallel_and_ray_give_the_same_games(tmp_path):
    serial = run_tournament(spec(), tmp_path / "s.jsonl", workers=1, progress=False)
    parallel = run_tournament(spec(), tmp_path / "p.jsonl", workers=2, progress=False)
    ray = pytest.importorskip("ray")
    ray.init(
        num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}}
    )
    try:
        on_ray = run_tournament(spec(), tmp_path / "r.jsonl", ray_address="local", progress=False)
    finally:
        ray.shutdown()
    canon = lambda rows: sorted(json.dumps(comparable(r), sort_keys=True) for r in rows)  # noqa: E731
    assert canon(serial) == canon(parallel) == canon(on_ray)
    assert len(serial) == 12


CRASHER = """
import os
class Player:
    def __init__(self, num, kind=0, ply=0):
        self.num = num
    def chooseMove(self, board):
        marker = {marker!r}
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(3)          # the worker process dies mid-game, once
        cups = board.P1Cups if self.num == 1 else board.P2Cups
        return max(i + 1 for i, c in enumerate(cups) if c)
"""


def test_a_crashed_worker_loses_no_finished_game(tmp_path):
    bot = tmp_path / "crasher.py"
    bot.write_text(CRASHER.format(marker=str(tmp_path / "crashed")))
    s = spec(players=("greedy", "alphabeta:depth=2", f"module:{bot}"), openings=2)
    rows = run_tournament(s, tmp_path / "r.jsonl", workers=2, progress=False)
    assert (tmp_path / "crashed").exists()
    assert len(rows) == 12 and len(set(keys(rows))) == 12
    assert len(read_results(tmp_path / "r.jsonl")) == 12


STARTER_BOT = '''
import copy
from MancalaBoard import *          # seed 003's starter layout: the board beside the player


class Player:
    HUMAN, RANDOM, MINIMAX, ABPRUNE, CUSTOM = 0, 1, 2, 3, 4

    def __init__(self, playerNum, playerType, ply=0):
        self.num = playerNum
        self.opp = 2 - playerNum + 1
        self.type = playerType
        self.ply = ply

    def chooseMove(self, board):
        return board.legalMoves(self)[0]


class MancalaPlayer(Player):
    """One-ply greedy on the store difference, the way the starter code would write it."""

    def score(self, board):
        return board.scoreCups[self.num - 1] - board.scoreCups[self.opp - 1]

    def chooseMove(self, board):
        best, best_move = None, None
        for move in board.legalMoves(self):
            nb = copy.deepcopy(board)
            nb.makeMove(self, move)
            value = self.score(nb)
            if best is None or value > best:
                best, best_move = value, move
        return best_move


class Cheater(Player):
    def chooseMove(self, board):
        return 99
'''

STARTER_BOARD = '''
from mancala.players.module import StarterBoard as _Board


class MancalaBoard(_Board):
    """Stands in for the course's MancalaBoard.py (same API, our rules underneath)."""
'''


def test_seed_003_module_plays_complete_games_and_illegal_choice_forfeits(tmp_path):
    (tmp_path / "Player.py").write_text(STARTER_BOT)
    (tmp_path / "MancalaBoard.py").write_text(STARTER_BOARD)
    bot = tmp_path / "Player.py"
    s = spec(game="kalah(pits=4,seeds=3)", players=(f"module:{bot}", "random", f"module:{bot}:Cheater"))
    rows = run_tournament(s, tmp_path / "r.jsonl", workers=1, progress=False)
    for row in rows:
        cheater = f"module:{bot}:Cheater"
        if cheater in row["pairing"]:
            assert row["forfeit"] == row["players"].index(cheater)
            assert "not legal" in row["error"], row["error"]
        else:
            assert row["finished"] and row["forfeit"] is None and row["moves"], (
                row["error"],
                row["moves"],
                row["opening"],
            )


def test_openspiel_bots_play_complete_games(tmp_path):
    pytest.importorskip("pyspiel")
    s = TournamentSpec(
        "kalah", ("openspiel-mcts:sims=30", "openspiel-ab:depth=2", "greedy"), openings=1, plies=2, balance=3, seed=2
    )
    rows = run_tournament(s, tmp_path / "r.jsonl", workers=1, progress=False)
    assert len(rows) == 6
    for row in rows:
        assert row["finished"] and row["forfeit"] is None, row["error"]
    with pytest.raises(Exception, match="standard Kalah"):
        run_tournament(
            TournamentSpec(GAME, ("openspiel-mcts:sims=5", "greedy"), openings=1, plies=1, balance=9),
            tmp_path / "x.jsonl",
            workers=1,
            progress=False,
        )


def run_cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "mancala", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_cli_runs_a_tournament_writes_the_report_and_redraws_it(tmp_path):
    out = run_cli(
        "arena",
        "greedy",
        "alphabeta:depth=2",
        "--pits",
        "3",
        "--seeds",
        "2",
        "--openings",
        "2",
        "--plies",
        "2",
        "--workers",
        "1",
        "--results",
        "t.jsonl",
        "--no-progress",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    md, png = report_paths(tmp_path / "t.jsonl")
    assert md.exists() and png.read_bytes()[:4] == b"\x89PNG"
    assert "| `greedy` vs `alphabeta:depth=2` | 4 |" in out.stdout
    png.unlink()
    again = run_cli("arena", "report", "t.jsonl", cwd=tmp_path)
    assert again.returncode == 0 and png.exists()
    bad = run_cli("arena", "greedy", "nonsense:depth=2", "--pits", "3", cwd=tmp_path)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    missing = run_cli("arena", "report", "nope.jsonl", cwd=tmp_path)
    assert missing.returncode == 2 and "no results file" in missing.stderr
