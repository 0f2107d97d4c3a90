"""``benchmarks/bench_shortfall.py --check-moves``: each move of ours valued before and after
by the solver, checked against a plain negamax on a small board (extra turns and moves that
end the game included)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import lru_cache

import pytest
from helpers import (
    BENCHMARKS,
    benchmark_module,
    small_engine_cache,  # noqa: F401 (an autouse fixture)
)

from mancala.games import make_game

GAME = make_game("kalah(pits=3,seeds=3)")


@lru_cache(maxsize=None)
def _negamax(state) -> int:
    """The exact final margin for the player to move, by plain negamax (no engine)."""
    if state.finished:
        return GAME.score(state, GAME.to_move(state))
    mover = GAME.to_move(state)
    best = None
    for m in GAME.legal_moves(state):
        child = GAME.apply(state, m)
        if child.finished:
            v = GAME.score(child, mover)
        else:
            v = _negamax(child) if GAME.to_move(child) == mover else -_negamax(child)
        best = v if best is None else max(best, v)
    assert best is not None
    return best


def _random_game(seed: int) -> list[str]:
    rng = random.Random(seed)
    state, words = GAME.initial_state(), []
    while not state.finished:
        move = rng.choice(GAME.legal_moves(state))
        words.append(str(move))
        state = GAME.apply(state, move)
    return words


def _expected(words: list[str], ours: int) -> list[tuple[int, int, int]]:
    """(ply, value before, value after) of each point-losing move of player ``ours``."""
    state, out = GAME.initial_state(), []
    for word in words:
        mover = GAME.to_move(state)
        child = GAME.apply(state, GAME.parse_move(state, word))
        if mover == ours:
            before = _negamax(state)
            if child.finished:
                after = GAME.score(child, mover)
            else:
                after = _negamax(child) if GAME.to_move(child) == mover else -_negamax(child)
            if after < before:
                out.append((state.ply, before, after))
        state = child
    return out


def test_check_moves_matches_negamax():
    bench = benchmark_module("bench_shortfall")
    found_any = 0
    for seed in range(3):
        words = _random_game(seed)
        for ours in (0, 1):
            got = bench.check_moves(GAME, [], words, ours, 100)
            want = _expected(words, ours)
            assert [(x["ply"], x["before"], x["after"]) for x in got["lost_points"]] == want
            assert got["point_losing_moves"] == len(want)
            assert got["unchecked_moves"] == 0
            found_any += len(want)
            for x in got["lost_points"]:  # each can be replayed from its moves
                assert x["moves_so_far"] == words[: x["ply"]]
                assert x["lost"] == x["before"] - x["after"] > 0
    assert found_any > 0  # random play drops points: the check has something to find


def test_check_moves_leaves_big_positions_unchecked():
    bench = benchmark_module("bench_shortfall")
    words = _random_game(0)
    got = bench.check_moves(GAME, words[:1], words[1:], GAME.to_move(GAME.initial_state()) ^ 1, 10)
    total = sum(
        1
        for i, _ in enumerate(words[1:], start=1)
        if GAME.to_move(_replay(words[:i])) == GAME.to_move(GAME.initial_state()) ^ 1
    )
    assert got["checked_moves"] + got["unchecked_moves"] == total
    assert got["unchecked_moves"] > 0


def _replay(words: list[str]):
    state = GAME.initial_state()
    for w in words:
        state = GAME.apply(state, GAME.parse_move(state, w))
    return state


#: a point-losing move of ``best:nodes=2000000`` against MCTS (docs/engine.md, "Dropped
#: points"): after these moves South (31 seeds in the pits) plays 3 at depth 20, worth -6,
#: where 2 keeps the position's exact value -2 (the solver: 2 -> -2, 3 -> -6, 5 -> -12)
DROPPED = "4 4 5 2 3 2 4 6 1 1 6 4 3 3 6 4 6 1 1"
DROPPED_VALUES = {"2": -2, "3": -6, "5": -12}


@pytest.mark.slow
def test_dropped_point_position_is_proved_with_more_nodes(monkeypatch):
    """The cause was search strength, not a wrong proof: with 6 M nodes the player's own
    iterative deepening proves the value (-2) and plays the one move that keeps it."""
    from mancala.engine import best_move  # noqa: PLC0415
    from mancala.engine import engine as E  # noqa: PLC0415
    from mancala.engine.solver import prove  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_ENDGAME_SEEDS", "10")  # the player's usual database and table
    monkeypatch.setenv("MANCALA_TT_MB", "64")
    E.reset()
    game = make_game("kalah")
    state = game.initial_state()
    for word in DROPPED.split():
        state = game.apply(state, game.parse_move(state, word))
    mover = game.to_move(state)
    values = {}
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        value = prove(game, child)[0]
        values[str(move)] = value if game.to_move(child) == mover else -value
    assert values == DROPPED_VALUES
    assert prove(game, state)[0] == -2
    E.reset()
    found = best_move(game, state, 1e9, max_nodes=6_000_000)
    assert found.algorithm == "engine(exact)"
    assert found.value == -2
    assert str(found.move) == "2"


def test_every_first_move_script_matches_negamax(tmp_path):
    """``benchmarks/kalah_first_moves.py``: every line of the first turn (extra turns expanded)
    is one row, valued for the first player as plain negamax values it; the start is the best
    row; a second run with the same file proves nothing again."""
    script = BENCHMARKS / "kalah_first_moves.py"
    results = tmp_path / "rows.jsonl"
    command = [sys.executable, str(script), "--game", "kalah(pits=3,seeds=3)", "--endgame-seeds", "6", "--root"]
    env = dict(os.environ, MANCALA_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([*command, "--results", str(results)], env=env, check=True, capture_output=True)
    rows = {r["moves"]: r["value"] for r in map(json.loads, results.read_text().splitlines())}
    start = GAME.initial_state()
    expected = {}
    stack = [((), start)]
    while stack:  # the first turn's lines, by the rules alone
        line, state = stack.pop()
        for m in GAME.legal_moves(state):
            child = GAME.apply(state, m)
            if not child.finished and GAME.to_move(child) == GAME.to_move(start):
                stack.append(((*line, str(m)), child))
            else:
                value = (
                    GAME.score(child, 0)
                    if child.finished
                    else _negamax(child) * (1 if GAME.to_move(child) == 0 else -1)
                )
                expected[" ".join((*line, str(m)))] = value
    assert rows.pop("start") == _negamax(start) == max(expected.values())
    assert rows == expected and any(" " in key for key in rows)  # (3,3) has an extra-turn first move
    subprocess.run([*command, "--results", str(results)], env=env, check=True, capture_output=True)
    assert len(results.read_text().splitlines()) == len(expected) + 1
