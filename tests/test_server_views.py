"""The board views the server sends: replaying a move's animation steps on the board
before it must give the board after it, for every Kalah rule set and for Bao."""

from __future__ import annotations

import random

import pytest

from mancala.games import PRESETS, make_game
from mancala.games.bao import parse_hole
from mancala.server.views import board_view, last_view


def replay_kalah(before: dict, steps: list[dict]) -> list[int]:
    cells = list(before["cells"])
    for step in steps:
        if step["kind"] == "pickup":
            assert cells[step["cell"]] == step["seeds"]
            cells[step["cell"]] = 0
        elif step["kind"] == "sow":
            for c in step["cells"]:
                cells[c] += 1
        elif step["kind"] == "capture":
            assert sum(cells[c] for c in step["cells"]) == step["seeds"]
            for c in step["cells"]:
                cells[c] = 0
            cells[step["store"]] += step["seeds"]
        elif step["kind"] == "sweep":
            for m in step["moves"]:
                assert cells[m["from"]] == m["seeds"]
                cells[m["from"]] = 0
                cells[m["to"]] += m["seeds"]
    return cells


@pytest.mark.parametrize(
    "spec",
    [f"kalah(preset={name},pits=4,seeds=3)" for name in PRESETS]
    + [
        "kalah(pits=3,seeds=9,skip_origin=true)",
        "kalah(remaining=opponent,pits=3,seeds=2)",
        "kalah(end=no-move,pits=3,seeds=2)",
    ],
)
def test_kalah_steps_replay_to_the_board_after(spec):
    game = make_game(spec)
    rng = random.Random(7)
    kinds = set()
    for _ in range(20):
        state = game.initial_state()
        ply = 0
        while not game.is_terminal(state):
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            ply += 1
            last = last_view(game, state, move, after, ply)
            assert last["before"] == board_view(game, state)
            kinds.update(s["kind"] for s in last["steps"])
            if move.pit is not None:
                assert replay_kalah(last["before"], last["steps"]) == list(after.board)
            state = after
    assert {"pickup", "sow", "sweep"} <= kinds
    if "capture=none" not in spec and "no-stealing" not in spec:
        assert "capture" in kinds


def test_bao_steps_replay_to_the_board_after():
    game = make_game("bao")
    rng = random.Random(11)
    kinds = set()
    for _ in range(6):
        state = game.initial_state()
        while not game.is_terminal(state) and state.ply < 120:
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            last = last_view(game, state, move, after, state.ply + 1)
            holes = [list(h) for h in last["before"]["holes"]]
            stock = list(last["before"]["stock"])
            p = state.player
            owner = lambda name: 1 if name[0] in "ab" else 0  # noqa: E731
            for step in last["steps"]:
                kinds.add(step["kind"])
                if step["kind"] == "stock":
                    holes[p][parse_hole(step["hole"])] += 1
                    stock[p] -= 1
                    continue
                src = step["from"]
                who, idx = owner(src), parse_hole(src)
                if step["kind"] == "tax":
                    holes[who][idx] -= 2
                else:
                    assert holes[who][idx] == step["seeds"], step
                    holes[who][idx] = 0
                assert len(step["holes"]) == step["seeds"]
                for name in step["holes"]:
                    holes[owner(name)][parse_hole(name)] += 1
            if len(after.last.laps) == after.last.lap_count:
                assert holes == [list(h) for h in after.holes] and stock == list(after.stock)
            state = after
    assert {"stock", "sow", "capture", "relay"} <= kinds
