"""Small Togyz Kumalak boards solved from their start (``mancala.engine.togyz.small``): the
retrograde solution against an independent brute-force search of every line (a line ends at
its first repeated position), and on a bigger board every position's value obeys the minimax
equations (South takes the best child, North the worst) under the cycle convention."""

from __future__ import annotations

import pytest

from mancala.engine.togyz import small
from mancala.engine.togyz.small import position_key, solve_small
from mancala.errors import BadInput
from mancala.games import make_game


def negamax(game, state, path: set) -> int:
    """South's final margin with best play, by plain search of every line, a line ending at
    its first repeated position with the stones on the board split evenly: Ehrenfeucht and
    Mycielski's cycle-forming game, whose value is the endless game's when every cycle is worth
    the same (here: its kazans', which no move of a cycle changes)."""
    if game.is_terminal(state):
        return game.score(state, 0)
    key = position_key(state)
    if key in path:
        return state.kazans[0] - state.kazans[1]
    path.add(key)
    values = [negamax(game, game.apply(state, m), path) for m in game.legal_moves(state)]
    path.discard(key)
    return max(values) if state.seat == 0 else min(values)


@pytest.mark.parametrize("spec", ["togyz(houses=2,stones=1)", "togyz(houses=2,stones=2)", "togyz(houses=2,stones=3)"])
def test_the_solution_agrees_with_a_search_of_every_line(spec):
    game = make_game(spec)
    solution = solve_small(game)
    start = game.initial_state()
    assert solution.value == negamax(game, start, set())
    for move in game.legal_moves(start):
        assert solution.first_moves[str(move)] == negamax(game, game.apply(start, move), set())


def test_with_cycles_every_value_obeys_the_minimax_equations(monkeypatch):
    game = make_game("togyz(houses=3,stones=2)")
    kept = {}
    original = small._solve_level

    def keep(level, stay, children, known):
        values, endless = original(level, stay, children, known)
        kept.update(values)
        kept["children"] = children
        return values, endless

    monkeypatch.setattr(small, "_solve_level", keep)
    solution = solve_small(game)
    assert solution.drawn_by_cycles > 0
    children = kept.pop("children")
    values = dict(kept)
    start = position_key(game.initial_state())

    def value(key):
        if key in values:
            return values[key]
        state = game.position(key[0], key[1], key[2], key[3])
        return game.score(state, 0)

    for key, moves in children.items():
        best = (max if key[3] == 0 else min)(value(c) for _, c in moves)
        assert values[key] == best, key
    assert solution.value == values[start]


def test_too_big_a_board_is_refused_in_one_line():
    with pytest.raises(BadInput, match="too big a board"):
        solve_small(make_game("togyz(houses=4,stones=2)"), limit=10_000)
