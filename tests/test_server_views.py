"""The board views the server sends: replaying a move's animation steps on the board
before it must give the board after it, for every Kalah rule set and for Bao."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mancala.games import PRESETS, make_game
from mancala.games.bao import parse_hole
from mancala.server.views import board_view, last_view, legal_view, result_view


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


# --- Oware ------------------------------------------------------------------------------------

OWARE_POSITIONS = {
    p["id"]: p
    for p in json.loads((Path(__file__).resolve().parent / "data" / "oware_positions.json").read_text())["positions"]
}


def replay_oware(before: dict, steps: list[dict]) -> list[int]:
    """The cells (houses, then South's and North's stores) after ``steps`` on ``before``."""
    cells = list(before["cells"])
    origin = None
    for step in steps:
        if step["kind"] == "pickup":
            assert cells[step["cell"]] == step["seeds"]
            cells[step["cell"]] = 0
            origin = step["cell"]
        elif step["kind"] == "sow":
            for c in step["cells"]:
                cells[c] += 1
        elif step["kind"] == "back":
            cells[step["cell"]] += 1
        elif step["kind"] == "skip":
            assert step["why"] == ("origin" if step["cell"] == origin else "twelve")
        elif step["kind"] == "capture":
            assert cells[step["cell"]] == step["seeds"]
            cells[step["cell"]] = 0
            cells[step["store"]] += step["seeds"]
        elif step["kind"] == "sweep":
            for m in step["moves"]:
                assert cells[m["from"]] == m["seeds"]
                cells[m["from"]] = 0
            for seat, store in enumerate(before["stores"]):
                cells[store] = step["stores"][seat]
    return cells


@pytest.mark.parametrize(
    "spec",
    [
        "oware",
        "oware(preset=openspiel)",
        "oware(preset=awari,houses=4,seeds=3)",
        "oware(preset=wari,houses=3,seeds=2)",
        "oware(skip_twelve=true,houses=3,seeds=7)",
        "oware(grand_slam=opponent-takes-rest,houses=3,seeds=3)",
        "oware(grand_slam=leave-left,cannot_move=split,houses=3,seeds=3)",
        "oware(skip_origin=false,must_feed=false,cannot_move=unscored,houses=2,seeds=5)",
    ],
)
def test_oware_steps_replay_to_the_board_after(spec):
    game = make_game(spec)
    rng = random.Random(5)
    kinds: set[str] = set()
    for _ in range(12):
        state = game.initial_state()
        ply = 0
        while not game.is_terminal(state) and ply < 300:
            move = rng.choice(game.legal_moves(state))
            after = game.apply(state, move)
            ply += 1
            last = last_view(game, state, move, after, ply)
            assert last["before"] == board_view(game, state)
            kinds.update(s["kind"] for s in last["steps"])
            cells = replay_oware(last["before"], last["steps"])
            assert cells == board_view(game, after)["cells"], (spec, str(move), last["steps"])
            sown = [c for s in last["steps"] if s["kind"] == "sow" for c in s["cells"]]
            assert (
                sown[-1] == after.last.landing
                and len(sown) + sum(s["kind"] == "back" for s in last["steps"]) == after.last.sown
            )
            state = after
    assert {"pickup", "sow", "capture"} <= kinds


def test_oware_view_of_a_lap_that_captures():
    # O-06: F's 12 seeds lap the board, skip F, and the last lands on a (2 seeds): captured
    game = make_game("oware")
    data = OWARE_POSITIONS["O-06"]
    state = game.parse_position(data["position"])
    board = board_view(game, state)
    assert board == {
        "kind": "oware",
        "houses": 6,
        "cells": [3, 2, 0, 2, 6, 12, 0, 10, 4, 3, 0, 1, 5, 0],
        "stores": [12, 13],
        "names": list("ABCDEFabcdef"),
        "rows": {"south": [0, 1, 2, 3, 4, 5], "north": [11, 10, 9, 8, 7, 6]},
        "to_move": 0,
        "finished": False,
        "total": 48,
        "unscored": 0,
        "restricted": None,
    }
    assert legal_view(game, state) == [
        {"move": m, "cell": c, "number": c + 1} for m, c in (("A", 0), ("B", 1), ("D", 3), ("E", 4), ("F", 5))
    ]
    move = game.parse_move(state, "F")
    after = game.apply(state, move)
    last = last_view(game, state, move, after, 1)
    assert last["steps"] == [
        {"kind": "pickup", "cell": 5, "seeds": 12},
        {"kind": "sow", "cells": [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4]},
        {"kind": "skip", "cell": 5, "why": "origin"},
        {"kind": "sow", "cells": [6]},
        {"kind": "capture", "cell": 6, "seeds": 2, "store": 12},
    ]
    assert [n["kind"] for n in last["notices"]] == ["lap", "capture"]
    assert "F is skipped" in last["notices"][0]["text"] and last["notices"][1]["text"] == "capture of 2 (a 2)"
    assert board_view(game, after)["cells"][:12] == [int(x) for x in data["after"].split("-")[:12]]


def test_oware_view_explains_must_feed_grand_slams_and_the_end():
    game = make_game("oware")
    # O-08: South's row is empty, so North must feed: only d, e and f reach it
    feed = board_view(game, game.parse_position(OWARE_POSITIONS["O-08"]["position"]))["restricted"]
    assert feed["kind"] == "must_feed" and feed["houses"] == ["a", "b", "c"]
    assert feed["text"] == "South has no seeds: North must feed them, and only d, e and f reach South's row"
    # O-11: d would take all of South's seeds: under Abapa it captures nothing
    state = game.parse_position(OWARE_POSITIONS["O-11"]["position"])
    move = game.parse_move(state, "d")
    last = last_view(game, state, move, game.apply(state, move), 1)
    assert {"kind": "grand_slam", "cells": [2, 1, 0], "rule": "no-capture"} in last["steps"]
    assert not any(s["kind"] == "capture" for s in last["steps"])
    assert last["notices"][0]["kind"] == "grand_slam" and "nothing is captured" in last["notices"][0]["text"]
    # where grand slams are forbidden, the board says which house and why
    wari = make_game("oware(grand_slam=illegal)")
    barred = board_view(wari, wari.parse_position(OWARE_POSITIONS["O-11"]["position"]))["restricted"]
    assert barred["kind"] == "no_grand_slam" and barred["houses"] == ["d"] and "grand slam" in barred["text"]
    # O-09: North reaches 25: the end, why, and the final count
    state = game.parse_position(OWARE_POSITIONS["O-09"]["position"])
    move = game.parse_move(state, "f")
    after = game.apply(state, move)
    last = last_view(game, state, move, after, 1)
    assert last["notices"][-1] == {
        "kind": "game_over",
        "text": "game over: North has captured 25 of the 48 seeds, more than half. Final count: South 23, North 25",
    }
    assert board_view(game, after)["finished"] and result_view(game, after, ["South", "North"])["winner"] == 1


def test_a_bao_capture_notice_counts_one_seed_as_one_seed():
    """Issue 32: "1 capture (1 seeds)"."""
    game = make_game("bao")
    state = game.initial_state()
    for text in ("A6R*", "a6L*"):
        state = game.apply(state, game.parse_move(state, text))
    move = game.parse_move(state, "A5R")
    notices = [n["text"] for n in last_view(game, state, move, game.apply(state, move), 3)["notices"]]
    assert "1 capture (1 seed)" in notices, notices


@pytest.mark.parametrize(
    "preset, position, played, text",
    [
        # South's pit 1 holds 1 seed, pit 2 is empty; North's pit 5 (facing it) holds 6
        (
            "standard",
            "1-0-5-5-5-5-0-4-4-4-4-6-4-0-S",
            "1",
            "South captures 7 seeds: North pit 5's 6 and the last seed, in South pit 2",
        ),
        # pit 3's 2 seeds sown counter-clockwise end in the empty pit 5, facing North's pit 2 (4 seeds)
        ("ethiopian", "5-0-2-0-0-5-0-4-4-4-4-6-4-0-S", "3R", "South captures 4 seeds from North pit 2"),
    ],
)
def test_a_kalah_capture_notice_names_the_player_and_the_pits(preset, position, played, text):
    """Issue 32: Kalah's capture notice said only "capture of 7"."""
    game = make_game(f"kalah(preset={preset})")
    state = game.parse_position(position)
    move = game.parse_move(state, played)
    after = game.apply(state, move)
    capture = [n["text"] for n in last_view(game, state, move, after, 1)["notices"] if n["kind"] == "capture"]
    assert capture == [text]
