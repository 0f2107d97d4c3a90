"""Tic-tac-toe: its rules, and known game values found by alpha-beta.

Cells are numbered 0-8 in reading order::

    0 1 2
    3 4 5
    6 7 8
"""

from __future__ import annotations

import pytest

from mancala.errors import BadInput, IllegalMove
from mancala.evaluation import score_difference
from mancala.games import make_game
from mancala.games.tictactoe import TicTacToe, TicTacToeMove
from mancala.search import alphabeta, minimax

GAME = TicTacToe()


def value_after(state, cell: int) -> int:
    """The perfect-play value, for the player who played ``cell``, of the position after it."""
    child = GAME.apply(state, TicTacToeMove(cell))
    return (
        -alphabeta(GAME, child, 9, score_difference).value
        if not GAME.is_terminal(child)
        else GAME.score(child, GAME.to_move(state))
    )


# --- rules -----------------------------------------------------------------------------------


def test_empty_board_has_nine_moves_and_x_to_move():
    state = make_game("tictactoe").initial_state()
    assert state.cells == "........."
    assert GAME.to_move(state) == 0 and GAME.player_name(0) == "X"
    assert [str(m) for m in GAME.legal_moves(state)] == [str(i) for i in range(9)]


def test_moves_alternate_and_fill_the_chosen_cell():
    state = GAME.initial_state()
    state = GAME.apply(state, GAME.parse_move(state, "4"))
    assert state.cells == "....X...." and GAME.to_move(state) == 1
    state = GAME.apply(state, GAME.parse_move(state, " 0 "))
    assert state.cells == "O...X...." and GAME.to_move(state) == 0
    assert [m.cell for m in GAME.legal_moves(state)] == [1, 2, 3, 5, 6, 7, 8]


def test_position_text_accepts_the_usual_empty_cell_marks_and_infers_the_mover():
    assert GAME.parse_position("XX_/_O_/---") == GAME.parse_position("xx.\n.o.\n...")
    state = GAME.parse_position("XX./.O./...")
    assert state.cells == "XX..O...." and GAME.to_move(state) == 1
    assert GAME.to_move(GAME.parse_position("XX./OO./...")) == 0


@pytest.mark.parametrize(
    "text",
    [
        "XX./.../...",
        "XO./...",
        "XA./.../...",
        "OO./.X./...",
        "XXX/OOO/...",  # both have a line
        "XXX/OO./..O",  # O moved after X had won
        "OOO/XX./XX.",
    ],
)  # X moved after O had won
def test_impossible_or_malformed_positions_raise_bad_input(text):
    with pytest.raises(BadInput):
        GAME.parse_position(text)


def test_finished_positions_are_accepted():
    """A won board that the game can reach is a position like any other (terminal)."""
    assert GAME.is_terminal(GAME.parse_position("XXX/OO./..."))
    assert GAME.is_terminal(GAME.parse_position("OOO/XX./X.."))
    assert GAME.is_terminal(GAME.parse_position("XXX/OOX/XOO"))


def test_taken_cells_and_bad_text_are_illegal_moves():
    state = GAME.parse_position("X../.../...")
    with pytest.raises(IllegalMove, match="taken"):
        GAME.parse_move(state, "0")
    with pytest.raises(IllegalMove, match="not a cell number"):
        GAME.parse_move(state, "b2")
    with pytest.raises(IllegalMove):
        GAME.apply(state, TicTacToeMove(9))


@pytest.mark.parametrize(
    "text, winner",
    [
        ("XXX/OO./...", 0),  # a row
        ("XO./XO./X..", 0),  # a column
        ("OXX/XO./..O", 1),  # the main diagonal
        ("XXO/XO./O..", 1),  # the anti-diagonal
    ],
)
def test_three_in_a_row_ends_the_game(text, winner):
    state = GAME.parse_position(text)
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == ()
    assert GAME.score(state, winner) == 1 and GAME.score(state, 1 - winner) == -1
    with pytest.raises(IllegalMove, match="over"):
        GAME.parse_move(state, "8")


def test_full_board_without_a_line_is_a_draw():
    state = GAME.parse_position("XOX/XOO/OXX")
    assert GAME.is_terminal(state)
    assert GAME.score(state, 0) == 0 and GAME.score(state, 1) == 0


def test_render_shows_free_cells_by_number_as_in_seed_003():
    assert GAME.render(GAME.parse_position("XX_/_O_/---")) == "XX2\n3O5\n678"


# --- game values -------------------------------------------------------------------------------


def test_game_value_from_the_empty_board_is_a_draw():
    result = alphabeta(GAME, GAME.initial_state(), 9, score_difference)
    assert result.value == 0
    assert result.move == TicTacToeMove(0)  # every first move draws; ties go to cell 0
    assert len(result.line) == 9  # perfect play fills the board


def test_x_wins_at_once_with_two_in_a_row():
    state = GAME.parse_position("XX./OO./...")
    result = alphabeta(GAME, state, 1, score_difference)
    assert result.value == 1 and result.move == TicTacToeMove(2)


def test_x_forces_a_win_after_o_answers_a_corner_with_an_adjacent_edge():
    """X in corner 0, O on edge 1: X wins by 3, 4 or 6 (each sets up a fork); 2, 5, 7
    and 8 only draw.  The search plays 3, the first winning cell."""
    state = GAME.parse_position("XO./.../...")
    result = alphabeta(GAME, state, 9, score_difference)
    assert result.value == 1 and result.move == TicTacToeMove(3)
    assert {c for c in (2, 3, 4, 5, 6, 7, 8) if value_after(state, c) == 1} == {3, 4, 6}
    assert minimax(GAME, state, 9, score_difference).value == 1


@pytest.mark.parametrize("text", ["XX./.O./...", "XX_/_O_/---"])
def test_o_must_block_the_top_row(text):
    """Seed 003's example: after X X _ / _ O _, O's only move that does not lose is 2."""
    state = GAME.parse_position(text)
    result = alphabeta(GAME, state, 9, score_difference)
    assert result.value == 0 and result.move == TicTacToeMove(2)
    assert all(value_after(state, c) == -1 for c in (3, 5, 6, 7, 8))


def test_an_unsolved_summary_says_draw_not_plus_zero():
    """Issue 32: a budget too small to solve the start leaves an estimate, which the summary
    words as an outcome ("draw"), never "+0"."""
    from mancala.analysis.position import analysis_of  # noqa: PLC0415
    from mancala.analysis.values import position_values  # noqa: PLC0415

    state = GAME.initial_state()
    result = analysis_of(GAME, state, position_values(GAME, state, 1_000))
    assert not result["solved"]
    assert result["summary"].startswith("best: ") and "(draw, estimate, depth" in result["summary"], result["summary"]
