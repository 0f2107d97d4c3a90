"""The published perfect game of Kalah(6,4) (Irving, Donkers & Uiterwijk, "Solving Kalah",
ICGA Journal 23(3), 2000; shared/anchors.md section 2).

The paper writes holes 0..5 in sowing order from the mover's side, runs the digits
of one player's turn together and separates turns with ``-``.  Our pits are 1..6 in
the same order, so hole h is our pit h+1.  The paper's rules are our ``empty-capture``
preset (the capturing seed is banked even when the opposite pit is empty).
"""

from __future__ import annotations

import pytest

from mancala.games import make_game

PERFECT_GAME = "25-10-3-3-5153-1-4-5-045-4-535452-53-4-1-3-2-0-54-1-3"


def replay(game, line: str):
    """Play the line, checking that the turn passes exactly at each ``-``; return the
    final state and the board after each turn."""
    state = game.initial_state()
    boards = []
    turns = line.split("-")
    for number, turn in enumerate(turns):
        mover = number % 2  # South (player 0) opens
        for i, hole in enumerate(turn):
            assert not game.is_terminal(state), f"the game ended before turn {number + 1}"
            assert game.to_move(state) == mover, f"turn {number + 1} ({turn}), move {i + 1}"
            state = game.apply(state, game.parse_move(state, str(int(hole) + 1)))
            if i < len(turn) - 1:
                assert state.last.extra_turn, f"turn {number + 1} ({turn}) should go on after {hole}"
        if number < len(turns) - 1:
            assert game.to_move(state) != mover and not state.last.extra_turn, (
                f"turn {number + 1} ({turn}) should end here"
            )
        boards.append(state.board)
    return state, boards


@pytest.mark.parametrize("preset", ["empty-capture", "homework"])
def test_perfect_game_replays_and_south_wins_by_10(preset):
    game = make_game(f"kalah(preset={preset})")
    final, boards = replay(game, PERFECT_GAME)
    assert game.is_terminal(final)
    assert game.score(final, 0) == 10
    # North's last move banks a single seed from an empty pit (an empty capture) and so
    # empties its row; South's 6 remaining seeds go to South's store: 29 - 19.
    assert final.last.capture and final.last.captured == 1
    assert final.board == (0,) * 6 + (29,) + (0,) * 6 + (19,)
    # a few intermediate boards, worked out by hand from the start
    assert boards[0] == (4, 4, 0, 5, 5, 0, 2, 5, 5, 5, 5, 4, 4, 0)  # 3 (extra turn), then 6
    assert boards[1] == (4, 4, 0, 5, 5, 0, 2, 0, 1, 7, 7, 6, 6, 1)  # North: 2, then 1


def test_perfect_game_needs_the_empty_capture_rule():
    """Under the standard rules every move of the line is still legal, but turn 13
    (South's hole 4: one seed into empty pit 6, facing an empty pit) banks nothing, and the
    final position is not over."""
    standard, _ = replay(make_game("kalah"), PERFECT_GAME[: PERFECT_GAME.index("-4-1-3-2")])
    empty, _ = replay(make_game("kalah(preset=empty-capture)"), PERFECT_GAME[: PERFECT_GAME.index("-4-1-3-2")])
    assert standard.board == empty.board == (1, 0, 0, 1, 1, 0, 21, 0, 2, 10, 0, 0, 0, 12)
    game = make_game("kalah")
    after = game.apply(standard, game.parse_move(standard, "5"))
    assert after.board == (1, 0, 0, 1, 0, 1, 21, 0, 2, 10, 0, 0, 0, 12)
    game = make_game("kalah(preset=empty-capture)")
    after = game.apply(empty, game.parse_move(empty, "5"))
    assert after.board == (1, 0, 0, 1, 0, 0, 22, 0, 2, 10, 0, 0, 0, 12)
    final, _ = replay(make_game("kalah"), PERFECT_GAME)
    assert not make_game("kalah").is_terminal(final)
