"""Conformance of our ``standard`` preset with OpenSpiel's ``mancala`` (Kalah(6,4), standard rules).

OpenSpiel's board (its ObservationTensor: 14 cells, then the player to move, then the
move number) is: cell 0 player 1's store, 1..6 player 0's pits, 7 player 0's store,
8..13 player 1's pits.  Its actions are the board cells of the pit to sow.  Its game is
over as soon as either row is empty, and it leaves the remaining seeds where they are
(its returns add each side's row to its store), whereas we sweep them into the stores:
at a finished game we therefore compare each store with OpenSpiel's store plus row.
"""

from __future__ import annotations

import random

import pytest

from mancala.games import make_game
from mancala.games.kalah import KalahMove

pyspiel = pytest.importorskip("pyspiel")

TRANSITIONS = 30_000


def spiel_cells(state) -> list[int]:
    return [int(x) for x in state.observation_tensor(0)[:14]]


def as_ours(cells: list[int]) -> tuple[int, ...]:
    """OpenSpiel's cells in our board order (South pits, South store, North pits, North store)."""
    return tuple(cells[1:14] + cells[0:1])


def test_openspiel_board_layout_is_as_described():
    state = pyspiel.load_game("mancala").new_initial_state()
    state.apply_action(3)  # player 0's third pit: 4 seeds to pits 4, 5, 6 and the store
    cells = spiel_cells(state)
    assert cells == [0, 4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4]
    assert state.current_player() == 0  # extra turn
    game = make_game("kalah")
    ours = game.apply(game.initial_state(), KalahMove(3))
    assert ours.board == as_ours(cells) and game.to_move(ours) == 0


def test_standard_preset_agrees_with_openspiel_on_random_transitions():
    rng = random.Random(1234)
    spiel = pyspiel.load_game("mancala")
    game = make_game("kalah(preset=standard)")
    done = finished_games = laps = extra_turns = 0
    while done < TRANSITIONS:
        theirs = spiel.new_initial_state()
        ours = game.initial_state()
        # half the games are uniformly random; the others mostly sow their smallest pit,
        # which lets seeds pile up and so exercises laps round the board
        hoard = rng.random() < 0.5
        while not theirs.is_terminal():
            assert not game.is_terminal(ours)
            player = theirs.current_player()
            assert game.to_move(ours) == player
            cells = spiel_cells(theirs)
            assert ours.board == as_ours(cells)
            actions = theirs.legal_actions()
            offset = 0 if player == 0 else 7
            assert [m.pit + offset for m in game.legal_moves(ours)] == actions
            if hoard and rng.random() < 0.8:
                action = min(actions, key=lambda a: (cells[a], rng.random()))
            else:
                action = rng.choice(actions)
            laps += cells[action] >= 13
            theirs.apply_action(action)
            ours = game.apply(ours, KalahMove(action - offset))
            done += 1
            if not theirs.is_terminal():
                extra_turns += theirs.current_player() == player
                assert ours.ply == theirs.move_number()
        # the game is over in both; OpenSpiel leaves the rows unswept
        finished_games += 1
        assert game.is_terminal(ours)
        cells = spiel_cells(theirs)
        assert ours.store(0) == cells[7] + sum(cells[1:7])
        assert ours.store(1) == cells[0] + sum(cells[8:14])
        assert ours.row(0) == (0,) * 6 and ours.row(1) == (0,) * 6
        margin = game.score(ours, 0)
        assert theirs.returns() == ([1.0, -1.0] if margin > 0 else [-1.0, 1.0] if margin < 0 else [0.0, 0.0])
    # the sample covered what it should
    assert finished_games > 100 and laps > 20 and extra_turns > 1000
